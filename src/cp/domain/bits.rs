//! The word boards for `n <= 128`: a row's whole domain is one machine word (`u64` up to 64
//! columns, `u128` up to 128).
//!
//! Taken columns are one word, taken diagonals two double-width words (a board of 64 has 127
//! of each, one of 128 has 255). Numbering the `\` diagonals by `c - r + n - 1` and the `/`
//! ones by `r + c` makes both line up with the columns after a shift, so the domain of row `r`
//! is `!(cols | diag >> (n - 1 - r) | anti >> r | blocked[r])`: three shifts and four ors, no
//! stored domains and nothing to update in other rows when a queen comes or goes. A queen is
//! three bits; undo clears them (no two queens share a line, so the bits are its own).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shr};

use super::{Board, NONE, RowSet};
use crate::cp::propagate;
use crate::cp::stats::Stats;

/// A machine word holding one bit per column: `u64` or `u128`. `Lines` is a word of twice
/// the width for the diagonals.
pub(crate) trait Word:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shr<usize, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Bits in the word: the widest board it holds.
    const BITS: usize;
    const ZERO: Self;
    /// Twice as many bits as `Self`, for the `2n - 1` diagonals of each family.
    type Lines: Copy;
    const NO_LINES: Self::Lines;
    /// The `n` low bits.
    fn low(n: usize) -> Self;
    /// The single bit `i`.
    fn bit(i: usize) -> Self;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    /// `self` with its lowest set bit cleared (`self & (self - 1)`); zero stays zero.
    fn clear_lowest(self) -> Self;
    /// The low word of `lines >> s`.
    fn shifted(lines: Self::Lines, s: usize) -> Self;
    /// Flips bit `i` of `lines`.
    fn toggle(lines: &mut Self::Lines, i: usize);
}

impl Word for u64 {
    const BITS: usize = 64;
    const ZERO: Self = 0;
    type Lines = u128;
    const NO_LINES: u128 = 0;
    #[inline]
    fn low(n: usize) -> Self {
        u64::MAX >> (64 - n)
    }
    #[inline]
    fn bit(i: usize) -> Self {
        1 << i
    }
    #[inline]
    fn count_ones(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline]
    fn clear_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
    #[inline]
    fn shifted(lines: u128, s: usize) -> Self {
        (lines >> s) as u64
    }
    #[inline]
    fn toggle(lines: &mut u128, i: usize) {
        *lines ^= 1 << i;
    }
}

impl Word for u128 {
    const BITS: usize = 128;
    const ZERO: Self = 0;
    /// Low half first.
    type Lines = [u128; 2];
    const NO_LINES: [u128; 2] = [0, 0];
    #[inline]
    fn low(n: usize) -> Self {
        u128::MAX >> (128 - n)
    }
    #[inline]
    fn bit(i: usize) -> Self {
        1 << i
    }
    #[inline]
    fn count_ones(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline]
    fn clear_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
    #[inline]
    fn shifted([lo, hi]: [u128; 2], s: usize) -> Self {
        match s {
            0 => lo,
            1..128 => lo >> s | hi << (128 - s),
            _ => hi >> (s - 128),
        }
    }
    #[inline]
    fn toggle(lines: &mut [u128; 2], i: usize) {
        lines[i / 128] ^= 1 << (i % 128);
    }
}

/// Line masks for boards of at most `W::BITS` columns.
pub(crate) struct Bits<W: Word> {
    n: usize,
    /// The `n` low bits set: every column of the board.
    full: W,
    cols: W,
    diag: W::Lines,
    anti: W::Lines,
    /// Blocked squares of each row, as a column mask.
    blocked: Vec<W>,
    queen: Vec<u32>,
    rows: RowSet,
    placed: Vec<u32>,
}

/// The board for `n <= 64`.
pub(crate) type Bits64 = Bits<u64>;
/// The board for `n <= 128`.
pub(crate) type Bits128 = Bits<u128>;

impl<W: Word> Bits<W> {
    /// The largest board this representation holds.
    pub(crate) const MAX_N: usize = W::BITS;

    /// An empty board of size `n <= W::BITS` with the given blocked squares (0-based).
    pub(crate) fn new(n: usize, blocked: impl IntoIterator<Item = (u32, u32)>) -> Self {
        assert!((1..=Self::MAX_N).contains(&n));
        let mut masks = vec![W::ZERO; n];
        for (r, c) in blocked {
            masks[r as usize] |= W::bit(c as usize);
        }
        Bits {
            n,
            full: W::low(n),
            cols: W::ZERO,
            diag: W::NO_LINES,
            anti: W::NO_LINES,
            blocked: masks,
            queen: vec![NONE; n],
            rows: RowSet::new(n),
            placed: Vec::with_capacity(n),
        }
    }

    /// The available squares of row `r`, one bit per column.
    #[inline]
    pub(crate) fn domain(&self, r: usize) -> W {
        let d = W::shifted(self.diag, self.n - 1 - r);
        let a = W::shifted(self.anti, r);
        self.full & !(self.cols | d | a | self.blocked[r])
    }

    /// The columns without a queen.
    pub(crate) fn free_columns(&self) -> W {
        self.full & !self.cols
    }

    /// The rows with a queen, in the order they were placed: the trail.
    pub(crate) fn placed(&self) -> &[u32] {
        &self.placed
    }

    /// Flips square `(r, c)` between available and removed, as a blocked square is: no-good
    /// learning removes a square it has proved useless under the queens placed, and puts it
    /// back on undoing them. Only an available square is removed, so the bit is its own.
    #[inline]
    pub(crate) fn flip(&mut self, r: usize, c: usize) {
        self.blocked[r] ^= W::bit(c);
    }

    /// Flips the three line bits of a queen at `(r, c)`: places it or takes it off.
    #[inline]
    fn toggle(&mut self, r: usize, c: usize) {
        self.cols ^= W::bit(c);
        W::toggle(&mut self.diag, c + self.n - 1 - r);
        W::toggle(&mut self.anti, r + c);
    }
}

impl<W: Word> Board for Bits<W> {
    fn n(&self) -> usize {
        self.n
    }

    #[inline]
    fn available(&self, r: usize, c: usize) -> bool {
        self.domain(r) & W::bit(c) != W::ZERO
    }

    fn size(&self, r: usize) -> u32 {
        self.domain(r).count_ones()
    }

    fn unassigned(&self) -> &[u32] {
        self.rows.as_slice()
    }

    fn queens(&self) -> &[u32] {
        &self.queen
    }

    fn mark(&self) -> usize {
        self.placed.len()
    }

    fn place(&mut self, r: usize, c: usize) {
        debug_assert!(self.queen[r] == NONE && self.available(r, c));
        self.toggle(r, c);
        self.queen[r] = c as u32;
        self.rows.remove(r);
        self.placed.push(r as u32);
    }

    fn undo_to(&mut self, mark: usize) {
        while self.placed.len() > mark {
            let r = self.placed.pop().expect("above the mark") as usize;
            self.toggle(r, self.queen[r] as usize);
            self.queen[r] = NONE;
            self.rows.restore_last();
        }
    }

    fn weakest_column(&self) -> Option<(usize, u32)> {
        // Column supports as a bit-sliced counter: `planes[i]` holds bit `i` of every column's
        // count, so adding a row's domain is a ripple carry of a few word operations, not one
        // step per column. Eight planes count to 255, enough for 128 rows.
        let mut planes = [W::ZERO; 8];
        for &r in self.rows.as_slice() {
            let mut carry = self.domain(r as usize);
            for p in planes.iter_mut() {
                if carry == W::ZERO {
                    break;
                }
                let t = *p & carry;
                *p ^= carry;
                carry = t;
            }
        }
        // The columns of least count: from the top plane down, keep those with a 0 bit when
        // some candidate has one.
        let mut least = self.free_columns();
        if least == W::ZERO {
            return None;
        }
        for &p in planes.iter().rev() {
            if least & !p != W::ZERO {
                least &= !p;
            }
        }
        let c = least.trailing_zeros() as usize;
        let count = planes
            .iter()
            .enumerate()
            .map(|(i, &p)| u32::from(p & W::bit(c) != W::ZERO) << i)
            .sum();
        Some((c, count))
    }

    fn propagate(&mut self, stats: &mut Stats) -> bool {
        propagate::bits(self, stats)
    }
}
