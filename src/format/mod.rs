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
pub(crate) use line_ends::LineEnds;

pub mod board;
pub mod json;
mod line_ends;
pub(crate) mod page;
pub mod perm;
pub mod puzzle;
pub mod svg;

/// A way to write a placement.
///
/// ```
/// use nqueens::{Placement, format::{write, Format}};
/// let p = Placement::new(vec![1, 3, 0, 2]);
/// let mut out = Vec::new();
/// write(&mut out, &p, Format::Json).unwrap();
/// assert_eq!(out, b"{\"n\":4,\"columns\":[2,4,1,3]}\n");
/// ```
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
///
/// # Errors
/// The error of writing to `out`.
pub fn write(out: &mut impl Write, placement: &Placement, format: Format) -> io::Result<()> {
    match format {
        Format::Board => board::write(out, placement),
        Format::Perm => perm::write(out, placement),
        Format::Json => json::write(out, placement),
        Format::Svg => svg::write(out, placement),
    }
}

/// A placement too large for a drawing ([`Format::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{format} is limited to N <= {max} ({why})")]
pub struct TooLarge {
    /// The format: `board` or `svg`.
    pub format: &'static str,
    /// The largest N it draws.
    pub max: usize,
    /// Why.
    pub why: &'static str,
}

impl Format {
    /// Checks that a placement of `n` queens is worth writing in this format, the one rule of
    /// the command line and the Python module: perm lines and JSON take any `n`; a board drawing
    /// stops at 1000 (2 MB of text), a picture at 800 (a square would be smaller than a pixel).
    ///
    /// ```
    /// use nqueens::format::Format;
    /// assert!(Format::Perm.check(1 << 30).is_ok() && Format::Board.check(1000).is_ok());
    /// let refused = Format::Svg.check(801).unwrap_err().to_string();
    /// assert_eq!(refused, "svg is limited to N <= 800 (the picture is at most 800 pixels wide)");
    /// ```
    ///
    /// # Errors
    /// [`TooLarge`] for a board beyond 1000 queens or a picture beyond 800.
    pub fn check(self, n: usize) -> Result<(), TooLarge> {
        let (format, max, why) = match self {
            Format::Perm | Format::Json => return Ok(()),
            Format::Board => ("board", 1000, "a board has N x N cells"),
            Format::Svg => ("svg", 800, "the picture is at most 800 pixels wide"),
        };
        if n > max {
            return Err(TooLarge { format, max, why });
        }
        Ok(())
    }
}

/// The most queens a record may hold unless [`Reader::max_n`] lowers it: columns are `u32`,
/// the largest board `nqueens find` writes.
pub const MAX_N: usize = u32::MAX as usize;

/// Why a record of the input could not be read as a placement.
///
/// ```
/// use nqueens::format::{Reader, ReadError};
/// let first = Reader::new("2 4 1 3\nQ ?\n".as_bytes()).nth(1).unwrap();
/// assert!(matches!(first, Err(ReadError::Malformed { .. })), "{first:?}");
/// ```
#[derive(Debug)]
pub enum ReadError {
    /// The input could not be read at all.
    Io(io::Error),
    /// A record of the input is not a placement in any format.
    Malformed {
        /// The 1-based line where the defect was found.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A record draws two queens in one row (a board or a picture): a placement, but not a
    /// solution, which no [`Placement`] can hold. Reading goes on after it, as after
    /// [`Malformed`](ReadError::Malformed).
    ///
    /// ```
    /// use nqueens::format::{Reader, ReadError};
    /// let first = Reader::new("QQ\n..\n".as_bytes()).next().unwrap();
    /// assert!(matches!(first, Err(ReadError::Attack { line: 1, .. })), "{first:?}");
    /// ```
    Attack {
        /// The 1-based line of the row.
        line: usize,
        /// Which row.
        message: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read the input: {e}"),
            ReadError::Malformed { line, message } | ReadError::Attack { line, message } => {
                write!(f, "line {line}: {message}")
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// Shows a piece of the input in an error message: quoted as Rust quotes a string, and cut to
/// its first few dozen characters (with its length in bytes) when longer, so that a 100 MB
/// token gives a short line.
///
/// ```
/// use nqueens::format::excerpt;
/// assert_eq!(excerpt("x1"), "\"x1\"");
/// let long = "7".repeat(1000);
/// assert_eq!(excerpt(&long), format!("\"{}\"... (1000 bytes)", "7".repeat(32)));
/// ```
pub fn excerpt(text: impl AsRef<[u8]>) -> String {
    const SHOWN: usize = 32;
    let bytes = text.as_ref();
    // Four bytes per character at most: enough bytes for SHOWN characters.
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4 * SHOWN)]);
    let mut chars = head.chars();
    let shown: String = chars.by_ref().take(SHOWN).collect();
    if chars.next().is_none() && bytes.len() <= 4 * SHOWN {
        format!("{shown:?}")
    } else {
        format!("{shown:?}... ({} bytes)", bytes.len())
    }
}

/// The UTF-8 byte order mark, which some editors put at the start of a text file.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What a reader says of text in UTF-16 (as some Windows editors save it), in `verify` and
/// `complete` alike.
pub(crate) const UTF16: &str =
    "the text is UTF-16, not UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)";

/// `true` if the first bytes of an input look like UTF-16: its byte order mark, or a NUL byte
/// beside an ASCII one, which text in UTF-8 never has.
pub(crate) fn is_utf16(start: &[u8]) -> bool {
    match start {
        [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..] => true,
        [a, b, ..] => (*a == 0) != (*b == 0),
        _ => false,
    }
}

/// The character that starts `bytes`, as a message shows it: the whole character, not its
/// first byte (`'é'`, not `'Ã'`); U+FFFD where the bytes are not UTF-8.
pub(crate) fn char_at(bytes: &[u8]) -> char {
    String::from_utf8_lossy(&bytes[..bytes.len().min(4)])
        .chars()
        .next()
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Why a record stopped after `read` queens: their columns no longer fit in memory. Readers
/// bound a record by [`Reader::max_n`], but the memory may be short of even that.
fn too_big(read: usize, e: crate::memory::OutOfMemory) -> String {
    format!("a placement of more than {read} queens: {e}")
}

/// A malformed record: where and why, and what of it is left to skip before the next record.
pub(crate) struct Malformed {
    line: usize,
    message: String,
    rest: Rest,
    /// The record draws two queens in one row: a placement that is not a solution, which no
    /// [`Placement`] can hold, rather than text that is not a placement.
    attack: bool,
}

/// What is left of a malformed record once its defect is found: reading stops at the defect,
/// so an endless record (`verify /dev/zero`) gives its error at once and in constant memory,
/// and the rest is skipped, without being kept, only if the caller asks for the next record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rest {
    /// The rest of the current line.
    line: bool,
    /// Then whole lines, up to what ends the record.
    until: Until,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Until {
    Nothing,
    /// The blank line after a board.
    Blank,
    /// The `</svg>` that closes a picture, and the rest of its line.
    SvgEnd,
}

impl Rest {
    const NOTHING: Rest = Rest {
        line: false,
        until: Until::Nothing,
    };
    const LINE: Rest = Rest {
        line: true,
        until: Until::Nothing,
    };
}

/// The input with the number of the line it is positioned on.
pub(crate) struct Source<R> {
    input: R,
    /// The 1-based number of the line the input is positioned on.
    line: usize,
}

impl<R: BufRead> Source<R> {
    /// Consumes bytes up to and including the first for which `stop` holds; `true` if one did.
    fn skip_until(&mut self, mut stop: impl FnMut(u8) -> bool) -> io::Result<bool> {
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let found = buf.iter().position(|&b| stop(b));
            let used = found.map_or(buf.len(), |i| i + 1);
            self.line += buf[..used].iter().filter(|&&b| b == b'\n').count();
            self.input.consume(used);
            if found.is_some() {
                return Ok(true);
            }
        }
    }

    /// Consumes the rest of the current line, keeping none of it.
    fn skip_line(&mut self) -> io::Result<()> {
        self.skip_until(|b| b == b'\n').map(drop)
    }

    /// Consumes the rest of a record that broke off at a defect.
    fn skip(&mut self, rest: Rest) -> io::Result<()> {
        if rest.line {
            self.skip_line()?;
        }
        match rest.until {
            Until::Nothing => Ok(()),
            Until::Blank => loop {
                let mut blank = true;
                // Stops at the end of the line or at its first non-blank byte.
                let found = self.skip_until(|b| {
                    blank &= b == b'\n' || b.is_ascii_whitespace();
                    b == b'\n' || !blank
                })?;
                if !found || blank {
                    return Ok(());
                }
                self.skip_line()?;
            },
            Until::SvgEnd => {
                const END: &[u8] = b"</svg>";
                // "</svg>" has no prefix that is also a suffix, so a mismatch restarts the match.
                let mut matched = 0;
                self.skip_until(|b| {
                    matched = if b == END[matched] {
                        matched + 1
                    } else {
                        usize::from(b == END[0])
                    };
                    matched == END.len()
                })?;
                self.skip_line()
            }
        }
    }
}

/// The `parse` function every format module has, over a byte slice.
#[cfg(test)]
type Parser<'a> = fn(&mut Source<&'a [u8]>, usize) -> io::Result<Result<Placement, Malformed>>;

/// Runs one format's parser over `text` (records of up to `max_n` queens), for its unit tests:
/// the placement, or the message of the defect.
#[cfg(test)]
fn parse_with<'a>(parse: Parser<'a>, text: &'a [u8], max_n: usize) -> Result<Placement, String> {
    let mut src = Source {
        input: text,
        line: 1,
    };
    parse(&mut src, max_n)
        .expect("reading a byte slice cannot fail")
        .map_err(|m| m.message)
}

/// Reads placements one record at a time from any mix of the formats that [`write()`] produces.
///
/// The format of each record is told by its first non-blank character: a digit starts a perm
/// line, `Q` or `.` a board, `{` a JSON object, `<` an SVG document, `#` a puzzle of
/// `nqueens puzzle` (its solution is read, checked against its givens and blocked squares). A malformed record gives
/// one `Err` and reading goes on after it; an unreadable input gives one `Err` and ends.
/// Lines may end in `\n`, `\r\n` or a lone `\r`; text in UTF-16 gives one `Err` that says so.
///
/// Memory stays bounded by what the input holds: nothing is allocated for a size the input
/// claims (an SVG `viewBox`, a JSON `"n"`) before the queens are there, no record may hold more
/// than [`max_n`](Reader::max_n) queens, and reading stops at the first defect of a record, so
/// that even an endless input without newlines gives its error at once.
///
/// ```
/// use nqueens::{Placement, format::Reader};
/// let text = "2 4 1 3\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n\n{\"n\":4,\"columns\":[2,4,1,3]}\n";
/// let all: Vec<Placement> = Reader::new(text.as_bytes()).map(Result::unwrap).collect();
/// assert_eq!(all.len(), 3);
/// assert!(all.iter().all(Placement::is_solution));
/// let mac: Vec<_> = Reader::new(&b"2 4 1 3\r3 1 4 2\r"[..]).collect();
/// assert_eq!(mac.len(), 2);
/// let utf16 = Reader::new(&b"\xFF\xFE2\0 \04\0"[..]).next().unwrap().unwrap_err();
/// assert!(utf16.to_string().contains("UTF-16"), "{utf16}");
/// ```
pub struct Reader<R> {
    source: Source<LineEnds<R>>,
    max_n: usize,
    /// What is left of the last record, if it was malformed.
    rest: Rest,
    done: bool,
    /// Whether the input's first bytes were looked at for a [`BOM`] yet.
    started: bool,
}

/// What comes next in the input.
enum Start {
    /// A record, starting with this byte.
    Record(u8),
    /// Nothing more.
    End,
    /// Text in UTF-16, which holds no record a reader of UTF-8 could read.
    Utf16,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `input`, for records of up to [`MAX_N`] queens (example on [`Reader`]).
    pub fn new(input: R) -> Self {
        Reader {
            source: Source {
                input: LineEnds::new(input),
                line: 1,
            },
            max_n: MAX_N,
            rest: Rest::NOTHING,
            done: false,
            started: false,
        }
    }

    /// Refuses, as malformed, records of more than `max_n` queens, before reading them whole:
    /// the memory a record may take is about 4 bytes per queen.
    ///
    /// ```
    /// use nqueens::format::Reader;
    /// let mut r = Reader::new(&b"1 3 5 2 4\n"[..]).max_n(4);
    /// assert_eq!(r.next().unwrap().unwrap_err().to_string(), "line 1: more than 4 columns");
    /// ```
    #[must_use]
    pub fn max_n(mut self, max_n: usize) -> Self {
        self.max_n = max_n.min(MAX_N);
        self
    }

    /// Skips blank space and returns the next byte without consuming it.
    fn peek_record_start(&mut self) -> io::Result<Start> {
        if !self.started {
            self.started = true;
            let start = self.source.input.fill_buf()?;
            if is_utf16(start) {
                return Ok(Start::Utf16);
            }
            if start.starts_with(BOM) {
                self.source.input.consume(BOM.len());
            }
        }
        loop {
            let buf = self.source.input.fill_buf()?;
            let Some(&b) = buf.first() else {
                return Ok(Start::End);
            };
            if !b.is_ascii_whitespace() {
                return Ok(Start::Record(b));
            }
            self.source.line += usize::from(b == b'\n');
            self.source.input.consume(1);
        }
    }

    fn read_record(&mut self, first: u8) -> io::Result<Result<Placement, Malformed>> {
        let max_n = self.max_n;
        let src = &mut self.source;
        match first {
            b'0'..=b'9' => perm::parse(src, max_n),
            b'Q' | b'.' => board::parse(src, max_n),
            b'{' => json::parse(src, max_n),
            b'<' => svg::parse(src, max_n),
            b'#' => puzzle::parse(src, max_n),
            _ => Ok(Err(Malformed {
                line: src.line,
                message: format!(
                    "cannot tell the format from {:?}: expected a perm line (digits), a board \
                     (Q and .), a JSON object ({{), an SVG picture (<) or a puzzle (# puzzle)",
                    char_at(src.input.fill_buf()?)
                ),
                rest: Rest::LINE,
                attack: false,
            })),
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Placement, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let rest = std::mem::replace(&mut self.rest, Rest::NOTHING);
        let result = match self
            .source
            .skip(rest)
            .and_then(|()| self.peek_record_start())
        {
            Ok(Start::End) => {
                self.done = true;
                return None;
            }
            Ok(Start::Record(first)) => self.read_record(first),
            Ok(Start::Utf16) => {
                self.done = true;
                return Some(Err(ReadError::Malformed {
                    line: 1,
                    message: UTF16.into(),
                }));
            }
            Err(e) => Err(e),
        };
        Some(match result {
            Ok(Ok(p)) => Ok(p),
            Ok(Err(m)) => {
                self.rest = m.rest;
                let (line, message) = (m.line, m.message);
                Err(if m.attack {
                    ReadError::Attack { line, message }
                } else {
                    ReadError::Malformed { line, message }
                })
            }
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
        assert!(
            back[0]
                .as_ref()
                .unwrap_err()
                .to_string()
                .starts_with("line 1: not a placement in JSON")
        );
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
