//! Stored domains, two words per row, for boards of up to 128 columns.
//!
//! A queen takes its squares out of the other rows by visiting the squares its three lines
//! hold: only those the instance leaves open, listed per line when the board is made. On a
//! board near the phase transition that is a few squares a line, and a domain is then two
//! loads; computing it from line masks meant shifting two double-width diagonal masks into
//! place for each row. Taking the queen off puts back what it took, from a trail of the
//! squares taken; a placed row's domain is kept aside and reads as empty meanwhile, so the
//! queen's own square on each line takes nothing.

use super::Domains;

/// Rows a board of stored domains holds at most.
const ROWS: usize = 128;

pub(crate) struct Stored {
    n: usize,
    /// The available squares of each row, low half first; none while it has its queen.
    /// Visiting a square takes one bit of one half, a one-word shift (a bit of a `u128` is a
    /// double-width shift and two conditional moves), and a fixed number of rows lets a row
    /// number of seven bits index it without a bounds check.
    dom: Box<[[u64; 2]; ROWS]>,
    /// A placed row's domain before its queen, given back when the queen is taken off.
    saved: Vec<[u64; 2]>,
    /// The open squares of each line, as `r << 7 | c`: the `n` columns, then the `2n - 1`
    /// `\` diagonals (`c - r + n - 1`), then the `2n - 1` `/` ones (`r + c`); line `k` is
    /// `open[start[k]..start[k + 1]]`.
    open: Vec<u16>,
    start: Vec<u32>,
    /// The squares the queens took, in order: the first `taken` are live, and each placed
    /// row's first is at `since[r]`.
    took: Vec<u16>,
    taken: usize,
    since: Vec<u32>,
}

/// The row and the column of square `sq` (`r << 7 | c`); the row is under [`ROWS`].
#[inline]
fn square(sq: u16) -> (usize, usize) {
    (usize::from(sq >> 7) % ROWS, usize::from(sq & 127))
}

/// The half of a row and the bit in it of column `c < 128`.
#[inline]
fn half(c: usize) -> (usize, u64) {
    (c >> 6, 1 << (c & 63))
}

fn join([lo, hi]: [u64; 2]) -> u128 {
    u128::from(lo) | u128::from(hi) << 64
}

impl Domains<u128> for Stored {
    fn new(n: usize, open: Vec<u128>) -> Self {
        assert!(n <= ROWS);
        let mut lines = vec![Vec::new(); 5 * n - 2];
        for (r, &o) in open.iter().enumerate() {
            for c in (0..n).filter(|&c| o >> c & 1 != 0) {
                for k in [c, 2 * n - 1 + c - r, 3 * n - 1 + r + c] {
                    lines[k].push((r << 7 | c) as u16);
                }
            }
        }
        let mut start = vec![0];
        for line in &lines {
            start.push(start[start.len() - 1] + line.len() as u32);
        }
        let mut dom = Box::new([[0; 2]; ROWS]);
        for (d, &o) in dom.iter_mut().zip(&open) {
            *d = [o as u64, (o >> 64) as u64];
        }
        Stored {
            n,
            saved: vec![[0; 2]; n],
            dom,
            open: lines.concat(),
            start,
            // A square is taken at most once at a time; one slot more for the write that
            // is not kept (see `place`).
            took: vec![0; n * n + 1],
            taken: 0,
            since: vec![0; n],
        }
    }

    #[inline]
    fn domain(&self, r: usize) -> u128 {
        join(self.dom[r])
    }

    #[inline]
    fn available(&self, r: usize, c: usize) -> bool {
        let (h, bit) = half(c);
        self.dom[r][h] & bit != 0
    }

    #[inline]
    fn place(&mut self, r: usize, c: usize) {
        let Stored {
            n,
            dom,
            saved,
            open,
            start,
            took,
            taken,
            since,
        } = self;
        let n = *n;
        since[r] = *taken as u32;
        saved[r] = dom[r];
        dom[r] = [0; 2];
        for line in [c, 2 * n - 1 + c - r, 3 * n - 1 + r + c] {
            for &sq in &open[start[line] as usize..start[line + 1] as usize] {
                let (r2, c2) = square(sq);
                let (h, bit) = half(c2);
                let gone = dom[r2][h] & bit;
                dom[r2][h] ^= gone;
                // Written always, kept when a square was taken: whether one is, is a coin
                // toss that a branch would keep mispredicting.
                took[*taken] = sq;
                *taken += usize::from(gone != 0);
            }
        }
    }

    #[inline]
    fn take_off(&mut self, r: usize, _c: usize) {
        let since = self.since[r] as usize;
        for &sq in &self.took[since..self.taken] {
            let (r2, c2) = square(sq);
            let (h, bit) = half(c2);
            self.dom[r2][h] |= bit;
        }
        self.taken = since;
        self.dom[r] = self.saved[r];
    }

    #[inline]
    fn remove(&mut self, r: usize, c: usize) {
        let (h, bit) = half(c);
        self.dom[r][h] &= !bit;
    }

    #[inline]
    fn restore(&mut self, r: usize, c: usize) {
        let (h, bit) = half(c);
        self.dom[r][h] |= bit;
    }
}
