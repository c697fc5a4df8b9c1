//! Counting the solutions that a rotation of the board leaves unchanged.
//!
//! The unique count (solutions up to the 8 symmetries of the square) follows from Burnside's
//! lemma: the number of classes is the average, over the 8 symmetries, of the number of
//! solutions each one leaves unchanged:
//!
//! ```text
//! unique = (total + 2·R + P + 4·F) / 8
//! ```
//!
//! - `total`: every solution is unchanged by the identity;
//! - `R`: solutions unchanged by a quarter turn (the 90° and 270° rotations fix the same ones);
//! - `P`: solutions unchanged by a half turn (180°), a superset of `R`;
//! - `F`: solutions unchanged by a reflection. For `n > 1` there are none: a solution that a
//!   diagonal reflection keeps has its queens in pairs `(r, c)`, `(c, r)` on one anti-diagonal,
//!   and one that a mirror keeps has all queens in the middle column. Only the lone queen of
//!   `n = 1` is kept by all four reflections ([`reflection_fixed`]).
//!
//! `P` and `R` are small and cheap to count: a symmetric solution is fixed by the queens of
//! about half (`P`) or a quarter (`R`) of the rows, since the rotation places all the others.
//! The search below places a queen together with its whole orbit under the rotation, always in
//! the lowest empty row, so it never branches on a row it could have deduced.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::Symmetry;

/// A rotation of the board about its centre: which symmetric solutions a count is of.
///
/// ```
/// use nqueens::engine::strategy::symmetric::{count, Turn};
/// // Both solutions for n = 4 are unchanged by a quarter turn, so by a half turn too.
/// assert_eq!((count(4, Turn::Quarter), count(4, Turn::Half)), (2, 2));
/// // Burnside: (total + P + 2R) / 8 = (2 + 2 + 2 * 2) / 8 = 1 class.
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// 180 degrees: the square `(r, c)` goes to `(n-1-r, n-1-c)`.
    Half,
    /// 90 degrees: the square `(r, c)` goes to `(c, n-1-r)`.
    Quarter,
}

impl Turn {
    /// The board symmetry this turn is.
    ///
    /// ```
    /// use nqueens::{engine::strategy::symmetric::Turn, Symmetry};
    /// assert_eq!(Turn::Half.symmetry(), Symmetry::Rotate180);
    /// ```
    pub fn symmetry(self) -> Symmetry {
        match self {
            Turn::Half => Symmetry::Rotate180,
            Turn::Quarter => Symmetry::Rotate90,
        }
    }

    /// The images of `(r, c)` under the powers of this turn, `(r, c)` first; `len` of them
    /// are distinct squares unless the square is the centre.
    fn orbit(self, n: usize, r: usize, c: usize) -> ([(usize, usize); 4], usize) {
        let turn = |(r, c): (usize, usize)| self.symmetry().apply(n, r, c);
        let mut images = [(r, c); 4];
        let len = match self {
            Turn::Half => 2,
            Turn::Quarter => 4,
        };
        for i in 1..len {
            images[i] = turn(images[i - 1]);
        }
        (images, len)
    }
}

/// The largest board the symmetric counter handles (diagonals fit in a `u64`).
pub const MAX_N: usize = 32;

/// Counts the solutions unchanged by `turn` whose queen in row 0 stands in column `first`.
///
/// Summing over `first` in `0..n` gives [`count`]; the split lets the engine make one task per
/// column.
///
/// ```
/// use nqueens::engine::strategy::symmetric::{count_from, Turn};
/// // The two solutions of n = 4 are each unchanged by a quarter turn.
/// assert_eq!(count_from(4, Turn::Quarter, 1) + count_from(4, Turn::Quarter, 2), 2);
/// assert_eq!(count_from(4, Turn::Quarter, 0), 0);
/// ```
pub fn count_from(n: usize, turn: Turn, first: usize) -> u64 {
    count_from_unless_stopped(n, turn, first, &AtomicBool::new(false))
}

/// [`count_from`] that returns early once `stop` is set, with a count to be thrown away.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::strategy::symmetric::{count_from, count_from_unless_stopped, Turn};
/// let go = AtomicBool::new(false);
/// assert_eq!(count_from_unless_stopped(10, Turn::Half, 3, &go), count_from(10, Turn::Half, 3));
/// ```
pub fn count_from_unless_stopped(n: usize, turn: Turn, first: usize, stop: &AtomicBool) -> u64 {
    assert!(
        (1..=MAX_N).contains(&n) && first < n,
        "n or column out of range"
    );
    let board = Board {
        n,
        rows: 0,
        cols: 0,
        diag: 0,
        anti: 0,
    };
    match board.place_orbit(turn, 0, first) {
        Some(next) => next.count(turn, stop),
        None => 0,
    }
}

/// Counts the solutions for `n` unchanged by `turn`.
///
/// ```
/// use nqueens::engine::strategy::symmetric::{count, Turn};
/// assert_eq!(count(8, Turn::Half), 4);
/// assert_eq!(count(8, Turn::Quarter), 0);
/// ```
pub fn count(n: usize, turn: Turn) -> u64 {
    (0..n).map(|first| count_from(n, turn, first)).sum()
}

/// Counts the solutions unchanged by `turn` that hold every queen of `queens` (squares
/// `(row, col)`), or 0 if those queens and their images under `turn` attack each other. With
/// `stop` set it returns early, with a count to be thrown away.
///
/// The Backtrack strategy asks this of its tasks whose border queens a rotation maps onto
/// themselves: it counts their symmetric completions, which the unique count needs, without
/// building every completion.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::strategy::symmetric::{count, count_holding, Turn};
/// let go = AtomicBool::new(false);
/// // No queen given: every symmetric solution.
/// assert_eq!(count_holding(8, Turn::Half, &[], &go), count(8, Turn::Half));
/// // 2 4 1 3 is its own quarter turn; a queen of it given, it is the only one.
/// assert_eq!(count_holding(4, Turn::Quarter, &[(0, 1)], &go), 1);
/// assert_eq!(count_holding(4, Turn::Quarter, &[(0, 0)], &go), 0);
/// ```
pub fn count_holding(n: usize, turn: Turn, queens: &[(usize, usize)], stop: &AtomicBool) -> u64 {
    assert!((1..=MAX_N).contains(&n), "n out of range");
    let mut board = Board {
        n,
        rows: 0,
        cols: 0,
        diag: 0,
        anti: 0,
    };
    let mut squares: Vec<(usize, usize)> = Vec::new();
    for &(r, c) in queens {
        assert!(r < n && c < n, "a queen off the board");
        let (orbit, len) = turn.orbit(n, r, c);
        squares.extend_from_slice(&orbit[..len]);
    }
    squares.sort_unstable();
    squares.dedup();
    for (r, c) in squares {
        match board.place(r, c) {
            Some(next) => board = next,
            None => return 0,
        }
    }
    board.count(turn, stop)
}

/// The number of solutions that a reflection leaves unchanged: 1 for `n = 1`, else 0.
///
/// The module docs give the reason; the engine adds `4 ×` this to its Burnside sum.
///
/// ```
/// assert_eq!(nqueens::engine::strategy::symmetric::reflection_fixed(1), 1);
/// assert_eq!(nqueens::engine::strategy::symmetric::reflection_fixed(8), 0);
/// ```
pub fn reflection_fixed(n: usize) -> u64 {
    u64::from(n == 1)
}

/// Queens placed so far: used rows and columns, and both diagonal families as full-board
/// bitmasks (`r + c` and `r - c + n - 1`), so an orbit's far squares are checked as easily as
/// its first one.
#[derive(Clone, Copy)]
struct Board {
    n: usize,
    rows: u32,
    cols: u32,
    diag: u64,
    anti: u64,
}

impl Board {
    /// Places the queen `(r, c)` and its images, or `None` if any of them is attacked.
    fn place_orbit(mut self, turn: Turn, r: usize, c: usize) -> Option<Board> {
        let (squares, len) = turn.orbit(self.n, r, c);
        // The centre is its own image: one queen, not an orbit of copies attacking each other.
        let len = if squares[1] == squares[0] { 1 } else { len };
        for &(r, c) in &squares[..len] {
            self = self.place(r, c)?;
        }
        Some(self)
    }

    /// Places the one queen `(r, c)`, or `None` if it is attacked.
    fn place(mut self, r: usize, c: usize) -> Option<Board> {
        let (row, col) = (1u32 << r, 1u32 << c);
        let (d, a) = (1u64 << (r + c), 1u64 << (r + self.n - 1 - c));
        if self.rows & row != 0 || self.cols & col != 0 || self.diag & d != 0 || self.anti & a != 0
        {
            return None;
        }
        self.rows |= row;
        self.cols |= col;
        self.diag |= d;
        self.anti |= a;
        Some(self)
    }

    /// Counts the ways to complete this board symmetrically.
    fn count(self, turn: Turn, stop: &AtomicBool) -> u64 {
        // One load per node: small beside the node's own work, and the search of one task
        // can take minutes at n = 24.
        if stop.load(Ordering::Relaxed) {
            return 0;
        }
        let full = if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        };
        if self.rows == full {
            return 1;
        }
        let r = (!self.rows).trailing_zeros() as usize;
        // Row `r`'s squares off the queens' columns and diagonals: only they are tried, as
        // most of the others would fail `place_orbit`'s first test. Column `c` lies on `diag`
        // bit `r + c` and on `anti` bit `r + n - 1 - c`, so that family's bits are reversed.
        let anti = ((self.anti >> r) as u32 & full).reverse_bits() >> (32 - self.n);
        let mut free = full & !self.cols & !((self.diag >> r) as u32) & !anti;
        let mut total = 0;
        while free != 0 {
            let c = free.trailing_zeros() as usize;
            free &= free - 1;
            if let Some(next) = self.place_orbit(turn, r, c) {
                total += next.count(turn, stop);
            }
        }
        total
    }
}
