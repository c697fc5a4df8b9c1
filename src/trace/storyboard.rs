//! Storyboards: the search as a grid of small boards in one SVG document, for slides and
//! handouts; one board per placement (what the queen just placed leaves), or one per step.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::svg::escape;
use super::{Board, Event, Trace};

/// The most steps a storyboard holds: at most as many boards, a page of a few hundred KB.
pub const MAX_STEPS: usize = 2_000;

/// Boards side by side in a line of the grid.
const ACROSS: usize = 8;

/// Writes `trace` as a storyboard: a board after each placement (after each step with
/// `every_step`), numbered by step, the step's square framed (blue: placed, red with a cross:
/// rejected, dashed: taken back) and each solution starred.
///
/// ```
/// use nqueens::algo::Algo;
/// let t = nqueens::trace::record(Algo::Backtracking, 4, 1000).unwrap();
/// let mut out = Vec::new();
/// nqueens::trace::storyboard::write(&mut out, &t, false).unwrap();
/// let svg = String::from_utf8(out).unwrap();
/// assert_eq!(svg.matches("<svg").count(), 1 + t.placements() + t.solutions().count());
/// ```
pub fn write(out: &mut impl Write, trace: &Trace, every_step: bool) -> io::Result<()> {
    let n = trace.n;
    let mut board = Board::new(n);
    // (step, board after it, the event) for each frame.
    let mut frames = Vec::new();
    for (i, event) in trace.events.iter().enumerate() {
        board.apply(event);
        let solved = matches!(event, Event::Solution { image: false, .. });
        if every_step || matches!(event, Event::Place { .. }) || solved {
            frames.push((i + 1, board.clone(), event));
        }
    }
    // A board is `n` units plus a caption of 1.2; frames are 1.5 units apart.
    let cell = n as f64 + 1.7;
    let across = frames.len().clamp(1, ACROSS);
    let down = frames.len().div_ceil(ACROSS).max(1);
    let (w, h) = (across as f64 * cell, down as f64 * cell);
    let px = 110.0 * across as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{px:.0}\" height=\"{:.0}\" \
         viewBox=\"0 0 {w:.2} {h:.2}\" font-family=\"sans-serif\">",
        px * h / w
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
    for (k, (step, board, event)) in frames.iter().enumerate() {
        let (x, y) = ((k % ACROSS) as f64 * cell, (k / ACROSS) as f64 * cell);
        let _ = write!(
            s,
            "<svg x=\"{:.2}\" y=\"{y:.2}\" width=\"{:.2}\" height=\"{:.2}\" viewBox=\"0 0 {:.2} {:.2}\">\
             <rect width=\"{n}\" height=\"{n}\" fill=\"url(#squares)\" stroke=\"#222\" stroke-width=\"0.04\"/>",
            x + 0.2,
            cell - 0.2,
            n as f64 + 1.2,
            cell - 0.2,
            n as f64 + 1.2
        );
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
            Event::Reject { row, col, .. } => {
                s.push_str(&frame(row, col, "#a3000b", ""));
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
        let _ = writeln!(
            s,
            "<text x=\"0\" y=\"{:.2}\" font-size=\"{:.2}\">{star}{step}. {}</text></svg>",
            n as f64 + 0.85,
            (n as f64 / 12.0).max(0.4),
            escape(short(event).trim())
        );
    }
    s.push_str("</svg>\n");
    out.write_all(s.as_bytes())
}

/// The step in a few words, for a caption under a small board.
fn short(event: &Event) -> String {
    let d = event.describe();
    let head = d.split(':').next().unwrap_or(&d);
    head.split_whitespace().collect::<Vec<_>>().join(" ")
}
