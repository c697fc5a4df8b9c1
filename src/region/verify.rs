//! Checking a placement against the rules, naming the rule it breaks.

use super::{Board, Cell};

/// The rule a placement breaks (rows, columns and cells counted from 1 in messages).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Broken {
    /// A queen is off the grid.
    #[error("the queen at row {} column {} is off the {n} x {n} grid", .cell.0 + 1, .cell.1 + 1)]
    OffGrid {
        /// The queen (from 0).
        cell: Cell,
        /// The size of the grid.
        n: usize,
    },
    /// Two queens share a row.
    #[error("two queens in row {}: one queen per row", .row + 1)]
    Row {
        /// The row (from 0).
        row: usize,
    },
    /// Two queens share a column.
    #[error("two queens in column {}: one queen per column", .col + 1)]
    Column {
        /// The column (from 0).
        col: usize,
    },
    /// Two queens share a region.
    #[error("two queens in region {label}: one queen per region")]
    Region {
        /// The region's letter.
        label: char,
    },
    /// Two queens touch.
    #[error(
        "the queens at row {} column {} and row {} column {} touch: no two queens may touch, \
         diagonally included",
        .a.0 + 1, .a.1 + 1, .b.0 + 1, .b.1 + 1
    )]
    Touching {
        /// One queen (from 0).
        a: Cell,
        /// The other.
        b: Cell,
    },
    /// Fewer queens than rows.
    #[error("{found} queen(s), but a {n} x {n} grid needs {n}")]
    Missing {
        /// Queens found.
        found: usize,
        /// The size of the grid.
        n: usize,
    },
}

/// Checks that `queens` solve `board`: one queen in every row, column and region, and no two
/// touching. The board's own marks are not looked at.
///
/// ```
/// use nqueens::region::{Board, Broken, verify};
/// let board = Board::parse("AAAA\nBBBB\nCCCC\nDDDD\n").unwrap();
/// assert_eq!(verify(&board, &[(0, 1), (1, 3), (2, 0), (3, 2)]), Ok(()));
/// assert_eq!(
///     verify(&board, &[(0, 1), (1, 3), (2, 0)]),
///     Err(Broken::Missing { found: 3, n: 4 })
/// );
/// assert_eq!(
///     verify(&board, &[(0, 0), (1, 1)]),
///     Err(Broken::Touching { a: (0, 0), b: (1, 1) })
/// );
/// ```
///
/// # Errors
/// [`Broken`], the first rule broken in the order: off the grid, row, column, region,
/// touching, missing queens.
pub fn verify(board: &Board, queens: &[Cell]) -> Result<(), Broken> {
    let n = board.n();
    if let Some(&cell) = queens.iter().find(|&&(r, c)| r >= n || c >= n) {
        return Err(Broken::OffGrid { cell, n });
    }
    let mut rows = vec![false; n];
    let mut cols = vec![false; n];
    let mut regions = vec![false; n];
    for &(r, _) in queens {
        if std::mem::replace(&mut rows[r], true) {
            return Err(Broken::Row { row: r });
        }
    }
    for &(_, c) in queens {
        if std::mem::replace(&mut cols[c], true) {
            return Err(Broken::Column { col: c });
        }
    }
    for &cell in queens {
        let g = board.region(cell);
        if std::mem::replace(&mut regions[g], true) {
            return Err(Broken::Region {
                label: board.label(g),
            });
        }
    }
    for (i, &a) in queens.iter().enumerate() {
        for &b in &queens[i + 1..] {
            if a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1 {
                let (a, b) = (a.min(b), a.max(b));
                return Err(Broken::Touching { a, b });
            }
        }
    }
    if queens.len() < n {
        return Err(Broken::Missing {
            found: queens.len(),
            n,
        });
    }
    Ok(())
}
