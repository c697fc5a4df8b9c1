//! `svg`: a picture of the chessboard, one standalone `<svg>` document per placement.
//!
//! The squares are one checkered `<pattern>` filling the board, so the file grows with the
//! number of queens, not with the number of squares. Each queen is a `<use href="#queen">` at
//! its square; reading a picture back takes the queens from those elements, so what is
//! verified is what is drawn.

use std::io::{self, Write};

use crate::Placement;

/// Side of one square in pixels when the board is small; big boards are shrunk to fit.
const SQUARE_PX: usize = 40;
const MAX_PX: usize = 800;

/// Writes `placement` as an SVG document.
///
/// ```
/// let mut out = Vec::new();
/// nqueens::format::svg::write(&mut out, &nqueens::Placement::new(vec![1, 3, 0, 2])).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("<svg"));
/// assert_eq!(text.matches("<use href=\"#queen\"").count(), 4);
/// ```
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
    out.write_all(
        b"<defs>\n\
          <pattern id=\"squares\" width=\"2\" height=\"2\" patternUnits=\"userSpaceOnUse\">\
          <rect width=\"2\" height=\"2\" fill=\"#f0d9b5\"/>\
          <rect x=\"1\" width=\"1\" height=\"1\" fill=\"#b58863\"/>\
          <rect y=\"1\" width=\"1\" height=\"1\" fill=\"#b58863\"/></pattern>\n\
          <g id=\"queen\" fill=\"#222\" stroke=\"#fff\" stroke-width=\"0.03\">\
          <path d=\"M0.2 0.82 L0.14 0.34 L0.32 0.56 L0.4 0.24 L0.5 0.54 L0.6 0.24 L0.68 0.56 \
          L0.86 0.34 L0.8 0.82 Z\"/>\
          <circle cx=\"0.14\" cy=\"0.3\" r=\"0.05\"/><circle cx=\"0.4\" cy=\"0.2\" r=\"0.05\"/>\
          <circle cx=\"0.6\" cy=\"0.2\" r=\"0.05\"/><circle cx=\"0.86\" cy=\"0.3\" r=\"0.05\"/></g>\n\
          </defs>\n",
    )?;
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

/// Parses one SVG document written by [`write`]: the board size from `viewBox`, the queens from
/// the `<use href="#queen">` elements.
pub(super) fn parse(text: &[u8]) -> Result<Placement, String> {
    let text = std::str::from_utf8(text).map_err(|_| "the SVG is not UTF-8 text".to_string())?;
    if !text.contains("</svg>") {
        return Err("the SVG picture ends before </svg>".into());
    }
    let view_box = attribute(text, "viewBox").ok_or("the SVG has no viewBox")?;
    let n = match view_box.split_whitespace().collect::<Vec<_>>()[..] {
        ["0", "0", w, h] if w == h => w
            .parse::<usize>()
            .map_err(|_| format!("viewBox {view_box:?} is not a board size"))?,
        _ => return Err(format!("viewBox {view_box:?} is not a square board")),
    };
    let mut rows = vec![None; n];
    for element in text.split("<use").skip(1) {
        let element = &element[..element.find('>').unwrap_or(element.len())];
        if !element.contains("href=\"#queen\"") {
            continue;
        }
        let coord = |name: &str| -> Result<usize, String> {
            let v = attribute(element, name).ok_or(format!("a queen has no {name}"))?;
            v.parse::<usize>().ok().filter(|&v| v < n).ok_or(format!(
                "a queen's {name}={v:?} is not a square of the board"
            ))
        };
        let (col, row) = (coord("x")?, coord("y")?);
        if rows[row].replace(col as u32).is_some() {
            return Err(format!("row {} has two queens", row + 1));
        }
    }
    if n == 0 {
        return Err("the SVG board has no squares".into());
    }
    super::complete_rows(rows)
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
    }
}
