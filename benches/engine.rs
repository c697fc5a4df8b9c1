//! Speed of the counting engine against the plain bitboard counter of the ladder
//! (`algo::bitboard`: recursion, no symmetry), measured in one process.
//!
//! `cargo bench --bench engine -- [N...]` (default 14 15 16 17 18) prints, for each N, the time
//! of the plain counter and of the engine on one and two threads, their ratios, nanoseconds per
//! search node and nodes per task. Each figure is the best of a few runs, so that noise from
//! other processes on the machine does not count against either side. The plain counter is
//! skipped above `PLAIN_MAX` (environment, default 17): at N=18 it takes minutes.
//!
//! Then it measures the cost of a checkpoint at `CHECKPOINT_N` (default 18): the same count on
//! two threads with and without every task recorded in a journal, and the time spent recording
//! (`CHECKPOINT_N=0` skips it; `-- --checkpoint-only` skips everything else).
//!
//! `-- --small` measures instead, with criterion, what a small count costs through the front
//! door (`nqueens::count(8)`, as the command line and Python make it): the task list and the
//! CPU check are kept from one count to the next, and no thread starts.
use std::time::{Duration, Instant};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use nqueens::engine::strategy::backtrack::{BacktrackTasks, kernel};
use nqueens::engine::tasks::checkpoint::Journal;
use nqueens::engine::tasks::list::{Header, Slice};
use nqueens::engine::{Tally, TaskSet, device::pool};

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

/// CPU seconds this process has used (user + system), from `/proc/self/stat` where there is one.
/// On a machine shared with other work, CPU time is the fairer measure of single-thread cost.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may contain spaces) start at field 3.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// A measurement: the best wall time of some runs, and the CPU time of that run.
#[derive(Clone, Copy)]
struct Time {
    wall: Duration,
    cpu: Option<f64>,
}

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, Time) {
    let mut out = None;
    let mut best = Time {
        wall: Duration::MAX,
        cpu: None,
    };
    for _ in 0..runs {
        let c = cpu_seconds();
        let t = Instant::now();
        let v = f();
        let wall = t.elapsed();
        if wall < best.wall {
            best = Time {
                wall,
                cpu: cpu_seconds().zip(c).map(|(b, a)| b - a),
            };
        }
        out = Some(v);
    }
    (out.expect("at least one run"), best)
}

/// The cost of small counts through the front door, by criterion.
fn small_counts() {
    let mut c = criterion::Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for n in [8, 10, 12] {
        c.bench_function(&format!("nqueens::count({n})"), |b| {
            b.iter(|| nqueens::count(std::hint::black_box(n)).expect("n in range"))
        });
    }
    c.final_summary();
}

fn main() {
    if std::env::args().any(|a| a == "--small") {
        return small_counts();
    }
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if std::env::args().any(|a| a == "--checkpoint-only") {
        Vec::new()
    } else if sizes.is_empty() {
        vec![14, 15, 16, 17, 18]
    } else {
        sizes
    };
    println!(
        "| N | plain bitboard | engine, 1 thread | speed-up (wall) | speed-up (CPU) | engine, 2 threads | 2 vs 1 threads | ns/node | nodes/task | tasks |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
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
        let plain = (n <= plain_max).then(|| best(runs, || nqueens::algo::bitboard::count(n)));
        let (one, t_one) = best(runs, || engine(&tasks, 1));
        let (two, t_two) = best(runs, || engine(&tasks, 2));
        if let Some((expected, _)) = plain {
            assert_eq!(one.total, u128::from(expected));
        }
        assert_eq!(two, one);
        if let Some(published) = nqueens::reference::published(n) {
            assert_eq!((one.total, one.unique()), published, "N={n}");
        }
        let (nodes, t_nodes) = best(1, || {
            (0..tasks.len())
                .map(|i| {
                    let (frame, start, _) = tasks.prepare(i);
                    kernel::count_with_nodes(frame, start).nodes
                })
                .sum::<u64>()
        });
        let show = |t: Time| match t.cpu {
            Some(cpu) => format!("{:.3} s ({cpu:.2} s CPU)", t.wall.as_secs_f64()),
            None => format!("{:.3} s", t.wall.as_secs_f64()),
        };
        let ratio = |a: f64, b: f64| format!("{:.2}x", a / b);
        let (plain_time, wall_up, cpu_up) = match plain {
            Some((_, t)) => (
                show(t),
                ratio(t.wall.as_secs_f64(), t_one.wall.as_secs_f64()),
                t.cpu
                    .zip(t_one.cpu)
                    .map_or("-".into(), |(a, b)| ratio(a, b)),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!(
            "| {n} | {plain_time} | {} | {wall_up} | {cpu_up} | {} | {} | {:.2} | {:.0} | {} |",
            show(t_one),
            show(t_two),
            ratio(t_one.wall.as_secs_f64(), t_two.wall.as_secs_f64()),
            t_nodes.wall.as_secs_f64() * 1e9 / nodes as f64,
            nodes as f64 / tasks.len() as f64,
            tasks.len(),
        );
    }
    match env("CHECKPOINT_N", 18) {
        0 => {}
        n => checkpoint_overhead(n),
    }
}

/// Times a count on two threads with and without a journal, and the time spent inside
/// `Journal::record` (which, unlike the wall times, does not depend on what else the machine
/// runs).
fn checkpoint_overhead(n: usize) {
    let tasks = BacktrackTasks::new(n).expect("n in range");
    let all: Vec<usize> = (0..tasks.len()).collect();
    let stop = AtomicBool::new(false);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let t = Instant::now();
    let a = pool::count_tasks(&tasks, &all, 2, &stop, &|_, _| Ok::<(), ()>(())).expect("a run");
    let without = t.elapsed();
    let path = dir.path().join("run.ck");
    let in_record = AtomicU64::new(0);
    let cpu = cpu_seconds();
    let t = Instant::now();
    let (journal, _) =
        Journal::open(&path, &Header::new(&tasks, Slice::ALL)).expect("a new journal");
    let b = pool::count_tasks(&tasks, &all, 2, &stop, &|i, tally| {
        let t = Instant::now();
        journal.record(i, tally)?;
        in_record.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        Ok::<(), nqueens::engine::tasks::checkpoint::CheckpointError>(())
    })
    .expect("a run");
    journal.sync().expect("a flush");
    let with = t.elapsed();
    let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);
    assert_eq!(a.tally, b.tally);
    let recording = in_record.load(Ordering::Relaxed) as f64 / 1e9;
    println!(
        "\ncheckpoint at N={n} ({} tasks, 2 threads): without {:.3} s, with {:.3} s ({:+.2}%); \
         {:.3} s inside Journal::record{}",
        tasks.len(),
        without.as_secs_f64(),
        with.as_secs_f64(),
        (with.as_secs_f64() / without.as_secs_f64() - 1.0) * 100.0,
        recording,
        cpu.map_or(String::new(), |c| format!(
            " = {:.3}% of the {c:.1} s of CPU the run used",
            recording / c * 100.0
        )),
    );
}
