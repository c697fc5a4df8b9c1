//! Speed of the counting engine against a plain bitboard counter, measured in one process.
//!
//! `cargo bench --bench engine -- [N...]` (default 14 15 16 17 18) prints, for each N, the time
//! of the plain counter and of the engine on one and two threads, their ratios, nanoseconds per
//! search node and nodes per task. Each figure is the best of a few runs, so that noise from
//! other processes on the machine does not count against either side. The plain counter is
//! skipped above `PLAIN_MAX` (environment, default 17): at N=18 it takes minutes.
//!
//! Then it measures the cost of a checkpoint at `CHECKPOINT_N` (default 18): the same count on
//! two threads with and without every task recorded in a journal, alternated twice.
use std::time::{Duration, Instant};

use std::sync::atomic::AtomicBool;

use nqueens::engine::checkpoint::{Header, Journal};
use nqueens::engine::shard::Slice;
use nqueens::engine::{backtrack::BacktrackTasks, kernel, run, Tally, TaskSet};

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
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let plain_max = env("PLAIN_MAX", 17);
    for n in sizes {
        let runs = if n >= 17 { 1 } else { 3 };
        let tasks = BacktrackTasks::new(n).expect("n in range");
        let (expected, t_plain) = if n <= plain_max {
            let (count, t) = best(runs, || plain(n));
            (Some(count as u128), Some(t))
        } else {
            (None, None)
        };
        let (one, t_one) = best(runs, || engine(&tasks, 1));
        let (two, t_two) = best(runs, || engine(&tasks, 2));
        if let Some(expected) = expected {
            assert_eq!(one.total, expected);
        }
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
        let (plain_time, speedup) = match t_plain {
            Some(t) => (
                s(t),
                format!("{:.2}x", t.as_secs_f64() / t_one.as_secs_f64()),
            ),
            None => ("-".to_string(), "-".to_string()),
        };
        println!(
            "| {n} | {plain_time} | {} | {speedup} | {} | {:.2}x | {:.2} | {:.0} | {} |",
            s(t_one),
            s(t_two),
            t_one.as_secs_f64() / t_two.as_secs_f64(),
            t_nodes.as_secs_f64() * 1e9 / nodes as f64,
            nodes as f64 / tasks.len() as f64,
            tasks.len(),
        );
    }
    checkpoint_overhead(env("CHECKPOINT_N", 18));
}

/// Times a count on two threads with and without a journal, alternating to spread out noise.
fn checkpoint_overhead(n: usize) {
    let tasks = BacktrackTasks::new(n).expect("n in range");
    let all: Vec<usize> = (0..tasks.len()).collect();
    let stop = AtomicBool::new(false);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut plain_t, mut journal_t) = (Duration::MAX, Duration::MAX);
    for round in 0..2 {
        let t = Instant::now();
        let a = run::count(&tasks, &all, 2, &stop, &|_, _| Ok(())).expect("a run");
        plain_t = plain_t.min(t.elapsed());
        let path = dir.path().join(format!("run{round}.ck"));
        let t = Instant::now();
        let (journal, _) =
            Journal::open(&path, &Header::new(&tasks, Slice::ALL)).expect("a new journal");
        let b = run::count(&tasks, &all, 2, &stop, &|i, tally| {
            Ok(journal.record(i, tally)?)
        })
        .expect("a run");
        journal.sync().expect("a flush");
        journal_t = journal_t.min(t.elapsed());
        assert_eq!(a.tally, b.tally);
    }
    println!(
        "\ncheckpoint at N={n} ({} tasks, 2 threads): without {:.3} s, with {:.3} s, overhead {:+.2}%",
        tasks.len(),
        plain_t.as_secs_f64(),
        journal_t.as_secs_f64(),
        (journal_t.as_secs_f64() / plain_t.as_secs_f64() - 1.0) * 100.0
    );
}
