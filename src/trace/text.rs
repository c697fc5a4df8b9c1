//! Text traces: a board per step with the attacked squares marked, or one line per step.

use std::io::{self, Write};

use super::{Board, Event, Trace};

/// Writes `trace` as text: with `compact`, one numbered line per step; otherwise each step's
/// line followed by the board after it, its columns numbered above and its rows on the left
/// (`Q` a queen, `x` an attacked square, `.` a free one, `*` the square a rejection is about).
///
/// ```
/// let t = nqueens::trace::record(nqueens::algo::Algo::Flags, 4, 1000).unwrap();
/// let mut out = Vec::new();
/// nqueens::trace::text::write(&mut out, &t, true).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.lines().nth(1).unwrap().ends_with("place    row 1 col 1"));
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write(out: &mut impl Write, trace: &Trace, compact: bool) -> io::Result<()> {
    writeln!(
        out,
        "# trace of {} with {}: {}",
        trace.n,
        trace.algo,
        if compact {
            "one line per step"
        } else {
            "Q queen, x attacked, . free, * the square rejected"
        }
    )?;
    let width = trace.events.len().max(1).ilog10() as usize + 1;
    let mut board = Board::new(trace.n);
    let (mut nodes, mut solutions) = (0, 0);
    for (i, event) in trace.events.iter().enumerate() {
        board.apply(event);
        match event {
            Event::Place { .. } => nodes += 1,
            Event::Solution { .. } => solutions += 1,
            _ => {}
        }
        let line = event.describe();
        if compact {
            writeln!(out, "{:>width$}  {line}", i + 1)?;
            continue;
        }
        writeln!(
            out,
            "step {}  {line}  [nodes {nodes}, solutions {solutions}]",
            i + 1
        )?;
        let mark = match *event {
            Event::Reject { row, col, .. } => Some((row, col)),
            _ => None,
        };
        // Columns numbered above, rows on the left, from 1 as in every trace.
        let w = trace.n.ilog10() as usize + 1;
        let numbers: Vec<String> = (1..=trace.n).map(|c| format!("{c:>w$}")).collect();
        writeln!(out, "  {:w$} {}", "", numbers.join(" "))?;
        for row in 0..trace.n {
            let squares: Vec<String> = (0..trace.n)
                .map(|col| {
                    let mark = if board.queen(row) == Some(col) {
                        "Q"
                    } else if mark == Some((row, col)) {
                        "*"
                    } else if board.attacked(row, col) {
                        "x"
                    } else {
                        "."
                    };
                    format!("{mark:>w$}")
                })
                .collect();
            writeln!(out, "  {:>w$} {}", row + 1, squares.join(" "))?;
        }
        writeln!(out)?;
    }
    writeln!(
        out,
        "# {} steps, {nodes} nodes, {} square checks, {solutions} solutions{}",
        trace.events.len(),
        trace.checks,
        if trace.complete {
            ""
        } else {
            "; the search goes on beyond --limit"
        }
    )
}
