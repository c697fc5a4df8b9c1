//! Speed of the counting engine against a plain bitboard counter, measured in one process.
//!
//! `cargo bench --bench engine -- [N...]` (default 14 15 16 17 18) prints, for each N, the time
//! of the plain counter and of the engine on one and two threads, their ratios, nanoseconds per
//! search node and nodes per task. Each figure is the best of a few runs, so that noise from
//! other processes on the machine does not count against either side.
use std::time::{Duration, Instant};

use nqueens::engine::{backtrack::BacktrackTasks, kernel, Tally, TaskSet};

/// The textbook bitboard counter: one bit per column, two diagonal masks, recursion, every
/// solution found by placing the last queen. No symmetry.
fn plain(n: usize) -> u64 {
    fn go(full: u32, cols: u32, left: u32, right: u32) -> u64 {
        if cols == full {
            return 1;
        }
        let mut open = full & !(cols | left | right);
        let mut found = 0;
        while open != 0 {
            let q = open & open.wrapping_neg();
            open ^= q;
            found += go(full, cols | q, (left | q) << 1, (right | q) >> 1);
        }
        found
    }
    go((1u32 << n) - 1, 0, 0, 0)
}

fn engine(tasks: &BacktrackTasks, threads: usize) -> Tally {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        use rayon::prelude::*;
        (0..tasks.len())
            .into_par_iter()
            .map(|i| tasks.count(i))
            .sum()
    })
}

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut out = None;
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed());
        out = Some(v);
    }
    (out.expect("at least one run"), best)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![14, 15, 16, 17, 18]
    } else {
        sizes
    };
    println!("| N | plain bitboard | engine 1 thread | speed-up | engine 2 threads | 2 vs 1 | ns/node | nodes/task | tasks |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for n in sizes {
        let runs = if n >= 17 { 1 } else { 3 };
        let tasks = BacktrackTasks::new(n).expect("n in range");
        let (expected, t_plain) = best(runs, || plain(n));
        let (one, t_one) = best(runs, || engine(&tasks, 1));
        let (two, t_two) = best(runs, || engine(&tasks, 2));
        assert_eq!(one.total, expected as u128);
        assert_eq!(two, one);
        let (nodes, t_nodes) = best(1, || {
            (0..tasks.len())
                .map(|i| {
                    let (frame, start, _) = tasks.prepare(i);
                    kernel::count_with_nodes(frame, start).nodes
                })
                .sum::<u64>()
        });
        let s = |d: Duration| format!("{:.3} s", d.as_secs_f64());
        println!(
            "| {n} | {} | {} | {:.2}x | {} | {:.2}x | {:.2} | {:.0} | {} |",
            s(t_plain),
            s(t_one),
            t_plain.as_secs_f64() / t_one.as_secs_f64(),
            s(t_two),
            t_one.as_secs_f64() / t_two.as_secs_f64(),
            t_nodes.as_secs_f64() * 1e9 / nodes as f64,
            nodes as f64 / tasks.len() as f64,
            tasks.len(),
        );
    }
}
