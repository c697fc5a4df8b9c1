//! `perm`: one placement per line, the 1-based column of each row separated by spaces
//! (`1 5 8 6 3 7 2 4`). The compact form, and the only one that stays small for huge `n`.

use std::io::{self, BufRead, Write};

use crate::Placement;

/// Writes `placement` as one perm line.
///
/// ```
/// let mut out = Vec::new();
/// nqueens::format::perm::write(&mut out, &nqueens::Placement::new(vec![1, 3, 0, 2])).unwrap();
/// assert_eq!(out, b"2 4 1 3\n");
/// ```
pub fn write(out: &mut impl Write, placement: &Placement) -> io::Result<()> {
    super::write_columns(out, placement, b" ")?;
    out.write_all(b"\n")
}

/// The outcome of parsing one perm line.
pub(super) struct Parsed {
    /// The placement, or what is wrong with the line.
    pub placement: Result<Placement, String>,
    /// Whether a newline was consumed (the input may end without one).
    pub ended_line: bool,
}

/// Parses one perm line straight from the input buffer, consuming it with its newline.
///
/// No line string is built: the bytes are turned into columns as they stream by, so memory is
/// the columns alone. Spaces, tabs and commas separate numbers.
pub(super) fn parse_line(input: &mut impl BufRead) -> io::Result<Parsed> {
    let mut cols = Vec::new();
    let mut value: u64 = 0;
    let mut in_number = false;
    let mut error: Option<String> = None;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            let placement = finish(cols, value, in_number, error);
            return Ok(Parsed {
                placement,
                ended_line: false,
            });
        }
        let mut used = buf.len();
        let mut ended = false;
        for (i, &b) in buf.iter().enumerate() {
            let digit = b.wrapping_sub(b'0');
            if digit < 10 {
                // Saturating just above u32::MAX keeps `value` far from u64 overflow, however
                // many digits follow.
                value = (value * 10 + u64::from(digit)).min(u64::from(u32::MAX) + 1);
                in_number = true;
                if value > u64::from(u32::MAX) && error.is_none() {
                    error = Some("a column number is too large".into());
                }
                continue;
            }
            match b {
                b' ' | b'\t' | b',' | b'\r' | b'\n' => {
                    if in_number && error.is_none() {
                        push(&mut cols, value, &mut error);
                    }
                    value = 0;
                    in_number = false;
                    if b == b'\n' {
                        used = i + 1;
                        ended = true;
                        break;
                    }
                }
                other => {
                    if error.is_none() {
                        error = Some(format!(
                            "unexpected character {:?} in a perm line",
                            char::from(other)
                        ));
                    }
                }
            }
        }
        input.consume(used);
        if ended {
            return Ok(Parsed {
                placement: finish(cols, 0, false, error),
                ended_line: true,
            });
        }
    }
}

fn push(cols: &mut Vec<u32>, value: u64, error: &mut Option<String>) {
    match value.checked_sub(1) {
        Some(c) => cols.push(c as u32),
        None => *error = Some("column 0: columns are numbered from 1".into()),
    }
}

fn finish(
    mut cols: Vec<u32>,
    value: u64,
    in_number: bool,
    mut error: Option<String>,
) -> Result<Placement, String> {
    if in_number && error.is_none() {
        push(&mut cols, value, &mut error);
    }
    match error {
        Some(e) => Err(e),
        None => Ok(Placement::new(cols)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Placement, String> {
        parse_line(&mut text.as_bytes()).unwrap().placement
    }

    #[test]
    fn separators_and_endings() {
        let want = Placement::new(vec![1, 3, 0, 2]);
        for text in ["2 4 1 3", "2 4 1 3\n", "2,4,1,3\r\n", "2\t4  1 3 \n"] {
            assert_eq!(parse(text), Ok(want.clone()), "{text:?}");
        }
    }

    #[test]
    fn bad_lines() {
        assert!(parse("1 0 2").unwrap_err().contains("column 0"));
        assert!(parse("1 99999999999 2").unwrap_err().contains("too large"));
        assert!(parse("1 -2").unwrap_err().contains("'-'"));
    }

    #[test]
    fn a_line_across_many_buffer_refills() {
        let cols: Vec<u32> = (0..50_000).collect();
        let mut text = Vec::new();
        write(&mut text, &Placement::new(cols.clone())).unwrap();
        let mut input = io::BufReader::with_capacity(7, &text[..]);
        let parsed = parse_line(&mut input).unwrap();
        assert!(parsed.ended_line);
        assert_eq!(parsed.placement.unwrap().cols(), &cols[..]);
    }
}
