//! Devices: where a count's tasks run.
//!
//! - [`here`]: the calling thread, one task after another, for boards up to
//!   [`ON_THIS_THREAD`] (starting threads costs more than their count);
//! - [`pool`]: a pool of CPU threads taking tasks one at a time;
//! - `gpu` (the `cuda` feature): batches of tasks on an NVIDIA GPU, with the CPU's threads
//!   preparing them.
//!
//! Every device reports each finished task to the same callback, which is how progress and
//! checkpoints follow a run without the device knowing about either, and stops promptly when
//! asked: no new task starts, and the tasks under way return within milliseconds, uncounted.
//! The choice of device for a count is made here (`Runner`) and nowhere else; a second GPU
//! vendor would be a folder beside `gpu` and an arm in `Runner`.

use std::sync::atomic::AtomicBool;

use super::strategy;
use super::{Device, EngineError, Strategy, Tally, TaskSet};

#[cfg(feature = "cuda")]
pub mod gpu;
pub mod here;
pub mod pool;

/// The largest board a count makes on the calling thread, one task after another, when it
/// has no GPU: starting threads costs more than such a count (milliseconds at most).
pub const ON_THIS_THREAD: usize = 12;

/// Why the GPU cannot count (here, or this time).
///
/// ```
/// use nqueens::engine::device::GpuError;
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
/// use nqueens::engine::{device, Device};
/// assert!(device::available(Device::Cpu).is_ok());
/// ```
///
/// # Errors
/// [`GpuError`] saying what is missing for the GPU.
pub fn available(device: Device) -> Result<(), GpuError> {
    match device {
        Device::Cpu => Ok(()),
        #[cfg(feature = "cuda")]
        Device::Gpu => gpu::cuda::available(),
        #[cfg(not(feature = "cuda"))]
        Device::Gpu => Err(GpuError::NotBuilt),
    }
}

/// `Ok` if the GPU holds what its join needs for `n` (the quarter lists and two batches in its
/// memory): asked before any work.
///
/// # Errors
/// [`GpuError`] saying what is missing: the GPU, or memory (what is free and what is needed).
pub fn gpu_join_fits(n: usize) -> Result<(), GpuError> {
    #[cfg(feature = "cuda")]
    return gpu::cuda_join::fits(n);
    #[cfg(not(feature = "cuda"))]
    {
        let _ = n;
        Err(GpuError::NotBuilt)
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
    /// The most a batch may hold, as the device's free memory allows (the Join strategy: word
    /// places, `2^27` to `2^30`; zero for the backtracking kernel).
    pub batch_places: u64,
    /// Work items counted (the Join strategy: tiles).
    pub items: u64,
    /// Seconds the device spent in kernels.
    pub kernel_seconds: f64,
    /// Of those, the seconds its batches spent making their work items before counting them
    /// (the Join strategy: gluing, sorting and packing the words; zero for the backtracking
    /// kernel). Summed over batches: two batches in flight may overlap, so it can exceed the
    /// share of `kernel_seconds` it would take alone.
    pub making_seconds: f64,
    /// Tasks whose constellation a rotation fixes: the CPU counted their symmetric
    /// completions meanwhile.
    pub symmetric_tasks: usize,
    /// Main tasks the CPU threads counted beside the GPU (the Join strategy).
    pub cpu_tasks: usize,
}

/// What a run counted.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::{device::{self, pool}, strategy::task_list, Strategy};
/// let tasks = task_list(10, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..tasks.len()).collect();
/// let stop = AtomicBool::new(true);
/// let out = pool::count_tasks(tasks.as_ref(), &all, 1, &stop, &|_, _| Ok::<(), ()>(())).unwrap();
/// assert_eq!((out.done, out.stopped, out.tally.total), (0, true, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The sum of the tasks counted in this run.
    pub tally: Tally,
    /// How many tasks were counted.
    pub done: usize,
    /// `true` if the stop flag ended the run before every task was counted.
    pub stopped: bool,
}

/// Why a run failed.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::{device::{self, pool}, strategy::task_list, Strategy};
/// let tasks = task_list(10, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..tasks.len()).collect();
/// let go = AtomicBool::new(false);
/// let err = pool::count_tasks(tasks.as_ref(), &all, 2, &go, &|_, _| Err("disk full")).unwrap_err();
/// assert!(matches!(err, device::RunError::Callback("disk full")));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum RunError<E> {
    /// The thread pool could not be started.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What the operating system said.
        source: rayon::ThreadPoolBuildError,
    },
    /// The GPU failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The callback for a finished task failed (the first failure is kept).
    #[error(transparent)]
    Callback(E),
}

/// Where one count's tasks run, chosen once from the device asked for, the board and the
/// threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Runner {
    /// The calling thread (a small board on the CPU).
    Here,
    /// A pool of this many CPU threads.
    Pool(usize),
    /// The GPU, with this many CPU threads beside it: they prepare the backtracking kernel's
    /// batches, or count the join's tasks from the back of the list.
    Gpu(usize),
}

impl Runner {
    pub(crate) fn choose(device: Device, n: usize, threads: usize) -> Runner {
        match device {
            Device::Cpu if n <= ON_THIS_THREAD => Runner::Here,
            Device::Cpu => Runner::Pool(threads),
            Device::Gpu => Runner::Gpu(threads),
        }
    }
}

/// The strategy a device counts `n` with when none is asked for.
///
/// ```
/// use nqueens::engine::{device::default_strategy, Device, Strategy};
/// assert_eq!(default_strategy(Device::Cpu, 18), Strategy::Join);
/// assert_eq!(default_strategy(Device::Gpu, 12), Strategy::Backtrack);
/// assert_eq!(default_strategy(Device::Gpu, 22), Strategy::Join);
/// ```
pub fn default_strategy(device: Device, n: usize) -> Strategy {
    match device {
        Device::Cpu => strategy::fastest_strategy(n),
        Device::Gpu if n >= GPU_JOIN_FROM => Strategy::Join,
        Device::Gpu => Strategy::Backtrack,
    }
}

/// The largest board `device` counts with `strategy`, where the device has a limit of its own
/// (whether the device is there at all is [`available`]'s question). The GPU's backtracking
/// stops at [`GPU_MAX_N`]; its join goes as far as the join does on the CPU where the GPU's
/// memory holds the quarter lists ([`gpu_join_fits`]: to N = 25 on an 80 GB H100).
///
/// ```
/// use nqueens::engine::{device::largest_board, Device, Strategy};
/// assert_eq!(largest_board(Device::Cpu, Strategy::Backtrack), None);
/// assert_eq!(largest_board(Device::Gpu, Strategy::Join), None);
/// assert_eq!(largest_board(Device::Gpu, Strategy::Backtrack), Some(25));
/// ```
pub fn largest_board(device: Device, strategy: Strategy) -> Option<usize> {
    match (device, strategy) {
        (Device::Gpu, Strategy::Backtrack) => Some(GPU_MAX_N),
        _ => None,
    }
}

/// A count's task list as its runner holds it.
enum Held {
    /// A small board's list, kept for the process ([`here::kept_list`]).
    Kept(&'static dyn TaskSet),
    /// A list made for this count.
    Made(Box<dyn TaskSet>),
    /// The Backtrack list itself, which the GPU needs beyond its `TaskSet` face.
    #[cfg(feature = "cuda")]
    GpuBacktrack(Box<strategy::backtrack::BacktrackTasks>),
    /// The Join list itself, likewise.
    #[cfg(feature = "cuda")]
    GpuJoin(Box<strategy::join::JoinTasks>),
}

/// A count ready to run: its runner and its task list.
pub(crate) struct Prepared {
    runner: Runner,
    held: Held,
}

impl Prepared {
    /// The task list of `n` by `strategy`, as `runner` needs it.
    pub(crate) fn new(
        runner: Runner,
        n: usize,
        strategy: Strategy,
    ) -> Result<Prepared, EngineError> {
        let held = match runner {
            Runner::Here => Held::Kept(here::kept_list(n, strategy)?),
            #[cfg(feature = "cuda")]
            Runner::Gpu(_) => match strategy {
                Strategy::Backtrack => {
                    Held::GpuBacktrack(Box::new(strategy::backtrack::BacktrackTasks::new(n)?))
                }
                Strategy::Join => Held::GpuJoin(Box::new(strategy::join::JoinTasks::new(n)?)),
            },
            _ => Held::Made(strategy::task_list(n, strategy)?),
        };
        Ok(Prepared { runner, held })
    }

    /// Makes what the tasks share ([`TaskSet::prepare`]) on the threads the count will run
    /// on (the join's quarter lists are built by many threads).
    ///
    /// # Errors
    /// [`EngineError::OutOfMemory`] if it cannot be allocated.
    pub(crate) fn prepare(&self, stop: &AtomicBool) -> Result<(), EngineError> {
        let tasks = self.tasks();
        match self.runner {
            Runner::Pool(threads) | Runner::Gpu(threads) => match crate::threads::pool(threads) {
                Ok(pool) => pool.install(|| tasks.prepare(stop)),
                // The count itself says that its threads cannot start.
                Err(_) => tasks.prepare(stop),
            },
            Runner::Here => tasks.prepare(stop),
        }
    }

    /// The task list.
    pub(crate) fn tasks(&self) -> &dyn TaskSet {
        match &self.held {
            Held::Kept(list) => *list,
            Held::Made(list) => list.as_ref(),
            #[cfg(feature = "cuda")]
            Held::GpuBacktrack(list) => list.as_ref(),
            #[cfg(feature = "cuda")]
            Held::GpuJoin(list) => list.as_ref(),
        }
    }

    /// Counts the tasks `todo`, calling `on_done` for each finished one, until `stop` is set;
    /// a GPU's report comes with the outcome.
    pub(crate) fn count<E: Send>(
        &self,
        todo: &[usize],
        stop: &AtomicBool,
        on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
    ) -> Result<(Outcome, Option<GpuReport>), RunError<E>> {
        let tasks = self.tasks();
        match (self.runner, &self.held) {
            (Runner::Here, _) => Ok((here::count_here(tasks, todo, stop, on_done)?, None)),
            (Runner::Pool(threads), _) => Ok((
                pool::count_tasks(tasks, todo, threads, stop, on_done)?,
                None,
            )),
            #[cfg(feature = "cuda")]
            (Runner::Gpu(threads), Held::GpuBacktrack(list)) => {
                let (outcome, report) = gpu::count_on_gpu(list, todo, threads, stop, on_done)?;
                Ok((outcome, Some(report)))
            }
            #[cfg(feature = "cuda")]
            (Runner::Gpu(threads), Held::GpuJoin(list)) => {
                let (outcome, report) =
                    gpu::join::count_on_gpu(list, todo, threads, stop, on_done)?;
                Ok((outcome, Some(report)))
            }
            (Runner::Gpu(_), _) => Err(RunError::Gpu(GpuError::NotBuilt)),
        }
    }
}
