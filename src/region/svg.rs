//! Drawing a region board: an SVG picture, and a terminal drawing.
//!
//! Colour is never the only cue: every cell carries its region's letter, and thick lines run
//! between regions. The fills are light tints of the Okabe-Ito palette (safe for the common
//! colour-vision deficiencies), given so that regions side by side never share a tint where
//! eight tints suffice (they do for the grids people play).

use std::fmt::Write;

use super::Board;

/// Light tints (half white) of the eight Okabe-Ito colours: orange, sky blue, bluish green,
/// yellow, blue, vermillion, reddish purple, grey. Black letters read on every one.
pub const PALETTE: [&str; 8] = [
    "#f2cf80", "#aad9f4", "#80ceb9", "#f7f1a0", "#80b8d8", "#eaae80", "#e5bcd3", "#cccccc",
];

/// The side of a cell, in SVG units.
const CELL: usize = 40;

/// The margin around the grid.
const MARGIN: usize = 4;

/// The tint of each region: greedy, so that neighbouring regions differ where the palette
/// allows; otherwise the tint fewest neighbours have.
pub fn tints(board: &Board) -> Vec<usize> {
    let n = board.n();
    let mut beside = vec![vec![false; n]; n];
    for r in 0..n {
        for c in 0..n {
            let g = board.region((r, c));
            for cell in board.neighbours((r, c)) {
                let h = board.region(cell);
                beside[g][h] = true;
            }
        }
    }
    let mut tint = vec![usize::MAX; n];
    for g in 0..n {
        let mut used = [0usize; PALETTE.len()];
        for h in (0..n).filter(|&h| h != g && beside[g][h] && tint[h] != usize::MAX) {
            used[tint[h]] += 1;
        }
        tint[g] = (0..PALETTE.len())
            .min_by_key(|&t| used[t])
            .expect("the palette has tints");
    }
    tint
}

/// The board as an SVG picture: tinted cells with their region's letter, thick borders between
/// regions, its queens (a crown) and crosses.
///
/// ```
/// let board = nqueens::region::Board::parse("AB\nAB\nq 1 1\nx 2 2\n").unwrap();
/// let svg = nqueens::region::svg::draw(&board);
/// assert!(svg.starts_with("<svg") && svg.contains("region A") && svg.contains("queen"));
/// ```
pub fn draw(board: &Board) -> String {
    let n = board.n();
    let side = n * CELL + 2 * MARGIN;
    let tint = tints(board);
    let mut out = String::new();
    let queens = board.queens().len();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}" role="img" aria-labelledby="title">"#
    );
    let _ = writeln!(
        out,
        "<title id=\"title\">Queens with regions, {n} x {n}, {queens} queen(s)</title>"
    );
    let _ = writeln!(
        out,
        r#"<g font-family="sans-serif" text-anchor="middle" dominant-baseline="central">"#
    );
    for r in 0..n {
        for c in 0..n {
            let g = board.region((r, c));
            let (x, y) = (MARGIN + c * CELL, MARGIN + r * CELL);
            let _ = writeln!(
                out,
                r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{}" stroke="#999" stroke-width="0.5"><title>row {} column {}, region {}</title></rect>"##,
                PALETTE[tint[g]],
                r + 1,
                c + 1,
                board.label(g)
            );
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" font-size="10" fill="#333">{}</text>"##,
                x + 7,
                y + 8,
                board.label(g)
            );
        }
    }
    // Thick lines where two cells side by side are in different regions, and around the grid.
    let mut path = String::new();
    for r in 0..n {
        for c in 0..n {
            let (x, y) = (MARGIN + c * CELL, MARGIN + r * CELL);
            if c + 1 < n && board.region((r, c)) != board.region((r, c + 1)) {
                let _ = write!(path, "M{} {}v{CELL}", x + CELL, y);
            }
            if r + 1 < n && board.region((r, c)) != board.region((r + 1, c)) {
                let _ = write!(path, "M{} {}h{CELL}", x, y + CELL);
            }
        }
    }
    let grid = n * CELL;
    let _ = write!(path, "M{MARGIN} {MARGIN}h{grid}v{grid}h-{grid}z");
    let _ = writeln!(
        out,
        r#"<path d="{path}" fill="none" stroke="black" stroke-width="3" stroke-linecap="square"/>"#
    );
    for &(r, c) in board.queens() {
        let (x, y) = (MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2);
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{y}" font-size="26" fill="black" aria-label="queen">&#x265B;</text>"#
        );
    }
    for &(r, c) in board.crosses() {
        let (x, y) = (MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2);
        let _ = writeln!(
            out,
            r##"<text x="{x}" y="{y}" font-size="20" fill="#333" aria-label="cross">&#xD7;</text>"##
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// The board for a terminal: each cell its region's letter, a queen `#`, a cross `.`, with `|`
/// and `-` where two regions meet and `+` at the corners, so regions read without colour.
///
/// ```
/// let board = nqueens::region::Board::parse("AB\nAB\nq 1 1\n").unwrap();
/// assert_eq!(
///     nqueens::region::svg::terminal(&board),
///     "+-+-+\n|#|B|\n+ + +\n|A|B|\n+-+-+\n"
/// );
/// ```
pub fn terminal(board: &Board) -> String {
    draw_terminal(board, false)
}

/// [`terminal`] with each region's cells (and the gaps between them) on its tint of
/// [`PALETTE`], as ANSI escapes of the 256-colour palette with black letters: the letters and
/// borders are all there, so it reads the same without colour (or with the escapes stripped).
///
/// ```
/// let board = nqueens::region::Board::parse("AB\nAB\n").unwrap();
/// let coloured = nqueens::region::svg::terminal_in_colour(&board);
/// assert!(coloured.contains("\x1b[30;48;5;"));
/// ```
pub fn terminal_in_colour(board: &Board) -> String {
    draw_terminal(board, true)
}

/// The escape that puts text on the tint `hex` (`#rrggbb`), in the nearest colour of the
/// 256-colour palette's 6 x 6 x 6 cube (the colour depth nearly every terminal has).
fn ansi_tint(hex: &str) -> String {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let channel = |i: usize| {
        let v = u8::from_str_radix(&hex[i..i + 2], 16).expect("palette entries are #rrggbb");
        (0..6)
            .min_by_key(|&k| LEVELS[k].abs_diff(v))
            .expect("six levels")
    };
    let index = 16 + 36 * channel(1) + 6 * channel(3) + channel(5);
    format!("\x1b[30;48;5;{index}m")
}

/// The escape that ends a tint.
const ANSI_RESET: &str = "\x1b[0m";

fn draw_terminal(board: &Board, colour: bool) -> String {
    let n = board.n();
    let mut out = Painter {
        text: String::new(),
        tints: if colour {
            tints(board)
                .into_iter()
                .map(|t| ansi_tint(PALETTE[t]))
                .collect()
        } else {
            Vec::new()
        },
        on: None,
    };
    let border = |out: &mut Painter, above: Option<usize>, below: Option<usize>| {
        out.push(None, '+');
        for c in 0..n {
            let same = match (above, below) {
                (Some(a), Some(b)) => {
                    let g = board.region((a, c));
                    (g == board.region((b, c))).then_some(g)
                }
                _ => None,
            };
            match same {
                Some(g) => out.push(Some(g), ' '),
                None => out.push(None, '-'),
            }
            out.push(None, '+');
        }
        out.push(None, '\n');
    };
    border(&mut out, None, Some(0));
    for r in 0..n {
        out.push(None, '|');
        for c in 0..n {
            let g = board.region((r, c));
            let mark = if board.queens().contains(&(r, c)) {
                '#'
            } else if board.crosses().contains(&(r, c)) {
                '.'
            } else {
                board.label(g)
            };
            out.push(Some(g), mark);
            if c + 1 < n && board.region((r, c + 1)) == g {
                out.push(Some(g), ' ');
            } else {
                out.push(None, '|');
            }
        }
        out.push(None, '\n');
        border(&mut out, Some(r), (r + 1 < n).then_some(r + 1));
    }
    out.text
}

/// Text with runs of characters on a region's tint: an escape where the tint changes, none
/// when there are no tints.
struct Painter {
    text: String,
    /// The escape of each region's tint; empty for no colour.
    tints: Vec<String>,
    /// The region whose tint is on.
    on: Option<usize>,
}

impl Painter {
    /// `ch` on region `g`'s tint, or on none.
    fn push(&mut self, g: Option<usize>, ch: char) {
        if !self.tints.is_empty() && g != self.on {
            match g {
                Some(g) => self.text.push_str(&self.tints[g]),
                None => self.text.push_str(ANSI_RESET),
            }
            self.on = g;
        }
        self.text.push(ch);
    }
}
