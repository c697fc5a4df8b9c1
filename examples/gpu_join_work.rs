//! The join's work on the GPU for one board, counted on the CPU without a GPU: for every
//! `STEP`-th main task, the words listed, the tiles, the pair tests the kernel makes (whole
//! groups of 32 stored words times the queries asked), the queries the tiles ask and the
//! groups they meet, the classes a thread of the count kernel passes between its queries (by
//! default, and about how many with `NQJ_CLASS_LIST`), and the bytes the words take, scaled
//! to every main task (with the layout `NQUEENS_GPU_PLANNED_CUT` asks for, if any); then,
//! for every eighth of those tasks, what making the words on the device costs: the pairs of
//! quarter entries glued (each task's top half once, each join's bottom half), the words
//! made, the tile slots planned and used; and how fast one thread of this machine plans
//! tasks.
//! `docs/gpu.md`'s prediction is made from these figures:
//!
//! ```text
//! cargo run --release --features cuda --example gpu_join_work -- N [STEP]
//! ```
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use nqueens::engine::TaskSet;
use nqueens::engine::device::gpu::cuda_join;
use nqueens::engine::device::gpu::join::{JoinBatch, Layout, Lister, TILE_RECORD, unshape};
use nqueens::engine::device::gpu::make::{self, Plan, QuarterCopy};
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
    let (mut words, mut tiles, mut pairs, mut bytes, mut queries) = (0u64, 0u64, 0u64, 0u64, 0u64);
    // The count kernel's walk between a thread's queries: by default every thread of a tile's
    // block passes every class of the tile; with NQJ_CLASS_LIST a lane halves its way to its
    // first class and passes only those its warp's run crosses (about an eighth).
    let (mut walked, mut listed) = (0f64, 0f64);
    let lister = Lister::new(&tasks);
    let mut batch = JoinBatch::default();
    let started = Instant::now();
    for chunk in sample.chunks(256) {
        // As a count lists its batches: into the memory of the batch before.
        batch = lister.list(chunk, &stop, batch).expect("not stopped");
        words += batch.low.len() as u64;
        tiles += batch.tile_count() as u64;
        pairs += batch.pairs;
        queries += batch.queries;
        let threads = f64::from(cuda_join::BLOCK);
        for tile in batch.tiles.chunks(TILE_RECORD) {
            let (bucket, k, from, to) = unshape(tile[3]);
            let classes = f64::from((to - from + 1) << (!bucket & ((1 << k) - 1)).count_ones());
            walked += threads * classes;
            listed += threads * (classes.log2().ceil() + 1.0 + classes / 8.0);
        }
        bytes += batch.bytes() as u64;
    }
    let seconds = started.elapsed().as_secs_f64();
    let scale = main as f64 / sample.len() as f64;
    let layout = Layout::of(&tasks);
    // The count kernel's two costs: a query asked of a tile (a load and its rows' offsets),
    // and a group of 32 stored words met by a query (a load per chunk and a popcount).
    println!(
        "layout: {} chunks, {}, at least {} cut bits; scaled to all: {:.3e} queries asked, {:.3e} groups met ({:.2} a query)",
        layout.chunks,
        if layout.wide { "wide" } else { "narrow" },
        layout.min_cut,
        queries as f64 * scale,
        pairs as f64 / 32.0 * scale,
        pairs as f64 / 32.0 / queries.max(1) as f64,
    );
    println!(
        "the walk between a thread's queries: {:.2} classes passed a query by default, about {:.2} with the class list",
        walked / queries.max(1) as f64,
        listed / queries.max(1) as f64,
    );
    let board = make::board(&tasks, &layout);
    let quarters = QuarterCopy::of_tasks(&tasks).expect("the lists were made above");
    let (mut places, mut made, mut slots, mut used, mut joins) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut planning = 0.0;
    // Each join's words: a block of `nq_make` makes one join, so the largest set its launch's
    // tail.
    let mut per_join: Vec<u64> = Vec::new();
    let made_sample: Vec<usize> = sample.iter().copied().step_by(8).collect();
    for &index in &made_sample {
        let mut plan = Plan::default();
        let started = Instant::now();
        plan.add_task(&tasks, &layout, index, &stop);
        planning += started.elapsed().as_secs_f64();
        // Glued: each task's top half once, each join's bottom half.
        let bottoms: u64 = plan
            .joins
            .chunks(make::JOIN_WORDS)
            .map(|j| j[make::field::CAP + 1])
            .sum();
        (places, slots) = (places + plan.top_places + bottoms, slots + plan.slots);
        joins += plan.join_count() as u64;
        for j in 0..plan.join_count() {
            let one = make::make_on_host(&quarters, &board, &plan.one_join(j)).expect("made");
            let (top, bottom, _, _) = one.join(0);
            made += u64::from(top) + u64::from(bottom);
            per_join.push(u64::from(top) + u64::from(bottom));
            used += u64::from(one.status[5]);
        }
    }
    let made_scale = main as f64 / made_sample.len() as f64;
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
    println!(
        "made on the device, {} tasks: scaled to all: {:.3e} joins, {:.3e} entry pairs glued, {:.3e} words made ({:.2} pairs a word), {:.3e} tile slots, {:.3e} used; planned at {:.3e} tasks a second on one thread (these tasks apart, so from cold caches)",
        made_sample.len(),
        joins as f64 * made_scale,
        places as f64 * made_scale,
        made as f64 * made_scale,
        places as f64 / made as f64,
        slots as f64 * made_scale,
        used as f64 * made_scale,
        made_sample.len() as f64 / planning,
    );
    per_join.sort_unstable();
    let at = |q: f64| per_join[((per_join.len() - 1) as f64 * q) as usize];
    let mean = made as f64 / per_join.len().max(1) as f64;
    let largest = per_join.last().copied().unwrap_or(0);
    let top_share = per_join
        .iter()
        .rev()
        .take(per_join.len() / 100)
        .sum::<u64>() as f64
        / made as f64;
    println!(
        "words a join: mean {mean:.0}, median {}, 90% {}, 99% {}, largest {largest} ({:.0} times the mean); the largest 1% of the joins hold {:.1}% of the words",
        at(0.5),
        at(0.9),
        at(0.99),
        largest as f64 / mean,
        100.0 * top_share,
    );
}
