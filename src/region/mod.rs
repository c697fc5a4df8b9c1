//! Queens with regions: the puzzle of the daily "Queens" game (a Star Battle with one star).
//!
//! An N x N grid is split into N regions; N queens go one per row, one per column and one per
//! region, and no two queens touch, diagonally included. (Two queens on one diagonal further
//! apart do not matter here, unlike in the N-Queens problem.)
//!
//! - [`Board`]: the regions, and the queens and crosses of a game in progress; read and written
//!   in a plain text form (one line per row, one letter or digit per cell naming its region,
//!   then `q ROW COL` and `x ROW COL` lines) and a JSON form ([`Board::parse`],
//!   [`Board::to_text`], [`Board::to_json`]);
//! - [`Search`]: the exact solver: one solution, the number of solutions with a limit (so "is
//!   it unique?" costs no more than finding two), or every solution;
//! - [`verify`]: checks a placement, naming the rule it breaks ([`Broken`]);
//! - [`Generator`]: puzzles with exactly one solution, seeded and the same on any number of
//!   threads;
//! - [`rate`]: solves as a person does, with the deductions players use ([`Rule`]), and rates
//!   the puzzle by the hardest one it needed ([`Difficulty`]);
//! - [`svg`]: a drawing with a colour-blind-safe palette, thick borders between regions and the
//!   region's letter in every cell, so colour is never the only cue.
//!
//! **Regions must be connected** (their cells joined side by side), as in the game: a region
//! in pieces is an error when the grid is read ([`RegionError::Disconnected`]), and the
//! generator only makes connected regions.
//!
//! ```
//! use nqueens::region::{Board, Search, verify};
//! let board = Board::parse("AABBC\nAAABC\nDDAAC\nDDDDC\nEEDDC\n").unwrap();
//! let search = Search::new(&board).limit(2);
//! let count = search.count().unwrap();
//! assert_eq!(count.solutions, 1); // exactly one: the puzzle is good
//! let solution = search.first().unwrap().unwrap();
//! assert!(verify(&board, board.with_solution(&solution).queens()).is_ok());
//! ```

use std::fmt;

mod generate;
pub mod html;
mod rate;
mod solve;
pub mod svg;
mod text;
mod verify;

pub use generate::{GENERATE_MAX_N, GENERATE_MIN_N, GenerateError, Generator, Puzzle, Puzzles};
pub use rate::{Difficulty, Rating, Rule, Step, hint, rate};
pub use solve::{Count, Order, Search, Stopped};
pub use verify::{Broken, verify};

/// The largest grid: one region per letter or digit (`A`-`Z`, `a`-`z`, `0`-`9`), and the
/// solver's one-word rows.
pub const MAX_N: usize = 62;

/// The letters that name regions when the grid does not name them itself: `A`-`Z`, `a`-`z`,
/// `0`-`9`.
const LABELS: &[u8; MAX_N] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A cell, 0-based: `(row, column)`.
pub type Cell = (usize, usize);

/// A region grid, with the queens and crosses of a game in progress.
///
/// Regions are numbered from 0 in the order they first appear, row by row; each keeps the
/// letter the grid gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    n: usize,
    /// The region of each cell, row by row.
    region: Vec<u8>,
    /// The letter of each region.
    labels: Vec<u8>,
    queens: Vec<Cell>,
    crosses: Vec<Cell>,
}

/// Why a board could not be read or made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// No grid at all.
    #[error("no grid: expected one line per row, one letter or digit per cell")]
    Empty,
    /// The grid is larger than [`MAX_N`].
    #[error("the grid has {n} rows; at most {MAX_N} are read (one region per letter or digit)")]
    TooLarge {
        /// The number of rows.
        n: usize,
    },
    /// A row's length is not the first row's.
    #[error("row {row} has {len} cells, but row 1 has {n}: a grid must be square")]
    NotSquare {
        /// The row, from 1.
        row: usize,
        /// Its number of cells.
        len: usize,
        /// The first row's number of cells.
        n: usize,
    },
    /// The number of rows is not the length of a row.
    #[error("the grid has {rows} rows of {n} cells: a grid must be square")]
    Rows {
        /// The number of rows.
        rows: usize,
        /// The length of a row.
        n: usize,
    },
    /// A cell is not a letter or digit.
    #[error("row {row} column {col}: {ch:?} is not a region letter or digit")]
    BadCell {
        /// The row, from 1.
        row: usize,
        /// The column, from 1.
        col: usize,
        /// The character found.
        ch: char,
    },
    /// The number of regions is not the size of the grid.
    #[error("the grid has {found} regions, but a {n} x {n} grid needs {n}")]
    RegionCount {
        /// Regions found.
        found: usize,
        /// The size of the grid.
        n: usize,
    },
    /// A region is in pieces.
    #[error("region {label} is in pieces: regions must be connected (cells joined side by side)")]
    Disconnected {
        /// The region's letter.
        label: char,
    },
    /// A line after the grid is not a mark.
    #[error("line {line}: expected `q ROW COL` (a queen) or `x ROW COL` (a cross), found {text:?}")]
    BadMark {
        /// The line, from 1.
        line: usize,
        /// What it holds.
        text: String,
    },
    /// A mark is off the grid.
    #[error("row {row} column {col} is off the {n} x {n} grid (rows and columns count from 1)")]
    OffGrid {
        /// The row, from 1.
        row: usize,
        /// The column, from 1.
        col: usize,
        /// The size of the grid.
        n: usize,
    },
    /// A cell is marked twice.
    #[error("row {row} column {col} is marked twice")]
    MarkedTwice {
        /// The row, from 1.
        row: usize,
        /// The column, from 1.
        col: usize,
    },
    /// The JSON form is malformed.
    #[error("bad JSON: {0}")]
    Json(String),
}

impl Board {
    /// A board from the region of each cell, row by row (`n * n` numbers below `n`), without
    /// marks; regions are numbered again in the order they first appear, as when a grid is
    /// read, and named `A`, `B`, ... in that order.
    ///
    /// ```
    /// let board = nqueens::region::Board::from_regions(2, &[0, 0, 1, 1]).unwrap();
    /// assert_eq!(board.to_text(), "AA\nBB\n");
    /// ```
    ///
    /// # Errors
    /// [`RegionError`] for a grid of the wrong length, a region number of `n` or more, a region
    /// without a cell, or a region in pieces.
    pub fn from_regions(n: usize, regions: &[usize]) -> Result<Self, RegionError> {
        if n == 0 {
            return Err(RegionError::Empty);
        }
        if n > MAX_N {
            return Err(RegionError::TooLarge { n });
        }
        if regions.len() != n * n {
            return Err(RegionError::Rows {
                rows: regions.len().div_ceil(n),
                n,
            });
        }
        let found = regions.iter().copied().max().map_or(0, |m| m + 1);
        let used = (0..n).filter(|g| regions.contains(g)).count();
        if found > n || used != n {
            return Err(RegionError::RegionCount {
                found: found.max(used),
                n,
            });
        }
        let mut number = vec![u8::MAX; n];
        let mut next = 0;
        let region = regions
            .iter()
            .map(|&g| {
                if number[g] == u8::MAX {
                    number[g] = next;
                    next += 1;
                }
                number[g]
            })
            .collect();
        let board = Board {
            n,
            region,
            labels: LABELS[..n].to_vec(),
            queens: Vec::new(),
            crosses: Vec::new(),
        };
        board.check_connected()?;
        Ok(board)
    }

    /// The size of the grid.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The region of a cell.
    ///
    /// # Panics
    /// If the cell is off the grid.
    pub fn region(&self, (row, col): Cell) -> usize {
        assert!(row < self.n && col < self.n, "cell off the grid");
        self.region[row * self.n + col] as usize
    }

    /// The region of each cell, row by row.
    pub fn regions(&self) -> impl Iterator<Item = usize> + '_ {
        self.region.iter().map(|&g| g as usize)
    }

    /// The letter that names a region.
    ///
    /// # Panics
    /// If there is no such region.
    pub fn label(&self, region: usize) -> char {
        self.labels[region] as char
    }

    /// The queens placed so far.
    pub fn queens(&self) -> &[Cell] {
        &self.queens
    }

    /// The cells crossed out so far.
    pub fn crosses(&self) -> &[Cell] {
        &self.crosses
    }

    /// The same regions without marks.
    #[must_use]
    pub fn cleared(&self) -> Self {
        Board {
            queens: Vec::new(),
            crosses: Vec::new(),
            ..self.clone()
        }
    }

    /// The same regions with these queens and no crosses: a solution to write or draw.
    ///
    /// # Panics
    /// If a column is off the grid.
    #[must_use]
    pub fn with_solution(&self, columns: &[usize]) -> Self {
        assert!(columns.iter().all(|&c| c < self.n), "column off the grid");
        Board {
            queens: columns.iter().copied().enumerate().collect(),
            crosses: Vec::new(),
            ..self.clone()
        }
    }

    /// Adds a queen or a cross.
    ///
    /// # Errors
    /// [`RegionError::OffGrid`] or [`RegionError::MarkedTwice`].
    pub fn mark(&mut self, (row, col): Cell, queen: bool) -> Result<(), RegionError> {
        let n = self.n;
        if row >= n || col >= n {
            return Err(RegionError::OffGrid {
                row: row + 1,
                col: col + 1,
                n,
            });
        }
        if self.queens.contains(&(row, col)) || self.crosses.contains(&(row, col)) {
            return Err(RegionError::MarkedTwice {
                row: row + 1,
                col: col + 1,
            });
        }
        if queen {
            self.queens.push((row, col));
        } else {
            self.crosses.push((row, col));
        }
        Ok(())
    }

    /// The cells side by side with a cell.
    pub(crate) fn neighbours(&self, (r, c): Cell) -> impl Iterator<Item = Cell> + '_ {
        let n = self.n;
        [(0, 1), (2, 1), (1, 0), (1, 2)]
            .into_iter()
            .filter_map(move |(dr, dc)| {
                let (r2, c2) = ((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?);
                (r2 < n && c2 < n).then_some((r2, c2))
            })
    }

    /// [`RegionError::Disconnected`] for the first region (by number) in pieces.
    fn check_connected(&self) -> Result<(), RegionError> {
        let n = self.n;
        let mut seen = vec![false; n * n];
        let mut first_seen = vec![false; n];
        for start in 0..n * n {
            let g = self.region[start] as usize;
            if seen[start] {
                continue;
            }
            if first_seen[g] {
                return Err(RegionError::Disconnected {
                    label: self.label(g),
                });
            }
            first_seen[g] = true;
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(i) = stack.pop() {
                for (r, c) in self.neighbours((i / n, i % n)) {
                    let j = r * n + c;
                    if !seen[j] && self.region[j] as usize == g {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl std::str::FromStr for Board {
    type Err = RegionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Board::parse(s)
    }
}
