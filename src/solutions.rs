//! Lazy listing: iterators over all solutions, or one per symmetry class, made on demand.
//!
//! [`all`] runs a search with an explicit stack instead of recursion, so it can stop after any
//! solution and resume where it left off: `solutions::all(30)?.take(5)` costs only the search
//! up to the fifth solution, and nothing is ever collected. Each row keeps its free squares as
//! a 64-bit mask, so any `n` up to 64 works.
//!
//! Filling rows top to bottom would take ages to reach the first solution of some boards (for
//! `n` around 40 to 64 the first rows need to be revised billions of times). So the search
//! fills next the row with the fewest free squares left (the "most constrained first" rule of
//! Stone and Stone, 1987), and drops a branch as soon as some row has none. Solutions then come
//! at once for every `n` up to 64, in the order that search meets them (not sorted).
//!
//! [`unique`] yields one solution per class of the 8 board symmetries: the **canonical** one,
//! the smallest of its 8 images comparing columns row by row (see [`Placement::canonical`]). It
//! runs the same search with row 0 first and the cuts of [`crate::algo::symmetry`], which close
//! squares no canonical solution uses, and checks each survivor against its images.
//!
//! ```
//! let first: Vec<_> = nqueens::solutions(30).unwrap().take(5).collect();
//! assert!(first.iter().all(|p| p.is_solution()));
//! assert_eq!(nqueens::unique_solutions(8).unwrap().count(), 12);
//! ```

use crate::Placement;
use crate::symmetry::{class_size_if_canonical, closed_squares};

/// The largest board the iterators handle: one bit per column in a `u64`.
///
/// ```
/// use nqueens::solutions::{all, MAX_N};
/// assert!(all(MAX_N).unwrap().next().unwrap().is_solution());
/// assert!(all(MAX_N + 1).is_err());
/// ```
pub const MAX_N: usize = 64;

/// Why listing cannot start for this `n`.
///
/// ```
/// use nqueens::solutions::{all, OutOfRange};
/// assert_eq!(all(65).unwrap_err(), OutOfRange(65));
/// assert!(all(0).unwrap_err().to_string().starts_with("listing handles N from 1 to 64"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("listing handles N from 1 to {MAX_N} (one bit per column in a 64-bit mask), not {0}")]
pub struct OutOfRange(pub usize);

/// Every solution for `n` (1 to 64), lazily, each once, in the order the search meets them.
///
/// ```
/// let mut it = nqueens::solutions::all(4).unwrap();
/// assert_eq!(it.next().unwrap().cols(), &[1, 3, 0, 2]);
/// assert_eq!(it.next().unwrap().cols(), &[2, 0, 3, 1]);
/// assert!(it.next().is_none());
/// assert!(nqueens::solutions::all(65).is_err());
/// ```
///
/// # Errors
/// [`OutOfRange`] for an `n` beyond what the search lists.
pub fn all(n: usize) -> Result<Solutions, OutOfRange> {
    Solutions::new(n, false)
}

/// The canonical solution of every symmetry class for `n` (1 to 64), lazily.
///
/// ```
/// let reps: Vec<_> = nqueens::solutions::unique(6).unwrap().collect();
/// assert_eq!(reps.len(), 1);
/// assert!(reps[0].is_canonical());
/// ```
///
/// # Errors
/// [`OutOfRange`] for an `n` beyond what the search lists.
pub fn unique(n: usize) -> Result<UniqueSolutions, OutOfRange> {
    Ok(UniqueSolutions {
        search: Solutions::new(n, true)?,
        inverse: vec![0; n],
    })
}

/// The iterator of [`all`]: a search whose stack is kept between calls.
///
/// ```
/// let mut it = nqueens::solutions::all(8).unwrap();
/// let first_ten: Vec<_> = it.by_ref().take(10).collect();
/// assert!(first_ten.iter().all(|p| p.is_solution()));
/// // The search resumes where it stopped: the rest are the other 82, none repeated.
/// assert_eq!(it.filter(|p| !first_ten.contains(p)).count(), 82);
/// ```
#[derive(Clone, Debug)]
pub struct Solutions {
    n: usize,
    /// `free[d * n + r]`: the free squares of row `r` once `d` queens are placed (0 for the
    /// rows already filled). One block per depth, so that backing up costs nothing.
    free: Vec<u64>,
    /// The search state at each depth.
    levels: Vec<Level>,
    /// How many queens the current level has placed.
    depth: usize,
    /// The column of the queen in each filled row.
    cols: Vec<u32>,
    /// Apply the cuts that only canonical solutions survive (for [`unique`]).
    canonical_only: bool,
}

/// The search after some queens are placed: the row it fills next and what is left to try.
#[derive(Clone, Copy, Debug)]
struct Level {
    /// The filled rows, one bit each.
    filled: u64,
    /// The row being filled at this depth.
    row: usize,
    /// The free squares of that row not yet tried.
    untried: u64,
}

impl Solutions {
    fn new(n: usize, canonical_only: bool) -> Result<Solutions, OutOfRange> {
        if !(1..=MAX_N).contains(&n) {
            return Err(OutOfRange(n));
        }
        let all = u64::MAX >> (64 - n);
        let mut free = vec![0; (n + 1) * n];
        free[..n].fill(all);
        // Every row is equally free at first, so row 0 is filled first, as the cuts need.
        let mut untried = all;
        if canonical_only {
            // The canonical solution's first queen is in the left half, middle included.
            untried &= (1u64 << ((n - 1) / 2 + 1)) - 1;
        }
        let start = Level {
            filled: 0,
            row: 0,
            untried,
        };
        Ok(Solutions {
            n,
            free,
            levels: vec![start; n],
            depth: 0,
            cols: vec![0; n],
            canonical_only,
        })
    }

    /// Places a queen on `(row, col)` of the current level and prepares the next depth: the
    /// attacked squares leave every other open row, and the row with the fewest free squares
    /// is chosen. If some open row is left with none, this is a dead end found early: the
    /// depth stays and the next square of this row is tried.
    fn descend(&mut self, row: usize, col: u32) {
        let (n, d) = (self.n, self.depth);
        let filled = self.levels[d].filled | 1 << row;
        let (above, below) = self.free.split_at_mut((d + 1) * n);
        let (now, next) = (&above[d * n..], &mut below[..n]);
        let queen = 1u64 << col;
        let mut best = (u32::MAX, 0);
        for r in 0..n {
            if filled >> r & 1 == 1 {
                next[r] = 0;
                continue;
            }
            // The queen's column, and the two diagonals `dist` rows away.
            let dist = r.abs_diff(row);
            let mut free = now[r] & !(queen | queen << dist | queen >> dist);
            if self.canonical_only && d == 0 {
                free &= !closed_squares(n, col, r);
            }
            next[r] = free;
            best = best.min((free.count_ones(), r));
        }
        let (count, best_row) = best;
        if count == 0 {
            return;
        }
        self.depth += 1;
        self.levels[self.depth] = Level {
            filled,
            row: best_row,
            untried: next[best_row],
        };
    }
}

impl Iterator for Solutions {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        loop {
            let level = &mut self.levels[self.depth];
            if level.untried == 0 {
                // This row has nothing left: back up one depth, or finish.
                if self.depth == 0 {
                    return None;
                }
                self.depth -= 1;
                continue;
            }
            let bit = level.untried & level.untried.wrapping_neg();
            level.untried ^= bit;
            let (row, col) = (level.row, bit.trailing_zeros());
            self.cols[row] = col;
            if self.depth + 1 == self.n {
                // The level stays current: the next call resumes with its untried squares.
                return Some(Placement::new(self.cols.clone()));
            }
            self.descend(row, col);
        }
    }
}

/// The iterator of [`unique`]: the cut search of [`all`], keeping the canonical solutions.
///
/// ```
/// let reps: Vec<_> = nqueens::solutions::unique(8).unwrap().collect();
/// assert_eq!(reps.len(), 12);
/// // The classes' sizes add up to the total.
/// let total: usize = reps.iter().map(|p| p.class_size().unwrap()).sum();
/// assert_eq!(total, 92);
/// ```
#[derive(Clone, Debug)]
pub struct UniqueSolutions {
    search: Solutions,
    inverse: Vec<u32>,
}

impl Iterator for UniqueSolutions {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        self.search
            .by_ref()
            .find(|p| class_size_if_canonical(p.cols(), &mut self.inverse).is_some())
    }
}
