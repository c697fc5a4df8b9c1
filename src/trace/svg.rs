//! Animated SVG traces: one self-contained file that any browser plays, with SMIL and no script.
//!
//! Every animated thing is one element with one looping `<animate>` whose discrete `values`
//! change at the steps where it changes: a queen per square that ever holds one, a shade per
//! square that is ever attacked, one frame that jumps to each step's square, and a caption per
//! step (step number, what happened, solutions so far). The file grows with the steps, so
//! [`MAX_STEPS`] bounds it.
//!
//! It plays on opening; a pause button holds the current frame and a play button starts it
//! again from the first step (SMIL `begin`/`end` on clicks, still no script). Under
//! `prefers-reduced-motion` it shows the last board, still, instead. Marks are shapes as well
//! as colours (a hatch for attacked squares, a dashed frame for a queen taken back, a cross for
//! a rejected square), each at least 3:1 against both grey squares.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{Board, Event, Trace};

/// The most steps an animated SVG holds: about 200 KB, a few minutes of animation.
pub const MAX_STEPS: usize = 2_000;

/// Steps of the final board held at the end before the animation starts over.
const TAIL: usize = 4;

/// Seconds per step: half a second for short traces, faster for long ones (a minute for
/// 600 steps), never under a tenth.
fn seconds_per_step(steps: usize) -> f64 {
    (60.0 / steps.max(1) as f64).clamp(0.1, 0.5)
}

/// Writes `trace` as an animated SVG document.
///
/// ```
/// let t = nqueens::trace::record(nqueens::algo::Algo::Flags, 4, 1000).unwrap();
/// let mut out = Vec::new();
/// nqueens::trace::svg::write(&mut out, &t).unwrap();
/// let svg = String::from_utf8(out).unwrap();
/// assert!(svg.starts_with("<svg") && svg.contains("<animate") && !svg.contains("<script"));
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write(out: &mut impl Write, trace: &Trace) -> io::Result<()> {
    let n = trace.n;
    let steps = trace.events.len();
    let frames = steps + TAIL;
    let dur = seconds_per_step(steps) * frames as f64;
    // The board after each step: frame 0 shows the first step.
    let mut boards = Vec::with_capacity(steps);
    let mut board = Board::new(n);
    for event in &trace.events {
        board.apply(event);
        boards.push(board.clone());
    }
    let px = (n * 48).clamp(240, 640);
    let caption = 2.2;
    // The board's numbers take a margin above it and to its left.
    let m = super::storyboard::MARGIN;
    let (width, height) = (n as f64 + m, n as f64 + caption + m);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{px}\" height=\"{h:.0}\" \
         viewBox=\"{o} {o} {width} {height}\" font-family=\"sans-serif\">",
        h = px as f64 * height / width,
        o = -m
    );
    let _ = writeln!(
        s,
        "<title>{} on {n} x {n}: {steps} steps{}</title>",
        trace.algo,
        if trace.complete { "" } else { " (the start)" }
    );
    // Grey squares rather than brown: every mark then keeps 3:1 against both.
    s.push_str(
        &crate::format::svg::DEFS
            .replace("#f0d9b5", "#f4f4f4")
            .replace("#b58863", "#c4c4c4"),
    );
    s.push_str(
        "<defs><pattern id=\"hatch\" width=\"0.25\" height=\"0.25\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"0.07\" height=\"0.25\" fill=\"#000\" \
         fill-opacity=\"0.6\"/></pattern></defs>\n\
         <style>.still { display: none } @media (prefers-reduced-motion: reduce) { \
         .moving { display: none } .still { display: inline } }</style>\n",
    );
    let _ = writeln!(
        s,
        "<rect x=\"{o}\" y=\"{o}\" width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>\n\
         <rect width=\"{n}\" height=\"{n}\" fill=\"url(#squares)\"/>{}",
        super::storyboard::numbers(n),
        o = -m
    );
    // Reduced motion: one still board, the first solution's (else the last step's).
    let still = trace
        .events
        .iter()
        .position(|e| matches!(e, Event::Solution { image: false, .. }))
        .unwrap_or(steps.saturating_sub(1));
    s.push_str("<g class=\"still\">");
    if let Some(board) = boards.get(still) {
        for row in 0..n {
            if let Some(col) = board.queen(row) {
                let _ = write!(s, "<use href=\"#queen\" x=\"{col}\" y=\"{row}\"/>");
            }
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"0.1\" y=\"{:.2}\" font-size=\"0.36\">still: reduced motion</text>\
         <text x=\"0.1\" y=\"{:.2}\" font-size=\"0.36\" fill=\"#444\">the board at step {} of {steps}</text>\
         </g>\n<g class=\"moving\">",
        n as f64 + 0.55,
        n as f64 + 1.15,
        still + 1
    );
    let anim = |values: &[String], key_times: &[usize], attr: &str| {
        let times: Vec<String> = key_times
            .iter()
            .map(|&k| format!("{:.6}", k as f64 / frames as f64))
            .collect();
        format!(
            "<animate attributeName=\"{attr}\" calcMode=\"discrete\" dur=\"{dur:.2}s\" \
             begin=\"0s;play.click\" end=\"pause.click\" fill=\"freeze\" \
             repeatCount=\"indefinite\" values=\"{}\" keyTimes=\"{}\"/>",
            values.join(";"),
            times.join(";")
        )
    };
    // Each square's shade and queen: a value at frame 0 and at every frame it changes.
    for row in 0..n {
        for col in 0..n {
            let shade = |b: &Board| b.attacked(row, col) && b.queen(row) != Some(col);
            let queen = |b: &Board| b.queen(row) == Some(col);
            for (is, draw) in [
                (
                    &shade as &dyn Fn(&Board) -> bool,
                    format!(
                        "<rect x=\"{col}\" y=\"{row}\" width=\"1\" height=\"1\" fill=\"url(#hatch)\" fill-opacity=\"0\">"
                    ),
                ),
                (
                    &queen,
                    format!("<use href=\"#queen\" x=\"{col}\" y=\"{row}\" visibility=\"hidden\">"),
                ),
            ] {
                let (values, times) = changes(&boards, |b| is(b));
                if values.iter().all(|&v| !v) {
                    continue;
                }
                let (attr, on, off, close) = if draw.starts_with("<rect") {
                    ("fill-opacity", "1", "0", "</rect>")
                } else {
                    ("visibility", "visible", "hidden", "</use>")
                };
                let values: Vec<String> = values
                    .iter()
                    .map(|&v| if v { on } else { off }.to_string())
                    .collect();
                let _ = writeln!(s, "{draw}{}{close}", anim(&values, &times, attr));
            }
        }
    }
    // The frame around each step's square, coloured by what happened there.
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let mut colours = Vec::new();
    let mut dashes = Vec::new();
    let mut crosses = Vec::new();
    for event in &trace.events {
        let (square, colour) = match *event {
            Event::Place { row, col, .. } => (Some((row, col)), "#0050a0"),
            Event::Reject { row, col, .. } => (Some((row, col)), "#a3000b"),
            Event::Remove { row, col } => (Some((row, col)), "#3d3d3d"),
            _ => (None, "transparent"),
        };
        let (row, col) = square.unwrap_or((0, 0));
        xs.push(format!("{}", col as f64 + 0.05));
        ys.push(format!("{}", row as f64 + 0.05));
        colours.push(colour.to_string());
        let back = matches!(event, Event::Remove { .. });
        dashes.push(if back { "0.2 0.12" } else { "none" }.to_string());
        let rejected = matches!(event, Event::Reject { .. });
        crosses.push(if rejected { "visible" } else { "hidden" }.to_string());
    }
    if steps > 0 {
        let all: Vec<usize> = (0..steps).collect();
        let _ = writeln!(
            s,
            "<rect width=\"0.9\" height=\"0.9\" fill=\"none\" stroke-width=\"0.1\" stroke=\"none\">\
             {}{}{}{}</rect>",
            anim(&xs, &all, "x"),
            anim(&ys, &all, "y"),
            anim(&colours, &all, "stroke"),
            anim(&dashes, &all, "stroke-dasharray"),
        );
        // Shapes beside the colours: a cross on a rejected square.
        let places: Vec<String> = xs
            .iter()
            .zip(&ys)
            .map(|(x, y)| format!("{x} {y}"))
            .collect();
        let translate = anim(&places, &all, "transform").replace(
            "<animate attributeName=\"transform\"",
            "<animateTransform attributeName=\"transform\" type=\"translate\"",
        );
        let _ = writeln!(
            s,
            "<path d=\"M0.22 0.22L0.68 0.68M0.68 0.22L0.22 0.68\" stroke=\"#a3000b\" \
             stroke-width=\"0.12\" visibility=\"hidden\">{translate}{}</path>",
            anim(&crosses, &all, "visibility"),
        );
    }
    // One caption per step, shown during its frame (the last one through the tail).
    let mut solutions = 0;
    let font = 0.36;
    for (i, event) in trace.events.iter().enumerate() {
        if matches!(event, Event::Solution { .. }) {
            solutions += 1;
        }
        let (values, times) = if i == 0 {
            (vec!["visible", "hidden"], vec![0, 1])
        } else if i + 1 == steps {
            (vec!["hidden", "visible"], vec![0, i])
        } else {
            (vec!["hidden", "visible", "hidden"], vec![0, i, i + 1])
        };
        let values: Vec<String> = values.into_iter().map(String::from).collect();
        let values = if steps == 1 {
            vec!["visible".to_string()]
        } else {
            values
        };
        let times = if steps == 1 { vec![0] } else { times };
        let _ = writeln!(
            s,
            "<g visibility=\"hidden\">{}<text x=\"0.1\" y=\"{y1:.2}\" font-size=\"{font}\">step {} of {steps} \
             · {} solution{}</text><text x=\"0.1\" y=\"{y2:.2}\" font-size=\"{font}\" \
             fill=\"#444\">{}</text></g>",
            anim(&values, &times, "visibility"),
            i + 1,
            solutions,
            if solutions == 1 { "" } else { "s" },
            escape(&event.describe()),
            y1 = n as f64 + 0.55,
            y2 = n as f64 + 1.15,
        );
    }
    // Pause holds the frame shown; play starts again from the first step.
    let y = n as f64 + 1.45;
    for (id, x, label, text) in [
        ("pause", 0.1, "pause", "\u{275A}\u{275A} pause"),
        ("play", 1.8, "play from the start", "\u{25B6} play"),
    ] {
        let _ = writeln!(
            s,
            "<g id=\"{id}\" cursor=\"pointer\" role=\"button\" aria-label=\"{label}\">\
             <rect x=\"{x}\" y=\"{y:.2}\" width=\"1.5\" height=\"0.6\" rx=\"0.1\" fill=\"#eee\" \
             stroke=\"#333\" stroke-width=\"0.03\"/><text x=\"{:.2}\" y=\"{:.2}\" \
             font-size=\"0.3\">{text}</text></g>",
            x + 0.15,
            y + 0.4
        );
    }
    s.push_str("</g>\n</svg>\n");
    out.write_all(s.as_bytes())
}

/// The value of `f` at frame 0 and at each later frame where it changes, with those frames.
fn changes(boards: &[Board], f: impl Fn(&Board) -> bool) -> (Vec<bool>, Vec<usize>) {
    let (mut values, mut times) = (Vec::new(), Vec::new());
    for (i, b) in boards.iter().enumerate() {
        let v = f(b);
        if values.last() != Some(&v) {
            values.push(v);
            times.push(i);
        }
    }
    (values, times)
}

/// `text` with the characters XML gives a meaning escaped.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
