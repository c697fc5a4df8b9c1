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
//! Each entry keeps what the pair test and the word need, ready: the few diagonals on which a
//! left and a right queen can meet (`h - 1` per family) as a key, so that a pair is tested with
//! one AND, and its share of the half's word, so that the word is an OR.

use std::sync::atomic::{AtomicBool, Ordering};

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
/// from all over memory (measured: a cache miss per row set had cost 7% at `n = 18`).
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

/// One placement in a quarter, ready to be paired with one in the other quarter.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// Low half: the diagonals on which a queen of the other quarter could meet one of this
    /// placement's (the key). High half: the middle row's columns this placement attacks.
    keys: u64,
    /// The placement's share of the top half's word.
    word: u64,
}

impl Entry {
    fn new(shape: &Shape, sum: u64, diff: u64) -> Entry {
        let (n, h) = (shape.n, shape.h);
        // Left queens have sums `0..=2h-2` and differences `c - r + n - 1` in `n-h..=n+h-2`;
        // right queens sums from `h` and differences from `n`: they share `h - 1` of each.
        let shared = (1u64 << h.saturating_sub(1)) - 1;
        let key = (sum >> h & shared) | (diff >> n & shared) << h.saturating_sub(1);
        // Row `h` (the middle row of an odd board), column `c`: diagonals `h + c` and
        // `c - h + n - 1`.
        let attacks = if shape.gap == 1 {
            (sum >> h | diff >> (n - 1 - h)) & u64::from(shape.full())
        } else {
            0
        };
        Entry {
            keys: key | attacks << 32,
            word: shape.word(sum, diff, Side::Top),
        }
    }

    /// The middle row's columns this placement attacks.
    fn attacks(&self) -> u32 {
        (self.keys >> 32) as u32
    }
}

/// Every placement of queens (zero or more, at most one per row and column, none attacking)
/// in one quarter, grouped by the rows and columns it uses.
struct QuarterList {
    keys: Keys,
    /// Entries of key `k`: `start[k]..start[k + 1]`.
    start: Vec<u32>,
    entries: Vec<Entry>,
}

impl QuarterList {
    /// The list, or `None` if `stop` was set while it was being made.
    fn new(shape: &Shape, lo: usize, cols: usize, stop: &AtomicBool) -> Option<QuarterList> {
        let keys = Keys::new(shape.h, cols);
        // Two passes over the same search: count the entries of each key, then place them.
        let mut start = vec![0u32; keys.len() + 1];
        quarter_search(shape, lo, cols, stop, &mut |rows, used, _, _| {
            start[keys.key(rows, used) + 1] += 1;
        });
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut entries = vec![Entry::default(); start[keys.len()] as usize];
        let mut next = start.clone();
        quarter_search(shape, lo, cols, stop, &mut |rows, used, sum, diff| {
            let key = keys.key(rows, used);
            entries[next[key] as usize] = Entry::new(shape, sum, diff);
            next[key] += 1;
        });
        (!stop.load(Ordering::Relaxed)).then_some(QuarterList {
            keys,
            start,
            entries,
        })
    }

    /// The placements using exactly `rows` and the quarter's columns `cols` (relative).
    #[inline(always)]
    fn get(&self, rows: u32, cols: u32) -> &[Entry] {
        let key = self.keys.key(rows, cols);
        &self.entries[self.start[key] as usize..self.start[key + 1] as usize]
    }
}

/// Calls `visit(rows, cols, sum, diff)` for every placement in the quarter of columns
/// `lo..lo + cols` and rows `0..h`: the rows and (relative) columns it uses and its diagonals.
/// Once `stop` is set it ends early, leaving the listing incomplete.
fn quarter_search(
    shape: &Shape,
    lo: usize,
    cols: usize,
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
        for c in 0..cols {
            let (sum, diff) = (1u64 << (row + lo + c), 1u64 << (lo + c + shape.n - 1 - row));
            if used.1 & 1 << c == 0 && used.2 & sum == 0 && used.3 & diff == 0 {
                let next = (
                    used.0 | 1 << row,
                    used.1 | 1 << c,
                    used.2 | sum,
                    used.3 | diff,
                );
                go(shape, lo, cols, row + 1, next, stop, visit);
            }
        }
    }
    go(shape, lo, cols, 0, (0, 0, 0, 0), stop, visit);
}

/// Placements in the left and right quarters of an `n` board, counted once by this module's
/// search (`PLACEMENTS[n]`; the test `placements_table_is_what_the_search_lists` recounts
/// them up to `n = 20`): they grow about 8-fold per two rows. The last entry is extrapolated.
const PLACEMENTS: [u64; 25] = [
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
    1_200_000_000,
];

/// The quarter lists of both sides, shared by all tasks of a board.
pub(super) struct Quarters {
    shape: Shape,
    left: QuarterList,
    right: QuarterList,
}

impl Quarters {
    /// Lists the placements of both quarters of an `n` board.
    ///
    /// The first task of a run builds them while the other threads wait for them, so on more
    /// than one thread the two quarters are built at once (measured: 0.14 s on one thread at
    /// `n = 18`, 5% of the whole count).
    ///
    /// `None` if `stop` was set while they were being made.
    pub fn new(shape: &Shape, stop: &AtomicBool) -> Option<Quarters> {
        let left = || QuarterList::new(shape, 0, shape.h, stop);
        let right = || QuarterList::new(shape, shape.h, shape.n - shape.h, stop);
        let (left, right) = if rayon::current_num_threads() > 1 {
            // A plain thread, not a rayon task: the pool's other threads are blocked waiting.
            std::thread::scope(|s| {
                let right = s.spawn(right);
                (
                    left(),
                    right.join().expect("building a quarter list panicked"),
                )
            })
        } else {
            (left(), right())
        };
        Some(Quarters {
            shape: *shape,
            left: left?,
            right: right?,
        })
    }

    /// Bytes the lists of an `n` board occupy: 16 per placement, plus the key tables.
    pub fn bytes(shape: &Shape) -> u64 {
        let keys = (0..shape.h).fold(1u64, |acc, i| acc * (shape.n - i) as u64 / (i + 1) as u64);
        PLACEMENTS[shape.n] * 16 + 2 * (keys + 1) * 4 + (4 << shape.h.max(shape.n - shape.h))
    }

    /// Appends to `out` the word of every placement of a half that uses exactly the columns
    /// `cols` and attacks none of the middle row's columns in `middle` (a mask); stops and
    /// returns `false` once `out` holds more than `limit` words.
    #[inline(always)]
    pub fn half_words(
        &self,
        cols: u32,
        middle: u32,
        side: Side,
        out: &mut Vec<u64>,
        limit: usize,
    ) -> bool {
        let from = out.len();
        self.place(cols, middle, out, limit + 1, |w, _| w, |_| false);
        if side == Side::Bottom {
            // Turned once listed, not for every pair tried.
            for w in &mut out[from..] {
                *w = self.shape.turn(*w, side);
            }
        }
        out.len() <= limit
    }

    /// Appends to `out` the word of every top half that uses exactly the columns `cols`, with
    /// the middle row's columns it attacks (bit `c`: a queen in the middle row's column `c`);
    /// stops and returns `false` once `out` holds more than `limit` of them.
    #[inline(always)]
    pub fn top_words(&self, cols: u32, out: &mut Vec<(u64, u32)>, limit: usize) -> bool {
        self.place(cols, 0, out, limit + 1, |w, a| (w, a), |_| false);
        out.len() <= limit
    }

    /// Calls `emit` with the word of every placement of a half that uses exactly the columns
    /// `cols` and attacks none of the middle row's columns in `middle` (a mask), holding only
    /// a few thousand at a time.
    #[inline(always)]
    pub fn for_each_half(&self, cols: u32, middle: u32, side: Side, mut emit: impl FnMut(u64)) {
        let shape = self.shape;
        let mut batch = Vec::new();
        let mut drain = |batch: &mut Vec<u64>| {
            batch.drain(..).for_each(|w| emit(shape.turn(w, side)));
            true
        };
        self.place(cols, middle, &mut batch, 4096, |w, _| w, &mut drain);
        drain(&mut batch);
    }

    /// Appends `make(word, attacks)` to `out` for every placement of a half (as the top half)
    /// that uses exactly the columns `cols` and attacks none of the middle row's columns in
    /// `middle`; whenever `out` holds `batch` or more, calls `full(out)`, and stops if that
    /// returns `false`.
    #[inline(always)]
    fn place<T>(
        &self,
        cols: u32,
        middle: u32,
        out: &mut Vec<T>,
        batch: usize,
        make: impl Fn(u64, u32) -> T,
        mut full: impl FnMut(&mut Vec<T>) -> bool,
    ) {
        let h = self.shape.h;
        let all_rows = (1u32 << h) - 1;
        let left_cols = cols & all_rows;
        let right_cols = cols >> h;
        let k = left_cols.count_ones() as usize;
        // A right placement attacking the middle queen fails the pair test.
        let blocked = u64::from(middle) << 32;
        for rows in Combinations::new(h, k) {
            let lefts = self.left.get(rows, left_cols);
            if lefts.is_empty() {
                continue;
            }
            let rights = self.right.get(all_rows ^ rows, right_cols);
            for l in lefts {
                if l.attacks() & middle != 0 {
                    continue;
                }
                let key = l.keys as u32 as u64 | blocked;
                // Every pair is written and kept by moving the end: about half pass, and a
                // branch would be mispredicted half the time.
                out.reserve(rights.len());
                let spare = out.spare_capacity_mut();
                let mut end = 0;
                for r in rights {
                    // In bounds: `end` is at most the index of `r`.
                    spare[end].write(make(l.word | r.word, l.attacks() | r.attacks()));
                    end += usize::from(key & r.keys == 0);
                }
                // SAFETY: the first `end` spare slots have just been written.
                unsafe { out.set_len(out.len() + end) };
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
