//! The placements of one half-board, and the diagonals they share with the other half.
//!
//! The top half is rows `0..h`. The bottom half is rows `n-h..n`, searched upside down (its
//! row `n-1` first), so one search serves both. Between them lies the middle row when `n` is
//! odd; its queen is fixed by the task and only blocks squares.
//!
//! A top queen and a bottom queen can only meet on a diagonal that crosses the cut. Every such
//! diagonal of one family meets the top half's last row, so it is named by where it crosses
//! that row, and there are `width` of them per family (`n - 1` for even `n`, `n - 2` for odd
//! `n`). A half-board is summed up by one word: the crossing diagonals it occupies, `width`
//! bits per family, the family the other half must read first in the low bits. A top word `u`
//! and a bottom word `v` make a solution exactly when `u & v == 0` (rows, columns and the
//! diagonals inside each half are settled by the searches).

/// The largest number of rows in a half (boards up to 33 fit the 64-bit words).
pub(super) const MAX_H: usize = 16;

/// The geometry shared by both halves of an `n` board.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    /// Board size.
    pub n: usize,
    /// Rows in each half.
    pub h: usize,
    /// 1 if a middle row separates the halves (odd `n`), else 0.
    pub gap: usize,
    /// Crossing diagonals per family.
    pub width: usize,
}

impl Shape {
    pub fn new(n: usize) -> Shape {
        let gap = n % 2;
        Shape {
            n,
            h: n / 2,
            gap,
            width: n.saturating_sub(1 + gap),
        }
    }

    /// Bits in a half-board's word.
    pub fn bits(&self) -> usize {
        2 * self.width
    }

    /// All columns.
    pub fn full(&self) -> u32 {
        (((1u64) << self.n) - 1) as u32
    }

    /// For odd `n`, the squares in each half's rows attacked by the middle queen in column
    /// `mid`, indexed by distance-ordered row (row `d` is `h - d` rows from the middle).
    pub fn blocked(&self, mid: usize) -> [u32; MAX_H] {
        let mut blocked = [0u32; MAX_H];
        if self.gap == 1 {
            for (d, b) in blocked.iter_mut().enumerate().take(self.h) {
                let dist = self.h - d;
                if mid + dist < self.n {
                    *b |= 1 << (mid + dist);
                }
                if dist <= mid {
                    *b |= 1 << (mid - dist);
                }
            }
        }
        blocked
    }
}

/// Which half a search enumerates; it decides the order of the two families in the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// Rows `0..h`, searched downwards.
    Top,
    /// Rows `n-h..n`, searched upwards.
    Bottom,
}

/// A depth-first search over the placements of one half using exactly the given columns.
///
/// The stack is explicit so that the search can stop after a batch and resume: the join keeps
/// at most a bounded number of top words in memory at once.
pub(super) struct HalfSearch {
    h: usize,
    side: Side,
    /// Where a diagonal bit leaves the half's last row, plus the gap, in `right` coordinates.
    right_skip: u32,
    width: u32,
    word_mask: u64,
    blocked: [u32; MAX_H],
    depth: usize,
    done: bool,
    /// Free squares of each row still to try.
    avail: [u32; MAX_H],
    /// Columns not yet used.
    left: [u32; MAX_H],
    /// Diagonals moving right as the rows go on: bit `c + k` for a queen `k` rows up.
    /// Never truncated, so the bits past the board survive to be read as crossing diagonals.
    up_right: [u64; MAX_H],
    /// Diagonals moving left, offset by `h` so that they never go negative: bit `c - k + h`.
    up_left: [u64; MAX_H],
}

impl HalfSearch {
    pub fn new(shape: &Shape, cols: u32, blocked: &[u32; MAX_H], side: Side) -> HalfSearch {
        let mut s = HalfSearch {
            h: shape.h,
            side,
            right_skip: (shape.h + 1 + shape.gap) as u32,
            width: shape.width as u32,
            word_mask: (1u64 << shape.width) - 1,
            blocked: *blocked,
            depth: 0,
            done: false,
            avail: [0; MAX_H],
            left: [0; MAX_H],
            up_right: [0; MAX_H],
            up_left: [0; MAX_H],
        };
        s.left[0] = cols;
        s.avail[0] = cols & !blocked[0];
        s
    }

    /// The word of the placement whose last queen just went down, from its diagonal masks.
    #[inline(always)]
    fn word(&self, up_right: u64, up_left: u64) -> u64 {
        // A queen `k` rows above the last row crosses it at `c + k` and `c - k`. The other half
        // sees the `c - k` family shifted by the gap and one row more, which `right_skip`
        // removes (and with it every diagonal that leaves the board before the cut).
        let ahead = up_right & self.word_mask;
        let behind = (up_left >> self.right_skip) & self.word_mask;
        match self.side {
            Side::Top => behind | ahead << self.width,
            Side::Bottom => ahead | behind << self.width,
        }
    }

    /// Emits the words of up to `limit` more placements; returns `true` once all are emitted.
    #[inline(always)]
    pub fn run(&mut self, limit: usize, mut emit: impl FnMut(u64)) -> bool {
        if self.done {
            return true;
        }
        if self.h == 0 {
            // The empty half: one placement, using no column.
            self.done = true;
            if self.left[0] == 0 {
                emit(0);
            }
            return true;
        }
        let shift = self.h as u32;
        let mut emitted = 0;
        loop {
            let d = self.depth;
            let avail = self.avail[d];
            if avail == 0 {
                if d == 0 {
                    self.done = true;
                    return true;
                }
                self.depth = d - 1;
                continue;
            }
            let bit = avail & avail.wrapping_neg();
            self.avail[d] = avail ^ bit;
            let right = self.up_right[d] | u64::from(bit);
            let left = self.up_left[d] | u64::from(bit) << shift;
            if d + 1 == self.h {
                emit(self.word(right, left));
                emitted += 1;
                if emitted == limit {
                    return false;
                }
                continue;
            }
            let (right, left) = (right << 1, left >> 1);
            let free = self.left[d] ^ bit;
            self.up_right[d + 1] = right;
            self.up_left[d + 1] = left;
            self.left[d + 1] = free;
            // Truncating to u32 is safe: `free` has no bit at or above n.
            self.avail[d + 1] =
                free & !(right as u32 | (left >> shift) as u32 | self.blocked[d + 1]);
            self.depth = d + 1;
        }
    }
}
