//! Counting by joining half-boards (meet in the middle).
//!
//! Backtracking meets every solution one at a time. Here the board is cut between its top and
//! bottom halves (`h = n/2` rows each, with the middle row between them when `n` is odd), the
//! two halves are listed separately, and the lists are joined:
//!
//! 1. **A task fixes the top half's columns** `C` (`h` of them). The bottom half must then use
//!    exactly the other columns, so rows and columns are settled and only diagonals can still
//!    clash. For odd `n` the task lists its top half once, noting which middle columns each
//!    top placement attacks, then joins, for each middle column in turn, the top placements
//!    that leave it free with the bottom half that avoids it.
//! 2. **Each half is summed up by a word**: the diagonals crossing the cut that it occupies
//!    (`half.rs`). The top half's placements using `C` give a list of words `u`; the bottom
//!    half's placements using the other columns give words `v`; the solutions of the task are
//!    the pairs with `u & v == 0`. The halves themselves are glued from quarter-board lists
//!    made once per board, which is much cheaper than searching each half per task.
//! 3. **Counting disjoint pairs** is the hot loop (`sieve.rs`): the stored words are kept
//!    bit-sliced in groups of 256, with the rows of each chunk of 6 bit positions ANDed ahead
//!    of time for all 64 patterns, so a query word is tested against 256 stored words with 5
//!    vector ANDs and a popcount at `n = 18`. Both sides are sorted once per join by a few busy
//!    "cut" bits, and a group is only shown the queries whose cut bits avoid those of one of
//!    its words; it keeps a row per pattern of the cut bits, loaded once per class of queries,
//!    so the chunks need not slice those bits.
//!    (Hashing the complement of `v` finds only equal words, not disjoint ones; a subset-sum
//!    table over `2(n-1)` diagonal bits would need `2^34` entries at `n = 18`.)
//!
//! **Symmetry.** Mirroring the board left-right maps a join `(C, m)` (top columns, middle
//! column) to its mirror image, and turning it upside down swaps the halves, mapping `C` to the
//! columns left over by `C` and `m`; both keep the count. Only the largest join of each such
//! family, ordered by `C` first, is counted, weighted by the family's size; a task is a `C`
//! with at least one such join. (The largest puts on top the half that holds the last column,
//! and halves on the edge columns have the most placements: so the task's top half, listed
//! once, is mostly the longer one, and the bottom half, listed per join, the shorter.) The
//! other symmetries (the reflections in the two long diagonals) do not map tasks to tasks, but
//! they halve the pairs a join tests (`twice_sorted`): only the words that leave both long
//! diagonals empty are stored.
//!
//! **Unique solutions** come from Burnside's lemma ([`symmetric`]): the list ends with
//! small tasks that count the solutions unchanged by a half turn (`P`) and by a quarter turn
//! (`R`). Every main task adds its count to both `total` and `unique8`, a `P` task adds its
//! count to `unique8`, an `R` task twice its count, so `unique8 / 8` is the unique count.
//!
//! **Memory.** The quarter lists are shared by all threads: 8 bytes per quarter placement
//! (`half.rs`; the sizes per `n` are in docs/engine.md). Each thread keeps one task's words,
//! sorted copies and a sieve (about 135 bytes per word), for at most as many words a side as
//! the largest half has (counted up to `n = 21`) and at most [`CHUNK`] (or what
//! [`JoinTasks::with_chunk`] says): a longer half is listed again for each chunk of the other.
//! [`JoinTasks::memory_bytes`] adds these up before anything is allocated.

mod half;
mod kernel;
mod layout;
mod sieve;
mod stages;
mod tuning;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

#[cfg(feature = "cuda")]
use half::HalfKeys;
use half::{Combinations, Quarters, Shape, Side};
use kernel::Kernel;
use layout::{NARROW, WIDE};
use sieve::{Classes, Scales, Sieve};
pub use stages::StageTimes;
use stages::{Clock, NoClock, Stage, StageClock};
use tuning::Tuning;

use super::symmetric::{self, Turn};
use crate::engine::cpu::{self, Isa};
use crate::engine::{EngineError, Strategy, Tally, TaskSet};
use crate::memory::OutOfMemory;

/// The largest `n` the join counts.
///
/// The quarter lists take 95 GiB at `n = 26` and would take about twice as much at `n = 27`,
/// where the count itself would also take years on one machine.
///
/// ```
/// use nqueens::engine::strategy::join::{check, MAX_N};
/// assert!(check(MAX_N).is_ok() && check(MAX_N + 1).is_err());
/// ```
pub const MAX_N: usize = 26;

/// The most top words a task keeps in memory at once, unless [`JoinTasks::with_chunk`] says.
pub const CHUNK: usize = 1 << 20;

/// Version of the task list (bump when the list, its order or what a task counts changes).
/// Version 3: a task counts its solutions through the long-diagonal symmetries, so its own
/// tally differs from version 2's (the sum does not). Version 4: the largest join of each
/// symmetry family is counted, not the smallest, so the tasks are other column sets.
const VERSION: u32 = 4;

/// The task list of the Join strategy.
///
/// ```
/// use nqueens::engine::{strategy::join::JoinTasks, Tally, TaskSet};
/// let tasks = JoinTasks::new(10).unwrap();
/// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
/// assert_eq!((sum.total, sum.unique()), (724, 92));
/// ```
pub struct JoinTasks {
    shape: Shape,
    /// The top half's columns of each main task.
    main: Vec<u32>,
    /// Built by the first task that needs them, then shared.
    quarters: OnceLock<Quarters>,
    /// Held while the quarter lists are being made, so they are made once.
    building: Mutex<()>,
    /// The most top words a task holds at once.
    chunk: usize,
    /// Which copy of the hot loops counts, and how the join uses it.
    isa: Isa,
    tuning: Tuning,
    /// Whether the stages are timed, and what they took so far.
    timed: bool,
    stage_times: Mutex<StageTimes>,
}

/// `Ok` if the Join strategy counts `n`.
///
/// ```
/// assert!(nqueens::engine::strategy::join::check(26).is_ok());
/// assert!(nqueens::engine::strategy::join::check(27).is_err());
/// ```
///
/// # Errors
/// [`EngineError::OutOfRange`] for `n` outside 1 to [`MAX_N`].
pub fn check(n: usize) -> Result<(), EngineError> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(EngineError::OutOfRange {
            strategy: Strategy::Join,
            n,
            max: MAX_N,
            why: "the quarter lists of larger boards need hundreds of GiB, and the count years",
        })
    }
}

impl JoinTasks {
    /// The task list for `n` (1 to [`MAX_N`]).
    ///
    /// ```
    /// use nqueens::engine::{strategy::join::JoinTasks, Tally, TaskSet};
    /// let tasks = JoinTasks::new(12).unwrap();
    /// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    /// assert_eq!((sum.total, sum.unique()), (14200, 1787));
    /// assert!(JoinTasks::new(27).is_err());
    /// ```
    ///
    /// # Errors
    /// [`EngineError::OutOfRange`] for `n` outside 1 to [`MAX_N`].
    pub fn new(n: usize) -> Result<Self, EngineError> {
        check(n)?;
        let shape = Shape::new(n);
        let main = Combinations::new(n, shape.h)
            .filter(|&cols| joins(&shape, cols).next().is_some())
            .collect();
        Ok(JoinTasks {
            shape,
            main,
            quarters: OnceLock::new(),
            building: Mutex::new(()),
            chunk: CHUNK,
            isa: Isa::chosen(),
            tuning: Tuning::for_isa(Isa::chosen()),
            timed: false,
            stage_times: Mutex::default(),
        })
    }

    /// The task list for `n`, holding at most `chunk` top words per task in memory (at least
    /// 1): less memory, paid for by listing the bottom half once per chunk.
    ///
    /// ```
    /// use nqueens::engine::{strategy::join::JoinTasks, Tally, TaskSet};
    /// let tasks = JoinTasks::with_chunk(10, 5).unwrap();
    /// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    /// assert_eq!(sum.total, 724);
    /// ```
    ///
    /// # Errors
    /// [`EngineError::OutOfRange`] for `n` outside 1 to [`MAX_N`].
    pub fn with_chunk(n: usize, chunk: usize) -> Result<Self, EngineError> {
        let mut tasks = JoinTasks::new(n)?;
        tasks.chunk = chunk.max(1);
        Ok(tasks)
    }

    /// The same list, counted with the copy of the hot loops `isa` names, or the widest this
    /// CPU runs if it runs no such copy; the counts do not change, only the time.
    ///
    /// ```
    /// use nqueens::engine::{cpu::Isa, strategy::join::JoinTasks, Tally, TaskSet};
    /// for isa in Isa::available() {
    ///     let tasks = JoinTasks::new(12).unwrap().with_isa(isa);
    ///     let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    ///     assert_eq!((sum.total, tasks.isa()), (14200, isa));
    /// }
    /// ```
    #[must_use]
    pub fn with_isa(mut self, isa: Isa) -> Self {
        self.isa = isa.min(Isa::detect());
        self.tuning = Tuning::for_isa(self.isa);
        self
    }

    /// The copy of the hot loops that counts.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// The same list, timing each stage of every join it counts (see [`StageTimes`]): the
    /// clock is read six times per join, a small share of a join's time (docs/engine-trials.md);
    /// an untimed list has no clock at all.
    #[must_use]
    pub fn with_stage_times(mut self) -> Self {
        self.timed = true;
        self
    }

    /// What the stages took so far, summed over the tasks counted (zero unless
    /// [`JoinTasks::with_stage_times`]).
    pub fn stage_times(&self) -> StageTimes {
        *self.stage_times.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The quarter lists, made by the first caller that needs them while the others wait;
    /// `None` if `stop` was set before they were complete (the next task tries again), the
    /// error if they cannot be allocated.
    fn try_quarters(&self, stop: &AtomicBool) -> Result<Option<&Quarters>, OutOfMemory> {
        if let Some(q) = self.quarters.get() {
            return Ok(Some(q));
        }
        let _one_builder = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = self.quarters.get() {
            return Ok(Some(q));
        }
        let Some(made) = Quarters::new(&self.shape, stop)? else {
            return Ok(None);
        };
        Ok(Some(self.quarters.get_or_init(|| made)))
    }

    /// The quarter lists for a task. A count through [`crate::Counter`] has made them already
    /// ([`TaskSet::prepare`]), where their allocation can fail cleanly; a caller that counts
    /// tasks directly without preparing gets the allocator's abort, as for any `Vec`.
    fn quarters(&self, stop: &AtomicBool) -> Option<&Quarters> {
        self.try_quarters(stop)
            .unwrap_or_else(|e| panic!("the join's quarter lists: {e}"))
    }

    /// Counts the solutions of the main task with top columns `cols`, weighted.
    fn count_main(&self, cols: u32, stop: &AtomicBool) -> u64 {
        let Some(quarters) = self.quarters(stop) else {
            return 0;
        };
        if self.timed {
            let mut clock = StageClock::default();
            let count = self.count_main_timed(quarters, cols, &mut clock, stop);
            *self.stage_times.lock().unwrap_or_else(|e| e.into_inner()) += clock.times;
            count
        } else {
            self.count_main_timed(quarters, cols, &mut NoClock, stop)
        }
    }

    /// [`JoinTasks::count_main`] with the copy of the loops [`JoinTasks::isa`] names, timed
    /// by `clock`.
    fn count_main_timed<T: Clock>(
        &self,
        quarters: &Quarters,
        cols: u32,
        clock: &mut T,
        stop: &AtomicBool,
    ) -> u64 {
        let job = Job {
            tasks: self,
            quarters,
            cols,
            tuning: self.tuning,
            stop,
        };
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = cpu::Avx512::for_isa(self.isa) {
            // SAFETY: `cpu` proves the CPU has the features the function is compiled for.
            return WIDE_SCRATCH
                .with_borrow_mut(|scratch| unsafe { count_main_avx512(cpu, job, scratch, clock) });
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = cpu::Avx2::for_isa(self.isa) {
            // SAFETY: `cpu` proves the CPU has the features the function is compiled for.
            return WIDE_SCRATCH
                .with_borrow_mut(|scratch| unsafe { count_main_avx2(cpu, job, scratch, clock) });
        }
        NARROW_SCRATCH.with_borrow_mut(|scratch| count_main_portable(job, scratch, clock))
    }
}

/// One join of a main task, its halves listed whole, for a device that counts the pairs itself
/// (`engine::gpu::join`): the pairs `(u, v)` of `top` and `bottom` with `u & v == 0`, counted
/// through the long diagonals' symmetries as [`twice_sorted`] does, times `weight`, are the
/// join's share of the task's count.
#[cfg(feature = "cuda")]
pub(crate) struct JoinHalves<'a> {
    /// The size of the join's symmetry family.
    pub weight: u64,
    /// The top words that leave the middle queen free, trimmed to the word's bits.
    pub top: &'a [u64],
    /// The bottom words that avoid the middle queen.
    pub bottom: &'a [u64],
}

#[cfg(feature = "cuda")]
impl JoinTasks {
    /// How many main tasks the list starts with (the rest count symmetric solutions).
    pub(crate) fn main_len(&self) -> usize {
        self.main.len()
    }

    /// The bits of a half's word that the board's two long diagonals take.
    pub(crate) fn long_diagonal_bits(&self) -> u64 {
        long_diagonals(&self.shape)
    }

    /// Bits in a half's word.
    pub(crate) fn word_bits(&self) -> usize {
        self.shape.bits()
    }

    /// Calls `each` with every join of main task `index` (below [`JoinTasks::main_len`]),
    /// listed with the widest copy of the loops this CPU runs; `false` if `stop` was set
    /// before the quarter lists or every join were made (the joins given are then to be
    /// thrown away).
    pub(crate) fn for_each_join(
        &self,
        index: usize,
        stop: &AtomicBool,
        each: &mut dyn FnMut(JoinHalves),
    ) -> bool {
        let Some(quarters) = self.quarters(stop) else {
            return false;
        };
        let cols = self.main[index];
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = cpu::Avx512::for_isa(self.isa) {
            // SAFETY: `cpu` proves the CPU has the features the function is compiled for.
            return unsafe { joins_avx512(cpu, self, quarters, cols, stop, each) };
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = cpu::Avx2::for_isa(self.isa) {
            // SAFETY: `cpu` proves the CPU has the features the function is compiled for.
            return unsafe { joins_avx2(cpu, self, quarters, cols, stop, each) };
        }
        joins_with(kernel::Portable, self, quarters, cols, stop, each)
    }
}

/// The left and the right quarter list of a board, as a device that holds them needs them:
/// each its entries (a `u64` per placement: `half.rs`) and where each key's entries start
/// (`start[key]..start[key + 1]`).
#[cfg(feature = "cuda")]
pub type QuarterTables<'a> = [(&'a [u64], &'a [usize]); 2];

/// One join of a main task as a device that makes its halves itself needs it: where its
/// halves' placements are in the quarter lists ([`JoinTasks::quarter_tables`]), and the middle
/// queen's squares. The pairs `(u, v)` of its top and bottom words with `u & v == 0`, counted
/// through the long diagonals' symmetries as [`twice_sorted`] does, times `weight`, are the
/// join's share of the task's count, as for [`JoinHalves`].
#[cfg(feature = "cuda")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct JoinKeys {
    /// The size of the join's symmetry family.
    pub weight: u64,
    /// The bits of a quarter entry that attack the middle queen: a placement with any of them
    /// is not part of the join (none for even `n`).
    pub blocked: u64,
    /// The top half.
    pub top: HalfKeys,
    /// The bottom half, read upside down: its words are the glued entries' with the two
    /// families swapped.
    pub bottom: HalfKeys,
}

#[cfg(feature = "cuda")]
impl JoinTasks {
    /// Calls `each` with every join of main task `index` (below [`JoinTasks::main_len`]) as
    /// [`JoinKeys`]; `false` if `stop` was set before the quarter lists were made.
    pub(crate) fn for_each_join_keys(
        &self,
        index: usize,
        stop: &AtomicBool,
        each: &mut dyn FnMut(JoinKeys),
    ) -> bool {
        let Some(quarters) = self.quarters(stop) else {
            return false;
        };
        let shape = &self.shape;
        let cols = self.main[index];
        let top = quarters.half_keys(cols);
        for (mid, weight) in joins(shape, cols) {
            let middle = if shape.gap == 1 { 1 << mid } else { 0 };
            each(JoinKeys {
                weight,
                blocked: shape.blocked(middle),
                top,
                bottom: quarters.half_keys(shape.full() & !cols & !middle),
            });
        }
        true
    }

    /// The quarter lists ([`Quarters::tables`]), made first if need be; `None` if `stop` was
    /// set before they were, the error if they cannot be allocated.
    pub(crate) fn quarter_tables(
        &self,
        stop: &AtomicBool,
    ) -> Result<Option<QuarterTables<'_>>, OutOfMemory> {
        Ok(self.try_quarters(stop)?.map(Quarters::tables))
    }

    /// Bits per diagonal family in a half's word.
    pub(crate) fn family_bits(&self) -> usize {
        self.shape.width
    }
}

/// [`JoinTasks::for_each_join`] compiled for AVX-512.
#[cfg(all(feature = "cuda", target_arch = "x86_64"))]
#[target_feature(enable = "avx512f,avx512vl,avx512bitalg,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt")]
fn joins_avx512(
    cpu: cpu::Avx512,
    tasks: &JoinTasks,
    quarters: &Quarters,
    cols: u32,
    stop: &AtomicBool,
    each: &mut dyn FnMut(JoinHalves),
) -> bool {
    joins_with(kernel::Avx512::new(cpu), tasks, quarters, cols, stop, each)
}

/// [`JoinTasks::for_each_join`] compiled for AVX2.
#[cfg(all(feature = "cuda", target_arch = "x86_64"))]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn joins_avx2(
    cpu: cpu::Avx2,
    tasks: &JoinTasks,
    quarters: &Quarters,
    cols: u32,
    stop: &AtomicBool,
    each: &mut dyn FnMut(JoinHalves),
) -> bool {
    joins_with(kernel::Avx2::new(cpu), tasks, quarters, cols, stop, each)
}

/// The body of [`JoinTasks::for_each_join`] with kernel `K`: the halves of each join as
/// [`count_main_with`] lists them when both are held whole.
#[cfg(feature = "cuda")]
#[inline(always)]
fn joins_with<K: Kernel>(
    k: K,
    tasks: &JoinTasks,
    quarters: &Quarters,
    cols: u32,
    stop: &AtomicBool,
    each: &mut dyn FnMut(JoinHalves),
) -> bool {
    let shape = &tasks.shape;
    let (mut tops, mut top, mut bottom) = (Vec::new(), Vec::new(), Vec::new());
    // `usize::MAX - 1`: no limit (the listing stops past one more than it).
    quarters.top_entries(k, cols, &mut tops, usize::MAX - 1);
    for (mid, weight) in joins(shape, cols) {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let middle = if shape.gap == 1 { 1 << mid } else { 0 };
        top.clear();
        kernel::append_pairs(
            k,
            &mut top,
            0,
            shape.blocked(middle),
            shape.word_mask(),
            &tops,
        );
        bottom.clear();
        let other = shape.full() & !cols & !middle;
        quarters.half_words(k, other, middle, Side::Bottom, &mut bottom, usize::MAX - 1);
        each(JoinHalves {
            weight,
            top: &top,
            bottom: &bottom,
        });
    }
    !stop.load(Ordering::Relaxed)
}

/// One main task to count: the list it belongs to, its columns, and how to use the kernel.
#[derive(Clone, Copy)]
struct Job<'a> {
    tasks: &'a JoinTasks,
    quarters: &'a Quarters,
    cols: u32,
    tuning: Tuning,
    stop: &'a AtomicBool,
}

/// The main-task count with the portable kernel, in groups of 256 words.
///
/// Never inlined, so that the loops are compiled once, as the other copies (whose
/// `#[target_feature]` keeps them apart) are: the tests call these three functions, not
/// copies of their own.
#[inline(never)]
fn count_main_portable<T: Clock>(job: Job, scratch: &mut Scratch<NARROW>, clock: &mut T) -> u64 {
    count_main_with(kernel::Portable, job, scratch, clock)
}

/// The main-task count compiled for AVX2 and BMI2, so that a sieve row of 8 lanes is two
/// registers (4 lanes, one, for the sides that fit 256 words) and the bit gathering one
/// instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn count_main_avx2<T: Clock>(
    cpu: cpu::Avx2,
    job: Job,
    scratch: &mut Scratch<WIDE>,
    clock: &mut T,
) -> u64 {
    count_main_with(kernel::Avx2::new(cpu), job, scratch, clock)
}

/// The main-task count compiled for AVX-512: a sieve row of 8 lanes is one register, three
/// rows are ANDed by one instruction and the lanes' bits counted by another.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bitalg,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt")]
fn count_main_avx512<T: Clock>(
    cpu: cpu::Avx512,
    job: Job,
    scratch: &mut Scratch<WIDE>,
    clock: &mut T,
) -> u64 {
    count_main_with(kernel::Avx512::new(cpu), job, scratch, clock)
}

/// The main-task count with kernel `K` in groups of `L` lanes, the body of the three copies
/// above: the top half is listed once (with the middle columns each placement attacks); for
/// each middle column the task counts, the top words that leave it free are joined with the
/// bottom half that avoids it.
#[inline(always)]
fn count_main_with<K: Kernel, const L: usize, T: Clock>(
    k: K,
    job: Job,
    scratch: &mut Scratch<L>,
    clock: &mut T,
) -> u64 {
    let Job {
        tasks,
        quarters,
        cols,
        tuning,
        stop,
    } = job;
    let (shape, chunk) = (&tasks.shape, tasks.chunk);
    clock.start();
    let mut tops = std::mem::take(&mut scratch.tops);
    let mut words = std::mem::take(&mut scratch.top_words);
    let mut bottoms = std::mem::take(&mut scratch.bottom_words);
    tops.clear();
    // More than `chunk` top words: each join lists them again, `chunk` at a time.
    let held = quarters.top_entries(k, cols, &mut tops, chunk);
    clock.lap(Stage::Listing);
    // The bits of a word: top entries also keep, above them, the middle row's diagonals.
    let (mask, long) = (shape.word_mask(), long_diagonals(shape));
    let mut total = 0;
    // The cut bits of the task's sorted top entries, once sorted.
    let mut task_cut = None;
    for (mid, weight) in joins(shape, cols) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let taken = if shape.gap == 1 { 1 << mid } else { 0 };
        // The middle queen's column, as a mask of the middle row's columns, and the bits of
        // the top entries that attack it.
        let middle = taken;
        let blocked = shape.blocked(middle);
        let top = Listed {
            quarters,
            cols,
            middle,
            side: Side::Top,
        };
        let bottom = Listed {
            quarters,
            cols: shape.full() & !cols & !taken,
            middle,
            side: Side::Bottom,
        };
        bottoms.clear();
        let bottoms_held =
            quarters.half_words(k, bottom.cols, middle, Side::Bottom, &mut bottoms, chunk);
        let twice = if held && bottoms_held {
            // The task's top entries are sorted once, by cut bits chosen at its first join;
            // each join then keeps, class by class, the entries that leave its middle queen
            // free (trimmed to their words), instead of sorting its top words again. Even n
            // has one join per task; odd n about 6.8 at n = 19, each keeping about a third.
            clock.lap(Stage::Listing);
            let cut = match task_cut {
                Some(cut) => cut,
                None => {
                    let kept = if shape.gap == 1 {
                        tops.len() / 3
                    } else {
                        tops.len()
                    };
                    let cut = join_cut::<L>(shape, &tops, kept, &bottoms);
                    if shape.gap == 0 {
                        // Even n: no middle row, so the top entries are the words, all kept:
                        // sorted straight into the join's classes.
                        scratch.top_classes.sort(k, tuning, &tops, cut, long);
                    } else {
                        scratch.task_tops.sort(k, tuning, &tops, cut, long);
                    }
                    clock.lap(Stage::Sorting);
                    *task_cut.insert(cut)
                }
            };
            if shape.gap != 0 {
                scratch
                    .top_classes
                    .keep(k, &scratch.task_tops, blocked, mask);
            }
            clock.lap(Stage::Listing);
            clock.words((scratch.top_classes.len() + bottoms.len()) as u64);
            scratch.bottom_classes.sort(k, tuning, &bottoms, cut, long);
            clock.lap(Stage::Sorting);
            twice_sorted(k, job, scratch, clock)
        } else {
            // A side too long to hold: the sides are stored and asked a chunk at a time.
            words.clear();
            if held {
                // Without a branch (about a third of the top words leave a given middle
                // column free, so a branch would be mispredicted often, on every word of every
                // join), and with the vectors of the quarter pairs: the entries that avoid
                // `blocked`, trimmed to their words.
                kernel::append_pairs(k, &mut words, 0, blocked, mask, &tops);
            }
            clock.lap(Stage::Listing);
            clock.words((words.len() + bottoms.len()) as u64);
            if held {
                twice_listed(k, job, &words[..], &bottom, scratch)
            } else if bottoms_held {
                twice_listed(k, job, &top, &bottoms[..], scratch)
            } else {
                twice_listed(k, job, &top, &bottom, scratch)
            }
        };
        // Even: a family has two or four members (the halves never swap onto themselves),
        // except the one-square board's, where both halves are empty and count alike.
        debug_assert!(weight * twice % 2 == 0);
        total += weight * twice / 2;
    }
    (scratch.tops, scratch.top_words, scratch.bottom_words) = (tops, words, bottoms);
    clock.work(scratch.sieve.take_work());
    clock.work(scratch.small.take_work());
    total
}

/// The bits of a half's word for the board's two long diagonals (corner to corner), which
/// cross the cut in the middle of each family.
fn long_diagonals(shape: &Shape) -> u64 {
    match shape.h {
        0 => 0,
        h => (1 << (h - 1)) | (1 << (shape.width + h - 1)),
    }
}

/// The cut bits for the joins of a task: busy in its top entries and in its first join's
/// bottom words. Each join stores about a quarter of each side (the words free of long
/// diagonals); `kept` is about how many top words a join keeps (all for even `n`, about a third
/// for odd `n`, one middle column each).
fn join_cut<const L: usize>(shape: &Shape, tops: &[u64], kept: usize, bottoms: &[u64]) -> u64 {
    let candidates = shape.word_mask() & !long_diagonals(shape);
    sieve::cut_bits(tops, bottoms, candidates, kept.max(bottoms.len()) / 4, L)
}

/// Twice the number of solutions made of a top word and a bottom word, counted through the
/// board's diagonal symmetries so that only about half the pairs are tested.
///
/// Each long diagonal holds at most one queen: in the top half, in the bottom half, or none
/// (or the middle queen). Reflecting the board in either long diagonal, or turning it half
/// round, moves that queen between the halves and maps solutions one to one. So over the
/// whole board, the solutions with a long-diagonal queen in the top half are as many as those
/// with it in the bottom half: counting only the solutions whose top half leaves both long
/// diagonals empty, each twice for every long-diagonal queen in its bottom half, gives the
/// total. The same holds with the halves swapped, and the family of a task (mirror image and
/// halves swapped) exchanges the two ways, so a task counts both: the top words free of long
/// diagonals (about a quarter of them) against all bottom words, and the other way round.
///
/// Both ways meet the pairs whose halves both leave the long diagonals empty, each counting
/// them once. So the first way counts those twice ([`BOTH_WAYS`]) and the second does not ask
/// its queries free of long diagonals ([`OTHER_WAY`]): the same sum, with the pairs of a
/// quarter of the second way's queries left untested.
///
/// Both sides are sorted (`scratch.top_classes` and `bottom_classes`), with the same cut bits,
/// and serve as stored words and as queries.
#[inline(always)]
fn twice_sorted<K: Kernel, const L: usize, T: Clock>(
    k: K,
    job: Job,
    scratch: &mut Scratch<L>,
    clock: &mut T,
) -> u64 {
    let Scratch {
        top_classes,
        bottom_classes,
        sieve,
        small,
        ..
    } = scratch;
    let sieves = &mut Sieves { sieve, small };
    // A function called twice, not a closure: as a closure the sieve's building was not
    // compiled with the caller's vector instructions.
    stored_against(
        k,
        job,
        sieves,
        top_classes,
        bottom_classes,
        BOTH_WAYS,
        clock,
    ) + stored_against(
        k,
        job,
        sieves,
        bottom_classes,
        top_classes,
        OTHER_WAY,
        clock,
    )
}

/// A thread's two sieves: of wide groups where the kernel uses them, and of one narrow group.
struct Sieves<'a, const L: usize> {
    sieve: &'a mut Sieve<L>,
    small: &'a mut Sieve<NARROW>,
}

/// How the first way's queries count, by how many long diagonals they hold: `2^weight`, except
/// that a query free of long diagonals counts twice, for this way and the other, as the stored
/// words it meets are free of them too ([`twice_sorted`]).
const BOTH_WAYS: Scales = [2, 2, 4];
/// How the second way's queries count: `2^weight`, and those free of long diagonals, counted
/// by the first way, not asked.
const OTHER_WAY: Scales = [0, 2, 4];

/// `Σ scales[weight(q)] · #{s : s & q == 0}` over the `queries` and the words of weight 0 of
/// `stored`: a sieve of `stored` built and asked. Where the tuning says narrow sieves cost
/// half as much, the words past the last whole group of the wide sieve go to the small one if
/// they fit its group of 256 (so a side of at most 256 words goes there whole).
#[inline(always)]
fn stored_against<K: Kernel, const L: usize, T: Clock>(
    k: K,
    job: Job,
    sieves: &mut Sieves<L>,
    stored: &Classes,
    queries: &Classes,
    scales: Scales,
    clock: &mut T,
) -> u64 {
    let (bits, len) = (job.tasks.shape.bits(), stored.stored_len());
    let narrow = job.tuning.narrow_halves;
    let tail = match len % Sieve::<L>::GROUP {
        part if narrow && L > NARROW && part <= Sieve::<NARROW>::GROUP => part,
        _ => 0,
    };
    let (tuning, stop) = (job.tuning, job.stop);
    let mut count = 0;
    if tail < len {
        sieves.sieve.build(tuning, stored, 0..len - tail, bits);
        clock.lap(Stage::Building);
        count += sieves.sieve.count(k, queries, scales, stop);
        clock.lap(Stage::Counting);
    }
    if tail > 0 {
        sieves.small.build(tuning, stored, len - tail..len, bits);
        clock.lap(Stage::Building);
        count += sieves.small.count(k, queries, scales, stop);
        clock.lap(Stage::Counting);
    }
    count
}

/// [`twice_sorted`] for halves too long to hold: each side is stored `chunk` words at a time,
/// and the other listed again for each chunk and asked in batches of `chunk`.
fn twice_listed<K: Kernel, const L: usize>(
    k: K,
    job: Job,
    top: &(impl Source + ?Sized),
    bottom: &(impl Source + ?Sized),
    scratch: &mut Scratch<L>,
) -> u64 {
    term(k, job, top, bottom, BOTH_WAYS, scratch) + term(k, job, bottom, top, OTHER_WAY, scratch)
}

/// `Σ scales[|q & long|] · #{s : s & q == 0}` over the query words `q` and the stored words
/// `s` that avoid the long diagonals, holding at most `chunk` stored words (and queries) at a
/// time. The queries whose weight scales by 0 are not held.
fn term<K: Kernel, const L: usize>(
    k: K,
    job: Job,
    stored: &(impl Source + ?Sized),
    queries: &(impl Source + ?Sized),
    scales: Scales,
    scratch: &mut Scratch<L>,
) -> u64 {
    let Job {
        tasks,
        tuning,
        stop,
        ..
    } = job;
    let (shape, chunk) = (&tasks.shape, tasks.chunk);
    let long = long_diagonals(shape);
    let Scratch {
        stored_words,
        batch,
        top_classes: stored_classes,
        bottom_classes: query_classes,
        sieve,
        ..
    } = scratch;
    let mut total = 0;
    let mut against = |held: &mut Vec<u64>| {
        let cut = sieve::cut_bits(held, held, shape.word_mask() & !long, held.len(), L);
        stored_classes.sort(k, tuning, held, cut, long);
        let stored = 0..stored_classes.stored_len();
        sieve.build(tuning, stored_classes, stored, shape.bits());
        let mut ask = |batch: &mut Vec<u64>| {
            query_classes.sort(k, tuning, batch, cut, long);
            total += sieve.count(k, query_classes, scales, stop);
            batch.clear();
        };
        batch.clear();
        queries.each(k, |q| {
            if scales[(q & long).count_ones() as usize] == 0 {
                return;
            }
            batch.push(q);
            if batch.len() == chunk {
                ask(batch);
            }
        });
        ask(batch);
        held.clear();
    };
    stored_words.clear();
    stored.each(k, |s| {
        if s & long == 0 {
            stored_words.push(s);
            if stored_words.len() == chunk {
                against(stored_words);
            }
        }
    });
    if !stored_words.is_empty() {
        against(stored_words);
    }
    total
}

/// Buffers kept by each thread from task to task, so that they are allocated once; the sieve's
/// groups have `L` lanes.
#[derive(Default)]
struct Scratch<const L: usize> {
    /// A task's top entries: words, with the bits that tell the middle columns they attack.
    tops: Vec<u64>,
    /// The top words of one join (when a side is too long to hold), and its bottom words.
    top_words: Vec<u64>,
    bottom_words: Vec<u64>,
    /// A task's top entries sorted once, for all its joins.
    task_tops: Classes,
    /// Both sides sorted by their cut bits.
    top_classes: Classes,
    bottom_classes: Classes,
    /// The stored words and a batch of queries, when the halves are too long to hold.
    stored_words: Vec<u64>,
    batch: Vec<u64>,
    sieve: Sieve<L>,
    /// Where groups hold 512 words and a sieve of 256 costs half as much
    /// ([`Tuning::narrow_halves`]): the sieve of the sides that fit one group of 256.
    small: Sieve<NARROW>,
}

impl<const L: usize> Scratch<L> {
    /// Bytes per word of a task in the buffers above, the classes and the sieve aside
    /// ([`sieve::bytes`] has those): `tops`, `top_words`, `bottom_words`, `stored_words` and
    /// `batch` each hold at most one entry per word. Stated here, beside the fields, so that
    /// the memory estimate follows them.
    const BYTES_PER_WORD: u64 = (5 * std::mem::size_of::<u64>()) as u64;
}

thread_local! {
    // One of the two is used, as the CPU decides.
    static NARROW_SCRATCH: std::cell::RefCell<Scratch<NARROW>> =
        std::cell::RefCell::default();
    static WIDE_SCRATCH: std::cell::RefCell<Scratch<WIDE>> =
        std::cell::RefCell::default();
}

/// A list of half-board words: held in memory, or listed again each time it is read.
trait Source {
    /// Calls `f` with every word (listed with kernel `k`, where they are listed).
    fn each<K: Kernel>(&self, k: K, f: impl FnMut(u64));
}

impl Source for [u64] {
    #[inline(always)]
    fn each<K: Kernel>(&self, _: K, mut f: impl FnMut(u64)) {
        for &w in self {
            f(w);
        }
    }
}

/// The words of one half with given columns and middle queen, listed from the quarters.
struct Listed<'a> {
    quarters: &'a Quarters,
    cols: u32,
    middle: u32,
    side: Side,
}

impl Source for Listed<'_> {
    #[inline(always)]
    fn each<K: Kernel>(&self, k: K, f: impl FnMut(u64)) {
        self.quarters
            .for_each_half(k, self.cols, self.middle, self.side, f);
    }
}

/// The middle columns (0 for even `n`) whose join with top columns `cols` is the largest of
/// its symmetry family, each with the family's size.
fn joins(shape: &Shape, cols: u32) -> impl Iterator<Item = (usize, u64)> + '_ {
    let mids = if shape.gap == 1 { 0..shape.n } else { 0..1 };
    mids.filter(move |&mid| shape.gap == 0 || cols & 1 << mid == 0)
        .filter_map(move |mid| family_weight(shape, cols, mid).map(|w| (mid, u64::from(w))))
}

/// The weight of task `(cols, mid)` if it is the largest of its symmetry family, else `None`.
///
/// The family: the task, its mirror image, the task with the halves swapped (the top takes the
/// bottom's columns), and the mirror image of that. The weight is the number of distinct ones.
///
/// Why the largest: its top half holds column `n - 1` (where a member's does), and the halves
/// that hold the edge columns have the most placements. A task lists its top half once and
/// the bottom half once per join, so the longer half should be on top, and with the largest it
/// mostly is (`docs/engine-trials.md`).
fn family_weight(shape: &Shape, cols: u32, mid: usize) -> Option<u32> {
    let n = shape.n;
    let mirror = |c: u32| c.reverse_bits() >> (32 - n);
    let taken = if shape.gap == 1 { 1 << mid } else { 0 };
    let other = shape.full() & !cols & !taken;
    // Ordered by columns first, so that the joins of one task share its top half.
    let mut family = [
        (cols, mid),
        (mirror(cols), n - 1 - mid),
        (other, mid),
        (mirror(other), n - 1 - mid),
    ];
    if shape.gap == 0 {
        // Even n has no middle queen: the mirror must not be told apart by it.
        for f in &mut family {
            f.1 = 0;
        }
    }
    if family.iter().any(|&f| f > (cols, mid)) {
        return None;
    }
    family.sort_unstable();
    Some(1 + family.windows(2).filter(|w| w[0] != w[1]).count() as u32)
}

impl TaskSet for JoinTasks {
    fn n(&self) -> usize {
        self.shape.n
    }
    fn strategy(&self) -> Strategy {
        Strategy::Join
    }
    fn version(&self) -> u32 {
        VERSION
    }
    /// The main tasks, then `n` half-turn tasks and `n` quarter-turn tasks (one per column of
    /// the first row).
    fn len(&self) -> usize {
        self.main.len() + 2 * self.shape.n
    }
    fn count_unless_stopped(&self, index: usize, stop: &AtomicBool) -> Option<Tally> {
        let n = self.shape.n;
        let tally = if let Some(&cols) = self.main.get(index) {
            let total = u128::from(self.count_main(cols, stop));
            Tally {
                total,
                unique8: total,
            }
        } else {
            let j = index - self.main.len();
            assert!(j < 2 * n, "task {index} out of range");
            let first = j % n;
            let unique8 = if j < n {
                // The reflections' term rides on the first half-turn task.
                let reflections = if first == 0 {
                    4 * symmetric::reflection_fixed(n)
                } else {
                    0
                };
                symmetric::count_from_unless_stopped(n, Turn::Half, first, stop) + reflections
            } else {
                2 * symmetric::count_from_unless_stopped(n, Turn::Quarter, first, stop)
            };
            Tally {
                total: 0,
                unique8: u128::from(unique8),
            }
        };
        // The loops return early once `stop` is set, so a sum made after it is incomplete.
        (!stop.load(Ordering::Relaxed)).then_some(tally)
    }
    fn prepare(&self, stop: &AtomicBool) -> Result<(), EngineError> {
        self.try_quarters(stop)
            .map(drop)
            .map_err(EngineError::OutOfMemory)
    }

    fn memory_bytes(&self, threads: usize) -> u64 {
        memory(&self.shape, self.chunk, threads)
    }
}

/// The memory [`JoinTasks::memory_bytes`] reports for `n` on `threads` threads, without
/// building the task list; `None` if `n` is out of range.
///
/// ```
/// let one = nqueens::engine::strategy::join::memory_estimate(20, 1).unwrap();
/// assert!(one > 100 << 20 && one < 1 << 30);
/// assert!(nqueens::engine::strategy::join::memory_estimate(20, 2).unwrap() > one);
/// assert_eq!(nqueens::engine::strategy::join::memory_estimate(27, 1), None);
/// ```
pub fn memory_estimate(n: usize, threads: usize) -> Option<u64> {
    (1..=MAX_N)
        .contains(&n)
        .then(|| memory(&Shape::new(n), CHUNK, threads))
}

/// Bytes the quarter lists of `n` take (what a device that holds them needs, about), without
/// making them; `None` if `n` is out of range.
///
/// ```
/// let lists = nqueens::engine::strategy::join::quarter_list_bytes(22).unwrap();
/// assert!(lists > 1 << 30 && lists < 2 << 30);
/// ```
pub fn quarter_list_bytes(n: usize) -> Option<u64> {
    (1..=MAX_N)
        .contains(&n)
        .then(|| Quarters::bytes(&Shape::new(n)))
}

/// The quarter lists and the task list (shared; at most one task per column set), plus for
/// each thread at most as many words a side as the largest half has placements (counted up to
/// `n = 21`; `chunk` beyond, or if less): the top entries, one join's words of both sides, the
/// stored words and a batch of queries when a side is too long to hold, and the sieve with both
/// sides sorted.
fn memory(shape: &Shape, chunk: usize, threads: usize) -> u64 {
    let chunk = chunk as u64;
    let words = Quarters::most_words(shape).map_or(chunk, |most| most.min(chunk));
    let per_thread = Scratch::<WIDE>::BYTES_PER_WORD * words + sieve::bytes(words, shape.bits());
    let tasks = shape.column_sets() * std::mem::size_of::<u32>() as u64;
    Quarters::bytes(shape) + tasks + threads as u64 * per_thread
}

// Quarter entries hold `2(n - 1)` diagonal bits in a `u64` (odd `n`: `2(n - 2)` and two
// edge bits), column masks and row-and-column keys fit a `u32`.
const _: () = assert!(MAX_N <= 32);

/// `true` if joining half-boards beats backtracking for `n`.
///
/// Below 14 both take milliseconds and are about even; from 14 on the join is faster, and
/// the gap grows with `n` (`docs/engine.md`).
///
/// ```
/// assert!(nqueens::engine::strategy::join::preferred(18));
/// assert!(!nqueens::engine::strategy::join::preferred(8));
/// ```
pub fn preferred(n: usize) -> bool {
    (14..=MAX_N).contains(&n)
}

/// The words of the join's tests: Marsaglia's xorshift from `seed` (not 0), one step a call.
#[cfg(test)]
fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_copy_of_the_loops_counts_every_task_alike() {
        // The production copies themselves, chosen by the dispatch, not copies made for the
        // test: each is compiled once, and the test checks what runs.
        for n in 4..=15 {
            for chunk in [CHUNK, 7] {
                let per_task = |isa: Isa, tuning: Tuning| -> Vec<u64> {
                    let mut tasks = JoinTasks::with_chunk(n, chunk).unwrap().with_isa(isa);
                    assert_eq!(tasks.isa(), isa);
                    tasks.tuning = tuning;
                    let never = AtomicBool::new(false);
                    (0..tasks.main.len())
                        .map(|i| tasks.count_main(tasks.main[i], &never))
                        .collect()
                };
                // The portable loops are the reference.
                let reference = per_task(Isa::Portable, Tuning::PORTABLE);
                let total: u64 = reference.iter().sum();
                assert_eq!(
                    Some(u128::from(total)),
                    crate::reference::published(n).map(|p| p.0)
                );
                for isa in Isa::available() {
                    // Each copy with its own tuning, and with the others' choices: small
                    // sides in groups of 256 (one register a row) and in 512 (two), halves
                    // asked or not, the sorts, gathering or not.
                    let own = Tuning::for_isa(isa);
                    let mut tunings = vec![
                        own,
                        Tuning {
                            narrow_halves: !own.narrow_halves,
                            ..own
                        },
                    ];
                    tunings.extend([Tuning::PORTABLE, Tuning::AVX2, Tuning::AVX512]);
                    for tuning in tunings {
                        let counts = per_task(isa, tuning);
                        assert_eq!(
                            counts, reference,
                            "n = {n}, chunk {chunk}, {isa}, {tuning:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_timed_count_counts_alike_and_times_its_stages() {
        for isa in Isa::available() {
            let timed = JoinTasks::new(13).unwrap().with_isa(isa).with_stage_times();
            let sum: Tally = (0..timed.len()).map(|i| timed.count(i)).sum();
            assert_eq!((sum.total, sum.unique()), (73712, 9233));
            let stages = timed.stage_times();
            assert!(stages.words > 0 && stages.stored > 0 && stages.pairs >= stages.stored);
            assert!(stages.counting > std::time::Duration::ZERO, "{isa}");
            let untimed = JoinTasks::new(13).unwrap().with_isa(isa);
            let _ = untimed.count(0);
            assert_eq!(untimed.stage_times(), StageTimes::default());
        }
    }
}
