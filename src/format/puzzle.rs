//! `puzzle`: the board form that `nqueens puzzle` writes ([`crate::puzzle::write_board`]): a
//! `# puzzle` line, the drawing (`Q` a given queen, `x` a blocked square, `.` a free one), the
//! solution in a `# solution:` line of 1-based columns, and a blank line:
//!
//! ```text
//! # puzzle 1: N=4, 1 given, 0 blocked, easy (guesses 0, depth 0, failures 0, propagations 1)
//! . Q . .
//! . . . .
//! . . . .
//! . . . .
//! # solution: 2 4 1 3
//! ```
//!
//! Reading gives the solution, once it is checked to keep every given queen and to avoid every
//! blocked square; `verify` then checks that it is a solution. (`complete` reads the same text
//! as a puzzle to solve: [`crate::cp::Instance`].)

use std::io::{self, BufRead};

use super::{Malformed, Rest, Source, Until};
use crate::Placement;

/// The largest puzzle read: its drawing is kept whole (n² squares) until the solution comes,
/// and `nqueens puzzle` makes them up to N = 64.
const MAX_N: usize = 1024;

/// The longest header line read.
const MAX_HEADER: usize = 1024;

/// Parses one puzzle, keeping its drawing until the solution line, then checking one against
/// the other. Reading stops at the first defect; the rest of the puzzle, up to its blank line,
/// is skipped by the caller.
pub(super) fn parse<R: BufRead>(
    src: &mut Source<R>,
    max_n: usize,
) -> io::Result<Result<Placement, Malformed>> {
    let max_n = max_n.min(MAX_N);
    let header_line = src.line;
    let (header, whole) = read_line(src, MAX_HEADER)?;
    if !whole || !header.starts_with(b"# puzzle") {
        return Ok(Err(defect(
            header_line,
            "a '#' line starts a puzzle only as '# puzzle ...'; otherwise expected a perm line \
             (digits), a board (Q and .), a JSON object ({) or an SVG picture (<)"
                .into(),
            !whole,
        )));
    }
    // The drawing: rows of Q, x and . until the solution's line.
    let mut rows: Vec<Vec<u8>> = Vec::new();
    let (solution_line, solution) = loop {
        let line = src.line;
        let (text, whole) = read_line(src, 2 * max_n + 64)?;
        if !whole && text.is_empty() {
            return Ok(Err(defect(
                line,
                "the puzzle ends before its solution line".into(),
                false,
            )));
        }
        if !whole {
            return Ok(Err(defect(
                line,
                format!("a row longer than N = {max_n} allows"),
                true,
            )));
        }
        if text.first() == Some(&b'#') {
            break (line, text);
        }
        let cells: Vec<u8> = text
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        if let Some(&bad) = cells.iter().find(|&&b| !matches!(b, b'Q' | b'x' | b'.')) {
            let message = format!(
                "row {}: unexpected character {:?} in a puzzle (Q, x and . only)",
                rows.len() + 1,
                char::from(bad)
            );
            return Ok(Err(defect(line, message, false)));
        }
        let n = rows.first().map_or(cells.len(), Vec::len);
        if cells.is_empty() || cells.len() != n || cells.len() > max_n || rows.len() == n {
            let message = format!(
                "row {}: a puzzle's drawing is a square of at most {max_n} rows of equal width",
                rows.len() + 1
            );
            return Ok(Err(defect(line, message, false)));
        }
        rows.push(cells);
    };
    let n = rows.len();
    let Some(numbers) = solution.strip_prefix(b"# solution:") else {
        return Ok(Err(defect(
            solution_line,
            "expected '# solution:' after the drawing".into(),
            false,
        )));
    };
    let mut cols = Vec::with_capacity(n);
    for word in numbers
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
    {
        match std::str::from_utf8(word)
            .ok()
            .and_then(|w| w.parse::<usize>().ok())
        {
            Some(c) if (1..=n).contains(&c) && cols.len() < n => cols.push(c as u32 - 1),
            _ => {
                let message = format!("the solution must be {n} columns from 1 to {n}");
                return Ok(Err(defect(solution_line, message, false)));
            }
        }
    }
    if rows.len() != n || cols.len() != n {
        let message = format!(
            "the drawing has {} rows and the solution {} columns",
            rows.len(),
            cols.len()
        );
        return Ok(Err(defect(solution_line, message, false)));
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, &cell) in row.iter().enumerate() {
            let on = cols[r] as usize == c;
            let broken = match cell {
                b'Q' if !on => "leaves out the given queen",
                b'x' if on => "puts a queen on the blocked square",
                _ => continue,
            };
            let message = format!("the solution {broken} at row {}, column {}", r + 1, c + 1);
            return Ok(Err(defect(solution_line, message, false)));
        }
    }
    Ok(Ok(Placement::new(cols)))
}

/// A defect on `line`, the rest of the puzzle to be skipped up to its blank line (after the
/// rest of the current line if `mid_line`).
fn defect(line: usize, message: String, mid_line: bool) -> Malformed {
    Malformed {
        line,
        message,
        rest: Rest {
            line: mid_line,
            until: Until::Blank,
        },
        attack: false,
    }
}

/// The next line without its newline, and `true` if it ended within `limit` bytes (a longer
/// line is left unread past the limit).
fn read_line<R: BufRead>(src: &mut Source<R>, limit: usize) -> io::Result<(Vec<u8>, bool)> {
    let mut text = Vec::new();
    loop {
        let buf = src.input.fill_buf()?;
        if buf.is_empty() {
            return Ok((text, false));
        }
        let room = limit.saturating_sub(text.len());
        match buf.iter().take(room + 1).position(|&b| b == b'\n') {
            Some(i) => {
                text.extend_from_slice(&buf[..i]);
                src.input.consume(i + 1);
                src.line += 1;
                return Ok((text, true));
            }
            None if buf.len() > room => {
                text.extend_from_slice(&buf[..room]);
                src.input.consume(room);
                return Ok((text, false));
            }
            None => {
                let used = buf.len();
                text.extend_from_slice(buf);
                src.input.consume(used);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_with;
    use super::*;

    const PUZZLE: &str = "# puzzle 1: N=4, 1 given, 1 blocked, easy\n. Q . .\nx . . .\n. . . .\n. . . .\n# solution: 2 4 1 3\n\n";

    #[test]
    fn the_solution_is_read_and_checked_against_the_drawing() {
        let read = |text: &str| parse_with(parse, text.as_bytes(), 64);
        assert_eq!(read(PUZZLE).unwrap().cols(), &[1, 3, 0, 2]);
        let err = read(&PUZZLE.replace("2 4 1 3", "3 1 4 2")).unwrap_err();
        assert!(
            err.contains("leaves out the given queen at row 1, column 2"),
            "{err}"
        );
        let err = read(&PUZZLE.replace("x . . .\n. . . .", "x . . .\nx . . .")).unwrap_err();
        assert!(err.contains("blocked square at row 3, column 1"), "{err}");
    }

    #[test]
    fn malformed_puzzles_are_errors() {
        for (text, want) in [
            (&b"# note\n"[..], "only as '# puzzle"),
            (b"# puzzle\n. Q\n", "ends before its solution"),
            (b"# puzzle\n. Q\n. . .\n# solution: 2 1\n", "equal width"),
            (
                b"# puzzle\n. q\n. .\n# solution: 2 1\n",
                "unexpected character 'q'",
            ),
            (
                b"# puzzle\n. Q\n. .\n# answer: 2 1\n",
                "expected '# solution:'",
            ),
            (
                b"# puzzle\n. Q\n. .\n# solution: 2 3\n",
                "2 columns from 1 to 2",
            ),
            (
                b"# puzzle\n. Q\n. .\n# solution: 2\n",
                "2 rows and the solution 1 columns",
            ),
        ] {
            let err = parse_with(parse, text, 64).unwrap_err();
            assert!(err.contains(want), "{err}");
        }
    }
}
