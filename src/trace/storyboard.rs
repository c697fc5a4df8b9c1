//! Storyboards: the search as a grid of small boards in one SVG document, for slides and
//! handouts; one board per placement (what the queen just placed leaves), or one per step.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::svg::escape;
use super::{Board, Event, Trace};
use crate::observe::Reason;

/// The most boards a storyboard holds: a page of a few MB.
pub const MAX_BOARDS: usize = 2_000;

/// Room for the numbers left of and above each board, in squares.
pub(crate) const MARGIN: f64 = 0.75;

/// Screen pixels per square: the numbers and captions stay readable at the size it opens.
const PX: f64 = 26.0;

/// Boards side by side in a line of the grid.
const ACROSS: usize = 8;

/// The boards a storyboard of `trace` draws: one per placement and per solution found on the
/// board, or one per step with `every_step`.
///
/// ```
/// let t = nqueens::trace::record(nqueens::algo::Algo::Backtracking, 4, 1000).unwrap();
/// assert_eq!(nqueens::trace::storyboard::boards(&t, false), 16 + 2);
/// assert_eq!(nqueens::trace::storyboard::boards(&t, true), t.events.len());
/// ```
pub fn boards(trace: &Trace, every_step: bool) -> usize {
    trace.events.iter().filter(|e| drawn(e, every_step)).count()
}

fn drawn(event: &Event, every_step: bool) -> bool {
    every_step
        || matches!(
            event,
            Event::Place { .. } | Event::Solution { image: false, .. }
        )
}

/// Writes `trace` as a storyboard of at most `max_boards` boards: a board after each placement
/// (after each step with `every_step`), its rows and columns numbered, captioned with the
/// step's number, what happened and why, the step's square framed (blue: placed, red with a
/// cross: rejected, dashed: taken back), the line of attack drawn from the queen that rules a
/// rejected square out, and each solution starred.
///
/// ```
/// use nqueens::algo::Algo;
/// let t = nqueens::trace::record(Algo::Backtracking, 4, 1000).unwrap();
/// let mut out = Vec::new();
/// nqueens::trace::storyboard::write(&mut out, &t, false, 5).unwrap();
/// let svg = String::from_utf8(out).unwrap();
/// assert_eq!(svg.matches("<svg").count(), 1 + 5);
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write(
    out: &mut impl Write,
    trace: &Trace,
    every_step: bool,
    max_boards: usize,
) -> io::Result<()> {
    let n = trace.n;
    let mut board = Board::new(n);
    // (step, board before it, board after it, the event) for each frame.
    let mut frames = Vec::new();
    for (i, event) in trace.events.iter().enumerate() {
        let before = board.clone();
        board.apply(event);
        if frames.len() < max_boards && drawn(event, every_step) {
            frames.push((i + 1, before, board.clone(), event));
        }
    }
    // A board is `n` squares with its numbers above and to the left, and two lines of caption
    // below; boards are a fifth of a square apart.
    let (cw, ch) = (n as f64 + MARGIN + 0.2, n as f64 + MARGIN + 2.0);
    let across = frames.len().clamp(1, ACROSS);
    let down = frames.len().div_ceil(ACROSS).max(1);
    let (w, h) = (across as f64 * cw, down as f64 * ch);
    let px = PX * w;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{px:.0}\" height=\"{:.0}\" \
         viewBox=\"0 0 {w:.2} {h:.2}\" font-family=\"sans-serif\">",
        PX * h
    );
    let _ = writeln!(
        s,
        "<title>{} queens, {}: {} boards, one per {} (rows and columns from 1)</title>",
        n,
        trace.algo,
        frames.len(),
        if every_step { "step" } else { "placement" }
    );
    // Grey squares, as the animated trace: the marks keep 3:1 against both.
    s.push_str(
        &crate::format::svg::DEFS
            .replace("#f0d9b5", "#f4f4f4")
            .replace("#b58863", "#c4c4c4"),
    );
    s.push_str("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
    for (k, (step, before, board, event)) in frames.iter().enumerate() {
        let (x, y) = ((k % ACROSS) as f64 * cw, (k / ACROSS) as f64 * ch);
        let _ = write!(
            s,
            "<svg x=\"{x:.2}\" y=\"{y:.2}\" width=\"{cw:.2}\" height=\"{ch:.2}\" \
             viewBox=\"{m:.2} {m:.2} {cw:.2} {ch:.2}\">\
             <rect width=\"{n}\" height=\"{n}\" fill=\"url(#squares)\" stroke=\"#222\" stroke-width=\"0.04\"/>",
            m = -MARGIN,
        );
        s.push_str(&numbers(n));
        for row in 0..n {
            if let Some(col) = board.queen(row) {
                let _ = write!(s, "<use href=\"#queen\" x=\"{col}\" y=\"{row}\"/>");
            }
        }
        let frame = |row: usize, col: usize, colour: &str, dash: &str| {
            format!(
                "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"0.84\" height=\"0.84\" fill=\"none\" \
                 stroke=\"{colour}\" stroke-width=\"0.14\"{dash}/>",
                col as f64 + 0.08,
                row as f64 + 0.08
            )
        };
        match **event {
            Event::Place { row, col, .. } => s.push_str(&frame(row, col, "#0050a0", "")),
            Event::Reject { row, col, reason } => {
                s.push_str(&frame(row, col, "#a3000b", ""));
                if let Some((r, c)) = before.attacker(row, col, reason) {
                    s.push_str(&attack_line((r, c), (row, col), reason));
                }
                let _ = write!(
                    s,
                    "<path d=\"M{a} {b}L{c} {d}M{c} {b}L{a} {d}\" stroke=\"#a3000b\" stroke-width=\"0.1\"/>",
                    a = col as f64 + 0.3,
                    b = row as f64 + 0.3,
                    c = col as f64 + 0.7,
                    d = row as f64 + 0.7
                );
            }
            Event::Remove { row, col } => s.push_str(&frame(
                row,
                col,
                "#3d3d3d",
                " stroke-dasharray=\"0.15 0.1\"",
            )),
            _ => {}
        }
        let star = if matches!(event, Event::Solution { .. }) {
            "\u{2605} "
        } else {
            ""
        };
        // What happened, then why, as large as the board's width lets the longer line be.
        let (what, why) = short(event);
        let what = format!("{star}{step}. {what}");
        let longest = what.chars().count().max(why.chars().count());
        let font = (n as f64 / (longest as f64 * 0.55)).min(0.62);
        for (i, line) in [what.as_str(), why.as_str()].into_iter().enumerate() {
            if line.is_empty() {
                continue;
            }
            let _ = write!(
                s,
                "<text x=\"0\" y=\"{:.2}\" font-size=\"{font:.2}\"{}>{}</text>",
                n as f64 + 0.7 + 0.72 * i as f64,
                if i == 1 { " fill=\"#333\"" } else { "" },
                escape(line)
            );
        }
        s.push_str("</svg>\n");
    }
    s.push_str("</svg>\n");
    out.write_all(s.as_bytes())
}

/// The numbers of a board's columns above it and of its rows to its left, from 1.
pub(crate) fn numbers(n: usize) -> String {
    let mut s = String::from("<g font-size=\"0.42\" fill=\"#444\" text-anchor=\"middle\">");
    for i in 0..n {
        let _ = write!(
            s,
            "<text x=\"{c:.2}\" y=\"-0.22\">{k}</text><text x=\"-0.36\" y=\"{r:.2}\">{k}</text>",
            c = i as f64 + 0.5,
            r = i as f64 + 0.65,
            k = i + 1
        );
    }
    s.push_str("</g>");
    s
}

/// The line of attack from the queen at `from` to the square `to` it rules out, drawn by
/// reason as on the page: column solid, diagonal `\` dashed, anti-diagonal `/` dotted.
fn attack_line(from: (usize, usize), to: (usize, usize), reason: Reason) -> String {
    let dash = match reason {
        Reason::Diagonal => " stroke-dasharray=\"0.3 0.18\"",
        Reason::AntiDiagonal => " stroke-dasharray=\"0.06 0.16\" stroke-linecap=\"round\"",
        _ => "",
    };
    format!(
        "<line class=\"attack\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" \
         stroke=\"#a3000b\" stroke-width=\"0.09\"{dash}/>",
        from.1 as f64 + 0.5,
        from.0 as f64 + 0.5,
        to.1 as f64 + 0.5,
        to.0 as f64 + 0.5
    )
}

/// The step in words for a caption under a small board: what happened, and why.
fn short(event: &Event) -> (String, String) {
    let d = event.describe();
    let (head, tail) = d.split_once(':').unwrap_or((&d, ""));
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    (words(head), words(tail))
}
