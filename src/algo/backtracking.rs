//! `backtracking`: place queens row by row, checking each new queen against those placed.
//!
//! Instead of completing a whole ordering before testing it, the search places one queen per
//! row and tries the next row only if the new queen is safe from every queen above it. A
//! conflict in row 2 cuts off every arrangement of the rows below at once, which is what makes
//! backtracking thousands of times faster than generate and test. Checking a square still
//! costs a loop over the placed queens; the next rung, `flags`, makes that check constant.

use std::ops::ControlFlow;

use crate::Placement;

/// Counts the solutions for `n`.
///
/// ```
/// assert_eq!(nqueens::algo::backtracking::count(8), 92);
/// ```
pub fn count(n: usize) -> u64 {
    super::count_by_listing(n, for_each_solution)
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
    place(n, &mut Vec::with_capacity(n), visit)
}

fn place(
    n: usize,
    cols: &mut Vec<u32>,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if cols.len() == n {
        return visit(&Placement::new(cols.clone()));
    }
    for col in 0..n as u32 {
        if is_safe(cols, col) {
            cols.push(col);
            let flow = place(n, cols, visit);
            cols.pop();
            flow?;
        }
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
