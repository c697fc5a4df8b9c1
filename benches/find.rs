//! Benchmarks of `find`: construction streamed as text, min-conflicts, first solution.
//!
//! `cargo bench --bench find`; kept quick (10 samples). The large-N figures of the README
//! (10^7 and 10^8 queens, memory) come from `nqueens find` itself under `/usr/bin/time -v`.

use std::hint::black_box;
use std::io;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::format::Format;
use nqueens::large;

fn construction(c: &mut Criterion) {
    let mut group = c.benchmark_group("construct_perm_text");
    for n in [100_000usize, 1_000_000] {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            let construction = large::Construction::new(n).unwrap();
            b.iter(|| {
                let construction = black_box(construction);
                large::write_streamed(io::sink(), n, construction.cols(), Format::Perm).unwrap()
            });
        });
    }
    group.finish();
    // The same text through `write!` per number, the obvious way, for comparison.
    c.bench_function("construct_perm_text_fmt/1000000", |b| {
        let construction = large::Construction::new(1_000_000).unwrap();
        b.iter(|| {
            let mut out = io::BufWriter::new(io::sink());
            for col in black_box(construction).cols() {
                io::Write::write_fmt(&mut out, format_args!("{} ", col + 1)).unwrap();
            }
        });
    });
}

fn min_conflicts(c: &mut Criterion) {
    let mut group = c.benchmark_group("min_conflicts");
    for n in [10_000usize, 100_000, 1_000_000] {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                large::min_conflicts(n, seed).unwrap()
            });
        });
    }
    group.finish();
}

fn first(c: &mut Criterion) {
    let mut group = c.benchmark_group("first");
    for n in [20usize, 25] {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| large::first(black_box(n), None).unwrap().unwrap());
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = construction, min_conflicts, first
}
criterion_main!(benches);
