//! Strategies: how a count is split into numbered tasks, and what a task computes.
//!
//! - [`backtrack`]: border constellations (the split) and the bitboard search below them (the
//!   hot loop).
//! - [`join`]: half-boards listed apart and joined on their diagonals (meet in the middle).
//! - [`symmetric`]: the solutions a half or quarter turn leaves unchanged, which both need for
//!   the unique count.
//!
//! A new strategy is a folder here, a [`Strategy`] variant, and an arm in [`task_list`],
//! [`check`] and [`memory_estimate`].

use crate::engine::{EngineError, Strategy, TaskSet};

pub mod backtrack;
pub mod join;
pub mod symmetric;

/// The task list for `n` made by `strategy`.
///
/// ```
/// use nqueens::engine::{strategy::task_list, Strategy, Tally};
/// let tasks = task_list(11, Strategy::Join).unwrap();
/// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
/// assert_eq!((sum.total, sum.unique()), (2680, 341));
/// assert!(task_list(0, Strategy::Join).is_err());
/// ```
///
/// # Errors
/// [`EngineError::OutOfRange`] for an `n` the strategy does not count.
pub fn task_list(n: usize, strategy: Strategy) -> Result<Box<dyn TaskSet>, EngineError> {
    Ok(match strategy {
        Strategy::Backtrack => Box::new(backtrack::BacktrackTasks::new(n)?),
        Strategy::Join => Box::new(join::JoinTasks::new(n)?),
    })
}

/// `Ok` if `strategy` counts `n`, checked without building the task list.
///
/// ```
/// use nqueens::engine::{strategy::check, Strategy};
/// assert!(check(32, Strategy::Backtrack).is_ok());
/// assert!(check(27, Strategy::Join).is_err());
/// ```
///
/// # Errors
/// [`EngineError::OutOfRange`] for an `n` the strategy does not count.
pub fn check(n: usize, strategy: Strategy) -> Result<(), EngineError> {
    match strategy {
        Strategy::Backtrack => backtrack::check(n),
        Strategy::Join => join::check(n),
    }
}

/// Peak memory, in bytes, of counting `n` with `strategy` on `threads` threads, without building
/// the task list (the figure [`TaskSet::memory_bytes`] gives once it is built).
///
/// ```
/// use nqueens::engine::{strategy::memory_estimate, Strategy};
/// assert!(memory_estimate(20, Strategy::Join, 2) > memory_estimate(20, Strategy::Join, 1));
/// assert!(memory_estimate(20, Strategy::Backtrack, 2) < 1 << 20);
/// ```
pub fn memory_estimate(n: usize, strategy: Strategy, threads: usize) -> u64 {
    match strategy {
        Strategy::Backtrack => backtrack::memory_estimate(threads),
        Strategy::Join => join::memory_estimate(n, threads).unwrap_or(0),
    }
}

/// The fastest strategy for `n` on a CPU.
///
/// ```
/// use nqueens::engine::{strategy::fastest_strategy, Strategy};
/// assert_eq!(fastest_strategy(8), Strategy::Backtrack);
/// assert_eq!(fastest_strategy(18), Strategy::Join);
/// assert_eq!(fastest_strategy(28), Strategy::Backtrack);
/// ```
pub fn fastest_strategy(n: usize) -> Strategy {
    if join::preferred(n) {
        Strategy::Join
    } else {
        Strategy::Backtrack
    }
}
