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
//!    of time for all 64 patterns, so a query word is tested against 256 stored words with 6
//!    vector ANDs and a popcount. Both sides are sorted once per join by a few busy "cut" bits,
//!    and a group is only shown the queries whose cut bits avoid those of one of its words.
//!    (Hashing the complement of `v` finds only equal words, not disjoint ones; a subset-sum
//!    table over `2(n-1)` diagonal bits would need `2^34` entries at `n = 18`.)
//!
//! **Symmetry.** Mirroring the board left-right maps a join `(C, m)` (top columns, middle
//! column) to its mirror image, and turning it upside down swaps the halves, mapping `C` to the
//! columns left over by `C` and `m`; both keep the count. Only the smallest join of each such
//! family, ordered by `C` first, is counted, weighted by the family's size; a task is a `C`
//! with at least one such join. The other symmetries (the reflections in the two long
//! diagonals) do not map tasks to tasks, but they halve the pairs a join tests
//! (`twice_held`): only the words that leave both long diagonals empty are stored.
//!
//! **Unique solutions** come from Burnside's lemma ([`symmetric`]): the list ends with
//! small tasks that count the solutions unchanged by a half turn (`P`) and by a quarter turn
//! (`R`). Every main task adds its count to both `total` and `unique8`, a `P` task adds its
//! count to `unique8`, an `R` task twice its count, so `unique8 / 8` is the unique count.
//!
//! **Memory.** The quarter lists are shared by all threads: 8 bytes per quarter placement
//! (`half.rs`), 14 MB at `n = 18`, 120 MB at `n = 20`, 1.1 GB at `n = 22`, 2.1 GB at `n = 23`,
//! 10 GB at `n = 24` and 102 GB at `n = 26`. Each thread keeps one task's words, sorted copies
//! and a sieve (about 100 bytes per word), for at most as many words a side as the largest
//! half has (counted up to `n = 21`) and at most [`CHUNK`] (or what [`JoinTasks::with_chunk`]
//! says): a longer half is listed again for each chunk of the other.
//! [`JoinTasks::memory_bytes`] adds these up before anything is allocated.

mod half;
mod sieve;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use half::{Combinations, Quarters, Shape, Side};
use sieve::{Classes, Gather, Sieve};

pub mod symmetric;

use super::{EngineError, Strategy, Tally, TaskSet};
use symmetric::Turn;

/// The largest `n` the join counts.
///
/// The quarter lists take 95 GiB at `n = 26` and would take about twice as much at `n = 27`,
/// where the count itself would also take years on one machine.
///
/// ```
/// use nqueens::engine::join::{check, MAX_N};
/// assert!(check(MAX_N).is_ok() && check(MAX_N + 1).is_err());
/// ```
pub const MAX_N: usize = 26;

/// The most top words a task keeps in memory at once, unless [`JoinTasks::with_chunk`] says.
pub const CHUNK: usize = 1 << 20;

/// Version of the task list (bump when the list, its order or what a task counts changes).
/// Version 3: a task counts its solutions through the long-diagonal symmetries, so its own
/// tally differs from version 2's (the sum does not).
const VERSION: u32 = 3;

/// The task list of the Join strategy.
///
/// ```
/// use nqueens::engine::{join::JoinTasks, Tally, TaskSet};
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
}

/// `Ok` if the Join strategy counts `n`.
///
/// ```
/// assert!(nqueens::engine::join::check(26).is_ok());
/// assert!(nqueens::engine::join::check(27).is_err());
/// ```
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
    /// use nqueens::engine::{join::JoinTasks, Tally, TaskSet};
    /// let tasks = JoinTasks::new(12).unwrap();
    /// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    /// assert_eq!((sum.total, sum.unique()), (14200, 1787));
    /// assert!(JoinTasks::new(27).is_err());
    /// ```
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
        })
    }

    /// The task list for `n`, holding at most `chunk` top words per task in memory (at least
    /// 1): less memory, paid for by listing the bottom half once per chunk.
    ///
    /// ```
    /// use nqueens::engine::{join::JoinTasks, Tally, TaskSet};
    /// let tasks = JoinTasks::with_chunk(10, 5).unwrap();
    /// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    /// assert_eq!(sum.total, 724);
    /// ```
    pub fn with_chunk(n: usize, chunk: usize) -> Result<Self, EngineError> {
        let mut tasks = JoinTasks::new(n)?;
        tasks.chunk = chunk.max(1);
        Ok(tasks)
    }

    /// The quarter lists, made by the first task that needs them while the others wait; `None`
    /// if `stop` was set before they were complete (the next task tries again).
    fn quarters(&self, stop: &AtomicBool) -> Option<&Quarters> {
        if let Some(q) = self.quarters.get() {
            return Some(q);
        }
        let _one_builder = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = self.quarters.get() {
            return Some(q);
        }
        let made = Quarters::new(&self.shape, stop)?;
        Some(self.quarters.get_or_init(|| made))
    }

    /// Counts the solutions of the main task with top columns `cols`, weighted.
    fn count_main(&self, cols: u32, stop: &AtomicBool) -> u64 {
        let Some(quarters) = self.quarters(stop) else {
            return 0;
        };
        SCRATCH.with_borrow_mut(|scratch| {
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("popcnt")
            {
                // SAFETY: the CPU has just been checked for the features the function enables.
                return unsafe {
                    count_main_x86(quarters, &self.shape, cols, self.chunk, scratch, stop)
                };
            }
            count_main_portable::<sieve::Soft>(
                quarters,
                &self.shape,
                cols,
                self.chunk,
                scratch,
                stop,
            )
        })
    }
}

/// The main-task count compiled for AVX2 and BMI2, so that the sieve's lanes become one
/// register and its bit gathering one instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
unsafe fn count_main_x86(
    quarters: &Quarters,
    shape: &Shape,
    cols: u32,
    chunk: usize,
    scratch: &mut Scratch,
    stop: &AtomicBool,
) -> u64 {
    count_main_portable::<sieve::Pext>(quarters, shape, cols, chunk, scratch, stop)
}

/// The main-task count: the top half is listed once (with the middle columns each placement
/// attacks); for each middle column the task counts, the top words that leave it free are
/// joined with the bottom half that avoids it.
#[inline(always)]
fn count_main_portable<G: Gather>(
    quarters: &Quarters,
    shape: &Shape,
    cols: u32,
    chunk: usize,
    scratch: &mut Scratch,
    stop: &AtomicBool,
) -> u64 {
    let mut tops = std::mem::take(&mut scratch.tops);
    let mut words = std::mem::take(&mut scratch.top_words);
    let mut bottoms = std::mem::take(&mut scratch.bottom_words);
    tops.clear();
    // More than `chunk` top words: each join lists them again, `chunk` at a time.
    let held = quarters.top_words(cols, &mut tops, chunk);
    let mut total = 0;
    for (mid, weight) in joins(shape, cols) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let taken = if shape.gap == 1 { 1 << mid } else { 0 };
        // The middle queen's column, as a mask of the middle row's columns.
        let middle = taken;
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
        words.clear();
        if held {
            words.extend(tops.iter().filter(|t| t.1 & taken == 0).map(|t| t.0));
        }
        bottoms.clear();
        let bottoms_held =
            quarters.half_words(bottom.cols, middle, Side::Bottom, &mut bottoms, chunk);
        let twice = match (held, bottoms_held) {
            (true, true) => twice_held::<G>(shape, &words, &bottoms, scratch, stop),
            (true, false) => twice_listed::<G>(shape, &words[..], &bottom, chunk, scratch, stop),
            (false, true) => twice_listed::<G>(shape, &top, &bottoms[..], chunk, scratch, stop),
            (false, false) => twice_listed::<G>(shape, &top, &bottom, chunk, scratch, stop),
        };
        // Even: a family has two or four members (the halves never swap onto themselves),
        // except the one-square board's, where both halves are empty and count alike.
        debug_assert!(weight * twice % 2 == 0);
        total += weight * twice / 2;
    }
    (scratch.tops, scratch.top_words, scratch.bottom_words) = (tops, words, bottoms);
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
#[inline(always)]
fn twice_held<G: Gather>(
    shape: &Shape,
    top: &[u64],
    bottom: &[u64],
    scratch: &mut Scratch,
    stop: &AtomicBool,
) -> u64 {
    let long = long_diagonals(shape);
    let Scratch {
        top_classes,
        bottom_classes,
        sieve,
        ..
    } = scratch;
    // Both sides are sorted once, with the same cut bits, and serve as stored words and as
    // queries. About a quarter of each side is stored.
    let cut = sieve::cut_bits(
        top,
        bottom,
        shape.word_mask() & !long,
        top.len().max(bottom.len()) / 4,
    );
    top_classes.sort::<G>(top, cut, long);
    bottom_classes.sort::<G>(bottom, cut, long);
    sieve.build(top_classes, shape.bits());
    let tops_stored = sieve.count(bottom_classes, stop);
    sieve.build(bottom_classes, shape.bits());
    tops_stored + sieve.count(top_classes, stop)
}

/// [`twice_held`] for halves too long to hold: each side is stored `chunk` words at a time,
/// and the other listed again for each chunk and asked in batches of `chunk`.
fn twice_listed<G: Gather>(
    shape: &Shape,
    top: &(impl Source + ?Sized),
    bottom: &(impl Source + ?Sized),
    chunk: usize,
    scratch: &mut Scratch,
    stop: &AtomicBool,
) -> u64 {
    term::<G>(shape, top, bottom, chunk, scratch, stop)
        + term::<G>(shape, bottom, top, chunk, scratch, stop)
}

/// `Σ 2^|q & long| · #{s : s & q == 0}` over the query words `q` and the stored words `s`
/// that avoid the long diagonals, holding at most `chunk` stored words (and queries) at a time.
fn term<G: Gather>(
    shape: &Shape,
    stored: &(impl Source + ?Sized),
    queries: &(impl Source + ?Sized),
    chunk: usize,
    scratch: &mut Scratch,
    stop: &AtomicBool,
) -> u64 {
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
        let cut = sieve::cut_bits(held, held, shape.word_mask() & !long, held.len());
        stored_classes.sort::<G>(held, cut, long);
        sieve.build(stored_classes, shape.bits());
        let mut ask = |batch: &mut Vec<u64>| {
            query_classes.sort::<G>(batch, cut, long);
            total += sieve.count(query_classes, stop);
            batch.clear();
        };
        batch.clear();
        queries.each(|q| {
            batch.push(q);
            if batch.len() == chunk {
                ask(batch);
            }
        });
        ask(batch);
        held.clear();
    };
    stored_words.clear();
    stored.each(|s| {
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

/// Buffers kept by each thread from task to task, so that they are allocated once.
#[derive(Default)]
struct Scratch {
    /// A task's top words, with the middle columns they attack.
    tops: Vec<(u64, u32)>,
    /// The top words of one join, and its bottom words.
    top_words: Vec<u64>,
    bottom_words: Vec<u64>,
    /// Both sides sorted by their cut bits.
    top_classes: Classes,
    bottom_classes: Classes,
    /// The stored words and a batch of queries, when the halves are too long to hold.
    stored_words: Vec<u64>,
    batch: Vec<u64>,
    sieve: Sieve,
}

impl Scratch {
    /// Bytes per word of a task in the buffers above, the classes and the sieve aside
    /// ([`Sieve::bytes`] has those): `tops`, `top_words`, `bottom_words`, `stored_words` and
    /// `batch` each hold at most one entry per word. Stated here, beside the fields, so that
    /// the memory estimate follows them.
    const BYTES_PER_WORD: u64 =
        (std::mem::size_of::<(u64, u32)>() + 4 * std::mem::size_of::<u64>()) as u64;
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// A list of half-board words: held in memory, or listed again each time it is read.
trait Source {
    /// Calls `f` with every word.
    fn each(&self, f: impl FnMut(u64));
}

impl Source for [u64] {
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(u64)) {
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
    fn each(&self, f: impl FnMut(u64)) {
        self.quarters
            .for_each_half(self.cols, self.middle, self.side, f);
    }
}

/// The middle columns (0 for even `n`) whose join with top columns `cols` is the smallest of
/// its symmetry family, each with the family's size.
fn joins(shape: &Shape, cols: u32) -> impl Iterator<Item = (usize, u64)> + '_ {
    let mids = if shape.gap == 1 { 0..shape.n } else { 0..1 };
    mids.filter(move |&mid| shape.gap == 0 || cols & 1 << mid == 0)
        .filter_map(move |mid| family_weight(shape, cols, mid).map(|w| (mid, u64::from(w))))
}

/// The weight of task `(cols, mid)` if it is the smallest of its symmetry family, else `None`.
///
/// The family: the task, its mirror image, the task with the halves swapped (the top takes the
/// bottom's columns), and the mirror image of that. The weight is the number of distinct ones.
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
    if family.iter().any(|&f| f < (cols, mid)) {
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
    fn memory_bytes(&self, threads: usize) -> u64 {
        memory(&self.shape, self.chunk, threads)
    }
}

/// The memory [`JoinTasks::memory_bytes`] reports for `n` on `threads` threads, without
/// building the task list; `None` if `n` is out of range.
///
/// ```
/// let one = nqueens::engine::join::memory_estimate(20, 1).unwrap();
/// assert!(one > 100 << 20 && one < 1 << 30);
/// assert!(nqueens::engine::join::memory_estimate(20, 2).unwrap() > one);
/// assert_eq!(nqueens::engine::join::memory_estimate(27, 1), None);
/// ```
pub fn memory_estimate(n: usize, threads: usize) -> Option<u64> {
    (1..=MAX_N)
        .contains(&n)
        .then(|| memory(&Shape::new(n), CHUNK, threads))
}

/// The quarter lists and the task list (shared; at most one task per column set), plus for each thread at most as many words a side as the
/// largest half has placements (counted up to `n = 21`; `chunk` beyond, or if less): the top
/// words (16 bytes each with the middle columns they attack), one join's words of both sides,
/// the stored words and a batch of queries when a side is too long to hold, and the sieve with
/// both sides sorted.
fn memory(shape: &Shape, chunk: usize, threads: usize) -> u64 {
    let chunk = chunk as u64;
    let words = Quarters::most_words(shape).map_or(chunk, |most| most.min(chunk));
    let per_thread = Scratch::BYTES_PER_WORD * words + Sieve::bytes(words, shape.bits());
    let tasks = shape.column_sets() * std::mem::size_of::<u32>() as u64;
    Quarters::bytes(shape) + tasks + threads as u64 * per_thread
}

// Quarter entries hold `2(n - 1)` diagonal bits in a `u64` (odd `n`: `2(n - 2)` and two
// edge bits), column masks and row-and-column keys fit a `u32`.
const _: () = assert!(MAX_N <= 32);

/// `true` if joining half-boards beats backtracking for `n`.
///
/// Measured against the backtracking engine on one thread (CPU time): about even up to
/// `n = 13`, where both take milliseconds; 1.4x faster at 14 and 15, 3x at 16.
///
/// ```
/// assert!(nqueens::engine::join::preferred(18));
/// assert!(!nqueens::engine::join::preferred(8));
/// ```
pub fn preferred(n: usize) -> bool {
    (14..=MAX_N).contains(&n)
}
