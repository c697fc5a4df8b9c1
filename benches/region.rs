//! Queens with regions: `cargo bench --bench region`.
//!
//! - `region-prove/<order>/<N>`: solve and prove unique (count with a limit of 2) one
//!   generated puzzle after another, 16 of each size, with each unit ordering;
//! - `region-generate/<N>`: make the next unique, rated puzzle of one seed on the calling
//!   thread, so the figure is the average over many puzzles;
//! - `region-rate/<N>`: the human-rule rater on the same puzzles as `region-prove`.
//!
//! Criterion reports elements (puzzles) per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nqueens::region::{Board, Generator, Order, Search, rate};

const SIZES: [usize; 4] = [8, 11, 15, 20];

/// 16 generated puzzles of size `n`, always the same.
fn puzzles(n: usize) -> Vec<Board> {
    Generator::new(n)
        .unwrap()
        .seed(1)
        .threads(1)
        .puzzles(16)
        .map(|p| p.unwrap().board)
        .collect()
}

fn prove(c: &mut Criterion) {
    let mut group = c.benchmark_group("region-prove");
    group.throughput(Throughput::Elements(1));
    for n in SIZES {
        let boards = puzzles(n);
        for (name, order) in [("fewest", Order::Fewest), ("rows", Order::Rows)] {
            let mut i = 0;
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| {
                    i = (i + 1) % boards.len();
                    let count = Search::new(&boards[i])
                        .order(order)
                        .limit(2)
                        .count()
                        .unwrap();
                    assert_eq!(count.solutions, 1);
                })
            });
        }
    }
    group.finish();
}

fn generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("region-generate");
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    for n in [9, 20] {
        let generator = Generator::new(n).unwrap().seed(1).threads(1);
        let mut index = 0;
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                index += 1;
                generator.puzzle(index).unwrap()
            })
        });
    }
    group.finish();
}

fn rating(c: &mut Criterion) {
    let mut group = c.benchmark_group("region-rate");
    group.throughput(Throughput::Elements(1));
    for n in SIZES {
        let boards = puzzles(n);
        let mut i = 0;
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                i = (i + 1) % boards.len();
                rate(&boards[i])
            })
        });
    }
    group.finish();
}

criterion_group!(benches, prove, generate, rating);
criterion_main!(benches);
