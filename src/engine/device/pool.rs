//! The CPU's cores: a pool of threads taking tasks one at a time.
//!
//! Threads take tasks by work stealing (rayon), so a few large tasks never leave cores idle
//! while small ones wait. The sum does not depend on the number of threads or the order tasks
//! finish in, because [`Tally`] is additive.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::{Outcome, RunError};
use crate::engine::{Tally, TaskSet};

/// Counts the tasks `todo` of `tasks` on `threads` threads (0: all cores).
///
/// `on_done(index, tally)` is called once per finished task, from the thread that counted it;
/// if it fails, no new task starts and the first error is returned. Once `stop` is set, no new
/// task starts, the tasks under way end early without being reported, and the outcome says
/// `stopped`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::{device::pool, Strategy, TaskSet};
/// let set = nqueens::engine::strategy::task_list(10, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..set.len()).collect();
/// let never = AtomicBool::new(false);
/// let out = pool::count_tasks(set.as_ref(), &all, 2, &never, &|_, _| Ok::<(), ()>(())).unwrap();
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
    let pool =
        crate::threads::pool(threads).map_err(|source| RunError::Threads { threads, source })?;
    let sum = Mutex::new(Outcome::default());
    let failed = AtomicBool::new(false);
    let result: Result<(), E> = pool.install(|| {
        // Split down to single tasks: left to itself, rayon cuts the list into a few pieces
        // per thread, each counted in one go that no other thread can take from, and the
        // thread whose piece held the dearer tasks finishes last (docs/engine-trials.md). A
        // split costs far less than a task.
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
