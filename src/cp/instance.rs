//! Instances: a board size, queens that are given and must stay, and blocked squares.
//!
//! An [`Instance`] is valid by construction: [`Instance::fix`] and [`Instance::block`] refuse
//! a queen that attacks another given queen, a queen on a blocked square, or a square off the
//! board. [`Instance::parse`] reads the three text forms of `nqueens complete`.

use std::collections::BTreeSet;
use std::fmt;
use std::io::{BufRead, Read};

use super::domain::NONE;
use crate::Placement;
use crate::format::{ReadError, Reader, excerpt};

/// The largest board an instance may have. Each queen costs `O(n)` work and blocked squares
/// take `n * n` bits; one solution for larger boards is the job of `nqueens find`.
pub const MAX_N: usize = 1 << 15;

/// A completion problem: board size, given queens, blocked squares (all 0-based).
///
/// ```
/// use nqueens::cp::Instance;
/// let mut inst = Instance::new(4);
/// inst.fix(0, 1).unwrap();
/// assert!(inst.fix(1, 2).is_err()); // attacks (0, 1) along a diagonal
/// inst.block(3, 3).unwrap();
/// assert_eq!(inst.fixed().count(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    n: usize,
    /// The given queen's column in each row, or `NONE`.
    queens: Vec<u32>,
    blocked: BTreeSet<(u32, u32)>,
    /// The row of the given queen on each column / `\` diagonal / `/` diagonal, or `NONE`:
    /// a new queen's conflict is found, and named, in constant time.
    col_owner: Vec<u32>,
    diag_owner: Vec<u32>,
    anti_owner: Vec<u32>,
}

/// Why a square cannot be added to an instance (rows and columns shown 1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InstanceError {
    /// The board size is 0 or larger than [`MAX_N`].
    #[error("the board size must be from 1 to {max}, not {n}", max = MAX_N)]
    Size {
        /// The size asked for.
        n: usize,
    },
    /// A square lies off the board.
    #[error("row {row}, column {col} is outside the {n}x{n} board", row = .row + 1, col = .col + 1)]
    OutOfBoard {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// Board size.
        n: usize,
    },
    /// Two given queens attack each other.
    #[error("the queen at row {r2}, column {c2} attacks the one at row {r1}, column {c1} along a {line}",
        r1 = .first.0 + 1, c1 = .first.1 + 1, r2 = .second.0 + 1, c2 = .second.1 + 1)]
    Attack {
        /// 0-based (row, column) of the queen given first.
        first: (usize, usize),
        /// 0-based (row, column) of the queen given second.
        second: (usize, usize),
        /// The line they share: row, column, diagonal or anti-diagonal.
        line: &'static str,
    },
    /// A given queen stands on a blocked square.
    #[error("row {row}, column {col} holds a queen and is blocked", row = .row + 1, col = .col + 1)]
    QueenOnBlocked {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
}

/// Why a text is not an instance: the 1-based line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// The 1-based line the problem is on.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl Instance {
    /// The longest line [`Instance::read`] accepts, in bytes: a perm line or a JSON object of
    /// [`MAX_N`] queens, or a drawing row of [`MAX_N`] cells with spaces, fits with room to
    /// spare.
    pub const MAX_LINE: usize = 8 * MAX_N + 4096;

    /// An empty board of size `n`.
    ///
    /// # Panics
    /// If `n` is 0 or larger than [`MAX_N`]; [`Instance::with_size`] returns an error instead.
    ///
    /// ```
    /// assert_eq!(nqueens::cp::Instance::new(8).n(), 8);
    /// ```
    pub fn new(n: usize) -> Self {
        Self::with_size(n).expect("board size out of range")
    }

    /// An empty board of size `n`, or an error if `n` is 0 or larger than [`MAX_N`].
    ///
    /// ```
    /// assert!(nqueens::cp::Instance::with_size(0).is_err());
    /// ```
    ///
    /// # Errors
    /// [`InstanceError`] for a size of 0 or more than [`MAX_N`].
    pub fn with_size(n: usize) -> Result<Self, InstanceError> {
        if n == 0 || n > MAX_N {
            return Err(InstanceError::Size { n });
        }
        Ok(Instance {
            n,
            queens: vec![NONE; n],
            blocked: BTreeSet::new(),
            col_owner: vec![NONE; n],
            diag_owner: vec![NONE; 2 * n],
            anti_owner: vec![NONE; 2 * n],
        })
    }

    /// Every queen of a placement, given.
    ///
    /// ```
    /// use nqueens::{Placement, cp::Instance};
    /// let inst = Instance::from_placement(&Placement::new(vec![1, 3, 0, 2])).unwrap();
    /// assert_eq!(inst.fixed().count(), 4);
    /// ```
    ///
    /// # Errors
    /// [`InstanceError`] for a placement of no queen or more than [`MAX_N`], or two queens that attack each other.
    pub fn from_placement(p: &Placement) -> Result<Self, InstanceError> {
        let mut inst = Self::with_size(p.n())?;
        for (r, &c) in p.cols().iter().enumerate() {
            inst.fix(r, c as usize)?;
        }
        Ok(inst)
    }

    /// The board size.
    ///
    /// ```
    /// assert_eq!(nqueens::cp::Instance::new(5).n(), 5);
    /// ```
    pub fn n(&self) -> usize {
        self.n
    }

    fn check_square(&self, row: usize, col: usize) -> Result<(), InstanceError> {
        if row >= self.n || col >= self.n {
            return Err(InstanceError::OutOfBoard {
                row,
                col,
                n: self.n,
            });
        }
        Ok(())
    }

    /// Gives a queen at `(row, col)` (0-based). Giving the same queen twice is harmless.
    ///
    /// ```
    /// let mut inst = nqueens::cp::Instance::new(8);
    /// inst.fix(0, 0).unwrap();
    /// assert!(inst.fix(7, 7).is_err()); // same diagonal
    /// ```
    ///
    /// # Errors
    /// [`InstanceError`] for a square off the board, blocked, or attacked by a queen already there.
    pub fn fix(&mut self, row: usize, col: usize) -> Result<(), InstanceError> {
        self.check_square(row, col)?;
        if self.blocked.contains(&(row as u32, col as u32)) {
            return Err(InstanceError::QueenOnBlocked { row, col });
        }
        if self.queens[row] == col as u32 {
            return Ok(());
        }
        let d = row + self.n - 1 - col;
        let a = row + col;
        let owners = [
            (self.queens[row], "row"),
            (self.col_owner[col], "column"),
            (self.diag_owner[d], "diagonal"),
            (self.anti_owner[a], "anti-diagonal"),
        ];
        for (owner, line) in owners {
            if owner != NONE {
                // The row's own entry holds a column, the other three hold a row.
                let first = if line == "row" {
                    (row, owner as usize)
                } else {
                    (owner as usize, self.queens[owner as usize] as usize)
                };
                return Err(InstanceError::Attack {
                    first,
                    second: (row, col),
                    line,
                });
            }
        }
        self.queens[row] = col as u32;
        self.col_owner[col] = row as u32;
        self.diag_owner[d] = row as u32;
        self.anti_owner[a] = row as u32;
        Ok(())
    }

    /// Blocks the square `(row, col)` (0-based): no queen may stand there.
    ///
    /// ```
    /// let mut inst = nqueens::cp::Instance::new(8);
    /// inst.fix(2, 2).unwrap();
    /// assert!(inst.block(2, 2).is_err());
    /// assert!(inst.block(2, 3).is_ok());
    /// ```
    ///
    /// # Errors
    /// [`InstanceError`] for a square off the board or holding a queen.
    pub fn block(&mut self, row: usize, col: usize) -> Result<(), InstanceError> {
        self.check_square(row, col)?;
        if self.queens[row] == col as u32 {
            return Err(InstanceError::QueenOnBlocked { row, col });
        }
        self.blocked.insert((row as u32, col as u32));
        Ok(())
    }

    /// The given queens as 0-based `(row, col)`, by row.
    ///
    /// ```
    /// let mut inst = nqueens::cp::Instance::new(8);
    /// inst.fix(3, 0).unwrap();
    /// assert_eq!(inst.fixed().collect::<Vec<_>>(), vec![(3, 0)]);
    /// ```
    pub fn fixed(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.queens
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != NONE)
            .map(|(r, &c)| (r, c as usize))
    }

    /// The blocked squares as 0-based `(row, col)`, by row then column.
    ///
    /// ```
    /// let mut inst = nqueens::cp::Instance::new(8);
    /// inst.block(3, 0).unwrap();
    /// assert_eq!(inst.blocked().collect::<Vec<_>>(), vec![(3, 0)]);
    /// ```
    pub fn blocked(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.blocked.iter().map(|&(r, c)| (r as usize, c as usize))
    }

    /// `true` if `p` solves this instance: a solution of the right size that keeps every given
    /// queen and leaves every blocked square empty.
    ///
    /// ```
    /// use nqueens::{Placement, cp::Instance};
    /// let mut inst = Instance::new(4);
    /// inst.fix(0, 1).unwrap();
    /// assert!(inst.admits(&Placement::new(vec![1, 3, 0, 2])));
    /// assert!(!inst.admits(&Placement::new(vec![2, 0, 3, 1])));
    /// ```
    pub fn admits(&self, p: &Placement) -> bool {
        p.n() == self.n
            && p.is_solution()
            && self.fixed().all(|(r, c)| p.cols()[r] as usize == c)
            && self.blocked().all(|(r, c)| p.cols()[r] as usize != c)
    }

    /// Reads an instance in any of four text forms, told apart by the first line:
    ///
    /// 1. **A list**: the first line is `N`; then one square per line, 1-based `row col`.
    ///    A line `q row col` (or just `row col`) gives a queen, `x row col` blocks a square.
    /// 2. **A board drawing**: `N` lines of `N` cells, `Q` a given queen, `x` a blocked square,
    ///    `.` a free square; spaces between cells are optional.
    /// 3. **A placement** in any format `nqueens solve` writes: every queen is given.
    /// 4. **A JSON object** on one line with `"n"` and 1-based `[row, col]` squares under
    ///    `"givens"` and `"blocked"`, as `nqueens puzzle --format json` writes it (other fields
    ///    are ignored).
    ///
    /// In the first two forms `#` starts a comment that runs to the end of the line. Errors
    /// name the line and what is wrong there.
    ///
    /// ```
    /// use nqueens::cp::Instance;
    /// let list = Instance::parse("8\nq 1 1\nx 2 3   # no queen here\n").unwrap();
    /// assert_eq!(list.n(), 8);
    /// assert_eq!(list.fixed().collect::<Vec<_>>(), vec![(0, 0)]);
    /// assert_eq!(list.blocked().collect::<Vec<_>>(), vec![(1, 2)]);
    /// let short = Instance::parse("Q.......\n..x.....\n").unwrap_err();
    /// assert_eq!(short.to_string(), "line 2: the drawing ends after 2 rows, expected 8");
    /// ```
    ///
    /// ```
    /// use nqueens::cp::Instance;
    /// let inst = Instance::parse("Q . . .\n. . x .\n. . . .\n. . . .\n").unwrap();
    /// assert_eq!(inst.n(), 4);
    /// assert_eq!(inst.blocked().collect::<Vec<_>>(), vec![(1, 2)]);
    /// let err = Instance::parse("4\nq 1 1\nq 2 2\n").unwrap_err();
    /// assert_eq!(err.line, 3);
    /// ```
    ///
    /// # Errors
    /// [`ParseError`] with the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        Self::read(text.as_bytes())
    }

    /// Reads an instance in any of the forms of [`Instance::parse`] from `input`, line by line.
    ///
    /// Memory is bounded by what the instance holds, never by what the input claims: a line
    /// longer than [`Instance::MAX_LINE`] (no instance of at most [`MAX_N`] rows needs one) is refused as
    /// soon as that many bytes have been read, so an endless input without newlines gives an
    /// error at once. A failure to read the input is reported as a [`ParseError`] on the line
    /// reached.
    ///
    /// ```
    /// use std::io::Read;
    /// use nqueens::cp::Instance;
    /// let inst = Instance::read(&b"4\nq 1 2\n"[..]).unwrap();
    /// assert_eq!(inst.fixed().collect::<Vec<_>>(), vec![(0, 1)]);
    /// let endless = std::io::repeat(b'.').take(2 * Instance::MAX_LINE as u64);
    /// let err = Instance::read(std::io::BufReader::new(endless)).unwrap_err();
    /// assert!(err.message.starts_with("longer than"));
    /// ```
    ///
    /// # Errors
    /// [`ParseError`] with the line and what is wrong with it, or what reading failed.
    pub fn read(input: impl BufRead) -> Result<Self, ParseError> {
        let mut lines = Lines {
            input: crate::format::LineEnds::new(input),
            number: 0,
            buf: Vec::new(),
        };
        loop {
            let Some((line, raw)) = lines.next()? else {
                return Err(ParseError {
                    line: lines.number.max(1),
                    message: "no instance: expected a board size N, a board drawing or a placement"
                        .into(),
                });
            };
            let first = content(raw);
            if first.is_empty() {
                continue;
            }
            return if first.bytes().all(|b| b.is_ascii_digit()) {
                let first = first.to_string();
                parse_list(line, &first, &mut lines)
            } else if first.chars().all(|ch| is_cell(ch) || ch.is_whitespace()) {
                let first = first.to_string();
                parse_drawing(line, &first, &mut lines)
            } else if let Some(clues) = JsonInstance::of(raw) {
                let inst = clues
                    .map_err(|message| ParseError { line, message })?
                    .instance(line)?;
                only_one(line, &mut lines)?;
                Ok(inst)
            } else {
                let mut raw = raw.as_bytes().to_vec();
                raw.push(b'\n');
                parse_placement(line, &raw, &mut lines.input)
            };
        }
    }
}

/// The input, one line at a time, each at most [`Instance::MAX_LINE`] bytes.
struct Lines<R> {
    input: R,
    /// The number of the last line read.
    number: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// The next line's number and text (without its line ending), or `None` at the end.
    fn next(&mut self) -> Result<Option<(usize, &str)>, ParseError> {
        self.buf.clear();
        self.number += 1;
        let line = self.number;
        let read = (&mut self.input)
            .take(Instance::MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| ParseError {
                line,
                message: format!("cannot read the input: {e}"),
            })?;
        if read == 0 {
            self.number -= 1;
            return Ok(None);
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if self.buf.len() > Instance::MAX_LINE {
            return Err(ParseError {
                line,
                message: format!(
                    "longer than {} bytes, more than an instance of up to {MAX_N} rows needs",
                    Instance::MAX_LINE
                ),
            });
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if line == 1 && crate::format::is_utf16(&self.buf) {
            return Err(ParseError {
                line,
                message: crate::format::UTF16.into(),
            });
        }
        if line == 1 && self.buf.starts_with(crate::format::BOM) {
            self.buf.drain(..crate::format::BOM.len());
        }
        let text = std::str::from_utf8(&self.buf).map_err(|_| ParseError {
            line,
            message: "not UTF-8 text".into(),
        })?;
        Ok(Some((line, text)))
    }
}

/// A line without its comment and surrounding blanks.
fn content(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

fn at(line: usize) -> impl Fn(InstanceError) -> ParseError {
    move |e| ParseError {
        line,
        message: e.to_string(),
    }
}

fn is_cell(ch: char) -> bool {
    matches!(ch, 'Q' | 'q' | 'x' | 'X' | '.')
}

fn parse_list<R: BufRead>(
    first_line: usize,
    first: &str,
    lines: &mut Lines<R>,
) -> Result<Instance, ParseError> {
    let n = first.parse().unwrap_or(usize::MAX);
    let mut inst = Instance::with_size(n).map_err(|_| ParseError {
        line: first_line,
        message: format!(
            "the board size must be from 1 to {MAX_N}, not {}",
            excerpt(first)
        ),
    })?;
    while let Some((line, raw)) = lines.next()? {
        let text = content(raw);
        if text.is_empty() {
            continue;
        }
        let err = |message: String| ParseError { line, message };
        let tokens: Vec<&str> = text
            .split(|ch: char| ch.is_whitespace() || ch == ',')
            .filter(|t| !t.is_empty())
            .collect();
        let (block, coords) = match tokens.as_slice() {
            ["q" | "Q", rest @ ..] => (false, rest),
            ["x" | "X", rest @ ..] => (true, rest),
            rest => (false, rest),
        };
        let [r, c] = coords else {
            return Err(err(format!(
                "expected `row col`, `q row col` or `x row col`, found {}",
                excerpt(text)
            )));
        };
        let num = |t: &str| match t.parse::<usize>() {
            Ok(0) => Err(err("rows and columns count from 1, found 0".into())),
            Ok(v) => Ok(v - 1),
            Err(_) => Err(err(format!("{} is not a row or column number", excerpt(t)))),
        };
        let (r, c) = (num(r)?, num(c)?);
        let added = if block {
            inst.block(r, c)
        } else {
            inst.fix(r, c)
        };
        added.map_err(at(line))?;
    }
    Ok(inst)
}

fn parse_drawing<R: BufRead>(
    first_line: usize,
    first: &str,
    lines: &mut Lines<R>,
) -> Result<Instance, ParseError> {
    let mut inst: Option<Instance> = None;
    let mut rows = 0;
    let mut last_line = first_line;
    let mut add_row = |line: usize, text: &str| -> Result<(), ParseError> {
        let err = |message: String| ParseError { line, message };
        let cells: Vec<char> = text.chars().filter(|ch| !ch.is_whitespace()).collect();
        if let Some(&bad) = cells.iter().find(|&&ch| !is_cell(ch)) {
            return Err(err(format!(
                "{bad:?} is not a cell of a board drawing (Q a queen, x blocked, . free)"
            )));
        }
        let inst = match &mut inst {
            Some(inst) => inst,
            None => inst.insert(Instance::with_size(cells.len()).map_err(at(line))?),
        };
        let n = inst.n();
        let r = rows;
        if r >= n {
            return Err(err(format!("the drawing has more than {n} rows")));
        }
        if cells.len() != n {
            return Err(err(format!(
                "row {} has {} cells, expected {n} like the first row",
                r + 1,
                cells.len()
            )));
        }
        for (c, &ch) in cells.iter().enumerate() {
            match ch {
                'Q' | 'q' => inst.fix(r, c).map_err(at(line))?,
                'x' | 'X' => inst.block(r, c).map_err(at(line))?,
                _ => {}
            }
        }
        rows += 1;
        Ok(())
    };
    add_row(first_line, first)?;
    while let Some((line, raw)) = lines.next()? {
        let text = content(raw);
        if !text.is_empty() {
            add_row(line, text)?;
            last_line = line;
        }
    }
    let inst = inst.expect("the first row made the instance");
    if rows < inst.n() {
        return Err(ParseError {
            line: last_line,
            message: format!("the drawing ends after {rows} rows, expected {}", inst.n()),
        });
    }
    Ok(inst)
}

/// The JSON form of an instance: one object with `"n"` and 1-based `[row, col]` squares under
/// `"givens"` and `"blocked"` (at least one of the two; other fields are ignored), as
/// `nqueens puzzle --format json` writes it.
#[derive(serde::Deserialize)]
struct JsonInstance {
    n: usize,
    givens: Option<Vec<[usize; 2]>>,
    blocked: Option<Vec<[usize; 2]>>,
}

impl JsonInstance {
    /// The instance in `line`, if it is one: a JSON placement (no `"givens"`, no `"blocked"`)
    /// or anything else is left to the placement reader and its messages. An object with
    /// clues is an instance or an error: clues it cannot read are never dropped in favour of
    /// the placement beside them (a puzzle's solution under `"columns"`).
    fn of(line: &str) -> Option<Result<Self, String>> {
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(line.trim()).ok()?;
        let has = |key| object.get(key).is_some_and(|v| !v.is_null());
        if !has("givens") && !has("blocked") {
            return None;
        }
        Some(serde_json::from_str(line.trim()).map_err(|e| format!("not an instance in JSON: {e}")))
    }

    fn instance(&self, line: usize) -> Result<Instance, ParseError> {
        let mut inst = Instance::with_size(self.n).map_err(at(line))?;
        let zero_based = |[r, c]: [usize; 2]| match (r.checked_sub(1), c.checked_sub(1)) {
            (Some(r), Some(c)) => Ok((r, c)),
            _ => Err(ParseError {
                line,
                message: "rows and columns count from 1, found 0".into(),
            }),
        };
        for &square in self.givens.iter().flatten() {
            let (r, c) = zero_based(square)?;
            inst.fix(r, c).map_err(at(line))?;
        }
        for &square in self.blocked.iter().flatten() {
            let (r, c) = zero_based(square)?;
            inst.block(r, c).map_err(at(line))?;
        }
        Ok(inst)
    }
}

/// Refuses anything but blank lines and comments after the one-line instance on `line`.
fn only_one<R: BufRead>(line: usize, lines: &mut Lines<R>) -> Result<(), ParseError> {
    while let Some((_, raw)) = lines.next()? {
        if !content(raw).is_empty() {
            return Err(ParseError {
                line,
                message: "the input holds more than one instance; give one to complete".into(),
            });
        }
    }
    Ok(())
}

/// Reads the one placement that starts with `first` (the raw first line) and runs to the end.
fn parse_placement(
    first_line: usize,
    first: &[u8],
    rest: &mut impl BufRead,
) -> Result<Instance, ParseError> {
    let err = |message: String| ParseError {
        line: first_line,
        message,
    };
    let mut placements = Reader::new(first.chain(rest)).max_n(MAX_N);
    let placement = match placements.next() {
        Some(Ok(p)) => p,
        Some(Err(ReadError::Malformed { line, message } | ReadError::Attack { line, message })) => {
            return Err(ParseError {
                line: first_line + line - 1,
                message: format!(
                    "not an instance (expected N, a board drawing or a placement): {message}"
                ),
            });
        }
        Some(Err(ReadError::Io(e))) => return Err(err(format!("cannot read the input: {e}"))),
        None => return Err(err("no placement found".into())),
    };
    if placements.next().is_some() {
        return Err(err(
            "the input holds more than one placement; give one to complete".into(),
        ));
    }
    Instance::from_placement(&placement).map_err(at(first_line))
}

impl fmt::Display for Instance {
    /// The list form: `N`, then `q row col` and `x row col`, 1-based; [`Instance::parse`]
    /// reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.n)?;
        for (r, c) in self.fixed() {
            writeln!(f, "q {} {}", r + 1, c + 1)?;
        }
        for (r, c) in self.blocked() {
            writeln!(f, "x {} {}", r + 1, c + 1)?;
        }
        Ok(())
    }
}
