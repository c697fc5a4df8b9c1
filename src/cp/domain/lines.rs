//! Domains computed from line masks, for boards of up to 64 columns.
//!
//! Taken columns are one word, taken diagonals two double-width words (a board of 64 has 127
//! of each). Numbering the `\` diagonals by `c - r + n - 1` and the `/` ones by `r + c`
//! makes both line up with the columns after a shift, so the domain of row `r` is
//! `!(cols | diag >> (n - 1 - r) | anti >> r | blocked[r])`: three shifts and four ors, and
//! nothing to update in other rows when a queen comes or goes. A queen is three bits; taking
//! it off clears them (no two queens share a line, so the bits are its own).

use super::Domains;

pub(crate) struct Lines {
    n: usize,
    /// The `n` low bits set: every column of the board.
    full: u64,
    cols: u64,
    diag: u128,
    anti: u128,
    /// The squares of each row that are blocked or removed, as a column mask.
    blocked: Vec<u64>,
}

impl Lines {
    /// Flips the three line bits of a queen at `(r, c)`: places it or takes it off.
    #[inline]
    fn toggle(&mut self, r: usize, c: usize) {
        self.cols ^= 1 << c;
        self.diag ^= 1 << (c + self.n - 1 - r);
        self.anti ^= 1 << (r + c);
    }
}

impl Domains<u64> for Lines {
    fn new(n: usize, open: Vec<u64>) -> Self {
        let full = u64::MAX >> (64 - n);
        Lines {
            n,
            full,
            cols: 0,
            diag: 0,
            anti: 0,
            blocked: open.into_iter().map(|o| full & !o).collect(),
        }
    }

    #[inline]
    fn domain(&self, r: usize) -> u64 {
        // Both shifts are under 64 (`n <= 64`); saying so makes each one double-word shift
        // instruction, without the test and moves of a shift that may pass 64.
        let d = (self.diag >> ((self.n - 1 - r) & 63)) as u64;
        let a = (self.anti >> (r & 63)) as u64;
        self.full & !(self.cols | d | a | self.blocked[r])
    }

    #[inline]
    fn taken_columns(&self) -> u64 {
        self.cols
    }

    #[inline]
    fn available(&self, r: usize, c: usize) -> bool {
        self.domain(r) & 1 << c != 0
    }

    #[inline]
    fn place(&mut self, r: usize, c: usize) {
        self.toggle(r, c);
    }

    #[inline]
    fn take_off(&mut self, r: usize, c: usize) {
        self.toggle(r, c);
    }

    // Only an available square is removed, so the bit is its own.
    #[inline]
    fn remove(&mut self, r: usize, c: usize) {
        self.blocked[r] ^= 1 << c;
    }

    #[inline]
    fn restore(&mut self, r: usize, c: usize) {
        self.blocked[r] ^= 1 << c;
    }
}
