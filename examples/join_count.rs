//! Counts boards with the Join strategy on all cores, or prints its memory estimates.
//!
//! `cargo run --release --example join_count -- 16 17` counts N = 16 and 17 (set
//! `RAYON_NUM_THREADS` to choose the threads); `-- --memory 8 24` prints the memory table.
use std::time::Instant;

use nqueens::engine::{join::JoinTasks, Tally, TaskSet};
use rayon::prelude::*;

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
    for n in args.iter().filter_map(|a| a.parse::<usize>().ok()) {
        let start = Instant::now();
        let tasks = JoinTasks::new(n).expect("n in range");
        let sum: Tally = (0..tasks.len())
            .into_par_iter()
            .map(|i| tasks.count(i))
            .sum();
        println!(
            "n={n} total={} unique={} tasks={} threads={} {:.3} s",
            sum.total,
            sum.unique(),
            tasks.len(),
            rayon::current_num_threads(),
            start.elapsed().as_secs_f64()
        );
    }
}
