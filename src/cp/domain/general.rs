//! The general board, for any `n`: domain sizes and column supports kept as counters.
//!
//! A row's domain is never stored as a list. What search and propagation need from domains is
//! kept as counters: the size of each row's domain, and for each column its *support* (how many
//! unassigned rows can still take it).
//!
//! A queen at `(r, c)` attacks at most three squares in any other row `r2`: `c`, `c + d` and
//! `c - d` with `d = r2 - r`. So placing a queen updates every counter in `O(n)` steps, and
//! removing it again is the same walk backwards. Undo therefore needs no record of removed
//! values: the stack of placed queens is the whole trail, and memory stays linear in `n`
//! (plus one bit per square when squares are blocked).

use super::{Board, NONE, RowSet};
use crate::cp::propagate;
use crate::cp::stats::Stats;
use crate::memory::{self, OutOfMemory};

/// Counters over flag arrays: linear memory, `O(n)` per queen.
pub(crate) struct General {
    n: usize,
    /// 1 when the column, `\` diagonal (`r - c + n - 1`) or `/` diagonal (`r + c`) is taken.
    /// Bytes rather than bits: the hot loop reads single flags at scattered places.
    col: Vec<u8>,
    diag: Vec<u8>,
    anti: Vec<u8>,
    /// One bit per square, row-major; empty when no square is blocked, so the common case
    /// pays one predictable branch.
    blocked: Vec<u64>,
    /// Number of available squares in each unassigned row.
    size: Vec<u32>,
    /// Number of unassigned rows with an available square in each column.
    support: Vec<u32>,
    /// The column of each row's queen, or [`NONE`].
    queen: Vec<u32>,
    rows: RowSet,
    /// Rows placed so far, in order: the trail that undo walks back.
    placed: Vec<u32>,
    /// Rows whose domain shrank to one square or none, and columns whose support shrank to
    /// one row or none: the work list of propagation.
    low_rows: Vec<u32>,
    low_cols: Vec<u32>,
}

impl General {
    /// An empty board of size `n` with the given blocked squares (0-based), or the error if
    /// their bits (`n * n`, 128 MiB for the largest board) cannot be allocated.
    pub(crate) fn new(
        n: usize,
        blocked: impl IntoIterator<Item = (u32, u32)>,
    ) -> Result<Self, OutOfMemory> {
        let mut dom = General {
            n,
            col: vec![0; n],
            diag: vec![0; 2 * n],
            anti: vec![0; 2 * n],
            blocked: Vec::new(),
            size: vec![n as u32; n],
            support: vec![n as u32; n],
            queen: vec![NONE; n],
            rows: RowSet::new(n),
            placed: Vec::with_capacity(n),
            low_rows: Vec::new(),
            low_cols: Vec::new(),
        };
        for (r, c) in blocked {
            if dom.blocked.is_empty() {
                dom.blocked = memory::filled(0, (n * n).div_ceil(64))?;
            }
            let i = r as usize * n + c as usize;
            if dom.blocked[i / 64] >> (i % 64) & 1 == 0 {
                dom.blocked[i / 64] |= 1 << (i % 64);
                dom.size[r as usize] -= 1;
                dom.support[c as usize] -= 1;
            }
        }
        // Blocking alone can empty a row or leave a column one square: let propagation see it.
        dom.low_rows
            .extend((0..n as u32).filter(|&r| dom.size[r as usize] <= 1));
        dom.low_cols
            .extend((0..n as u32).filter(|&c| dom.support[c as usize] <= 1));
        Ok(dom)
    }

    #[inline]
    fn is_blocked(&self, r: usize, c: usize) -> bool {
        if self.blocked.is_empty() {
            return false;
        }
        let i = r * self.n + c;
        self.blocked[i / 64] >> (i % 64) & 1 == 1
    }

    /// The squares of row `r2` that a queen at `(r, c)` takes away, among the available ones.
    /// Three at most, all distinct because `r2 != r`.
    #[inline]
    fn attacked_in(&self, r: usize, c: usize, r2: usize) -> [Option<usize>; 3] {
        let d = r2.abs_diff(r);
        let avail = |x: usize| (x < self.n && self.available(r2, x)).then_some(x);
        [avail(c), avail(c + d), c.checked_sub(d).and_then(avail)]
    }

    /// Removes the most recent queen: exactly the reverse of [`Board::place`].
    fn unplace_last(&mut self) {
        let r = self.placed.pop().expect("undo below the root") as usize;
        let c = self.queen[r] as usize;
        let n = self.n;
        self.queen[r] = NONE;
        self.col[c] = 0;
        self.diag[r + n - 1 - c] = 0;
        self.anti[r + c] = 0;
        for i in 0..self.rows.len() {
            let r2 = self.rows.get(i);
            for x in self.attacked_in(r, c, r2).into_iter().flatten() {
                self.size[r2] += 1;
                self.support[x] += 1;
            }
        }
        self.rows.restore_last();
        for x in 0..n {
            if self.available(r, x) {
                self.support[x] += 1;
            }
        }
    }

    /// The support of a column: how many unassigned rows can still take it.
    pub(crate) fn support(&self, c: usize) -> u32 {
        self.support[c]
    }

    /// `true` if the column already holds a queen.
    pub(crate) fn column_taken(&self, c: usize) -> bool {
        self.col[c] != 0
    }

    /// `true` if the row already holds a queen.
    pub(crate) fn assigned(&self, r: usize) -> bool {
        self.queen[r] != NONE
    }

    /// The next row that became critical (domain of one square or none), if any.
    pub(crate) fn pop_low_row(&mut self) -> Option<usize> {
        self.low_rows.pop().map(|r| r as usize)
    }

    /// The next column that became critical (support of one row or none), if any.
    pub(crate) fn pop_low_col(&mut self) -> Option<usize> {
        self.low_cols.pop().map(|c| c as usize)
    }

    /// Forgets pending propagation work, after a failure.
    pub(crate) fn clear_low(&mut self) {
        self.low_rows.clear();
        self.low_cols.clear();
    }
}

impl Board for General {
    fn n(&self) -> usize {
        self.n
    }

    #[inline]
    fn available(&self, r: usize, c: usize) -> bool {
        let lines = self.col[c] | self.diag[r + self.n - 1 - c] | self.anti[r + c];
        lines == 0 && !self.is_blocked(r, c)
    }

    fn size(&self, r: usize) -> u32 {
        self.size[r]
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
        debug_assert!(!self.assigned(r) && self.available(r, c));
        let n = self.n;
        // The row leaves the unassigned set, so its squares stop supporting their columns.
        for x in 0..n {
            if self.available(r, x) {
                self.support[x] -= 1;
                if self.support[x] <= 1 {
                    self.low_cols.push(x as u32);
                }
            }
        }
        self.rows.remove(r);
        for i in 0..self.rows.len() {
            let r2 = self.rows.get(i);
            for x in self.attacked_in(r, c, r2).into_iter().flatten() {
                self.size[r2] -= 1;
                self.support[x] -= 1;
                if self.support[x] <= 1 {
                    self.low_cols.push(x as u32);
                }
            }
            if self.size[r2] <= 1 {
                self.low_rows.push(r2 as u32);
            }
        }
        self.col[c] = 1;
        self.diag[r + n - 1 - c] = 1;
        self.anti[r + c] = 1;
        self.queen[r] = c as u32;
        self.placed.push(r as u32);
    }

    fn undo_to(&mut self, mark: usize) {
        while self.placed.len() > mark {
            self.unplace_last();
        }
        self.clear_low();
    }

    fn weakest_column(&self) -> Option<(usize, u32)> {
        (0..self.n)
            .filter(|&c| self.col[c] == 0)
            .map(|c| (c, self.support[c]))
            .min_by_key(|&(_, s)| s)
    }

    fn propagate(&mut self, stats: &mut Stats) -> bool {
        propagate::counters(self, stats)
    }

    fn each_square(&self, r: usize, mut visit: impl FnMut(usize)) {
        (0..self.n)
            .filter(|&c| self.available(r, c))
            .for_each(&mut visit);
    }
}
