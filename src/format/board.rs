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

use std::io::{self, Write};

use crate::Placement;

/// Writes `placement` as a board followed by a blank line.
///
/// ```
/// let mut out = Vec::new();
/// nqueens::format::board::write(&mut out, &nqueens::Placement::new(vec![1, 0])).unwrap();
/// assert_eq!(out, b". Q\nQ .\n\n");
/// ```
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

/// Parses one board: every row must have exactly one queen and as many squares as there are rows.
pub(super) fn parse(text: &[u8]) -> Result<Placement, String> {
    let mut rows = Vec::new();
    for line in text.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        let row = rows.len() + 1;
        let mut width = 0u32;
        let mut queen = None;
        for &b in line {
            match b {
                b' ' | b'\t' => continue,
                b'.' => {}
                b'Q' if queen.is_some() => return Err(format!("row {row} has two queens")),
                b'Q' => queen = Some(width),
                other => {
                    return Err(format!(
                        "row {row}: unexpected character {:?} in a board (Q and . only)",
                        char::from(other)
                    ))
                }
            }
            width += 1;
        }
        rows.push((queen, width));
    }
    let n = rows.len();
    if let Some(i) = rows.iter().position(|&(_, w)| w as usize != n) {
        return Err(format!(
            "row {} has {} squares, but the board has {n} rows",
            i + 1,
            rows[i].1
        ));
    }
    super::complete_rows(rows.into_iter().map(|(q, _)| q).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
