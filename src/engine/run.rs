//! The runner: counts a list of task indices on a pool of threads.
//!
//! Threads take tasks one at a time by work stealing (rayon), so a few large tasks never leave
//! cores idle while small ones wait. The sum does not depend on the number of threads or the
//! order tasks finish in, because [`Tally`] is additive. Every finished task is reported to a
//! callback, which is how progress bars and checkpoints follow a run without the runner knowing
//! about either. A stop flag ends the run promptly: no new task starts, and the tasks under way
//! return within milliseconds, uncounted.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::{Tally, TaskSet};

/// What a run counted.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::{run, task_list, Strategy};
/// let tasks = task_list(10, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..tasks.len()).collect();
/// let stop = AtomicBool::new(true);
/// let out = run::count_tasks(tasks.as_ref(), &all, 1, &stop, &|_, _| Ok::<(), ()>(())).unwrap();
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
/// use nqueens::engine::{run, task_list, Strategy};
/// let tasks = task_list(10, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..tasks.len()).collect();
/// let go = AtomicBool::new(false);
/// let err = run::count_tasks(tasks.as_ref(), &all, 2, &go, &|_, _| Err("disk full")).unwrap_err();
/// assert!(matches!(err, run::RunError::Callback("disk full")));
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
    Gpu(#[from] super::GpuError),
    /// The callback for a finished task failed (the first failure is kept).
    #[error(transparent)]
    Callback(E),
}

/// Counts the tasks `todo` of `tasks` on `threads` threads (0: all cores).
///
/// `on_done(index, tally)` is called once per finished task, from the thread that counted it;
/// if it fails, no new task starts and the first error is returned. Once `stop` is set, no new
/// task starts, the tasks under way end early without being reported, and the outcome says
/// `stopped`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::{run, Strategy, TaskSet};
/// let set = nqueens::engine::task_list(10, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..set.len()).collect();
/// let never = AtomicBool::new(false);
/// let out = run::count_tasks(set.as_ref(), &all, 2, &never, &|_, _| Ok::<(), ()>(())).unwrap();
/// assert_eq!((out.tally.total, out.tally.unique()), (724, 92));
/// ```
///
/// # Errors
/// [`RunError::Threads`] if the pool cannot start, [`RunError::Callback`] with the first
/// error of `on_done`.
pub fn count_tasks<E: Send>(
    tasks: &dyn TaskSet,
    todo: &[usize],
    threads: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
) -> Result<Outcome, RunError<E>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| RunError::Threads { threads, source })?;
    let sum = Mutex::new(Outcome::default());
    let failed = AtomicBool::new(false);
    let result: Result<(), E> = pool.install(|| {
        // Split down to single tasks: left to itself, rayon cuts the list into a few pieces
        // per thread, each counted in one go that no other thread can take from, and the
        // thread whose piece held the dearer tasks finished last (Join's N = 18 on 2 threads:
        // 0.66 s instead of 0.55 s when its dearer tasks came last). A split costs far less
        // than a task.
        todo.par_iter().with_max_len(1).try_for_each(|&index| {
            if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            let Some(tally) = tasks.count_unless_stopped(index, stop) else {
                return Ok(());
            };
            on_done(index, tally).inspect_err(|_| failed.store(true, Ordering::Relaxed))?;
            let mut sum = sum.lock().unwrap_or_else(|e| e.into_inner());
            sum.tally += tally;
            sum.done += 1;
            Ok(())
        })
    });
    result.map_err(RunError::Callback)?;
    let mut outcome = sum.into_inner().unwrap_or_else(|e| e.into_inner());
    outcome.stopped = outcome.done < todo.len();
    Ok(outcome)
}

/// [`count_tasks`] on the calling thread, one task after another, without a thread pool: for
/// lists that take less time to count than threads take to start.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::{run, Strategy, TaskSet};
/// let set = nqueens::engine::task_list(8, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..set.len()).collect();
/// let never = AtomicBool::new(false);
/// let out = run::count_here(set.as_ref(), &all, &never, &|_, _| Ok::<(), ()>(())).unwrap();
/// assert_eq!((out.tally.total, out.tally.unique(), out.done), (92, 12, all.len()));
/// ```
///
/// # Errors
/// [`RunError::Callback`] with the first error of `on_done`; no task starts after it.
pub fn count_here<E>(
    tasks: &dyn TaskSet,
    todo: &[usize],
    stop: &AtomicBool,
    on_done: &dyn Fn(usize, Tally) -> Result<(), E>,
) -> Result<Outcome, RunError<E>> {
    let mut outcome = Outcome::default();
    for &index in todo {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(tally) = tasks.count_unless_stopped(index, stop) else {
            break;
        };
        on_done(index, tally).map_err(RunError::Callback)?;
        outcome.tally += tally;
        outcome.done += 1;
    }
    outcome.stopped = outcome.done < todo.len();
    Ok(outcome)
}
