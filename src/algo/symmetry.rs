//! `symmetry`: the bitboard search that finds one solution per symmetry class.
//!
//! The 8 symmetries of the board (4 rotations, each with or without a mirror) turn a solution
//! into solutions; the distinct images form its class, of size 8, 4 (symmetric under a half
//! turn) or 2 (under a quarter turn). This rung looks only for the canonical solution of each
//! class, the smallest of its images read row by row, and adds the class size to the total:
//! one search gives both the total and the unique count.
//!
//! Two cuts keep the search small. The canonical solution is no larger in row 0 than its
//! mirror image, so its first queen stands in the left half (middle column included). And the
//! first entries of the rotated and transposed images are the distances of the queens on the
//! other three edges from their corners, so every edge queen must be at least as far from its
//! corners as the first queen: the edge columns are closed near the top and bottom, and the
//! last row is closed near its corners. With the first queen in the corner, the transposed
//! image ties on its first entry, which closes column 1 above the second queen's column. What
//! survives is checked against its 7 other images.

use crate::symmetry::{class_size_if_canonical, closed_squares};
use std::ops::ControlFlow;

use super::Counts;
use super::bitboard::{self, Masks};
use crate::Placement;
use crate::observe::{Observer, Reason, Step};

/// Counts all and unique solutions for `n`.
///
/// ```
/// let c = nqueens::algo::symmetry::count(8);
/// assert_eq!((c.total, c.unique), (92, Some(12)));
/// ```
pub fn count(n: usize) -> Counts {
    count_with(n, &mut ())
}

/// [`count`], telling `obs` of each step (a [`Stopper`](super::observe::Stopper) ends it).
pub(crate) fn count_with(n: usize, obs: &mut impl Observer) -> Counts {
    let (mut total, mut unique) = (0, 0);
    let mut visit = |_: &[u32], size| {
        total += size;
        unique += 1;
        ControlFlow::Continue(())
    };
    let _ = search(n, &mut visit, obs, false);
    Counts {
        total,
        unique: Some(unique),
    }
}

/// Calls `visit` with every solution for `n`: each canonical solution, then the rest of its class.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut count = 0;
/// let _ = nqueens::algo::symmetry::for_each_solution(8, &mut |p| {
///     assert!(p.is_solution());
///     count += 1;
///     ControlFlow::Continue(())
/// });
/// assert_eq!(count, 92);
/// ```
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    observed(n, visit, &mut ())
}

/// [`for_each_solution`], reporting each step to `obs`: each canonical solution found is
/// followed by the rest of its class, marked as images.
pub(crate) fn observed(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut impl Observer,
) -> ControlFlow<()> {
    let mut each_of_class = |cols: &[u32], _| {
        for p in class(cols) {
            visit(&p)?;
        }
        ControlFlow::Continue(())
    };
    search(n, &mut each_of_class, obs, true)
}

/// The distinct images of the solution `cols`, smallest (the canonical one) first.
fn class(cols: &[u32]) -> Vec<Placement> {
    let mut class = Placement::new(cols.to_vec())
        .images()
        .expect("a solution is a permutation")
        .to_vec();
    class.sort();
    class.dedup();
    class
}

/// Calls `visit` with the columns of every canonical solution for `n` and the size of its class.
pub fn for_each_canonical(
    n: usize,
    visit: &mut dyn FnMut(&[u32], u64) -> ControlFlow<()>,
) -> ControlFlow<()> {
    search(n, visit, &mut (), false)
}

/// The search from each first queen in the left half; `images` says whether the steps
/// reported for a canonical solution include the rest of its class.
fn search<O: Observer>(
    n: usize,
    visit: &mut dyn FnMut(&[u32], u64) -> ControlFlow<()>,
    obs: &mut O,
    images: bool,
) -> ControlFlow<()> {
    let last_first = (n as u32 - 1) / 2;
    if obs.active() {
        for col in last_first as usize + 1..n {
            obs.step(Step::Reject {
                row: 0,
                col,
                reason: Reason::Symmetry,
            })?;
        }
    }
    for first in 0..=last_first {
        let col = first as usize;
        obs.step(Step::Place {
            row: 0,
            col,
            forced: false,
        })?;
        let mut search = Search {
            n,
            first,
            cols: vec![first],
            inverse: vec![0; n],
            visit: &mut *visit,
            obs: &mut *obs,
            images,
        };
        search.descend(Masks::new(n).place(1 << first))?;
        obs.step(Step::Remove { row: 0, col })?;
    }
    ControlFlow::Continue(())
}

struct Search<'a, O> {
    n: usize,
    /// The column of the first queen: the distance every edge queen must keep from corners.
    first: u32,
    cols: Vec<u32>,
    /// Scratch space for the leaf check: the row of the queen in each column.
    inverse: Vec<u32>,
    visit: &'a mut dyn FnMut(&[u32], u64) -> ControlFlow<()>,
    obs: &'a mut O,
    /// Report the whole class of each canonical solution as steps, not only itself.
    images: bool,
}

impl<O: Observer> Search<'_, O> {
    fn descend(&mut self, masks: Masks) -> ControlFlow<()> {
        let row = self.cols.len();
        if row == self.n {
            return match class_size_if_canonical(&self.cols, &mut self.inverse) {
                Some(size) => {
                    self.report_class()?;
                    (self.visit)(&self.cols, size)
                }
                None => self.obs.step(Step::Duplicate { cols: &self.cols }),
            };
        }
        let mut closed = closed_squares(self.n, self.first, row);
        if self.first == 0 && row >= 2 && row < self.cols[1] as usize {
            // With a queen in the corner, the transposed image starts 0 too and continues with
            // the row of column 1's queen; the canonical one is no larger, so that queen
            // cannot stand above row `cols[1]`.
            closed |= 0b10;
        }
        let mut free = masks.free() & !closed;
        self.obs.checks(1);
        if self.obs.active() {
            bitboard::reject_taken(masks, free, self.obs)?;
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let col = bit.trailing_zeros() as usize;
            self.obs.step(Step::Place {
                row,
                col,
                forced: false,
            })?;
            self.cols.push(col as u32);
            let flow = self.descend(masks.place(bit));
            self.cols.pop();
            flow?;
            self.obs.step(Step::Remove { row, col })?;
        }
        ControlFlow::Continue(())
    }

    /// Reports the canonical solution just found, and with `images` the rest of its class.
    fn report_class(&mut self) -> ControlFlow<()> {
        if !(self.obs.active() && self.images) {
            return self.obs.step(Step::Solution {
                cols: &self.cols,
                image: false,
            });
        }
        for p in class(&self.cols) {
            let image = p.cols() != self.cols.as_slice();
            self.obs.step(Step::Solution {
                cols: p.cols(),
                image,
            })?;
        }
        ControlFlow::Continue(())
    }
}
