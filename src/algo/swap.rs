//! `swap`: a permutation rearranged in place, with diagonal flags.
//!
//! Start from the permutation `0, 1, ..., n-1`. For row `r`, swap each of the columns not yet
//! used (those in positions `r..n`) into position `r`, try it, and swap it back. Columns can
//! then never repeat, so only the two diagonals need flags, and the loop for a row runs over
//! the `n - r` unused columns instead of all `n`.

use std::ops::ControlFlow;

use crate::Placement;
use crate::observe::{Observer, Reason, Step};

/// Counts the solutions for `n`.
///
/// ```
/// assert_eq!(nqueens::algo::swap::count(8), 92);
/// ```
pub fn count(n: usize) -> u64 {
    count_with(n, &mut ())
}

/// [`count`], telling `obs` of each step (a [`Stopper`](super::observe::Stopper) ends it).
pub(crate) fn count_with(n: usize, obs: &mut impl Observer) -> u64 {
    super::count_by_listing(|visit| observed(n, visit, obs))
}

/// Calls `visit` with every solution for `n`, in the order the swaps produce them.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut found = None;
/// let _ = nqueens::algo::swap::for_each_solution(10, &mut |p| {
///     found = Some(p.clone());
///     ControlFlow::Break(())
/// });
/// assert!(found.is_some_and(|p| p.n() == 10 && p.is_solution()));
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
    let mut board = Swaps {
        perm: (0..n as u32).collect(),
        diagonal: vec![false; 2 * n - 1],
        anti_diagonal: vec![false; 2 * n - 1],
    };
    board.place(0, visit, obs)
}

struct Swaps {
    /// Rows `0..r` hold the placed columns, positions `r..n` the unused ones.
    perm: Vec<u32>,
    diagonal: Vec<bool>,
    anti_diagonal: Vec<bool>,
}

impl Swaps {
    fn place<O: Observer>(
        &mut self,
        row: usize,
        visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
        obs: &mut O,
    ) -> ControlFlow<()> {
        let n = self.perm.len();
        if row == n {
            obs.step(Step::Solution {
                cols: &self.perm,
                image: false,
            })?;
            return visit(&Placement::new(self.perm.clone()));
        }
        let mut dead_end = true;
        for i in row..n {
            self.perm.swap(row, i);
            let col = self.perm[row] as usize;
            let (d, a) = (row + n - 1 - col, row + col);
            obs.checks(1);
            let flow = if self.diagonal[d] || self.anti_diagonal[a] {
                let reason = if self.diagonal[d] {
                    Reason::Diagonal
                } else {
                    Reason::AntiDiagonal
                };
                obs.step(Step::Reject { row, col, reason })
            } else {
                dead_end = false;
                obs.step(Step::Place {
                    row,
                    col,
                    forced: false,
                })?;
                self.diagonal[d] = true;
                self.anti_diagonal[a] = true;
                let flow = self.place(row + 1, visit, obs);
                self.diagonal[d] = false;
                self.anti_diagonal[a] = false;
                flow?;
                obs.step(Step::Remove { row, col })
            };
            self.perm.swap(row, i);
            flow?;
        }
        if dead_end {
            obs.step(Step::DeadEnd { row: Some(row) })?;
        }
        ControlFlow::Continue(())
    }
}
