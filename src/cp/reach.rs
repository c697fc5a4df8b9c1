//! Ties between rows broken by reach, for the plain search on boards with blocked squares.
//!
//! The search takes a row of the smallest domain. Many rows tie (most often at two squares),
//! and the one taken decides how large the tree is. A row whose squares lie on crowded lines
//! takes more squares from the other rows whichever square it gets, so it fails sooner where
//! it must fail: of the tied rows, the search takes the one of most *reach*, the open squares
//! its available squares see on their columns and diagonals.
//!
//! The lines are counted once, on the board as given, and summed per square: a row's reach
//! is then one load a square. Counting what is still available on each line would be the
//! sharper measure, but it costs a visit of every square of the three lines
//! (docs/completion.md, "Ties broken by reach", measures both).

use std::ops::RangeInclusive;

use super::domain::Board;
use super::instance::Instance;

/// The board widths whose plain search breaks ties by reach. Below 65 columns a domain is
/// computed rather than loaded and the reach cost more time than its smaller trees saved;
/// above 128 the counter board would visit every column of a row to find its squares, and it
/// was not measured there.
pub(super) const WIDTHS: RangeInclusive<usize> = 65..=128;

/// The reach of each square of an instance: the open (not blocked) squares of its column and
/// both diagonals, the square itself once on each.
pub(super) struct Reach {
    n: usize,
    /// Per square, row-major (`r * n + c`): a row's reach is then one load a square.
    square: Vec<u32>,
}

impl Reach {
    /// The lines of `instance`, if its plain search breaks ties by reach: its width is in
    /// [`WIDTHS`] and it has blocked squares (on a free board every row sees alike).
    pub(super) fn of_instance(instance: &Instance) -> Option<Reach> {
        let n = instance.n();
        if !WIDTHS.contains(&n) || instance.blocked().next().is_none() {
            return None;
        }
        // A diagonal `d` of either family holds `n - |d - (n - 1)|` squares.
        let lengths: Vec<u32> = (0..2 * n - 1)
            .map(|d| (n - d.abs_diff(n - 1)) as u32)
            .collect();
        let (mut col, mut diag, mut anti) = (vec![n as u32; n], lengths.clone(), lengths);
        for (r, c) in instance.blocked() {
            col[c] -= 1;
            diag[c + n - 1 - r] -= 1;
            anti[r + c] -= 1;
        }
        let square = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                col[c] + diag[c + n - 1 - r] + anti[r + c]
            })
            .collect();
        Some(Reach { n, square })
    }

    /// The reach of the unassigned row `r`: over its available squares, the open squares of
    /// the square's column and both diagonals (the square itself once on each).
    pub(super) fn row(&self, dom: &impl Board, r: usize) -> u32 {
        let row = &self.square[r * self.n..(r + 1) * self.n];
        let mut sum = 0;
        dom.each_square(r, |c| sum += row[c]);
        sum
    }
}
