//! JSON Lines traces: a header line, one object per step, a summary line.
//!
//! ```text
//! {"trace":"nqueens","n":4,"algo":"flags"}
//! {"step":1,"event":"place","row":0,"col":0}
//! {"step":2,"event":"reject","row":1,"col":0,"reason":"column"}
//! ...
//! {"end":"complete","steps":60,"nodes":16,"checks":56,"solutions":2}
//! ```
//!
//! Replaying the `place` and `remove` steps in order gives the board after each step; at each
//! `solution` that is not an `image`, the board holds exactly its queens.

use std::io::{self, Write};

use serde::Serialize;

use super::{Event, Trace};

#[derive(Serialize)]
struct Header<'a> {
    trace: &'static str,
    n: usize,
    algo: &'a str,
}

#[derive(Serialize)]
struct Line<'a> {
    step: usize,
    #[serde(flatten)]
    event: &'a Event,
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
/// assert!(text.lines().last().unwrap().contains("\"solutions\":2"));
/// ```
pub fn write(out: &mut impl Write, trace: &Trace) -> io::Result<()> {
    let header = Header {
        trace: "nqueens",
        n: trace.n,
        algo: trace.algo.name(),
    };
    serde_json::to_writer(&mut *out, &header)?;
    writeln!(out)?;
    for (i, event) in trace.events.iter().enumerate() {
        serde_json::to_writer(&mut *out, &Line { step: i + 1, event })?;
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
