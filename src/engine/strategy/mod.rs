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

use crate::engine::{EngineError, TaskSet};

pub mod backtrack;
pub mod join;
pub mod symmetric;

/// A way of splitting a count into tasks.
///
/// ```
/// use nqueens::{engine::Strategy, Counter};
/// for s in Strategy::ALL {
///     let r = Counter::new(10).strategy(s).run().unwrap();
///     assert_eq!((r.total, r.unique), (724, Some(92)));
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Bitboard backtracking below pre-placed queens, with symmetry classes.
    Backtrack,
    /// Half-boards joined on their diagonals (meet in the middle), unique count by Burnside.
    Join,
}

impl Strategy {
    /// Both strategies.
    ///
    /// ```
    /// use nqueens::engine::Strategy;
    /// assert_eq!(Strategy::ALL.map(Strategy::name), ["backtrack", "join"]);
    /// ```
    pub const ALL: [Strategy; 2] = [Strategy::Backtrack, Strategy::Join];

    /// The name used everywhere: on the command line, in checkpoints, shards and results.
    ///
    /// ```
    /// use nqueens::engine::Strategy;
    /// assert_eq!(Strategy::Join.name(), "join");
    /// assert_eq!("backtrack".parse::<Strategy>(), Ok(Strategy::Backtrack));
    /// assert!("dfs".parse::<Strategy>().is_err());
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Backtrack => "backtrack",
            Strategy::Join => "join",
        }
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A strategy name that is not one of [`Strategy::ALL`].
///
/// ```
/// use nqueens::engine::{Strategy, UnknownStrategy};
/// let err = "dfs".parse::<Strategy>().unwrap_err();
/// assert_eq!(err, UnknownStrategy("dfs".into()));
/// assert_eq!(err.to_string(), r#"unknown strategy "dfs"; the engine has: backtrack, join"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy {0:?}; the engine has: backtrack, join")]
pub struct UnknownStrategy(pub String);

impl std::str::FromStr for Strategy {
    type Err = UnknownStrategy;
    fn from_str(s: &str) -> Result<Strategy, UnknownStrategy> {
        Strategy::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| UnknownStrategy(s.to_string()))
    }
}

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
