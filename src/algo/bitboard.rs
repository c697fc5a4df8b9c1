//! `bitboard`: the attacked squares of a row as three bit masks.
//!
//! Bit `c` of a mask stands for column `c` of the next row. `down` holds the columns taken,
//! `left` the squares attacked along `\` diagonals and `right` along `/` diagonals. Going one
//! row down, every diagonal attack moves one column: `left` shifts left, `right` shifts right.
//! The free squares of a row are then `!(down | left | right)`, and `free & -free` picks the
//! lowest one without a loop over columns. All of a row's checks are three machine instructions.

use std::ops::ControlFlow;

use crate::Placement;
use crate::observe::{Observer, Reason, Step};

/// The squares attacked in the next row, as masks over the `n` columns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Masks {
    /// The `n` low bits set: the board's columns.
    all: u64,
    down: u64,
    left: u64,
    right: u64,
}

impl Masks {
    /// The empty board of `n` columns (`n <= 64`).
    pub(crate) fn new(n: usize) -> Masks {
        Masks {
            all: u64::MAX >> (64 - n),
            down: 0,
            left: 0,
            right: 0,
        }
    }

    /// The free squares of the next row.
    pub(crate) fn free(self) -> u64 {
        self.all & !(self.down | self.left | self.right)
    }

    /// The masks for the row below, after a queen is placed on `bit` in this row.
    pub(crate) fn place(self, bit: u64) -> Masks {
        Masks {
            all: self.all,
            down: self.down | bit,
            // Bits shifted past column n-1 are ignored by `free`, which masks with `all`.
            left: (self.left | bit) << 1,
            right: (self.right | bit) >> 1,
        }
    }

    /// The row these masks are for: the number of queens placed above it.
    pub(crate) fn row(self) -> usize {
        self.down.count_ones() as usize
    }

    /// Why `col` of the next row is not free, or `None` if it is.
    pub(crate) fn reason(self, col: usize) -> Option<Reason> {
        let bit = 1 << col;
        if self.down & bit != 0 {
            Some(Reason::Column)
        } else if self.left & bit != 0 {
            Some(Reason::Diagonal)
        } else if self.right & bit != 0 {
            Some(Reason::AntiDiagonal)
        } else {
            None
        }
    }

    /// Whether every column holds a queen: the board is complete.
    pub(crate) fn is_full(self) -> bool {
        self.down == self.all
    }
}

/// Counts the solutions for `n` (1 to 64, though counts beyond 28 would not fit a `u64`).
///
/// ```
/// assert_eq!(nqueens::algo::bitboard::count(10), 724);
/// ```
pub fn count(n: usize) -> u64 {
    count_with(n, &mut ())
}

/// [`count`], telling `obs` of each queen placed (a [`Stopper`](super::observe::Stopper)
/// ends it).
pub(crate) fn count_with(n: usize, obs: &mut impl Observer) -> u64 {
    count_below(Masks::new(n), obs)
}

/// Counts the ways to complete the board below the rows that produced `masks`, telling `obs`
/// of each queen placed. Only `Break` from [`Stopper`](super::observe::Stopper) is heeded:
/// the count is then partial, and the caller, who holds the stopper, drops it. With `()` the
/// step and its row and column compile to nothing.
pub(crate) fn count_below<O: Observer>(masks: Masks, obs: &mut O) -> u64 {
    if masks.is_full() {
        return 1;
    }
    let mut free = masks.free();
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let (row, col) = (masks.row(), bit.trailing_zeros() as usize);
        if obs
            .step(Step::Place {
                row,
                col,
                forced: false,
            })
            .is_break()
        {
            return total;
        }
        total += count_below(masks.place(bit), obs);
    }
    total
}

/// Calls `visit` with every solution for `n`, in lexicographic order (lowest column first).
///
/// ```
/// use std::ops::ControlFlow;
/// let mut count = 0;
/// let _ = nqueens::algo::bitboard::for_each_solution(8, &mut |p| {
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
    list_below(Masks::new(n), &mut Vec::with_capacity(n), visit, &mut ())
}

/// [`for_each_solution`], reporting each step to `obs`.
pub(crate) fn observed(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut impl Observer,
) -> ControlFlow<()> {
    list_below(Masks::new(n), &mut Vec::with_capacity(n), visit, obs)
}

/// Lists every completion below the rows in `cols` (which produced `masks`).
pub(crate) fn list_below<O: Observer>(
    masks: Masks,
    cols: &mut Vec<u32>,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut O,
) -> ControlFlow<()> {
    if masks.is_full() {
        obs.step(Step::Solution { cols, image: false })?;
        return visit(&Placement::new(cols.clone()));
    }
    let mut free = masks.free();
    obs.checks(1);
    if obs.active() {
        reject_taken(masks, free, obs)?;
    }
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let (row, col) = (masks.row(), bit.trailing_zeros() as usize);
        obs.step(Step::Place {
            row,
            col,
            forced: false,
        })?;
        cols.push(col as u32);
        let flow = list_below(masks.place(bit), cols, visit, obs);
        cols.pop();
        flow?;
        obs.step(Step::Remove { row, col })?;
    }
    ControlFlow::Continue(())
}

/// Reports the squares of the next row that are not in `free`, with what took each, then a
/// dead end if none is free. The mask operation decided them all at once; this only tells.
pub(crate) fn reject_taken(masks: Masks, free: u64, obs: &mut impl Observer) -> ControlFlow<()> {
    let row = masks.row();
    let n = masks.all.count_ones() as usize;
    for col in (0..n).filter(|&c| free >> c & 1 == 0) {
        let reason = masks.reason(col).unwrap_or(Reason::Symmetry);
        obs.step(Step::Reject { row, col, reason })?;
    }
    if free == 0 {
        obs.step(Step::DeadEnd { row: Some(row) })?;
    }
    ControlFlow::Continue(())
}
