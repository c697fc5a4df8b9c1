//! The explicit construction: one solution for every `n` except 2 and 3, by a closed formula.
//!
//! Write the even columns in order, then the odd ones: for `n = 6` that is `2 4 6 1 3 5`
//! (1-based). Inside each half the queens climb two columns per row, a knight's move, so two
//! queens of the same half never share a diagonal. Queens of different halves can only meet on
//! a diagonal when `n` leaves remainder 2 or 3 when divided by 6, and for those `n` moving a
//! few queens to the ends of the halves repairs it (Hoffman, Loessi and Moore, 1969;
//! Bernhardsson, 1991):
//!
//! | `n mod 6` | evens (1-based)        | odds (1-based)           |
//! |-----------|------------------------|--------------------------|
//! | otherwise | `2 4 6 ... `           | `1 3 5 ...`              |
//! | 2         | `2 4 6 ... `           | `3 1 7 9 ... n-1 5`      |
//! | 3         | `4 6 8 ... n-1 2`      | `5 7 9 ... n 1 3`        |
//!
//! Every column is a constant-time formula of its row, so a solution of any size can be
//! written row by row in constant memory ([`Construction::cols`]).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::Placement;

/// The largest `n` the construction accepts: columns are `u32`, and 1-based columns must fit.
pub const MAX_N: usize = u32::MAX as usize;

/// Which table row of the module documentation applies to `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pattern {
    /// Evens then odds, unchanged.
    Plain,
    /// `n mod 6 == 2`: odds start `3 1` and end with `5`.
    Mod2,
    /// `n mod 6 == 3`: `2` moves to the end of the evens, `1 3` to the end of the odds.
    Mod3,
}

/// The constructed solution for one `n`, computed one row at a time.
///
/// ```
/// use nqueens::large::Construction;
/// let c = Construction::new(8).unwrap();
/// assert_eq!(c.col(0), 1);
/// let one_based: Vec<u32> = c.cols().map(|col| col + 1).collect();
/// assert_eq!(one_based, [2, 4, 6, 8, 3, 1, 7, 5]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Construction {
    n: usize,
    /// Rows `0..evens` hold the even (1-based) columns.
    evens: usize,
    pattern: Pattern,
}

impl Construction {
    /// The construction for `n`; `None` when `n` has no solution (0, 2, 3) or exceeds [`MAX_N`].
    ///
    /// ```
    /// use nqueens::large::Construction;
    /// assert!(Construction::new(1).is_some());
    /// assert!(Construction::new(3).is_none());
    /// ```
    pub fn new(n: usize) -> Option<Self> {
        if matches!(n, 0 | 2 | 3) || n > MAX_N {
            return None;
        }
        let pattern = match n % 6 {
            2 => Pattern::Mod2,
            3 => Pattern::Mod3,
            _ => Pattern::Plain,
        };
        Some(Construction {
            n,
            evens: n / 2,
            pattern,
        })
    }

    /// The board size.
    ///
    /// ```
    /// assert_eq!(nqueens::large::Construction::new(9).unwrap().n(), 9);
    /// ```
    pub fn n(&self) -> usize {
        self.n
    }

    /// The 0-based column of the queen in `row` (0-based, `row < n`), in constant time.
    ///
    /// ```
    /// let c = nqueens::large::Construction::new(1_000_000_000).unwrap();
    /// assert_eq!(c.col(0), 1);
    /// assert_eq!(c.col(999_999_999), 999_999_998);
    /// ```
    #[inline]
    pub fn col(&self, row: usize) -> u32 {
        debug_assert!(row < self.n);
        // Formulas below are 0-based: the 1-based even column 2k+2 is 2k+1, the odd 2k+1 is 2k.
        let col = if row < self.evens {
            let j = row;
            match self.pattern {
                Pattern::Mod3 if j + 1 == self.evens => 1,
                Pattern::Mod3 => 2 * j + 3,
                _ => 2 * j + 1,
            }
        } else {
            let j = row - self.evens;
            let odds = self.n - self.evens;
            match self.pattern {
                Pattern::Plain => 2 * j,
                Pattern::Mod2 => match j {
                    0 => 2,
                    1 => 0,
                    _ if j + 1 == odds => 4,
                    _ => 2 * j + 2,
                },
                Pattern::Mod3 => {
                    if j + 2 == odds {
                        0
                    } else if j + 1 == odds {
                        2
                    } else {
                        2 * j + 4
                    }
                }
            }
        };
        col as u32
    }

    /// The columns row by row, computed on demand: constant memory for any `n`.
    ///
    /// ```
    /// let c = nqueens::large::Construction::new(5).unwrap();
    /// assert_eq!(c.cols().collect::<Vec<_>>(), [1, 3, 0, 2, 4]);
    /// ```
    pub fn cols(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        (0..self.n).map(|row| self.col(row))
    }

    /// The whole solution as a [`Placement`] (4 bytes per queen).
    ///
    /// ```
    /// assert!(nqueens::large::Construction::new(10).unwrap().placement().is_solution());
    /// ```
    pub fn placement(&self) -> Placement {
        Placement::new(self.cols().collect())
    }

    /// [`placement`](Self::placement), or `None` once `stop` is set: it is looked at every
    /// million rows, so that 10^9 queens stop within milliseconds too.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// let c = nqueens::large::Construction::new(10).unwrap();
    /// assert_eq!(c.placement_unless_stopped(&AtomicBool::new(false)), Some(c.placement()));
    /// assert_eq!(c.placement_unless_stopped(&AtomicBool::new(true)), None);
    /// ```
    pub fn placement_unless_stopped(&self, stop: &AtomicBool) -> Option<Placement> {
        const ROWS: usize = 1 << 20;
        let mut cols = Vec::with_capacity(self.n);
        for start in (0..self.n).step_by(ROWS) {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            cols.extend((start..self.n.min(start + ROWS)).map(|row| self.col(row)));
        }
        Some(Placement::new(cols))
    }
}

/// One solution for `n` by the explicit construction; `None` for `n` = 0, 2, 3 (no solution).
///
/// ```
/// let p = nqueens::large::construct(1000).unwrap();
/// assert!(p.is_solution());
/// assert!(nqueens::large::construct(2).is_none());
/// ```
pub fn construct(n: usize) -> Option<Placement> {
    Construction::new(n).map(|c| c.placement())
}

/// The 0-based column of `row` in the constructed solution for `n`; `None` if there is none or
/// `row >= n`.
///
/// ```
/// assert_eq!(nqueens::large::construct_col(8, 4), Some(2));
/// assert_eq!(nqueens::large::construct_col(8, 8), None);
/// ```
pub fn construct_col(n: usize, row: usize) -> Option<u32> {
    Construction::new(n).filter(|_| row < n).map(|c| c.col(row))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_boards_match_the_table() {
        let one_based = |n| {
            Construction::new(n)
                .unwrap()
                .cols()
                .map(|c| c + 1)
                .collect::<Vec<_>>()
        };
        assert_eq!(one_based(1), [1]);
        assert_eq!(one_based(4), [2, 4, 1, 3]);
        assert_eq!(one_based(8), [2, 4, 6, 8, 3, 1, 7, 5]);
        assert_eq!(one_based(9), [4, 6, 8, 2, 5, 7, 9, 1, 3]);
        assert_eq!(
            one_based(14),
            [2, 4, 6, 8, 10, 12, 14, 3, 1, 7, 9, 11, 13, 5]
        );
        assert_eq!(
            one_based(15),
            [4, 6, 8, 10, 12, 14, 2, 5, 7, 9, 11, 13, 15, 1, 3]
        );
    }
}
