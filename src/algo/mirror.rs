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
use crate::observe::{Observer, Reason, Step};

/// Counts the solutions for `n`.
///
/// ```
/// assert_eq!(nqueens::algo::mirror::count(9), 352);
/// ```
pub fn count(n: usize) -> u64 {
    count_with(n, &mut ())
}

/// [`count`], telling `obs` of each queen placed (a [`Stopper`](super::observe::Stopper)
/// ends it).
pub(crate) fn count_with(n: usize, obs: &mut impl Observer) -> u64 {
    if n == 1 {
        return 1;
    }
    starts(n)
        .map(|cols| 2 * bitboard::count_below(masks_after(n, &cols), obs))
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
    observed(n, visit, &mut ())
}

/// [`for_each_solution`], reporting each step to `obs`; each solution found is followed by
/// its mirror image, marked as an image.
pub(crate) fn observed<O: Observer>(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut O,
) -> ControlFlow<()> {
    if n == 1 {
        obs.step(Step::Place {
            row: 0,
            col: 0,
            forced: false,
        })?;
        obs.step(Step::Solution {
            cols: &[0],
            image: false,
        })?;
        visit(&Placement::new(vec![0]))?;
        return obs.step(Step::Remove { row: 0, col: 0 });
    }
    let mut both = |p: &Placement| {
        visit(p)?;
        visit(&Placement::new(mirror(p.cols())))
    };
    let obs = &mut Mirrored(obs);
    if obs.active() {
        for col in n.div_ceil(2)..n {
            obs.step(Step::Reject {
                row: 0,
                col,
                reason: Reason::Symmetry,
            })?;
        }
    }
    // The queens of the previous start, to report only what changes between starts.
    let mut on_board: Vec<u32> = Vec::new();
    for mut cols in starts(n) {
        if obs.active() {
            move_start_queens(n, &on_board, &cols, obs)?;
            on_board.clone_from(&cols);
        }
        bitboard::list_below(masks_after(n, &cols), &mut cols, &mut both, obs)?;
    }
    move_start_queens(n, &on_board, &[], obs)
}

fn mirror(cols: &[u32]) -> Vec<u32> {
    let m = cols.len() as u32 - 1;
    cols.iter().map(|&c| m - c).collect()
}

/// Reports taking the queens of start `from` off and putting those of start `to` on, keeping
/// the rows they share; rejects the squares of row 1 that a middle start leaves out.
fn move_start_queens(
    n: usize,
    from: &[u32],
    to: &[u32],
    obs: &mut impl Observer,
) -> ControlFlow<()> {
    let keep = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    for row in (keep..from.len()).rev() {
        obs.step(Step::Remove {
            row,
            col: from[row] as usize,
        })?;
    }
    for row in keep..to.len() {
        obs.step(Step::Place {
            row,
            col: to[row] as usize,
            forced: false,
        })?;
        if row == 0 && to.len() == 2 {
            let masks = masks_after(n, &to[..1]);
            let half = n / 2;
            for col in (0..n).filter(|&c| c >= half || c + 1 == half) {
                let reason = masks.reason(col).unwrap_or(Reason::Symmetry);
                obs.step(Step::Reject {
                    row: 1,
                    col,
                    reason,
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Passes every step on, and follows each solution found with its mirror image.
struct Mirrored<'a, O>(&'a mut O);

impl<O: Observer> Observer for Mirrored<'_, O> {
    #[inline(always)]
    fn active(&self) -> bool {
        self.0.active()
    }

    #[inline(always)]
    fn step(&mut self, step: Step<&[u32]>) -> ControlFlow<()> {
        self.0.step(step)?;
        if let (true, Step::Solution { cols, .. }) = (self.0.active(), step) {
            let image = mirror(cols);
            self.0.step(Step::Solution {
                cols: &image,
                image: true,
            })?;
        }
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn checks(&mut self, k: u64) {
        self.0.checks(k)
    }
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
