//! Statistics of a search: how much work it took, in the terms CP solvers report.

use std::fmt;
use std::time::Duration;

/// Counters of one solver, summed over every search it ran.
///
/// ```
/// use nqueens::cp::{Instance, Options, Solver};
/// let mut solver = Solver::new(&Instance::new(6), Options::default());
/// let (count, _) = solver.count();
/// assert_eq!(count, 4);
/// assert_eq!(solver.stats().solutions, 4);
/// assert!(solver.stats().nodes >= 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Decisions tried: a queen put on a square by choice (OR-Tools calls them branches).
    pub nodes: u64,
    /// Decisions made on a column rather than a row: a free column that fewer rows can take
    /// than any row has squares left (boards with blocked squares only).
    pub column_branches: u64,
    /// Decisions whose propagation ended in a row or column with no square left.
    pub failures: u64,
    /// Queens placed because propagation forced them (singletons and hidden singles).
    pub propagations: u64,
    /// Solutions found.
    pub solutions: u64,
    /// No-goods learned from failures: sets of queens that no completion holds together.
    pub nogoods: u64,
    /// Times the search started over with a new random tie-breaking.
    pub restarts: u64,
    /// Trial queens of the search with probing: a square of a row or column of two squares
    /// tried with propagation and taken off again (taken off for good if it failed).
    pub probes: u64,
    /// Time spent searching.
    pub time: Duration,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {}, column branches {}, failures {}, propagations {}, solutions {}, nogoods {}, \
             restarts {}, probes {}, time {:.3} ms",
            self.nodes,
            self.column_branches,
            self.failures,
            self.propagations,
            self.solutions,
            self.nogoods,
            self.restarts,
            self.probes,
            self.time.as_secs_f64() * 1e3
        )
    }
}
