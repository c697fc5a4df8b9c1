//! The production counter.
//!
//! The search for one `n` is split into a deterministic, numbered list of **tasks**
//! (a [`TaskSet`]). Every service stands on that one list: threads take tasks, progress counts
//! tasks, a checkpoint records finished tasks, a shard is a slice of the list. Two strategies
//! produce task lists: [`Strategy::Backtrack`] (bitboard search below pre-placed queens) and
//! [`Strategy::Join`] (half-boards joined on their diagonals).
//!
//! - [`backtrack`]: the Backtrack strategy: its split into border constellations
//!   ([`backtrack::constellation`]) and the hot loop that counts one task ([`backtrack::kernel`]).
//! - [`join`]: the Join strategy: half-boards joined on their diagonals, with the counts of
//!   rotation-symmetric solutions for the unique count ([`join::symmetric`]).
//! - [`run`]: counts task indices on a pool of threads, reporting each finished task.
//! - `gpu` (the `cuda` feature): counts the Join strategy's tasks (from [`GPU_JOIN_FROM`]) or
//!   the Backtrack strategy's on an NVIDIA GPU, in batches, reporting each finished task the
//!   same way; [`Device`] chooses it, [`gpu_strategy`] the strategy.
//!
//! Most users want [`crate::count`] or [`crate::Counter`], which put these together.
//! - [`bounds`]: what a task's tally can be, to check numbers read from files.
//! - [`checkpoint`]: an append-only journal of finished tasks, to resume a stopped count.
//! - [`list`]: the identity of a task list and its slices, which checkpoints and shards name.
//! - [`shard`]: slices of the list for many machines, and their merge.

use std::ops::AddAssign;
use std::sync::atomic::AtomicBool;

pub mod backtrack;
pub mod bounds;
pub mod checkpoint;
pub mod cpu;
pub mod estimate;
#[cfg(feature = "cuda")]
pub mod gpu;
pub mod join;
pub mod list;
pub mod run;
pub mod shard;

/// What a set of tasks adds up to. Additive, so partial results can be summed in any order.
///
/// `unique8` is eight times the task's share of the unique count. Keeping it scaled by 8 lets
/// every strategy report an integer per task: a backtracking task whose solutions fall in classes
/// of size 2, 4 or 8 adds 8 per class; a join strategy adds the Burnside terms
/// (total + P + 2R, see [`join`]).
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
    /// use nqueens::engine::{task_list, Strategy, Tally};
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

/// A deterministic, numbered list of subproblems whose tallies sum to the count for `n`.
///
/// Implementations must give the same list on every machine and run for the same `n` and
/// [`version`](TaskSet::version), and `count(i)` must depend on `i` alone.
///
/// ```
/// use nqueens::engine::{task_list, Strategy, Tally, TaskSet};
/// let tasks: Box<dyn TaskSet> = task_list(10, Strategy::Backtrack).unwrap();
/// // Any order, any grouping: the tallies add up to the count.
/// let backwards: Tally = (0..tasks.len()).rev().map(|i| tasks.count(i)).sum();
/// assert_eq!((backwards.total, backwards.unique()), (724, 92));
/// ```
pub trait TaskSet: Sync {
    /// The board size.
    ///
    /// ```
    /// use nqueens::engine::{task_list, Strategy};
    /// assert_eq!(task_list(9, Strategy::Join).unwrap().n(), 9);
    /// ```
    fn n(&self) -> usize;
    /// The strategy that made this list.
    ///
    /// ```
    /// use nqueens::engine::{task_list, Strategy};
    /// assert_eq!(task_list(9, Strategy::Join).unwrap().strategy(), Strategy::Join);
    /// ```
    fn strategy(&self) -> Strategy;
    /// The version of the task list; results from different versions never mix.
    ///
    /// ```
    /// use nqueens::engine::{backtrack, task_list, Strategy};
    /// let tasks = task_list(9, Strategy::Backtrack).unwrap();
    /// assert_eq!(tasks.version(), backtrack::VERSION);
    /// ```
    fn version(&self) -> u32;
    /// The number of tasks.
    ///
    /// ```
    /// use nqueens::engine::{backtrack::BacktrackTasks, TaskSet};
    /// // Below N = 20, one task per canonical constellation.
    /// let tasks = BacktrackTasks::new(12).unwrap();
    /// assert_eq!(tasks.len(), tasks.constellation_count());
    /// ```
    fn len(&self) -> usize;
    /// `true` if there are no tasks (only for boards without solutions).
    ///
    /// ```
    /// use nqueens::engine::{task_list, Strategy};
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
    /// use nqueens::engine::{task_list, Strategy};
    /// let tasks = task_list(12, Strategy::Join).unwrap();
    /// let go = AtomicBool::new(false);
    /// assert_eq!(tasks.count_unless_stopped(0, &go), Some(tasks.count(0)));
    /// assert_eq!(tasks.count_unless_stopped(0, &AtomicBool::new(true)), None);
    /// ```
    fn count_unless_stopped(&self, index: usize, stop: &AtomicBool) -> Option<Tally>;
    /// Counts task `index` to the end.
    ///
    /// ```
    /// use nqueens::engine::{task_list, Strategy, Tally};
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
    /// use nqueens::engine::{memory_estimate, task_list, Strategy};
    /// let tasks = task_list(16, Strategy::Join).unwrap();
    /// assert_eq!(tasks.memory_bytes(2), memory_estimate(16, Strategy::Join, 2));
    /// assert!(tasks.memory_bytes(2) > tasks.memory_bytes(1));
    /// ```
    fn memory_bytes(&self, _threads: usize) -> u64 {
        0
    }
}

/// Why the engine cannot count this `n`.
///
/// ```
/// use nqueens::engine::{check, EngineError, Strategy};
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
}

/// The task list for `n` made by `strategy`.
///
/// ```
/// use nqueens::engine::{task_list, Strategy, Tally};
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
/// use nqueens::engine::{check, Strategy};
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
/// use nqueens::engine::{memory_estimate, Strategy};
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
/// use nqueens::engine::{fastest_strategy, Strategy};
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
    /// [`GPU_JOIN_FROM`] on and the Backtrack strategy's below ([`gpu_strategy`]); the CPU's
    /// cores prepare its batches and count the few tasks of symmetric solutions.
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

/// Why the GPU cannot count (here, or this time).
///
/// ```
/// use nqueens::engine::GpuError;
/// assert!(GpuError::NoDriver.is_unavailable());
/// assert!(!GpuError::Driver("out of memory".into()).is_unavailable());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// This build has no GPU support.
    #[error(
        "this nqueens was built without GPU support: build it with `cargo build --release --features cuda`"
    )]
    NotBuilt,
    /// The NVIDIA driver's library could not be loaded.
    #[error("no NVIDIA driver found: the library libcuda.so could not be loaded")]
    NoDriver,
    /// NVRTC, which compiles the kernel, could not be loaded.
    #[error(
        "NVRTC, the CUDA run-time compiler, was not found (libnvrtc.so.13 or .so.12): install the CUDA toolkit or `pip install nvidia-cuda-nvrtc-cu12` and put its lib folder on LD_LIBRARY_PATH"
    )]
    NoNvrtc,
    /// The driver loaded but sees no GPU.
    #[error("the NVIDIA driver sees no GPU: {0}")]
    NoDevice(String),
    /// The kernel did not compile.
    #[error("the GPU kernel did not compile: {0}")]
    Compile(String),
    /// The device failed while counting (out of memory, a kernel error, a lost device): the
    /// batches under way are not counted.
    #[error("the GPU failed: {0}")]
    Driver(String),
}

impl GpuError {
    /// `true` if no GPU can count here at all (no support, driver, compiler or device), as
    /// opposed to a failure while counting.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            GpuError::NotBuilt | GpuError::NoDriver | GpuError::NoNvrtc | GpuError::NoDevice(_)
        )
    }
}

/// `Ok` if `device` can count here: always for the CPU; for the GPU, this build has the `cuda`
/// feature, and the driver, NVRTC and a device are found (checked once per process).
///
/// ```
/// use nqueens::engine::{device_available, Device};
/// assert!(device_available(Device::Cpu).is_ok());
/// ```
///
/// # Errors
/// [`GpuError`] saying what is missing for the GPU.
pub fn device_available(device: Device) -> Result<(), GpuError> {
    match device {
        Device::Cpu => Ok(()),
        #[cfg(feature = "cuda")]
        Device::Gpu => gpu::cuda::available(),
        #[cfg(not(feature = "cuda"))]
        Device::Gpu => Err(GpuError::NotBuilt),
    }
}

/// The largest board the GPU counts. Its work items leave at most 15 free rows (the kernel's
/// stack in shared memory), so one task of a larger board splits into too many of them:
/// up to 2.4 million at N = 25 (47 MB), 27 million at N = 26 and 316 million at N = 27.
pub const GPU_MAX_N: usize = 25;

/// The smallest board the GPU counts with the Join strategy unless told otherwise: below it
/// the backtracking kernel's whole count takes under 0.1 s of kernels (docs/gpu.md), and it
/// stays the GPU's oracle for every size it counts.
pub const GPU_JOIN_FROM: usize = 18;

/// The strategy the GPU counts `n` with unless told otherwise.
///
/// ```
/// use nqueens::engine::{gpu_strategy, Strategy};
/// assert_eq!(gpu_strategy(12), Strategy::Backtrack);
/// assert_eq!(gpu_strategy(22), Strategy::Join);
/// ```
pub fn gpu_strategy(n: usize) -> Strategy {
    if n >= GPU_JOIN_FROM {
        Strategy::Join
    } else {
        Strategy::Backtrack
    }
}

/// The largest board the GPU counts with `strategy`: [`GPU_MAX_N`] for Backtrack, the join's
/// own limit for Join (the host lists the halves, so the host's memory bounds it, as on the
/// CPU; the GPU holds two batches, `gpu::cuda_join::device_bytes`).
pub fn gpu_max_n(strategy: Strategy) -> usize {
    match strategy {
        Strategy::Backtrack => GPU_MAX_N,
        Strategy::Join => join::MAX_N,
    }
}

/// What a GPU count did besides counting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuReport {
    /// The device, as its driver names it.
    pub device: String,
    /// Threads resident on the device at once (blocks per multiprocessor times
    /// multiprocessors times threads per block): the kernel's occupancy.
    pub resident_threads: usize,
    /// Batches counted.
    pub batches: usize,
    /// Work items counted (the Join strategy: tiles).
    pub items: u64,
    /// Seconds the device spent in kernels.
    pub kernel_seconds: f64,
    /// Tasks whose constellation a rotation fixes: the CPU counted their symmetric
    /// completions meanwhile.
    pub symmetric_tasks: usize,
}
