//! The join's work on the GPU for one board, counted on the CPU without a GPU: for every
//! `STEP`-th main task, the words the host lists, the tiles, the pair tests the kernel makes
//! (whole groups of 32 stored words times the queries asked) and the bytes sent, scaled to
//! every main task; and how fast this machine's threads list them. `docs/gpu.md`'s
//! prediction is made from these figures:
//!
//! ```text
//! cargo run --release --features cuda --example gpu_join_work -- N [STEP]
//! ```
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use nqueens::engine::TaskSet;
use nqueens::engine::device::gpu::join::{JoinBatch, Lister};
use nqueens::engine::strategy::join::JoinTasks;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let (Some(Ok(n)), step) = (args.next(), args.next().unwrap_or(Ok(1))) else {
        eprintln!("usage: gpu_join_work N [STEP]");
        std::process::exit(2);
    };
    let step = step.unwrap_or(1).max(1);
    let tasks = match JoinTasks::new(n) {
        Ok(tasks) => tasks,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let stop = AtomicBool::new(false);
    let main = tasks.len() - 2 * n;
    // The quarter lists first, so that the listing is timed alone.
    drop(JoinBatch::of(&tasks, &[0], &stop));
    let sample: Vec<usize> = (0..main).step_by(step).collect();
    let (mut words, mut tiles, mut pairs, mut bytes) = (0u64, 0u64, 0u64, 0u64);
    let lister = Lister::new(&tasks);
    let mut batch = JoinBatch::default();
    let started = Instant::now();
    for chunk in sample.chunks(256) {
        // As a count lists its batches: into the memory of the batch before.
        batch = lister.list(chunk, &stop, batch).expect("not stopped");
        words += batch.low.len() as u64;
        tiles += batch.tile_count() as u64;
        pairs += batch.pairs;
        bytes += batch.bytes() as u64;
    }
    let seconds = started.elapsed().as_secs_f64();
    let scale = main as f64 / sample.len() as f64;
    let solutions = nqueens::reference::published(n).map_or(f64::NAN, |(total, _)| total as f64);
    println!(
        "N = {n}: {} of {main} main tasks; scaled to all: {:.3e} words, {:.3e} tiles, {:.3e} pair tests ({:.0} a solution), {:.3e} bytes; listed at {:.3e} words a second on {} threads",
        sample.len(),
        words as f64 * scale,
        tiles as f64 * scale,
        pairs as f64 * scale,
        pairs as f64 * scale / solutions,
        bytes as f64 * scale,
        words as f64 / seconds,
        rayon::current_num_threads(),
    );
}
