//! `nqueens._nqueens`: the native half of the Python package `nqueens`.
//!
//! A thin layer over the `nqueens` library: every function here converts and checks its Python
//! arguments, calls one library entry point with the GIL released, and converts the answer
//! back. The Python package (`py_src/nqueens/__init__.py`) gives these functions their final
//! shape (keyword arguments, result classes, tqdm bars) and their documentation.
//!
//! Nothing here may panic: the workspace's release profile aborts on panic, which would kill
//! the Python interpreter. So every argument is checked before it reaches the library, and
//! the library is only called in ways its documentation says cannot panic.

#![deny(missing_docs)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use nqueens::algo::Algo;
use nqueens::counter::{CountError, CountResult, Progress};
use nqueens::cp::{Instance, InstanceError, Options, Solver, Stats, Status};
use nqueens::engine::tasks::shard::{self, ShardResult, Slice};
use nqueens::engine::{Device, Strategy};
use nqueens::puzzle::{Difficulty, Generator, Puzzles};
use nqueens::solutions::{Solutions, UniqueSolutions};
use nqueens::trace as steps;
use nqueens::{Counter, Placement, large};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyOSError};
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyMemoryView, PyString, PyTuple};

/// How often a long count looks at Python's signals (Ctrl-C) and reports progress: short
/// enough that Ctrl-C feels instant, long enough to cost nothing.
const POLL: Duration = Duration::from_millis(50);

/// `obj` as a Python int: an int itself, or what its `__index__` gives (numpy's integer
/// scalars); `None` for a `bool` (an int to Python, never a size or a column here) and for
/// what has no `__index__`.
fn as_int<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(Some(obj.clone()));
    }
    let py = obj.py();
    if !obj.hasattr(intern!(py, "__index__"))? {
        return Ok(None);
    }
    match obj.call_method0(intern!(py, "__index__")) {
        Ok(i) if i.is_instance_of::<PyInt>() && !i.is_instance_of::<PyBool>() => Ok(Some(i)),
        // numpy's bool has an `__index__` that refuses: not an int either.
        Ok(_) => Ok(None),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => Ok(None),
        Err(e) => Err(e),
    }
}

/// An integer argument as a `u64`: `TypeError` for what is not an int (a `bool` neither;
/// anything with `__index__`, such as `numpy.int64(8)`, is one), `ValueError` for a negative
/// or too large one.
fn natural(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let Some(int) = as_int(obj)? else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            type_name(obj)
        )));
    };
    match int.extract::<i128>() {
        Ok(v) if v < 0 => Err(PyValueError::new_err(format!(
            "{what} must be at least 0, not {v}"
        ))),
        Ok(v) => {
            u64::try_from(v).map_err(|_| PyValueError::new_err(format!("{what} is too large: {v}")))
        }
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(PyValueError::new_err(format!("{what} is too large: {int}")))
        }
        Err(e) => Err(e),
    }
}

/// A board size: a natural number; 0 and sizes beyond a method's limit are left to the
/// library, whose messages say what the limit is and why.
fn board_size(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = natural(obj, "N")?;
    usize::try_from(n).map_err(|_| PyValueError::new_err(format!("N is too large: {n}")))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".into(), |name| name.to_string())
}

/// The options of a count that do not depend on `n`, checked once for a whole range.
struct CountOptions {
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

impl CountOptions {
    fn new(
        threads: Option<&Bound<'_, PyAny>>,
        strategy: Option<&str>,
        algo: Option<&str>,
        max_memory: Option<&Bound<'_, PyAny>>,
        checkpoint: Option<PathBuf>,
        device: Option<&str>,
        shard: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let device = device
            .map_or(Ok(Device::Cpu), str::parse)
            .map_err(value_error)?;
        let threads = match threads {
            Some(t) => match natural(t, "threads")? {
                0 => return Err(PyValueError::new_err("threads must be at least 1, not 0")),
                t => Some(usize::try_from(t).unwrap_or(usize::MAX)),
            },
            None => None,
        };
        let strategy = strategy.map(str::parse).transpose().map_err(value_error)?;
        let algo = algo.map(str::parse).transpose().map_err(value_error)?;
        let max_memory = max_memory.map(|m| natural(m, "max_memory")).transpose()?;
        let shard = shard.map(slice).transpose()?;
        Ok(CountOptions {
            long: false,
            threads,
            strategy,
            algo,
            max_memory,
            checkpoint,
            device,
            shard,
        })
    }

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

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
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
#[pyo3(signature = (n, *, threads=None, strategy=None, algo=None, max_memory=None, checkpoint=None, device=None, shard=None, long=false))]
#[allow(clippy::too_many_arguments)]
fn check_count(
    n: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    strategy: Option<&str>,
    algo: Option<&str>,
    max_memory: Option<&Bound<'_, PyAny>>,
    checkpoint: Option<PathBuf>,
    device: Option<&str>,
    shard: Option<&Bound<'_, PyAny>>,
    long: bool,
) -> PyResult<()> {
    let n = board_size(n)?;
    let mut options = CountOptions::new(
        threads, strategy, algo, max_memory, checkpoint, device, shard,
    )?;
    options.long = long;
    options.counter(n).check().map_err(count_error)
}

/// Counts the solutions for `n`; returns `(n, total, unique, seconds, method, shard)`.
///
/// The count runs on other threads without the GIL while the calling thread wakes every
/// 50 ms to look at Python's signals (so Ctrl-C raises `KeyboardInterrupt`, with the library's
/// word on how far the count got, and stops the count's tasks, or a ladder algorithm's search,
/// within milliseconds) and to call `progress(done, total)` when tasks have finished since
/// the last call.
#[pyfunction]
#[pyo3(signature = (n, *, threads=None, strategy=None, algo=None, max_memory=None, checkpoint=None, progress=None, device=None, shard=None, long=false))]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    strategy: Option<&str>,
    algo: Option<&str>,
    max_memory: Option<&Bound<'_, PyAny>>,
    checkpoint: Option<PathBuf>,
    progress: Option<&Bound<'_, PyAny>>,
    device: Option<&str>,
    shard: Option<&Bound<'_, PyAny>>,
    long: bool,
) -> PyResult<CountTuple> {
    let n = board_size(n)?;
    let mut options = CountOptions::new(
        threads, strategy, algo, max_memory, checkpoint, device, shard,
    )?;
    options.long = long;
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
            .and_then(|r| count_tuple(py, r, None));
    }
    let mut shown = None;
    let (result, failure) = interruptible(
        py,
        &stop,
        || checked.run(),
        || {
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

fn is_interrupt(py: Python<'_>, e: &PyErr) -> bool {
    e.is_instance_of::<PyKeyboardInterrupt>(py)
}

/// Adds up shard results given as `(name, text of the result file)`, with the library's
/// checks (every shard once, all of one count, none damaged); returns `(n, total, unique,
/// seconds, method)`, `seconds` the sum of the shards' wall-clock times.
#[pyfunction]
fn merge(results: Vec<(String, String)>) -> PyResult<(usize, u128, u128, f64, String)> {
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
        format!("engine/{}", first.strategy.name()),
    ))
}

/// Runs `work` on another thread without the GIL while the calling thread wakes every
/// [`POLL`] to call `poll` and look at Python's signals. At the first error of either (Ctrl-C
/// raises `KeyboardInterrupt` in the signal handler) it sets `stop`, which `work` must heed,
/// and returns that error beside `work`'s result once `work` has ended (the result says how
/// far it got): so every long job stops on Ctrl-C within milliseconds, by one mechanism.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut poll: impl FnMut() -> PyResult<()>,
) -> (T, Option<PyErr>) {
    let slot = Slot::default();
    let mut failure: Option<PyErr> = None;
    let result = std::thread::scope(|s| {
        s.spawn(|| slot.put(work()));
        loop {
            if let Some(result) = py.detach(|| slot.take(POLL)) {
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

/// The lazy iterator of `solutions(n)`: the library's search, advanced one solution per
/// `__next__` and never further.
#[pyclass(module = "nqueens._nqueens")]
struct SolutionIter {
    listing: Listing,
}

enum Listing {
    All(Solutions),
    Unique(UniqueSolutions),
}

#[pymethods]
impl SolutionIter {
    #[new]
    #[pyo3(signature = (n, *, unique=false))]
    fn new(n: &Bound<'_, PyAny>, unique: bool) -> PyResult<Self> {
        let n = board_size(n)?;
        let listing = if unique {
            Listing::Unique(nqueens::unique_solutions(n).map_err(value_error)?)
        } else {
            Listing::All(nqueens::solutions(n).map_err(value_error)?)
        };
        Ok(SolutionIter { listing })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(
        mut slf: PyRefMut<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let listing = &mut slf.listing;
        let next = py.detach(move || match listing {
            Listing::All(it) => it.next(),
            Listing::Unique(it) => it.next(),
        });
        next.map(|p| PyTuple::new(py, p.cols())).transpose()
    }

    /// Up to `k` next solutions as one block: `(bytes, rows)`, the bytes of `rows` x `n`
    /// native `u32` columns, row after row (`rows` is 0 at the end).
    fn batch<'py>(
        mut slf: PyRefMut<'py, Self>,
        py: Python<'py>,
        k: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, usize)> {
        let k = natural(k, "batch")?;
        if k == 0 {
            return Err(PyValueError::new_err("batch must be at least 1, not 0"));
        }
        // Memory follows the solutions there are, not the size asked for.
        let k = usize::try_from(k).unwrap_or(usize::MAX);
        let listing = &mut slf.listing;
        let cols = py.detach(move || {
            let mut cols = Vec::new();
            let mut rows = 0;
            while rows < k {
                let next = match listing {
                    Listing::All(it) => it.next(),
                    Listing::Unique(it) => it.next(),
                };
                let Some(p) = next else { break };
                cols.try_reserve(p.n())?;
                cols.extend_from_slice(p.cols());
                rows += 1;
            }
            Ok::<_, std::collections::TryReserveError>((cols, rows))
        });
        let (cols, rows) = cols.map_err(|e| {
            PyMemoryError::new_err(format!(
                "a block of {k} solutions: {e} (ask for a smaller batch)"
            ))
        })?;
        Ok((to_bytes(py, &cols)?, rows))
    }
}

/// Columns as the bytes of native `u32`s, copied once: the package makes them an
/// `array('I')` (a `Placement`) or a numpy array without touching each column again.
fn to_bytes<'py>(py: Python<'py>, cols: &[u32]) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, std::mem::size_of_val(cols), |buf| {
        for (out, c) in buf.chunks_exact_mut(4).zip(cols) {
            out.copy_from_slice(&c.to_ne_bytes());
        }
        Ok(())
    })
}

/// One solution for `n` as the bytes of its columns (native `u32`), or `None` when there is none (N = 2, 3):
/// the construction, or min-conflicts from `seed` when `random` is set.
#[pyfunction]
#[pyo3(signature = (n, *, random=false, seed=None, max_memory=None))]
fn find<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    random: bool,
    seed: Option<&Bound<'py, PyAny>>,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let n = board_size(n)?;
    let seed = seed.map(|s| natural(s, "seed")).transpose()?.unwrap_or(0);
    let mut finder = large::Finder::new(n as u64);
    if random {
        finder = finder.random(seed);
    }
    if let Some(m) = max_memory {
        finder = finder.max_memory(natural(m, "max_memory")?);
    }
    match finder.check() {
        Ok(_) => {}
        Err(large::FindError::NoSolution { .. }) => return Ok(None),
        Err(e @ large::FindError::Memory { .. }) => {
            return Err(PyValueError::new_err(format!(
                "{e}: see the max_memory argument"
            )));
        }
        Err(e) => return Err(value_error(e)),
    }
    let found = if random {
        let stop = AtomicBool::new(false);
        let search = || large::min_conflicts_unless_stopped(n, seed, &stop);
        match interruptible(py, &stop, search, || Ok(())) {
            (_, Some(e)) if !is_interrupt(py, &e) => return Err(e),
            (Ok(found), _) => found.map(|(p, _)| p),
            (Err(e @ large::Unfinished::OutOfMemory(_)), _) => {
                return Err(PyMemoryError::new_err(format!("finding {n} queens: {e}")));
            }
            (Err(e @ large::Unfinished::Stopped), _) => {
                return Err(PyKeyboardInterrupt::new_err(format!(
                    "finding {n} queens: {e}"
                )));
            }
        }
    } else {
        py.detach(|| large::construct(n))
    };
    found.map(|p| to_bytes(py, p.cols())).transpose()
}

/// Columns read from Python: any one-dimensional buffer of integers (an `array.array`, a
/// numpy array of any integer dtype), read from one copy of its bytes without a Python object
/// per column, or any iterable of ints (anything with `__index__`). A value outside `0..n`
/// becomes `u32::MAX`, which the library reports as off the board; `bad` keeps each such row
/// with its column as given (1-based, as messages show columns; computed by Python for ints
/// of any size). With `free_rows`, `None` marks a row without a queen (drawing a partial
/// board); its column is 0 and its row is listed in `free`.
struct Columns {
    cols: Vec<u32>,
    bad: Vec<(usize, String)>,
    free: Vec<usize>,
}

fn columns(obj: &Bound<'_, PyAny>) -> PyResult<Columns> {
    read_columns(obj, false)
}

fn read_columns(obj: &Bound<'_, PyAny>, free_rows: bool) -> PyResult<Columns> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "columns must be a sequence of ints, not str",
        ));
    }
    if let Ok(view) = PyMemoryView::from(obj) {
        return buffer_columns(&view);
    }
    let mut bad = Vec::new();
    let mut free = Vec::new();
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "columns must be a sequence of ints, not {}",
            type_name(obj)
        ))
    })?;
    let mut given = Vec::new();
    for (r, item) in items.enumerate() {
        let item = item?;
        if free_rows && item.is_none() {
            free.push(r);
            given.push(None);
            continue;
        }
        let Some(int) = as_int(&item)? else {
            let what = if free_rows { "ints or None" } else { "ints" };
            return Err(PyTypeError::new_err(format!(
                "columns must be {what}, not {}",
                type_name(&item)
            )));
        };
        given.push(Some(int));
    }
    let n = given.len();
    let cols = given
        .iter()
        .enumerate()
        .map(|(r, item)| match item {
            None => Ok(0),
            Some(item) => match item.extract::<u32>() {
                Ok(c) if (c as usize) < n => Ok(c),
                _ => {
                    bad.push((r, one_based(item)));
                    Ok(u32::MAX)
                }
            },
        })
        .collect::<PyResult<_>>()?;
    Ok(Columns { cols, bad, free })
}

/// The columns of a buffer: one copy of its bytes (`memoryview.tobytes`, which also gathers a
/// strided view), each item decoded by the format's size, sign and byte order.
fn buffer_columns(view: &Bound<'_, PyMemoryView>) -> PyResult<Columns> {
    let py = view.py();
    let format: String = view.getattr(intern!(py, "format"))?.extract()?;
    let ndim: usize = view.getattr(intern!(py, "ndim"))?.extract()?;
    let size: usize = view.getattr(intern!(py, "itemsize"))?.extract()?;
    let (big, code) = match format.as_bytes() {
        [b'>' | b'!', c] => (true, *c),
        [b'<' | b'=' | b'@', c] => (false, *c),
        [c] => (cfg!(target_endian = "big"), *c),
        _ => (false, b'?'),
    };
    let signed = match code {
        b'b' | b'h' | b'i' | b'l' | b'q' | b'n' => true,
        b'B' | b'H' | b'I' | b'L' | b'Q' | b'N' => false,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "columns must be ints, not a buffer of format {format:?}"
            )));
        }
    };
    if ndim != 1 {
        return Err(PyTypeError::new_err(format!(
            "columns must be one-dimensional, not a buffer of {ndim} dimensions"
        )));
    }
    if !matches!(size, 1 | 2 | 4 | 8) {
        return Err(PyTypeError::new_err(format!(
            "columns must be ints of 1, 2, 4 or 8 bytes, not {size}"
        )));
    }
    let bytes = view.call_method0(intern!(py, "tobytes"))?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    let n = bytes.len() / size;
    let mut cols = Vec::new();
    cols.try_reserve_exact(n)
        .map_err(|e| PyMemoryError::new_err(format!("{n} columns: {e}")))?;
    let mut bad = Vec::new();
    for (r, item) in bytes.chunks_exact(size).enumerate() {
        let mut raw = [0u8; 8];
        // Widen to 8 bytes, little-endian, extending the sign.
        let negative = signed && (if big { item[0] } else { item[size - 1] }) & 0x80 != 0;
        if negative {
            raw = [0xff; 8];
        }
        for (i, &byte) in item.iter().enumerate() {
            raw[if big { size - 1 - i } else { i }] = byte;
        }
        let v = if signed {
            i128::from(i64::from_le_bytes(raw))
        } else {
            i128::from(u64::from_le_bytes(raw))
        };
        match u32::try_from(v) {
            Ok(c) if (c as usize) < n => cols.push(c),
            _ => {
                bad.push((r, (v + 1).to_string()));
                cols.push(u32::MAX);
            }
        }
    }
    Ok(Columns {
        cols,
        bad,
        free: Vec::new(),
    })
}

impl Columns {
    /// What the library says is wrong with the placement, with off-board columns shown as
    /// given (1-based like every row and column in messages).
    fn defect(&self) -> Option<String> {
        let p = Placement::new(self.cols.clone());
        match p.verify() {
            Ok(()) => None,
            Err(nqueens::placement::Defect::OutOfBoard { row, n, .. }) => {
                let given = self
                    .bad
                    .iter()
                    .find(|(r, _)| *r == row)
                    .map_or("?", |(_, c)| c.as_str());
                Some(format!(
                    "row {}: column {given} is outside a {n}x{n} board",
                    row + 1
                ))
            }
            Err(d) => Some(d.to_string()),
        }
    }

    /// The placement, if every queen is on the board (drawing needs no more).
    fn on_board(self) -> PyResult<Placement> {
        if self.cols.is_empty() {
            return Err(PyValueError::new_err("the placement is empty"));
        }
        if !self.bad.is_empty() {
            return Err(PyValueError::new_err(self.defect().unwrap_or_default()));
        }
        Ok(Placement::new(self.cols))
    }
}

/// `None` if `columns` is a solution, else what is wrong, as `nqueens verify` says it.
#[pyfunction]
fn defect(py: Python<'_>, columns: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let cols = self::columns(columns)?;
    Ok(py.detach(|| cols.defect()))
}

/// The largest boards drawn: a board drawing of 1000 x 1000 is 2 MB of text; an SVG picture is
/// at most 800 pixels wide, so beyond 800 a square would be smaller than a pixel.
const MAX_BOARD: usize = 1000;
const MAX_SVG: usize = 800;

fn drawn(columns: Columns, format: nqueens::format::Format) -> PyResult<String> {
    let p = columns.on_board()?;
    let (max, name, why) = match format {
        nqueens::format::Format::Svg => (MAX_SVG, "svg", "the picture is at most 800 pixels wide"),
        _ => (MAX_BOARD, "board", "a board has N x N cells"),
    };
    if p.n() > max {
        return Err(PyValueError::new_err(format!(
            "{name} is limited to N <= {max} ({why}), not {}",
            p.n()
        )));
    }
    let mut out = Vec::new();
    nqueens::format::write(&mut out, &p, format)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    String::from_utf8(out).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The placement as an SVG picture of the chessboard (N up to 800): the library's picture,
/// with `size` pixels a side instead of its own, the queens of `free` rows (given as `None`)
/// left out, and a red cross on each `blocked` square (0-based `(row, col)` pairs).
#[pyfunction]
#[pyo3(signature = (columns, *, size=None, blocked=None))]
fn svg(
    columns: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let cols = read_columns(columns, true)?;
    let n = cols.cols.len();
    let free = cols.free.clone();
    let size = size.map(|s| natural(s, "size")).transpose()?;
    if let Some(px) = size
        && !(1..=10_000).contains(&px)
    {
        return Err(PyValueError::new_err(format!(
            "size must be from 1 to 10000 pixels, not {px}"
        )));
    }
    let mut squares = Vec::new();
    if let Some(blocked) = blocked {
        for sq in blocked.try_iter()? {
            squares.push(square(&sq?, n, "blocked")?);
        }
    }
    let picture = drawn(cols, nqueens::format::Format::Svg)?;
    // Thin glue until the library's picture takes these options: its lines are one element
    // each, the first the <svg> element with the size, one <use> per queen.
    let mut out = String::with_capacity(picture.len() + 64 * squares.len());
    for (i, line) in picture.lines().enumerate() {
        if i == 0
            && let Some(px) = size
        {
            let side = format!("width=\"{px}\" height=\"{px}\"");
            let start = line.find(" width=\"").map_or(0, |s| s + 1);
            let end = line.find(" viewBox").unwrap_or(start);
            out.push_str(&line[..start]);
            out.push_str(&side);
            out.push_str(&line[end..]);
            out.push('\n');
            continue;
        }
        if line.starts_with("<use href=\"#queen\"")
            && free
                .iter()
                .any(|r| line.ends_with(&format!(" y=\"{r}\"/>")))
        {
            continue;
        }
        if line == "</svg>" {
            for (r, c) in &squares {
                out.push_str(&format!(
                    "<path d=\"M{c}.2 {r}.2 l0.6 0.6 m0 -0.6 l-0.6 0.6\" stroke=\"#c00\" stroke-width=\"0.08\"/>\n"
                ));
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// The placement drawn with `Q` and `.`, one row per line (N up to 1000).
#[pyfunction]
fn board(columns: &Bound<'_, PyAny>) -> PyResult<String> {
    drawn(self::columns(columns)?, nqueens::format::Format::Board).map(|mut s| {
        // The format's blank line separates placements in a stream; one alone needs none.
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    })
}

/// An int as messages show rows and columns: 1-based, computed by Python for ints of any size.
fn one_based(v: &Bound<'_, PyAny>) -> String {
    v.add(1)
        .and_then(|v| v.str().map(|s| s.to_string()))
        .unwrap_or_else(|_| "?".into())
}

/// `(row, col)` given 0-based from Python, if both are on the board.
fn on_board(n: usize, r: &Bound<'_, PyAny>, c: &Bound<'_, PyAny>) -> PyResult<(usize, usize)> {
    let [Some(r), Some(c)] = [as_int(r)?, as_int(c)?] else {
        let v = if as_int(r)?.is_none() { r } else { c };
        return Err(PyTypeError::new_err(format!(
            "rows and columns must be ints, not {}",
            type_name(v)
        )));
    };
    let (r, c) = (&r, &c);
    match (r.extract::<usize>(), c.extract::<usize>()) {
        (Ok(r), Ok(c)) if r < n && c < n => Ok((r, c)),
        _ => Err(PyValueError::new_err(format!(
            "row {}, column {} is outside the {n}x{n} board",
            one_based(r),
            one_based(c)
        ))),
    }
}

/// A square given 0-based from Python: a pair of ints.
fn square(obj: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<(usize, usize)> {
    let (r, c): (Bound<'_, PyAny>, Bound<'_, PyAny>) = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be (row, column) pairs, not {}",
            type_name(obj)
        ))
    })?;
    on_board(n, &r, &c)
}

fn instance_error(e: InstanceError) -> PyErr {
    value_error(e)
}

/// The instance given to `complete`: a text in one of the command line's forms, the rows of
/// a drawing, or a column (or `None`) per row; plus blocked squares.
fn instance(given: &Bound<'_, PyAny>, blocked: Option<&Bound<'_, PyAny>>) -> PyResult<Instance> {
    let mut inst = if let Ok(text) = given.cast::<PyString>() {
        Instance::parse(&text.to_cow()?).map_err(value_error)?
    } else {
        let items: Vec<Bound<'_, PyAny>> = given
            .try_iter()
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "the instance must be a str, a list of row strings or a list of columns (int or None), not {}",
                    type_name(given)
                ))
            })?
            .collect::<PyResult<_>>()?;
        if !items.is_empty() && items.iter().all(|i| i.is_instance_of::<PyString>()) {
            let rows: Vec<String> = items
                .iter()
                .map(|i| i.extract::<String>())
                .collect::<PyResult<_>>()?;
            Instance::parse(&rows.join("\n")).map_err(value_error)?
        } else {
            let mut inst = Instance::with_size(items.len()).map_err(instance_error)?;
            let n = items.len();
            for (r, item) in items.iter().enumerate() {
                if item.is_none() {
                    continue;
                }
                let Some(col) = as_int(item)? else {
                    return Err(PyTypeError::new_err(format!(
                        "each row of the instance must be a column (int) or None, not {}",
                        type_name(item)
                    )));
                };
                let row = r.into_pyobject(given.py())?;
                let (r, c) = on_board(n, &row, &col)?;
                inst.fix(r, c).map_err(instance_error)?;
            }
            inst
        }
    };
    if let Some(blocked) = blocked {
        let n = inst.n();
        for sq in blocked.try_iter()? {
            let (r, c) = square(&sq?, n, "blocked")?;
            inst.block(r, c).map_err(instance_error)?;
        }
    }
    Ok(inst)
}

/// Solver statistics as a tuple: `(nodes, failures, propagations, solutions, restarts, seconds)`.
type StatsTuple = (u64, u64, u64, u64, u64, f64);

fn stats_tuple(s: &Stats) -> StatsTuple {
    (
        s.nodes,
        s.failures,
        s.propagations,
        s.solutions,
        s.restarts,
        s.time.as_secs_f64(),
    )
}

/// The answer of `complete`: `(status, placement, count, stats)`. `status` is `"solved"` (a
/// completion found; with `count`, the count is exact and above 0), `"none"` (proved to have
/// no completion) or `"unknown"` (the node or time limit came first: `count` is the partial
/// count); `placement` is the completion's columns (without `count`), `count` the completions
/// counted (with `count`).
type CompletionTuple<'py> = (
    &'static str,
    Option<Bound<'py, PyTuple>>,
    Option<u64>,
    StatsTuple,
);

/// Completes an instance: one completion, or with `count` the number of completions; stops
/// at `node_limit` nodes or `time_limit` seconds (`None`: no limit) with status `"unknown"`.
#[pyfunction]
#[pyo3(signature = (instance, *, blocked=None, count=false, seed=None, restarts=true, node_limit=None, time_limit=None))]
#[allow(clippy::too_many_arguments)]
fn complete<'py>(
    py: Python<'py>,
    instance: &Bound<'py, PyAny>,
    blocked: Option<&Bound<'py, PyAny>>,
    count: bool,
    seed: Option<&Bound<'py, PyAny>>,
    restarts: bool,
    node_limit: Option<&Bound<'py, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<CompletionTuple<'py>> {
    let inst = self::instance(instance, blocked)?;
    let seed = seed.map(|s| natural(s, "seed")).transpose()?.unwrap_or(0);
    let node_limit = node_limit.map(|l| natural(l, "node_limit")).transpose()?;
    let time_limit = match time_limit {
        // No search lasts longer than this; a larger limit is no limit.
        Some(s) if s == f64::INFINITY => None,
        Some(s) => Some(Duration::try_from_secs_f64(s).map_err(|_| {
            PyValueError::new_err(format!(
                "time_limit must be a number of seconds >= 0 (or None for no limit), not {s}"
            ))
        })?),
        None => None,
    };
    let options = Options {
        node_limit,
        time_limit,
        seed,
        restarts,
    };
    let stop = AtomicBool::new(false);
    let search = || {
        let mut solver = Solver::try_new(&inst, options)?.stop_when(&stop);
        Ok(if count {
            let (k, status) = solver.count();
            (k, None, status, *solver.stats())
        } else {
            let (p, status) = solver.find();
            (u64::from(p.is_some()), p, status, *solver.stats())
        })
    };
    let (result, failure) = interruptible(py, &stop, search, || Ok(()));
    let result = result.map_err(|e: nqueens::memory::OutOfMemory| {
        PyMemoryError::new_err(format!("a board of {} rows: {e}", inst.n()))
    });
    if let Some(e) = failure {
        return Err(match result {
            Ok((found, _, _, stats)) if is_interrupt(py, &e) => {
                PyKeyboardInterrupt::new_err(format!(
                    "complete stopped by Ctrl-C with {found} completion(s) found so far ({stats})"
                ))
            }
            _ => e,
        });
    }
    let (found, answer, status, stats) = result?;
    let status = match status {
        Status::NodeLimit | Status::TimeLimit => "unknown",
        _ if found > 0 => "solved",
        _ => "none",
    };
    let placement = answer.map(|p| PyTuple::new(py, p.cols())).transpose()?;
    Ok((
        status,
        placement,
        count.then_some(found),
        stats_tuple(&stats),
    ))
}

/// The steps of `algo`'s search for `n`, as `nqueens trace N --algo ALGO --format json`
/// writes them (JSON Lines: a header, a line per step, a summary), or as the library's
/// self-contained HTML player with `html`. At most `limit` steps; without one, a search longer
/// than the format holds is refused, as the command line refuses it.
#[pyfunction]
#[pyo3(signature = (n, *, algo, limit=None, html=false))]
fn trace(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    algo: &str,
    limit: Option<&Bound<'_, PyAny>>,
    html: bool,
) -> PyResult<String> {
    let n = board_size(n)?;
    let algo: Algo = algo.parse().map_err(value_error)?;
    algo.check_listing(n).map_err(value_error)?;
    let (max, name) = if html {
        (steps::html::MAX_STEPS, "an html")
    } else {
        (steps::MAX_STEPS, "a")
    };
    let limit = limit.map(|k| natural(k, "limit")).transpose()?;
    let steps = match limit {
        Some(0) => return Err(PyValueError::new_err("limit must be at least 1, not 0")),
        Some(k) if k > max as u64 => {
            return Err(PyValueError::new_err(format!(
                "limit={k} is more than {name} trace holds (at most {max} steps)"
            )));
        }
        Some(k) => k as usize,
        None => max,
    };
    let t = py
        .detach(|| steps::record(algo, n, steps))
        .map_err(value_error)?;
    if !t.complete && limit.is_none() {
        return Err(PyValueError::new_err(format!(
            "the search of {algo} for N = {n} takes more than {max} steps, more than {name} \
             trace holds; ask for its first K steps with limit=K"
        )));
    }
    let mut out = Vec::new();
    if html {
        steps::html::write(&mut out, &t)
    } else {
        steps::json::write(&mut out, &t)
    }
    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    String::from_utf8(out).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// One puzzle as a tuple: `(n, givens, blocked, solution, difficulty, (guesses, depth,
/// failures, propagations))`, squares and columns 0-based.
type PuzzleTuple = (
    usize,
    Vec<(usize, usize)>,
    Vec<(usize, usize)>,
    Vec<u32>,
    &'static str,
    (u64, u32, u64, u64),
);

/// The iterator of `puzzles(n, ...)`: the library's generator, one batch of puzzles made per
/// `__next__` that finds none ready, without the GIL.
#[pyclass(module = "nqueens._nqueens")]
struct PuzzleIter {
    puzzles: Puzzles<'static>,
}

#[pymethods]
impl PuzzleIter {
    #[new]
    #[pyo3(signature = (n, *, count=None, seed=None, blocked=false, minimal=false, difficulty=None, threads=None))]
    fn new(
        n: &Bound<'_, PyAny>,
        count: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        blocked: bool,
        minimal: bool,
        difficulty: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut generator = Generator::new(board_size(n)?).map_err(value_error)?;
        let count = count.map(|c| natural(c, "count")).transpose()?.unwrap_or(1);
        let difficulty = difficulty
            .map(str::parse::<Difficulty>)
            .transpose()
            .map_err(value_error)?;
        generator = generator
            .seed(seed.map(|s| natural(s, "seed")).transpose()?.unwrap_or(0))
            .blocked(blocked)
            .minimal(minimal)
            .difficulty(difficulty);
        if let Some(threads) = threads {
            match natural(threads, "threads")? {
                0 => return Err(value_error("threads must be at least 1")),
                t => generator = generator.threads(usize::try_from(t).unwrap_or(usize::MAX)),
            }
        }
        Ok(PuzzleIter {
            puzzles: generator.puzzles(count),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> PyResult<Option<PuzzleTuple>> {
        let puzzles = &mut slf.puzzles;
        let next = py.detach(move || puzzles.next());
        let Some(made) = next else {
            return Ok(None);
        };
        let puzzle = made.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let inst = puzzle.instance();
        let m = puzzle.measures();
        Ok(Some((
            inst.n(),
            inst.fixed().collect(),
            inst.blocked().collect(),
            puzzle.solution().cols().to_vec(),
            puzzle.difficulty().name(),
            (m.guesses, m.depth, m.failures, m.propagations),
        )))
    }
}

/// The native module.
#[pymodule]
fn _nqueens(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(check_count, m)?)?;
    m.add_function(wrap_pyfunction!(find, m)?)?;
    m.add_function(wrap_pyfunction!(defect, m)?)?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(board, m)?)?;
    m.add_function(wrap_pyfunction!(complete, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(trace, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<SolutionIter>()?;
    m.add_class::<PuzzleIter>()?;
    m.add("ALGORITHMS", Algo::ALL.map(Algo::name).to_vec())?;
    m.add("STRATEGIES", Strategy::ALL.map(Strategy::name).to_vec())?;
    m.add("MAX_LISTED", nqueens::solutions::MAX_N)?;
    Ok(())
}
