//! Stored domains, a word per row, for boards of up to 128 columns.
//!
//! A queen takes its squares out of the other rows by visiting the squares its three lines
//! hold: only those the instance leaves open, listed per line when the board is made. On a
//! board near the phase transition that is a few squares a line, and a domain is then one
//! load; computing it from line masks meant shifting two double-width diagonal masks into
//! place for each row. Taking the queen off puts back what it took, from a trail of the
//! squares taken; a placed row's domain is kept aside and reads as empty meanwhile, so the
//! queen's own square on each line takes nothing.

use super::{Domains, Word};

pub(crate) struct Stored<W: Word> {
    n: usize,
    /// The available squares of each row; none while it has its queen.
    dom: Vec<W>,
    /// A placed row's domain before its queen, given back when the queen is taken off.
    saved: Vec<W>,
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

impl<W: Word> Domains<W> for Stored<W> {
    fn new(n: usize, open: Vec<W>) -> Self {
        let mut lines = vec![Vec::new(); 5 * n - 2];
        for (r, &o) in open.iter().enumerate() {
            for c in (0..n).filter(|&c| o & W::bit(c) != W::ZERO) {
                for k in [c, 2 * n - 1 + c - r, 3 * n - 1 + r + c] {
                    lines[k].push((r << 7 | c) as u16);
                }
            }
        }
        let mut start = vec![0];
        for line in &lines {
            start.push(start[start.len() - 1] + line.len() as u32);
        }
        Stored {
            n,
            saved: vec![W::ZERO; n],
            dom: open,
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
    fn domain(&self, r: usize) -> W {
        self.dom[r]
    }

    #[inline]
    fn available(&self, r: usize, c: usize) -> bool {
        self.dom[r] & W::bit(c) != W::ZERO
    }

    #[inline]
    fn place(&mut self, r: usize, c: usize) {
        self.since[r] = self.taken as u32;
        self.saved[r] = self.dom[r];
        self.dom[r] = W::ZERO;
        let n = self.n;
        for line in [c, 2 * n - 1 + c - r, 3 * n - 1 + r + c] {
            for k in self.start[line] as usize..self.start[line + 1] as usize {
                let sq = self.open[k];
                let r2 = usize::from(sq >> 7);
                let took = self.dom[r2] & W::bit(usize::from(sq & 127));
                self.dom[r2] ^= took;
                // Written always, kept when a square was taken: whether one is, is a coin
                // toss that a branch would keep mispredicting.
                self.took[self.taken] = sq;
                self.taken += usize::from(took != W::ZERO);
            }
        }
    }

    #[inline]
    fn take_off(&mut self, r: usize, _c: usize) {
        let since = self.since[r] as usize;
        for &sq in &self.took[since..self.taken] {
            self.dom[usize::from(sq >> 7)] |= W::bit(usize::from(sq & 127));
        }
        self.taken = since;
        self.dom[r] = self.saved[r];
    }

    #[inline]
    fn remove(&mut self, r: usize, c: usize) {
        self.dom[r] &= !W::bit(c);
    }

    #[inline]
    fn restore(&mut self, r: usize, c: usize) {
        self.dom[r] |= W::bit(c);
    }
}
