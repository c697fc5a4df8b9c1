//! `flags`: backtracking with one flag per column and per diagonal.
//!
//! The squares of a `\` diagonal share `row - col`, those of a `/` diagonal share `row + col`.
//! Keeping a flag for each column and each of the `2n - 1` diagonals of both kinds, a square
//! is checked with three array lookups instead of a loop over the placed queens; placing a
//! queen raises three flags and taking it back lowers them.

use std::ops::ControlFlow;

use crate::Placement;
use crate::observe::{Observer, Reason, Step};

/// Counts the solutions for `n`.
///
/// ```
/// assert_eq!(nqueens::algo::flags::count(8), 92);
/// ```
pub fn count(n: usize) -> u64 {
    count_with(n, &mut ())
}

/// [`count`], telling `obs` of each step (a [`Stopper`](super::observe::Stopper) ends it).
pub(crate) fn count_with(n: usize, obs: &mut impl Observer) -> u64 {
    super::count_by_listing(|visit| observed(n, visit, obs))
}

/// Calls `visit` with every solution for `n`, in lexicographic order.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut first_columns = Vec::new();
/// let _ = nqueens::algo::flags::for_each_solution(6, &mut |p| {
///     first_columns.push(p.cols()[0]);
///     ControlFlow::Continue(())
/// });
/// assert_eq!(first_columns, [1, 2, 3, 4]);
/// ```
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    observed(n, visit, &mut ())
}

/// [`for_each_solution`], reporting each step to `obs`.
pub(crate) fn observed(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut impl Observer,
) -> ControlFlow<()> {
    let mut board = Flags {
        n,
        cols: Vec::with_capacity(n),
        column: vec![false; n],
        diagonal: vec![false; 2 * n - 1],
        anti_diagonal: vec![false; 2 * n - 1],
    };
    board.place(visit, obs)
}

struct Flags {
    n: usize,
    cols: Vec<u32>,
    column: Vec<bool>,
    /// Indexed by `row + n - 1 - col`, so that the index is never negative.
    diagonal: Vec<bool>,
    /// Indexed by `row + col`.
    anti_diagonal: Vec<bool>,
}

impl Flags {
    fn place<O: Observer>(
        &mut self,
        visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
        obs: &mut O,
    ) -> ControlFlow<()> {
        let (n, row) = (self.n, self.cols.len());
        if row == n {
            obs.step(Step::Solution {
                cols: &self.cols,
                image: false,
            })?;
            return visit(&Placement::new(self.cols.clone()));
        }
        let mut dead_end = true;
        for col in 0..n {
            let (d, a) = (row + n - 1 - col, row + col);
            obs.checks(1);
            if self.column[col] || self.diagonal[d] || self.anti_diagonal[a] {
                if obs.active() {
                    let reason = if self.column[col] {
                        Reason::Column
                    } else if self.diagonal[d] {
                        Reason::Diagonal
                    } else {
                        Reason::AntiDiagonal
                    };
                    obs.step(Step::Reject { row, col, reason })?;
                }
                continue;
            }
            dead_end = false;
            obs.step(Step::Place {
                row,
                col,
                forced: false,
            })?;
            self.set(col, d, a, true);
            self.cols.push(col as u32);
            let flow = self.place(visit, obs);
            self.cols.pop();
            self.set(col, d, a, false);
            flow?;
            obs.step(Step::Remove { row, col })?;
        }
        if dead_end {
            obs.step(Step::DeadEnd { row: Some(row) })?;
        }
        ControlFlow::Continue(())
    }

    fn set(&mut self, col: usize, d: usize, a: usize, value: bool) {
        self.column[col] = value;
        self.diagonal[d] = value;
        self.anti_diagonal[a] = value;
    }
}
