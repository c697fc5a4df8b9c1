//! The 8 symmetries of the square board: the one type every part of the crate uses for them
//! (placements, the engine's constellations and its rotation counts).

/// One of the 8 symmetries of the square board (the dihedral group of order 8).
///
/// Each is a quarter-turn count and an optional mirror: the mirror (left-right, column `c` to
/// `n - 1 - c`) is applied first, then the board is turned clockwise. That pair makes
/// composition and inverses simple arithmetic.
///
/// ```
/// use nqueens::Symmetry;
/// assert_eq!(Symmetry::Rotate90.then(Symmetry::Rotate270), Symmetry::Identity);
/// assert_eq!(Symmetry::Transpose.inverse(), Symmetry::Transpose);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// Leave the board as it is.
    Identity,
    /// Turn a quarter clockwise.
    Rotate90,
    /// Turn half way round.
    Rotate180,
    /// Turn a quarter counter-clockwise.
    Rotate270,
    /// Mirror left-right: column `c` becomes `n - 1 - c`.
    MirrorColumns,
    /// Mirror top-bottom: row `r` becomes `n - 1 - r`.
    MirrorRows,
    /// Mirror in the main diagonal: row and column swap.
    Transpose,
    /// Mirror in the other diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries, the identity first.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use nqueens::{Placement, Symmetry};
    /// // 1 5 8 6 3 7 2 4 has no symmetry: its 8 images are 8 different solutions.
    /// let p = Placement::from_one_based(&[1, 5, 8, 6, 3, 7, 2, 4]).unwrap();
    /// let images: HashSet<Placement> = Symmetry::ALL.map(|g| p.transform(g).unwrap()).into();
    /// assert_eq!(images.len(), 8);
    /// assert!(images.iter().all(Placement::is_solution));
    /// ```
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// This symmetry as (clockwise quarter turns, mirror first).
    fn parts(self) -> (u8, bool) {
        match self {
            Symmetry::Identity => (0, false),
            Symmetry::Rotate90 => (1, false),
            Symmetry::Rotate180 => (2, false),
            Symmetry::Rotate270 => (3, false),
            Symmetry::MirrorColumns => (0, true),
            Symmetry::AntiTranspose => (1, true),
            Symmetry::MirrorRows => (2, true),
            Symmetry::Transpose => (3, true),
        }
    }

    fn from_parts(turns: u8, mirror: bool) -> Symmetry {
        let i = (turns % 4) as usize + if mirror { 4 } else { 0 };
        const BY_PARTS: [Symmetry; 8] = [
            Symmetry::Identity,
            Symmetry::Rotate90,
            Symmetry::Rotate180,
            Symmetry::Rotate270,
            Symmetry::MirrorColumns,
            Symmetry::AntiTranspose,
            Symmetry::MirrorRows,
            Symmetry::Transpose,
        ];
        BY_PARTS[i]
    }

    /// Where the square `(row, col)` of an `n` x `n` board goes (`row, col < n`).
    ///
    /// ```
    /// use nqueens::Symmetry;
    /// assert_eq!(Symmetry::Rotate90.apply(8, 0, 0), (0, 7));
    /// assert_eq!(Symmetry::Transpose.apply(8, 1, 5), (5, 1));
    /// ```
    pub fn apply(self, n: usize, row: usize, col: usize) -> (usize, usize) {
        let m = n - 1;
        let (r, c) = (row, col);
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, m - r),
            Symmetry::Rotate180 => (m - r, m - c),
            Symmetry::Rotate270 => (m - c, r),
            Symmetry::MirrorColumns => (r, m - c),
            Symmetry::MirrorRows => (m - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (m - c, m - r),
        }
    }

    /// `true` for the quarter, half and three-quarter turns (not the identity, no mirror).
    ///
    /// ```
    /// use nqueens::Symmetry;
    /// assert!(Symmetry::Rotate180.is_rotation());
    /// assert!(!Symmetry::Identity.is_rotation() && !Symmetry::Transpose.is_rotation());
    /// ```
    pub fn is_rotation(self) -> bool {
        matches!(
            self,
            Symmetry::Rotate90 | Symmetry::Rotate180 | Symmetry::Rotate270
        )
    }

    /// The symmetry that applies `self` first, then `next`.
    ///
    /// ```
    /// use nqueens::Symmetry;
    /// assert_eq!(Symmetry::MirrorColumns.then(Symmetry::Rotate90), Symmetry::AntiTranspose);
    /// ```
    #[must_use]
    pub fn then(self, next: Symmetry) -> Symmetry {
        let (t1, m1) = self.parts();
        let (t2, m2) = next.parts();
        // Moving a mirror past a turn reverses the turn: M R = R^-1 M.
        let t1 = if m2 { 4 - t1 } else { t1 };
        Symmetry::from_parts(t1 + t2, m1 != m2)
    }

    /// The symmetry that undoes this one.
    ///
    /// ```
    /// use nqueens::Symmetry;
    /// assert_eq!(Symmetry::Rotate90.inverse(), Symmetry::Rotate270);
    /// ```
    #[must_use]
    pub fn inverse(self) -> Symmetry {
        match self.parts() {
            (t, false) => Symmetry::from_parts(4 - t, false),
            // Every mirror-then-turn is a reflection, its own inverse.
            (_, true) => self,
        }
    }
}

// The canonical-class tests the listing of unique solutions makes (`solutions.rs`, the ladder's
// symmetry rung): both read a solution's images without building them.

/// The squares of `row` (below row 0) that no canonical solution whose first queen stands in
/// column `first` can use: an edge queen there would be closer to a corner than `first`.
pub(crate) fn closed_squares(n: usize, first: u32, row: usize) -> u64 {
    let (k, last) = (first as usize, n - 1);
    let mut closed = 0;
    if row < k || row > last - k {
        closed |= 1 | 1 << last;
    }
    if row == last && k > 0 {
        // Columns 0..k and n-k..n of the last row.
        let low = (1u64 << k) - 1;
        closed |= low | low << (n - k);
    }
    closed
}

/// If `cols` (a solution) is the smallest of its 8 images, the size of its class; else `None`.
///
/// Each image is read entry by entry without being built, and the comparison with `cols` stops
/// at the first difference, so most non-canonical solutions are rejected after a step or two.
/// `inverse` is scratch space of length `n`.
pub(crate) fn class_size_if_canonical(cols: &[u32], inverse: &mut [u32]) -> Option<u64> {
    let n = cols.len();
    let m = n as u32 - 1;
    for (r, &c) in cols.iter().enumerate() {
        inverse[c as usize] = r as u32;
    }
    let inv = &*inverse;
    // Entry x of each image other than the identity (see `Symmetry::apply`).
    let images: [&dyn Fn(usize) -> u32; 7] = [
        &|x| m - cols[x],         // mirror columns
        &|x| cols[n - 1 - x],     // mirror rows
        &|x| m - cols[n - 1 - x], // half turn
        &|x| inv[x],              // transpose
        &|x| m - inv[x],          // quarter turn clockwise
        &|x| inv[n - 1 - x],      // quarter turn counter-clockwise
        &|x| m - inv[n - 1 - x],  // anti-transpose
    ];
    let mut fixed = 1;
    for image in images {
        match (0..n).map(|x| image(x).cmp(&cols[x])).find(|o| o.is_ne()) {
            Some(std::cmp::Ordering::Less) => return None,
            Some(_) => {}
            None => fixed += 1,
        }
    }
    Some(8 / fixed)
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::{Symmetry, class_size_if_canonical, closed_squares};

    /// `apply` is written out as a table for speed; it must equal the definition: the mirror
    /// first, then the quarter turns.
    #[test]
    fn apply_is_mirror_then_turns() {
        for n in 1..=7 {
            for s in Symmetry::ALL {
                let (turns, mirror) = s.parts();
                for row in 0..n {
                    for col in 0..n {
                        let (mut r, mut c) = (row, if mirror { n - 1 - col } else { col });
                        for _ in 0..turns {
                            (r, c) = (c, n - 1 - r);
                        }
                        assert_eq!(s.apply(n, row, col), (r, c), "{s:?} n={n}");
                    }
                }
            }
        }
    }

    #[test]
    fn leaf_check_agrees_with_placement() {
        for n in 1..=8 {
            let _ = crate::algo::backtracking::for_each_solution(n, &mut |p| {
                let want = p.is_canonical().then(|| p.class_size().unwrap() as u64);
                assert_eq!(class_size_if_canonical(p.cols(), &mut vec![0; n]), want);
                ControlFlow::Continue(())
            });
        }
    }

    #[test]
    fn closed_squares_never_hold_a_canonical_queen() {
        for n in 1..=9 {
            let _ = crate::algo::backtracking::for_each_solution(n, &mut |p| {
                if p.is_canonical() {
                    for (row, &c) in p.cols().iter().enumerate().skip(1) {
                        assert_eq!(closed_squares(n, p.cols()[0], row) >> c & 1, 0, "{p:?}");
                    }
                }
                ControlFlow::Continue(())
            });
        }
    }
}
