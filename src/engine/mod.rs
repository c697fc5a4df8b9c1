//! The production counter, in two axes.
//!
//! A count for one `n` is split into a deterministic, numbered list of **tasks** (a
//! [`TaskSet`]) whose [`Tally`]s add up to the count in any order. Every service stands on that
//! one list: threads and GPUs take tasks, progress counts them, a checkpoint records finished
//! ones, a shard is a slice of the list.
//!
//! - [`strategy`]: *how* a count is split into tasks and what a task computes:
//!   [`Strategy::Backtrack`] (bitboard search below pre-placed border queens) and
//!   [`Strategy::Join`] (half-boards joined on their diagonals), and the counts of
//!   rotation-symmetric solutions both use.
//! - [`device`]: *where* tasks run: the calling thread, a pool of CPU threads, or a GPU (the
//!   `cuda` feature); the device is chosen there and nowhere else.
//! - [`tasks`]: the list's bookkeeping: its identity and slices ([`tasks::list`]), the journal
//!   of finished tasks ([`tasks::checkpoint`]), shard results and their merge
//!   ([`tasks::shard`]), what a task's tally can be ([`tasks::bounds`]), and how long a count
//!   takes ([`tasks::estimate`]).
//! - [`cpu`]: the one place that asks the CPU which instructions it runs.
//!
//! Most users want [`crate::count`] or [`crate::Counter`], which put these together (the wiring
//! of one count is in this module's `count.rs`).

use std::ops::AddAssign;
use std::sync::atomic::AtomicBool;

pub(crate) mod count;
pub mod cpu;
pub mod device;
pub mod strategy;
pub mod tasks;

/// What a set of tasks adds up to. Additive, so partial results can be summed in any order.
///
/// `unique8` is eight times the task's share of the unique count. Keeping it scaled by 8 lets
/// every strategy report an integer per task: a backtracking task whose solutions fall in classes
/// of size 2, 4 or 8 adds 8 per class; a join strategy adds the Burnside terms
/// (total + P + 2R, see [`join`](strategy::join)).
///
/// ```
/// use nqueens::engine::Tally;
/// let mut t = Tally::default();
/// t += Tally { total: 8, unique8: 8 };
/// t += Tally { total: 4, unique8: 8 };
/// assert_eq!(t.unique(), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Solutions counted.
    pub total: u128,
    /// Eight times the unique solutions counted.
    pub unique8: u128,
}

impl Tally {
    /// The unique count this tally stands for (exact once all tasks are summed).
    ///
    /// ```
    /// use nqueens::engine::{strategy::task_list, Strategy, Tally};
    /// let tasks = task_list(8, Strategy::Join).unwrap();
    /// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    /// assert_eq!((sum.total, sum.unique()), (92, 12));
    /// ```
    pub fn unique(&self) -> u128 {
        self.unique8 / 8
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, rhs: Tally) {
        self.total += rhs.total;
        self.unique8 += rhs.unique8;
    }
}

impl std::iter::Sum for Tally {
    fn sum<I: Iterator<Item = Tally>>(iter: I) -> Tally {
        let mut t = Tally::default();
        for x in iter {
            t += x;
        }
        t
    }
}

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

/// Where the engine counts.
///
/// ```
/// use nqueens::engine::Device;
/// assert_eq!("gpu".parse::<Device>(), Ok(Device::Gpu));
/// assert_eq!(Device::default(), Device::Cpu);
/// assert_eq!(Device::Gpu.name(), "gpu");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Device {
    /// The CPU's cores, with either strategy.
    #[default]
    Cpu,
    /// The first NVIDIA GPU (the `cuda` feature), with the Join strategy's tasks from
    /// [`GPU_JOIN_FROM`](device::GPU_JOIN_FROM) on and the Backtrack strategy's below
    /// ([`default_strategy`](device::default_strategy)); the CPU's cores prepare its batches
    /// and count the few tasks of symmetric solutions.
    Gpu,
}

impl Device {
    /// The name used on the command line and in Python.
    pub fn name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Gpu => "gpu",
        }
    }
}

impl std::str::FromStr for Device {
    type Err = String;
    fn from_str(s: &str) -> Result<Device, String> {
        match s {
            "cpu" => Ok(Device::Cpu),
            "gpu" => Ok(Device::Gpu),
            _ => Err(format!("unknown device {s:?}; there are: cpu, gpu")),
        }
    }
}

/// A deterministic, numbered list of subproblems whose tallies sum to the count for `n`.
///
/// Implementations must give the same list on every machine and run for the same `n` and
/// [`version`](TaskSet::version), and `count(i)` must depend on `i` alone.
///
/// ```
/// use nqueens::engine::{strategy::task_list, Strategy, Tally, TaskSet};
/// let tasks: Box<dyn TaskSet> = task_list(10, Strategy::Backtrack).unwrap();
/// // Any order, any grouping: the tallies add up to the count.
/// let backwards: Tally = (0..tasks.len()).rev().map(|i| tasks.count(i)).sum();
/// assert_eq!((backwards.total, backwards.unique()), (724, 92));
/// ```
pub trait TaskSet: Sync {
    /// The board size.
    ///
    /// ```
    /// use nqueens::engine::{strategy::task_list, Strategy};
    /// assert_eq!(task_list(9, Strategy::Join).unwrap().n(), 9);
    /// ```
    fn n(&self) -> usize;
    /// The strategy that made this list.
    ///
    /// ```
    /// use nqueens::engine::{strategy::task_list, Strategy};
    /// assert_eq!(task_list(9, Strategy::Join).unwrap().strategy(), Strategy::Join);
    /// ```
    fn strategy(&self) -> Strategy;
    /// The version of the task list; results from different versions never mix.
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack, strategy::task_list, Strategy};
    /// let tasks = task_list(9, Strategy::Backtrack).unwrap();
    /// assert_eq!(tasks.version(), backtrack::VERSION);
    /// ```
    fn version(&self) -> u32;
    /// The number of tasks.
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::BacktrackTasks, TaskSet};
    /// // Below N = 20, one task per canonical constellation.
    /// let tasks = BacktrackTasks::new(12).unwrap();
    /// assert_eq!(tasks.len(), tasks.constellation_count());
    /// ```
    fn len(&self) -> usize;
    /// `true` if there are no tasks (only for boards without solutions).
    ///
    /// ```
    /// use nqueens::engine::{strategy::task_list, Strategy};
    /// assert!(task_list(3, Strategy::Backtrack).unwrap().is_empty());
    /// assert!(!task_list(4, Strategy::Backtrack).unwrap().is_empty());
    /// ```
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Counts task `index` (`index < len()`), or returns `None` if `stop` was set before it
    /// finished: the searches look at the flag often enough to end within milliseconds, so a
    /// stopped count loses only its unfinished tasks.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use nqueens::engine::{strategy::task_list, Strategy};
    /// let tasks = task_list(12, Strategy::Join).unwrap();
    /// let go = AtomicBool::new(false);
    /// assert_eq!(tasks.count_unless_stopped(0, &go), Some(tasks.count(0)));
    /// assert_eq!(tasks.count_unless_stopped(0, &AtomicBool::new(true)), None);
    /// ```
    fn count_unless_stopped(&self, index: usize, stop: &AtomicBool) -> Option<Tally>;
    /// Counts task `index` to the end.
    ///
    /// ```
    /// use nqueens::engine::{strategy::task_list, Strategy, Tally};
    /// let tasks = task_list(8, Strategy::Backtrack).unwrap();
    /// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    /// assert_eq!((sum.total, sum.unique()), (92, 12));
    /// ```
    fn count(&self, index: usize) -> Tally {
        self.count_unless_stopped(index, &AtomicBool::new(false))
            .expect("a flag nobody sets never stops a task")
    }
    /// Peak memory, in bytes, that counting with `threads` threads needs beyond the list itself.
    ///
    /// ```
    /// use nqueens::engine::{strategy::memory_estimate, strategy::task_list, Strategy};
    /// let tasks = task_list(16, Strategy::Join).unwrap();
    /// assert_eq!(tasks.memory_bytes(2), memory_estimate(16, Strategy::Join, 2));
    /// assert!(tasks.memory_bytes(2) > tasks.memory_bytes(1));
    /// ```
    fn memory_bytes(&self, _threads: usize) -> u64 {
        0
    }
    /// Makes what every task shares (the join's quarter lists) before the first task, where a
    /// failed allocation can be reported; nothing for lists that share nothing. `stop` ends
    /// it early (the first task then tries again).
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use nqueens::engine::{strategy::task_list, Strategy};
    /// let tasks = task_list(16, Strategy::Join).unwrap();
    /// assert!(tasks.prepare(&AtomicBool::new(false)).is_ok());
    /// ```
    ///
    /// # Errors
    /// [`EngineError::OutOfMemory`] if what the tasks share cannot be allocated.
    fn prepare(&self, _stop: &AtomicBool) -> Result<(), EngineError> {
        Ok(())
    }
}

/// Why the engine cannot count this `n`.
///
/// ```
/// use nqueens::engine::{strategy::check, EngineError, Strategy};
/// let err = check(40, Strategy::Backtrack).unwrap_err();
/// assert!(matches!(err, EngineError::OutOfRange { n: 40, max: 32, .. }));
/// assert!(err.to_string().starts_with("the Backtrack engine counts N from 1 to 32, not 40"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// `n` is outside what the strategy handles.
    #[error("the {strategy:?} engine counts N from 1 to {max}, not {n}: {why}")]
    OutOfRange {
        /// The strategy asked for.
        strategy: Strategy,
        /// Requested size.
        n: usize,
        /// Largest size handled.
        max: usize,
        /// The reason for the limit.
        why: &'static str,
    },
    /// What the tasks share could not be allocated (a limit the estimate did not foresee).
    #[error("{0}: fewer threads, or a count on a machine with more memory")]
    OutOfMemory(crate::memory::OutOfMemory),
}

/// How far a count has come, as given to [`Counter::on_progress`](crate::Counter::on_progress).
///
/// ```
/// use std::sync::Mutex;
/// use nqueens::{engine::Progress, Counter};
/// let seen = Mutex::new(Vec::new());
/// let note = |p: Progress| seen.lock().unwrap().push(p);
/// Counter::new(10).threads(2).on_progress(&note).run().unwrap();
/// let seen = seen.into_inner().unwrap();
/// // One call before the first task, then one per task, each with the same total.
/// assert_eq!(seen.len(), seen[0].total + 1);
/// assert!(seen.iter().all(|p| p.done <= p.total && p.resumed == 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Tasks finished, those a checkpoint already held included.
    pub done: usize,
    /// Tasks this count must finish (of its shard, if it has one).
    pub total: usize,
    /// Tasks a checkpoint already held when the count started.
    pub resumed: usize,
}
