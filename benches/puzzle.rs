//! Puzzles a second on one core: `cargo bench --bench puzzle`. Each iteration makes the next
//! puzzle of one seed (`Generator::puzzle(i)` on the calling thread), so the figure is the
//! average over many different puzzles; criterion reports it as elements per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nqueens::puzzle::Generator;

fn puzzles(c: &mut Criterion) {
    let mut group = c.benchmark_group("puzzle");
    group.throughput(Throughput::Elements(1));
    for n in [12, 32] {
        for (name, blocked, minimal) in [
            ("plain", false, false),
            ("minimal", false, true),
            ("blocked", true, false),
            ("blocked-minimal", true, true),
        ] {
            let generator = Generator::new(n)
                .unwrap()
                .seed(1)
                .blocked(blocked)
                .minimal(minimal);
            let mut index = 0;
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| {
                    index += 1;
                    generator.puzzle(index).unwrap()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, puzzles);
criterion_main!(benches);
