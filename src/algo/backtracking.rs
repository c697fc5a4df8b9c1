//! `backtracking`: place queens row by row, checking each new queen against those placed.
//!
//! Instead of completing a whole ordering before testing it, the search places one queen per
//! row and tries the next row only if the new queen is safe from every queen above it. A
//! conflict in row 2 cuts off every arrangement of the rows below at once, which is what makes
//! backtracking thousands of times faster than generate and test. Checking a square still
//! costs a loop over the placed queens; the next rung, `flags`, makes that check constant.

use std::ops::ControlFlow;

use crate::Placement;
use crate::observe::{Observer, Reason, Step};

/// Counts the solutions for `n`.
///
/// ```
/// assert_eq!(nqueens::algo::backtracking::count(8), 92);
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
/// let mut all = Vec::new();
/// let _ = nqueens::algo::backtracking::for_each_solution(4, &mut |p| {
///     all.push(p.cols().to_vec());
///     ControlFlow::Continue(())
/// });
/// assert_eq!(all, [[1, 3, 0, 2], [2, 0, 3, 1]]);
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
    place(n, &mut Vec::with_capacity(n), visit, obs)
}

fn place<O: Observer>(
    n: usize,
    cols: &mut Vec<u32>,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut O,
) -> ControlFlow<()> {
    let row = cols.len();
    if row == n {
        obs.step(Step::Solution { cols, image: false })?;
        return visit(&Placement::new(cols.clone()));
    }
    let mut dead_end = true;
    for col in 0..n as u32 {
        if obs.active() {
            let (attack, checked) = first_attack(cols, col);
            obs.checks(checked);
            if let Some(reason) = attack {
                obs.step(Step::Reject {
                    row,
                    col: col as usize,
                    reason,
                })?;
            }
        }
        if !is_safe(cols, col) {
            continue;
        }
        dead_end = false;
        obs.step(Step::Place {
            row,
            col: col as usize,
            forced: false,
        })?;
        cols.push(col);
        let flow = place(n, cols, visit, obs);
        cols.pop();
        flow?;
        obs.step(Step::Remove {
            row,
            col: col as usize,
        })?;
    }
    if dead_end {
        obs.step(Step::DeadEnd { row: Some(row) })?;
    }
    ControlFlow::Continue(())
}

/// Whether a queen in the next row at `col` is attacked by any queen already placed.
fn is_safe(cols: &[u32], col: u32) -> bool {
    let row = cols.len();
    cols.iter()
        .enumerate()
        .all(|(r, &c)| c != col && c.abs_diff(col) as usize != row - r)
}

/// For observers only, [`is_safe`] told in detail: how the first queen above that attacks
/// `col` in the next row attacks it, if any, and how many queens `is_safe` checks to find out.
fn first_attack(cols: &[u32], col: u32) -> (Option<Reason>, u64) {
    let row = cols.len();
    let mut checked = 0;
    for (r, &c) in cols.iter().enumerate() {
        checked += 1;
        let attack = if c == col {
            Some(Reason::Column)
        } else if c.abs_diff(col) as usize != row - r {
            None
        } else if c < col {
            Some(Reason::Diagonal)
        } else {
            Some(Reason::AntiDiagonal)
        };
        if attack.is_some() {
            return (attack, checked);
        }
    }
    (None, checked)
}
