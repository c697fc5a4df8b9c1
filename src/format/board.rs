//! `board`: the board drawn one row per line, `Q` for a queen and `.` for an empty square,
//! squares separated by spaces, and a blank line after each board:
//!
//! ```text
//! . Q . .
//! . . . Q
//! Q . . .
//! . . Q .
//! ```
//!
//! Reading also accepts rows written without spaces (`.Q..`).

use std::io::{self, BufRead, Write};

use super::{Malformed, Rest, Source, Until};
use crate::Placement;

/// Writes `placement` as a board followed by a blank line.
///
/// ```
/// let mut out = Vec::new();
/// nqueens::format::board::write(&mut out, &nqueens::Placement::new(vec![1, 0])).unwrap();
/// assert_eq!(out, b". Q\nQ .\n\n");
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write(out: &mut impl Write, placement: &Placement) -> io::Result<()> {
    let n = placement.n();
    let mut row = Vec::with_capacity(2 * n);
    for &c in placement.cols() {
        row.clear();
        for i in 0..n {
            if i > 0 {
                row.push(b' ');
            }
            // Columns off the board are not drawn: such a placement is not a board anyway.
            row.push(if i == c as usize { b'Q' } else { b'.' });
        }
        row.push(b'\n');
        out.write_all(&row)?;
    }
    out.write_all(b"\n")
}

/// Parses one board, row by row as the input streams by: the first row's width is the board's
/// size, every row must have as many squares and exactly one queen, and a blank line (or the
/// end of the input) ends the board. Only the queens' columns are kept, and reading stops at
/// the first defect, named by its own line.
pub(super) fn parse<R: BufRead>(
    src: &mut Source<R>,
    max_n: usize,
) -> io::Result<Result<Placement, Malformed>> {
    let mut cols: Vec<u32> = Vec::new();
    let mut n: Option<usize> = None;
    loop {
        let line = src.line;
        let row = cols.len() + 1;
        let widest = n.unwrap_or(max_n);
        let mut width = 0usize;
        let mut queen: Option<usize> = None;
        let mut defect: Option<String> = None;
        let mut two_queens = false;
        let ended = src.skip_until(|b| {
            match b {
                b'\n' => return true,
                b'.' => width += 1,
                b'Q' if queen.is_some() => {
                    two_queens = true;
                    defect = Some(format!("row {row} has two queens"));
                }
                b'Q' => {
                    queen = Some(width);
                    width += 1;
                }
                b if b.is_ascii_whitespace() => {}
                other => {
                    defect = Some(format!(
                        "row {row}: unexpected character {:?} in a board (Q and . only)",
                        char::from(other)
                    ))
                }
            }
            if defect.is_none() && width > widest {
                defect = Some(match n {
                    Some(n) => format!("row {row} has more than {n} squares, like the first row"),
                    None => format!("row {row} has more than {max_n} squares"),
                });
            }
            defect.is_some()
        })?;
        let malformed = |message: String, rest: Rest| {
            Ok(Err(Malformed {
                line,
                message,
                rest,
                attack: false,
            }))
        };
        if let Some(message) = defect {
            let rest = Rest {
                line: true,
                until: Until::Blank,
            };
            return Ok(Err(Malformed {
                line,
                message,
                rest,
                attack: two_queens,
            }));
        }
        let rest = Rest {
            line: false,
            until: if ended { Until::Blank } else { Until::Nothing },
        };
        if width == 0 {
            // A blank line, or the end of the input: the board is over.
            let n = n.unwrap_or_default();
            if cols.len() < n {
                let message = format!(
                    "the board ends after {} rows, but its rows have {n} squares",
                    cols.len()
                );
                return malformed(message, Rest::NOTHING);
            }
            return Ok(Ok(Placement::new(cols)));
        }
        let n = *n.get_or_insert(width);
        if cols.len() == n {
            return malformed(format!("the board has more than {n} rows"), rest);
        }
        if width != n {
            let message = format!("row {row} has {width} squares, but the first row has {n}");
            return malformed(message, rest);
        }
        let Some(queen) = queen else {
            return malformed(format!("row {row} has no queen"), rest);
        };
        cols.push(queen as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Result<Placement, String> {
        crate::format::parse_with(super::parse, text, crate::format::MAX_N)
    }

    #[test]
    fn compact_and_spaced_rows() {
        let want = Placement::new(vec![1, 3, 0, 2]);
        assert_eq!(parse(b".Q..\n...Q\nQ...\n..Q.\n"), Ok(want.clone()));
        assert_eq!(parse(b". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n"), Ok(want));
    }

    #[test]
    fn malformed_boards() {
        assert_eq!(parse(b"Q.\n..\n").unwrap_err(), "row 2 has no queen");
        assert_eq!(parse(b"QQ\n.Q\n").unwrap_err(), "row 1 has two queens");
        assert!(parse(b"Q..\n.Q.\n").unwrap_err().contains("3 squares"));
        assert!(parse(b"Qx\n.Q\n").unwrap_err().contains("'x'"));
        assert!(
            parse(b"Q...\n..Q.\n")
                .unwrap_err()
                .contains("ends after 2 rows")
        );
        assert!(
            parse(b".Q\nQ.\n.Q\n")
                .unwrap_err()
                .contains("more than 2 rows")
        );
    }
}
