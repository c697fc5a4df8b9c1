//! JSON Lines traces: a header line, one object per step, a summary line.
//!
//! ```text
//! {"trace":"nqueens","n":4,"algo":"flags","numbering":"from 1"}
//! {"step":1,"event":"place","row":1,"col":1,"checks":0}
//! {"step":2,"event":"reject","row":2,"col":1,"reason":"column","checks":1}
//! ...
//! {"end":"complete","steps":60,"nodes":16,"checks":56,"solutions":2}
//! ```
//!
//! Rows and columns number from 1, as in `solve` and `verify`; `checks` is the running total
//! of square checks when the step was made. Replaying the `place` and `remove` steps in order
//! gives the board after each step; at each `solution` that is not an `image`, the board holds
//! exactly its queens.

use std::io::{self, Write};

use serde::Serialize;

use super::{Event, Trace};

#[derive(Serialize)]
struct Header<'a> {
    trace: &'static str,
    n: usize,
    algo: &'a str,
    numbering: &'static str,
}

/// `event` with its rows and columns from 1, as written.
fn from_one(event: &Event) -> Event {
    let ones = |c: &[u32]| c.iter().map(|c| c + 1).collect();
    match *event {
        Event::Place { row, col, forced } => Event::Place {
            row: row + 1,
            col: col + 1,
            forced,
        },
        Event::Reject { row, col, reason } => Event::Reject {
            row: row + 1,
            col: col + 1,
            reason,
        },
        Event::Remove { row, col } => Event::Remove {
            row: row + 1,
            col: col + 1,
        },
        Event::DeadEnd { row } => Event::DeadEnd {
            row: row.map(|r| r + 1),
        },
        Event::Solution { ref cols, image } => Event::Solution {
            cols: ones(cols),
            image,
        },
        Event::Duplicate { ref cols } => Event::Duplicate { cols: ones(cols) },
    }
}

#[derive(Serialize)]
struct Line {
    step: usize,
    #[serde(flatten)]
    event: Event,
    checks: u64,
}

#[derive(Serialize)]
struct Summary {
    /// `complete`, or `limit` when the search went on beyond the steps written.
    end: &'static str,
    steps: usize,
    nodes: usize,
    checks: u64,
    solutions: usize,
}

/// Writes `trace` as JSON Lines.
///
/// ```
/// let t = nqueens::trace::record(nqueens::algo::Algo::Bitboard, 4, 1000).unwrap();
/// let mut out = Vec::new();
/// nqueens::trace::json::write(&mut out, &t).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text.lines().count(), t.events.len() + 2);
/// assert!(text.lines().nth(1).unwrap().contains("\"row\":1,\"col\":1"));
/// assert!(text.lines().last().unwrap().contains("\"solutions\":2"));
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write(out: &mut impl Write, trace: &Trace) -> io::Result<()> {
    let header = Header {
        trace: "nqueens",
        n: trace.n,
        algo: trace.algo.name(),
        numbering: "from 1",
    };
    serde_json::to_writer(&mut *out, &header)?;
    writeln!(out)?;
    for (i, event) in trace.events.iter().enumerate() {
        let line = Line {
            step: i + 1,
            event: from_one(event),
            checks: trace.checks_at.get(i).copied().unwrap_or(trace.checks),
        };
        serde_json::to_writer(&mut *out, &line)?;
        writeln!(out)?;
    }
    let summary = Summary {
        end: if trace.complete { "complete" } else { "limit" },
        steps: trace.events.len(),
        nodes: trace.placements(),
        checks: trace.checks,
        solutions: trace.solutions().count(),
    };
    serde_json::to_writer(&mut *out, &summary)?;
    writeln!(out)
}
