//! `permutations`: generate and test, the first rung of the ladder.
//!
//! A solution has one queen per row and one per column, so it is a permutation of the columns.
//! This algorithm walks through all `n!` permutations in lexicographic order (the classic
//! "next permutation" step) and tests each one for diagonal attacks. Nothing is pruned: a bad
//! second queen is only noticed after all the other queens are placed, which is why it stops
//! being usable around `n = 12` (12! is 479 million orderings).

use std::ops::ControlFlow;

use crate::Placement;

/// Counts the solutions for `n` (1 to 12).
///
/// ```
/// assert_eq!(nqueens::algo::permutations::count(6), 4);
/// ```
pub fn count(n: usize) -> u64 {
    super::count_by_listing(n, for_each_solution)
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
    let mut cols: Vec<u32> = (0..n as u32).collect();
    loop {
        if no_diagonal_attack(&cols) {
            visit(&Placement::new(cols.clone()))?;
        }
        if !next_permutation(&mut cols) {
            return ControlFlow::Continue(());
        }
    }
}

/// The test: no two queens share a diagonal (columns differ by construction).
fn no_diagonal_attack(cols: &[u32]) -> bool {
    (0..cols.len()).all(|r2| (0..r2).all(|r1| cols[r1].abs_diff(cols[r2]) as usize != r2 - r1))
}

/// Steps to the next permutation in lexicographic order; `false` after the last one.
fn next_permutation(a: &mut [u32]) -> bool {
    // The longest decreasing tail is already the last ordering of its elements...
    let Some(i) = (1..a.len()).rev().find(|&i| a[i - 1] < a[i]) else {
        return false;
    };
    // ...so bump the element before it to the next larger one from the tail, and restart
    // the tail at its smallest ordering.
    let j = (i..a.len())
        .rev()
        .find(|&j| a[j] > a[i - 1])
        .expect("a[i] is larger");
    a.swap(i - 1, j);
    a[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::next_permutation;

    #[test]
    fn visits_all_orderings_in_order() {
        let mut a = [0, 1, 2, 3];
        let mut seen = vec![a];
        while next_permutation(&mut a) {
            assert!(seen.last().unwrap() < &a);
            seen.push(a);
        }
        assert_eq!(seen.len(), 24);
    }
}
