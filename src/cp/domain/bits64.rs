//! The fast board for `n <= 64`: a row's whole domain is one machine word.
//!
//! Taken columns are one `u64`, taken diagonals two `u128` (a board of 64 has 127 of each).
//! Numbering the `\` diagonals by `c - r + n - 1` and the `/` ones by `r + c` makes both line
//! up with the columns after a shift, so the domain of row `r` is
//! `!(cols | diag >> (n - 1 - r) | anti >> r | blocked[r])`: three shifts and four ors, no
//! stored domains and nothing to update in other rows when a queen comes or goes. A queen is
//! three bits; undo clears them (no two queens share a line, so the bits are its own).

use super::{Board, NONE, RowSet};
use crate::cp::propagate;
use crate::cp::stats::Stats;

/// Line masks for boards of at most 64 columns.
pub(crate) struct Bits64 {
    n: usize,
    /// The `n` low bits set: every column of the board.
    full: u64,
    cols: u64,
    diag: u128,
    anti: u128,
    /// Blocked squares of each row, as a column mask.
    blocked: Vec<u64>,
    queen: Vec<u32>,
    rows: RowSet,
    placed: Vec<u32>,
}

impl Bits64 {
    /// The largest board this representation holds.
    pub(crate) const MAX_N: usize = 64;

    /// An empty board of size `n <= 64` with the given blocked squares (0-based).
    pub(crate) fn new(n: usize, blocked: impl IntoIterator<Item = (u32, u32)>) -> Self {
        assert!((1..=Self::MAX_N).contains(&n));
        let mut masks = vec![0u64; n];
        for (r, c) in blocked {
            masks[r as usize] |= 1 << c;
        }
        Bits64 {
            n,
            full: u64::MAX >> (64 - n),
            cols: 0,
            diag: 0,
            anti: 0,
            blocked: masks,
            queen: vec![NONE; n],
            rows: RowSet::new(n),
            placed: Vec::with_capacity(n),
        }
    }

    /// The available squares of row `r`, one bit per column.
    #[inline]
    pub(crate) fn domain(&self, r: usize) -> u64 {
        let d = (self.diag >> (self.n - 1 - r)) as u64;
        let a = (self.anti >> r) as u64;
        self.full & !(self.cols | d | a | self.blocked[r])
    }

    /// The columns without a queen.
    pub(crate) fn free_columns(&self) -> u64 {
        self.full & !self.cols
    }
}

impl Board for Bits64 {
    fn n(&self) -> usize {
        self.n
    }

    #[inline]
    fn available(&self, r: usize, c: usize) -> bool {
        self.domain(r) >> c & 1 == 1
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
        self.cols |= 1 << c;
        self.diag |= 1 << (c + self.n - 1 - r);
        self.anti |= 1 << (r + c);
        self.queen[r] = c as u32;
        self.rows.remove(r);
        self.placed.push(r as u32);
    }

    fn undo_to(&mut self, mark: usize) {
        while self.placed.len() > mark {
            let r = self.placed.pop().expect("above the mark") as usize;
            let c = self.queen[r] as usize;
            self.cols &= !(1 << c);
            self.diag &= !(1 << (c + self.n - 1 - r));
            self.anti &= !(1 << (r + c));
            self.queen[r] = NONE;
            self.rows.restore_last();
        }
    }

    fn weakest_column(&self) -> Option<(usize, u32)> {
        // Column supports as a bit-sliced counter: `planes[i]` holds bit `i` of every column's
        // count, so adding a row's domain is a ripple carry of a few word operations, not one
        // step per column. Seven planes count to 127, enough for 64 rows.
        let mut planes = [0u64; 7];
        for &r in self.rows.as_slice() {
            let mut carry = self.domain(r as usize);
            for p in planes.iter_mut() {
                if carry == 0 {
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
        if least == 0 {
            return None;
        }
        for p in planes.iter().rev() {
            if least & !p != 0 {
                least &= !p;
            }
        }
        let c = least.trailing_zeros() as usize;
        let count = planes
            .iter()
            .enumerate()
            .map(|(i, p)| ((p >> c & 1) as u32) << i)
            .sum();
        Some((c, count))
    }

    fn propagate(&mut self, stats: &mut Stats) -> bool {
        propagate::bits64(self, stats)
    }
}
