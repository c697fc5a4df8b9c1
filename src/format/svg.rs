//! `svg`: a picture of the chessboard, one standalone `<svg>` document per placement.
//!
//! The squares are one checkered `<pattern>` filling the board, so the file grows with the
//! number of queens, not with the number of squares. Each queen is a `<use href="#queen">` at
//! its square; reading a picture back takes the queens from those elements, so what is
//! verified is what is drawn.

use std::io::{self, BufRead, Write};

use super::{Malformed, Rest, Source, Until};
use crate::Placement;

/// Side of one square in pixels when the board is small; big boards are shrunk to fit.
const SQUARE_PX: usize = 40;
const MAX_PX: usize = 800;

/// The board's squares and the queen's shape, in board units (one square is 1 x 1): shared by
/// the placement pictures here and the animated traces (`trace::svg`).
pub(crate) const DEFS: &str = "<defs>\n\
          <pattern id=\"squares\" width=\"2\" height=\"2\" patternUnits=\"userSpaceOnUse\">\
          <rect width=\"2\" height=\"2\" fill=\"#f0d9b5\"/>\
          <rect x=\"1\" width=\"1\" height=\"1\" fill=\"#b58863\"/>\
          <rect y=\"1\" width=\"1\" height=\"1\" fill=\"#b58863\"/></pattern>\n\
          <g id=\"queen\" fill=\"#222\" stroke=\"#fff\" stroke-width=\"0.03\">\
          <path d=\"M0.2 0.82 L0.14 0.34 L0.32 0.56 L0.4 0.24 L0.5 0.54 L0.6 0.24 L0.68 0.56 \
          L0.86 0.34 L0.8 0.82 Z\"/>\
          <circle cx=\"0.14\" cy=\"0.3\" r=\"0.05\"/><circle cx=\"0.4\" cy=\"0.2\" r=\"0.05\"/>\
          <circle cx=\"0.6\" cy=\"0.2\" r=\"0.05\"/><circle cx=\"0.86\" cy=\"0.3\" r=\"0.05\"/></g>\n\
          </defs>\n";

/// Writes `placement` as an SVG document.
///
/// ```
/// let mut out = Vec::new();
/// nqueens::format::svg::write(&mut out, &nqueens::Placement::new(vec![1, 3, 0, 2])).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("<svg"));
/// assert_eq!(text.matches("<use href=\"#queen\"").count(), 4);
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write(out: &mut impl Write, placement: &Placement) -> io::Result<()> {
    let n = placement.n();
    let px = (n * SQUARE_PX).min(MAX_PX);
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{px}\" height=\"{px}\" \
         viewBox=\"0 0 {n} {n}\">"
    )?;
    writeln!(out, "<title>{n} queens</title>")?;
    // Light squares where row + column is even, as on a real board (a8 is light).
    out.write_all(DEFS.as_bytes())?;
    writeln!(
        out,
        "<rect width=\"{n}\" height=\"{n}\" fill=\"url(#squares)\"/>"
    )?;
    let mut line = Vec::new();
    for (row, &col) in placement.cols().iter().enumerate() {
        line.clear();
        line.extend_from_slice(b"<use href=\"#queen\" x=\"");
        super::push_decimal(&mut line, u64::from(col));
        line.extend_from_slice(b"\" y=\"");
        super::push_decimal(&mut line, row as u64);
        line.extend_from_slice(b"\"/>\n");
        out.write_all(&line)?;
    }
    out.write_all(b"</svg>\n")
}

/// Boards side by side in a line of a gallery.
const GALLERY_ACROSS: usize = 6;

/// Writes `placements` as one SVG document, a gallery for slides and handouts: a board per
/// placement in lines of six, each with its columns (from 1) under it. Each board is a nested
/// `<svg>` drawn as [`write()`] draws one, so that [`Reader`](super::Reader) reads a gallery
/// back as its placements.
///
/// ```
/// use nqueens::{Placement, format::{Reader, svg::write_gallery}};
/// let all = vec![Placement::new(vec![1, 3, 0, 2]), Placement::new(vec![2, 0, 3, 1])];
/// let mut out = Vec::new();
/// write_gallery(&mut out, 4, &all).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
/// let read: Vec<Placement> = Reader::new(text.as_bytes()).map(Result::unwrap).collect();
/// assert_eq!(read, all);
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write_gallery(out: &mut impl Write, n: usize, placements: &[Placement]) -> io::Result<()> {
    let px = (n * 20).clamp(80, 200);
    let (gap, label) = (16, 22);
    let across = placements.len().clamp(1, GALLERY_ACROSS);
    let down = placements.len().div_ceil(GALLERY_ACROSS).max(1);
    let (w, h) = (across * (px + gap) + gap, down * (px + label + gap) + gap);
    // No viewBox on the gallery itself: a reader takes the board size from each board's.
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\">"
    )?;
    writeln!(
        out,
        "<title>{} solution{} of {n} queens (columns from 1)</title>",
        placements.len(),
        if placements.len() == 1 { "" } else { "s" }
    )?;
    out.write_all(DEFS.as_bytes())?;
    writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>")?;
    if placements.is_empty() {
        writeln!(
            out,
            "<text x=\"{gap}\" y=\"40\" font-size=\"16\">no solutions</text>"
        )?;
    }
    for (k, p) in placements.iter().enumerate() {
        let x = gap + (k % GALLERY_ACROSS) * (px + gap);
        let y = gap + (k / GALLERY_ACROSS) * (px + label + gap);
        // The label first: a board's `</svg>` is then followed by the next board or the end.
        let cols: Vec<String> = p.cols().iter().map(|c| (c + 1).to_string()).collect();
        writeln!(
            out,
            "<text x=\"{x}\" y=\"{}\" font-size=\"13\">{}. {}</text>",
            y + px + 16,
            k + 1,
            cols.join(" ")
        )?;
        writeln!(
            out,
            "<svg x=\"{x}\" y=\"{y}\" width=\"{px}\" height=\"{px}\" viewBox=\"0 0 {n} {n}\">"
        )?;
        writeln!(
            out,
            "<rect width=\"{n}\" height=\"{n}\" fill=\"url(#squares)\"/>"
        )?;
        for (row, &col) in p.cols().iter().enumerate() {
            writeln!(out, "<use href=\"#queen\" x=\"{col}\" y=\"{row}\"/>")?;
        }
        out.write_all(b"</svg>\n")?;
    }
    out.write_all(b"</svg>\n")
}

/// The longest element (`<...>`) a picture written by [`write()`] could hold, with room to spare.
const MAX_TAG: usize = 4096;

/// Parses one SVG document written by [`write()`]: the board size from `viewBox`, the queens from
/// the `<use href="#queen">` elements, up to `</svg>`.
///
/// The document streams by one element at a time and only the queens are kept: nothing is
/// allocated for the size `viewBox` claims, so a picture that claims a board of 10^11 squares
/// costs no more than the few queens it holds.
pub(super) fn parse<R: BufRead>(
    src: &mut Source<R>,
    max_n: usize,
) -> io::Result<Result<Placement, Malformed>> {
    let mut n: Option<usize> = None;
    // (row, column) of each queen drawn.
    let mut queens: Vec<(u32, u32)> = Vec::new();
    let mut tag = Vec::new();
    let malformed = |line, message: String| {
        Ok(Err(Malformed {
            line,
            message,
            rest: Rest {
                line: false,
                until: Until::SvgEnd,
            },
            attack: false,
        }))
    };
    loop {
        // Text between elements (the title) is not kept.
        if !src.skip_until(|b| b == b'<')? {
            return Ok(Err(Malformed {
                line: src.line,
                message: "the SVG picture ends before </svg>".into(),
                rest: Rest::NOTHING,
                attack: false,
            }));
        }
        let line = src.line;
        tag.clear();
        let mut long = false;
        let closed = src.skip_until(|b| {
            if b == b'>' {
                return true;
            }
            tag.push(b);
            long = tag.len() > MAX_TAG;
            long
        })?;
        if long {
            return malformed(
                line,
                format!("an SVG element longer than {MAX_TAG} bytes: not a picture of a board"),
            );
        }
        if !closed {
            return Ok(Err(Malformed {
                line: src.line,
                message: "the SVG picture ends before </svg>".into(),
                rest: Rest::NOTHING,
                attack: false,
            }));
        }
        let Ok(element) = std::str::from_utf8(&tag) else {
            return malformed(line, "the SVG is not UTF-8 text".into());
        };
        if element.starts_with("/svg") {
            if n.is_some() {
                end_of_gallery(src)?;
            }
            break;
        }
        if n.is_none()
            && let Some(view_box) = attribute(element, "viewBox")
        {
            match board_size(view_box, max_n) {
                Ok(size) => n = Some(size),
                Err(message) => return malformed(line, message),
            }
        }
        if !element.starts_with("use") || !element.contains("href=\"#queen\"") {
            continue;
        }
        let Some(n) = n else {
            return malformed(
                line,
                "a queen is drawn before the viewBox gives the board".into(),
            );
        };
        let coord = |name: &str| -> Result<u32, String> {
            let v = attribute(element, name).ok_or(format!("a queen has no {name}"))?;
            v.parse::<u32>()
                .ok()
                .filter(|&v| (v as usize) < n)
                .ok_or(format!(
                    "a queen's {name}={} is not a square of the board",
                    super::excerpt(v)
                ))
        };
        match (coord("x"), coord("y")) {
            (Ok(col), Ok(row)) => {
                if let Err(e) = crate::memory::push(&mut queens, (row, col)) {
                    return malformed(line, super::too_big(queens.len(), e));
                }
            }
            (Err(message), _) | (_, Err(message)) => return malformed(line, message),
        }
        if queens.len() > n {
            // More queens than rows: two share a row, which the check below names.
            break;
        }
    }
    let line = src.line;
    let rest = Rest::LINE;
    let Some(n) = n else {
        return Ok(Err(Malformed {
            line,
            message: "the SVG has no viewBox".into(),
            rest,
            attack: false,
        }));
    };
    queens.sort_unstable();
    // `n` is only a claim until the queens are counted: the queens drawn bound the columns.
    let mut cols = Vec::with_capacity(queens.len());
    for (i, pair) in queens.iter().enumerate() {
        let row = pair.0 as usize;
        let attack = i > 0 && queens[i - 1].0 as usize == row;
        let message = if attack {
            format!("row {} has two queens", row + 1)
        } else if row > cols.len() {
            format!("row {} has no queen", cols.len() + 1)
        } else {
            cols.push(pair.1);
            continue;
        };
        return Ok(Err(Malformed {
            line,
            message,
            rest,
            attack,
        }));
    }
    if cols.len() < n {
        return Ok(Err(Malformed {
            line,
            message: format!("row {} has no queen", cols.len() + 1),
            rest,
            attack: false,
        }));
    }
    Ok(Ok(Placement::new(cols)))
}

/// Consumes the `</svg>` that closes a gallery ([`write_gallery`]) when it follows a board's
/// own `</svg>` (blank space between), so that the gallery's end is not read as a record.
fn end_of_gallery<R: BufRead>(src: &mut Source<R>) -> io::Result<()> {
    const END: &[u8] = b"</svg>";
    // Looked for in what is buffered only, and consumed only if there: otherwise the input
    // stays where the board ended, as a record that is not a gallery expects.
    let buf = src.input.fill_buf()?;
    let blank = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
    if buf[blank..].starts_with(END) {
        src.line += buf[..blank].iter().filter(|&&b| b == b'\n').count();
        src.input.consume(blank + END.len());
    }
    Ok(())
}

/// The board size a `viewBox` gives: `0 0 N N`, with `1 <= N <= max_n`.
fn board_size(view_box: &str, max_n: usize) -> Result<usize, String> {
    let mut parts = view_box.split_whitespace();
    let (first, w, h) = (parts.next().zip(parts.next()), parts.next(), parts.next());
    match (first, w, h, parts.next()) {
        (Some(("0", "0")), Some(w), Some(h), None) if w == h => match w.parse::<usize>() {
            Ok(0) => Err("the SVG board has no squares".into()),
            Ok(n) if n <= max_n => Ok(n),
            Ok(_) => Err(format!(
                "viewBox {} is a board of more than {max_n} rows",
                super::excerpt(view_box)
            )),
            Err(_) => Err(format!(
                "viewBox {} is not a board size",
                super::excerpt(view_box)
            )),
        },
        _ => Err(format!(
            "viewBox {} is not a square board",
            super::excerpt(view_box)
        )),
    }
}

/// The value of the first `name="..."` attribute in `text`.
fn attribute<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let pattern = format!(" {name}=\"");
    let start = text.find(&pattern)? + pattern.len();
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Result<Placement, String> {
        crate::format::parse_with(super::parse, text, crate::format::MAX_N)
    }

    fn picture(cols: Vec<u32>) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, &Placement::new(cols)).unwrap();
        out
    }

    #[test]
    fn reads_what_is_drawn() {
        let text = String::from_utf8(picture(vec![1, 3, 0, 2])).unwrap();
        let moved = text.replace("x=\"3\" y=\"1\"", "x=\"2\" y=\"1\"");
        assert_eq!(
            parse(moved.as_bytes()),
            Ok(Placement::new(vec![1, 2, 0, 2]))
        );
    }

    #[test]
    fn malformed_pictures() {
        let text = String::from_utf8(picture(vec![1, 3, 0, 2])).unwrap();
        let missing = text.replace("<use href=\"#queen\" x=\"0\" y=\"2\"/>", "");
        assert_eq!(parse(missing.as_bytes()).unwrap_err(), "row 3 has no queen");
        let off = text.replace("x=\"0\" y=\"2\"", "x=\"9\" y=\"2\"");
        assert!(parse(off.as_bytes()).unwrap_err().contains("x=\"9\""));
        let cut = &text[..text.len() - 8];
        assert!(parse(cut.as_bytes()).unwrap_err().contains("</svg>"));
        let huge = text.replace("0 0 4 4", "0 0 99999999999 99999999999");
        assert!(parse(huge.as_bytes()).unwrap_err().contains("more than"));
        let claims = text.replace("0 0 4 4", "0 0 999999 999999");
        assert_eq!(parse(claims.as_bytes()).unwrap_err(), "row 5 has no queen");
        let twice = text.replace("x=\"0\" y=\"2\"", "x=\"0\" y=\"1\"");
        assert_eq!(parse(twice.as_bytes()).unwrap_err(), "row 2 has two queens");
    }
}
