//! Text forms of a [`Placement`]: writing and reading back.
//!
//! Four formats, each in its own module: [`perm`] (the 1-based column of each row on one line,
//! the compact form), [`board`] (the board drawn with `Q` and `.`), [`json`] (one JSON object
//! per line) and [`svg`] (a picture of the chessboard). Every format that writes a placement can
//! be read back by [`Reader`], which tells the format of each record from its first character,
//! so that the output of `solve`, `find` and `complete` can be piped into `verify` and
//! `complete` whatever format was chosen.
//!
//! Reading streams: a perm line is parsed byte by byte straight from the input buffer, and a
//! JSON object is decoded straight from the input too, so a placement of 10^8 queens costs
//! only its columns in memory.

use std::fmt;
use std::io::{self, BufRead, Write};

use crate::Placement;

pub mod board;
pub mod json;
pub mod perm;
pub mod svg;

/// A way to write a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// The board, one row per line: `Q` a queen, `.` an empty square; a blank line after it.
    Board,
    /// One placement per line: the 1-based column of each row, separated by spaces.
    Perm,
    /// One JSON object per line (JSON Lines): `{"n":4,"columns":[2,4,1,3]}`, columns 1-based.
    Json,
    /// An SVG picture of the board, one `<svg>` document per placement.
    Svg,
}

/// Writes one placement in `format`.
///
/// ```
/// use nqueens::{Placement, format::{write, Format}};
/// let p = Placement::new(vec![1, 3, 0, 2]);
/// let mut out = Vec::new();
/// write(&mut out, &p, Format::Perm).unwrap();
/// write(&mut out, &p, Format::Board).unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "2 4 1 3\n. Q . .\n. . . Q\nQ . . .\n. . Q .\n\n"
/// );
/// ```
pub fn write(out: &mut impl Write, placement: &Placement, format: Format) -> io::Result<()> {
    match format {
        Format::Board => board::write(out, placement),
        Format::Perm => perm::write(out, placement),
        Format::Json => json::write(out, placement),
        Format::Svg => svg::write(out, placement),
    }
}

/// Why a record of the input could not be read as a placement.
#[derive(Debug)]
pub enum ReadError {
    /// The input could not be read at all.
    Io(io::Error),
    /// The record starting on `line` (1-based) is not a placement in any format.
    Malformed {
        /// The 1-based line where the record starts.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read the input: {e}"),
            ReadError::Malformed { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads placements one record at a time from any mix of the formats that [`write()`] produces.
///
/// The format of each record is told by its first non-blank character: a digit starts a perm
/// line, `Q` or `.` a board, `{` a JSON object, `<` an SVG document. A malformed record gives
/// one `Err` and reading goes on after it; an unreadable input gives one `Err` and ends.
///
/// ```
/// use nqueens::{Placement, format::Reader};
/// let text = "2 4 1 3\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n\n{\"n\":4,\"columns\":[2,4,1,3]}\n";
/// let all: Vec<Placement> = Reader::new(text.as_bytes()).map(Result::unwrap).collect();
/// assert_eq!(all.len(), 3);
/// assert!(all.iter().all(Placement::is_solution));
/// ```
pub struct Reader<R> {
    input: R,
    /// The 1-based number of the line the input is positioned on.
    line: usize,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        Reader {
            input,
            line: 1,
            done: false,
        }
    }

    /// Skips blank space and returns the next byte without consuming it.
    fn peek_record_start(&mut self) -> io::Result<Option<u8>> {
        loop {
            let buf = self.input.fill_buf()?;
            let Some(&b) = buf.first() else {
                return Ok(None);
            };
            if !b.is_ascii_whitespace() {
                return Ok(Some(b));
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.input.consume(1);
        }
    }

    /// Reads the rest of the current line (newline included) into `buf`, counting it.
    fn read_line(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let len = self.input.read_until(b'\n', buf)?;
        if buf.last() == Some(&b'\n') {
            self.line += 1;
        }
        Ok(len)
    }

    /// Reads lines up to and including the first one that contains `end` (or to the end).
    fn read_until_marker(&mut self, end: &[u8]) -> io::Result<Vec<u8>> {
        let mut text = Vec::new();
        loop {
            let start = text.len();
            if self.read_line(&mut text)? == 0 || contains(&text[start..], end) {
                return Ok(text);
            }
        }
    }

    /// Reads lines up to the first blank one (or to the end).
    fn read_until_blank(&mut self) -> io::Result<Vec<u8>> {
        let mut text = Vec::new();
        loop {
            let start = text.len();
            if self.read_line(&mut text)? == 0 || text[start..].trim_ascii().is_empty() {
                return Ok(text);
            }
        }
    }

    fn read_record(&mut self, first: u8) -> io::Result<Result<Placement, String>> {
        Ok(match first {
            b'0'..=b'9' => {
                let parsed = perm::parse_line(&mut self.input)?;
                if parsed.ended_line {
                    self.line += 1;
                }
                parsed.placement
            }
            b'Q' | b'.' => board::parse(&self.read_until_blank()?),
            b'{' => {
                let parsed = json::parse_from(&mut self.input)?;
                if parsed.is_err() {
                    // Resume reading on the next line.
                    self.read_line(&mut Vec::new())?;
                }
                parsed
            }
            b'<' => svg::parse(&self.read_until_marker(b"</svg>")?),
            other => {
                let mut rest = Vec::new();
                self.read_line(&mut rest)?;
                Err(format!(
                    "cannot tell the format from {:?}: expected a perm line (digits), a board \
                     (Q and .), a JSON object ({{) or an SVG picture (<)",
                    char::from(other)
                ))
            }
        })
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Placement, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut start_line = self.line;
        let result = match self.peek_record_start() {
            Ok(None) => {
                self.done = true;
                return None;
            }
            Ok(Some(first)) => {
                start_line = self.line;
                self.read_record(first)
            }
            Err(e) => Err(e),
        };
        let line = start_line;
        Some(match result {
            Ok(Ok(p)) => Ok(p),
            Ok(Err(message)) => Err(ReadError::Malformed { line, message }),
            Err(e) => {
                self.done = true;
                Err(ReadError::Io(e))
            }
        })
    }
}

/// Reads every placement in `text`, whatever format wrote it (see [`Reader`]).
///
/// ```
/// let read = nqueens::format::read("2 4 1 3\n3 1 4 2\n0 1\n");
/// assert!(read[0].is_ok() && read[1].is_ok());
/// assert!(read[2].is_err());
/// ```
pub fn read(text: &str) -> Vec<Result<Placement, String>> {
    Reader::new(text.as_bytes())
        .map(|r| r.map_err(|e| e.to_string()))
        .collect()
}

/// Appends the decimal digits of `v` to `buf`, without the formatting machinery: the writers
/// of big placements spend most of their time here.
fn push_decimal(buf: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

/// Writes the 1-based columns separated by `sep`, in chunks so that a placement of 10^8 queens
/// is written without building its whole text.
fn write_columns(out: &mut impl Write, placement: &Placement, sep: &[u8]) -> io::Result<()> {
    const CHUNK: usize = 1 << 16;
    let mut buf = Vec::with_capacity(CHUNK + 32);
    for (i, &c) in placement.cols().iter().enumerate() {
        if i > 0 {
            buf.extend_from_slice(sep);
        }
        push_decimal(&mut buf, u64::from(c) + 1);
        if buf.len() >= CHUNK {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// Checks that `rows` (the queen's column in each row, 0-based) form an `n`-row placement with
/// every column on the board, as the picture formats need; names the first bad row.
fn complete_rows(rows: Vec<Option<u32>>) -> Result<Placement, String> {
    rows.into_iter()
        .enumerate()
        .map(|(r, c)| c.ok_or_else(|| format!("row {} has no queen", r + 1)))
        .collect::<Result<Vec<_>, _>>()
        .map(Placement::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Placement {
        Placement::from_one_based(&[1, 5, 8, 6, 3, 7, 2, 4]).unwrap()
    }

    #[test]
    fn every_format_reads_back() {
        for format in [Format::Board, Format::Perm, Format::Json, Format::Svg] {
            let mut out = Vec::new();
            for _ in 0..3 {
                write(&mut out, &sample(), format).unwrap();
            }
            let back: Vec<_> = Reader::new(&out[..]).collect();
            assert_eq!(back.len(), 3, "{format:?}");
            for p in back {
                assert_eq!(p.unwrap(), sample(), "{format:?}");
            }
        }
    }

    #[test]
    fn errors_name_the_line_and_reading_goes_on() {
        let back: Vec<_> = Reader::new(&b"2 4 1 3\n\n2 x 1\n3 1 4 2\n"[..]).collect();
        assert_eq!(back.len(), 3);
        assert!(back[0].is_ok() && back[2].is_ok());
        assert_eq!(
            back[1].as_ref().unwrap_err().to_string(),
            "line 3: unexpected character 'x' in a perm line"
        );
    }

    #[test]
    fn a_broken_json_object_is_skipped_to_the_next_line() {
        let back: Vec<_> = Reader::new(&b"{\"n\":2,\"columns\":[1,x]} 1\n2 4 1 3\n"[..]).collect();
        assert_eq!(back.len(), 2);
        assert!(back[0]
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("line 1: not a placement in JSON"));
        assert_eq!(back[1].as_ref().unwrap(), &Placement::new(vec![1, 3, 0, 2]));
    }

    #[test]
    fn decimal_digits() {
        for v in [0, 7, 10, 99, 12345, u64::MAX] {
            let mut buf = Vec::new();
            push_decimal(&mut buf, v);
            assert_eq!(buf, v.to_string().into_bytes());
        }
    }
}
