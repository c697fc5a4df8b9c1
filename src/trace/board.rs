//! The board as a trace leaves it after each step: what every writer draws.

use super::Event;
use crate::observe::Reason;

/// The queens on the board after the steps applied so far.
///
/// ```
/// use nqueens::trace::{Board, Event};
/// let mut board = Board::new(4);
/// board.apply(&Event::Place { row: 0, col: 1, forced: false });
/// assert_eq!(board.queen(0), Some(1));
/// assert!(board.attacked(1, 2) && board.attacked(3, 1) && !board.attacked(1, 3));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cols: Vec<Option<usize>>,
}

impl Board {
    /// The empty board of `n` rows.
    pub fn new(n: usize) -> Board {
        Board {
            cols: vec![None; n],
        }
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.cols.len()
    }

    /// Puts on or takes off the queen of a place or remove step; other steps leave the board.
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::Place { row, col, .. } => self.cols[row] = Some(col),
            Event::Remove { row, .. } => self.cols[row] = None,
            _ => {}
        }
    }

    /// The column of the queen in `row`, if any.
    pub fn queen(&self, row: usize) -> Option<usize> {
        self.cols[row]
    }

    /// The column of each row's queen, if the board holds `n` queens.
    ///
    /// ```
    /// let mut board = nqueens::trace::Board::new(1);
    /// assert_eq!(board.full(), None);
    /// board.apply(&nqueens::trace::Event::Place { row: 0, col: 0, forced: false });
    /// assert_eq!(board.full(), Some(vec![0]));
    /// ```
    pub fn full(&self) -> Option<Vec<u32>> {
        self.cols.iter().map(|c| c.map(|c| c as u32)).collect()
    }

    /// Whether a queen on the board (other than one on the square itself) attacks `(row, col)`.
    pub fn attacked(&self, row: usize, col: usize) -> bool {
        self.cols.iter().enumerate().any(|(r, &c)| {
            c.is_some_and(|c| {
                (r, c) != (row, col) && (c == col || r == row || r.abs_diff(row) == c.abs_diff(col))
            })
        })
    }

    /// The queen that rules `(row, col)` out for `reason`: the first in row order that attacks
    /// it that way, the one a row-by-row test meets first. When `(row, col)` holds a queen
    /// (a failed test of `permutations`), its partner above it. `None` for the reasons no
    /// queen gives (propagation, symmetry).
    ///
    /// ```
    /// use nqueens::observe::Reason;
    /// use nqueens::trace::{Board, Event};
    /// let mut board = Board::new(4);
    /// board.apply(&Event::Place { row: 0, col: 1, forced: false });
    /// assert_eq!(board.attacker(1, 2, Reason::Diagonal), Some((0, 1)));
    /// assert_eq!(board.attacker(1, 1, Reason::Column), Some((0, 1)));
    /// assert_eq!(board.attacker(1, 0, Reason::Diagonal), None);
    /// ```
    pub fn attacker(&self, row: usize, col: usize, reason: Reason) -> Option<(usize, usize)> {
        let test = self.cols[row] == Some(col);
        self.cols
            .iter()
            .enumerate()
            .filter(|&(r, _)| r != row && (!test || r < row))
            .filter_map(|(r, &c)| c.map(|c| (r, c)))
            .find(|&(r, c)| match reason {
                Reason::Column => c == col,
                Reason::Diagonal => r.wrapping_sub(c) == row.wrapping_sub(col),
                Reason::AntiDiagonal => r + c == row + col,
                Reason::Propagation | Reason::Symmetry => false,
            })
    }
}
