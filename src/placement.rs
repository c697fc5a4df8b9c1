//! [`Placement`]: the column of the queen in each row.
//!
//! The one type for solutions, candidate solutions read from a file, and the output of every
//! algorithm. Columns are stored 0-based; every text form a person reads or writes is 1-based.

use std::fmt;

/// The column of the queen in each row of an `n` x `n` board (0-based, `cols[row]`).
///
/// A placement need not be a solution: [`Placement::verify`] says whether it is, and if not,
/// which two queens attack each other.
///
/// ```
/// use nqueens::Placement;
/// let p = Placement::from_one_based(&[2, 4, 1, 3]).unwrap();
/// assert_eq!(p.n(), 4);
/// assert_eq!(p.cols(), &[1, 3, 0, 2]);
/// assert!(p.verify().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    cols: Vec<u32>,
}

/// Why a placement is not a solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Defect {
    /// The board has no rows.
    #[error("the placement is empty")]
    Empty,
    /// A queen stands outside the board.
    #[error("row {row}: column {col} is outside a {n}x{n} board", row = .row + 1, col = .col + 1)]
    OutOfBoard {
        /// 0-based row of the queen.
        row: usize,
        /// 0-based column that is out of range.
        col: u32,
        /// Board size.
        n: usize,
    },
    /// Two queens attack each other.
    #[error("queens at (row {r1}, col {c1}) and (row {r2}, col {c2}) attack along a {line}",
        r1 = .first.0 + 1, c1 = .first.1 + 1, r2 = .second.0 + 1, c2 = .second.1 + 1)]
    Attack {
        /// 0-based (row, column) of the earlier queen.
        first: (usize, u32),
        /// 0-based (row, column) of the later queen.
        second: (usize, u32),
        /// The line they share.
        line: Line,
    },
}

/// A line along which two queens can attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// The same column.
    Column,
    /// The same `\` diagonal (row - col constant).
    Diagonal,
    /// The same `/` diagonal (row + col constant).
    AntiDiagonal,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Line::Column => "column",
            Line::Diagonal => "diagonal",
            Line::AntiDiagonal => "anti-diagonal",
        })
    }
}

impl Placement {
    /// A placement from 0-based columns, one per row. Nothing is checked: see [`verify`](Self::verify).
    ///
    /// ```
    /// let p = nqueens::Placement::new(vec![0, 0]);
    /// assert!(p.verify().is_err());
    /// ```
    pub fn new(cols: Vec<u32>) -> Self {
        Placement { cols }
    }

    /// A placement from 1-based columns as people write them; `None` if a column is 0.
    ///
    /// ```
    /// let p = nqueens::Placement::from_one_based(&[1, 5, 8, 6, 3, 7, 2, 4]).unwrap();
    /// assert_eq!(p.cols()[0], 0);
    /// assert!(nqueens::Placement::from_one_based(&[0, 1]).is_none());
    /// ```
    pub fn from_one_based(cols: &[u32]) -> Option<Self> {
        cols.iter()
            .map(|&c| c.checked_sub(1))
            .collect::<Option<Vec<_>>>()
            .map(Placement::new)
    }

    /// The board size: the number of rows.
    ///
    /// ```
    /// assert_eq!(nqueens::Placement::new(vec![1, 3, 0, 2]).n(), 4);
    /// ```
    pub fn n(&self) -> usize {
        self.cols.len()
    }

    /// The 0-based column of the queen in each row.
    ///
    /// ```
    /// assert_eq!(nqueens::Placement::new(vec![1, 3, 0, 2]).cols(), &[1, 3, 0, 2]);
    /// ```
    pub fn cols(&self) -> &[u32] {
        &self.cols
    }

    /// The columns, giving up the placement.
    ///
    /// ```
    /// assert_eq!(nqueens::Placement::new(vec![1, 3, 0, 2]).into_cols(), vec![1, 3, 0, 2]);
    /// ```
    pub fn into_cols(self) -> Vec<u32> {
        self.cols
    }

    /// `Ok` if this is a solution: every queen on the board and no two attacking.
    /// Otherwise the first defect met, scanning rows top to bottom.
    ///
    /// Linear in time and memory: one owner slot per column and per diagonal.
    ///
    /// ```
    /// use nqueens::{Placement, placement::{Defect, Line}};
    /// let p = Placement::from_one_based(&[1, 3, 2]).unwrap();
    /// match p.verify() {
    ///     Err(Defect::Attack { line, .. }) => assert_eq!(line, Line::Diagonal),
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    pub fn verify(&self) -> Result<(), Defect> {
        let n = self.n();
        if n == 0 {
            return Err(Defect::Empty);
        }
        const FREE: u32 = u32::MAX;
        // The row that owns each column / diagonal so far, to name both queens of a conflict.
        let mut col_owner = vec![FREE; n];
        let mut diag_owner = vec![FREE; 2 * n - 1];
        let mut anti_owner = vec![FREE; 2 * n - 1];
        for (row, &col) in self.cols.iter().enumerate() {
            let c = col as usize;
            if c >= n {
                return Err(Defect::OutOfBoard { row, col, n });
            }
            let checks = [
                (&mut col_owner[c], Line::Column),
                (&mut diag_owner[row + n - 1 - c], Line::Diagonal),
                (&mut anti_owner[row + c], Line::AntiDiagonal),
            ];
            for (owner, line) in checks {
                if *owner != FREE {
                    let other = *owner as usize;
                    return Err(Defect::Attack {
                        first: (other, self.cols[other]),
                        second: (row, col),
                        line,
                    });
                }
                *owner = row as u32;
            }
        }
        Ok(())
    }

    /// `true` if this is a solution (see [`verify`](Self::verify)).
    ///
    /// ```
    /// assert!(nqueens::Placement::new(vec![1, 3, 0, 2]).is_solution());
    /// ```
    pub fn is_solution(&self) -> bool {
        self.verify().is_ok()
    }
}

impl From<Vec<u32>> for Placement {
    fn from(cols: Vec<u32>) -> Self {
        Placement::new(cols)
    }
}
