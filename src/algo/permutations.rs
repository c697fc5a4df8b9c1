//! `permutations`: generate and test, the first rung of the ladder.
//!
//! A solution has one queen per row and one per column, so it is a permutation of the columns.
//! This algorithm walks through all `n!` permutations in lexicographic order (the classic
//! "next permutation" step) and tests each one for diagonal attacks. Nothing is pruned: a bad
//! second queen is only noticed after all the other queens are placed, which is why it stops
//! being usable around `n = 12` (12! is 479 million orderings).

use std::ops::ControlFlow;

use crate::Placement;
use crate::observe::{Observer, Reason, Step};

/// Counts the solutions for `n` (1 to 12).
///
/// ```
/// assert_eq!(nqueens::algo::permutations::count(6), 4);
/// ```
pub fn count(n: usize) -> u64 {
    count_with(n, &mut ())
}

/// [`count`], telling `obs` of each step (a [`Stopper`](super::observe::Stopper) ends it).
pub(crate) fn count_with(n: usize, obs: &mut impl Observer) -> u64 {
    super::count_by_listing(|visit| observed(n, visit, obs))
}

/// Calls `visit` with every solution for `n` (1 to 12), in lexicographic order.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut first = None;
/// let _ = nqueens::algo::permutations::for_each_solution(4, &mut |p| {
///     first = Some(p.clone());
///     ControlFlow::Break(())
/// });
/// assert_eq!(first.unwrap().cols(), &[1, 3, 0, 2]);
/// ```
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    observed(n, visit, &mut ())
}

/// [`for_each_solution`], reporting each step to `obs`: the queens that each new ordering
/// moves are taken off and put back, and a failed test rejects the first attacked queen.
pub(crate) fn observed<O: Observer>(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut O,
) -> ControlFlow<()> {
    let mut cols: Vec<u32> = (0..n as u32).collect();
    // The ordering before each step, kept only to report which queens moved.
    let mut before = Vec::new();
    let mut changed = 0;
    loop {
        if obs.active() {
            for (row, &col) in cols.iter().enumerate().skip(changed) {
                let col = col as usize;
                obs.step(Step::Place {
                    row,
                    col,
                    forced: false,
                })?;
            }
            let (attack, checked) = first_diagonal_attack(&cols);
            obs.checks(checked);
            if let Some((row, reason)) = attack {
                let col = cols[row] as usize;
                obs.step(Step::Reject { row, col, reason })?;
            }
        }
        if no_diagonal_attack(&cols) {
            obs.step(Step::Solution {
                cols: &cols,
                image: false,
            })?;
            visit(&Placement::new(cols.clone()))?;
        }
        if obs.active() {
            before.clone_from(&cols);
        }
        let Some(first) = next_permutation(&mut cols) else {
            return ControlFlow::Continue(());
        };
        if obs.active() {
            for row in (first..n).rev() {
                let col = before[row] as usize;
                obs.step(Step::Remove { row, col })?;
            }
            changed = first;
        }
    }
}

/// The test: no two queens share a diagonal (columns differ by construction).
fn no_diagonal_attack(cols: &[u32]) -> bool {
    (0..cols.len()).all(|r2| (0..r2).all(|r1| cols[r1].abs_diff(cols[r2]) as usize != r2 - r1))
}

/// For observers only, [`no_diagonal_attack`] told in detail: the first queen (in the order
/// it compares pairs) on a diagonal with a queen above, and how many pairs it compares.
fn first_diagonal_attack(cols: &[u32]) -> (Option<(usize, Reason)>, u64) {
    let mut checked = 0;
    for r2 in 0..cols.len() {
        for r1 in 0..r2 {
            checked += 1;
            if cols[r1].abs_diff(cols[r2]) as usize == r2 - r1 {
                let reason = if cols[r1] < cols[r2] {
                    Reason::Diagonal
                } else {
                    Reason::AntiDiagonal
                };
                return (Some((r2, reason)), checked);
            }
        }
    }
    (None, checked)
}

/// Steps to the next permutation in lexicographic order, and says from which position the
/// ordering changed; `None` after the last one.
fn next_permutation(a: &mut [u32]) -> Option<usize> {
    // The longest decreasing tail is already the last ordering of its elements...
    let i = (1..a.len()).rev().find(|&i| a[i - 1] < a[i])?;
    // ...so bump the element before it to the next larger one from the tail, and restart
    // the tail at its smallest ordering.
    let j = (i..a.len())
        .rev()
        .find(|&j| a[j] > a[i - 1])
        .expect("a[i] is larger");
    a.swap(i - 1, j);
    a[i..].reverse();
    Some(i - 1)
}

#[cfg(test)]
mod tests {
    use super::next_permutation;

    #[test]
    fn visits_all_orderings_in_order() {
        let mut a = [0, 1, 2, 3];
        let mut seen = vec![a];
        while next_permutation(&mut a).is_some() {
            assert!(seen.last().unwrap() < &a);
            seen.push(a);
        }
        assert_eq!(seen.len(), 24);
    }
}
