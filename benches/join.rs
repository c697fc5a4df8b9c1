//! The Join strategy against a plain bitboard counter, timed in one process so that the
//! ratios hold on a busy machine.
//!
//! `cargo bench --bench join -- 16 17 18` prints, for each N: the bitboard time (measured up to
//! `NQ_BITBOARD_MAX`, default 16, then extrapolated with the growth factor of its last two
//! sizes), the backtracking engine's time on 1 thread, the join time on 1 and 2 threads (total
//! and unique together), the join on 1 thread with its AVX2 loops (the previous join: the
//! same list, groups of 256 words) where the CPU has wider ones, and the ratios. The join times are the best of `NQ_JOIN_RUNS` runs
//! (default 3, taken in turns on 1 and 2 threads): on a shared machine a neighbour taking a
//! core for a second would otherwise decide the 2-thread figure.
use std::time::Instant;

use std::sync::atomic::AtomicBool;

use nqueens::Counter;
use nqueens::engine::cpu::Isa;
use nqueens::engine::strategy::join::JoinTasks;
use nqueens::engine::{Strategy, Tally, TaskSet, device::pool};

/// The ladder's plain bitboard counter: no symmetry, one row per step.
fn bitboard(n: usize) -> u64 {
    nqueens::algo::bitboard::count(n)
}

/// A count through the library's front door, as `nqueens count N --strategy S -j T` makes it.
fn engine(n: usize, strategy: Strategy, threads: usize) -> Tally {
    Counter::new(n)
        .strategy(strategy)
        .threads(threads)
        .run()
        .expect("n in range")
        .tally
}

fn backtrack(n: usize, threads: usize) -> Tally {
    engine(n, Strategy::Backtrack, threads)
}

fn join(n: usize, threads: usize) -> Tally {
    engine(n, Strategy::Join, threads)
}

/// The join on 1 thread with the copy of its loops that `isa` names.
fn join_with(n: usize, isa: Isa) -> Tally {
    let tasks = JoinTasks::new(n).expect("n in range").with_isa(isa);
    let all: Vec<usize> = (0..tasks.len()).collect();
    let never = AtomicBool::new(false);
    pool::count_tasks(&tasks, &all, 1, &never, &|_, _| Ok::<(), ()>(()))
        .expect("one thread")
        .tally
}

fn seconds<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64())
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![14, 15, 16]
    } else {
        sizes
    };
    let measured_max: usize = std::env::var("NQ_BITBOARD_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16);
    let mut bitboard_times: Vec<(usize, f64)> = Vec::new();
    println!(
        "| N | bitboard 1 thread | backtrack engine 1 thread | join 1 thread | join 2 threads \
         | join vs bitboard | join vs backtrack | join 2 threads vs 1 \
         | join 1 thread, AVX2 loops | widest vs AVX2 |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let wider = Isa::chosen() > Isa::Avx2;
    for &n in &sizes {
        let bb = if n <= measured_max {
            let (count, t) = seconds(|| bitboard(n));
            bitboard_times.push((n, t));
            format!("{t:.2} s ({count})")
        } else {
            // Extrapolate from the largest two measured sizes.
            let m = measured_max;
            for k in [m - 1, m] {
                if bitboard_times.iter().all(|&(j, _)| j != k) {
                    bitboard_times.push((k, seconds(|| bitboard(k)).1));
                }
            }
            let t = |k: usize| {
                bitboard_times
                    .iter()
                    .find(|&&(j, _)| j == k)
                    .map(|&(_, t)| t)
            };
            let (a, b) = (t(m - 1).expect("measured"), t(m).expect("measured"));
            let est = b * (b / a).powi((n - m) as i32);
            bitboard_times.push((n, est));
            format!("~{est:.1} s (x{:.2}/N from {m})", b / a)
        };
        let bb_t = bitboard_times
            .iter()
            .find(|&&(j, _)| j == n)
            .map(|&(_, t)| t)
            .expect("timed");
        let (bt, tb) = seconds(|| backtrack(n, 1));
        let runs: usize = std::env::var("NQ_JOIN_RUNS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(3);
        let (mut t1, mut t2, mut ta) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        let (mut one, mut two, mut avx2) = (Tally::default(), Tally::default(), None);
        for _ in 0..runs.max(1) {
            let (tally, t) = seconds(|| join(n, 1));
            (one, t1) = (tally, t1.min(t));
            let (tally, t) = seconds(|| join(n, 2));
            (two, t2) = (tally, t2.min(t));
            if wider {
                let (tally, t) = seconds(|| join_with(n, Isa::Avx2));
                (avx2, ta) = (Some(tally), ta.min(t));
            }
        }
        assert_eq!(bt, one, "the strategies disagree");
        assert_eq!(one, two, "thread count changed the result");
        if let Some(avx2) = avx2 {
            assert_eq!(one, avx2, "the AVX2 loops disagree");
        }
        let (ta, ratio) = if wider {
            (format!("{ta:.3} s"), format!("{:.2}x", ta / t1))
        } else {
            ("-".into(), "-".into())
        };
        if let Some(published) = nqueens::reference::published(n) {
            assert_eq!((one.total, one.unique()), published, "N={n}");
        }
        println!(
            "| {n} | {bb} | {tb:.3} s | {t1:.3} s | {t2:.3} s | {:.1}x | {:.1}x | {:.2}x | {ta} | {ratio} |",
            bb_t / t1,
            tb / t1,
            t1 / t2
        );
        eprintln!("n={n}: total {} unique {}", one.total, one.unique());
    }
}
