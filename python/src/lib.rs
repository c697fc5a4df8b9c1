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
use nqueens::engine::{self, Device, Strategy};
use nqueens::puzzle::{Difficulty, Generator, Puzzles};
use nqueens::solutions::{Solutions, UniqueSolutions};
use nqueens::{Counter, Placement, large};
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyOSError};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::exceptions::{PyRuntimeError, PyTimeoutError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString, PyTuple};

/// How often a long count looks at Python's signals (Ctrl-C) and reports progress: short
/// enough that Ctrl-C feels instant, long enough to cost nothing.
const POLL: Duration = Duration::from_millis(50);

/// Counts of `n` up to this size take at most a few milliseconds, and the library makes them on
/// the calling thread: no counting thread of our own either, which would cost more than the
/// count.
const QUICK_N: usize = nqueens::counter::ON_THIS_THREAD;

/// Counts and searches needing less memory than this are not checked against the memory
/// available, which costs a read of `/proc/meminfo` (50 us, more than a small count takes).
const SMALL_MEMORY: u64 = 64 << 20;

/// An integer argument as a `u64`: `TypeError` for what is not an int (a `bool` neither),
/// `ValueError` for a negative or too large one.
fn natural(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            type_name(obj)
        )));
    }
    match obj.extract::<i128>() {
        Ok(v) if v < 0 => Err(PyValueError::new_err(format!(
            "{what} must be at least 0, not {v}"
        ))),
        Ok(v) => {
            u64::try_from(v).map_err(|_| PyValueError::new_err(format!("{what} is too large: {v}")))
        }
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(PyValueError::new_err(format!("{what} is too large: {obj}")))
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
    method: Option<Method>,
    max_memory: Option<u64>,
    checkpoint: Option<PathBuf>,
    device: Device,
}

#[derive(Clone, Copy)]
enum Method {
    Strategy(Strategy),
    Algo(Algo),
}

impl CountOptions {
    fn new(
        threads: Option<&Bound<'_, PyAny>>,
        strategy: Option<&str>,
        algo: Option<&str>,
        max_memory: Option<&Bound<'_, PyAny>>,
        checkpoint: Option<PathBuf>,
        device: Option<&str>,
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
        let method = match (strategy, algo) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err(
                    "strategy and algo exclude each other: a strategy is one of the engine's, an algo one of the ladder's",
                ));
            }
            (Some(s), None) => Some(Method::Strategy(s.parse().map_err(value_error)?)),
            (None, Some(a)) => Some(Method::Algo(a.parse().map_err(value_error)?)),
            (None, None) => None,
        };
        if let (Some(Method::Algo(a)), Some(_)) = (method, &checkpoint) {
            return Err(value_error(CountError::NeedsEngine(a.name())));
        }
        let max_memory = max_memory.map(|m| natural(m, "max_memory")).transpose()?;
        Ok(CountOptions {
            threads,
            method,
            max_memory,
            checkpoint,
            device,
        })
    }

    /// The library's counter for `n` with these options (no progress, no stop flag yet).
    fn counter(&self, n: usize) -> Counter<'_> {
        let mut c = Counter::new(n).device(self.device);
        match self.method {
            Some(Method::Strategy(s)) => c = c.strategy(s),
            Some(Method::Algo(a)) => c = c.algo(a),
            None => {}
        }
        if let Some(t) = self.threads {
            c = c.threads(t);
        }
        if let Some(path) = &self.checkpoint {
            c = c.checkpoint(path);
        }
        let limit = self.max_memory.or_else(|| match c.method() {
            nqueens::counter::Method::Engine(s)
                if engine::memory_estimate(n, s, c.thread_count()) > SMALL_MEMORY =>
            {
                Some(nqueens::counter::available_memory())
            }
            _ => None,
        });
        if let Some(limit) = limit {
            c = c.max_memory(limit);
        }
        c
    }
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
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

/// The answer of a count: `(n, total, unique, seconds, method)`.
type CountTuple = (usize, u128, Option<u128>, f64, String);

fn count_tuple(r: CountResult) -> CountTuple {
    (r.n, r.total, r.unique, r.seconds, r.method.label())
}

/// Checks that `n` can be counted with these options without counting anything (raises
/// what [`count`] would raise before it starts).
#[pyfunction]
#[pyo3(signature = (n, *, threads=None, strategy=None, algo=None, max_memory=None, checkpoint=None, device=None))]
#[allow(clippy::too_many_arguments)]
fn check_count(
    n: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    strategy: Option<&str>,
    algo: Option<&str>,
    max_memory: Option<&Bound<'_, PyAny>>,
    checkpoint: Option<PathBuf>,
    device: Option<&str>,
) -> PyResult<()> {
    let n = board_size(n)?;
    let options = CountOptions::new(threads, strategy, algo, max_memory, checkpoint, device)?;
    options.counter(n).check().map_err(count_error)
}

/// Counts the solutions for `n`; returns `(n, total, unique, seconds, method)`.
///
/// The count runs on other threads without the GIL while the calling thread wakes every
/// 50 ms to look at Python's signals (so Ctrl-C raises `KeyboardInterrupt` and stops the
/// count's tasks within milliseconds) and to call `progress(done, total)` when tasks have
/// finished since the last call.
#[pyfunction]
#[pyo3(signature = (n, *, threads=None, strategy=None, algo=None, max_memory=None, checkpoint=None, progress=None, device=None))]
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
) -> PyResult<CountTuple> {
    let n = board_size(n)?;
    let options = CountOptions::new(threads, strategy, algo, max_memory, checkpoint, device)?;
    let quick = (1..=QUICK_N).contains(&n)
        && options.device == Device::Cpu
        && progress.is_none()
        && options.checkpoint.is_none()
        && !matches!(options.method, Some(Method::Algo(_)));
    if quick {
        return py
            .detach(|| options.counter(n).run())
            .map(count_tuple)
            .map_err(count_error);
    }
    let plain = options.counter(n);
    plain.check().map_err(count_error)?;

    let stop = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let report = |p: Progress| {
        total.store(p.total, Ordering::Relaxed);
        // Threads finish in any order; the largest count seen is the true one.
        done.fetch_max(p.done, Ordering::Relaxed);
    };
    let counter = plain.on_progress(&report).stop_when(&stop);
    let mut shown = None;
    let result = interruptible(
        py,
        &stop,
        || counter.run(),
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
    )?;
    let result = result.map_err(count_error)?;
    let now = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
    if let Some(f) = progress
        && now.1 > 0
        && shown != Some(now)
    {
        f.call1(now)?;
    }
    Ok(count_tuple(result))
}

/// Runs `work` on another thread without the GIL while the calling thread wakes every
/// [`POLL`] to call `poll` and look at Python's signals. At the first error of either (Ctrl-C
/// raises `KeyboardInterrupt` in the signal handler) it sets `stop`, which `work` must heed,
/// and returns that error once `work` has ended: so every long job stops on Ctrl-C within
/// milliseconds, by one mechanism.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut poll: impl FnMut() -> PyResult<()>,
) -> PyResult<T> {
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
    match failure {
        Some(e) => Err(e),
        None => Ok(result),
    }
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
}

/// An `array.array('I')` of `len` zeros, to be filled by one copy.
fn zeros<'py>(py: Python<'py>, len: usize) -> PyResult<Bound<'py, PyAny>> {
    let one = py.import("array")?.getattr("array")?.call1(("I", [0u32]))?;
    one.mul(len)
}

/// The columns of `p` as an `array.array('I')`, copied once.
fn to_array<'py>(py: Python<'py>, cols: &[u32]) -> PyResult<Bound<'py, PyAny>> {
    let array = zeros(py, cols.len())?;
    let buffer = PyBuffer::<u32>::get(&array)?;
    buffer.copy_from_slice(py, cols)?;
    buffer.release(py);
    Ok(array)
}

/// One solution for `n` as an `array.array('I')`, or `None` when there is none (N = 2, 3):
/// the construction, or min-conflicts from `seed` when `random` is set.
#[pyfunction]
#[pyo3(signature = (n, *, random=false, seed=None, max_memory=None))]
fn find<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    random: bool,
    seed: Option<&Bound<'py, PyAny>>,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
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
        match interruptible(py, &stop, search, || Ok(()))? {
            Ok(found) => found.map(|(p, _)| p),
            Err(e @ large::Unfinished::OutOfMemory(_)) => {
                return Err(PyMemoryError::new_err(format!("finding {n} queens: {e}")));
            }
            Err(e @ large::Unfinished::Stopped) => {
                return Err(PyKeyboardInterrupt::new_err(e.to_string()));
            }
        }
    } else {
        py.detach(|| large::construct(n))
    };
    found.map(|p| to_array(py, p.cols())).transpose()
}

/// Columns read from Python: any buffer of `u32` (an `array.array('I')`, a numpy `uint32`
/// array) in one copy, or any iterable of ints. A value outside `0..n` becomes `u32::MAX`,
/// which the library reports as off the board; `bad` keeps each such row with its column as
/// given (1-based, as messages show columns; computed by Python for ints of any size).
struct Columns {
    cols: Vec<u32>,
    bad: Vec<(usize, String)>,
}

fn columns(obj: &Bound<'_, PyAny>) -> PyResult<Columns> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "columns must be a sequence of ints, not str",
        ));
    }
    if let Ok(buffer) = PyBuffer::<u32>::get(obj) {
        let cols = buffer.to_vec(obj.py())?;
        buffer.release(obj.py());
        let n = cols.len() as u64;
        let bad = cols
            .iter()
            .enumerate()
            .filter(|&(_, &c)| u64::from(c) >= n)
            .map(|(r, &c)| (r, (u64::from(c) + 1).to_string()))
            .collect();
        return Ok(Columns { cols, bad });
    }
    let mut bad = Vec::new();
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "columns must be a sequence of ints, not {}",
            type_name(obj)
        ))
    })?;
    let mut given = Vec::new();
    for item in items {
        let item = item?;
        if item.is_instance_of::<PyBool>() || !item.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "columns must be ints, not {}",
                type_name(&item)
            )));
        }
        given.push(item);
    }
    let n = given.len();
    let cols = given
        .iter()
        .enumerate()
        .map(|(r, item)| match item.extract::<u32>() {
            Ok(c) if (c as usize) < n => Ok(c),
            _ => {
                bad.push((r, item.add(1)?.str()?.to_string()));
                Ok(u32::MAX)
            }
        })
        .collect::<PyResult<_>>()?;
    Ok(Columns { cols, bad })
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

fn drawn(columns: &Bound<'_, PyAny>, format: nqueens::format::Format) -> PyResult<String> {
    let p = self::columns(columns)?.on_board()?;
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

/// The placement as an SVG picture of the chessboard (N up to 800).
#[pyfunction]
fn svg(columns: &Bound<'_, PyAny>) -> PyResult<String> {
    drawn(columns, nqueens::format::Format::Svg)
}

/// The placement drawn with `Q` and `.`, one row per line (N up to 1000).
#[pyfunction]
fn board(columns: &Bound<'_, PyAny>) -> PyResult<String> {
    drawn(columns, nqueens::format::Format::Board).map(|mut s| {
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
    for v in [r, c] {
        if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "rows and columns must be ints, not {}",
                type_name(v)
            )));
        }
    }
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
        Instance::parse(text.to_str()?).map_err(value_error)?
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
                if item.is_instance_of::<PyBool>() || !item.is_instance_of::<PyInt>() {
                    return Err(PyTypeError::new_err(format!(
                        "each row of the instance must be a column (int) or None, not {}",
                        type_name(item)
                    )));
                }
                let row = r.into_pyobject(given.py())?;
                let (r, c) = on_board(n, &row, item)?;
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

/// Completes an instance: one completion (a tuple of columns, or `None` if there is none), or
/// with `count` the number of completions; returned with the solver's statistics.
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
) -> PyResult<(Bound<'py, PyAny>, StatsTuple)> {
    let inst = self::instance(instance, blocked)?;
    let seed = seed.map(|s| natural(s, "seed")).transpose()?.unwrap_or(0);
    let node_limit = node_limit.map(|l| natural(l, "node_limit")).transpose()?;
    let time_limit = time_limit
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                PyValueError::new_err(format!(
                    "time_limit must be a number of seconds >= 0, not {s}"
                ))
            })
        })
        .transpose()?;
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
    let (found, answer, status, stats) = interruptible(py, &stop, search, || Ok(()))?.map_err(
        |e: nqueens::memory::OutOfMemory| {
            PyMemoryError::new_err(format!("a board of {} rows: {e}", inst.n()))
        },
    )?;
    if matches!(status, Status::NodeLimit | Status::TimeLimit) {
        let which = if status == Status::NodeLimit {
            "node"
        } else {
            "time"
        };
        return Err(PyTimeoutError::new_err(format!(
            "gave up: the {which} limit was reached after {found} completion(s) ({stats})"
        )));
    }
    let answer = if count {
        found.into_pyobject(py)?.into_any()
    } else {
        match answer {
            Some(p) => PyTuple::new(py, p.cols())?.into_any(),
            None => py.None().into_bound(py),
        }
    };
    Ok((answer, stats_tuple(&stats)))
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
    m.add_class::<SolutionIter>()?;
    m.add_class::<PuzzleIter>()?;
    m.add("ALGORITHMS", Algo::ALL.map(Algo::name).to_vec())?;
    m.add("STRATEGIES", Strategy::ALL.map(Strategy::name).to_vec())?;
    m.add("MAX_LISTED", nqueens::solutions::MAX_N)?;
    Ok(())
}
