//! The text and JSON forms of a [`Board`].
//!
//! Text: one line per row, one letter or digit per cell naming its region, then one line per
//! mark, `q ROW COL` for a queen and `x ROW COL` for a cross (from 1). Lines starting with `#`
//! are comments; several boards in one text are separated by blank lines.
//!
//! ```text
//! # a game in progress
//! AABB
//! ACCB
//! ACDD
//! AADD
//! q 1 2
//! x 3 3
//! ```
//!
//! JSON: `{"regions": ["AABB", ...], "queens": [[1, 2]], "crosses": [[3, 3]]}`, the marks
//! optional and from 1; other fields (those `nqueens region generate` adds) are ignored. Several
//! boards are JSON Lines, one object per line.

use serde::{Deserialize, Serialize};

use super::{Board, Cell, MAX_N, RegionError};

/// The JSON form's fields.
#[derive(Serialize, Deserialize)]
struct Json {
    regions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    queens: Vec<[usize; 2]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    crosses: Vec<[usize; 2]>,
}

impl Board {
    /// Reads one board in the text or JSON form (JSON if it starts with `{`).
    ///
    /// ```
    /// use nqueens::region::{Board, RegionError};
    /// let board = nqueens::region::Board::parse("AB\nAB\nq 1 1\n").unwrap();
    /// assert_eq!((board.n(), board.queens()), (2, &[(0, 0)][..]));
    /// assert_eq!(Board::parse(&board.to_json()), Ok(board));
    /// assert_eq!(Board::parse("AB\nA\n"), Err(RegionError::NotSquare { row: 2, len: 1, n: 2 }));
    /// assert_eq!(Board::parse("AB\nBA\n"), Err(RegionError::Disconnected { label: 'B' }));
    /// ```
    ///
    /// # Errors
    /// [`RegionError`] naming what is wrong: a grid that is not square, a cell that is not a
    /// letter or digit, the wrong number of regions, a region in pieces, a bad mark.
    pub fn parse(text: &str) -> Result<Self, RegionError> {
        if text.trim_start().starts_with('{') {
            parse_json(text)
        } else {
            parse_text(text)
        }
    }

    /// Reads every board of a text: JSON Lines if it starts with `{`, else text forms separated
    /// by blank lines. Each board is read on its own, so one bad board spoils no other.
    ///
    /// ```
    /// let boards = nqueens::region::Board::parse_all("# one\nA\n\nAB\nAB\n\nAB\nBA\n");
    /// assert_eq!(boards.len(), 3);
    /// assert!(boards[0].is_ok() && boards[1].is_ok() && boards[2].is_err());
    /// ```
    pub fn parse_all(text: &str) -> Vec<Result<Self, RegionError>> {
        if text.trim_start().starts_with('{') {
            return text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(parse_json)
                .collect();
        }
        let mut boards = Vec::new();
        let mut block = String::new();
        for line in text.lines().chain([""]) {
            if line.trim().is_empty() {
                let has_grid = block
                    .lines()
                    .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
                if has_grid {
                    boards.push(parse_text(&block));
                }
                block.clear();
            } else {
                block.push_str(line);
                block.push('\n');
            }
        }
        boards
    }

    /// The text form: the grid, then its queens and crosses.
    ///
    /// ```
    /// let board = nqueens::region::Board::parse("AB\nAB\nx 2 1\n").unwrap();
    /// assert_eq!(board.to_text(), "AB\nAB\nx 2 1\n");
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity((self.n + 1) * self.n + 8 * self.queens.len());
        for row in self.rows() {
            out.push_str(&row);
            out.push('\n');
        }
        for (kind, cells) in [('q', &self.queens), ('x', &self.crosses)] {
            for &(r, c) in cells {
                out.push_str(&format!("{kind} {} {}\n", r + 1, c + 1));
            }
        }
        out
    }

    /// The JSON form, on one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.json()).expect("strings and numbers always serialise")
    }

    /// The JSON form as a value, for callers that add fields.
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::to_value(self.json()).expect("strings and numbers always serialise")
    }

    fn json(&self) -> Json {
        let one_based = |cells: &[Cell]| cells.iter().map(|&(r, c)| [r + 1, c + 1]).collect();
        Json {
            regions: self.rows().collect(),
            queens: one_based(&self.queens),
            crosses: one_based(&self.crosses),
        }
    }

    /// Each row as its letters.
    fn rows(&self) -> impl Iterator<Item = String> + '_ {
        self.region.chunks(self.n).map(|row| {
            row.iter()
                .map(|&g| self.labels[g as usize] as char)
                .collect()
        })
    }
}

fn parse_text(text: &str) -> Result<Board, RegionError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .peekable();
    let mut rows: Vec<&str> = Vec::new();
    // Grid rows hold no spaces; the first line that does is the first mark.
    while let Some(&(_, line)) = lines.peek() {
        if line.contains(char::is_whitespace) {
            break;
        }
        rows.push(line);
        lines.next();
    }
    let mut board = grid(&rows)?;
    for (number, line) in lines {
        let bad = || RegionError::BadMark {
            line: number,
            text: line.to_string(),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let [kind, row, col] = words[..] else {
            return Err(bad());
        };
        let queen = match kind {
            "q" | "Q" => true,
            "x" | "X" => false,
            _ => return Err(bad()),
        };
        let (Ok(row), Ok(col)) = (row.parse::<usize>(), col.parse::<usize>()) else {
            return Err(bad());
        };
        board.mark(cell(row, col, board.n)?, queen)?;
    }
    Ok(board)
}

/// A 1-based cell read as 0-based, or why not.
fn cell(row: usize, col: usize, n: usize) -> Result<Cell, RegionError> {
    if row == 0 || col == 0 || row > n || col > n {
        return Err(RegionError::OffGrid { row, col, n });
    }
    Ok((row - 1, col - 1))
}

fn parse_json(text: &str) -> Result<Board, RegionError> {
    let json: Json = serde_json::from_str(text).map_err(|e| RegionError::Json(e.to_string()))?;
    let rows: Vec<&str> = json.regions.iter().map(String::as_str).collect();
    let mut board = grid(&rows)?;
    for (cells, queen) in [(&json.queens, true), (&json.crosses, false)] {
        for &[row, col] in cells {
            board.mark(cell(row, col, board.n)?, queen)?;
        }
    }
    Ok(board)
}

/// The board the rows make, without marks.
fn grid(rows: &[&str]) -> Result<Board, RegionError> {
    let Some(first) = rows.first() else {
        return Err(RegionError::Empty);
    };
    let n = first.chars().count();
    if n > MAX_N {
        return Err(RegionError::TooLarge { n });
    }
    if rows.len() != n {
        return Err(RegionError::Rows {
            rows: rows.len(),
            n,
        });
    }
    let mut labels: Vec<u8> = Vec::new();
    let mut region = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if len != n {
            return Err(RegionError::NotSquare { row: r + 1, len, n });
        }
        for (c, ch) in row.chars().enumerate() {
            if !ch.is_ascii_alphanumeric() {
                return Err(RegionError::BadCell {
                    row: r + 1,
                    col: c + 1,
                    ch,
                });
            }
            let g = match labels.iter().position(|&l| l == ch as u8) {
                Some(g) => g,
                None => {
                    labels.push(ch as u8);
                    labels.len() - 1
                }
            };
            region.push(g as u8);
        }
    }
    if labels.len() != n {
        return Err(RegionError::RegionCount {
            found: labels.len(),
            n,
        });
    }
    let board = Board {
        n,
        region,
        labels,
        queens: Vec::new(),
        crosses: Vec::new(),
    };
    board.check_connected()?;
    Ok(board)
}
