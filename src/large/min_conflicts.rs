//! Min-conflicts local search: a different random solution for each seed, for millions of queens.
//!
//! The board is a permutation (one queen per row and per column), so only diagonals can clash.
//! Two arrays count the queens on each `\` and each `/` diagonal; with them the change in the
//! number of attacking pairs caused by swapping the columns of two rows costs a few look-ups,
//! whatever `n` is. This is the QS4 scheme of Sosic and Gu (1994), who solved 3,000,000 queens
//! in under a minute:
//!
//! 1. **Greedy start.** Row by row, try random columns among those not used yet and keep the
//!    first one whose two diagonals are empty. Nearly every row succeeds; only a few dozen rows
//!    at the very end, where little choice is left, are placed with conflicts.
//! 2. **Repair.** While some queen is attacked, swap it with a random row if that lowers the
//!    number of attacking pairs. Only the few queens from the end of step 1 (and those they
//!    disturb) are ever looked at, so this costs almost nothing for large `n`.
//! 3. **Restart.** Small boards can reach a state that no swap improves; after
//!    [`STUCK_TRIES`] fruitless tries in a row the search starts again from step 1, with the
//!    same random stream going on, so it never loops forever and stays reproducible.
//!
//! Random numbers come only from `ChaCha8Rng::seed_from_u64(seed)`, whose stream `rand_chacha`
//! keeps fixed, turned into ranges by this module's own arithmetic: the same `n` and seed give
//! the same solution on every machine and with every version of `rand`.

use rand::RngCore;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::Placement;

/// The largest `n` accepted: columns are `u32`, and the search needs 12 bytes per queen.
pub const MAX_N: usize = 1_000_000_000;

/// Random tries per row during the greedy start before the row is placed with a conflict.
const START_TRIES: u32 = 64;

/// Fruitless repair tries in a row after which the search restarts. For large `n` about one try
/// in sixteen improves (both new squares of a swap must be on empty diagonals), so reaching
/// this by chance is impossible in practice; on small boards it means a true dead end.
pub const STUCK_TRIES: u32 = 20_000;

/// Rows the greedy start may place with a conflict before the attempt is abandoned. Bounding it
/// bounds every diagonal count (below 2^16, see [`Count`]) and keeps the repair short.
const MAX_CONFLICTED: usize = 1000;

/// Queens on one diagonal. After a greedy start a diagonal holds at most `1 + MAX_CONFLICTED`
/// queens and fewer than `2 * (MAX_CONFLICTED + 1)^2` attacking pairs exist in all; repair swaps
/// only lower that number, and a diagonal with `k` queens alone makes `k(k-1)/2` pairs, so `k`
/// stays below 2100: `u16` is enough and halves the memory of `u32`.
type Count = u16;

/// What one search did, for the curious.
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
/// ```
/// let (p, stats) = nqueens::large::min_conflicts_stats(10_000, 7).unwrap();
/// assert!(p.is_solution());
/// assert!(stats.swaps <= stats.tries);
/// ```
pub fn min_conflicts_stats(n: usize, seed: u64) -> Option<(Placement, Stats)> {
    if matches!(n, 0 | 2 | 3) || n > MAX_N {
        return None;
    }
    let mut board = Board::new(n, seed);
    let mut stats = Stats::default();
    loop {
        let conflicted = board.greedy_start();
        stats.conflicted = conflicted.len() as u64;
        if conflicted.len() <= MAX_CONFLICTED && board.repair(conflicted, &mut stats) {
            return Some((Placement::new(board.cols), stats));
        }
        stats.restarts += 1;
    }
}

/// A permutation board with its diagonal counts and the random stream that drives the search.
struct Board {
    n: usize,
    /// `cols[row]`: the queen's column.
    cols: Vec<u32>,
    /// Queens per `\` diagonal, indexed by `row + n - 1 - col`.
    down: Vec<Count>,
    /// Queens per `/` diagonal, indexed by `row + col`.
    up: Vec<Count>,
    /// Attacking pairs: the sum over diagonals of `k(k-1)/2` for `k` queens.
    pairs: u64,
    rng: ChaCha8Rng,
}

impl Board {
    fn new(n: usize, seed: u64) -> Self {
        Board {
            n,
            cols: Vec::new(),
            down: Vec::new(),
            up: Vec::new(),
            pairs: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
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

    /// Step 1: a fresh permutation placed row by row, diagonal-free wherever a few random tries
    /// find a free square. Returns the rows placed with a conflict.
    fn greedy_start(&mut self) -> Vec<u32> {
        let n = self.n;
        self.cols.clear();
        self.cols.extend(0..n as u32);
        self.down.clear();
        self.down.resize(2 * n - 1, 0);
        self.up.clear();
        self.up.resize(2 * n - 1, 0);
        self.pairs = 0;
        let mut conflicted = Vec::new();
        for row in 0..n {
            // `cols[row..]` holds the columns still free: pick among them.
            let mut pick = None;
            for _ in 0..START_TRIES {
                let j = row + self.below(n - row);
                let col = self.cols[j];
                if self.down[self.down_index(row, col)] == 0
                    && self.up[Self::up_index(row, col)] == 0
                {
                    pick = Some(j);
                    break;
                }
            }
            let j = pick.unwrap_or_else(|| {
                conflicted.push(row as u32);
                row + self.below(n - row)
            });
            self.cols.swap(row, j);
            let col = self.cols[row];
            let (d, u) = (self.down_index(row, col), Self::up_index(row, col));
            self.pairs += u64::from(self.down[d]) + u64::from(self.up[u]);
            self.down[d] += 1;
            self.up[u] += 1;
            if conflicted.len() > MAX_CONFLICTED {
                break;
            }
        }
        conflicted
    }

    #[inline]
    fn attacked(&self, row: usize) -> bool {
        let col = self.cols[row];
        self.down[self.down_index(row, col)] > 1 || self.up[Self::up_index(row, col)] > 1
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
        let count = |d: &[Count], k: usize| i64::from(d[k]);
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

    fn swap(&mut self, i: usize, j: usize, delta: i64) {
        for row in [i, j] {
            let col = self.cols[row];
            let (d, u) = (self.down_index(row, col), Self::up_index(row, col));
            self.down[d] -= 1;
            self.up[u] -= 1;
        }
        self.cols.swap(i, j);
        for row in [i, j] {
            let col = self.cols[row];
            let (d, u) = (self.down_index(row, col), Self::up_index(row, col));
            self.down[d] += 1;
            self.up[u] += 1;
        }
        self.pairs = self.pairs.wrapping_add_signed(delta);
    }

    /// Step 2: improving swaps until no queen is attacked (`true`), or [`STUCK_TRIES`] tries in
    /// a row improve nothing (`false`).
    ///
    /// `suspects` always holds at least one queen of every attacking pair: at the start, the
    /// later-placed queen of each pair was placed with a conflict; afterwards, a swap creates
    /// pairs only around the two queens it moves, and both are kept in the list when attacked.
    fn repair(&mut self, mut suspects: Vec<u32>, stats: &mut Stats) -> bool {
        let mut next = 0;
        let mut fruitless = 0;
        while self.pairs > 0 {
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
            let delta = if j == i { 0 } else { self.swap_delta(i, j) };
            if delta < 0 {
                self.swap(i, j, delta);
                stats.swaps += 1;
                fruitless = 0;
                if self.attacked(j) {
                    suspects.push(j as u32);
                }
            } else {
                fruitless += 1;
                if fruitless >= STUCK_TRIES {
                    return false;
                }
            }
            next += 1;
        }
        true
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

    #[test]
    fn swap_delta_matches_recounting() {
        for n in [5usize, 9, 16] {
            for seed in 0..20 {
                let mut board = Board::new(n, seed);
                board.greedy_start();
                // A random permutation with many conflicts exercises every case of the formula.
                for row in 0..n {
                    let j = row + board.below(n - row);
                    board.cols.swap(row, j);
                }
                board.down.fill(0);
                board.up.fill(0);
                for row in 0..n {
                    let col = board.cols[row];
                    let (d, u) = (board.down_index(row, col), Board::up_index(row, col));
                    board.down[d] += 1;
                    board.up[u] += 1;
                }
                board.pairs = pairs_slow(&board.cols);
                for i in 0..n {
                    for j in 0..n {
                        if i == j {
                            continue;
                        }
                        let before = pairs_slow(&board.cols);
                        let delta = board.swap_delta(i, j);
                        let mut swapped = board.cols.clone();
                        swapped.swap(i, j);
                        assert_eq!(pairs_slow(&swapped) as i64 - before as i64, delta);
                    }
                }
                let (i, j) = (0, n - 1);
                let delta = board.swap_delta(i, j);
                board.swap(i, j, delta);
                assert_eq!(board.pairs, pairs_slow(&board.cols));
            }
        }
    }
}
