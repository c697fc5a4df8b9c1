//! Benchmarks of the ladder: every algorithm counting the same boards, and the lazy listing.
//!
//! Small sample sizes keep a full run to a minute or so; the ratios between algorithms, not the
//! absolute times, are the point.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::algo::Algo;

fn ladder(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    for n in [8, 10, 12] {
        for algo in Algo::ALL {
            // Generate and test would take seconds an iteration beyond 10.
            if algo == Algo::Permutations && n > 10 {
                continue;
            }
            group.bench_with_input(BenchmarkId::new(algo.name(), n), &n, |b, &n| {
                b.iter(|| algo.count(n).unwrap())
            });
        }
    }
    group.finish();
}

fn listing(c: &mut Criterion) {
    let mut group = c.benchmark_group("list");
    group.bench_function("solutions 10", |b| {
        b.iter(|| nqueens::solutions(10).unwrap().count())
    });
    group.bench_function("unique_solutions 10", |b| {
        b.iter(|| nqueens::unique_solutions(10).unwrap().count())
    });
    group.bench_function("first 5 of 48", |b| {
        b.iter(|| nqueens::solutions(48).unwrap().take(5).count())
    });
    group.finish();
}

/// Both groups: small samples and short timings, so a full run takes a minute or so.
fn quick() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = quick();
    targets = ladder, listing
}
criterion_main!(benches);
