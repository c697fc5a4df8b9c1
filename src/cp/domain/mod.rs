//! Domains: which squares each row can still take, kept up to date as queens come and go.
//!
//! A square `(row, col)` is *available* when its column and both of its diagonals are still
//! free and it is not blocked; a row's domain is its set of available squares. Two boards keep
//! this, behind one [`Board`] trait that search and propagation use:
//!
//! - [`Bits`] for `n <= 128`: each domain is one word (`u64` or `u128`), computed in a few
//!   word operations from three line masks up to 64 columns, stored up to 128. Counting all
//!   solutions for small `n` and deciding hard blocked boards are its job, and it is several
//!   times to forty times faster.
//! - [`General`] for any `n`: counters of domain sizes and column supports, updated in `O(n)`
//!   per queen, linear memory. One solution for `n = 10000` is its job.
//!
//! Both undo by taking queens off again, in the reverse order of placing: the stack of placed
//! rows is the trail.

mod bits;
mod general;
mod lines;
mod stored;

pub(crate) use bits::{Bits, Bits64, Bits128, Domains, Word};
pub(crate) use general::General;
use lines::Lines;
use stored::Stored;

use super::stats::Stats;

/// Marks a row without a queen.
pub(crate) const NONE: u32 = u32::MAX;

/// What search needs from a board: squares, domain sizes, placing with undo, propagation.
pub(crate) trait Board {
    /// The board size.
    fn n(&self) -> usize;
    /// `true` if a queen may still go on `(r, c)`.
    fn available(&self, r: usize, c: usize) -> bool;
    /// The number of available squares of an unassigned row.
    fn size(&self, r: usize) -> u32;
    /// The rows without a queen, in no particular order.
    fn unassigned(&self) -> &[u32];
    /// The column of each row's queen, [`NONE`] where there is none yet.
    fn queens(&self) -> &[u32];
    /// How many queens are placed: a mark to [`undo_to`](Self::undo_to) later.
    fn mark(&self) -> usize;
    /// Puts a queen on the available square `(r, c)` of an unassigned row.
    fn place(&mut self, r: usize, c: usize);
    /// Takes queens off, last first, until `mark` are left.
    fn undo_to(&mut self, mark: usize);
    /// The free column that the fewest unassigned rows can take, and how many can; `None` when
    /// every column holds a queen.
    fn weakest_column(&self) -> Option<(usize, u32)>;
    /// Applies the propagation rules to a fixpoint; `false` if the board has no solution.
    fn propagate(&mut self, stats: &mut Stats) -> bool;
    /// Calls `visit` with each available column of the unassigned row `r`.
    fn each_square(&self, r: usize, visit: impl FnMut(usize));
    /// The first available column of the unassigned row `r` in the order `values` from its
    /// `from`-th entry on, as an index into `values`; `rank` is the inverse of `values` (the
    /// index of each column). This scans `values`; the word boards look only at the row's
    /// few squares instead.
    fn first_in_order(&self, r: usize, values: &[u32], rank: &[u32], from: usize) -> Option<usize> {
        let _ = rank;
        values[from..]
            .iter()
            .position(|&c| self.available(r, c as usize))
            .map(|offset| from + offset)
    }
    /// Whether [`state`](Self::state) describes the board: the search keeps failed states
    /// (`failed.rs`) only then.
    const STATES: bool = false;
    /// Appends the board's state to `out`: each row without a queen (its index, then its
    /// available squares), in the order of the rows.
    fn state(&self, out: &mut Vec<u64>) {
        let _ = out;
    }
}

/// The set of unassigned rows as a sparse set: `order[..len]` holds them, `pos` is the inverse
/// permutation. Removal swaps the row to the end of the live part; because undo is last-in
/// first-out, the row is still there when it comes back, and restoring is `len += 1`.
pub(crate) struct RowSet {
    order: Vec<u32>,
    pos: Vec<u32>,
    len: usize,
}

impl RowSet {
    /// All `n` rows.
    pub(crate) fn new(n: usize) -> Self {
        RowSet {
            order: (0..n as u32).collect(),
            pos: (0..n as u32).collect(),
            len: n,
        }
    }

    /// The number of rows in the set.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The `i`-th row of the set, `i < len()`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> usize {
        self.order[i] as usize
    }

    /// The rows in the set.
    pub(crate) fn as_slice(&self) -> &[u32] {
        &self.order[..self.len]
    }

    /// Takes row `r` out of the set.
    #[inline]
    pub(crate) fn remove(&mut self, r: usize) {
        let p = self.pos[r] as usize;
        let last = self.len - 1;
        self.order.swap(p, last);
        self.pos[self.order[p] as usize] = p as u32;
        self.pos[r] = last as u32;
        self.len = last;
    }

    /// Puts back the row removed last.
    pub(crate) fn restore_last(&mut self) {
        self.len += 1;
    }
}
