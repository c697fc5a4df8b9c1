//! The word boards for `n <= 128`: a row's whole domain is one machine word (`u64` up to 64
//! columns, `u128` up to 128).
//!
//! The word chooses how the domains are kept ([`Word::Domains`]): up to 64 columns they are
//! computed from line masks when asked for ([`Lines`]), a few word operations; up to 128
//! they are stored ([`Stored`]), because computing one there means shifting two
//! double-width diagonal masks into place for every row a propagation pass reads
//! (docs/completion.md). Either way the rest of the board (queens, the row set, the trail,
//! the column supports) is this file's, and searches see one type.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shr};

use super::{Board, Lines, NONE, RowSet, Stored};
use crate::cp::propagate;
use crate::cp::stats::Stats;
use crate::engine::cpu::{Avx2, Isa};

/// A machine word holding one bit per column: `u64` or `u128`.
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
    /// How a board of this word keeps its rows' domains.
    type Domains: Domains<Self>;
    /// The `n` low bits.
    fn low(n: usize) -> Self;
    /// The single bit `i`.
    fn bit(i: usize) -> Self;
    /// The set bits, counted by the `popcnt` instruction where `cpu` proves the CPU has it.
    fn count_ones(self, cpu: Option<Avx2>) -> u32;
    fn trailing_zeros(self) -> u32;
    /// `self` with its lowest set bit cleared (`self & (self - 1)`); zero stays zero.
    fn clear_lowest(self) -> Self;
    /// Appends the word to `out`, as one or two `u64`s.
    fn push_to(self, out: &mut Vec<u64>);
}

/// The rows' domains of a word board, as queens come and go (last in, first out) and
/// no-good learning removes squares and puts them back.
pub(crate) trait Domains<W: Word> {
    /// The domains of an empty board of `n` rows whose open (not blocked) squares are `open`.
    fn new(n: usize, open: Vec<W>) -> Self;
    /// The available squares of the unassigned row `r`.
    fn domain(&self, r: usize) -> W;
    /// `true` if square `(r, c)` of the unassigned row `r` is available.
    fn available(&self, r: usize, c: usize) -> bool;
    /// The columns with a queen.
    fn taken_columns(&self) -> W;
    /// A queen goes on the available square `(r, c)`.
    fn place(&mut self, r: usize, c: usize);
    /// The queen placed last, on `(r, c)`, is taken off.
    fn take_off(&mut self, r: usize, c: usize);
    /// The available square `(r, c)` of an unassigned row is no longer available.
    fn remove(&mut self, r: usize, c: usize);
    /// The last square removed, `(r, c)`, is available again: every queen placed since it
    /// was removed is taken off.
    fn restore(&mut self, r: usize, c: usize);
}

impl Word for u64 {
    const BITS: usize = 64;
    const ZERO: Self = 0;
    type Domains = Lines;
    #[inline]
    fn low(n: usize) -> Self {
        u64::MAX >> (64 - n)
    }
    #[inline]
    fn bit(i: usize) -> Self {
        1 << i
    }
    #[inline]
    fn count_ones(self, cpu: Option<Avx2>) -> u32 {
        match cpu {
            Some(cpu) => cpu.popcnt(self),
            None => self.count_ones(),
        }
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline]
    fn clear_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }

    fn push_to(self, out: &mut Vec<u64>) {
        out.push(self);
    }
}

impl Word for u128 {
    const BITS: usize = 128;
    const ZERO: Self = 0;
    type Domains = Stored;
    #[inline]
    fn low(n: usize) -> Self {
        u128::MAX >> (128 - n)
    }
    #[inline]
    fn bit(i: usize) -> Self {
        1 << i
    }
    #[inline]
    fn count_ones(self, cpu: Option<Avx2>) -> u32 {
        match cpu {
            Some(cpu) => cpu.popcnt(self as u64) + cpu.popcnt((self >> 64) as u64),
            None => self.count_ones(),
        }
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline]
    fn clear_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }

    fn push_to(self, out: &mut Vec<u64>) {
        // The low and the high half, each kept whole.
        out.extend([self as u64, (self >> 64) as u64]);
    }
}

/// A board of at most `W::BITS` columns.
pub(crate) struct Bits<W: Word> {
    n: usize,
    /// The `n` low bits set: every column of the board.
    full: W,
    domains: W::Domains,
    queen: Vec<u32>,
    rows: RowSet,
    placed: Vec<u32>,
    /// Whether domain sizes are counted by `popcnt`: the row choice counts every open row's
    /// domain at every node (`docs/completion.md`).
    cpu: Option<Avx2>,
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
        let full = W::low(n);
        let mut open = vec![full; n];
        for (r, c) in blocked {
            open[r as usize] &= !W::bit(c as usize);
        }
        Bits {
            n,
            full,
            domains: W::Domains::new(n, open),
            queen: vec![NONE; n],
            rows: RowSet::new(n),
            placed: Vec::with_capacity(n),
            cpu: Avx2::for_isa(Isa::chosen()),
        }
    }

    /// The available squares of the unassigned row `r`, one bit per column.
    #[inline]
    pub(crate) fn domain(&self, r: usize) -> W {
        self.domains.domain(r)
    }

    /// The columns without a queen.
    pub(crate) fn free_columns(&self) -> W {
        self.full & !self.domains.taken_columns()
    }

    /// The rows with a queen, in the order they were placed: the trail.
    pub(crate) fn placed(&self) -> &[u32] {
        &self.placed
    }

    /// Reads the domains of the unassigned rows from the `i`-th on, gathering the columns
    /// one row can take in `once` and those two or more can in `twice`, until a row of one
    /// square or none: its place among the unassigned rows, the row and its domain. `None`
    /// when every row from the `i`-th on has two squares or more.
    ///
    /// Propagation's sweep, the search's hottest loop: it borrows the board only to read, so
    /// the row list and the line masks stay in registers across the rows.
    #[inline]
    pub(crate) fn sweep(&self, i: usize, once: &mut W, twice: &mut W) -> Option<(usize, usize, W)> {
        let rows = self.rows.as_slice();
        let (mut o, mut t) = (*once, *twice);
        let mut found = None;
        for (at, &r) in rows.iter().enumerate().skip(i) {
            let m = self.domain(r as usize);
            // Clearing the lowest bit leaves zero: one square or none.
            if m.clear_lowest() == W::ZERO {
                found = Some((at, r as usize, m));
                break;
            }
            t |= o & m;
            o |= m;
        }
        (*once, *twice) = (o, t);
        found
    }

    /// Removes the available square `(r, c)` of an unassigned row, as a blocked square is:
    /// no-good learning removes a square it has proved useless under the queens placed.
    #[inline]
    pub(crate) fn remove_square(&mut self, r: usize, c: usize) {
        debug_assert!(self.queen[r] == NONE && self.available(r, c));
        self.domains.remove(r, c);
    }

    /// Puts back the square removed last, once every queen placed since it was removed is
    /// taken off.
    #[inline]
    pub(crate) fn restore_square(&mut self, r: usize, c: usize) {
        debug_assert!(self.queen[r] == NONE);
        self.domains.restore(r, c);
    }
}

impl<W: Word> Board for Bits<W> {
    fn n(&self) -> usize {
        self.n
    }

    #[inline]
    fn available(&self, r: usize, c: usize) -> bool {
        self.domains.available(r, c)
    }

    fn size(&self, r: usize) -> u32 {
        self.domain(r).count_ones(self.cpu)
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
        self.domains.place(r, c);
        self.queen[r] = c as u32;
        self.rows.remove(r);
        self.placed.push(r as u32);
    }

    fn undo_to(&mut self, mark: usize) {
        while self.placed.len() > mark {
            let r = self.placed.pop().expect("above the mark") as usize;
            let c = self.queen[r] as usize;
            self.domains.take_off(r, c);
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

    const STATES: bool = true;

    fn state(&self, out: &mut Vec<u64>) {
        for (r, &q) in self.queen.iter().enumerate() {
            if q == NONE {
                out.push(r as u64);
                self.domain(r).push_to(out);
            }
        }
    }

    fn first_in_order(&self, r: usize, _: &[u32], rank: &[u32], from: usize) -> Option<usize> {
        // A row near the phase transition has a few squares out of up to 128 columns: the
        // smallest rank among them, not a scan of the order.
        let mut d = self.domain(r);
        let mut best = u32::MAX;
        while d != W::ZERO {
            let k = rank[d.trailing_zeros() as usize];
            if k as usize >= from {
                best = best.min(k);
            }
            d = d.clear_lowest();
        }
        (best != u32::MAX).then_some(best as usize)
    }

    fn each_square(&self, r: usize, mut visit: impl FnMut(usize)) {
        let mut d = self.domain(r);
        while d != W::ZERO {
            visit(d.trailing_zeros() as usize);
            d = d.clear_lowest();
        }
    }
}
