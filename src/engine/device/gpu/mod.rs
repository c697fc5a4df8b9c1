//! Counting on an NVIDIA GPU: the Backtrack strategy's tasks, in batches (this module), or
//! the Join strategy's ([`join`]: the GPU makes each join's halves from the quarter lists it
//! holds, [`make`], and counts their pairs).
//!
//! For the backtracking kernel, the GPU counts the same numbered tasks as the CPU ([`BacktrackTasks`]), so progress,
//! checkpoints, shards and `merge` work unchanged, and a shard counted on a GPU merges with
//! shards counted on CPUs. What changes is how a task is counted:
//!
//! 1. The host takes a **batch** of tasks and pushes each task's start a few levels deeper,
//!    into **work items** (a frame, a level, the columns and diagonals taken): at most
//!    [`remaining`] free rows are left below an item, so that its search stack fits the GPU
//!    thread's share of shared memory ([`items_of`]).
//! 2. The kernel (`kernel.cu`, one source for NVRTC and the host C++ compiler) counts every
//!    item's completions; a persistent grid's threads take items one at a time, each within
//!    the loop of the search's turns.
//! 3. The host adds each task's items up into its tally and reports the task as finished
//!    ([`count_tasks`]). For the tasks whose constellation a rotation fixes (about one in n²),
//!    the unique count also needs the completions the rotation leaves unchanged: the CPU counts
//!    those meanwhile, with a search that places each queen with its images.
//!
//! Two batches are in flight at once, on two streams: while the GPU counts one, the host
//! prepares the next, and the next kernel's blocks fill the multiprocessors as the last blocks
//! of the previous one finish. Batches are sized from the measured rate to take about
//! [`BATCH_SECONDS`], so a stop request is honoured within a second and loses only the
//! batches under way. See `docs/gpu.md` for the design and its measurements.
//!
//! The [`Backend`] trait is what a batch is counted by: the GPU ([`cuda::Cuda`]) or the same
//! kernel compiled for the CPU ([`host::Host`]), which the tests use to check every piece of
//! this module without a GPU.

pub mod cuda;
pub mod cuda_join;
pub mod host;
pub mod join;
pub mod kernel_cache;
pub mod make;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::GpuError;
pub use super::GpuReport as Report;
use super::{Outcome, RunError};
use crate::engine::strategy::backtrack::constellation::{Frame, Start};
use crate::engine::strategy::backtrack::{self, BacktrackTasks};
use crate::engine::{Tally, TaskSet};

/// Words per work item: frame index, `level | levels << 8`, cols, left, right
/// (`NQ_ITEM_WORDS` in the kernel).
pub const ITEM_WORDS: usize = 5;

/// Words per frame: per level, the open columns in the low half and the row distance to the
/// next level in the high half (`NQ_FRAME_WORDS` in the kernel).
pub const FRAME_WORDS: usize = 32;

/// The most free rows the GPU kernel's stack allows below an item (`NQ_REMAINING`).
pub const MAX_REMAINING: usize = 15;

/// How long a batch should take on the device: short enough that a stop request is honoured
/// within a second, long enough that launches and copies are a small share.
pub const BATCH_SECONDS: f64 = 0.25;

/// Free rows left below each work item for a board of size `n`: the items' searches should be
/// large enough that taking one costs little, small enough that a batch holds many of them.
/// Each row fewer multiplies the number of items by 10 to 14 at N = 20 to 24 (docs/gpu.md).
/// `NQUEENS_GPU_REMAINING` overrides it (3 to [`MAX_REMAINING`]), for tuning.
///
/// ```
/// use nqueens::engine::device::gpu::{remaining, MAX_REMAINING};
/// assert!((3..=MAX_REMAINING).contains(&remaining(20)));
/// assert!(remaining(25) <= MAX_REMAINING);
/// ```
pub fn remaining(n: usize) -> usize {
    std::env::var("NQUEENS_GPU_REMAINING")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|r| (3..=MAX_REMAINING).contains(r))
        .unwrap_or_else(|| n.saturating_sub(8).clamp(8, MAX_REMAINING))
}

/// The frames of every constellation of `tasks`, laid out for the kernel:
/// [`FRAME_WORDS`] words each, in constellation order.
///
/// ```
/// use nqueens::engine::{strategy::backtrack::BacktrackTasks, device::gpu::{frame_table, FRAME_WORDS}};
/// let tasks = BacktrackTasks::new(10).unwrap();
/// assert_eq!(frame_table(&tasks).len(), tasks.constellation_count() * FRAME_WORDS);
/// ```
pub fn frame_table(tasks: &BacktrackTasks) -> Vec<u64> {
    tasks.frames().flat_map(frame_words).collect()
}

/// One frame laid out for the kernel: per level, the open columns in the low half and the row
/// distance to the next level in the high half.
///
/// ```
/// use nqueens::engine::strategy::backtrack::constellation::{constellations, Frame};
/// let frame = Frame::new(8, &constellations(8)[0]);
/// let words = nqueens::engine::device::gpu::frame_words(&frame);
/// assert_eq!(words[0] as u32, frame.allowed[0]);
/// assert_eq!((words[0] >> 32) as u32, frame.shift[0]);
/// ```
pub fn frame_words(frame: &Frame) -> [u64; FRAME_WORDS] {
    std::array::from_fn(|level| {
        u64::from(frame.allowed[level]) | u64::from(frame.shift[level]) << 32
    })
}

/// Appends the work items of task `index` to `items`: the states `remaining` free rows above
/// the bottom (or the task's own start, if it is already that deep) that its queens so far
/// leave open. Returns how many it appended; dead ends above that depth give none.
///
/// ```
/// use nqueens::engine::{strategy::backtrack::BacktrackTasks, device::gpu::{items_of, ITEM_WORDS}};
/// let tasks = BacktrackTasks::new(12).unwrap();
/// let mut items = Vec::new();
/// let made = items_of(&tasks, 0, 5, &mut items);
/// assert_eq!(items.len(), made * ITEM_WORDS);
/// ```
pub fn items_of(
    tasks: &BacktrackTasks,
    index: usize,
    remaining: usize,
    items: &mut Vec<u32>,
) -> usize {
    let (frame, start, _) = tasks.prepare(index);
    let frame_index = tasks.frame_index(index) as u32;
    let target = frame.levels.saturating_sub(remaining).max(start.level);
    let before = items.len();
    push_items(frame, frame_index, start, target, items);
    (items.len() - before) / ITEM_WORDS
}

fn push_items(frame: &Frame, frame_index: u32, start: Start, target: usize, items: &mut Vec<u32>) {
    if start.level == target {
        items.extend_from_slice(&[
            frame_index,
            start.level as u32 | (frame.levels as u32) << 8,
            start.cols,
            start.left,
            start.right,
        ]);
        return;
    }
    let mut open = start.open(frame);
    while open != 0 {
        let q = open & open.wrapping_neg();
        open ^= q;
        push_items(frame, frame_index, start.place(frame, q), target, items);
    }
}

/// A batch of whole tasks and their work items, in task order.
#[derive(Debug, Default)]
pub struct Batch {
    /// The task indices.
    pub tasks: Vec<usize>,
    /// `ends[k]`: one past the last item of `tasks[k]`.
    pub ends: Vec<usize>,
    /// The items, [`ITEM_WORDS`] words each.
    pub items: Vec<u32>,
}

impl Batch {
    /// The items of `todo` (task indices), made on the current rayon pool.
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::BacktrackTasks, device::gpu::Batch};
    /// let tasks = BacktrackTasks::new(12).unwrap();
    /// let batch = Batch::of(&tasks, &[0, 1, 2], 6);
    /// assert_eq!(batch.ends.len(), 3);
    /// assert_eq!(batch.item_count(), *batch.ends.last().unwrap());
    /// ```
    pub fn of(tasks: &BacktrackTasks, todo: &[usize], remaining: usize) -> Batch {
        let mut batch = Batch::default();
        batch.extend(tasks, todo, remaining);
        batch
    }

    /// Appends the tasks `todo` and their items, made on the current rayon pool.
    fn extend(&mut self, tasks: &BacktrackTasks, todo: &[usize], remaining: usize) {
        let parts: Vec<Vec<u32>> = todo
            .par_iter()
            .with_max_len(16)
            .map(|&index| {
                let mut items = Vec::new();
                items_of(tasks, index, remaining, &mut items);
                items
            })
            .collect();
        self.tasks.extend_from_slice(todo);
        self.items.reserve(parts.iter().map(Vec::len).sum());
        for part in parts {
            self.items.extend_from_slice(&part);
            self.ends.push(self.items.len() / ITEM_WORDS);
        }
    }

    /// The number of work items.
    pub fn item_count(&self) -> usize {
        self.items.len() / ITEM_WORDS
    }

    /// Each task's completions: the sum of its items' counts.
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::BacktrackTasks, device::gpu::Batch};
    /// let tasks = BacktrackTasks::new(8).unwrap();
    /// let batch = Batch::of(&tasks, &[0, 1], 3);
    /// let ones = vec![1; batch.item_count()];
    /// let found: Vec<(usize, u64)> = batch.found(&ones).collect();
    /// assert_eq!(found.iter().map(|&(_, f)| f).sum::<u64>(), batch.item_count() as u64);
    /// assert_eq!((found[0].0, found[1].0), (0, 1));
    /// ```
    pub fn found<'a>(&'a self, counts: &'a [u64]) -> impl Iterator<Item = (usize, u64)> + 'a {
        self.tasks.iter().enumerate().map(move |(k, &index)| {
            let begin = if k == 0 { 0 } else { self.ends[k - 1] };
            (index, counts[begin..self.ends[k]].iter().sum())
        })
    }
}

/// What counts a batch's items: the GPU, or the kernel compiled for the CPU.
///
/// A backend has two slots, so that two batches can be in flight; [`submit`](Self::submit)
/// starts one in a free slot and [`collect`](Self::collect) waits for it.
pub trait Backend {
    /// Makes `frames` (from [`frame_table`]) the frames that items refer to.
    ///
    /// # Errors
    /// [`GpuError`] if the device fails.
    fn load_frames(&mut self, frames: &[u64]) -> Result<(), GpuError>;
    /// Starts counting `items` ([`ITEM_WORDS`] words each) in `slot` (0 or 1), which is free.
    ///
    /// # Errors
    /// [`GpuError`] if the device fails.
    fn submit(&mut self, slot: usize, items: &[u32]) -> Result<(), GpuError>;
    /// Waits for the batch in `slot` and returns each item's count.
    ///
    /// # Errors
    /// [`GpuError`] if the device fails.
    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError>;
    /// How many items the backend counts at once (threads resident on the GPU): a batch of
    /// fewer leaves some of them idle.
    fn width(&self) -> usize {
        1
    }
}

/// The device's busy time so far: the union of the collected batches' kernel spans (two
/// batches in flight may overlap), which each batch adds to a [`Report`].
#[derive(Default)]
pub(super) struct Busy {
    until: f64,
}

impl Busy {
    /// Adds a collected batch of `items` work items: its kernels' span (seconds) to the
    /// device's busy time, its making to the making's.
    pub(super) fn add(&mut self, report: &mut Report, items: u64, batch: &Collected) {
        let span = batch.span;
        report.batches += 1;
        report.items += items;
        report.making_seconds += batch.making;
        report.kernel_seconds += (span.1 - span.0.max(self.until)).max(0.0);
        self.until = self.until.max(span.1);
    }
}

/// A counted batch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Collected {
    /// Each item's completions, in the batch's order.
    pub counts: Vec<u64>,
    /// When the device started and finished the batch, in seconds from when the backend loaded
    /// its frames: batches in flight together overlap, so the device's busy time is the union
    /// of these spans.
    pub span: (f64, f64),
    /// Seconds of the span the batch spent making its work items before counting them (the
    /// join: gluing, sorting and packing the words); zero where the backend does not time it.
    pub making: f64,
}

/// Counts the tasks `todo` of `tasks` on `backend`, in work items of at most `remaining` free
/// rows (what the backend was made for; [`remaining`] for the board), as
/// [`count_tasks`](super::pool::count_tasks) does on the CPU: `on_done` once per finished task,
/// and `stop` ends the run within about a
/// batch, reporting the batches under way.
///
/// The backend counts every task's completions. For the tasks whose constellation a rotation
/// fixes, the completions the rotation leaves unchanged ([`BacktrackTasks::fixed`]) are
/// counted on `threads` CPU threads meanwhile; those tasks go to the backend last, so that
/// this is done when their counts come back.
///
/// # Errors
/// [`RunError::Gpu`] if the backend fails, [`RunError::Threads`] if the CPU threads cannot
/// start, [`RunError::Callback`] with the first error of `on_done`.
#[allow(clippy::too_many_arguments)]
pub fn count_tasks<E: Send>(
    backend: &mut dyn Backend,
    tasks: &BacktrackTasks,
    todo: &[usize],
    remaining: usize,
    threads: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
) -> Result<(Outcome, Report), RunError<E>> {
    let (symmetric, plain): (Vec<usize>, Vec<usize>) =
        todo.iter().partition(|&&index| tasks.is_symmetric(index));
    let order: Vec<usize> = plain.iter().chain(&symmetric).copied().collect();
    let mut report = Report {
        symmetric_tasks: symmetric.len(),
        ..Report::default()
    };
    let pool =
        crate::threads::pool(threads).map_err(|source| RunError::Threads { threads, source })?;
    let outcome = std::thread::scope(|scope| {
        let fixed = scope.spawn(|| {
            pool.install(|| {
                symmetric
                    .par_iter()
                    .map(|&index| (index, tasks.fixed(index, stop)))
                    .collect::<FixedMap>()
            })
        });
        let mut fixed = FixedCounts {
            counting: Some(fixed),
            counted: HashMap::new(),
        };
        batches(
            backend,
            &pool,
            tasks,
            &order,
            remaining,
            stop,
            &mut fixed,
            on_done,
            &mut report,
        )
    })?;
    Ok((outcome, report))
}

/// The symmetric tasks' fixed completions, counted on another thread: joined when the first
/// of them is needed (`None` for a task the stop flag cut short).
struct FixedCounts<'scope> {
    counting: Option<std::thread::ScopedJoinHandle<'scope, FixedMap>>,
    counted: FixedMap,
}

type FixedMap = HashMap<usize, Option<backtrack::Fixed>>;

impl FixedCounts<'_> {
    /// Task `index`'s fixed completions, waiting for them if need be; `None` if they were not
    /// counted to the end.
    fn of(&mut self, index: usize) -> Option<backtrack::Fixed> {
        if let Some(counting) = self.counting.take() {
            self.counted = counting
                .join()
                .expect("counting fixed completions does not panic");
        }
        self.counted.get(&index).copied().flatten()
    }
}

/// The backend's share of [`count_tasks`]: batches of `todo`, two in flight.
#[allow(clippy::too_many_arguments)]
fn batches<E: Send>(
    backend: &mut dyn Backend,
    pool: &rayon::ThreadPool,
    tasks: &BacktrackTasks,
    todo: &[usize],
    remaining: usize,
    stop: &AtomicBool,
    fixed: &mut FixedCounts<'_>,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
    report: &mut Report,
) -> Result<Outcome, RunError<E>> {
    let mut outcome = Outcome::default();
    if todo.is_empty() {
        return Ok(outcome);
    }
    backend.load_frames(&frame_table(tasks))?;
    let started = Instant::now();
    // The first batch is small, to measure the rate; later ones aim at BATCH_SECONDS, but
    // hold at least a few items for every thread, which large items at a low rate would not.
    let fewest = 4 * backend.width();
    let mut target_items: usize = fewest.max(1 << 14);
    let mut next = 0;
    let mut in_flight: VecDeque<(usize, Batch)> = VecDeque::new();
    let mut free_slots = vec![1, 0];
    let mut busy = Busy::default();
    loop {
        while let Some(&slot) = free_slots.last() {
            if next == todo.len() || stop.load(Ordering::Relaxed) {
                break;
            }
            let batch = pool.install(|| next_batch(tasks, &todo[next..], remaining, target_items));
            next += batch.tasks.len();
            backend.submit(slot, &batch.items)?;
            free_slots.pop();
            in_flight.push_back((slot, batch));
        }
        let Some((slot, batch)) = in_flight.pop_front() else {
            break;
        };
        let collected = backend.collect(slot)?;
        free_slots.push(slot);
        busy.add(report, batch.item_count() as u64, &collected);
        for (index, found) in batch.found(&collected.counts) {
            let kept = if tasks.is_symmetric(index) {
                match fixed.of(index) {
                    Some(kept) => kept,
                    // Cut short by the stop flag: the task is not finished.
                    None => continue,
                }
            } else {
                backtrack::Fixed::default()
            };
            let tally = tasks.tally(index, found, kept);
            on_done(index, tally).map_err(RunError::Callback)?;
            outcome.tally += tally;
            outcome.done += 1;
        }
        // Items per second so far, and a batch of BATCH_SECONDS at that rate.
        let elapsed = started
            .elapsed()
            .max(Duration::from_millis(1))
            .as_secs_f64();
        let rate = report.items as f64 / elapsed;
        let least = fewest.max(1 << 12);
        target_items = ((rate * BATCH_SECONDS) as usize).clamp(least, least.max(1 << 24));
    }
    outcome.stopped = outcome.done < todo.len();
    Ok(outcome)
}

/// The next batch: tasks from the front of `todo` until about `target_items` items.
fn next_batch(
    tasks: &BacktrackTasks,
    todo: &[usize],
    remaining: usize,
    target_items: usize,
) -> Batch {
    // Tasks hold very different numbers of items; take them in groups, measuring as we go.
    let mut batch = Batch::default();
    let mut taken = 0;
    let mut group = 64;
    while taken < todo.len() && batch.item_count() < target_items {
        let end = (taken + group).min(todo.len());
        batch.extend(tasks, &todo[taken..end], remaining);
        taken = end;
        group *= 2;
    }
    batch
}

/// Counts the tasks `todo` of `tasks` on the first GPU ([`cuda::Cuda`]), as [`count_tasks`]
/// does on any backend; the report names the device.
///
/// # Errors
/// [`RunError::Gpu`] if no GPU can count here or it fails, [`RunError::Threads`] if the CPU
/// threads cannot start, [`RunError::Callback`] with the first error of `on_done`.
pub fn count_on_gpu<E: Send>(
    tasks: &BacktrackTasks,
    todo: &[usize],
    threads: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
) -> Result<(Outcome, Report), RunError<E>> {
    // The kernel's stacks are sized for the items: both from this one figure.
    let remaining = remaining(tasks.n());
    let mut gpu = cuda::Cuda::new(remaining)?;
    let (outcome, mut report) =
        count_tasks(&mut gpu, tasks, todo, remaining, threads, stop, on_done)?;
    report.device = gpu.name();
    report.resident_threads = gpu.width();
    Ok((outcome, report))
}
