//! `bitboard`: the attacked squares of a row as three bit masks.
//!
//! Bit `c` of a mask stands for column `c` of the next row. `down` holds the columns taken,
//! `left` the squares attacked along `\` diagonals and `right` along `/` diagonals. Going one
//! row down, every diagonal attack moves one column: `left` shifts left, `right` shifts right.
//! The free squares of a row are then `!(down | left | right)`, and `free & -free` picks the
//! lowest one without a loop over columns. All of a row's checks are three machine instructions.

use std::ops::ControlFlow;

use crate::Placement;

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
    count_below(Masks::new(n))
}

/// Counts the ways to complete the board below the rows that produced `masks`.
pub(crate) fn count_below(masks: Masks) -> u64 {
    if masks.is_full() {
        return 1;
    }
    let mut free = masks.free();
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += count_below(masks.place(bit));
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
    list_below(Masks::new(n), &mut Vec::with_capacity(n), visit)
}

/// Lists every completion below the rows in `cols` (which produced `masks`).
pub(crate) fn list_below(
    masks: Masks,
    cols: &mut Vec<u32>,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if masks.is_full() {
        return visit(&Placement::new(cols.clone()));
    }
    let mut free = masks.free();
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        cols.push(bit.trailing_zeros());
        let flow = list_below(masks.place(bit), cols, visit);
        cols.pop();
        flow?;
    }
    ControlFlow::Continue(())
}
