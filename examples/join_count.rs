//! Counts one board with the join strategy on all cores: `cargo run --release --example join_count -- 16`.
use nqueens::engine::{join::JoinTasks, Tally, TaskSet};
use rayon::prelude::*;
use std::time::Instant;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(16);
    let start = Instant::now();
    let tasks = JoinTasks::new(n).expect("n in range");
    let sum: Tally = (0..tasks.len()).into_par_iter().map(|i| tasks.count(i)).sum();
    println!(
        "n={n} total={} unique={} tasks={} threads={} {:.3}s",
        sum.total,
        sum.unique(),
        tasks.len(),
        rayon::current_num_threads(),
        start.elapsed().as_secs_f64()
    );
}
