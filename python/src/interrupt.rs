//! The one way a long call runs: on another thread without the GIL, while the calling thread
//! looks at Python's signals, so that Ctrl-C stops it within milliseconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

/// How often a long count looks at Python's signals (Ctrl-C) and reports progress: short
/// enough that Ctrl-C feels instant, long enough to cost nothing.
pub(crate) const POLL: Duration = Duration::from_millis(50);

pub(crate) fn is_interrupt(py: Python<'_>, e: &PyErr) -> bool {
    e.is_instance_of::<PyKeyboardInterrupt>(py)
}

/// Runs `work` on another thread without the GIL while the calling thread wakes every
/// [`POLL`] to call `poll` and look at Python's signals. At the first error of either (Ctrl-C
/// raises `KeyboardInterrupt` in the signal handler) it sets `stop`, which `work` must heed,
/// and returns that error beside `work`'s result once `work` has ended (the result says how
/// far it got): so every long job stops on Ctrl-C within milliseconds, by one mechanism.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut poll: impl FnMut() -> PyResult<()>,
) -> (T, Option<PyErr>) {
    let slot = Slot::default();
    let mut failure: Option<PyErr> = None;
    let result = std::thread::scope(|s| {
        let worker = s.spawn(|| slot.put(work()));
        loop {
            if let Some(result) = py.detach(|| slot.take(POLL)) {
                // Joined, not only finished: the thread is gone when the call returns, so
                // that a caller counting its threads between calls finds none left over.
                let _ = py.detach(|| worker.join());
                return result;
            }
            if failure.is_some() {
                continue;
            }
            if let Err(e) = poll().and_then(|()| py.check_signals()) {
                stop.store(true, Ordering::Relaxed);
                failure = Some(e);
            }
        }
    });
    (result, failure)
}

/// Where the working thread leaves its result for the calling thread, which waits for it a
/// little at a time.
struct Slot<T> {
    value: Mutex<Option<T>>,
    ready: Condvar,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot {
            value: Mutex::new(None),
            ready: Condvar::new(),
        }
    }
}

impl<T> Slot<T> {
    fn put(&self, value: T) {
        *self.value.lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
        self.ready.notify_all();
    }

    /// The value, if it comes within `wait`.
    fn take(&self, wait: Duration) -> Option<T> {
        let guard = self.value.lock().unwrap_or_else(|e| e.into_inner());
        let (mut guard, _) = self
            .ready
            .wait_timeout_while(guard, wait, |v| v.is_none())
            .unwrap_or_else(|e| e.into_inner());
        guard.take()
    }
}
