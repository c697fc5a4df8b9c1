//! The placements of one half-board, and the diagonals they share with the other half.
//!
//! The top half is rows `0..h`. The bottom half is rows `n-h..n`, read upside down (its row
//! `n-1` as row 0), so everything below serves both. Between them lies the middle row when `n`
//! is odd; its queen's column is chosen per join and it only blocks squares.
//!
//! **Words.** A top queen and a bottom queen can only meet on a diagonal that crosses the cut.
//! There are `width` such diagonals per family (`n - 1` for even `n`, `n - 2` for odd `n`). A
//! half-board is summed up by one word: the crossing diagonals it occupies, `width` bits per
//! family, the family that the other half lists first in the low bits. A top word `u` and a
//! bottom word `v` make a solution exactly when `u & v == 0`: rows and columns are settled by
//! the task, the diagonals inside each half by the half's own construction.
//!
//! **Quarters.** Searching a half row by row, restricted to the task's columns, would spend
//! eight nodes per placement on dead ends. Instead each half is put together from its left and
//! right quarter (columns `0..h` and `h..n`): [`Quarters`] lists, once for all tasks, every
//! placement of queens in a quarter, keyed by the rows and columns it uses. A half with columns
//! `C` is then, for each choice of the rows that hold its left queens, a pair of list entries
//! whose diagonals do not meet — at `n = 16`, 42% of the pairs tried are placements.
//!
//! **Entries.** An entry is one `u64`: the placement's share of the top half's word, so that
//! a pair's word is an OR. The same bits serve as the pair test, with one AND: every diagonal
//! on which a left and a right queen can meet crosses the cut, but for odd `n` the one through
//! the middle row's first square. That one and the one through its last square (which only
//! right queens reach) sit just above the word, and with them the entry tells which of the
//! middle row's columns the placement attacks (bit `c`: the word's bit `c - 1` of either
//! family, `c` from 1 to `n - 2`). Eight bytes per placement, half of a word-and-key pair.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::engine::cpu::prefetch;
use crate::memory::{self, OutOfMemory};

use super::kernel::{Kernel, append_pairs, append_pairs_many};

/// The geometry shared by both halves of an `n` board.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    /// Board size.
    pub n: usize,
    /// Rows in each half, and columns in the left quarter.
    pub h: usize,
    /// 1 if a middle row separates the halves (odd `n`), else 0.
    pub gap: usize,
    /// Crossing diagonals per family.
    pub width: usize,
}

impl Shape {
    pub fn new(n: usize) -> Shape {
        let gap = n % 2;
        Shape {
            n,
            h: n / 2,
            gap,
            width: n.saturating_sub(1 + gap),
        }
    }

    /// Bits in a half-board's word.
    pub fn bits(&self) -> usize {
        2 * self.width
    }

    /// The bits a word may have.
    pub fn word_mask(&self) -> u64 {
        (1 << self.bits()) - 1
    }

    /// The sets of `h` columns a half may use: `C(n, h)`.
    pub fn column_sets(&self) -> u64 {
        (0..self.h).fold(1, |acc, i| acc * (self.n - i) as u64 / (i + 1) as u64)
    }

    /// All columns.
    pub fn full(&self) -> u32 {
        ((1u64 << self.n) - 1) as u32
    }

    /// The word of a half whose queens occupy the diagonals `sum` (bit `r + c`) and `diff`
    /// (bit `c - r + n - 1`), in the half's own coordinates (row 0 farthest from the cut).
    #[inline(always)]
    fn word(&self, sum: u64, diff: u64, side: Side) -> u64 {
        let mask = (1u64 << self.width) - 1;
        // Diagonal `r + c` crosses the cut's near side at column `r + c - h - gap` of the
        // other half's frame; `c - r` crosses at `c - r + h - 1`. Outside `0..width` a diagonal
        // leaves the board before it reaches the other half.
        let falling = (sum >> (self.h + self.gap)) & mask;
        let rising = (diff >> (self.n - self.h)) & mask;
        match side {
            Side::Top => falling | rising << self.width,
            Side::Bottom => rising | falling << self.width,
        }
    }
}

impl Shape {
    /// A top-half word as `side`'s word: the bottom half lists the other family first.
    #[inline(always)]
    fn turn(&self, word: u64, side: Side) -> u64 {
        match side {
            Side::Top => word,
            Side::Bottom => word >> self.width | (word & ((1 << self.width) - 1)) << self.width,
        }
    }

    /// The bits of one family in a word.
    fn family_mask(&self) -> u64 {
        (1 << self.width) - 1
    }

    /// The bits an entry ([`Shape::entry`]) has when its placement attacks one of the middle
    /// row's columns in `middle` (a mask; none for even `n`).
    #[inline(always)]
    pub fn blocked(&self, middle: u32) -> u64 {
        if self.gap == 0 {
            return 0;
        }
        let inner = u64::from(middle >> 1) & self.family_mask();
        inner
            | inner << self.width
            | u64::from(middle & 1) << self.bits()
            | u64::from(middle >> (self.n - 1) & 1) << (self.bits() + 1)
    }

    /// The middle row's columns attacked by a placement whose entry ([`Shape::entry`]) is `e`
    /// (the tests' check of the entries; the join asks with [`Shape::blocked`]).
    #[cfg(test)]
    fn attacks(&self, e: u64) -> u32 {
        if self.gap == 0 {
            return 0;
        }
        let family = self.family_mask();
        let inner = ((e & family) | (e >> self.width & family)) << 1;
        (inner | (e >> self.bits() & 1) | (e >> (self.bits() + 1) & 1) << (self.n - 1)) as u32
    }
}

/// Which half to build; it decides the order of the two families in the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// Rows `0..h`.
    Top,
    /// Rows `n-h..n`, upside down.
    Bottom,
}

/// Numbers the pairs (rows, columns) with as many bits of each, densely, to index the lists.
///
/// The pairs with the same columns get consecutive keys, by rows in increasing order, the
/// order in which a half visits them: its lists are then read front to back, not gathered
/// from all over memory.
struct Keys {
    /// Index of a mask among the masks with as many bits, in increasing order.
    rank: Vec<u32>,
    /// First key of the pairs with `k` bits each.
    offset: Vec<u32>,
    /// Row masks with `k` bits.
    binom: Vec<u32>,
}

impl Keys {
    fn new(rows: usize, cols: usize) -> Keys {
        let wide = rows.max(cols);
        let mut rank = vec![0u32; 1 << wide];
        let mut seen = vec![0u32; wide + 1];
        for (mask, r) in rank.iter_mut().enumerate() {
            let k = mask.count_ones() as usize;
            *r = seen[k];
            seen[k] += 1;
        }
        let choose = |m: usize, k: usize| -> u32 {
            (0..k).fold(1u64, |acc, i| acc * (m - i) as u64 / (i + 1) as u64) as u32
        };
        let binom: Vec<u32> = (0..=rows).map(|k| choose(rows, k)).collect();
        let mut offset = Vec::with_capacity(rows + 2);
        let mut keys = 0;
        for (k, &b) in binom.iter().enumerate() {
            offset.push(keys);
            keys += choose(cols, k) * b;
        }
        offset.push(keys);
        Keys {
            rank,
            offset,
            binom,
        }
    }

    /// The number of keys.
    fn len(&self) -> usize {
        self.offset[self.offset.len() - 1] as usize
    }

    /// The key of a rows mask and a columns mask with equally many bits.
    #[inline(always)]
    fn key(&self, rows: u32, cols: u32) -> usize {
        let k = rows.count_ones() as usize;
        (self.offset[k] + self.rank[cols as usize] * self.binom[k] + self.rank[rows as usize])
            as usize
    }
}

impl Shape {
    /// The *entry* of a placement in a quarter whose queens occupy the diagonals `sum` and
    /// `diff`: one `u64`, ready to be paired with one of the other quarter. It holds the
    /// placement's share of the top half's word and above it, for odd `n`, the two diagonals
    /// through the ends of the middle row that do not cross the cut (bit `bits()`: sum `h`,
    /// column 0; the next: difference `2n - h - 2`, column `n - 1`).
    fn entry(&self, sum: u64, diff: u64) -> u64 {
        let (n, h) = (self.n, self.h);
        // Left queens have sums `0..=2h-2` and differences in `n-h..=n+h-2`, right queens sums
        // from `h` and differences from `n`: they can meet on sums `h..=2h-2` and differences
        // `n..=n+h-2`, all crossing diagonals but sum `h` for odd `n` (it ends in the middle
        // row), so that the entries themselves are the pair test's keys.
        let edges = if self.gap == 1 {
            (sum >> h & 1) << self.bits() | (diff >> (2 * n - h - 2) & 1) << (self.bits() + 1)
        } else {
            0
        };
        self.word(sum, diff, Side::Top) | edges
    }
}

/// Every placement of queens (zero or more, at most one per row and column, none attacking)
/// in one quarter, grouped by the rows and columns it uses.
struct QuarterList {
    keys: Keys,
    /// Entries of key `k`: `start[k]..start[k + 1]` (over `u32::MAX` of them at `n = 26`).
    start: Vec<usize>,
    entries: Vec<u64>,
}

impl QuarterList {
    /// The list, or `None` if `stop` was set while it was being made; the error if its
    /// tables cannot be allocated.
    ///
    /// The search is cut into subtrees at its fifth row, which the threads of the current
    /// rayon pool take in turn (a large list only: the lists of `n = 23` take half a minute on
    /// one thread). Four rows, because a row is often left empty (its queen is in the other
    /// quarter), and with fewer the subtree of the first rows left empty would hold a large share
    /// of the placements; with four no subtree holds a tenth (the tests check it from n = 14). Each placement's key is counted, and then its entry placed, with an
    /// atomic add, so the entries of a key come in no fixed order: the join does not depend
    /// on it.
    fn new(
        shape: &Shape,
        lo: usize,
        cols: usize,
        stop: &AtomicBool,
    ) -> Result<Option<QuarterList>, OutOfMemory> {
        let keys = Keys::new(shape.h, cols);
        let subtrees = quarter_subtrees(shape, lo, cols, 4);
        let parallel = rayon::current_num_threads() > 1 && PLACEMENTS[shape.n] >= 1 << 20;
        let each_subtree = |search: &(dyn Fn(Subtree) + Sync)| {
            if parallel {
                subtrees.par_iter().for_each(|&t| search(t));
            } else {
                subtrees.iter().for_each(|&t| search(t));
            }
        };
        // Two passes over the same search: count the entries of each key, then place them.
        let counts = memory::filled_with(keys.len() + 1, || AtomicUsize::new(0))?;
        each_subtree(&|subtree| {
            quarter_search_from(shape, lo, cols, subtree, stop, &mut |rows, used, _, _| {
                counts[keys.key(rows, used) + 1].fetch_add(1, Ordering::Relaxed);
            });
        });
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let mut start: Vec<usize> = counts.into_iter().map(AtomicUsize::into_inner).collect();
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        // The largest buffers of a count (gigabytes from N = 22): allocated fallibly, so that
        // a limit the estimate did not foresee is an error, not an abort.
        let entries = memory::filled_with(start[keys.len()], || AtomicU64::new(0))?;
        let mut at = start.iter();
        let next = memory::filled_with(start.len(), || {
            AtomicUsize::new(*at.next().expect("as many as the starts"))
        })?;
        each_subtree(&|subtree| {
            // The placements come in the search's order, each to its key's place: a cache miss
            // per write (the list is larger than the caches). So each place is fetched ahead and
            // written `AHEAD` placements later, from a ring, so the fetches overlap.
            const AHEAD: usize = 32;
            let mut ring = [(0, 0); AHEAD];
            let mut placed = 0;
            quarter_search_from(
                shape,
                lo,
                cols,
                subtree,
                stop,
                &mut |rows, used, sum, diff| {
                    let at = next[keys.key(rows, used)].fetch_add(1, Ordering::Relaxed);
                    prefetch(&entries[at]);
                    let (due, entry) =
                        std::mem::replace(&mut ring[placed % AHEAD], (at, shape.entry(sum, diff)));
                    if placed >= AHEAD {
                        entries[due].store(entry, Ordering::Relaxed);
                    }
                    placed += 1;
                },
            );
            for (due, entry) in (placed.saturating_sub(AHEAD)..placed).map(|i| ring[i % AHEAD]) {
                entries[due].store(entry, Ordering::Relaxed);
            }
        });
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        // In place: an atomic has the size and alignment of its integer on the platforms
        // this runs on, so the collect reuses the allocation.
        let entries = entries.into_iter().map(AtomicU64::into_inner).collect();
        Ok(Some(QuarterList {
            keys,
            start,
            entries,
        }))
    }

    /// The placements using exactly `rows` and the quarter's columns `cols` (relative).
    #[cfg(test)]
    fn get(&self, rows: u32, cols: u32) -> &[u64] {
        self.at(self.keys.key(rows, cols))
    }

    /// The placements of key `key` ([`Keys::key`]).
    #[inline(always)]
    fn at(&self, key: usize) -> &[u64] {
        &self.entries[self.start[key]..self.start[key + 1]]
    }
}

/// Where a search stands after some rows: the next row, and the rows, columns and diagonals
/// used so far.
type Subtree = (usize, (u32, u32, u64, u64));

/// Calls `visit(rows, cols, sum, diff)` for every placement in the quarter of columns
/// `lo..lo + cols` and rows `0..h`: the rows and (relative) columns it uses and its diagonals.
/// Once `stop` is set it ends early, leaving the listing incomplete.
#[cfg(test)]
fn quarter_search(
    shape: &Shape,
    lo: usize,
    cols: usize,
    stop: &AtomicBool,
    visit: &mut impl FnMut(u32, u32, u64, u64),
) {
    quarter_search_from(shape, lo, cols, (0, (0, 0, 0, 0)), stop, visit);
}

/// The subtrees of the quarter's search after its first `depth` rows (or all of them, if it
/// has fewer): together their placements are the quarter's, each once.
fn quarter_subtrees(shape: &Shape, lo: usize, cols: usize, depth: usize) -> Vec<Subtree> {
    let depth = depth.min(shape.h);
    let mut subtrees = Vec::new();
    let mut at = vec![(0, (0, 0, 0, 0))];
    while let Some((row, used)) = at.pop() {
        if row == depth {
            subtrees.push((row, used));
            continue;
        }
        at.push((row + 1, used));
        for_each_square(shape, lo, cols, row, used, |next| at.push((row + 1, next)));
    }
    subtrees
}

/// Calls `place(next)` with what is used once row `row` holds a queen, for each of its free
/// squares in the quarter.
#[inline(always)]
fn for_each_square(
    shape: &Shape,
    lo: usize,
    cols: usize,
    row: usize,
    used: (u32, u32, u64, u64),
    mut place: impl FnMut((u32, u32, u64, u64)),
) {
    // Column `c` of this row lies on sum diagonal `row + lo + c` and difference diagonal
    // `lo + c + n - 1 - row`: shifted down by those offsets, the diagonals taken line up
    // with the columns, and the free squares are one mask, visited bit by bit.
    let (sum_at, diff_at) = (row + lo, lo + shape.n - 1 - row);
    let mut free = ((1u32 << cols) - 1)
        & !used.1
        & !((used.2 >> sum_at) as u32)
        & !((used.3 >> diff_at) as u32);
    while free != 0 {
        let c = free.trailing_zeros() as usize;
        free &= free - 1;
        place((
            used.0 | 1 << row,
            used.1 | 1 << c,
            used.2 | 1 << (sum_at + c),
            used.3 | 1 << (diff_at + c),
        ));
    }
}

/// [`quarter_search`] from `subtree` on: the placements that extend it.
fn quarter_search_from(
    shape: &Shape,
    lo: usize,
    cols: usize,
    subtree: Subtree,
    stop: &AtomicBool,
    visit: &mut impl FnMut(u32, u32, u64, u64),
) {
    fn go(
        shape: &Shape,
        lo: usize,
        cols: usize,
        row: usize,
        used: (u32, u32, u64, u64),
        stop: &AtomicBool,
        visit: &mut impl FnMut(u32, u32, u64, u64),
    ) {
        // The lists take minutes at n = 24: look at the flag in the upper half of the tree,
        // where a node has thousands below it, so the load costs nothing measurable.
        if 2 * row < shape.h && stop.load(Ordering::Relaxed) {
            return;
        }
        if row == shape.h {
            visit(used.0, used.1, used.2, used.3);
            return;
        }
        // The row may stay empty: its queen is in the other quarter.
        go(shape, lo, cols, row + 1, used, stop, visit);
        for_each_square(shape, lo, cols, row, used, |next| {
            go(shape, lo, cols, row + 1, next, stop, visit);
        });
    }
    let (row, used) = subtree;
    go(shape, lo, cols, row, used, stop, visit);
}

/// Placements in the left and right quarters of an `n` board, all counted once by this
/// module's search (`PLACEMENTS[n]`; the test `placements_table_is_what_the_search_lists`
/// recounts them up to `n = 20`; `n = 26` took five minutes): they grow about 8-fold per two
/// rows up to `n = 22`, then 10-fold.
const PLACEMENTS: [u64; 27] = [
    0,
    2,
    4,
    5,
    10,
    14,
    36,
    55,
    174,
    272,
    924,
    1_501,
    5_270,
    8_970,
    33_740,
    59_677,
    237_938,
    435_364,
    1_830_884,
    3_440_441,
    15_070_738,
    29_172_484,
    133_614_468,
    265_577_541,
    1_266_886_814,
    2_575_164_220,
    12_708_271_676,
];

/// The most placements of a half that use one set of `h` columns (so the most words a task
/// lists for a side), `MOST_WORDS[n]`, found by listing every set's with this module's lists
/// (the test `most_words_table_is_what_the_lists_give` does it again up to `n = 17`): far
/// fewer than the `h!` orders of the columns (17,506 against 362,880 at `n = 18`), and growing
/// about 6.5-fold per two rows. Listing them at `n = 22` would take a quarter of an hour.
const MOST_WORDS: [u64; 22] = [
    0, 1, 1, 1, 2, 2, 4, 6, 14, 16, 34, 44, 132, 170, 570, 688, 2_956, 3_734, 17_506, 21_030,
    114_142, 137_830,
];

/// One half of a join as the quarter lists hold it ([`Quarters::half_keys`]).
#[cfg(feature = "cuda")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HalfKeys {
    /// The key of the first row set's left list.
    pub left_first: u64,
    /// The key of the first row set's right list; row set `i`'s is `right_last - i`.
    pub right_last: u64,
    /// Row sets: `C(h, k)` for the `k` columns of the left quarter.
    pub row_sets: u64,
    /// Pairs of entries the row sets try: at most the half's placements, and not much more
    /// (`docs/gpu.md`).
    pub tried: u64,
}

/// The quarter lists of both sides, shared by all tasks of a board.
pub(super) struct Quarters {
    shape: Shape,
    left: QuarterList,
    right: QuarterList,
}

impl Quarters {
    /// Lists the placements of both quarters of an `n` board, each on the threads of the
    /// current rayon pool ([`QuarterList::new`]).
    ///
    /// `None` if `stop` was set while they were being made; the error if they cannot be
    /// allocated.
    pub fn new(shape: &Shape, stop: &AtomicBool) -> Result<Option<Quarters>, OutOfMemory> {
        let Some(left) = QuarterList::new(shape, 0, shape.h, stop)? else {
            return Ok(None);
        };
        let Some(right) = QuarterList::new(shape, shape.h, shape.n - shape.h, stop)? else {
            return Ok(None);
        };
        Ok(Some(Quarters {
            shape: *shape,
            left,
            right,
        }))
    }

    /// Bytes the lists of an `n` board occupy: an entry ([`Shape::entry`]) per placement, and
    /// per quarter its `start` table (`C(n, h)` keys) and its copy while it is being filled,
    /// and the key tables.
    pub fn bytes(shape: &Shape) -> u64 {
        // A quarter's (rows, columns) keys are as many as the halves' column sets.
        let start = 4 * (shape.column_sets() + 1) * std::mem::size_of::<usize>() as u64;
        let ranks = 2 * (4 << shape.h.max(shape.n - shape.h));
        PLACEMENTS[shape.n] * std::mem::size_of::<u64>() as u64 + start + ranks
    }

    /// The most placements of a half that use one set of columns, where they have been counted
    /// (`n <= 21`).
    pub fn most_words(shape: &Shape) -> Option<u64> {
        MOST_WORDS.get(shape.n).copied()
    }

    /// Where the placements of a half that uses exactly the columns `cols` are found, for a
    /// device that glues them itself from [`Quarters::tables`] (as [`Quarters::place`] does):
    /// row set `i` (of `row_sets`) pairs left list `left_first + i` with right list
    /// `right_last - i`.
    #[cfg(feature = "cuda")]
    pub fn half_keys(&self, cols: u32) -> HalfKeys {
        let h = self.shape.h;
        let all_rows = (1u32 << h) - 1;
        let (left_cols, right_cols) = (cols & all_rows, cols >> h);
        let k = left_cols.count_ones() as usize;
        let first = (1u32 << k) - 1;
        let left_first = self.left.keys.key(first, left_cols);
        let right_last = self.right.keys.key(all_rows ^ first, right_cols);
        let row_sets = self.left.keys.binom[k] as usize;
        let tried = (0..row_sets)
            .map(|i| {
                let lefts = self.left.at(left_first + i).len() as u64;
                lefts * self.right.at(right_last - i).len() as u64
            })
            .sum();
        HalfKeys {
            left_first: left_first as u64,
            right_last: right_last as u64,
            row_sets: row_sets as u64,
            tried,
        }
    }

    /// The left and the right quarter list: each its entries ([`Shape::entry`]) and where each
    /// key's entries start (`start[key]..start[key + 1]`).
    #[cfg(feature = "cuda")]
    pub fn tables(&self) -> super::QuarterTables<'_> {
        [
            (&self.left.entries, &self.left.start),
            (&self.right.entries, &self.right.start),
        ]
    }

    /// Appends to `out` the word of every placement of a half that uses exactly the columns
    /// `cols` and attacks none of the middle row's columns in `middle` (a mask); stops and
    /// returns `false` once `out` holds more than `limit` words.
    #[inline(always)]
    pub fn half_words<K: Kernel>(
        &self,
        kernel: K,
        cols: u32,
        middle: u32,
        side: Side,
        out: &mut Vec<u64>,
        limit: usize,
    ) -> bool {
        let from = out.len();
        let shape = self.shape;
        self.place(
            kernel,
            cols,
            middle,
            shape.word_mask(),
            out,
            limit + 1,
            |_| false,
        );
        if side == Side::Bottom {
            // Turned once listed, not for every pair tried.
            for w in &mut out[from..] {
                *w = shape.turn(*w, side);
            }
        }
        out.len() <= limit
    }

    /// Appends to `out` the entry of every top half that uses exactly the columns `cols`: its
    /// word, and above it the bits that tell which of the middle row's columns it attacks
    /// (`entry & shape.blocked(columns) != 0`; trim it with `shape.word_mask()`); stops and
    /// returns `false` once `out` holds more than `limit` of them.
    #[inline(always)]
    pub fn top_entries<K: Kernel>(
        &self,
        kernel: K,
        cols: u32,
        out: &mut Vec<u64>,
        limit: usize,
    ) -> bool {
        self.place(kernel, cols, 0, !0, out, limit + 1, |_| false);
        out.len() <= limit
    }

    /// Calls `emit` with the word of every placement of a half that uses exactly the columns
    /// `cols` and attacks none of the middle row's columns in `middle` (a mask), holding only
    /// a few thousand at a time.
    #[inline(always)]
    pub fn for_each_half<K: Kernel>(
        &self,
        kernel: K,
        cols: u32,
        middle: u32,
        side: Side,
        mut emit: impl FnMut(u64),
    ) {
        let shape = self.shape;
        let mut batch = Vec::new();
        let mut drain = |batch: &mut Vec<u64>| {
            batch.drain(..).for_each(|w| emit(shape.turn(w, side)));
            true
        };
        self.place(
            kernel,
            cols,
            middle,
            shape.word_mask(),
            &mut batch,
            4096,
            &mut drain,
        );
        drain(&mut batch);
    }

    /// Appends to `out` the entry of every placement of a half (as the top half) that uses
    /// exactly the columns `cols` and attacks none of the middle row's columns in `middle`:
    /// the OR of its quarters' entries, ANDed with `mask`. Whenever `out` holds `batch` or
    /// more, calls `full(out)`, and stops if that returns `false`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn place<K: Kernel>(
        &self,
        kernel: K,
        cols: u32,
        middle: u32,
        mask: u64,
        out: &mut Vec<u64>,
        batch: usize,
        mut full: impl FnMut(&mut Vec<u64>) -> bool,
    ) {
        let h = self.shape.h;
        let all_rows = (1u32 << h) - 1;
        let left_cols = cols & all_rows;
        let right_cols = cols >> h;
        let k = left_cols.count_ones() as usize;
        let blocked = self.shape.blocked(middle);
        // The outer entries of a row set that leave the middle queen free.
        let mut kept = Vec::new();
        // The row sets of the left queens, `k` of the `h` rows, in increasing order: their
        // keys with the left columns are consecutive, and the keys of the rows left over (in
        // decreasing order, as `all_rows ^ rows` reverses the order) with the right columns
        // too. So each row set's lists are found by counting, without working out the row
        // sets themselves.
        let first = (1u32 << k) - 1;
        let (left_first, right_last) = (
            self.left.keys.key(first, left_cols),
            self.right.keys.key(all_rows ^ first, right_cols),
        );
        for i in 0..self.left.keys.binom[k] as usize {
            let lefts = self.left.at(left_first + i);
            if lefts.is_empty() {
                continue;
            }
            let rights = self.right.at(right_last - i);
            // The pair test and the OR are symmetric, so the shorter list goes outside: a call
            // of the vector step costs about as much as a few pairs, and the lists of a row set
            // are short (at n = 18 about 17 left and 9 right entries: 2.4 times fewer calls,
            // each of 23 pairs instead of 9).
            let (outer, inner) = if lefts.len() <= rights.len() {
                (lefts, rights)
            } else {
                (rights, lefts)
            };
            // The outer entries two at a time, each inner entry loaded once for both.
            // A placement attacking the middle queen is dropped first if outside (by the
            // vector step, without a branch: about a third attack it, so a filter's branch
            // would be mispredicted often), and fails the pair test if inside.
            let mut free = if blocked == 0 {
                outer
            } else {
                kept.clear();
                append_pairs(kernel, &mut kept, 0, blocked, !0, outer);
                &kept[..]
            }
            .iter()
            .copied();
            while let Some(first) = free.next() {
                match free.next() {
                    Some(second) => {
                        append_pairs_many(kernel, out, [first, second], blocked, mask, inner)
                    }
                    None => append_pairs(kernel, out, first, first | blocked, mask, inner),
                }
                if out.len() >= batch && !full(out) {
                    return;
                }
            }
        }
    }
}

/// The `k`-element subsets of `0..n` as bitmasks, in increasing order.
pub(super) struct Combinations {
    next: Option<u32>,
    end: u64,
}

impl Combinations {
    pub fn new(n: usize, k: usize) -> Combinations {
        Combinations {
            next: Some(((1u64 << k) - 1) as u32),
            end: 1u64 << n,
        }
    }
}

impl Iterator for Combinations {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let x = self.next?;
        // Gosper's hack: the next larger number with as many set bits.
        self.next = if x == 0 {
            None
        } else {
            let x = u64::from(x);
            let low = x & x.wrapping_neg();
            let ripple = x + low;
            let y = (((ripple ^ x) >> 2) / low) | ripple;
            (y < self.end).then_some(y as u32)
        };
        Some(x)
    }
}

#[cfg(test)]
mod placement_table {
    use super::*;

    #[test]
    fn placements_table_is_what_the_search_lists() {
        let never = AtomicBool::new(false);
        for (n, &listed) in PLACEMENTS.iter().enumerate().take(21).skip(1) {
            let shape = Shape::new(n);
            let mut found = 0u64;
            quarter_search(&shape, 0, shape.h, &never, &mut |_, _, _, _| found += 1);
            quarter_search(&shape, shape.h, n - shape.h, &never, &mut |_, _, _, _| {
                found += 1
            });
            assert_eq!(listed, found, "n = {n}");
        }
    }
}

#[cfg(test)]
mod subtrees {
    use super::*;

    #[test]
    fn the_subtrees_split_each_quarter_s_placements_and_none_holds_many() {
        let never = AtomicBool::new(false);
        for n in 4..=18 {
            let shape = Shape::new(n);
            for (lo, cols) in [(0, shape.h), (shape.h, n - shape.h)] {
                let mut whole = 0u64;
                quarter_search(&shape, lo, cols, &never, &mut |_, _, _, _| whole += 1);
                let sizes: Vec<u64> = quarter_subtrees(&shape, lo, cols, 4)
                    .into_iter()
                    .map(|subtree| {
                        let mut found = 0u64;
                        quarter_search_from(
                            &shape,
                            lo,
                            cols,
                            subtree,
                            &never,
                            &mut |_, _, _, _| found += 1,
                        );
                        found
                    })
                    .collect();
                assert_eq!(sizes.iter().sum::<u64>(), whole, "n = {n}, lo = {lo}");
                if n >= 14 {
                    let most = sizes.iter().max().unwrap();
                    assert!(most * 10 < whole, "n = {n}, lo = {lo}: {most} of {whole}");
                }
            }
        }
    }
}

#[cfg(test)]
mod most_words {
    use super::*;

    #[test]
    fn most_words_table_is_what_the_lists_give() {
        let never = AtomicBool::new(false);
        for n in 1..=17 {
            let shape = Shape::new(n);
            let lists = Quarters::new(&shape, &never).unwrap().unwrap();
            let mut out = Vec::new();
            let most = Combinations::new(n, shape.h)
                .map(|cols| {
                    out.clear();
                    assert!(lists.top_entries(
                        super::super::kernel::Portable,
                        cols,
                        &mut out,
                        usize::MAX - 1
                    ));
                    out.len() as u64
                })
                .max();
            assert_eq!(Quarters::most_words(&shape), most, "n = {n}");
        }
    }
}

#[cfg(test)]
mod entries {
    use super::*;

    /// Every placement of queens in rows `0..h` and columns `lo..lo + cols`, by trying every
    /// column (or none) in every row: the queens as `(row, column)`.
    fn brute_force(shape: &Shape, lo: usize, cols: usize) -> Vec<Vec<(usize, usize)>> {
        let attack = |a: (usize, usize), b: (usize, usize)| {
            a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
        };
        let mut all = vec![vec![]];
        for row in 0..shape.h {
            let mut next = Vec::new();
            for queens in all {
                for c in lo..lo + cols {
                    if queens.iter().all(|&q| !attack(q, (row, c))) {
                        let mut more = queens.clone();
                        more.push((row, c));
                        next.push(more);
                    }
                }
                next.push(queens);
            }
            all = next;
        }
        all
    }

    /// The top half's word of `queens`, diagonal by diagonal: a falling diagonal (down and to
    /// the left) sets bit `j` if it enters the bottom half (row `h + gap`) in column `j`; a
    /// rising one sets bit `width + j` if it enters in column `j + 1 + gap` (no top queen's
    /// rising diagonal enters further left).
    fn word(shape: &Shape, queens: &[(usize, usize)]) -> u64 {
        let (n, cut) = (shape.n as isize, (shape.h + shape.gap) as isize);
        let mut word = 0;
        for &(r, c) in queens {
            let (r, c) = (r as isize, c as isize);
            let falling = c - (cut - r);
            if falling >= 0 {
                assert!(falling < shape.width as isize);
                word |= 1 << falling;
            }
            let rising = c + (cut - r);
            if rising < n {
                let j = rising - 1 - shape.gap as isize;
                assert!((0..shape.width as isize).contains(&j));
                word |= 1 << (shape.width as isize + j);
            }
        }
        word
    }

    /// The middle row's columns (odd `n`) that `queens` attack.
    fn attacks(shape: &Shape, queens: &[(usize, usize)]) -> u32 {
        if shape.gap == 0 {
            return 0;
        }
        (0..shape.n)
            .filter(|&c| queens.iter().any(|&(r, q)| shape.h - r == c.abs_diff(q)))
            .fold(0, |mask, c| mask | 1 << c)
    }

    fn entry(shape: &Shape, queens: &[(usize, usize)]) -> u64 {
        let sum = queens.iter().fold(0, |m, &(r, c)| m | 1 << (r + c));
        let diff = queens
            .iter()
            .fold(0, |m, &(r, c)| m | 1 << (c + shape.n - 1 - r));
        shape.entry(sum, diff)
    }

    fn rows_and_cols(queens: &[(usize, usize)], lo: usize) -> (u32, u32) {
        queens.iter().fold((0, 0), |(rows, cols), &(r, c)| {
            (rows | 1 << r, cols | 1 << (c - lo))
        })
    }

    #[test]
    fn entries_hold_the_words_and_attacks_of_their_queens() {
        let never = AtomicBool::new(false);
        for n in 4..=14 {
            let shape = Shape::new(n);
            let lists = Quarters::new(&shape, &never).unwrap().unwrap();
            let quarters = [
                (0, shape.h, &lists.left),
                (shape.h, n - shape.h, &lists.right),
            ];
            for (lo, cols, list) in quarters {
                let mut expected = Vec::new();
                for queens in brute_force(&shape, lo, cols) {
                    let e = entry(&shape, &queens);
                    assert_eq!(
                        e & shape.word_mask(),
                        word(&shape, &queens),
                        "n={n} {queens:?}"
                    );
                    assert_eq!(
                        shape.attacks(e),
                        attacks(&shape, &queens),
                        "n={n} {queens:?}"
                    );
                    assert_eq!(e >> shape.bits() >> 2, 0, "n={n} {queens:?}");
                    let (rows, used) = rows_and_cols(&queens, lo);
                    expected.push((rows, used, e));
                }
                // The lists hold exactly these placements, each under its rows and columns.
                let mut listed = Vec::new();
                for rows in 0..1u32 << shape.h {
                    for used in Combinations::new(cols, rows.count_ones() as usize) {
                        listed.extend(list.get(rows, used).iter().map(|&e| (rows, used, e)));
                    }
                }
                expected.sort_unstable();
                listed.sort_unstable();
                assert_eq!(expected, listed, "n={n} lo={lo}");
            }
        }
    }

    #[test]
    fn entries_test_pairs_and_the_middle_queen_as_their_queens_do() {
        for n in 4..=11 {
            let shape = Shape::new(n);
            let lefts = brute_force(&shape, 0, shape.h);
            let rights = brute_force(&shape, shape.h, n - shape.h);
            let meet = |a: &[(usize, usize)], b: &[(usize, usize)]| {
                a.iter()
                    .any(|p| b.iter().any(|q| p.0.abs_diff(q.0) == p.1.abs_diff(q.1)))
            };
            for l in &lefts {
                let (rows, _) = rows_and_cols(l, 0);
                let e = entry(&shape, l);
                for r in rights
                    .iter()
                    .filter(|r| rows_and_cols(r, shape.h).0 & rows == 0)
                {
                    let pass = e & entry(&shape, r) == 0;
                    assert_eq!(pass, !meet(l, r), "n={n} {l:?} {r:?}");
                }
            }
            for queens in lefts.iter().chain(&rights) {
                let e = entry(&shape, queens);
                for c in 0..n {
                    let hit = e & shape.blocked(1 << c) != 0;
                    assert_eq!(hit, attacks(&shape, queens) & 1 << c != 0, "n={n} c={c}");
                }
            }
        }
    }
}
