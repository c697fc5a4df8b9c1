//! Traces: the steps of a ladder search, recorded from the rung itself, and drawn for people.
//!
//! [`record`] runs an algorithm of the ladder with an observer (see [`crate::observe`])
//! that keeps each step as an [`Event`]: every queen placed, every square rejected and why,
//! every dead end, every queen taken back, every solution. The writers turn a [`Trace`] into
//! text (a board per step, or one line per step), JSON Lines for other tools, an animated SVG
//! (SMIL, no script), a storyboard of small boards for slides, or a self-contained HTML page
//! with controls, the constraints and the search tree.
//!
//! The Rust types number rows and columns from 0; everything written for people or other tools
//! (text, JSON Lines, SVG, the page) numbers them from 1, as `solve` and `verify` do.
//!
//! ```
//! use nqueens::algo::Algo;
//! use nqueens::trace::{record, Event};
//! let trace = record(Algo::Backtracking, 4, 10_000).unwrap();
//! assert!(trace.complete);
//! assert_eq!(trace.solutions().count(), 2);
//! assert_eq!(trace.events[0], Event::Place { row: 0, col: 0, forced: false });
//! ```

use std::ops::ControlFlow;

use crate::algo::{Algo, AlgoError};
use crate::observe::{Observer, Step};

mod board;
pub mod html;
pub mod json;
pub mod storyboard;
pub mod svg;
pub mod text;

pub use board::Board;

/// The most steps a text or JSON Lines trace holds: a few seconds to write, tens of megabytes.
pub const MAX_STEPS: usize = 300_000;

/// One recorded step: a [`Step`] with its columns owned.
pub type Event = Step<Vec<u32>>;

impl Event {
    /// One line for people: what happened, where, and why.
    ///
    /// ```
    /// use nqueens::observe::Reason;
    /// use nqueens::trace::Event;
    /// let e = Event::Reject { row: 1, col: 2, reason: Reason::AntiDiagonal };
    /// assert_eq!(e.describe(), "reject   row 2 col 3: anti-diagonal /");
    /// ```
    ///
    /// Rows and columns are numbered from 1, as `solve` and `verify` number them.
    pub fn describe(&self) -> String {
        let cols = |c: &[u32]| {
            c.iter()
                .map(|c| (c + 1).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match self {
            Event::Place { row, col, forced } => {
                let how = if *forced {
                    " (forced by propagation)"
                } else {
                    ""
                };
                format!("place    row {} col {}{how}", row + 1, col + 1)
            }
            Event::Reject { row, col, reason } => {
                format!(
                    "reject   row {} col {}: {}",
                    row + 1,
                    col + 1,
                    reason.describe()
                )
            }
            Event::Remove { row, col } => format!("back up  row {} col {}", row + 1, col + 1),
            Event::DeadEnd { row: Some(row) } => {
                format!("dead end row {}: no square left", row + 1)
            }
            Event::DeadEnd { row: None } => "dead end: propagation left a line empty".into(),
            Event::Solution { cols: c, image } => {
                let how = if *image { " (image by symmetry)" } else { "" };
                format!("solution {}{how}", cols(c))
            }
            Event::Duplicate { cols: c } => {
                format!("drop     {}: a smaller image is searched", cols(c))
            }
        }
    }
}

/// The recorded steps of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Board size.
    pub n: usize,
    /// The algorithm that searched.
    pub algo: Algo,
    /// The steps, in order.
    pub events: Vec<Event>,
    /// Square checks made during the recorded steps (see [`Observer::checks`]).
    pub checks: u64,
    /// The square checks made up to and including each step (the running total of
    /// [`checks`](Trace::checks) as each step was reported): the counters a player shows.
    pub checks_at: Vec<u64>,
    /// `true` if the search ended within the step limit; `false` if the trace is its start.
    pub complete: bool,
}

impl Trace {
    /// The solutions reported, in order.
    ///
    /// ```
    /// let t = nqueens::trace::record(nqueens::algo::Algo::Flags, 4, 1000).unwrap();
    /// assert_eq!(t.solutions().next(), Some(&[1, 3, 0, 2][..]));
    /// ```
    pub fn solutions(&self) -> impl Iterator<Item = &[u32]> {
        self.events.iter().filter_map(|e| match e {
            Event::Solution { cols, .. } => Some(cols.as_slice()),
            _ => None,
        })
    }

    /// The number of queens placed: the nodes of the search tree that were visited.
    ///
    /// ```
    /// let t = nqueens::trace::record(nqueens::algo::Algo::Backtracking, 4, 1000).unwrap();
    /// assert_eq!(t.placements(), 16);
    /// ```
    pub fn placements(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Place { .. }))
            .count()
    }
}

/// Keeps the first `limit` steps; the one after them stops the search.
struct Recorder {
    events: Vec<Event>,
    checks: u64,
    checks_at: Vec<u64>,
    limit: usize,
    cut: bool,
}

impl Observer for Recorder {
    fn step(&mut self, step: Step<&[u32]>) -> ControlFlow<()> {
        if self.events.len() == self.limit {
            self.cut = true;
            return ControlFlow::Break(());
        }
        self.events.push(step.to_owned());
        self.checks_at.push(self.checks);
        ControlFlow::Continue(())
    }

    fn checks(&mut self, k: u64) {
        self.checks += k;
    }
}

/// Records the search of `algo` for `n`, keeping at most `limit` steps; the search stops at the
/// step after them and the trace is then not [`complete`](Trace::complete).
///
/// ```
/// use nqueens::algo::Algo;
/// let t = nqueens::trace::record(Algo::Bitboard, 8, 50).unwrap();
/// assert_eq!((t.events.len(), t.complete), (50, false));
/// assert!(nqueens::trace::record(Algo::Bitboard, 0, 50).is_err());
/// ```
///
/// # Errors
/// [`AlgoError`] for an `n` the algorithm does not trace (as it does not list it).
pub fn record(algo: Algo, n: usize, limit: usize) -> Result<Trace, AlgoError> {
    let mut recorder = Recorder {
        events: Vec::new(),
        checks: 0,
        checks_at: Vec::new(),
        limit,
        cut: false,
    };
    algo.observe(n, &mut recorder, &mut |_| ControlFlow::Continue(()))?;
    Ok(Trace {
        n,
        algo,
        events: recorder.events,
        checks: recorder.checks,
        checks_at: recorder.checks_at,
        complete: !recorder.cut,
    })
}
