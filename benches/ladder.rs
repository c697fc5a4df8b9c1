//! Benchmarks of the ladder.
use criterion::{criterion_group, criterion_main, Criterion};

fn ladder(_c: &mut Criterion) {}

criterion_group!(benches, ladder);
criterion_main!(benches);
