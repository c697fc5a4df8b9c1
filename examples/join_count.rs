//! Counts boards with the Join strategy on all cores, or prints its memory estimates.
//!
//! `cargo run --release --example join_count -- 16 17` counts N = 16 and 17 through the
//! library's front door, with a progress line per hundredth of the tasks; `-- --memory 8 24`
//! prints the memory table; `-- --stages 18 19` counts on one thread and prints where the time
//! went, stage by stage, and how many pairs were tested per solution.
use nqueens::counter::Progress;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use nqueens::Counter;
use nqueens::engine::{Strategy, TaskSet, device::pool, strategy::join::JoinTasks};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--memory") {
        let from = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
        let to = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(24);
        println!("| N | tasks | 1 thread | 2 threads | 16 threads |");
        println!("|---:|---:|---:|---:|---:|");
        for n in from..=to {
            let tasks = JoinTasks::new(n).expect("n in range");
            let mib = |t: usize| tasks.memory_bytes(t) as f64 / (1 << 20) as f64;
            println!(
                "| {n} | {} | {:.1} MiB | {:.1} MiB | {:.1} MiB |",
                tasks.len(),
                mib(1),
                mib(2),
                mib(16)
            );
        }
        return;
    }
    if args.first().map(String::as_str) == Some("--stages") {
        stages(args.iter().filter_map(|a| a.parse().ok()));
        return;
    }
    for n in args.iter().filter_map(|a| a.parse::<usize>().ok()) {
        let report = |p: Progress| {
            if p.total >= 100 && p.done.is_multiple_of(p.total / 100) {
                eprint!("\r{} of {} tasks", p.done, p.total);
            }
        };
        let counter = Counter::new(n)
            .strategy(Strategy::Join)
            .on_progress(&report);
        let r = counter.run().expect("n in range");
        eprintln!();
        println!(
            "n={n} total={} unique={} threads={} {:.3} s",
            r.total,
            r.unique.expect("a whole count has its unique count"),
            counter.thread_count(),
            r.seconds
        );
    }
}

/// One thread, each stage timed: the table behind the join's tuning.
fn stages(sizes: impl Iterator<Item = usize>) {
    println!(
        "| N | seconds | quarters and the rest | listing | sorting | building | counting \
         | words | stored | pairs tested | solutions | pairs per solution |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let tasks = JoinTasks::new(n).expect("n in range").with_stage_times();
        let all: Vec<usize> = (0..tasks.len()).collect();
        let start = Instant::now();
        let never = AtomicBool::new(false);
        let out = pool::count_tasks(&tasks, &all, 1, &never, &|_, _| Ok::<(), ()>(()))
            .expect("one thread");
        let seconds = start.elapsed().as_secs_f64();
        let t = tasks.stage_times();
        let share = |d: std::time::Duration| format!("{:.0}%", 100.0 * d.as_secs_f64() / seconds);
        let rest = std::time::Duration::from_secs_f64(seconds).saturating_sub(t.sum());
        println!(
            "| {n} | {seconds:.2} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} |",
            share(rest),
            share(t.listing),
            share(t.sorting),
            share(t.building),
            share(t.counting),
            t.words,
            t.stored,
            t.pairs,
            out.tally.total,
            t.pairs as f64 / out.tally.total as f64
        );
    }
}
