//! The front door for counting: [`count`] for the plain job, [`Counter`] for
//! every option (threads, strategy, a ladder algorithm, memory limit, progress, checkpoint,
//! shard, cancellation).
//!
//! The command line, the Python module, the examples, the benchmarks and the tests all count
//! through this one call, so a count means the same thing everywhere.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::algo::{Algo, AlgoError};
use crate::engine::count::{self, Failure, Job};
use crate::engine::cpu::{Isa, IsaError};
use crate::engine::device::{self, Runner};
use crate::engine::device::{GpuError, GpuReport};
use crate::engine::strategy;
use crate::engine::tasks::checkpoint::CheckpointError;
use crate::engine::tasks::estimate;
use crate::engine::tasks::list::{Header, Slice};
use crate::engine::{Device, EngineError, Strategy, Tally};
use crate::{memory, threads};

pub use crate::engine::Progress;

/// How a count is made: the engine with a strategy, or one algorithm of the ladder.
///
/// ```
/// use nqueens::{algo::Algo, counter::Method, engine::Strategy, Counter};
/// let r = Counter::new(8).strategy(Strategy::Backtrack).run().unwrap();
/// assert_eq!(r.method, Method::Engine(Strategy::Backtrack));
/// assert_eq!(Counter::new(8).algo(Algo::Bitboard).method(), Method::Ladder(Algo::Bitboard));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The production engine, split into numbered tasks by this strategy.
    Engine(Strategy),
    /// One algorithm of the ladder (no checkpoint, no shard; a stop loses the whole count).
    Ladder(Algo),
    /// The production engine's tasks of this strategy, counted on a GPU ([`Device::Gpu`]).
    Gpu(Strategy),
}

impl Method {
    /// The name printed beside results: `engine/join`, `algo/flags`.
    ///
    /// ```
    /// use nqueens::{counter::Method, algo::Algo, engine::Strategy};
    /// assert_eq!(Method::Engine(Strategy::Join).label(), "engine/join");
    /// assert_eq!(Method::Ladder(Algo::Flags).label(), "algo/flags");
    /// ```
    pub fn label(self) -> String {
        match self {
            Method::Engine(s) => format!("engine/{}", s.name()),
            Method::Ladder(a) => format!("algo/{}", a.name()),
            Method::Gpu(s) => format!("gpu/{}", s.name()),
        }
    }
}

/// What a count found.
///
/// ```
/// let r = nqueens::count(9).unwrap();
/// assert_eq!((r.n, r.total, r.unique), (9, 352, Some(46)));
/// assert_eq!((r.tally.total, r.tally.unique()), (352, 46));
/// assert_eq!(r.list.unwrap().n, 9);
/// assert_eq!(r.resumed, 0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CountResult {
    /// Board size.
    pub n: usize,
    /// Solutions counted (of the shard only, for a shard).
    pub total: u128,
    /// Solutions up to the 8 symmetries; `None` for a shard (its share is in
    /// [`tally`](Self::tally)) and for ladder algorithms that do not compute it.
    pub unique: Option<u128>,
    /// Wall-clock seconds of this run (not of earlier runs a checkpoint resumed).
    pub seconds: f64,
    /// What counted it.
    pub method: Method,
    /// The engine's additive sum (total and eight times the unique share); zero for a ladder
    /// algorithm.
    pub tally: Tally,
    /// The task list counted and the slice of it, for the engine; `None` for the ladder.
    pub list: Option<Header>,
    /// Tasks a checkpoint already held.
    pub resumed: usize,
    /// What the GPU did, for a count on the GPU.
    pub gpu: Option<GpuReport>,
    /// What the person running the count should hear of (a checkpoint's torn last record
    /// dropped, say): the library prints nothing, the caller tells.
    pub notes: Vec<String>,
}

/// Why a count could not be made or finished.
///
/// ```
/// use nqueens::{counter::CountError, Counter};
/// let err = Counter::new(8).max_memory(0).run().unwrap_err();
/// assert!(matches!(err, CountError::Memory { n: 8, limit: 0, .. }));
/// assert!(err.to_string().contains("more than the limit of 0"));
/// let err = Counter::new(99).run().unwrap_err();
/// assert!(matches!(err, CountError::TooLarge { n: 99, max: 32, .. }));
/// let err = Counter::new(99).strategy(nqueens::engine::Strategy::Join).run().unwrap_err();
/// assert!(matches!(err, CountError::Engine(_)));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    /// The engine does not count this `n` with this strategy.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// `n` is beyond every strategy of the engine (asked without naming one).
    #[error(
        "N = {n} is beyond what can be counted: nqueens counts N from 1 to {max}, not {n} ({why}); N = 27 is the largest count ever published, and each N takes eight to ten times as long as the one before"
    )]
    TooLarge {
        /// Requested size.
        n: usize,
        /// The largest size the engine counts.
        max: usize,
        /// The reason for that limit.
        why: &'static str,
    },
    /// The ladder algorithm does not count this `n`.
    #[error(transparent)]
    Algo(#[from] AlgoError),
    /// The count would need more memory than allowed.
    #[error(
        "counting N={n} with the {strategy} engine on {threads} threads needs {need} bytes of memory, more than the limit of {limit} (raise the memory limit or use fewer threads)"
    )]
    Memory {
        /// Board size.
        n: usize,
        /// Strategy chosen.
        strategy: &'static str,
        /// Threads asked for.
        threads: usize,
        /// Bytes needed, by the engine's estimate.
        need: u64,
        /// The limit.
        limit: u64,
    },
    /// The count would take longer than [`LONG_COUNT`] by the estimate, and long counts were
    /// not allowed ([`Counter::allow_long`]).
    #[error(
        "counting N={n} would take about {} on {} by the estimate; allow long counts to start it anyway, with a checkpoint to keep its work, or split it into shards",
        estimate::describe(*estimate),
        estimate::threads(*threads)
    )]
    TooLong {
        /// Board size.
        n: usize,
        /// Threads asked for.
        threads: usize,
        /// The estimated wall-clock time.
        estimate: Duration,
    },
    /// A strategy of the engine and an algorithm of the ladder were both asked for.
    #[error(
        "a strategy and an algorithm exclude each other: a strategy is one of the engine's, an algorithm one of the ladder's"
    )]
    TwoMethods,
    /// Checkpoints and shards need the engine's task list.
    #[error("a checkpoint or a shard needs the engine, not the {0} algorithm")]
    NeedsEngine(&'static str),
    /// The GPU counts the engine's strategies only.
    #[error("the GPU counts with the engine's strategies, not {0}")]
    GpuMethod(String),
    /// The GPU does not count boards this large.
    #[error(
        "the GPU counts N from 1 to {max}, not {n}: a larger board's tasks split into too many work items (count it on the CPU)"
    )]
    GpuSize {
        /// Requested size.
        n: usize,
        /// Largest size the GPU counts.
        max: usize,
    },
    /// The GPU cannot count here, or failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The checkpoint could not be used.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The threads could not be started.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What the operating system said.
        source: rayon::ThreadPoolBuildError,
    },
    /// [`ISA_VARIABLE`](crate::engine::cpu::ISA_VARIABLE) names no copy of the hot loops, or
    /// one this CPU cannot run.
    #[error(transparent)]
    Isa(#[from] IsaError),
    /// The stop flag ended the count before every task was counted.
    #[error("interrupted: {}", interrupted_note(*.done, *.of, .checkpoint.as_deref(), *.algo))]
    Interrupted {
        /// Tasks finished (and saved, with a checkpoint).
        done: usize,
        /// Tasks of the whole count.
        of: usize,
        /// The checkpoint that holds the finished tasks.
        checkpoint: Option<PathBuf>,
        /// The ladder algorithm that counted: one search without tasks, which nothing can
        /// save (`None` for the engine).
        algo: Option<&'static str>,
    },
}

fn interrupted_note(
    done: usize,
    of: usize,
    checkpoint: Option<&Path>,
    algo: Option<&str>,
) -> String {
    match (checkpoint, algo) {
        (Some(path), _) => format!(
            "{done} of {of} tasks are saved in {}; run the same command again to resume",
            path.display()
        ),
        (None, Some(algo)) => format!(
            "nothing was saved: {algo} counts in one search, which cannot be resumed (the \
             engine, the default method, counts in tasks that a checkpoint keeps)"
        ),
        (None, None) => "nothing was saved (use a checkpoint to make a count resumable)".into(),
    }
}

impl CountError {
    /// `true` if the error is in what was asked (a size, a limit, a checkpoint that belongs to
    /// another count), `false` for a failure while counting (a disk error, an interruption).
    ///
    /// ```
    /// let err = nqueens::Counter::new(40).run().unwrap_err();
    /// assert!(err.is_bad_input());
    /// ```
    pub fn is_bad_input(&self) -> bool {
        match self {
            CountError::Engine(EngineError::OutOfMemory(_)) => false,
            CountError::Engine(_)
            | CountError::TooLarge { .. }
            | CountError::Algo(_)
            | CountError::Memory { .. }
            | CountError::TooLong { .. }
            | CountError::NeedsEngine(_)
            | CountError::TwoMethods
            | CountError::GpuMethod(_)
            | CountError::GpuSize { .. }
            | CountError::Isa(_) => true,
            CountError::Gpu(e) => e.is_unavailable(),
            CountError::Checkpoint(e) => {
                !matches!(e, CheckpointError::Io { .. } | CheckpointError::Lost { .. })
            }
            CountError::Threads { .. } | CountError::Interrupted { .. } => false,
        }
    }
}

/// Counts estimated to take longer than this (a week) start only when allowed
/// ([`Counter::allow_long`]).
pub const LONG_COUNT: Duration = Duration::from_secs(7 * 86_400);

/// The options of a count: a builder, then [`run`](Counter::run).
///
/// ```
/// use nqueens::{Counter, engine::Strategy};
/// let r = Counter::new(10).threads(2).strategy(Strategy::Backtrack).run().unwrap();
/// assert_eq!((r.total, r.unique), (724, Some(92)));
///
/// // A ladder algorithm instead of the engine:
/// let r = Counter::new(8).algo(nqueens::algo::Algo::Flags).run().unwrap();
/// assert_eq!((r.total, r.unique), (92, None));
/// ```
#[derive(Clone, Copy)]
#[must_use]
pub struct Counter<'a> {
    n: usize,
    strategy: Option<Strategy>,
    algo: Option<Algo>,
    threads: Option<usize>,
    max_memory: Option<u64>,
    checkpoint: Option<&'a Path>,
    shard: Slice,
    device: Device,
    progress: Option<&'a (dyn Fn(Progress) + Sync)>,
    stop: Option<&'a AtomicBool>,
    long: bool,
}

impl<'a> Counter<'a> {
    /// A count of `n` with the defaults: the engine's fastest strategy, all cores, the memory
    /// available now as the limit ([`available_memory`](crate::memory::available_memory), asked only of counts that need more
    /// than a few MiB), no checkpoint, the whole task list.
    ///
    /// ```
    /// let r = nqueens::Counter::new(11).run().unwrap();
    /// assert_eq!((r.total, r.unique), (2680, Some(341)));
    /// ```
    pub fn new(n: usize) -> Counter<'a> {
        Counter {
            n,
            strategy: None,
            algo: None,
            threads: None,
            max_memory: None,
            checkpoint: None,
            shard: Slice::ALL,
            device: Device::Cpu,
            progress: None,
            stop: None,
            long: false,
        }
    }

    /// Counts with this engine strategy instead of the fastest for `n`.
    ///
    /// ```
    /// use nqueens::{engine::Strategy, Counter};
    /// for s in Strategy::ALL {
    ///     let r = Counter::new(11).strategy(s).run().unwrap();
    ///     assert_eq!((r.total, r.unique), (2680, Some(341)));
    /// }
    /// ```
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = Some(strategy);
        self
    }

    /// Counts with this algorithm of the ladder instead of the engine.
    ///
    /// ```
    /// use nqueens::{algo::Algo, Counter};
    /// let r = Counter::new(9).algo(Algo::Symmetry).run().unwrap();
    /// assert_eq!((r.total, r.unique), (352, Some(46)));
    /// // Rungs that only count report no unique count.
    /// assert_eq!(Counter::new(9).algo(Algo::Flags).run().unwrap().unique, None);
    /// ```
    pub fn algo(mut self, algo: Algo) -> Self {
        self.algo = Some(algo);
        self
    }

    /// Counts on this many threads (at least 1), at most one per core: more threads than cores
    /// only add switching.
    ///
    /// ```
    /// use nqueens::Counter;
    /// assert_eq!(Counter::new(10).threads(1).run().unwrap().total, 724);
    /// assert_eq!(Counter::new(10).threads(0).thread_count(), 1);
    /// ```
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads.max(1));
        self
    }

    /// Refuses to start if the engine would need more than `bytes` of memory (instead of the
    /// memory available now).
    ///
    /// ```
    /// use nqueens::Counter;
    /// assert_eq!(Counter::new(10).max_memory(1 << 30).run().unwrap().total, 724);
    /// assert!(Counter::new(10).max_memory(10).check().is_err());
    /// ```
    pub fn max_memory(mut self, bytes: u64) -> Self {
        self.max_memory = Some(bytes);
        self
    }

    /// Records finished tasks in the journal at `path`, and resumes from it if it exists.
    ///
    /// ```
    /// use nqueens::Counter;
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("n10.checkpoint");
    /// let first = Counter::new(10).checkpoint(&path).run().unwrap();
    /// // The second run finds every task in the journal and counts none again.
    /// let again = Counter::new(10).checkpoint(&path).run().unwrap();
    /// assert_eq!((first.resumed, again.resumed), (0, again.list.unwrap().tasks));
    /// assert_eq!((again.total, again.unique), (724, Some(92)));
    /// ```
    pub fn checkpoint(mut self, path: &'a Path) -> Self {
        self.checkpoint = Some(path);
        self
    }

    /// Counts only this slice of the task list (for [`merge`](crate::engine::tasks::shard::merge)).
    ///
    /// ```
    /// use nqueens::Counter;
    /// let one = Counter::new(10).shard("1/2".parse().unwrap()).run().unwrap();
    /// let two = Counter::new(10).shard("2/2".parse().unwrap()).run().unwrap();
    /// assert_eq!(one.total + two.total, 724);
    /// // A shard's unique share is in its tally, to be merged.
    /// assert_eq!((one.unique, (one.tally.unique8 + two.tally.unique8) / 8), (None, 92));
    /// ```
    pub fn shard(mut self, slice: Slice) -> Self {
        self.shard = slice;
        self
    }

    /// Counts on this device. The GPU (the `cuda` feature) counts the engine's tasks (the Join
    /// strategy's from [`GPU_JOIN_FROM`](device::GPU_JOIN_FROM), the Backtrack strategy's below), so
    /// checkpoints and shards are interchangeable with CPU counts of the same strategy; the
    /// CPU's threads prepare the GPU's batches and count the few tasks of symmetric solutions.
    ///
    /// ```
    /// use nqueens::{counter::CountError, engine::Device, Counter};
    /// // Without the `cuda` feature, a driver or a GPU, the count is refused before it starts.
    /// if let Err(e) = Counter::new(12).device(Device::Gpu).check() {
    ///     assert!(matches!(e, CountError::Gpu(_)) && e.is_bad_input());
    /// }
    /// ```
    pub fn device(mut self, device: Device) -> Self {
        self.device = device;
        self
    }

    /// Starts a count even if it would take longer than [`LONG_COUNT`] by the
    /// [estimate](Self::time_estimate); otherwise [`check`](Self::check) refuses it, so that a
    /// count of months or years is started on purpose.
    ///
    /// ```
    /// use nqueens::{counter::CountError, Counter};
    /// let years = Counter::new(27).threads(2).max_memory(u64::MAX);
    /// assert!(matches!(years.check(), Err(CountError::TooLong { n: 27, .. })));
    /// assert!(years.allow_long(true).check().is_ok());
    /// ```
    pub fn allow_long(mut self, long: bool) -> Self {
        self.long = long;
        self
    }

    /// The count's wall-clock time by the engine's [`estimate`] (of its
    /// shard, on its threads), for engine counts on the CPU from N = 20; `None` otherwise. The
    /// backtrack strategy takes longer than this (the estimate is the join strategy's).
    ///
    /// ```
    /// let hours = nqueens::Counter::new(23).threads(2).time_estimate().unwrap();
    /// assert!(hours.as_secs() > 3600);
    /// assert_eq!(nqueens::Counter::new(12).time_estimate(), None);
    /// ```
    pub fn time_estimate(&self) -> Option<Duration> {
        self.estimate(self.method(), self.thread_count())
    }

    fn estimate(&self, method: Method, threads: usize) -> Option<Duration> {
        match method {
            Method::Engine(_) => estimate::wall(self.n, threads, 1.0 / self.shard.count as f64),
            Method::Ladder(_) | Method::Gpu(_) => None,
        }
    }

    /// Calls `f` once before the first task (with what a checkpoint already held) and after
    /// every finished task, from the thread that finished it.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// let most = AtomicUsize::new(0);
    /// let note = |p: nqueens::counter::Progress| {
    ///     most.fetch_max(p.done, Ordering::Relaxed);
    /// };
    /// let r = nqueens::Counter::new(10).on_progress(&note).run().unwrap();
    /// assert_eq!(most.into_inner(), r.list.unwrap().tasks);
    /// ```
    pub fn on_progress(mut self, f: &'a (dyn Fn(Progress) + Sync)) -> Self {
        self.progress = Some(f);
        self
    }

    /// Stops the count once `flag` is set: the tasks under way end within milliseconds,
    /// finished ones stay in the checkpoint, and [`run`](Self::run) returns
    /// [`CountError::Interrupted`].
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// let stop = AtomicBool::new(true);
    /// let err = nqueens::Counter::new(16).stop_when(&stop).run().unwrap_err();
    /// assert!(matches!(err, nqueens::counter::CountError::Interrupted { done: 0, .. }));
    /// ```
    pub fn stop_when(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// The method this count will use.
    ///
    /// ```
    /// use nqueens::{Counter, counter::Method, engine::Strategy};
    /// assert_eq!(Counter::new(18).method(), Method::Engine(Strategy::Join));
    /// ```
    pub fn method(&self) -> Method {
        match self.algo {
            Some(algo) => Method::Ladder(algo),
            None => {
                let strategy = self
                    .strategy
                    .unwrap_or_else(|| device::default_strategy(self.device, self.n));
                match self.device {
                    Device::Cpu => Method::Engine(strategy),
                    Device::Gpu => Method::Gpu(strategy),
                }
            }
        }
    }

    /// The threads the count will run on.
    ///
    /// ```
    /// use nqueens::Counter;
    /// assert_eq!(Counter::new(8).threads(1).thread_count(), 1);
    /// let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
    /// assert_eq!(Counter::new(8).threads(10_000).thread_count(), cores);
    /// ```
    pub fn thread_count(&self) -> usize {
        let cores = threads::cores();
        self.threads.map_or(cores, |t| t.min(cores))
    }

    /// Checks everything that can be checked without counting: the size against the method's
    /// limits, the time the count would take (see [`allow_long`](Self::allow_long)), the memory
    /// the engine needs against the limit, and that checkpoints and shards go with the engine.
    /// Cheap for every `n` (the engine's task list is not built).
    ///
    /// ```
    /// use nqueens::{Counter, engine::Strategy};
    /// let years = Counter::new(30).strategy(Strategy::Backtrack);
    /// assert!(years.check().is_err() && years.allow_long(true).check().is_ok());
    /// assert!(Counter::new(33).check().is_err());
    /// assert!(Counter::new(13).algo(nqueens::algo::Algo::Permutations).check().is_err());
    /// ```
    ///
    /// # Errors
    /// The [`CountError`] that [`run`](Self::run) would give before it starts: a size or
    /// method the count cannot take, a count of more than [`LONG_COUNT`] not allowed, memory
    /// over the limit, an unusable
    /// [`ISA_VARIABLE`](crate::engine::cpu::ISA_VARIABLE), a GPU that is not there.
    pub fn check(&self) -> Result<(), CountError> {
        self.checked().map(drop)
    }

    /// Checks everything [`check`](Self::check) does, once, and gives the count ready to
    /// [`run`](Checked::run) with what the checks decided (method, threads, estimate).
    ///
    /// ```
    /// let count = nqueens::Counter::new(10).threads(1).checked().unwrap();
    /// assert_eq!((count.thread_count(), count.time_estimate()), (1, None));
    /// assert_eq!(count.run().unwrap().total, 724);
    /// ```
    ///
    /// # Errors
    /// As [`check`](Self::check).
    pub fn checked(self) -> Result<Checked<'a>, CountError> {
        Isa::from_env()?;
        if self.strategy.is_some() && self.algo.is_some() {
            return Err(CountError::TwoMethods);
        }
        let method = self.method();
        let threads = self.thread_count();
        let mut estimate = None;
        match method {
            Method::Ladder(algo) => {
                if self.device == Device::Gpu {
                    return Err(CountError::GpuMethod(format!(
                        "the {} algorithm",
                        algo.name()
                    )));
                }
                algo.check(self.n)?;
                if self.checkpoint.is_some() || self.shard != Slice::ALL {
                    return Err(CountError::NeedsEngine(algo.name()));
                }
            }
            Method::Gpu(strategy) => {
                strategy::check(self.n, strategy)?;
                if let Some(max) = device::largest_board(self.device, strategy)
                    && self.n > max
                {
                    return Err(CountError::GpuSize { n: self.n, max });
                }
                if strategy == Strategy::Join {
                    // The host makes the quarter lists, as the CPU join does, and the GPU
                    // holds a copy.
                    self.check_memory(strategy, threads)?;
                }
                device::available(self.device)?;
                if strategy == Strategy::Join {
                    device::gpu_join_fits(self.n)?;
                }
            }
            Method::Engine(strategy) => {
                strategy::check(self.n, strategy).map_err(|e| match e {
                    // The user chose no strategy: the engine's inner ones are not theirs to hear of.
                    EngineError::OutOfRange { n, max, why, .. }
                        if n > 0 && self.strategy.is_none() =>
                    {
                        CountError::TooLarge { n, max, why }
                    }
                    e => CountError::Engine(e),
                })?;
                // Time before memory: a count of years is the first thing to hear of.
                estimate = self.estimate(method, threads);
                if let Some(estimate) = estimate
                    && estimate > LONG_COUNT
                    && !self.long
                {
                    return Err(CountError::TooLong {
                        n: self.n,
                        threads,
                        estimate,
                    });
                }
                self.check_memory(strategy, threads)?;
            }
        }
        Ok(Checked {
            counter: self,
            method,
            threads,
            estimate,
        })
    }

    /// The engine's memory estimate for `strategy` on `threads` threads against the limit.
    fn check_memory(&self, strategy: Strategy, threads: usize) -> Result<(), CountError> {
        let need = strategy::memory_estimate(self.n, strategy, threads);
        let limit = memory::limit(need, self.max_memory);
        if need > limit {
            return Err(CountError::Memory {
                n: self.n,
                strategy: strategy.name(),
                threads,
                need,
                limit,
            });
        }
        Ok(())
    }

    /// Counts. Boards up to [`ON_THIS_THREAD`](device::ON_THIS_THREAD) are counted on the
    /// calling thread, one task after another (a thread pool costs more than their count);
    /// larger ones on a pool of [`thread_count`](Self::thread_count) threads.
    ///
    /// ```
    /// let r = nqueens::Counter::new(12).run().unwrap();
    /// assert_eq!((r.total, r.unique), (14200, Some(1787)));
    /// // The same method whatever the size or the caller: the engine unless asked otherwise.
    /// let r = nqueens::Counter::new(8).run().unwrap();
    /// assert_eq!((r.total, r.method.label().as_str()), (92, "engine/backtrack"));
    /// ```
    ///
    /// # Errors
    /// What [`check`](Self::check) refuses; then a checkpoint that cannot be read or written,
    /// threads that cannot be started, a GPU that fails, or [`CountError::Interrupted`] once the
    /// stop flag is set.
    pub fn run(&self) -> Result<CountResult, CountError> {
        self.checked()?.run()
    }
}

/// A count whose options were checked ([`Counter::checked`]): what the checks decided, and
/// [`run`](Self::run).
#[derive(Clone, Copy)]
#[must_use]
pub struct Checked<'a> {
    counter: Counter<'a>,
    method: Method,
    threads: usize,
    estimate: Option<Duration>,
}

impl<'a> Checked<'a> {
    /// Calls `f` as [`Counter::on_progress`] does (which no check depends on).
    pub fn on_progress(mut self, f: &'a (dyn Fn(Progress) + Sync)) -> Self {
        self.counter.progress = Some(f);
        self
    }

    /// Stops the count once `flag` is set, as [`Counter::stop_when`] does (which no check
    /// depends on).
    pub fn stop_when(mut self, flag: &'a AtomicBool) -> Self {
        self.counter.stop = Some(flag);
        self
    }

    /// The method the count uses.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The threads the count runs on.
    pub fn thread_count(&self) -> usize {
        self.threads
    }

    /// The count's wall-clock time by the estimate ([`Counter::time_estimate`]).
    pub fn time_estimate(&self) -> Option<Duration> {
        self.estimate
    }

    /// `true` if the count takes milliseconds at most, all of it on the calling thread, with
    /// nothing to write: a caller need not start a thread of its own to watch it.
    ///
    /// ```
    /// use nqueens::Counter;
    /// assert!(Counter::new(10).checked().unwrap().is_quick());
    /// assert!(!Counter::new(16).checked().unwrap().is_quick());
    /// ```
    pub fn is_quick(&self) -> bool {
        let c = &self.counter;
        matches!(self.method, Method::Engine(_))
            && Runner::choose(c.device, c.n, self.threads) == Runner::Here
            && c.checkpoint.is_none()
            && c.shard == Slice::ALL
            && c.progress.is_none()
    }

    /// Counts, with nothing checked again.
    ///
    /// # Errors
    /// A checkpoint that cannot be read or written, threads that cannot be started, a GPU that
    /// fails, or [`CountError::Interrupted`] once the stop flag is set.
    pub fn run(&self) -> Result<CountResult, CountError> {
        let c = &self.counter;
        let started = Instant::now();
        let threads = self.threads;
        let strategy = match self.method {
            Method::Ladder(algo) => return self.run_ladder(algo, started),
            Method::Engine(strategy) | Method::Gpu(strategy) => strategy,
        };
        let job = Job {
            n: c.n,
            strategy,
            runner: Runner::choose(c.device, c.n, threads),
            shard: c.shard,
            checkpoint: c.checkpoint,
            progress: c.progress,
            stop: c.stop,
        };
        let counted = count::count(&job).map_err(|e| match e {
            Failure::Engine(e) => CountError::Engine(e),
            Failure::Checkpoint(e) => CountError::Checkpoint(e),
            Failure::Threads { threads, source } => CountError::Threads { threads, source },
            Failure::Gpu(e) => CountError::Gpu(e),
            Failure::Stopped { done, of } => CountError::Interrupted {
                done,
                of,
                checkpoint: c.checkpoint.map(Path::to_path_buf),
                algo: None,
            },
        })?;
        Ok(CountResult {
            n: c.n,
            total: counted.tally.total,
            unique: (c.shard == Slice::ALL).then(|| counted.tally.unique()),
            seconds: started.elapsed().as_secs_f64(),
            method: self.method,
            tally: counted.tally,
            list: Some(counted.header),
            resumed: counted.resumed,
            gpu: counted.gpu,
            notes: counted.notes,
        })
    }

    fn run_ladder(&self, algo: Algo, started: Instant) -> Result<CountResult, CountError> {
        let c = &self.counter;
        let threads = self.threads;
        // The parallel rung spreads over the current rayon pool: this one has the threads
        // asked for.
        let pool =
            threads::pool(threads).map_err(|source| CountError::Threads { threads, source })?;
        let never = AtomicBool::new(false);
        let stop = c.stop.unwrap_or(&never);
        let Some(counts) = pool.install(|| algo.count_unless_stopped(c.n, stop))? else {
            // The ladder has no tasks: one search, unfinished.
            return Err(CountError::Interrupted {
                done: 0,
                of: 1,
                checkpoint: None,
                algo: Some(algo.name()),
            });
        };
        Ok(CountResult {
            n: c.n,
            total: u128::from(counts.total),
            unique: counts.unique.map(u128::from),
            seconds: started.elapsed().as_secs_f64(),
            method: Method::Ladder(algo),
            tally: Tally::default(),
            list: None,
            resumed: 0,
            gpu: None,
            notes: Vec::new(),
        })
    }
}

/// Counts all and unique solutions for `n` with the engine's fastest strategy on all cores.
///
/// # Errors
/// As [`Counter::run`]: an `n` the engine cannot count, or more memory than is available.
///
/// ```
/// let r = nqueens::count(8).unwrap();
/// assert_eq!((r.total, r.unique), (92, Some(12)));
/// assert!(nqueens::count(0).is_err());
/// ```
pub fn count(n: usize) -> Result<CountResult, CountError> {
    Counter::new(n).run()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::device::pool;

    #[test]
    fn small_counts_on_this_thread_give_what_the_pool_gives() {
        for n in 0..=device::ON_THIS_THREAD {
            for strategy in [None, Some(Strategy::Backtrack), Some(Strategy::Join)] {
                let mut c = Counter::new(n).threads(2);
                if let Some(s) = strategy {
                    c = c.strategy(s);
                }
                let here = c.run();
                // Twice: the second time from the kept list.
                let again = c.run();
                let pool = match c.check() {
                    Ok(()) => {
                        let Method::Engine(strategy) = c.method() else {
                            unreachable!("no algorithm asked for")
                        };
                        let tasks = strategy::task_list(n, strategy).unwrap();
                        let all: Vec<usize> = (0..tasks.len()).collect();
                        let never = AtomicBool::new(false);
                        let done = |_, _| Ok::<(), ()>(());
                        Ok(pool::count_tasks(tasks.as_ref(), &all, 2, &never, &done).unwrap())
                    }
                    Err(e) => Err(e),
                };
                match (here, again, pool) {
                    (Ok(here), Ok(again), Ok(pool)) => {
                        let want = crate::reference::published(n).unwrap();
                        assert_eq!((here.total, here.unique), (want.0, Some(want.1)), "N={n}");
                        assert_eq!(here.tally, pool.tally);
                        assert_eq!((again.tally, again.list), (here.tally, here.list));
                        assert!(matches!(here.method, Method::Engine(_)), "N={n}");
                    }
                    (Err(here), Err(again), Err(pool)) => {
                        assert_eq!(here.to_string(), pool.to_string());
                        assert_eq!(again.to_string(), pool.to_string());
                    }
                    (here, _, pool) => panic!("N={n}: {here:?} but the pool gave {pool:?}"),
                }
            }
        }
    }

    #[test]
    fn a_small_count_stops_when_asked() {
        let stop = AtomicBool::new(true);
        let err = Counter::new(10).stop_when(&stop).run().unwrap_err();
        assert!(
            matches!(err, CountError::Interrupted { done: 0, .. }),
            "{err}"
        );
    }

    #[test]
    fn engine_and_ladder_agree_with_the_reference() {
        for n in 1..=11 {
            let want = crate::reference::published(n).unwrap();
            let engine = Counter::new(n).threads(2).run().unwrap();
            assert_eq!((engine.total, engine.unique), (want.0, Some(want.1)));
            let ladder = Counter::new(n)
                .algo(Algo::Parallel)
                .threads(1)
                .run()
                .unwrap();
            assert_eq!(ladder.total, want.0);
        }
    }
}
