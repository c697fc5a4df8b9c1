//! The calling thread: tasks one after another, for lists that take less time to count than
//! threads take to start.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use super::{Outcome, RunError};
use crate::engine::strategy;
use crate::engine::{EngineError, Strategy, Tally, TaskSet};

/// [`count_tasks`](super::pool::count_tasks) on the calling thread, one task after another, without a thread pool: for
/// lists that take less time to count than threads take to start.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::{device::here, Strategy, TaskSet};
/// let set = nqueens::engine::strategy::task_list(8, Strategy::Backtrack).unwrap();
/// let all: Vec<usize> = (0..set.len()).collect();
/// let never = AtomicBool::new(false);
/// let out = here::count_here(set.as_ref(), &all, &never, &|_, _| Ok::<(), ()>(())).unwrap();
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

/// The task list of a small board (up to [`ON_THIS_THREAD`](super::ON_THIS_THREAD)), made once
/// per process and kept: small counts are made often (from Python, in loops), and the list
/// costs more than their count. Kept for good: a few dozen lists of at most some hundred tasks.
pub(crate) fn kept_list(n: usize, strategy: Strategy) -> Result<&'static dyn TaskSet, EngineError> {
    type Lists = HashMap<(usize, Strategy), &'static dyn TaskSet>;
    static LISTS: OnceLock<Mutex<Lists>> = OnceLock::new();
    debug_assert!(n <= super::ON_THIS_THREAD);
    let mut lists = LISTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&list) = lists.get(&(n, strategy)) {
        return Ok(list);
    }
    let list: &'static dyn TaskSet = Box::leak(strategy::task_list(n, strategy)?);
    lists.insert((n, strategy), list);
    Ok(list)
}
