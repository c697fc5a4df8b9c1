//! The front door for counting: [`count`] for the plain job, [`Counter`] for
//! every option (threads, strategy, a ladder algorithm, memory limit, progress, checkpoint,
//! shard, cancellation).
//!
//! The command line, the Python module, the examples, the benchmarks and the tests all count
//! through this one call, so a count means the same thing everywhere.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::algo::{Algo, AlgoError};
use crate::engine::checkpoint::{CheckpointError, Header, Journal};
use crate::engine::run::{self, RunError};
use crate::engine::shard::Slice;
use crate::engine::{self, Device, EngineError, GpuError, GpuReport, Strategy, Tally, TaskSet};

/// The largest board [`Counter::run_here`] counts with the ladder's symmetry rung when neither a
/// strategy nor an algorithm is asked for. Measured on a loaded 2-core machine, microseconds
/// per count on the calling thread:
///
/// | N | symmetry rung | engine, backtrack tasks | engine, join tasks |
/// |---:|---:|---:|---:|
/// | 8 | 2.8 | 121 | 184 |
/// | 10 | 105 | 1043 | 362 |
/// | 11 | 611 | 2360 | 2012 |
/// | 12 | 5755 | 4479 | 2357 |
pub const HERE_BY_SYMMETRY: usize = 11;

/// The memory this process may still take, else 4 GiB where nothing says: the default limit
/// of the command line and the Python module. On Linux the least of the memory available now
/// (`MemAvailable`), what the address-space limit (`ulimit -v`, `RLIMIT_AS`) leaves beyond the
/// address space already mapped, and what the cgroup's limit (`memory.max` of cgroup v2 along
/// the process's cgroup and its parents, `memory.limit_in_bytes` of v1) leaves beyond its use:
/// a count that starts within a limit does not die of a failed allocation half way.
///
/// ```
/// assert!(nqueens::counter::available_memory() > 0);
/// ```
pub fn available_memory() -> u64 {
    [mem_available(), address_space_left(), cgroup_left()]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(4 << 30)
}

/// The first number after `key` in the `key value` lines of `text`, times `unit`.
fn field(text: &str, key: &str, unit: u64) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .map(|v| v.saturating_mul(unit))
}

/// `MemAvailable` of `/proc/meminfo`.
fn mem_available() -> Option<u64> {
    field(
        &std::fs::read_to_string("/proc/meminfo").ok()?,
        "MemAvailable:",
        1024,
    )
}

/// The soft address-space limit less the address space mapped now (`VmSize`).
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    // "unlimited" does not parse: no limit.
    let limit = field(&limits, "Max address space", 1)?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mapped = field(&status, "VmSize:", 1024).unwrap_or(0);
    Some(limit.saturating_sub(mapped))
}

/// The least room any memory limit of this process's cgroups leaves.
fn cgroup_left() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |path: String| std::fs::read_to_string(path).ok();
    let number = |text: Option<String>| text?.trim().parse::<u64>().ok();
    let mut least: Option<u64> = None;
    let mut consider = |limit: Option<u64>, used: Option<u64>| {
        if let Some(limit) = limit {
            let left = limit.saturating_sub(used.unwrap_or(0));
            least = Some(least.map_or(left, |l| l.min(left)));
        }
    };
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if controllers.is_empty() {
            // cgroup v2: every level from the process's group up to the root limits it.
            let mut dir = std::path::PathBuf::from(format!("/sys/fs/cgroup{path}"));
            loop {
                let at = |file: &str| dir.join(file).display().to_string();
                // "max" does not parse: no limit at this level.
                consider(
                    number(read(at("memory.max"))),
                    number(read(at("memory.current"))),
                );
                if dir.as_os_str() == "/sys/fs/cgroup" || !dir.pop() {
                    break;
                }
            }
        } else if controllers.split(',').any(|c| c == "memory") {
            // cgroup v1: the group's directory, or the mount itself inside a container.
            for dir in [
                format!("/sys/fs/cgroup/memory{path}"),
                "/sys/fs/cgroup/memory".into(),
            ] {
                consider(
                    number(read(format!("{dir}/memory.limit_in_bytes"))),
                    number(read(format!("{dir}/memory.usage_in_bytes"))),
                );
            }
        }
    }
    least
}

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

/// How far a count has come, as given to [`Counter::on_progress`].
///
/// ```
/// use std::sync::Mutex;
/// use nqueens::{counter::Progress, Counter};
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
        "counting N={n} with the {strategy} engine on {threads} threads needs {need} bytes of memory, more than the limit of {limit} (raise the limit or use fewer threads)"
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
    /// Checkpoints and shards need the engine's task list.
    #[error("a checkpoint or a shard needs the engine, not the {0} algorithm")]
    NeedsEngine(&'static str),
    /// The GPU counts the Backtrack strategy's tasks only.
    #[error("the GPU counts with the engine's backtrack strategy, not {0}")]
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
            CountError::Engine(_)
            | CountError::TooLarge { .. }
            | CountError::Algo(_)
            | CountError::Memory { .. }
            | CountError::NeedsEngine(_)
            | CountError::GpuMethod(_)
            | CountError::GpuSize { .. } => true,
            CountError::Gpu(e) => e.is_unavailable(),
            CountError::Checkpoint(e) => {
                !matches!(e, CheckpointError::Io { .. } | CheckpointError::Lost { .. })
            }
            CountError::Threads { .. } | CountError::Interrupted { .. } => false,
        }
    }
}

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
}

impl<'a> Counter<'a> {
    /// A count of `n` with the defaults: the engine's fastest strategy, all cores, no memory
    /// limit, no checkpoint, the whole task list.
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

    /// Refuses to start if the engine would need more than `bytes` of memory.
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

    /// Counts only this slice of the task list (for [`merge`](crate::engine::shard::merge)).
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

    /// Counts on this device. The GPU (the `cuda` feature) counts the Backtrack strategy's
    /// tasks, so checkpoints and shards are interchangeable with CPU counts; the CPU's threads
    /// count the few tasks that need each solution inspected, and prepare the GPU's batches.
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
            None if self.device == Device::Gpu => {
                Method::Gpu(self.strategy.unwrap_or(Strategy::Backtrack))
            }
            None => Method::Engine(
                self.strategy
                    .unwrap_or_else(|| engine::fastest_strategy(self.n)),
            ),
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
        let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
        self.threads.map_or(cores, |t| t.min(cores))
    }

    /// Checks everything that can be checked without counting: the size against the method's
    /// limits, the memory the engine needs against the limit, and that checkpoints and shards
    /// go with the engine. Cheap for every `n` (the engine's task list is not built).
    ///
    /// ```
    /// use nqueens::{Counter, engine::Strategy};
    /// assert!(Counter::new(30).strategy(Strategy::Backtrack).check().is_ok());
    /// assert!(Counter::new(33).check().is_err());
    /// assert!(Counter::new(13).algo(nqueens::algo::Algo::Permutations).check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), CountError> {
        match self.method() {
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
                if strategy != Strategy::Backtrack {
                    return Err(CountError::GpuMethod(format!("the {strategy} strategy")));
                }
                engine::check(self.n, strategy)?;
                if self.n > engine::GPU_MAX_N {
                    return Err(CountError::GpuSize {
                        n: self.n,
                        max: engine::GPU_MAX_N,
                    });
                }
                engine::device_available(Device::Gpu)?;
            }
            Method::Engine(strategy) => {
                engine::check(self.n, strategy).map_err(|e| match e {
                    // The user chose no strategy: the engine's inner ones are not theirs to hear of.
                    EngineError::OutOfRange { n, max, why, .. }
                        if n > 0 && self.strategy.is_none() =>
                    {
                        CountError::TooLarge { n, max, why }
                    }
                    e => CountError::Engine(e),
                })?;
                let threads = self.thread_count();
                let need = engine::memory_estimate(self.n, strategy, threads);
                let limit = self.max_memory.unwrap_or(u64::MAX);
                if need > limit {
                    return Err(CountError::Memory {
                        n: self.n,
                        strategy: strategy.name(),
                        threads,
                        need,
                        limit,
                    });
                }
            }
        }
        Ok(())
    }

    /// Counts.
    ///
    /// ```
    /// let r = nqueens::Counter::new(12).run().unwrap();
    /// assert_eq!((r.total, r.unique), (14200, Some(1787)));
    /// ```
    pub fn run(&self) -> Result<CountResult, CountError> {
        self.check()?;
        let started = Instant::now();
        let threads = self.thread_count();
        match self.method() {
            Method::Ladder(algo) => {
                // The parallel rung spreads over the current rayon pool: this one has the
                // threads asked for.
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|source| CountError::Threads { threads, source })?;
                let never = AtomicBool::new(false);
                let stop = self.stop.unwrap_or(&never);
                let Some(counts) = pool.install(|| algo.count_unless_stopped(self.n, stop))? else {
                    // The ladder has no tasks: one search, unfinished.
                    return Err(CountError::Interrupted {
                        done: 0,
                        of: 1,
                        checkpoint: None,
                        algo: Some(algo.name()),
                    });
                };
                Ok(CountResult {
                    n: self.n,
                    total: u128::from(counts.total),
                    unique: counts.unique.map(u128::from),
                    seconds: started.elapsed().as_secs_f64(),
                    method: Method::Ladder(algo),
                    tally: Tally::default(),
                    list: None,
                    resumed: 0,
                    gpu: None,
                })
            }
            Method::Engine(strategy) | Method::Gpu(strategy) => {
                self.run_engine(strategy, threads, started)
            }
        }
    }

    /// Counts on the calling thread, without starting a thread pool: for small boards (up to
    /// about N = 12, milliseconds), where starting threads and building the engine's task list
    /// cost more than the count (`count(8)` takes about 3 us this way, some hundreds through
    /// [`run`](Self::run)). With no strategy and no algorithm asked for, boards up to
    /// [`HERE_BY_SYMMETRY`] are counted by the ladder's symmetry rung (total and unique, no
    /// task list); the rest as [`run`](Self::run) would, one task after another. A count with
    /// a checkpoint or a shard goes to [`run`](Self::run).
    ///
    /// ```
    /// use nqueens::{Counter, engine::Strategy};
    /// let r = Counter::new(8).run_here().unwrap();
    /// assert_eq!((r.total, r.unique, r.method.label().as_str()), (92, Some(12), "algo/symmetry"));
    /// let r = Counter::new(8).strategy(Strategy::Backtrack).run_here().unwrap();
    /// assert_eq!((r.total, r.method.label().as_str()), (92, "engine/backtrack"));
    /// ```
    pub fn run_here(&self) -> Result<CountResult, CountError> {
        if self.checkpoint.is_some() || self.shard != Slice::ALL || self.device == Device::Gpu {
            return self.run();
        }
        let started = Instant::now();
        let mut here = *self;
        if here.algo.is_none()
            && here.strategy.is_none()
            && (1..=HERE_BY_SYMMETRY).contains(&here.n)
        {
            here.algo = Some(Algo::Symmetry);
        }
        here.check()?;
        let method = here.method();
        let Method::Engine(strategy) = method else {
            return here.run();
        };
        let tasks = engine::task_list(here.n, strategy)?;
        let never = AtomicBool::new(false);
        let stop = here.stop.unwrap_or(&never);
        let mut tally = Tally::default();
        for index in 0..tasks.len() {
            let Some(t) = tasks.count_unless_stopped(index, stop) else {
                return Err(CountError::Interrupted {
                    done: index,
                    of: tasks.len(),
                    checkpoint: None,
                    algo: None,
                });
            };
            tally += t;
        }
        Ok(CountResult {
            n: here.n,
            total: tally.total,
            unique: Some(tally.unique()),
            seconds: started.elapsed().as_secs_f64(),
            method,
            tally,
            list: Some(Header::new(tasks.as_ref(), Slice::ALL)),
            resumed: 0,
            gpu: None,
        })
    }

    fn run_engine(
        &self,
        strategy: Strategy,
        threads: usize,
        started: Instant,
    ) -> Result<CountResult, CountError> {
        // The GPU needs the Backtrack list itself, not just its `TaskSet` face.
        let backtrack = (self.device == Device::Gpu)
            .then(|| engine::backtrack::BacktrackTasks::new(self.n))
            .transpose()?;
        let boxed;
        let tasks: &dyn TaskSet = match &backtrack {
            Some(list) => list,
            None => {
                boxed = engine::task_list(self.n, strategy)?;
                boxed.as_ref()
            }
        };
        let header = Header::new(tasks, self.shard);
        let mut todo: Vec<usize> = self.shard.indices(tasks.len()).collect();
        let total = todo.len();
        let (journal, done) = match self.checkpoint {
            Some(path) => {
                let (journal, done) = Journal::open(path, &header)?;
                (Some(journal), done)
            }
            None => (None, BTreeMap::new()),
        };
        todo.retain(|i| !done.contains_key(i));
        let before: Tally = done.values().copied().sum();
        let resumed = done.len();
        let finished = std::sync::atomic::AtomicUsize::new(resumed);
        let report = |done: usize| {
            if let Some(f) = self.progress {
                f(Progress {
                    done,
                    total,
                    resumed,
                })
            }
        };
        report(resumed);
        let never = AtomicBool::new(false);
        let stop = self.stop.unwrap_or(&never);
        let on_done = |index, tally| {
            if let Some(j) = &journal {
                j.record(index, tally)?;
            }
            report(finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
            Ok(())
        };
        let (outcome, gpu) = match self.device {
            Device::Cpu => (
                run::count_tasks(tasks, &todo, threads, stop, &on_done),
                None,
            ),
            #[cfg(feature = "cuda")]
            Device::Gpu => {
                let list = backtrack.as_ref().expect("made above for the GPU");
                match engine::gpu::count_on_gpu(list, &todo, threads, stop, &on_done) {
                    Ok((outcome, report)) => (Ok(outcome), Some(report)),
                    Err(e) => (Err(e), None),
                }
            }
            #[cfg(not(feature = "cuda"))]
            Device::Gpu => (Err(RunError::Gpu(GpuError::NotBuilt)), None),
        };
        if let Some(j) = &journal {
            j.sync()?;
        }
        let outcome = outcome.map_err(|e| match e {
            RunError::Threads { threads, source } => CountError::Threads { threads, source },
            RunError::Callback(e) => CountError::Checkpoint(e),
            RunError::Gpu(e) => CountError::Gpu(e),
        })?;
        if outcome.stopped {
            return Err(CountError::Interrupted {
                done: resumed + outcome.done,
                of: total,
                checkpoint: self.checkpoint.map(Path::to_path_buf),
                algo: None,
            });
        }
        let mut tally = before;
        tally += outcome.tally;
        // Each record was checked as it was read; a whole count resumed is checked once more
        // as a whole (see `engine::bounds`).
        if let (Some(path), true) = (self.checkpoint, self.shard == Slice::ALL && resumed > 0) {
            engine::bounds::check_whole(self.n, tally).map_err(|why| {
                CountError::Checkpoint(CheckpointError::Implausible {
                    path: path.to_path_buf(),
                    why,
                })
            })?;
        }
        Ok(CountResult {
            n: self.n,
            total: tally.total,
            unique: (self.shard == Slice::ALL).then(|| tally.unique()),
            seconds: started.elapsed().as_secs_f64(),
            method: self.method(),
            tally,
            list: Some(header),
            resumed,
            gpu,
        })
    }
}

/// Counts all and unique solutions for `n` with the engine's fastest strategy on all cores.
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

    #[test]
    fn counting_here_gives_what_the_pool_gives() {
        for n in 0..=14 {
            for strategy in [None, Some(Strategy::Backtrack), Some(Strategy::Join)] {
                let mut c = Counter::new(n).threads(2);
                if let Some(s) = strategy {
                    c = c.strategy(s);
                }
                let here = c.run_here();
                if n <= HERE_BY_SYMMETRY && strategy.is_none() && n > 0 {
                    c = c.algo(Algo::Symmetry);
                }
                match (here, c.run()) {
                    (Ok(here), Ok(pool)) => {
                        let want = crate::reference::published(n).unwrap();
                        assert_eq!((here.total, here.unique), (want.0, Some(want.1)), "N={n}");
                        assert_eq!(here.method, pool.method);
                        assert_eq!((here.tally, here.list), (pool.tally, pool.list));
                    }
                    (Err(here), Err(pool)) => assert_eq!(here.to_string(), pool.to_string()),
                    (here, pool) => panic!("N={n}: {here:?} but the pool gave {pool:?}"),
                }
            }
        }
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
