//! The Join strategy's tasks on a GPU: the host lists each join's halves, the GPU counts the
//! pairs (`join.cu`).
//!
//! The tasks are the CPU join's numbered list ([`JoinTasks`]), so progress, checkpoints,
//! shards and `merge` work unchanged. A main task is counted in three steps:
//!
//! 1. **On the host** (the CPU threads, while the GPU counts the batch before): the task's
//!    joins, each a top and a bottom list of half-board words, listed from the quarter lists as
//!    the CPU join lists them ([`JoinTasks::for_each_join`](crate::engine::strategy::join::JoinTasks)).
//!    Each list is put in order, words free of the two long diagonals first, and packed: the
//!    long diagonals' bits taken out (so at N = 20 to 23 a word's bits fit 8 chunks of 5), a
//!    query's weight (how many long diagonals it holds) put at bit [`WEIGHT_AT`].
//! 2. **Tiles.** As on the CPU ([`twice_sorted`](crate::engine::strategy::join)), a join is two terms: the
//!    top words free of long diagonals stored and every bottom word asked, then the bottom
//!    words free of them stored and the other top words asked. A term's stored words are cut
//!    into tiles of up to [`TILE_WORDS`]; each tile is one block of the kernel, which builds
//!    the tile's bit-sliced table in shared memory and asks it every query of the term.
//! 3. **Sums.** The kernel gives each tile's weighted count (64 bits); the host adds a join's
//!    tiles and weighs them by the join's symmetry family, in 128 bits.
//!
//! The tasks after the main ones (the solutions a half or quarter turn leaves unchanged, for
//! the unique count) are a few milliseconds of search: the CPU counts them meanwhile.
//! Batches of tasks are sized from the measured rate to take about [`BATCH_SECONDS`], two in
//! flight, so a stop request is honoured within a second.
//!
//! [`JoinBackend`] is what counts a batch: the GPU ([`super::cuda_join::CudaJoin`]) or the same
//! kernel compiled for the CPU ([`HostJoin`]), which the tests use.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::cuda_join::{CudaJoin, MAX_BATCH_BYTES};
use super::{BATCH_SECONDS, Collected, Report};
use crate::engine::device::GpuError;
use crate::engine::device::{Outcome, RunError};
use crate::engine::strategy::join::{JoinHalves, JoinTasks};
use crate::engine::{Tally, TaskSet};

/// Bit positions per chunk of the kernel's table (`NQJ_SPAN`).
pub const SPAN: usize = 5;

/// Stored words per group: one 32-bit row per pattern (`32` lanes of a warp).
pub const GROUP_WORDS: usize = 32;

/// Groups per tile (`NQJ_GROUPS`).
pub const GROUPS: usize = 32;

/// The most stored words in a tile.
pub const TILE_WORDS: usize = GROUP_WORDS * GROUPS;

/// Words per tile record (`NQJ_TILE_WORDS`): first stored word, stored words, first query
/// word, query words.
pub const TILE_RECORD: usize = 4;

/// Where a packed query word keeps its weight (`NQJ_WEIGHT_AT`).
pub const WEIGHT_AT: u32 = 60;

/// The chunks the host-compiled kernel has (`NQJ_CHUNKS` in the tests' build): enough for
/// every board the join counts.
pub const HOST_CHUNKS: usize = 10;

/// Chunks of [`SPAN`] bits a packed word of the board `tasks` counts needs.
///
/// ```
/// use nqueens::engine::{gpu::join::chunks, join::JoinTasks};
/// assert_eq!(chunks(&JoinTasks::new(20).unwrap()), 8); // 38 bits, 36 packed
/// assert_eq!(chunks(&JoinTasks::new(23).unwrap()), 8); // 42 bits, 40 packed
/// ```
pub fn chunks(tasks: &JoinTasks) -> usize {
    packed_bits(tasks).div_ceil(SPAN).max(1)
}

/// Bits of a packed word: the word's, less the long diagonals'.
fn packed_bits(tasks: &JoinTasks) -> usize {
    tasks.word_bits() - tasks.long_diagonal_bits().count_ones() as usize
}

/// Takes the bits of `long` out of `w`, closing the gaps, and puts the number of them `w`
/// had at [`WEIGHT_AT`].
#[inline(always)]
fn pack(w: u64, long: u64) -> u64 {
    let weight = u64::from((w & long).count_ones());
    let mut rest = w & !long;
    // From the highest long bit down, so that the lower positions stay put.
    let mut bits = long;
    while bits != 0 {
        let b = 63 - bits.leading_zeros();
        bits &= !(1 << b);
        let low = rest & ((1 << b) - 1);
        rest = low | (rest >> (b + 1)) << b;
    }
    rest | weight << WEIGHT_AT
}

/// Appends the tiles of one term to `tiles`: the stored words at `stored` (indices into the
/// batch's words) cut into tiles of up to [`TILE_WORDS`], each asked every query at
/// `queries`. Nothing if either is empty.
///
/// ```
/// use nqueens::engine::device::gpu::join::{term_tiles, TILE_RECORD, TILE_WORDS};
/// let mut tiles = Vec::new();
/// term_tiles(0..TILE_WORDS + 1, 5000..5003, &mut tiles);
/// assert_eq!(tiles, [0, TILE_WORDS as u32, 5000, 3, TILE_WORDS as u32, 1, 5000, 3]);
/// term_tiles(7..7, 0..10, &mut tiles);
/// assert_eq!(tiles.len(), 2 * TILE_RECORD);
/// ```
pub fn term_tiles(
    stored: std::ops::Range<usize>,
    queries: std::ops::Range<usize>,
    tiles: &mut Vec<u32>,
) {
    if queries.is_empty() {
        return;
    }
    let mut at = stored.start;
    while at < stored.end {
        let len = (stored.end - at).min(TILE_WORDS);
        tiles.extend_from_slice(&[
            at as u32,
            len as u32,
            queries.start as u32,
            queries.len() as u32,
        ]);
        at += len;
    }
}

/// A batch of main tasks: their joins' packed words and tiles, and which task each tile's
/// count goes to, with what weight.
#[derive(Debug, Default)]
pub struct JoinBatch {
    /// The task indices.
    pub tasks: Vec<usize>,
    /// The packed words of every join.
    pub words: Vec<u64>,
    /// The tiles, [`TILE_RECORD`] words each, indexing `words`.
    pub tiles: Vec<u32>,
    /// For each tile: the position of its task in `tasks` and its join's family weight.
    pub owner: Vec<(u32, u64)>,
    /// Pair tests the tiles make: stored words times queries, summed.
    pub pairs: u64,
}

/// One task's share of a batch, made on its own thread.
#[derive(Default)]
struct Part {
    words: Vec<u64>,
    tiles: Vec<u32>,
    weights: Vec<u64>,
    pairs: u64,
}

impl Part {
    /// Appends one join: both halves ordered and packed, then its two terms' tiles.
    fn add(&mut self, join: JoinHalves, long: u64) {
        let JoinHalves {
            weight,
            top,
            bottom,
        } = join;
        let base = self.words.len();
        let top_free = self.push_side(top, long);
        let bottom_at = self.words.len();
        let bottom_free = self.push_side(bottom, long) - bottom_at;
        let end = self.words.len();
        let before = self.tiles.len();
        // The top words free of long diagonals against every bottom word; then the bottom
        // words free of them against the other top words (`twice_sorted`'s two ways).
        term_tiles(base..top_free, bottom_at..end, &mut self.tiles);
        term_tiles(
            bottom_at..bottom_at + bottom_free,
            top_free..bottom_at,
            &mut self.tiles,
        );
        let added = (self.tiles.len() - before) / TILE_RECORD;
        self.weights.extend(std::iter::repeat_n(weight, added));
        self.pairs +=
            ((top_free - base) * (end - bottom_at) + bottom_free * (bottom_at - top_free)) as u64;
    }

    /// Appends `side`'s words packed, those free of long diagonals first; returns where the
    /// others start.
    fn push_side(&mut self, side: &[u64], long: u64) -> usize {
        self.words.extend(
            side.iter()
                .filter(|&&w| w & long == 0)
                .map(|&w| pack(w, long)),
        );
        let others = self.words.len();
        self.words.extend(
            side.iter()
                .filter(|&&w| w & long != 0)
                .map(|&w| pack(w, long)),
        );
        others
    }
}

impl JoinBatch {
    /// The batch of main tasks `todo` (the first tasks of the list), listed on the current
    /// rayon pool; `None` if `stop` was set first.
    pub fn of(tasks: &JoinTasks, todo: &[usize], stop: &AtomicBool) -> Option<JoinBatch> {
        let long = tasks.long_diagonal_bits();
        let parts: Vec<Option<Part>> = todo
            .par_iter()
            .with_max_len(1)
            .map(|&index| {
                let mut part = Part::default();
                tasks
                    .for_each_join(index, stop, &mut |join| part.add(join, long))
                    .then_some(part)
            })
            .collect();
        let mut batch = JoinBatch {
            tasks: todo.to_vec(),
            ..JoinBatch::default()
        };
        for (k, part) in parts.into_iter().enumerate() {
            let part = part?;
            let base = batch.words.len() as u32;
            batch.words.extend_from_slice(&part.words);
            batch.tiles.extend(
                part.tiles
                    .chunks(TILE_RECORD)
                    .flat_map(|t| [t[0] + base, t[1], t[2] + base, t[3]]),
            );
            batch
                .owner
                .extend(part.weights.iter().map(|&w| (k as u32, w)));
            batch.pairs += part.pairs;
        }
        assert!(
            u32::try_from(batch.words.len()).is_ok(),
            "a batch's words are indexed by 32 bits"
        );
        Some(batch)
    }

    /// Bytes of the words and tiles that go to the device.
    pub fn bytes(&self) -> usize {
        8 * self.words.len() + 4 * self.tiles.len()
    }

    /// The number of tiles.
    pub fn tile_count(&self) -> usize {
        self.tiles.len() / TILE_RECORD
    }

    /// Each task's count, from its tiles' sums (one per tile, as the kernel gives them).
    pub fn found(&self, sums: &[u64]) -> impl Iterator<Item = (usize, u128)> + '_ {
        assert_eq!(sums.len(), self.tile_count());
        let mut per_task = vec![0u128; self.tasks.len()];
        for (&(task, weight), &sum) in self.owner.iter().zip(sums) {
            per_task[task as usize] += u128::from(weight) * u128::from(sum);
        }
        self.tasks.iter().copied().zip(per_task)
    }

    /// `Ok` if every tile lies within the words and stores 1 to [`TILE_WORDS`] of them: what
    /// the kernel's reads rely on. Made so by [`JoinBatch::of`]; checked again before a launch.
    ///
    /// # Errors
    /// [`GpuError::Driver`] naming the first tile out of bounds.
    pub fn check(&self) -> Result<(), GpuError> {
        let len = self.words.len();
        let bad = self.tiles.chunks(TILE_RECORD).find(|t| {
            let (s, sl, q, ql) = (t[0] as usize, t[1] as usize, t[2] as usize, t[3] as usize);
            !(1..=TILE_WORDS).contains(&sl) || s + sl > len || q + ql > len
        });
        match bad {
            Some(t) => Err(GpuError::Driver(format!(
                "a tile {t:?} outside the batch's {len} words"
            ))),
            None => Ok(()),
        }
    }
}

/// What counts a batch's tiles: the GPU, or the kernel compiled for the CPU.
///
/// Two slots, so that two batches can be in flight: [`submit`](Self::submit) starts one in a
/// free slot and [`collect`](Self::collect) waits for it.
pub trait JoinBackend {
    /// Starts counting `batch` in `slot` (0 or 1), which is free.
    ///
    /// # Errors
    /// [`GpuError`] if the device fails.
    fn submit(&mut self, slot: usize, batch: &JoinBatch) -> Result<(), GpuError>;
    /// Waits for the batch in `slot` and returns each tile's sum.
    ///
    /// # Errors
    /// [`GpuError`] if the device fails.
    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError>;
}

unsafe extern "C" {
    fn nq_join_host(words: *const u64, tiles: *const u32, n_tiles: u32, sums: *mut u64);
}

/// Each tile's sum, counted by the kernel compiled for the CPU (with [`HOST_CHUNKS`] chunks):
/// `Σ scale(q) · #{s : s & q == 0}` over the tile's stored words `s` and query words `q`, where
/// `scale` is 2 for a query of weight 2, else 1.
///
/// ```
/// use nqueens::engine::device::gpu::join::{count_tiles, term_tiles, WEIGHT_AT};
/// let words = [0b01, 0b10, 0b01, 0b100 | 2 << WEIGHT_AT];
/// let mut tiles = Vec::new();
/// term_tiles(0..2, 2..4, &mut tiles);
/// assert_eq!(count_tiles(&words, &tiles).unwrap(), [1 + 2 * 2]);
/// ```
///
/// # Errors
/// [`GpuError::Driver`] for a tile outside `words`.
pub fn count_tiles(words: &[u64], tiles: &[u32]) -> Result<Vec<u64>, GpuError> {
    let batch = JoinBatch {
        words: words.to_vec(),
        tiles: tiles.to_vec(),
        ..JoinBatch::default()
    };
    batch.check()?;
    let bits = words
        .iter()
        .map(|w| 64 - (w & ((1 << WEIGHT_AT) - 1)).leading_zeros() as usize)
        .max()
        .unwrap_or(0);
    if bits > SPAN * HOST_CHUNKS {
        return Err(GpuError::Driver(format!(
            "words of {bits} bits; the host kernel slices {}",
            SPAN * HOST_CHUNKS
        )));
    }
    let mut sums = vec![0u64; tiles.len() / TILE_RECORD];
    const CHUNK: usize = 16;
    sums.par_chunks_mut(CHUNK)
        .zip(tiles.par_chunks(CHUNK * TILE_RECORD))
        .for_each(|(out, tiles)| {
            // SAFETY: every tile lies within `words` and stores 1 to TILE_WORDS words
            // (checked above), so the kernel reads only `words`, and its table of GROUPS
            // groups holds the tile; `out` has one sum per tile of `tiles`; the words have at
            // most the bits the host copy slices (checked above).
            unsafe {
                nq_join_host(
                    words.as_ptr(),
                    tiles.as_ptr(),
                    out.len() as u32,
                    out.as_mut_ptr(),
                )
            }
        });
    Ok(sums)
}

/// The join kernel on the CPU as a [`JoinBackend`]: `submit` keeps the batch, `collect`
/// counts it on the current rayon pool.
#[derive(Debug, Default)]
pub struct HostJoin {
    slots: [(Vec<u64>, Vec<u32>); 2],
    origin: Option<Instant>,
}

impl JoinBackend for HostJoin {
    fn submit(&mut self, slot: usize, batch: &JoinBatch) -> Result<(), GpuError> {
        self.origin.get_or_insert_with(Instant::now);
        self.slots[slot] = (batch.words.clone(), batch.tiles.clone());
        Ok(())
    }

    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        let origin = self
            .origin
            .expect("a batch is submitted before it is collected");
        let started = origin.elapsed().as_secs_f64();
        let (words, tiles) = std::mem::take(&mut self.slots[slot]);
        let counts = count_tiles(&words, &tiles)?;
        let span = (started, origin.elapsed().as_secs_f64());
        Ok(Collected { counts, span })
    }
}

/// Counts the tasks `todo` of `tasks` with `backend` counting the main tasks' pairs, as
/// [`count_tasks`](crate::engine::device::pool::count_tasks) does on the CPU: `on_done` once per
/// finished task, and `stop` ends the run within about a batch, reporting the batches under
/// way. The symmetric tasks at the end of the list are counted on `threads` CPU threads
/// meanwhile, which also list the batches.
///
/// # Errors
/// [`RunError::Gpu`] if the backend fails, [`RunError::Threads`] if the CPU threads cannot
/// start, [`RunError::Callback`] with the first error of `on_done`.
pub fn count_tasks<E: Send>(
    backend: &mut dyn JoinBackend,
    tasks: &JoinTasks,
    todo: &[usize],
    threads: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
) -> Result<(Outcome, Report), RunError<E>> {
    let main = tasks.main_len();
    let (plain, symmetric): (Vec<usize>, Vec<usize>) = todo.iter().partition(|&&i| i < main);
    let mut report = Report {
        symmetric_tasks: symmetric.len(),
        ..Report::default()
    };
    let pool =
        crate::threads::pool(threads).map_err(|source| RunError::Threads { threads, source })?;
    let mut outcome = std::thread::scope(|scope| {
        let side = scope.spawn(|| {
            let mut outcome = Outcome::default();
            for &index in &symmetric {
                let Some(tally) = tasks.count_unless_stopped(index, stop) else {
                    break;
                };
                on_done(index, tally).map_err(RunError::Callback)?;
                outcome.tally += tally;
                outcome.done += 1;
            }
            Ok::<Outcome, RunError<E>>(outcome)
        });
        let batched = batches(backend, &pool, tasks, &plain, stop, on_done, &mut report);
        let side = side
            .join()
            .expect("counting symmetric tasks does not panic");
        let (mut outcome, side) = (batched?, side?);
        outcome.tally += side.tally;
        outcome.done += side.done;
        Ok::<Outcome, RunError<E>>(outcome)
    })?;
    outcome.stopped = outcome.done < todo.len();
    Ok((outcome, report))
}

/// The backend's share of [`count_tasks`]: batches of `todo`, two in flight.
fn batches<E: Send>(
    backend: &mut dyn JoinBackend,
    pool: &rayon::ThreadPool,
    tasks: &JoinTasks,
    todo: &[usize],
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
    report: &mut Report,
) -> Result<Outcome, RunError<E>> {
    let mut outcome = Outcome::default();
    let started = Instant::now();
    // The first batches are small (a task per thread), to measure the rate; later ones aim at
    // BATCH_SECONDS.
    let mut target_pairs: u64 = 1;
    let mut next = 0;
    let mut in_flight: VecDeque<(usize, JoinBatch)> = VecDeque::new();
    let mut free_slots = vec![1, 0];
    let mut busy_until = 0.0f64;
    let mut pairs_done = 0u64;
    loop {
        while let Some(&slot) = free_slots.last() {
            if next == todo.len() || stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(batch) = pool.install(|| next_batch(tasks, &todo[next..], target_pairs, stop))
            else {
                break;
            };
            next += batch.tasks.len();
            backend.submit(slot, &batch)?;
            free_slots.pop();
            in_flight.push_back((slot, batch));
        }
        let Some((slot, batch)) = in_flight.pop_front() else {
            break;
        };
        let Collected { counts, span } = backend.collect(slot)?;
        free_slots.push(slot);
        report.batches += 1;
        report.items += batch.tile_count() as u64;
        report.kernel_seconds += (span.1 - span.0.max(busy_until)).max(0.0);
        busy_until = busy_until.max(span.1);
        pairs_done += batch.pairs;
        for (index, found) in batch.found(&counts) {
            let tally = Tally {
                total: found,
                unique8: found,
            };
            on_done(index, tally).map_err(RunError::Callback)?;
            outcome.tally += tally;
            outcome.done += 1;
        }
        let elapsed = started
            .elapsed()
            .max(Duration::from_millis(1))
            .as_secs_f64();
        let rate = pairs_done as f64 / elapsed;
        target_pairs = ((rate * BATCH_SECONDS) as u64).max(1 << 24);
    }
    Ok(outcome)
}

/// The next batch: tasks from the front of `todo` until about `target_pairs` pair tests or
/// [`MAX_BATCH_BYTES`], in groups that double as they go (tasks differ a lot in size);
/// `None` if `stop` was set.
fn next_batch(
    tasks: &JoinTasks,
    todo: &[usize],
    target_pairs: u64,
    stop: &AtomicBool,
) -> Option<JoinBatch> {
    let mut batch = JoinBatch::default();
    let mut taken = 0;
    let mut group = rayon::current_num_threads().max(1);
    while taken < todo.len() && batch.pairs < target_pairs && batch.bytes() < MAX_BATCH_BYTES {
        let end = (taken + group).min(todo.len());
        let more = JoinBatch::of(tasks, &todo[taken..end], stop)?;
        batch.append(more);
        taken = end;
        group *= 2;
    }
    Some(batch)
}

impl JoinBatch {
    /// Appends the tasks of `more` after this batch's.
    fn append(&mut self, more: JoinBatch) {
        let (base, first) = (self.words.len() as u32, self.tasks.len() as u32);
        self.tasks.extend_from_slice(&more.tasks);
        self.words.extend_from_slice(&more.words);
        self.tiles.extend(
            more.tiles
                .chunks(TILE_RECORD)
                .flat_map(|t| [t[0] + base, t[1], t[2] + base, t[3]]),
        );
        self.owner
            .extend(more.owner.iter().map(|&(task, w)| (task + first, w)));
        self.pairs += more.pairs;
    }
}

/// Counts the tasks `todo` of `tasks` with the first GPU ([`CudaJoin`]) counting the pairs,
/// as [`count_tasks`] does with any backend; the report names the device.
///
/// # Errors
/// What [`count_tasks`] gives, and [`GpuError`] if the GPU cannot start: no driver, NVRTC or
/// device, too little free memory for two batches (before any work), the kernel not compiling.
pub fn count_on_gpu<E: Send>(
    tasks: &JoinTasks,
    todo: &[usize],
    threads: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
) -> Result<(Outcome, Report), RunError<E>> {
    let mut gpu = CudaJoin::new(chunks(tasks))?;
    let (outcome, mut report) = count_tasks(&mut gpu, tasks, todo, threads, stop, on_done)?;
    report.device = gpu.name();
    report.resident_threads = gpu.resident_threads();
    Ok((outcome, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_takes_out_the_long_bits_and_counts_them() {
        let long = 1 << 3 | 1 << 10;
        assert_eq!(pack(0b111, long), 0b111);
        assert_eq!(pack(1 << 3 | 1 << 4, long), 1 << 3 | 1 << WEIGHT_AT);
        assert_eq!(
            pack(1 << 11 | 1 << 10 | 1 << 3, long),
            1 << 9 | 2 << WEIGHT_AT
        );
        // Disjointness is kept for words free of the long bits.
        let (a, b) = (0b1010_0101_0110u64, 0b0101_0010_1001u64);
        assert_eq!(
            a & b == 0,
            pack(a & !long, long) & pack(b & !long, long) == 0
        );
    }
}
