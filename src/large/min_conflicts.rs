//! Min-conflicts local search: a different random solution for each seed, for millions of queens.
//!
//! The board is a permutation (one queen per row and per column), so only diagonals can clash.
//! Knowing how many queens stand on each `\\` and each `/` diagonal, the change in the number of
//! attacking pairs caused by swapping the columns of two rows costs a few look-ups, whatever
//! `n` is. This is the QS4 scheme of Sosic and Gu (1994), who solved 3,000,000 queens in under
//! a minute:
//!
//! 1. **Greedy start.** Shuffle the columns, then fill the rows in order, each with the next
//!    unused column whose two diagonals are empty (at most 64 tries). Nearly every row
//!    succeeds: only rows near the end, where little choice is left, are placed with conflicts
//!    (about 20 for `n = 10^6`, 900 for `n = 10^8`).
//! 2. **Repair.** While some queen is attacked, swap it with a random row if that does not
//!    raise the number of attacking pairs. Only the few queens from the end of step 1 (and those they
//!    disturb) are ever looked at, so this costs almost nothing for large `n`.
//! 3. **Restart.** Small boards can reach a state that no swap improves; after
//!    `20 n` (at most 100,000) tries without progress the search starts again from step 1, with the
//!    same random stream going on, so it never loops forever and stays reproducible.
//!
//! Memory decides the speed for large `n`, because every look-up lands at a random place.
//! Since almost every diagonal holds at most one queen, the counts are a bit per diagonal (a
//! tenth of a byte per queen, which stays in cache far longer than a counter array would), plus
//! a small map for the few diagonals with more. Step 1 reads the shuffled columns in order
//! instead of picking random ones, so the column array is walked, not jumped through. In all,
//! about 4.5 bytes per queen.
//!
//! Random numbers come only from `ChaCha8Rng::seed_from_u64(seed)`, whose stream `rand_chacha`
//! keeps fixed, turned into ranges by this module's own arithmetic: the same `n` and seed give
//! the same solution on every machine and with every version of `rand`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::RngCore;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::Placement;
use crate::engine::cpu::prefetch;
use crate::memory::{self, OutOfMemory};

/// The largest `n` accepted: columns are `u32` (and the search needs about 4.5 bytes per queen).
pub const MAX_N: usize = u32::MAX as usize;

/// Bytes [`min_conflicts`] needs for `n` queens, about: the columns (4 bytes a queen), a bit
/// per diagonal, and the few crowded diagonals. Measured: 47 MB of peak memory for
/// `n = 10^7`, 4.7 bytes a queen, so this says 5 bytes a queen plus 1 MiB.
///
/// ```
/// assert_eq!(nqueens::large::min_conflicts::memory_bytes(1_000_000), 6_048_576);
/// ```
pub fn memory_bytes(n: usize) -> u64 {
    5 * n as u64 + (1 << 20)
}

/// Columns tried per row during the greedy start before the row is placed with a conflict.
const START_TRIES: usize = 64;

/// How many swaps ahead the shuffle draws its random positions, to prefetch them.
const SHUFFLE_AHEAD: usize = 16;

/// How many candidates ahead of the one being tested the greedy start prefetches. The row will
/// have moved on a little by then, but a diagonal moves one bit per row, so the same 64-byte
/// line is almost always the right one.
const PREFETCH_AHEAD: usize = 16;

/// Repair tries in a row without progress after which the search restarts: `20 n`, between
/// 100 and 100,000. For large `n` about one try in sixteen makes progress (both new squares of
/// a swap must be on empty diagonals), so reaching this by chance is impossible in practice; on
/// small boards it means a true dead end, better left quickly.
fn stuck_tries(n: usize) -> u32 {
    (20 * n).clamp(100, 100_000) as u32
}

/// What one search did, for the curious.
///
/// ```
/// let (p, stats) = nqueens::large::min_conflicts_stats(5_000, 1).unwrap();
/// assert!(p.is_solution());
/// // The same seed repeats the same search, step for step.
/// assert_eq!(nqueens::large::min_conflicts_stats(5_000, 1).unwrap().1, stats);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Times the search started again from a fresh greedy start.
    pub restarts: u32,
    /// Rows placed with a conflict by the last greedy start.
    pub conflicted: u64,
    /// Random swaps tried during repair, over all attempts.
    pub tries: u64,
    /// Swaps made during repair, over all attempts.
    pub swaps: u64,
}

/// A random solution for `n` from `seed`; `None` when `n` has none (0, 2, 3) or exceeds
/// [`MAX_N`]. The same `n` and `seed` always give the same solution.
///
/// # Panics
/// If the [`memory_bytes`] the search needs cannot be allocated;
/// [`min_conflicts_unless_stopped`] returns an error instead.
///
/// ```
/// let p = nqueens::large::min_conflicts(1000, 42).unwrap();
/// assert!(p.is_solution());
/// assert_eq!(p, nqueens::large::min_conflicts(1000, 42).unwrap());
/// assert!(nqueens::large::min_conflicts(3, 42).is_none());
/// ```
pub fn min_conflicts(n: usize, seed: u64) -> Option<Placement> {
    min_conflicts_stats(n, seed).map(|(p, _)| p)
}

/// [`min_conflicts`] with the [`Stats`] of the search.
///
/// # Panics
/// As [`min_conflicts`], if memory runs out.
///
/// ```
/// let (p, stats) = nqueens::large::min_conflicts_stats(10_000, 7).unwrap();
/// assert!(p.is_solution());
/// assert!(stats.swaps <= stats.tries);
/// ```
pub fn min_conflicts_stats(n: usize, seed: u64) -> Option<(Placement, Stats)> {
    // A flag nobody sets never stops the search: only memory can fail.
    min_conflicts_unless_stopped(n, seed, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{e}"))
}

/// Why [`min_conflicts_unless_stopped`] ended without an answer.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::large::Unfinished;
/// let stop = AtomicBool::new(true);
/// let err = nqueens::large::min_conflicts_unless_stopped(1_000_000, 1, &stop).unwrap_err();
/// assert_eq!(err, Unfinished::Stopped);
/// assert_eq!(err.to_string(), "interrupted before a solution was found");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unfinished {
    /// The stop flag was set before a solution was found.
    #[error("interrupted before a solution was found")]
    Stopped,
    /// The board of `n` queens does not fit in the memory at hand.
    #[error(transparent)]
    OutOfMemory(#[from] OutOfMemory),
}

/// [`min_conflicts_stats`], or an error: [`Unfinished::Stopped`] once `stop` is set (the search
/// looks at the flag every [`STOP_EVERY`] rows or tries: milliseconds even for 10^9 queens,
/// whose search takes minutes), [`Unfinished::OutOfMemory`] if the board cannot be allocated,
/// before any work.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// let go = AtomicBool::new(false);
/// let (p, _) = nqueens::large::min_conflicts_unless_stopped(1000, 7, &go).unwrap().unwrap();
/// assert!(p.is_solution());
/// ```
///
/// # Errors
/// [`Unfinished`] once `stop` is set, or if the board does not fit in memory.
pub fn min_conflicts_unless_stopped(
    n: usize,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Option<(Placement, Stats)>, Unfinished> {
    if matches!(n, 0 | 2 | 3) || n > MAX_N {
        return Ok(None);
    }
    let mut board = Board::new(n, seed)?;
    let mut stats = Stats::default();
    loop {
        let (conflicted, pairs) = board.greedy_start(stop)?;
        stats.conflicted = conflicted.len() as u64;
        if board.repair(conflicted, pairs, &mut stats, stop)? {
            return Ok(Some((Placement::new(board.cols), stats)));
        }
        stats.restarts += 1;
    }
}

/// Rows or tries between two looks at the stop flag: a few milliseconds of the search.
pub const STOP_EVERY: usize = 1 << 16;

/// `Err(Unfinished::Stopped)` if `step` is a multiple of [`STOP_EVERY`] and `stop` is set.
#[inline]
fn look(step: usize, stop: &AtomicBool) -> Result<(), Unfinished> {
    if step.is_multiple_of(STOP_EVERY) && stop.load(Ordering::Relaxed) {
        return Err(Unfinished::Stopped);
    }
    Ok(())
}

/// How many queens stand on each diagonal of one direction.
///
/// A bit per diagonal says "at least one"; `extra` holds the queens beyond the first, only for
/// the few diagonals that have them.
struct Diagonals {
    bits: Vec<u64>,
    extra: BTreeMap<usize, u32>,
}

impl Diagonals {
    /// Empty diagonals `0..len`.
    fn new(len: usize) -> Result<Self, OutOfMemory> {
        Ok(Diagonals {
            bits: memory::filled(0, len.div_ceil(64))?,
            extra: BTreeMap::new(),
        })
    }

    /// Takes every queen off.
    fn clear(&mut self) {
        self.bits.fill(0);
        self.extra.clear();
    }

    #[inline]
    fn is_empty(&self, d: usize) -> bool {
        self.bits[d / 64] & (1 << (d % 64)) == 0
    }

    /// Starts loading the bit of `d` into cache (see [`prefetch`]).
    #[inline]
    fn prefetch(&self, d: usize) {
        if let Some(word) = self.bits.get(d / 64) {
            prefetch(word);
        }
    }

    #[inline]
    fn count(&self, d: usize) -> u32 {
        if self.is_empty(d) {
            0
        } else {
            1 + self.extra.get(&d).copied().unwrap_or(0)
        }
    }

    /// Adds a queen on `d`; returns how many were there before.
    #[inline]
    fn add(&mut self, d: usize) -> u32 {
        if self.is_empty(d) {
            self.bits[d / 64] |= 1 << (d % 64);
            0
        } else {
            let extra = self.extra.entry(d).or_insert(0);
            *extra += 1;
            *extra
        }
    }

    /// Takes a queen off `d`, which has one.
    #[inline]
    fn remove(&mut self, d: usize) {
        match self.extra.get_mut(&d) {
            Some(1) => {
                self.extra.remove(&d);
            }
            Some(extra) => *extra -= 1,
            None => self.bits[d / 64] &= !(1 << (d % 64)),
        }
    }
}

/// A permutation board with its diagonal counts and the random stream that drives the search.
struct Board {
    n: usize,
    /// `cols[row]`: the queen's column.
    cols: Vec<u32>,
    /// `\\` diagonals, indexed by `row + n - 1 - col`.
    down: Diagonals,
    /// `/` diagonals, indexed by `row + col`.
    up: Diagonals,
    rng: ChaCha8Rng,
}

impl Board {
    /// Allocates everything the search keeps, once: restarts reuse it.
    fn new(n: usize, seed: u64) -> Result<Self, OutOfMemory> {
        let mut cols = Vec::new();
        memory::reserve(&mut cols, n)?;
        Ok(Board {
            n,
            cols,
            down: Diagonals::new(2 * n - 1)?,
            up: Diagonals::new(2 * n - 1)?,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    /// A uniform number in `0..bound` (`0 < bound <= 2^32`): the high half of a 32 x 32-bit
    /// product. Its bias, below `bound / 2^32`, is harmless to a heuristic and keeps the
    /// arithmetic fixed for reproducibility.
    #[inline]
    fn below(&mut self, bound: usize) -> usize {
        ((u64::from(self.rng.next_u32()) * bound as u64) >> 32) as usize
    }

    #[inline]
    fn down_index(&self, row: usize, col: u32) -> usize {
        row + self.n - 1 - col as usize
    }

    #[inline]
    fn up_index(row: usize, col: u32) -> usize {
        row + col as usize
    }

    /// Puts the queen of `row` on the diagonals of its column; returns the pairs it makes.
    #[inline]
    fn place(&mut self, row: usize) -> u64 {
        let col = self.cols[row];
        let d = self.down_index(row, col);
        u64::from(self.down.add(d)) + u64::from(self.up.add(Self::up_index(row, col)))
    }

    /// Takes the queen of `row` off the diagonals.
    #[inline]
    fn lift(&mut self, row: usize) {
        let col = self.cols[row];
        let d = self.down_index(row, col);
        self.down.remove(d);
        self.up.remove(Self::up_index(row, col));
    }

    /// Step 1: a shuffled permutation, then each row takes the first unused column (in
    /// shuffled order, at most [`START_TRIES`] of them) that is free of attack. Returns the rows
    /// placed with a conflict and the number of attacking pairs.
    fn greedy_start(&mut self, stop: &AtomicBool) -> Result<(Vec<u32>, u64), Unfinished> {
        let n = self.n;
        self.cols.clear();
        self.cols.extend(0..n as u32);
        // Fisher-Yates, with the position of swap `i` drawn at step `i - SHUFFLE_AHEAD` so that
        // its column can be prefetched; the draws happen in the same order as without it.
        let mut ahead = [0; SHUFFLE_AHEAD];
        for (i, slot) in ahead.iter_mut().enumerate().take(n) {
            *slot = i + self.below(n - i);
        }
        for i in 0..n {
            look(i, stop)?;
            let j = ahead[i % SHUFFLE_AHEAD];
            let later = i + SHUFFLE_AHEAD;
            if later < n {
                let k = later + self.below(n - later);
                prefetch(&self.cols[k]);
                ahead[i % SHUFFLE_AHEAD] = k;
            }
            self.cols.swap(i, j);
        }
        self.down.clear();
        self.up.clear();
        let mut pairs = 0;
        let mut conflicted = Vec::new();
        // `cols[row..]` are the unused columns. A cursor goes round them, so a rejected column
        // is tried again only after all the others: re-trying the same hard ones first would
        // waste the tries of every row.
        let mut cursor = 0;
        for row in 0..n {
            look(row, stop)?;
            let mut free = None;
            for _ in 0..START_TRIES.min(n - row) {
                if cursor < row || cursor >= n {
                    cursor = row;
                }
                if let Some(&ahead) = self.cols.get(cursor + PREFETCH_AHEAD) {
                    self.down.prefetch(self.down_index(row, ahead));
                    self.up.prefetch(Self::up_index(row, ahead));
                }
                let col = self.cols[cursor];
                if self.down.is_empty(self.down_index(row, col))
                    && self.up.is_empty(Self::up_index(row, col))
                {
                    free = Some(cursor);
                    break;
                }
                cursor += 1;
            }
            match free {
                Some(k) => self.cols.swap(row, k),
                None => conflicted.push(row as u32),
            }
            pairs += self.place(row);
        }
        Ok((conflicted, pairs))
    }

    #[inline]
    fn attacked(&self, row: usize) -> bool {
        let col = self.cols[row];
        self.down.count(self.down_index(row, col)) > 1
            || self.up.count(Self::up_index(row, col)) > 1
    }

    /// The change in attacking pairs if rows `i` and `j` (different) swap columns.
    ///
    /// A queen's share of the pairs is the count of its two diagonals, less itself (2 per
    /// queen, 4 for both old squares); new squares are not counted yet, so no such correction.
    /// Their pair with each other is the subtle part: they share a diagonal before the swap
    /// exactly when they share one after it (`|i - j| == |a - b|`). Before, that pair is in the
    /// old sum twice (once per queen) but exists once: -1; after, it is in the new sum zero
    /// times: +1. Both corrections add 1 to the difference, hence `+ 2`.
    #[inline]
    fn swap_delta(&self, i: usize, j: usize) -> i64 {
        let (a, b) = (self.cols[i], self.cols[j]);
        let count = |d: &Diagonals, k: usize| i64::from(d.count(k));
        let old = count(&self.down, self.down_index(i, a))
            + count(&self.up, Self::up_index(i, a))
            + count(&self.down, self.down_index(j, b))
            + count(&self.up, Self::up_index(j, b));
        let new = count(&self.down, self.down_index(i, b))
            + count(&self.up, Self::up_index(i, b))
            + count(&self.down, self.down_index(j, a))
            + count(&self.up, Self::up_index(j, a));
        let shared = i.abs_diff(j) == a.abs_diff(b) as usize;
        new - old + 4 + if shared { 2 } else { 0 }
    }

    /// Swaps the columns of rows `i` and `j`, keeping the counts right.
    fn swap(&mut self, i: usize, j: usize) {
        self.lift(i);
        self.lift(j);
        self.cols.swap(i, j);
        self.place(i);
        self.place(j);
    }

    /// Step 2: improving swaps from a board with `pairs` attacking pairs until no queen is
    /// attacked (`true`), or too many tries in a row make no progress (`false`). Swaps that
    /// leave the number of pairs unchanged are made too: they let the search walk across
    /// plateaus that strict improvement would call dead ends.
    ///
    /// `suspects` always holds at least one queen of every attacking pair: at the start, the
    /// later-placed queen of each pair was placed with a conflict; afterwards, a swap creates
    /// pairs only around the two queens it moves, and both are kept in the list when attacked.
    fn repair(
        &mut self,
        mut suspects: Vec<u32>,
        mut pairs: u64,
        stats: &mut Stats,
        stop: &AtomicBool,
    ) -> Result<bool, Unfinished> {
        let mut next = 0;
        let mut fruitless = 0;
        let stuck = stuck_tries(self.n);
        while pairs > 0 {
            if next >= suspects.len() {
                next = 0;
            }
            let i = suspects[next] as usize;
            if !self.attacked(i) {
                suspects.swap_remove(next);
                continue;
            }
            let j = self.below(self.n);
            stats.tries += 1;
            look(stats.tries as usize, stop)?;
            let delta = if j == i { 1 } else { self.swap_delta(i, j) };
            if delta <= 0 {
                self.swap(i, j);
                pairs = pairs.wrapping_add_signed(delta);
                stats.swaps += 1;
                if self.attacked(j) {
                    suspects.push(j as u32);
                }
            }
            if delta < 0 {
                fruitless = 0;
            } else {
                fruitless += 1;
                if fruitless >= stuck {
                    return Ok(false);
                }
            }
            next += 1;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of attacking pairs counted the slow, obvious way.
    fn pairs_slow(cols: &[u32]) -> u64 {
        let mut pairs = 0;
        for i in 0..cols.len() {
            for j in i + 1..cols.len() {
                if (j - i) == cols[i].abs_diff(cols[j]) as usize {
                    pairs += 1;
                }
            }
        }
        pairs
    }

    /// The number of attacking pairs from the board's diagonal counts.
    fn pairs_from_counts(board: &Board) -> u64 {
        let pairs = |d: &Diagonals| {
            (0..2 * board.n - 1)
                .map(|k| u64::from(d.count(k)))
                .map(|c| c * c.saturating_sub(1) / 2)
                .sum::<u64>()
        };
        pairs(&board.down) + pairs(&board.up)
    }

    #[test]
    fn swap_delta_and_swap_match_recounting() {
        for n in [5usize, 9, 16] {
            for seed in 0..20 {
                let mut board = Board::new(n, seed).unwrap();
                // A random permutation with many conflicts exercises every case of the formula.
                board.cols = (0..n as u32).collect();
                for row in 0..n {
                    let j = row + board.below(n - row);
                    board.cols.swap(row, j);
                }
                board.down.clear();
                board.up.clear();
                let placed: u64 = (0..n).map(|row| board.place(row)).sum();
                assert_eq!(placed, pairs_slow(&board.cols));
                for i in 0..n {
                    for j in (0..n).filter(|&j| j != i) {
                        let before = pairs_slow(&board.cols);
                        let delta = board.swap_delta(i, j);
                        board.swap(i, j);
                        assert_eq!(pairs_slow(&board.cols) as i64 - before as i64, delta);
                        assert_eq!(pairs_from_counts(&board), pairs_slow(&board.cols));
                    }
                }
            }
        }
    }

    #[test]
    fn greedy_start_counts_its_pairs() {
        for seed in 0..50 {
            let mut board = Board::new(12, seed).unwrap();
            let (conflicted, pairs) = board.greedy_start(&AtomicBool::new(false)).unwrap();
            assert_eq!(pairs, pairs_slow(&board.cols));
            assert_eq!(pairs == 0, conflicted.is_empty());
        }
    }
}
