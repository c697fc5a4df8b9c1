//! The join on the GPU without a GPU: the kernels that make a batch's words
//! (`src/engine/device/gpu/make.cu`) and count its pairs (`join.cu`) compiled for the CPU from
//! the same sources NVRTC compiles for the device, through the batching and bookkeeping of
//! `engine::device::gpu::join`, against the CPU join task by task; the words made against the
//! words the host lists, join by join; and the counting kernel against the obvious double loop
//! on random word lists.
//! Run with `cargo test --features cuda --test it gpu_join::`.
#![cfg(feature = "cuda")]

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::engine::device::gpu::join::{
    self, HostJoin, JoinBackend, JoinBatch, Layout, TILE_WORDS, count_batch, shape,
};
use nqueens::engine::device::gpu::make::{self, Plan, QuarterCopy, TABLE, field};
use nqueens::engine::device::gpu::{Collected, Report};
use nqueens::engine::device::{GpuError, RunError};
use nqueens::engine::strategy::join::{JoinTasks, QuarterTables};
use nqueens::engine::{Tally, TaskSet};
use proptest::prelude::*;

/// Every task's tally as the backend gives it through the GPU join's runner, with `beside` CPU
/// threads counting main tasks beside it.
fn tallies_beside(
    tasks: &JoinTasks,
    todo: &[usize],
    backend: &mut dyn JoinBackend,
    beside: usize,
    stop: &AtomicBool,
) -> (Result<Report, GpuError>, BTreeMap<usize, Tally>) {
    let (report, seen) = reports_beside(tasks, todo, backend, beside, stop);
    let tallies = seen
        .into_iter()
        .map(|(index, (tally, _))| (index, tally))
        .collect();
    (report, tallies)
}

/// As [`tallies_beside`], with whether each task was reported on the calling thread: the
/// backend's batches report there, the CPU threads on their pool's.
fn reports_beside(
    tasks: &JoinTasks,
    todo: &[usize],
    backend: &mut dyn JoinBackend,
    beside: usize,
    stop: &AtomicBool,
) -> (Result<Report, GpuError>, BTreeMap<usize, (Tally, bool)>) {
    let here = std::thread::current().id();
    let seen = Mutex::new(BTreeMap::new());
    let outcome = join::count_tasks(backend, tasks, todo, beside, stop, &|index, tally| {
        let on_device = std::thread::current().id() == here;
        let before = seen.lock().unwrap().insert(index, (tally, on_device));
        assert!(before.is_none(), "task {index} reported twice");
        Ok::<(), ()>(())
    });
    let report = match outcome {
        Ok((outcome, report)) => {
            let seen = seen.lock().unwrap();
            assert_eq!(outcome.done, seen.len());
            assert_eq!(outcome.tally, seen.values().map(|&(t, _)| t).sum::<Tally>());
            assert_eq!(outcome.stopped, seen.len() < todo.len());
            Ok(report)
        }
        Err(RunError::Gpu(e)) => Err(e),
        Err(e) => panic!("{e:?}"),
    };
    (report, seen.into_inner().unwrap())
}

/// Every task's tally as the backend alone gives it through the GPU join's runner.
fn tallies_through_runner(
    tasks: &JoinTasks,
    todo: &[usize],
    backend: &mut dyn JoinBackend,
    stop: &AtomicBool,
) -> (Result<Report, GpuError>, BTreeMap<usize, Tally>) {
    tallies_beside(tasks, todo, backend, 0, stop)
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
fn the_cpu_threads_beside_the_device_take_tasks_from_the_back_of_one_list() {
    for n in [15, 18] {
        let tasks = JoinTasks::new(n).unwrap();
        let main = tasks.len() - 2 * n;
        let todo: Vec<usize> = (0..tasks.len())
            .step_by(if n == 18 { 61 } else { 1 })
            .collect();
        let (report, seen) = reports_beside(
            &tasks,
            &todo,
            &mut HostJoin::default(),
            2,
            &AtomicBool::new(false),
        );
        let report = report.unwrap();
        assert_eq!(seen.len(), todo.len(), "N={n}: every task once");
        for (&index, &(tally, _)) in &seen {
            assert_eq!(tally, tasks.count(index), "N={n}, task {index}");
        }
        // The device counted a run of main tasks from the front, the CPU threads the rest
        // from the back. How many each takes depends on timing (the device first makes its
        // quarter lists, and on a loaded machine the CPU threads may take every task
        // meanwhile), where the line falls does not: one line.
        let plain: Vec<usize> = todo.iter().copied().filter(|&i| i < main).collect();
        let device = plain.iter().take_while(|&i| seen[i].1).count();
        assert!(
            plain[device..].iter().all(|i| !seen[i].1),
            "N={n}: the device's tasks are not one run from the front"
        );
        assert_eq!(report.cpu_tasks, plain.len() - device, "N={n}: {report:?}");
        assert_eq!(report.batches > 0, device > 0, "N={n}: {report:?}");
        assert!(
            todo.iter().filter(|&&i| i >= main).all(|i| !seen[i].1),
            "N={n}: the symmetric tasks go to the CPU threads"
        );
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

/// Random words of `bits` bits from `seed` (a xorshift: words from the strategies would make
/// large inputs slow to shrink), each bit set with probability `density / 8`.
fn words(seed: u64, bits: usize, density: u32, len: usize) -> Vec<u64> {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..len)
        .map(|_| {
            (0..bits).fold(0u64, |w, b| {
                if next() % 8 < u64::from(density) {
                    w | 1 << b
                } else {
                    w
                }
            })
        })
        .collect()
}

/// The obvious double loop of the CPU join's `twice_sorted`: the top words free of the long
/// diagonals against every bottom word, then the bottom words free of them against the other
/// top words, a word holding both long diagonals counting twice; times `weight`.
fn twice_sorted(long: u64, weight: u64, top: &[u64], bottom: &[u64]) -> u128 {
    let scale = |w: u64| if (w & long).count_ones() == 2 { 2 } else { 1 };
    let term = |stored: &[u64], asked: &[u64], parts: &dyn Fn(u64) -> bool| -> u128 {
        let mut sum = 0u128;
        for &s in stored.iter().filter(|&&s| s & long == 0) {
            for &q in asked.iter().filter(|&&q| parts(q)) {
                if s & q == 0 {
                    sum += scale(q);
                }
            }
        }
        sum
    };
    let any = |_: u64| true;
    let holding = |w: u64| w & long != 0;
    u128::from(weight) * (term(top, bottom, &any) + term(bottom, top, &holding))
}

/// The two long-diagonal bits of a word of `bits` bits, from two choices.
fn long_bits(bits: usize, a: usize, b: usize) -> u64 {
    let (a, b) = (a % bits, b % bits);
    if a == b { 1 << a } else { 1 << a | 1 << b }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The host-compiled kernel (narrow or wide, with whatever cut bits the sizes and the
    /// word's bits ask for) counts a join as the double loop does, across buckets and tiles.
    #[test]
    fn the_join_kernel_counts_a_join_as_the_double_loop(
        bits in 3usize..=56,
        (a, b) in (0usize..64, 0usize..64),
        density in 1u32..=4,
        top_len in 0usize..2 * TILE_WORDS + 40,
        bottom_len in 0usize..400,
        weight in 1u64..9,
        seed in any::<u64>(),
    ) {
        let long = long_bits(bits, a, b);
        let layout = Layout::for_words(bits, long);
        let top = words(seed, bits, density, top_len);
        let bottom = words(seed.rotate_left(17) ^ 5, bits, density, bottom_len);
        let batch = JoinBatch::of_join(&layout, weight, &top, &bottom);
        let sums = count_batch(&batch).unwrap();
        let found: Vec<(usize, u128)> = batch.found(&sums).collect();
        prop_assert_eq!(found, vec![(0, twice_sorted(long, weight, &top, &bottom))]);
        // The switch that lists each tile's classes once counts every tile the same.
        prop_assert_eq!(join::count_batch_listed(&batch).unwrap(), sums);
    }

    /// Joins of words of few bits (many disjoint pairs, full counts per group) appended into
    /// one batch: each at its offset, each task's count its own.
    #[test]
    fn joins_appended_into_a_batch_keep_their_counts(
        sizes in prop::collection::vec((0usize..1500, 0usize..60, 1u32..=2), 1..5),
        bits in 4usize..=12,
        seed in any::<u64>(),
    ) {
        let long = long_bits(bits, 1, bits - 1);
        let layout = Layout::for_words(bits, long);
        let mut batch = JoinBatch { wide: layout.wide, ..JoinBatch::default() };
        let mut want = Vec::new();
        for (task, &(top_len, bottom_len, density)) in sizes.iter().enumerate() {
            let top = words(seed ^ task as u64, bits, density, top_len);
            let bottom = words(!seed ^ task as u64, bits, density, bottom_len);
            let mut one = JoinBatch::of_join(&layout, 1, &top, &bottom);
            one.tasks = vec![task];
            batch.append(&one);
            want.push((task, twice_sorted(long, 1, &top, &bottom)));
        }
        let sums = count_batch(&batch).unwrap();
        prop_assert_eq!(batch.found(&sums).collect::<Vec<_>>(), want);
    }
}

#[test]
fn tiles_outside_the_batch_are_refused() {
    let layout = Layout::for_words(10, 1 << 9);
    let good = JoinBatch::of_join(&layout, 1, &[1, 2, 4, 8], &[16, 32, 1 << 9]);
    assert!(good.tile_count() > 0);
    assert!(count_batch(&good).is_ok());
    let with_tile = |t: [u32; 4]| {
        let mut bad = good.clone();
        bad.tiles[..4].copy_from_slice(&t);
        count_batch(&bad)
    };
    let words = good.low.len() as u32;
    // An empty slot (a join made on the device plans more than it fills) counts nothing; it
    // is all zeros.
    let empty = with_tile([0, 0, 0, 0]).unwrap();
    assert_eq!(empty[0], 0);
    assert!(with_tile([0, 0, 0, shape(0, 0, 0, 2)]).is_err());
    assert!(with_tile([0, words + 1, 0, shape(0, 0, 0, 2)]).is_err()); // past the words
    assert!(with_tile([0, TILE_WORDS as u32 + 1, 0, shape(0, 0, 0, 2)]).is_err());
    assert!(with_tile([0, 1, 0, shape(1, 0, 0, 2)]).is_err()); // bucket past 2^k
    assert!(with_tile([0, 1, 0, shape(0, 9, 0, 2)]).is_err()); // more cut bits than 8
    assert!(with_tile([0, 1, 0, shape(0, 0, 2, 1)]).is_err()); // parts backwards
    assert!(with_tile([0, 1, 0, shape(0, 0, 0, 3)]).is_err()); // no part 3
    assert!(with_tile([0, 1, good.starts.len() as u32, shape(0, 0, 0, 2)]).is_err());
    let mut disordered = good.clone();
    // The first tile's query classes: one past the words, and out of order.
    disordered.starts[good.tiles[2] as usize + 1] = u32::MAX;
    assert!(count_batch(&disordered).is_err());
    let mut wide = good.clone();
    wide.wide = true;
    assert!(count_batch(&wide).is_err()); // no high halves
}

#[test]
fn a_batch_counts_what_its_tasks_count() {
    for n in [14, 15] {
        let tasks = JoinTasks::new(n).unwrap();
        let todo: Vec<usize> = (0..tasks.len() - 2 * n).step_by(5).collect();
        let batch = JoinBatch::of(&tasks, &todo, &AtomicBool::new(false)).unwrap();
        batch.check().unwrap();
        let sums = count_batch(&batch).unwrap();
        for (index, found) in batch.found(&sums) {
            assert_eq!(found, tasks.count(index).total, "N={n}, task {index}");
        }
        // Stopped before it started: no batch.
        assert!(JoinBatch::of(&tasks, &todo, &AtomicBool::new(true)).is_none());
    }
}

/// The host kernel with `hook` called at every collect, with the collect's number (from 1),
/// before the batch is counted: to fail as a lost device would, or to press Ctrl-C.
struct Hooked<F: FnMut(usize) -> Result<(), GpuError>> {
    inner: HostJoin,
    collects: usize,
    hook: F,
}

impl<F: FnMut(usize) -> Result<(), GpuError>> JoinBackend for Hooked<F> {
    fn load(
        &mut self,
        tables: QuarterTables,
        board: [u64; make::BOARD_WORDS],
    ) -> Result<u64, GpuError> {
        self.inner.load(tables, board)
    }
    fn submit(&mut self, slot: usize, plan: &Plan) -> Result<(), GpuError> {
        self.inner.submit(slot, plan)
    }
    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        self.collects += 1;
        (self.hook)(self.collects)?;
        self.inner.collect(slot)
    }
}

/// The host kernel with the batch size its `load` gives set to `places`, recording how many
/// tasks each batch submitted holds.
struct Capped {
    inner: HostJoin,
    places: Option<u64>,
    batches: Vec<usize>,
}

impl JoinBackend for Capped {
    fn load(
        &mut self,
        tables: QuarterTables,
        board: [u64; make::BOARD_WORDS],
    ) -> Result<u64, GpuError> {
        let places = self.inner.load(tables, board)?;
        Ok(self.places.unwrap_or(places))
    }
    fn submit(&mut self, slot: usize, plan: &Plan) -> Result<(), GpuError> {
        self.batches.push(plan.tasks.len());
        self.inner.submit(slot, plan)
    }
    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        self.inner.collect(slot)
    }
}

#[test]
fn the_batch_size_the_backend_gives_bounds_the_batches() {
    let tasks = JoinTasks::new(14).unwrap();
    let all: Vec<usize> = (0..tasks.len()).collect();
    let stop = AtomicBool::new(false);
    // As the backend's memory allows: batches grow to many tasks.
    let mut free = Capped {
        inner: HostJoin::default(),
        places: None,
        batches: Vec::new(),
    };
    let (report, seen) = tallies_through_runner(&tasks, &all, &mut free, &stop);
    assert_eq!(report.unwrap().batch_places, 1 << make::MIN_BATCH_BITS);
    assert_eq!(seen.len(), all.len());
    assert!(free.batches.iter().any(|&n| n > 1), "{:?}", free.batches);
    // One place: a batch stops at its first task, and every task is still counted exactly.
    let mut one = Capped {
        inner: HostJoin::default(),
        places: Some(1),
        batches: Vec::new(),
    };
    let (report, seen) = tallies_through_runner(&tasks, &all, &mut one, &stop);
    assert_eq!(report.unwrap().batch_places, 1);
    assert!(one.batches.iter().all(|&n| n == 1), "{:?}", one.batches);
    assert_eq!(one.batches.len(), free.batches.iter().sum::<usize>());
    assert_eq!(seen.len(), all.len());
    for (&index, &tally) in &seen {
        assert_eq!(tally, tasks.count(index), "task {index}");
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

/// N = 16 counted with `beside` CPU threads, stopped at the device's first batch, then the
/// tasks left counted by a second run: every task once, each as the CPU join counts it, the
/// published sum. The first run's tallies are returned.
fn stopped_at_the_first_batch_then_resumed(beside: usize) -> BTreeMap<usize, Tally> {
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
    let (report, first) = tallies_beside(&tasks, &all, &mut backend, beside, &stop);
    report.unwrap();
    for (&index, &tally) in &first {
        assert_eq!(tally, tasks.count(index), "task {index}");
    }
    let rest: Vec<usize> = all
        .iter()
        .copied()
        .filter(|i| !first.contains_key(i))
        .collect();
    let (report, second) = tallies_beside(
        &tasks,
        &rest,
        &mut HostJoin::default(),
        beside,
        &AtomicBool::new(false),
    );
    report.unwrap();
    assert_eq!(first.len() + second.len(), tasks.len());
    let sum: Tally = first.values().chain(second.values()).copied().sum();
    assert_eq!((sum.total, sum.unique()), (14772512, 1846955));
    first
}

#[test]
fn a_stopped_run_reports_its_finished_batches_and_resumes_exactly() {
    let first = stopped_at_the_first_batch_then_resumed(0);
    assert!(
        !first.is_empty() && first.len() < JoinTasks::new(16).unwrap().len(),
        "{} tasks",
        first.len()
    );
}

#[test]
fn a_stopped_run_with_cpu_threads_beside_resumes_exactly() {
    // How many tasks the CPU threads finished before the stop depends on the machine's timing.
    stopped_at_the_first_batch_then_resumed(2);
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

/// The words of one side of a made join, unpacked: each without its long-diagonal bits, with
/// how many of them it held (its part).
fn unpacked(made: &make::Made, side: usize, long: u64, word: u64) -> Vec<(u64, u32)> {
    let (_, _, k, cut) = made.join(0);
    let keep = word & !long & !cut;
    let deposit = |value: u64, mask: u64| {
        let mut out = 0;
        for (j, bit) in (0..64).filter(|b| mask >> b & 1 == 1).enumerate() {
            out |= (value >> j & 1) << bit;
        }
        out
    };
    let batch = &made.batch;
    let table = &batch.starts[side * TABLE..];
    let mut words = Vec::new();
    for class in 0..3usize << k {
        let (part, pattern) = ((class >> k) as u32, (class & ((1 << k) - 1)) as u64);
        for i in table[class] as usize..table[class + 1] as usize {
            let high = batch.high.get(i).map_or(0, |&h| u64::from(h) << 32);
            let packed = high | u64::from(batch.low[i]);
            words.push((deposit(packed, keep) | deposit(pattern, cut), part));
        }
    }
    words.sort_unstable();
    words
}

#[test]
fn the_words_made_from_the_quarter_lists_are_the_words_the_host_lists() {
    let never = AtomicBool::new(false);
    // The default layout, and two that NQUEENS_GPU_PLANNED_CUT may ask for (more chunks, so
    // fewer cut bits at the least).
    for (n, planned) in (4..=17).flat_map(|n| [(n, None), (n, Some(0)), (n, Some(3))]) {
        let tasks = JoinTasks::new(n).unwrap();
        let layout = Layout::of_planned(&tasks, planned);
        let board = make::board(&tasks, &layout);
        let (word, long) = (board[0], board[1]);
        let quarters = QuarterCopy::of_tasks(&tasks).unwrap();
        let main = tasks.len() - 2 * n;
        for index in (0..main).step_by(main.div_ceil(40)) {
            let mut plan = Plan::default();
            assert!(plan.add_task(&tasks, &layout, index, &never));
            let listed = make::listed_joins(&tasks, index);
            assert_eq!(plan.join_count(), listed.len());
            for (j, want) in listed.iter().enumerate() {
                let one = plan.one_join(j);
                let made = make::make_on_host(&quarters, &board, &one).unwrap();
                // The switch that claims the scatter's places by class makes the same join.
                let claimed = make::make_on_host_claiming(&quarters, &board, &one).unwrap();
                assert_eq!(
                    (
                        &claimed.batch.low,
                        &claimed.batch.high,
                        &claimed.batch.starts
                    ),
                    (&made.batch.low, &made.batch.high, &made.batch.starts),
                    "N={n}, task {index}, join {j}"
                );
                assert_eq!(
                    (&claimed.batch.tiles, &claimed.status),
                    (&made.batch.tiles, &made.status)
                );
                let (top, bottom, k, cut) = made.join(0);
                assert_eq!(
                    (top as usize, bottom as usize),
                    (want.top.len(), want.bottom.len())
                );
                assert!(k as usize >= layout.min_cut.min((word & !long).count_ones() as usize));
                assert_eq!(cut & !(word & !long), 0, "N={n}: cut bits within the word");
                for (side, words) in [&want.top, &want.bottom].into_iter().enumerate() {
                    let mut expected: Vec<(u64, u32)> = words
                        .iter()
                        .map(|&w| (w & !long, (w & long).count_ones()))
                        .collect();
                    expected.sort_unstable();
                    assert_eq!(
                        unpacked(&made, side, long, word),
                        expected,
                        "N={n}, task {index}, join {j}, side {side}"
                    );
                }
                // The tiles made hold together, and count the join as the host's words do.
                let sums = count_batch(&made.batch).unwrap();
                assert_eq!(
                    join::count_batch_listed(&made.batch).unwrap(),
                    sums,
                    "N={n}, task {index}, join {j}: the class-list switch"
                );
                let host = JoinBatch::of_join(&layout, want.weight, &want.top, &want.bottom);
                let (made_found, host_found): (u128, u128) = (
                    made.batch.found(&sums).map(|(_, f)| f).sum(),
                    host.found(&count_batch(&host).unwrap())
                        .map(|(_, f)| f)
                        .sum(),
                );
                assert_eq!(made_found, host_found, "N={n}, task {index}, join {j}");
            }
        }
    }
}

#[test]
fn a_plan_whose_bounds_are_too_small_is_refused_not_overrun() {
    let tasks = JoinTasks::new(12).unwrap();
    let layout = Layout::of(&tasks);
    let board = make::board(&tasks, &layout);
    let quarters = QuarterCopy::of_tasks(&tasks).unwrap();
    let mut plan = Plan::default();
    assert!(plan.add_task(&tasks, &layout, 3, &AtomicBool::new(false)));
    let one = plan.one_join(0);
    assert!(make::make_on_host(&quarters, &board, &one).is_ok());
    // Fewer word places for the bottom half than it has words.
    let mut short = one.clone();
    short.joins[field::CAP + 1] /= 3;
    short.words = short.joins[field::CAP] + short.joins[field::CAP + 1];
    let err = make::make_on_host(&quarters, &board, &short).unwrap_err();
    assert!(err.to_string().contains("more words than planned"), "{err}");
    // Fewer tile slots than its tiles.
    let mut few = one.clone();
    few.joins[field::SLOTS] = 1;
    few.slots = 1;
    let err = make::make_on_host(&quarters, &board, &few).unwrap_err();
    assert!(err.to_string().contains("more tiles than planned"), "{err}");
    // Fewer top entries than the task's top half has.
    let mut top = one.clone();
    top.tops[4] /= 3;
    top.top_places = top.tops[4];
    let err = make::make_on_host(&quarters, &board, &top).unwrap_err();
    assert!(err.to_string().contains("more words than planned"), "{err}");
    // Keys outside the quarter lists, a top half outside the plan.
    let mut outside = one.clone();
    outside.joins[field::BOTTOM] = u64::from(u32::MAX);
    assert!(make::make_on_host(&quarters, &board, &outside).is_err());
    let mut outside = one.clone();
    outside.tops[0] = u64::from(u32::MAX);
    assert!(make::make_on_host(&quarters, &board, &outside).is_err());
    let mut no_top = one;
    no_top.joins[field::TOP] = 1;
    assert!(make::make_on_host(&quarters, &board, &no_top).is_err());
}
