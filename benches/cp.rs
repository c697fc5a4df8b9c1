//! Benchmarks of the propagation solver: enumeration (the `n <= 64` word board), one solution
//! for a large board (the counter board), completing half of a solution, and deciding hard
//! blocked boards (one with a completion, one without), and the search rate on the double-word
//! board at N = 80, 100 and 128 (boards near each size's transition, a fixed number of nodes).
//!
//! `cargo bench --bench cp`. The comparison with OR-Tools is `bench/ortools_compare.py`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::cp::{Instance, Options, Solver, blocked_board};

fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("cp/count");
    group.sample_size(10);
    for n in [8, 10, 12] {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| Solver::new(&Instance::new(n), Options::default()).count())
        });
    }
    group.finish();
}

fn find(c: &mut Criterion) {
    let mut group = c.benchmark_group("cp/find");
    group.sample_size(10);
    for n in [100, 1000, 2000] {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| Solver::new(&Instance::new(n), Options::default()).find())
        });
    }
    group.finish();
}

fn complete(c: &mut Criterion) {
    let mut group = c.benchmark_group("cp/complete_half");
    for n in [20, 50, 100] {
        let solution = Solver::new(&Instance::new(n), Options::default())
            .find()
            .0
            .expect("a solution exists for n >= 4");
        let mut inst = Instance::new(n);
        // Every other row of a solution, reflected so the search does not just replay itself.
        for (r, &col) in solution.cols().iter().enumerate().step_by(2) {
            inst.fix(r, n - 1 - col as usize)
                .expect("a reflected solution is a solution");
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), &inst, |b, inst| {
            b.iter(|| Solver::new(inst, Options::default()).find())
        });
    }
    group.finish();
}

fn blocked(c: &mut Criterion) {
    let mut group = c.benchmark_group("cp/blocked");
    group.sample_size(10);
    // Near the phase transition, answers recorded from CP-SAT in the fixture headers.
    for name in ["50-2110-0", "50-2150-1"] {
        let path = format!(
            "{}/tests/fixtures/blocked/{name}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).expect("the fixture is in the repository");
        let inst = Instance::parse(&text).expect("the fixture parses");
        group.bench_with_input(BenchmarkId::from_parameter(name), &inst, |b, inst| {
            b.iter(|| Solver::new(inst, Options::default()).find())
        });
    }
    group.finish();
}

fn blocked_wide(c: &mut Criterion) {
    let mut group = c.benchmark_group("cp/blocked_wide_20k_nodes");
    group.sample_size(10);
    // Near each size's phase transition (docs/completion.md), where the search runs long:
    // a node limit makes each run the same fixed amount of search.
    for (n, m) in [(80, 5800), (100, 9250), (128, 15350)] {
        let inst = blocked_board(n, m, 1, 0);
        let options = Options {
            node_limit: Some(20_000),
            ..Default::default()
        };
        group.bench_with_input(BenchmarkId::from_parameter(n), &inst, |b, inst| {
            b.iter(|| Solver::new(inst, options).find())
        });
    }
    group.finish();
}

criterion_group!(benches, count, find, complete, blocked, blocked_wide);
criterion_main!(benches);
