//! Stored domains, two words per row, for boards of up to 128 columns.
//!
//! A queen takes its squares out of the other rows by visiting the squares its two diagonals
//! hold: only those the instance leaves open, listed per diagonal when the board is made. On
//! a board near the phase transition that is a few squares a diagonal, and a domain is then
//! two loads; computing it from line masks meant shifting two double-width diagonal masks
//! into place for each row. Columns are one mask of the taken ones, cleared from a domain
//! when it is read: a column holds the most open squares of a queen's three lines, and one
//! more operation a read costs less than visiting them at every queen placed and taken off
//! (docs/completion.md). Taking the queen off puts back what it took, from a trail of the
//! squares taken; a placed row's domain is kept aside and reads as empty meanwhile, so the
//! queen's own square on each diagonal takes nothing.

use super::Domains;

/// Rows a board of stored domains holds at most.
const ROWS: usize = 128;

pub(crate) struct Stored {
    n: usize,
    /// The squares of each row that no diagonal's queen takes, not blocked and not removed,
    /// low half first; none while it has its queen. Visiting a square takes one bit of one
    /// half, a one-word shift (a bit of a `u128` is a double-width shift and two conditional
    /// moves), and a fixed number of rows lets a row number of seven bits index it without a
    /// bounds check. Row `r`'s halves are words `2r` and `2r + 1`, so square `r << 7 | c`
    /// is in word `(r << 7 | c) >> 6`: the list of a diagonal's squares gives each one's word
    /// in one shift.
    dom: Box<[u64; 2 * ROWS]>,
    /// The columns with a queen, low half first: a row's domain is its `dom` without them.
    cols: [u64; 2],
    /// A placed row's domain before its queen, given back when the queen is taken off.
    saved: Vec<[u64; 2]>,
    /// The open squares of each diagonal, as `r << 7 | c`: the `2n - 1` `\` diagonals
    /// (`c - r + n - 1`), then the `2n - 1` `/` ones (`r + c`); diagonal `k` is
    /// `open[start[k]..start[k + 1]]`.
    open: Vec<u16>,
    start: Vec<u32>,
    /// The squares the queens took, in order: the first `taken` are live, and each placed
    /// row's first is at `since[r]`.
    took: Vec<u16>,
    taken: usize,
    since: Vec<u32>,
}

/// The word of `dom` that holds square `sq` (`r << 7 | c`, the row under [`ROWS`]), and its
/// bit there.
#[inline]
fn word(sq: u16) -> (usize, u64) {
    (usize::from(sq >> 6) % (2 * ROWS), 1 << (sq & 63))
}

/// The half of a row and the bit in it of column `c < 128`.
#[inline]
fn half(c: usize) -> (usize, u64) {
    (c >> 6, 1 << (c & 63))
}

/// The word of `dom` that holds the low half of row `r`.
#[inline]
fn low(r: usize) -> usize {
    2 * (r % ROWS)
}

fn join([lo, hi]: [u64; 2]) -> u128 {
    u128::from(lo) | u128::from(hi) << 64
}

impl Domains<u128> for Stored {
    fn new(n: usize, open: Vec<u128>) -> Self {
        assert!(n <= ROWS);
        let mut lines = vec![Vec::new(); 4 * n - 2];
        for (r, &o) in open.iter().enumerate() {
            for c in (0..n).filter(|&c| o >> c & 1 != 0) {
                for k in [c + n - 1 - r, 2 * n - 1 + r + c] {
                    lines[k].push((r << 7 | c) as u16);
                }
            }
        }
        let mut start = vec![0];
        for line in &lines {
            start.push(start[start.len() - 1] + line.len() as u32);
        }
        let mut dom = Box::new([0; 2 * ROWS]);
        for (d, &o) in dom.chunks_exact_mut(2).zip(&open) {
            d.copy_from_slice(&[o as u64, (o >> 64) as u64]);
        }
        Stored {
            n,
            saved: vec![[0; 2]; n],
            dom,
            cols: [0; 2],
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
        let w = low(r);
        join([self.dom[w] & !self.cols[0], self.dom[w + 1] & !self.cols[1]])
    }

    #[inline]
    fn taken_columns(&self) -> u128 {
        join(self.cols)
    }

    #[inline]
    fn available(&self, r: usize, c: usize) -> bool {
        let (h, bit) = half(c);
        self.dom[low(r) + h] & !self.cols[h] & bit != 0
    }

    #[inline]
    fn place(&mut self, r: usize, c: usize) {
        let Stored {
            n,
            dom,
            cols,
            saved,
            open,
            start,
            took,
            taken,
            since,
        } = self;
        let n = *n;
        since[r] = *taken as u32;
        let w = low(r);
        saved[r] = [dom[w], dom[w + 1]];
        dom[w..w + 2].fill(0);
        let (h, bit) = half(c);
        cols[h] |= bit;
        for line in [c + n - 1 - r, 2 * n - 1 + r + c] {
            for &sq in &open[start[line] as usize..start[line + 1] as usize] {
                let (w, bit) = word(sq);
                let gone = dom[w] & bit;
                dom[w] ^= gone;
                // Written always, kept when a square was taken: whether one is, is a coin
                // toss that a branch would keep mispredicting.
                took[*taken] = sq;
                *taken += usize::from(gone != 0);
            }
        }
    }

    #[inline]
    fn take_off(&mut self, r: usize, c: usize) {
        let (h, bit) = half(c);
        self.cols[h] &= !bit;
        let since = self.since[r] as usize;
        for &sq in &self.took[since..self.taken] {
            let (w, bit) = word(sq);
            self.dom[w] |= bit;
        }
        self.taken = since;
        let w = low(r);
        self.dom[w..w + 2].copy_from_slice(&self.saved[r]);
    }

    #[inline]
    fn remove(&mut self, r: usize, c: usize) {
        let (h, bit) = half(c);
        self.dom[low(r) + h] &= !bit;
    }

    #[inline]
    fn restore(&mut self, r: usize, c: usize) {
        let (h, bit) = half(c);
        self.dom[low(r) + h] |= bit;
    }
}
