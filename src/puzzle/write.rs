//! The text forms of a puzzle. Both are instance forms that
//! [`Instance::read`](crate::cp::Instance::read) reads back, so `nqueens complete` takes a
//! puzzle as it comes, and both are placement forms that `nqueens verify` reads (the solution,
//! checked against the givens: [`crate::format::puzzle`]):
//!
//! - the **board**: a `#` line with the puzzle's number and measures, the drawing (`Q` given,
//!   `x` blocked, `.` free), the solution in a `#` line, and a blank line;
//! - **JSON Lines**: one object per puzzle, 1-based rows and columns, with the solution under
//!   `"columns"` as in every JSON placement, so that `nqueens verify` checks it.

use std::io::{self, Write};

use super::{Measures, Puzzle};

/// Writes puzzle number `number` (counted from 1 in the header) as a board drawing.
///
/// ```
/// let puzzle = nqueens::puzzle::Generator::new(4).unwrap().puzzle(0).unwrap();
/// let mut out = Vec::new();
/// nqueens::puzzle::write_board(&mut out, &puzzle, 1).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("# puzzle 1: N=4, 1 given, 0 blocked, easy"));
/// assert_eq!(nqueens::cp::Instance::parse(&text).unwrap(), *puzzle.instance());
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write_board(out: &mut impl Write, puzzle: &Puzzle, number: u64) -> io::Result<()> {
    let inst = puzzle.instance();
    let n = inst.n();
    let givens = puzzle.givens();
    let blocked = inst.blocked().count();
    let m = puzzle.measures();
    writeln!(
        out,
        "# puzzle {number}: N={n}, {givens} given{}, {blocked} blocked, {} (guesses {}, depth {}, \
         failures {}, propagations {})",
        if givens == 1 { "" } else { "s" },
        puzzle.difficulty(),
        m.guesses,
        m.depth,
        m.failures,
        m.propagations
    )?;
    let mut rows = vec![vec![b'.'; n]; n];
    for (r, c) in inst.fixed() {
        rows[r][c] = b'Q';
    }
    for (r, c) in inst.blocked() {
        rows[r][c] = b'x';
    }
    let mut line = Vec::with_capacity(2 * n);
    for row in rows {
        line.clear();
        for (c, cell) in row.into_iter().enumerate() {
            if c > 0 {
                line.push(b' ');
            }
            line.push(cell);
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    write!(out, "# solution:")?;
    for &c in puzzle.solution().cols() {
        write!(out, " {}", c + 1)?;
    }
    writeln!(out, "\n")
}

/// One puzzle as JSON: what [`write_json`] writes.
#[derive(serde::Serialize)]
struct Record<'a> {
    n: usize,
    givens: Vec<[usize; 2]>,
    blocked: Vec<[usize; 2]>,
    /// The solution, named as in a JSON placement.
    columns: Vec<u32>,
    number_of_givens: usize,
    difficulty: &'static str,
    measures: &'a Measures,
}

/// Writes a puzzle as one JSON line:
/// `{"n","givens","blocked","columns","number_of_givens","difficulty","measures"}`, squares as
/// 1-based `[row, col]`, the solution's 1-based columns under `"columns"`.
///
/// ```
/// let puzzle = nqueens::puzzle::Generator::new(4).unwrap().puzzle(0).unwrap();
/// let mut out = Vec::new();
/// nqueens::puzzle::write_json(&mut out, &puzzle).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("{\"n\":4,\"givens\":[["));
/// assert_eq!(nqueens::cp::Instance::parse(&text).unwrap(), *puzzle.instance());
/// let read = nqueens::format::read(&text);
/// assert_eq!(read[0].as_ref().unwrap(), puzzle.solution());
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write_json(out: &mut impl Write, puzzle: &Puzzle) -> io::Result<()> {
    let inst = puzzle.instance();
    let one_based = |(r, c): (usize, usize)| [r + 1, c + 1];
    let record = Record {
        n: inst.n(),
        givens: inst.fixed().map(one_based).collect(),
        blocked: inst.blocked().map(one_based).collect(),
        columns: puzzle.solution().cols().iter().map(|c| c + 1).collect(),
        number_of_givens: puzzle.givens(),
        difficulty: puzzle.difficulty().name(),
        measures: puzzle.measures(),
    };
    serde_json::to_writer(&mut *out, &record)?;
    writeln!(out)
}
