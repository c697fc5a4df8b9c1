//! The GPU counter without a GPU: the kernel's per-thread search, compiled for the CPU from the
//! same source NVRTC compiles for the device, against the CPU engine; and the batching and
//! bookkeeping of `engine::device::gpu` with that host-compiled kernel standing in for the device.
//! Run with `cargo test --features cuda --test gpu`.
#![cfg(feature = "cuda")]

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use nqueens::engine::device::GpuError;
use nqueens::engine::device::gpu::host;
use nqueens::engine::device::gpu::{self, Backend, Batch, Collected};
use nqueens::engine::strategy::backtrack::constellation::{Frame, Start, constellations};
use nqueens::engine::strategy::backtrack::{BacktrackTasks, kernel};
use nqueens::engine::{Tally, TaskSet};
use proptest::prelude::*;

/// Every task's tally as the host-compiled kernel gives it through the GPU runner.
fn tallies_through_runner(
    tasks: &BacktrackTasks,
    todo: &[usize],
    backend: &mut dyn Backend,
    stop: &AtomicBool,
) -> (Result<gpu::Report, GpuError>, BTreeMap<usize, Tally>) {
    let seen = Mutex::new(BTreeMap::new());
    let remaining = gpu::remaining(tasks.n());
    let outcome = gpu::count_tasks(backend, tasks, todo, remaining, 2, stop, &|index, tally| {
        let before = seen.lock().unwrap().insert(index, tally);
        assert!(before.is_none(), "task {index} reported twice");
        Ok::<(), ()>(())
    });
    let report = match outcome {
        Ok((outcome, report)) => {
            let seen = seen.lock().unwrap();
            assert_eq!(outcome.done, seen.len());
            assert_eq!(outcome.tally, seen.values().copied().sum::<Tally>());
            Ok(report)
        }
        Err(nqueens::engine::device::RunError::Gpu(e)) => Err(e),
        Err(e) => panic!("{e:?}"),
    };
    (report, seen.into_inner().unwrap())
}

#[test]
fn every_task_of_n_1_to_16_matches_the_cpu_engine() {
    for n in 1..=16 {
        every_task_matches(n);
    }
}

/// Every task of `n` through the runner with the host kernel, against the slow, obvious count
/// (every completion built and its symmetries tried) and the published counts.
fn every_task_matches(n: usize) {
    let tasks = BacktrackTasks::new(n).unwrap();
    let all: Vec<usize> = (0..tasks.len()).collect();
    let mut backend = host::Host::default();
    let (report, seen) =
        tallies_through_runner(&tasks, &all, &mut backend, &AtomicBool::new(false));
    let report = report.unwrap();
    assert_eq!(seen.len(), tasks.len(), "N={n}: every task reported");
    for (&index, &tally) in &seen {
        assert_eq!(
            tally,
            tasks.count_by_inspection(index),
            "N={n}, task {index}"
        );
    }
    let sum: Tally = seen.values().copied().sum();
    let want = nqueens::reference::published(n).unwrap();
    assert_eq!((sum.total, sum.unique()), want, "N={n}");
    let symmetric = all.iter().filter(|&&i| tasks.is_symmetric(i)).count();
    assert_eq!(report.symmetric_tasks, symmetric, "N={n}");
}

#[test]
fn items_of_every_depth_add_up_to_their_task() {
    // The split into items must not depend on how deep it goes.
    let tasks = BacktrackTasks::new(13).unwrap();
    let some: Vec<usize> = (0..tasks.len()).step_by(7).collect();
    for remaining in 3..=gpu::MAX_REMAINING {
        let batch = Batch::of(&tasks, &some, remaining);
        let mut backend = host::Host::default();
        backend.load_frames(&gpu::frame_table(&tasks)).unwrap();
        backend.submit(0, &batch.items).unwrap();
        let counts = backend.collect(0).unwrap().counts;
        assert_eq!(counts.len(), batch.item_count());
        for (index, found) in batch.found(&counts) {
            let (frame, start, _) = tasks.prepare(index);
            let want = kernel::count(frame, start);
            assert_eq!(found, want, "task {index}, {remaining} rows left");
        }
    }
}

#[test]
fn large_boards_split_into_items_that_fit_the_kernel_stack() {
    // N = 20 to 25: every item leaves at most MAX_REMAINING rows, and a few whole tasks
    // (small ones, to stay quick) agree with the CPU engine.
    for n in [20, 23, nqueens::engine::device::GPU_MAX_N] {
        let tasks = BacktrackTasks::new(n).unwrap();
        let remaining = gpu::remaining(n);
        assert!(remaining <= gpu::MAX_REMAINING);
        let last = tasks.len() - 1;
        let mut items = Vec::new();
        gpu::items_of(&tasks, last, remaining, &mut items);
        for item in items.chunks(gpu::ITEM_WORDS) {
            let (level, levels) = ((item[1] & 0xff) as usize, (item[1] >> 8) as usize);
            assert!(levels - level <= remaining, "N={n}");
        }
    }
    let tasks = BacktrackTasks::new(20).unwrap();
    let picks: Vec<usize> = (0..tasks.len())
        .rev()
        .step_by(tasks.len() / 5)
        .filter(|&i| !tasks.is_symmetric(i))
        .collect();
    let batch = Batch::of(&tasks, &picks, gpu::remaining(20));
    let mut backend = host::Host::default();
    backend.load_frames(&gpu::frame_table(&tasks)).unwrap();
    backend.submit(1, &batch.items).unwrap();
    let counts = backend.collect(1).unwrap().counts;
    for (index, found) in batch.found(&counts) {
        let (frame, start, _) = tasks.prepare(index);
        assert_eq!(found, kernel::count(frame, start), "N=20, task {index}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// From any state of any constellation's search, the kernel's per-thread search counts what
    /// the CPU engine's kernel counts.
    #[test]
    fn the_host_kernel_counts_any_state_as_the_cpu_kernel(
        n in 4usize..=17,
        pick in any::<prop::sample::Index>(),
        path in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let all = constellations(n);
        prop_assume!(!all.is_empty());
        let frame = Frame::new(n, &all[pick.index(all.len())]);
        let mut start = Start::default();
        for step in path {
            let open = start.open(&frame);
            if start.level == frame.levels || open == 0 {
                break;
            }
            let bits: Vec<u32> = (0..32).filter(|b| open >> b & 1 == 1).collect();
            start = start.place(&frame, 1 << bits[step.index(bits.len())]);
        }
        let want = kernel::count(&frame, start);
        prop_assert_eq!(host::count(&frame, start), want);
    }
}

/// The host kernel with `hook` called at every collect, with the collect's number (from 1),
/// before the batch is counted: to fail as a lost device would, or to press Ctrl-C.
struct Hooked<F: FnMut(usize) -> Result<(), GpuError>> {
    inner: host::Host,
    collects: usize,
    hook: F,
}

impl<F: FnMut(usize) -> Result<(), GpuError>> Hooked<F> {
    fn new(hook: F) -> Self {
        Hooked {
            inner: host::Host::default(),
            collects: 0,
            hook,
        }
    }
}

impl<F: FnMut(usize) -> Result<(), GpuError>> Backend for Hooked<F> {
    fn load_frames(&mut self, frames: &[u64]) -> Result<(), GpuError> {
        self.inner.load_frames(frames)
    }
    fn submit(&mut self, slot: usize, items: &[u32]) -> Result<(), GpuError> {
        self.inner.submit(slot, items)
    }
    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        self.collects += 1;
        (self.hook)(self.collects)?;
        self.inner.collect(slot)
    }
}

#[test]
fn a_failing_device_is_an_error_and_what_was_reported_is_right() {
    let tasks = BacktrackTasks::new(15).unwrap();
    let all: Vec<usize> = (0..tasks.len()).collect();
    let mut backend = Hooked::new(|collect| match collect {
        2 => Err(GpuError::Driver(
            "an illegal memory access was encountered".into(),
        )),
        _ => Ok(()),
    });
    let (report, seen) =
        tallies_through_runner(&tasks, &all, &mut backend, &AtomicBool::new(false));
    assert!(matches!(report, Err(GpuError::Driver(_))));
    assert!(seen.len() < tasks.len());
    for (&index, &tally) in &seen {
        assert_eq!(tally, tasks.count(index), "task {index}");
    }
}

#[test]
fn a_stopped_run_reports_its_finished_batches_and_resumes_exactly() {
    let tasks = BacktrackTasks::new(16).unwrap();
    let all: Vec<usize> = (0..tasks.len()).collect();
    let stop = AtomicBool::new(false);
    // Ctrl-C as the first batch comes back.
    let mut backend = Hooked::new(|collect| {
        if collect == 1 {
            stop.store(true, Ordering::Relaxed);
        }
        Ok(())
    });
    let (report, first) = tallies_through_runner(&tasks, &all, &mut backend, &stop);
    report.unwrap();
    // The batches in flight when the flag was set are still reported; nothing after them.
    assert!(
        !first.is_empty() && first.len() < tasks.len(),
        "{} tasks",
        first.len()
    );
    // The rest, as a resumed count would do it, completes the count exactly.
    let rest: Vec<usize> = all
        .iter()
        .copied()
        .filter(|i| !first.contains_key(i))
        .collect();
    let (report, second) = tallies_through_runner(
        &tasks,
        &rest,
        &mut host::Host::default(),
        &AtomicBool::new(false),
    );
    report.unwrap();
    let sum: Tally = first.values().chain(second.values()).copied().sum();
    assert_eq!((sum.total, sum.unique()), (14772512, 1846955));
}

#[test]
fn a_callback_error_stops_the_run() {
    let tasks = BacktrackTasks::new(12).unwrap();
    let all: Vec<usize> = (0..tasks.len()).collect();
    let calls = AtomicUsize::new(0);
    let result = gpu::count_tasks(
        &mut host::Host::default(),
        &tasks,
        &all,
        gpu::remaining(12),
        1,
        &AtomicBool::new(false),
        &|_, _| {
            if calls.fetch_add(1, Ordering::Relaxed) == 10 {
                Err("disk full")
            } else {
                Ok(())
            }
        },
    );
    assert!(matches!(
        result,
        Err(nqueens::engine::device::RunError::Callback("disk full"))
    ));
}

#[test]
fn without_a_driver_the_gpu_is_refused_in_one_line() {
    // The test machines have no NVIDIA driver; where one is found, this checks nothing.
    if let Err(e) = nqueens::engine::device::available(nqueens::engine::Device::Gpu) {
        assert!(e.is_unavailable());
        assert!(!e.to_string().contains('\n'));
        let err = nqueens::Counter::new(12)
            .device(nqueens::engine::Device::Gpu)
            .run()
            .unwrap_err();
        assert!(err.is_bad_input(), "{err}");
    }
}

#[test]
fn the_command_line_without_a_gpu_says_what_is_missing_in_one_line() {
    // A build with the feature on the test machines, which have no NVIDIA driver.
    let Err(missing) = nqueens::engine::device::available(nqueens::engine::Device::Gpu) else {
        return;
    };
    let out = assert_cmd::Command::cargo_bin("nqueens")
        .unwrap()
        .args(["count", "12", "--device", "gpu"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end(), format!("error: {missing}"));
}

#[test]
fn a_kept_kernel_is_read_back_whole_and_anything_else_is_compiled_again() {
    use nqueens::engine::device::gpu::kernel_cache;
    let dir = tempfile::tempdir().unwrap();
    let options = vec![
        "--gpu-architecture=sm_90".to_string(),
        "-DNQ_BLOCK=128".into(),
    ];
    let path = kernel_cache::file(&dir.path().join("kernels"), "source", &options);
    assert_eq!(kernel_cache::read(&path), None); // nothing kept yet
    let cubin = b"\x7fELF and the machine code".to_vec();
    kernel_cache::keep(&path, &cubin);
    assert_eq!(kernel_cache::read(&path), Some(cubin));
    // Only the file itself is left in the folder (no part file).
    let files = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
    assert_eq!(files, 1);
    // Not machine code (a torn or foreign file): compiled again.
    std::fs::write(&path, b"half a file").unwrap();
    assert_eq!(kernel_cache::read(&path), None);
    // Other options, another file.
    let other = kernel_cache::file(&dir.path().join("kernels"), "source", &options[..1]);
    assert_ne!(other, path);
    // A folder that cannot be made: nothing kept, no error.
    let blocked = dir.path().join("a-file");
    std::fs::write(&blocked, b"").unwrap();
    let inside = kernel_cache::file(&blocked, "source", &options);
    kernel_cache::keep(&inside, b"\x7fELF");
    assert_eq!(kernel_cache::read(&inside), None);
}
