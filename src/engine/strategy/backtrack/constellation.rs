//! The split of a count into tasks: border **constellations**.
//!
//! Every solution has exactly one queen in the top row, the bottom row, the left column and the
//! right column. Those (at most four) border queens are its *constellation*. The eight symmetries
//! of the square move a solution and its constellation together, so we only search below the
//! canonical constellation of each symmetry class and multiply by the size of its orbit
//! (8, 4 or 2): about an eighth of the work, and the search starts with four queens already
//! pinning the top, bottom and both sides, which prunes early (the idea behind the Q27 project
//! and NQueensFAF).
//!
//! For large boards each constellation is split further by pre-placing the queen of its first
//! free row, so that there are enough tasks to keep any number of cores busy and a checkpoint
//! never loses much.
//!
//! A constellation's *stabiliser* (the symmetries that map it onto itself) says which symmetries
//! a solution below it can have: a solution's symmetries must also fix its border queens. Only
//! constellations with a non-trivial stabiliser need each solution inspected to get the unique
//! count; for all others every solution lies in a class of eight.

use crate::Symmetry;

/// The border queens of a solution: the column of the queen in the top and bottom rows and the
/// row of the queen in the left and right columns. A corner queen appears twice.
///
/// ```
/// use nqueens::engine::strategy::backtrack::constellation::Constellation;
/// // 1 5 8 6 3 7 2 4: the queen in the top left corner is both `top` and `left`.
/// let c = Constellation::of(&[0, 4, 7, 5, 2, 6, 1, 3]);
/// assert_eq!(c, Constellation { top: 0, bottom: 3, left: 0, right: 2 });
/// assert_eq!(c.cells(8), vec![(0, 0), (2, 7), (7, 3)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Constellation {
    /// Column of the queen in row 0.
    pub top: u8,
    /// Column of the queen in row `n - 1`.
    pub bottom: u8,
    /// Row of the queen in column 0.
    pub left: u8,
    /// Row of the queen in column `n - 1`.
    pub right: u8,
}

impl Constellation {
    /// The distinct queens `(row, col)` of this constellation (corners counted once).
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::constellation::Constellation;
    /// // On a 4x4 board every queen of a solution stands on the border.
    /// let c = Constellation::of(&[1, 3, 0, 2]);
    /// assert_eq!(c.cells(4), vec![(0, 1), (1, 3), (2, 0), (3, 2)]);
    /// ```
    pub fn cells(&self, n: usize) -> Vec<(usize, usize)> {
        let mut cells = vec![
            (0, self.top as usize),
            (n - 1, self.bottom as usize),
            (self.left as usize, 0),
            (self.right as usize, n - 1),
        ];
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The constellation of a complete placement (`cols[row]` = column).
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::constellation::Constellation;
    /// let c = Constellation::of(&[1, 3, 0, 2]);
    /// assert_eq!((c.top, c.bottom, c.left, c.right), (1, 2, 2, 1));
    /// ```
    pub fn of(cols: &[u32]) -> Constellation {
        let n = cols.len();
        let row_of = |col: usize| cols.iter().position(|&c| c as usize == col).unwrap_or(0) as u8;
        Constellation {
            top: cols[0] as u8,
            bottom: cols[n - 1] as u8,
            left: row_of(0),
            right: row_of(n - 1),
        }
    }

    /// The image of this constellation under symmetry `g`.
    ///
    /// ```
    /// use nqueens::{engine::strategy::backtrack::constellation::Constellation, Symmetry};
    /// let c = Constellation::of(&[1, 3, 0, 2]);
    /// let mirrored = Constellation::of(&[2, 0, 3, 1]);
    /// assert_eq!(c.transformed(Symmetry::MirrorColumns, 4), mirrored);
    /// assert_eq!(c.transformed(Symmetry::Rotate90, 4), c);
    /// ```
    #[must_use]
    pub fn transformed(&self, g: Symmetry, n: usize) -> Constellation {
        let mut out = *self;
        for (r, c) in self.cells(n) {
            let (r, c) = g.apply(n, r, c);
            // A cell may sit on two border lines (a corner), so every line is checked.
            if r == 0 {
                out.top = c as u8;
            }
            if r == n - 1 {
                out.bottom = c as u8;
            }
            if c == 0 {
                out.left = r as u8;
            }
            if c == n - 1 {
                out.right = r as u8;
            }
        }
        out
    }

    /// The symmetries that map this constellation onto itself (the identity among them).
    ///
    /// ```
    /// use nqueens::{engine::strategy::backtrack::constellation::Constellation, Symmetry};
    /// // The 4x4 solution is its own quarter turn, so its constellation is too.
    /// let c = Constellation::of(&[1, 3, 0, 2]);
    /// assert_eq!(c.stabiliser(4), Symmetry::ALL[..4]);
    /// ```
    pub fn stabiliser(&self, n: usize) -> Vec<Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(|&g| self.transformed(g, n) == *self)
            .collect()
    }

    /// `true` if this is the smallest of its orbit.
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::constellation::Constellation;
    /// assert!(Constellation::of(&[1, 3, 0, 2]).is_canonical(4));
    /// assert!(!Constellation::of(&[2, 0, 3, 1]).is_canonical(4));
    /// ```
    pub fn is_canonical(&self, n: usize) -> bool {
        Symmetry::ALL[1..]
            .iter()
            .all(|&g| self.transformed(g, n) >= *self)
    }

    /// `true` if the four entries describe queens that can share a board: each corner queen is
    /// named by both of its lines and no two queens attack each other.
    fn is_valid(&self, n: usize) -> bool {
        let (t, b, l, r) = (
            self.top as usize,
            self.bottom as usize,
            self.left as usize,
            self.right as usize,
        );
        let m = n - 1;
        if (l == 0) != (t == 0)
            || (l == m) != (b == 0)
            || (r == 0) != (t == m)
            || (r == m) != (b == m)
        {
            return false;
        }
        let cells = self.cells(n);
        cells.iter().enumerate().all(|(i, &(r1, c1))| {
            cells[i + 1..]
                .iter()
                .all(|&(r2, c2)| r1 != r2 && c1 != c2 && r1 + c2 != r2 + c1 && r1 + c1 != r2 + c2)
        })
    }
}

/// The symmetry that turns the board upside down (row `r` to row `n - 1 - r`).
///
/// The smallest constellation of a class has its top queen nearest a corner, where it blocks
/// the least; searched from the top, the first rows would branch freely. Turned upside down,
/// the search starts next to the queens that constrain most, and visits far fewer nodes.
/// Choosing the best of a constellation's orientations per constellation saves little more,
/// and no cheap predictor of it was found (`docs/engine-trials.md`).
const UPSIDE_DOWN: Symmetry = Symmetry::MirrorRows;

/// One constellation of each symmetry class for `n`: the smallest of the class, turned
/// upside down (see `UPSIDE_DOWN` in the source), in increasing order of the smallest.
///
/// ```
/// use nqueens::engine::strategy::backtrack::constellation::constellations;
/// assert_eq!(constellations(1).len(), 1);
/// assert!(constellations(3).is_empty());
/// ```
pub fn constellations(n: usize) -> Vec<Constellation> {
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    for top in 0..n as u8 {
        for bottom in 0..n as u8 {
            for left in 0..n as u8 {
                for right in 0..n as u8 {
                    let c = Constellation {
                        top,
                        bottom,
                        left,
                        right,
                    };
                    if c.is_valid(n) && c.is_canonical(n) {
                        out.push(c.transformed(UPSIDE_DOWN, n));
                    }
                }
            }
        }
    }
    out
}

/// How many free rows below a constellation are pre-placed to split it into more tasks.
///
/// ```
/// use nqueens::engine::strategy::backtrack::constellation::split_depth;
/// assert_eq!((split_depth(19), split_depth(20)), (0, 1));
/// ```
pub fn split_depth(n: usize) -> usize {
    if n >= 20 { 1 } else { 0 }
}

/// The search below one constellation, laid out for the kernel: the rows still needing a queen
/// ("levels"), and for each the columns the border queens leave open.
///
/// ```
/// use nqueens::engine::strategy::backtrack::constellation::{Constellation, Frame};
/// let solution = [0, 4, 7, 5, 2, 6, 1, 3];
/// let frame = Frame::new(8, &Constellation::of(&solution));
/// // Rows 0, 2 and 7 hold border queens; the other five are levels.
/// assert_eq!(&frame.row[..frame.levels], &[1, 3, 4, 5, 6]);
/// // The solution's own queens stand on open columns.
/// assert!((0..5).all(|l| frame.allowed[l] >> solution[frame.row[l] as usize] & 1 == 1));
/// ```
#[derive(Clone, Debug)]
pub struct Frame {
    /// Number of levels (free rows).
    pub levels: usize,
    /// Per level: the columns that no border queen attacks in that row.
    pub allowed: [u32; 32],
    /// Per level: how many rows down the next level lies (1, or more past a border queen's row).
    pub shift: [u32; 32],
    /// Per level: the board row.
    pub row: [u8; 32],
}

impl Frame {
    /// The frame below constellation `c` on an `n` x `n` board (`n <= 32`).
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::{constellation::{Constellation, Frame, Start}, kernel};
    /// // 2 4 1 3 has all its queens on the border: nothing is left to search, one completion.
    /// let frame = Frame::new(4, &Constellation::of(&[1, 3, 0, 2]));
    /// assert_eq!(frame.levels, 0);
    /// assert_eq!(kernel::count(&frame, Start::default()), 1);
    /// ```
    pub fn new(n: usize, c: &Constellation) -> Frame {
        let cells = c.cells(n);
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut frame = Frame {
            levels: 0,
            allowed: [0; 32],
            shift: [1; 32],
            row: [0; 32],
        };
        for r in 0..n {
            if cells.iter().any(|&(qr, _)| qr == r) {
                continue;
            }
            let mut blocked = 0u32;
            for &(qr, qc) in &cells {
                let d = r.abs_diff(qr);
                blocked |= 1 << qc;
                if qc >= d {
                    blocked |= 1 << (qc - d);
                }
                if qc + d < n {
                    blocked |= 1 << (qc + d);
                }
            }
            let level = frame.levels;
            frame.allowed[level] = full & !blocked;
            frame.row[level] = r as u8;
            if level > 0 {
                frame.shift[level - 1] = (r - frame.row[level - 1] as usize) as u32;
            }
            frame.levels += 1;
        }
        frame
    }
}

/// The state of the search at some level: the columns and diagonals taken by queens the search
/// placed (border queens are already folded into [`Frame::allowed`]).
///
/// ```
/// use nqueens::engine::strategy::backtrack::constellation::{constellations, Frame, Start};
/// let frame = Frame::new(8, &constellations(8)[0]);
/// let top = Start::default();
/// let q = top.open(&frame) & top.open(&frame).wrapping_neg(); // the leftmost open column
/// let below = top.place(&frame, q);
/// assert_eq!((below.level, below.cols), (1, q));
/// assert_eq!(below.open(&frame) & q, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// The level to continue from.
    pub level: usize,
    /// Columns taken.
    pub cols: u32,
    /// Diagonals moving one column left per row, as seen on row `level`.
    pub left: u32,
    /// Diagonals moving one column right per row, as seen on row `level`.
    pub right: u32,
}

impl Start {
    /// The columns open at this level.
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::constellation::{constellations, Frame, Start};
    /// let frame = Frame::new(8, &constellations(8)[0]);
    /// // Before any queen is placed, the open columns are what the border queens leave.
    /// assert_eq!(Start::default().open(&frame), frame.allowed[0]);
    /// ```
    pub fn open(&self, frame: &Frame) -> u32 {
        frame.allowed[self.level] & !(self.cols | self.left | self.right)
    }

    /// The state one level down after placing a queen on column bit `q` at this level.
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::constellation::{Constellation, Frame, Start};
    /// let solution = [0, 4, 7, 5, 2, 6, 1, 3];
    /// let frame = Frame::new(8, &Constellation::of(&solution));
    /// let mut s = Start::default();
    /// for l in 0..frame.levels {
    ///     let q = 1 << solution[frame.row[l] as usize];
    ///     assert_ne!(s.open(&frame) & q, 0, "the solution's queen is open at level {l}");
    ///     s = s.place(&frame, q);
    /// }
    /// assert_eq!(s.level, frame.levels);
    /// ```
    #[must_use]
    pub fn place(&self, frame: &Frame, q: u32) -> Start {
        let s = frame.shift[self.level];
        Start {
            level: self.level + 1,
            cols: self.cols | q,
            left: (self.left | q) >> s,
            right: (self.right | q) << s,
        }
    }
}

/// One task: a canonical constellation plus the columns pre-placed in its first free rows.
///
/// ```
/// use nqueens::engine::strategy::backtrack::constellation::{constellations, prefixes, Frame, Task};
/// let frame = Frame::new(20, &constellations(20)[0]);
/// let tasks: Vec<Task> = prefixes(&frame, 1)
///     .into_iter()
///     .map(|(_, prefix)| Task { constellation: 0, depth: 1, prefix })
///     .collect();
/// assert_eq!(tasks.len() as u32, frame.allowed[0].count_ones());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// Index into the constellation list.
    pub constellation: u32,
    /// Number of pre-placed levels.
    pub depth: u8,
    /// Column of the queen pre-placed at each of the first `depth` levels.
    pub prefix: [u8; 2],
}

/// The prefixes of a frame's first `depth` levels that leave the search open, in column order.
///
/// ```
/// use nqueens::engine::strategy::backtrack::constellation::{constellations, prefixes, Frame, Start};
/// use nqueens::engine::strategy::backtrack::kernel;
/// let frame = Frame::new(10, &constellations(10)[0]);
/// // Splitting a search by its first queen changes nothing in the sum.
/// let split: u64 = prefixes(&frame, 1).iter().map(|&(s, _)| kernel::count(&frame, s)).sum();
/// assert_eq!(split, kernel::count(&frame, Start::default()));
/// ```
pub fn prefixes(frame: &Frame, depth: usize) -> Vec<(Start, [u8; 2])> {
    let mut out = vec![(Start::default(), [0u8; 2])];
    for d in 0..depth.min(frame.levels) {
        let mut next = Vec::new();
        for (start, prefix) in out {
            let mut open = start.open(frame);
            while open != 0 {
                let q = open & open.wrapping_neg();
                open ^= q;
                let mut p = prefix;
                p[d] = q.trailing_zeros() as u8;
                next.push((start.place(frame, q), p));
            }
        }
        out = next;
    }
    out
}
