//! Counting: the options of a count, converted once ([`CountOptions`]), `count`,
//! `check_count`, and the shards' `merge`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use nqueens::Counter;
use nqueens::algo::Algo;
use nqueens::counter::{CountError, CountResult, Method, Progress};
use nqueens::engine::tasks::shard::{self, ShardResult, Slice};
use nqueens::engine::{Device, Strategy};
use pyo3::exceptions::PyValueError;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::convert::{self, board_size, natural, positive, type_name, value_error};
use crate::interrupt::{interruptible, is_interrupt};

// The time limit of a count has passed: raised by the poll (so told apart from Ctrl-C and from
// an exception of the progress callback), and by `count` as `TimeUp(message, done, of)`,
// which the package raises as `CountTimeout`.
pyo3::create_exception!(_nqueens, TimeUp, pyo3::exceptions::PyException);

/// The options of a count that do not depend on `n`, converted and checked once for a whole
/// range of sizes: `nqueens.count`'s keyword arguments but `unique` and `progress`, which the
/// package applies itself. Its constructor is the one place these arguments are spelled.
#[pyclass(module = "nqueens._nqueens", frozen)]
pub(crate) struct CountOptions {
    threads: Option<usize>,
    strategy: Option<Strategy>,
    algo: Option<Algo>,
    max_memory: Option<u64>,
    checkpoint: Option<PathBuf>,
    device: Device,
    /// Asked for, even `(0, 1)`: the answer is then a shard result.
    shard: Option<Slice>,
    /// Counts estimated to take longer than a week may start.
    long: bool,
}

#[pymethods]
impl CountOptions {
    #[new]
    #[pyo3(signature = (*, threads=None, strategy=None, algo=None, max_memory=None, checkpoint=None, device=None, shard=None, long=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        threads: Option<&Bound<'_, PyAny>>,
        strategy: Option<&str>,
        algo: Option<&str>,
        max_memory: Option<&Bound<'_, PyAny>>,
        checkpoint: Option<PathBuf>,
        device: Option<&str>,
        shard: Option<&Bound<'_, PyAny>>,
        long: bool,
    ) -> PyResult<Self> {
        let device = device
            .map_or(Ok(Device::Cpu), str::parse)
            .map_err(value_error)?;
        let threads = match threads {
            Some(t) => Some(usize::try_from(positive(t, "threads")?).unwrap_or(usize::MAX)),
            None => None,
        };
        let strategy = strategy.map(str::parse).transpose().map_err(value_error)?;
        let algo = algo.map(str::parse).transpose().map_err(value_error)?;
        let max_memory = max_memory.map(|m| natural(m, "max_memory")).transpose()?;
        let shard = shard.map(slice).transpose()?;
        Ok(CountOptions {
            threads,
            strategy,
            algo,
            max_memory,
            checkpoint,
            device,
            shard,
            long,
        })
    }
}

impl CountOptions {
    /// The library's counter for `n` with these options (no progress, no stop flag yet).
    fn counter(&self, n: usize) -> Counter<'_> {
        let mut c = Counter::new(n).device(self.device);
        if let Some(s) = self.strategy {
            c = c.strategy(s);
        }
        if let Some(a) = self.algo {
            c = c.algo(a);
        }
        if let Some(limit) = self.max_memory {
            c = c.max_memory(limit);
        }
        if let Some(t) = self.threads {
            c = c.threads(t);
        }
        if let Some(path) = &self.checkpoint {
            c = c.checkpoint(path);
        }
        if let Some(slice) = self.shard {
            c = c.shard(slice);
        }
        c.allow_long(self.long)
    }
}

/// `shard=(i, k)` from Python, 0-based (`i` in `range(k)`), as the library's 1-based slice.
fn slice(obj: &Bound<'_, PyAny>) -> PyResult<Slice> {
    let (i, k): (Bound<'_, PyAny>, Bound<'_, PyAny>) = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "shard must be a pair (i, k) of ints, not {}",
            type_name(obj)
        ))
    })?;
    let (i, k) = (
        natural(&i, "the shard's index")?,
        natural(&k, "the shard count")?,
    );
    if k == 0 || k > shard::MAX_SHARDS as u64 {
        return Err(PyValueError::new_err(format!(
            "the shard count must be from 1 to {}, not {k}",
            shard::MAX_SHARDS
        )));
    }
    if i >= k {
        return Err(PyValueError::new_err(format!(
            "shard ({i}, {k}) does not exist: the index is 0-based, from 0 to {}",
            k - 1
        )));
    }
    // Both are at most MAX_SHARDS (2^24), so they fit a usize.
    Ok(Slice {
        index: i as usize + 1,
        count: k as usize,
    })
}

/// A count error as Python sees it: `ValueError` for what was asked, `OSError` for a
/// checkpoint that cannot be written, `KeyboardInterrupt` for a stopped count.
fn count_error(e: CountError) -> PyErr {
    match e {
        CountError::Memory { .. } => {
            PyValueError::new_err(format!("{e}: see the max_memory and threads arguments"))
        }
        CountError::Interrupted { .. } => PyKeyboardInterrupt::new_err(e.to_string()),
        CountError::Checkpoint(_) if !e.is_bad_input() => PyOSError::new_err(e.to_string()),
        CountError::Threads { .. } => PyRuntimeError::new_err(e.to_string()),
        e => value_error(e),
    }
}

/// The answer of a count: `(n, total, unique, seconds, method, shard)`, where `shard` is the
/// text of the shard's result file (as `nqueens count N --shard I/K --out FILE` writes it) for
/// a count with `shard=`, else `None`.
type CountTuple = (usize, u128, Option<u128>, f64, String, Option<String>);

/// Checks that `n` can be counted with these options without counting anything (raises
/// what [`count`] would raise before it starts).
#[pyfunction]
pub(crate) fn check_count(n: &Bound<'_, PyAny>, options: &Bound<'_, CountOptions>) -> PyResult<()> {
    let n = board_size(n)?;
    options.get().counter(n).check().map_err(count_error)
}

/// Counts the solutions for `n`; returns `(n, total, unique, seconds, method, shard)`.
///
/// The count runs on other threads without the GIL while the calling thread wakes every
/// 50 ms to look at Python's signals (so Ctrl-C raises `KeyboardInterrupt`, with the library's
/// word on how far the count got, and stops the count's tasks, or a ladder algorithm's search,
/// within milliseconds) and to call `progress(done, total)` when tasks have finished since
/// the last call.
///
/// With `time_limit` (seconds) the count stops as Ctrl-C stops it once that time has passed
/// and raises `TimeUp(message, done, of)`: the tasks finished (kept in the checkpoint,
/// if there is one) and the tasks of the whole count. A count the library runs on the
/// calling thread (N <= 12 by the engine, milliseconds) is never cut short.
#[pyfunction]
#[pyo3(signature = (n, options, *, progress=None, time_limit=None))]
pub(crate) fn count(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    options: &Bound<'_, CountOptions>,
    progress: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<CountTuple> {
    let n = board_size(n)?;
    let time_limit = convert::seconds(time_limit)?;
    // A limit the clock cannot add to now is no limit.
    let deadline = convert::time_limit(time_limit)?.and_then(|d| Instant::now().checked_add(d));
    let options = options.get();
    let stop = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let report = |p: Progress| {
        total.store(p.total, Ordering::Relaxed);
        // Threads finish in any order; the largest count seen is the true one.
        done.fetch_max(p.done, Ordering::Relaxed);
    };
    let mut counter = options.counter(n).stop_when(&stop);
    if progress.is_some() {
        counter = counter.on_progress(&report);
    }
    let checked = counter.checked().map_err(count_error)?;
    if checked.is_quick() {
        return py
            .detach(|| checked.run())
            .map_err(count_error)
            .and_then(|r| count_tuple(py, r, options.shard));
    }
    let mut shown = None;
    let (result, failure) = interruptible(
        py,
        &stop,
        || checked.run(),
        || {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(TimeUp::new_err("time_limit"));
            }
            let now = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
            match progress {
                Some(f) if now.1 > 0 && shown != Some(now) => {
                    shown = Some(now);
                    f.call1(now).map(drop)
                }
                _ => Ok(()),
            }
        },
    );
    if let Some(e) = failure {
        if e.is_instance_of::<TimeUp>(py) {
            return Err(match result {
                Err(CountError::Interrupted { done, of, .. }) => {
                    let seconds = time_limit.unwrap_or(0.0);
                    TimeUp::new_err((
                        format!(
                            "count of N = {n} stopped at time_limit={seconds} s: {done} of {of} \
                             tasks counted"
                        ),
                        done,
                        of,
                    ))
                }
                Err(other) => count_error(other),
                // Finished as the time ran out: the count stands.
                Ok(r) => return count_tuple(py, r, options.shard),
            });
        }
        // Ctrl-C: the library's message says how far the count got.
        return Err(match result {
            Err(stopped @ CountError::Interrupted { .. }) if is_interrupt(py, &e) => {
                PyKeyboardInterrupt::new_err(match stopped {
                    // Without a checkpoint the library's note says only that nothing was kept.
                    CountError::Interrupted {
                        done,
                        of,
                        checkpoint: None,
                        algo: None,
                    } => format!("{stopped}; {done} of {of} tasks had been counted"),
                    _ => stopped.to_string(),
                })
            }
            _ => e,
        });
    }
    let result = result.map_err(count_error)?;
    let now = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
    if let Some(f) = progress
        && now.1 > 0
        && shown != Some(now)
    {
        f.call1(now)?;
    }
    count_tuple(py, result, options.shard)
}

fn count_tuple(py: Python<'_>, r: CountResult, slice: Option<Slice>) -> PyResult<CountTuple> {
    let shard = match (&r.list, slice) {
        (Some(list), Some(_)) => {
            let host = hostname(py)?;
            let result = ShardResult::new(list, r.tally, r.seconds, host);
            Some(serde_json::to_string_pretty(&result).map_err(value_error)?)
        }
        _ => None,
    };
    Ok((r.n, r.total, r.unique, r.seconds, r.method.label(), shard))
}

/// The name of this machine for shard results, as Python's `socket.gethostname()` gives it.
fn hostname(py: Python<'_>) -> PyResult<String> {
    py.import("socket")?
        .getattr("gethostname")?
        .call0()?
        .extract()
}

/// Adds up shard results given as `(name, text of the result file)`, with the library's
/// checks (every shard once, all of one count, none damaged); returns `(n, total, unique,
/// seconds, method)`, `seconds` the sum of the shards' wall-clock times.
#[pyfunction]
pub(crate) fn merge(results: Vec<(String, String)>) -> PyResult<(usize, u128, u128, f64, String)> {
    let mut read = Vec::with_capacity(results.len());
    for (name, text) in results {
        let r = ShardResult::read(text.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
        read.push((name, r));
    }
    let tally = shard::merge(&read).map_err(value_error)?;
    let first = &read[0].1;
    let seconds = read.iter().map(|(_, r)| r.seconds).sum();
    Ok((
        first.n,
        tally.total,
        tally.unique(),
        seconds,
        Method::Engine(first.strategy).label(),
    ))
}

/// The text of the result file at `path` (a `str` or an `os.PathLike`; an int, which `open`
/// takes for a file descriptor, is refused), read by the library's bounded reader as
/// `nqueens merge` reads it, without a leading byte order mark.
#[pyfunction]
pub(crate) fn read_shard(path: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = path.py();
    if !(path.is_instance_of::<PyString>()
        || path.is_instance(&py.import("os")?.getattr("PathLike")?)?)
    {
        return Err(PyTypeError::new_err(format!(
            "a result file must be a ShardResult or a path (str or os.PathLike), not {}",
            type_name(path)
        )));
    }
    let path: PathBuf = path.extract()?;
    let name = path.display();
    // OSError(errno, message, name) is FileNotFoundError, PermissionError... as `open` raises.
    let file = std::fs::File::open(&path).map_err(|e| {
        PyOSError::new_err((
            e.raw_os_error().unwrap_or(0),
            e.to_string(),
            name.to_string(),
        ))
    })?;
    let bytes = py
        .detach(|| ShardResult::read_bytes(file))
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        PyValueError::new_err(format!("{name}: not a shard result: not UTF-8 text"))
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned())
}
