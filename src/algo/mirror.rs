//! `mirror`: the bitboard search on half the board, doubled by the left-right mirror.
//!
//! Mirroring a solution left to right gives another solution, and the two differ in the first
//! row unless its queen is in the middle column. So it is enough to search with the first
//! queen in the left half and count each solution twice. For odd `n` the first queen may also
//! stand in the middle column; the second row cannot, so there the left half of the second
//! row is searched and doubled instead. Half the tree, the same count.

use std::ops::ControlFlow;

use super::bitboard::{self, Masks};
use crate::Placement;

/// Counts the solutions for `n`.
///
/// ```
/// assert_eq!(nqueens::algo::mirror::count(9), 352);
/// ```
pub fn count(n: usize) -> u64 {
    if n == 1 {
        return 1;
    }
    starts(n)
        .map(|cols| 2 * bitboard::count_below(masks_after(n, &cols)))
        .sum()
}

/// Calls `visit` with every solution for `n`: each one found on the left, then its mirror.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut count = 0;
/// let _ = nqueens::algo::mirror::for_each_solution(7, &mut |p| {
///     assert!(p.is_solution());
///     count += 1;
///     ControlFlow::Continue(())
/// });
/// assert_eq!(count, 40);
/// ```
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if n == 1 {
        return visit(&Placement::new(vec![0]));
    }
    let mut both = |p: &Placement| {
        visit(p)?;
        let mirrored = p.cols().iter().map(|&c| n as u32 - 1 - c).collect();
        visit(&Placement::new(mirrored))
    };
    for mut cols in starts(n) {
        bitboard::list_below(masks_after(n, &cols), &mut cols, &mut both)?;
    }
    ControlFlow::Continue(())
}

/// The first rows to search below (`n >= 2`): a first queen in the left half, or, for odd
/// `n`, the middle column above a second queen in the left half.
fn starts(n: usize) -> impl Iterator<Item = Vec<u32>> {
    let half = n as u32 / 2;
    let left = (0..half).map(|c| vec![c]);
    let middle = (n % 2 == 1)
        .then_some(0..half)
        .into_iter()
        .flatten()
        // The middle queen attacks columns half-1 and half+1 of row 2 diagonally.
        .filter(move |&c| c + 1 != half)
        .map(move |c| vec![half, c]);
    left.chain(middle)
}

fn masks_after(n: usize, cols: &[u32]) -> Masks {
    cols.iter().fold(Masks::new(n), |m, &c| m.place(1 << c))
}
