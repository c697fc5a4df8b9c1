//! The join on the GPU without a GPU: the join kernel (`src/engine/device/gpu/join.cu`) compiled for
//! the CPU from the same source NVRTC compiles for the device, through the batching and
//! bookkeeping of `engine::device::gpu::join`, against the CPU join task by task; and the kernel
//! against the obvious double loop on random word lists.
//! Run with `cargo test --features cuda --test it gpu_join::`.
#![cfg(feature = "cuda")]

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::engine::device::gpu::join::{
    self, HostJoin, JoinBackend, JoinBatch, TILE_WORDS, WEIGHT_AT, count_tiles, term_tiles,
};
use nqueens::engine::device::gpu::{Collected, Report};
use nqueens::engine::device::{GpuError, RunError};
use nqueens::engine::strategy::join::JoinTasks;
use nqueens::engine::{Tally, TaskSet};
use proptest::prelude::*;

/// Every task's tally as the backend gives it through the GPU join's runner.
fn tallies_through_runner(
    tasks: &JoinTasks,
    todo: &[usize],
    backend: &mut dyn JoinBackend,
    stop: &AtomicBool,
) -> (Result<Report, GpuError>, BTreeMap<usize, Tally>) {
    let seen = Mutex::new(BTreeMap::new());
    let outcome = join::count_tasks(backend, tasks, todo, 2, stop, &|index, tally| {
        let before = seen.lock().unwrap().insert(index, tally);
        assert!(before.is_none(), "task {index} reported twice");
        Ok::<(), ()>(())
    });
    let report = match outcome {
        Ok((outcome, report)) => {
            let seen = seen.lock().unwrap();
            assert_eq!(outcome.done, seen.len());
            assert_eq!(outcome.tally, seen.values().copied().sum::<Tally>());
            assert_eq!(outcome.stopped, seen.len() < todo.len());
            Ok(report)
        }
        Err(RunError::Gpu(e)) => Err(e),
        Err(e) => panic!("{e:?}"),
    };
    (report, seen.into_inner().unwrap())
}

#[test]
fn every_task_of_n_4_to_16_matches_the_cpu_join() {
    for n in 4..=16 {
        let tasks = JoinTasks::new(n).unwrap();
        let all: Vec<usize> = (0..tasks.len()).collect();
        let (report, seen) = tallies_through_runner(
            &tasks,
            &all,
            &mut HostJoin::default(),
            &AtomicBool::new(false),
        );
        let report = report.unwrap();
        assert_eq!(seen.len(), tasks.len(), "N={n}: every task reported");
        for (&index, &tally) in &seen {
            assert_eq!(tally, tasks.count(index), "N={n}, task {index}");
        }
        let sum: Tally = seen.values().copied().sum();
        let want = nqueens::reference::published(n).unwrap();
        assert_eq!((sum.total, sum.unique()), want, "N={n}");
        assert_eq!(report.symmetric_tasks, 2 * n, "N={n}");
        assert!(report.batches >= 1 && report.items > 0, "N={n}");
    }
}

#[test]
fn a_task_subset_in_any_order_matches_the_cpu_join() {
    // A shard's worth of N = 17 (odd: several joins per task), backwards.
    let tasks = JoinTasks::new(17).unwrap();
    let some: Vec<usize> = (0..tasks.len()).rev().step_by(97).collect();
    let (report, seen) = tallies_through_runner(
        &tasks,
        &some,
        &mut HostJoin::default(),
        &AtomicBool::new(false),
    );
    report.unwrap();
    assert_eq!(seen.len(), some.len());
    for (&index, &tally) in &seen {
        assert_eq!(tally, tasks.count(index), "task {index}");
    }
}

/// A random word of `bits` bits, each bit set with probability about `density / 8`.
fn word(bits: usize, density: u32) -> impl Strategy<Value = u64> {
    prop::collection::vec(any::<[u8; 1]>(), bits).prop_map(move |coins| {
        coins
            .iter()
            .enumerate()
            .filter(|(_, c)| u32::from(c[0] % 8) < density)
            .fold(0u64, |w, (b, _)| w | 1 << b)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The host-compiled kernel counts the weighted disjoint pairs of any two word lists as
    /// the double loop does, across tile boundaries.
    #[test]
    fn the_join_kernel_counts_pairs_as_the_double_loop(
        bits in 1usize..=50,
        density in 1u32..=4,
        stored_len in 0usize..2 * TILE_WORDS + 40,
        queries_len in 0usize..300,
        seed in any::<u64>(),
    ) {
        // Words from the strategies would make large inputs slow to shrink; a seeded
        // xorshift makes them from the sizes instead, each bit set with probability
        // density / 8.
        let mut x = seed | 1;
        let mut next = move || { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x };
        let mut word = |bits: usize| (0..bits).fold(0u64, |w, b| {
            if (next() % 8) < u64::from(density) { w | 1 << b } else { w }
        });
        let stored: Vec<u64> = (0..stored_len).map(|_| word(bits)).collect();
        let queries: Vec<u64> = (0..queries_len)
            .map(|i| word(bits) | ((i % 3) as u64) << WEIGHT_AT)
            .collect();
        let mut words = stored.clone();
        words.extend_from_slice(&queries);
        let mut tiles = Vec::new();
        term_tiles(0..stored_len, stored_len..words.len(), &mut tiles);
        let sums = count_tiles(&words, &tiles).unwrap();
        let mask = (1u64 << WEIGHT_AT) - 1;
        let want: u64 = queries
            .iter()
            .map(|&q| {
                let scale = if q >> WEIGHT_AT == 2 { 2 } else { 1 };
                scale * stored.iter().filter(|&&s| s & q & mask == 0).count() as u64
            })
            .sum();
        prop_assert_eq!(sums.iter().sum::<u64>(), want);
    }

    /// Tiles of words of few bits (many disjoint pairs, full counts per group) at any
    /// offset in the batch.
    #[test]
    fn the_join_kernel_counts_full_groups_at_any_offset(
        stored in prop::collection::vec(word(6, 1), 0..1100),
        queries in prop::collection::vec(word(6, 1), 1..40),
        before in 0usize..70,
    ) {
        let mut words = vec![!0 >> 14; before];
        words.extend_from_slice(&stored);
        words.extend_from_slice(&queries);
        let mut tiles = Vec::new();
        let q = before + stored.len();
        term_tiles(before..q, q..words.len(), &mut tiles);
        let sums = count_tiles(&words, &tiles).unwrap();
        let want: usize = queries
            .iter()
            .map(|&q| stored.iter().filter(|&&s| s & q == 0).count())
            .sum();
        prop_assert_eq!(sums.iter().sum::<u64>(), want as u64);
    }
}

#[test]
fn tiles_outside_the_words_are_refused() {
    let words = [0u64; 10];
    assert!(count_tiles(&words, &[0, 11, 0, 1]).is_err());
    assert!(count_tiles(&words, &[0, 0, 0, 1]).is_err());
    assert!(count_tiles(&words, &[0, 5, 8, 3]).is_err());
    assert!(count_tiles(&words, &[0, TILE_WORDS as u32 + 1, 0, 1]).is_err());
    assert_eq!(count_tiles(&words, &[0, 5, 5, 5]).unwrap(), [25]);
}

#[test]
fn a_batch_counts_what_its_tasks_count() {
    let tasks = JoinTasks::new(14).unwrap();
    let todo: Vec<usize> = (0..tasks.len() - 2 * 14).step_by(5).collect();
    let batch = JoinBatch::of(&tasks, &todo, &AtomicBool::new(false)).unwrap();
    batch.check().unwrap();
    let sums = count_tiles(&batch.words, &batch.tiles).unwrap();
    for (index, found) in batch.found(&sums) {
        assert_eq!(found, tasks.count(index).total, "task {index}");
    }
    // Stopped before it started: no batch.
    assert!(JoinBatch::of(&tasks, &todo, &AtomicBool::new(true)).is_none());
}

/// The host kernel with `hook` called at every collect, with the collect's number (from 1),
/// before the batch is counted: to fail as a lost device would, or to press Ctrl-C.
struct Hooked<F: FnMut(usize) -> Result<(), GpuError>> {
    inner: HostJoin,
    collects: usize,
    hook: F,
}

impl<F: FnMut(usize) -> Result<(), GpuError>> JoinBackend for Hooked<F> {
    fn submit(&mut self, slot: usize, batch: &JoinBatch) -> Result<(), GpuError> {
        self.inner.submit(slot, batch)
    }
    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        self.collects += 1;
        (self.hook)(self.collects)?;
        self.inner.collect(slot)
    }
}

#[test]
fn a_failing_device_is_an_error_and_what_was_reported_is_right() {
    let tasks = JoinTasks::new(15).unwrap();
    let all: Vec<usize> = (0..tasks.len() - 2 * 15).collect();
    let mut backend = Hooked {
        inner: HostJoin::default(),
        collects: 0,
        hook: |collect| match collect {
            2 => Err(GpuError::Driver("an illegal memory access".into())),
            _ => Ok(()),
        },
    };
    let (report, seen) =
        tallies_through_runner(&tasks, &all, &mut backend, &AtomicBool::new(false));
    assert!(matches!(report, Err(GpuError::Driver(_))));
    assert!(!seen.is_empty() && seen.len() < all.len());
    for (&index, &tally) in &seen {
        assert_eq!(tally, tasks.count(index), "task {index}");
    }
}

#[test]
fn a_stopped_run_reports_its_finished_batches_and_resumes_exactly() {
    let tasks = JoinTasks::new(16).unwrap();
    let all: Vec<usize> = (0..tasks.len()).collect();
    let stop = AtomicBool::new(false);
    let mut backend = Hooked {
        inner: HostJoin::default(),
        collects: 0,
        hook: |collect| {
            if collect == 1 {
                stop.store(true, Ordering::Relaxed);
            }
            Ok(())
        },
    };
    let (report, first) = tallies_through_runner(&tasks, &all, &mut backend, &stop);
    report.unwrap();
    assert!(
        !first.is_empty() && first.len() < tasks.len(),
        "{} tasks",
        first.len()
    );
    let rest: Vec<usize> = all
        .iter()
        .copied()
        .filter(|i| !first.contains_key(i))
        .collect();
    let (report, second) = tallies_through_runner(
        &tasks,
        &rest,
        &mut HostJoin::default(),
        &AtomicBool::new(false),
    );
    report.unwrap();
    let sum: Tally = first.values().chain(second.values()).copied().sum();
    assert_eq!((sum.total, sum.unique()), (14772512, 1846955));
}

#[test]
fn the_gpu_counts_with_the_join_from_its_threshold_and_backtracks_below() {
    use nqueens::counter::Method;
    use nqueens::engine::device::GPU_JOIN_FROM;
    use nqueens::engine::{Device, Strategy};
    let on_gpu = |n: usize| nqueens::Counter::new(n).device(Device::Gpu).method();
    assert_eq!(on_gpu(GPU_JOIN_FROM), Method::Gpu(Strategy::Join));
    assert_eq!(on_gpu(23), Method::Gpu(Strategy::Join));
    assert_eq!(on_gpu(GPU_JOIN_FROM - 1), Method::Gpu(Strategy::Backtrack));
    // Either strategy when asked; the backtracking kernel only to its own limit.
    let asked = nqueens::Counter::new(12)
        .device(Device::Gpu)
        .strategy(Strategy::Join);
    assert_eq!(asked.method(), Method::Gpu(Strategy::Join));
    let too_large = nqueens::Counter::new(26)
        .device(Device::Gpu)
        .strategy(Strategy::Backtrack)
        .check()
        .unwrap_err();
    assert!(
        too_large.to_string().contains("from 1 to 25"),
        "{too_large}"
    );
}
