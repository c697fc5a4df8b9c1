//! The runner: counts a list of task indices on a pool of threads.
//!
//! Threads take tasks one at a time by work stealing (rayon), so a few large tasks never leave
//! cores idle while small ones wait. The sum does not depend on the number of threads or the
//! order tasks finish in, because [`Tally`] is additive. Every finished task is reported to a
//! callback, which is how progress bars and checkpoints follow a run without the runner knowing
//! about either; a stop flag (set by Ctrl-C) makes threads take no new task.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::{Tally, TaskSet};

/// What a run counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The sum of the tasks counted in this run.
    pub tally: Tally,
    /// How many tasks were counted.
    pub done: usize,
    /// `true` if the stop flag ended the run before every task was counted.
    pub stopped: bool,
}

/// Counts the tasks `todo` of `tasks` on `threads` threads (0: all cores).
///
/// `on_done(index, tally)` is called once per finished task, from the thread that counted it;
/// if it fails, no new task starts and the first error is returned. Once `stop` is set, no new
/// task starts either and the outcome says `stopped`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::{run, Strategy, TaskSet};
/// let set = nqueens::engine::tasks(10, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..set.len()).collect();
/// let out = run::count(set.as_ref(), &all, 2, &AtomicBool::new(false), &|_, _| Ok(())).unwrap();
/// assert_eq!((out.tally.total, out.tally.unique()), (724, 92));
/// ```
pub fn count(
    tasks: &dyn TaskSet,
    todo: &[usize],
    threads: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> anyhow::Result<()> + Sync),
) -> anyhow::Result<Outcome> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let sum = Mutex::new(Outcome::default());
    let failed = AtomicBool::new(false);
    let result: anyhow::Result<()> = pool.install(|| {
        todo.par_iter().try_for_each(|&index| {
            if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            let tally = tasks.count(index);
            on_done(index, tally).inspect_err(|_| failed.store(true, Ordering::Relaxed))?;
            let mut sum = sum.lock().unwrap_or_else(|e| e.into_inner());
            sum.tally += tally;
            sum.done += 1;
            Ok(())
        })
    });
    result?;
    let mut outcome = sum.into_inner().unwrap_or_else(|e| e.into_inner());
    outcome.stopped = outcome.done < todo.len();
    Ok(outcome)
}
