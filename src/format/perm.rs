//! `perm`: one placement per line, the 1-based column of each row separated by spaces
//! (`1 5 8 6 3 7 2 4`). The compact form, and the only one that stays small for huge `n`.

use std::io::{self, BufRead, Write};

use super::{Malformed, Rest, Source};
use crate::Placement;

/// Writes `placement` as one perm line.
///
/// ```
/// let mut out = Vec::new();
/// nqueens::format::perm::write(&mut out, &nqueens::Placement::new(vec![1, 3, 0, 2])).unwrap();
/// assert_eq!(out, b"2 4 1 3\n");
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write(out: &mut impl Write, placement: &Placement) -> io::Result<()> {
    super::write_columns(out, placement, b" ")?;
    out.write_all(b"\n")
}

/// Parses one perm line straight from the input buffer, consuming it with its newline.
///
/// No line string is built: the bytes are turned into columns as they stream by, so memory is
/// the columns alone (at most `max_n` of them). Spaces, tabs and commas separate numbers.
/// Reading stops at the first defect, leaving the rest of the line to the caller.
pub(super) fn parse<R: BufRead>(
    src: &mut Source<R>,
    max_n: usize,
) -> io::Result<Result<Placement, Malformed>> {
    let mut cols = Vec::new();
    let mut value: u64 = 0;
    let mut in_number = false;
    loop {
        let buf = src.input.fill_buf()?;
        if buf.is_empty() {
            let line = src.line;
            return Ok(finish(&mut cols, value, in_number, max_n)
                .map(|()| Placement::new(cols))
                .map_err(|message| Malformed {
                    line,
                    message,
                    rest: Rest::NOTHING,
                    attack: false,
                }));
        }
        let mut step = None;
        for (i, &b) in buf.iter().enumerate() {
            let digit = b.wrapping_sub(b'0');
            if digit < 10 {
                value = value * 10 + u64::from(digit);
                in_number = true;
                if value > u64::from(u32::MAX) {
                    step = Some((i, Err("a column number is too large".to_string())));
                    break;
                }
                continue;
            }
            match b {
                b' ' | b'\t' | b',' | b'\r' | b'\n' => {
                    if in_number && let Err(e) = finish(&mut cols, value, in_number, max_n) {
                        step = Some((i, Err(e)));
                        break;
                    }
                    value = 0;
                    in_number = false;
                    if b == b'\n' {
                        step = Some((i, Ok(())));
                        break;
                    }
                }
                _ => {
                    let message = format!(
                        "unexpected character {:?} in a perm line",
                        super::char_at(&buf[i..])
                    );
                    step = Some((i, Err(message)));
                    break;
                }
            }
        }
        let Some((i, outcome)) = step else {
            let len = buf.len();
            src.input.consume(len);
            continue;
        };
        // The line number is that of the defect, which is on the current line.
        let line = src.line;
        // Only the last byte consumed can be a newline.
        let ended = buf[i] == b'\n';
        src.line += usize::from(ended);
        src.input.consume(i + 1);
        return Ok(match outcome {
            Ok(()) => Ok(Placement::new(cols)),
            Err(message) => Err(Malformed {
                line,
                message,
                rest: if ended { Rest::NOTHING } else { Rest::LINE },
                attack: false,
            }),
        });
    }
}

/// Adds the number just read, if any, as a 0-based column.
fn finish(cols: &mut Vec<u32>, value: u64, in_number: bool, max_n: usize) -> Result<(), String> {
    if !in_number {
        return Ok(());
    }
    if cols.len() == max_n {
        return Err(format!("more than {max_n} columns"));
    }
    match value.checked_sub(1) {
        Some(c) => crate::memory::push(cols, c as u32).map_err(|e| super::too_big(cols.len(), e)),
        None => Err("column 0: columns are numbered from 1".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Placement, String> {
        crate::format::parse_with(parse, text.as_bytes(), crate::format::MAX_N)
    }

    #[test]
    fn separators_and_endings() {
        let want = Placement::new(vec![1, 3, 0, 2]);
        for text in ["2 4 1 3", "2 4 1 3\n", "2,4,1,3\r\n", "2\t4  1 3 \n"] {
            assert_eq!(parse_text(text), Ok(want.clone()), "{text:?}");
        }
    }

    #[test]
    fn bad_lines() {
        assert!(parse_text("1 0 2").unwrap_err().contains("column 0"));
        assert!(
            parse_text("1 99999999999 2")
                .unwrap_err()
                .contains("too large")
        );
        assert!(parse_text("1 -2").unwrap_err().contains("'-'"));
    }

    #[test]
    fn a_line_across_many_buffer_refills() {
        let cols: Vec<u32> = (0..50_000).collect();
        let mut text = Vec::new();
        write(&mut text, &Placement::new(cols.clone())).unwrap();
        let mut src = Source {
            input: io::BufReader::with_capacity(7, &text[..]),
            line: 1,
        };
        let parsed = parse(&mut src, cols.len()).unwrap();
        assert_eq!(src.line, 2);
        assert_eq!(parsed.ok().unwrap().cols(), &cols[..]);
        let mut src = Source {
            input: &text[..],
            line: 1,
        };
        let short = parse(&mut src, cols.len() - 1).unwrap();
        assert!(
            short
                .err()
                .unwrap()
                .message
                .contains("more than 49999 columns")
        );
    }
}
