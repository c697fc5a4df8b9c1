//! `complete`: the constraint solver on an instance given as text, rows or columns.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use nqueens::cp::{Instance, InstanceError, MAX_N, Options, Solver, Stats, Status};
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::convert::{
    self, as_int, natural, on_board, one_thread, positive, read_only, squares, time_limit,
    to_bytes, type_name, value_error,
};
use crate::interrupt::{POLL, interruptible, is_interrupt};

/// Squares given to an instance that cannot be one (two given queens attack, a given queen
/// on a blocked square): no completion, as a solver says of an infeasible model.
fn conflict(e: &InstanceError) -> bool {
    matches!(
        e,
        InstanceError::Attack { .. } | InstanceError::QueenOnBlocked { .. }
    )
}

/// The instance given to `complete`: a text in one of the command line's forms, the rows of
/// a drawing, or a column (or `None`, or -1) per row; plus blocked squares (pairs or a mask).
/// Given queens that attack each other, or stand on a blocked square, are the instance's
/// conflict (its first, in words) rather than an error: such an instance has no completion.
fn read_instance(
    given: &Bound<'_, PyAny>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Instance, Option<String>)> {
    let mut conflicts = None;
    let mut inst = if let Ok(text) = given.cast::<PyString>() {
        Instance::parse(&text.to_cow()?).map_err(value_error)?
    } else {
        // An endless iterator is refused at the first row past the largest board, which
        // `Instance::with_size` names.
        let items: Vec<Bound<'_, PyAny>> = given
            .try_iter()
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "the instance must be a str, a list of row strings or a list of columns (int or None), not {}",
                    type_name(given)
                ))
            })?
            .take(MAX_N + 1)
            .collect::<PyResult<_>>()?;
        if !items.is_empty()
            && items.len() <= MAX_N
            && items.iter().all(|i| i.is_instance_of::<PyString>())
        {
            let rows: Vec<String> = items
                .iter()
                .map(|i| i.extract::<String>())
                .collect::<PyResult<_>>()?;
            Instance::parse(&rows.join("\n")).map_err(value_error)?
        } else {
            let mut inst = Instance::with_size(items.len()).map_err(value_error)?;
            let n = items.len();
            for (r, item) in items.iter().enumerate() {
                if item.is_none() {
                    continue;
                }
                let Some(col) = as_int(item)? else {
                    return Err(PyTypeError::new_err(format!(
                        "each row of the instance must be a column (int), None or -1 (free), not {}",
                        type_name(item)
                    )));
                };
                if col.eq(-1)? {
                    continue;
                }
                let row = r.into_pyobject(given.py())?;
                let (r, c) = on_board(n, &row, &col)?;
                match inst.fix(r, c) {
                    Err(e) if conflict(&e) => {
                        conflicts.get_or_insert(e.to_string());
                    }
                    other => other.map_err(value_error)?,
                }
            }
            inst
        }
    };
    if let Some(blocked) = blocked {
        for (r, c) in squares(blocked, inst.n(), "blocked")? {
            match inst.block(r, c) {
                Err(e) if conflict(&e) => {
                    conflicts.get_or_insert(e.to_string());
                }
                other => other.map_err(value_error)?,
            }
        }
    }
    Ok((inst, conflicts))
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

/// The instance as Python draws it: its size, given queens and blocked squares, 0-based.
type InstanceTuple = (usize, Vec<(usize, usize)>, Vec<(usize, usize)>);

fn instance_tuple(inst: &Instance) -> InstanceTuple {
    (inst.n(), inst.fixed().collect(), inst.blocked().collect())
}

/// The answer of `complete`: `(status, placement, count, stats, instance, conflict)`.
/// `status` is `"solved"` (a completion found; with `count`, the count is exact and above 0),
/// `"none"` (proved to have no completion) or `"unknown"` (the node or time limit came first:
/// `count` is the partial count); `placement` is the completion's columns (without `count`),
/// `count` the completions counted (with `count`), `instance` what was completed, `conflict`
/// the given queens' conflict that made the status `"none"` without a search.
type CompletionTuple<'py> = (
    &'static str,
    Option<Bound<'py, PyBytes>>,
    Option<u64>,
    StatsTuple,
    InstanceTuple,
    Option<String>,
);

fn options(
    seed: Option<&Bound<'_, PyAny>>,
    restarts: bool,
    node_limit: Option<&Bound<'_, PyAny>>,
    seconds: Option<&Bound<'_, PyAny>>,
) -> PyResult<Options> {
    // The solver counts its domains with the copy `NQUEENS_ISA` forces, as a count does.
    nqueens::engine::cpu::Isa::from_env().map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Options {
        node_limit: node_limit.map(|l| natural(l, "node_limit")).transpose()?,
        time_limit: time_limit(convert::seconds(seconds)?)?,
        seed: seed.map(|s| natural(s, "seed")).transpose()?.unwrap_or(0),
        restarts,
    })
}

fn status_name(status: Status, found: u64) -> &'static str {
    match status {
        Status::NodeLimit | Status::TimeLimit => "unknown",
        _ if found > 0 => "solved",
        _ => "none",
    }
}

/// Completes an instance: one completion, or with `count` the number of completions; stops
/// at `node_limit` nodes or `time_limit` seconds (`None`: no limit) with status `"unknown"`.
#[pyfunction]
#[pyo3(signature = (instance, *, blocked=None, count=false, seed=None, restarts=true, node_limit=None, time_limit=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn complete<'py>(
    py: Python<'py>,
    instance: &Bound<'py, PyAny>,
    blocked: Option<&Bound<'py, PyAny>>,
    count: bool,
    seed: Option<&Bound<'py, PyAny>>,
    restarts: bool,
    node_limit: Option<&Bound<'py, PyAny>>,
    time_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<CompletionTuple<'py>> {
    let (inst, conflict) = read_instance(instance, blocked)?;
    let options = options(seed, restarts, node_limit, time_limit)?;
    if conflict.is_some() {
        let none = Stats::default();
        return Ok((
            "none",
            None,
            count.then_some(0),
            stats_tuple(&none),
            instance_tuple(&inst),
            conflict,
        ));
    }
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
    let placement = answer.map(|p| to_bytes(py, p.cols())).transpose()?;
    Ok((
        status_name(status, found),
        placement,
        count.then_some(found),
        stats_tuple(&stats),
        instance_tuple(&inst),
        None,
    ))
}

/// Completions the search of a [`CompletionIter`] may find before the caller takes them, when
/// the caller asks for fewer: a loop over completions takes them from memory most of the time,
/// and the search runs no further ahead of it than this.
const AHEAD: usize = 256;

/// Where the search of a [`CompletionIter`] leaves its completions and the caller takes them:
/// a bounded queue, the search waiting while it holds `room` completions, the caller while it
/// holds fewer than it asked for and the search goes on.
#[derive(Default)]
struct Queue {
    state: Mutex<Queued>,
    changed: Condvar,
}

#[derive(Default)]
struct Queued {
    /// Completions found and not taken: columns, row after row.
    cols: Vec<u32>,
    /// How many completions the search may hold before it waits.
    room: usize,
    /// How the search ended, the completions it found, and its statistics.
    end: Option<(Status, u64, Stats)>,
    /// The iterator is gone: the search stops.
    gone: bool,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, Queued> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a user calls a [`CompletionIter`], in the message for two threads at once.
const COMPLETIONS: &str = "a Completions iterator (from complete(..., all=True))";

/// The lazy iterator of `complete(..., all=True)`: the solver's search on a thread of its own,
/// which leaves its completions in a bounded [`Queue`] and waits there while the caller has
/// not taken them, so it runs at most [`AHEAD`] completions (or the block asked for) ahead of
/// the caller. Dropping the iterator stops the search.
#[pyclass(module = "nqueens._nqueens")]
pub(crate) struct CompletionIter {
    n: usize,
    queue: Arc<Queue>,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// The end, once seen: `(status, stats)`.
    end: Option<(&'static str, StatsTuple)>,
    instance: InstanceTuple,
    conflict: Option<String>,
}

#[pymethods]
impl CompletionIter {
    #[new]
    #[pyo3(signature = (instance, *, blocked=None, seed=None, restarts=true, node_limit=None, time_limit=None))]
    fn new(
        instance: &Bound<'_, PyAny>,
        blocked: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        restarts: bool,
        node_limit: Option<&Bound<'_, PyAny>>,
        time_limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let (inst, conflict) = read_instance(instance, blocked)?;
        let options = options(seed, restarts, node_limit, time_limit)?;
        let n = inst.n();
        let mut it = CompletionIter {
            n,
            queue: Arc::default(),
            stop: Arc::default(),
            search: None,
            end: None,
            instance: instance_tuple(&inst),
            conflict: conflict.clone(),
        };
        if conflict.is_some() {
            it.end = Some(("none", stats_tuple(&Stats::default())));
            return Ok(it);
        }
        // The search builds its solver first; one that cannot be allocated is an error here.
        let solver = Solver::try_new(&inst, options)
            .map_err(|e| PyMemoryError::new_err(format!("a board of {n} rows: {e}")))?;
        drop(solver);
        let (queue, stop) = (it.queue.clone(), it.stop.clone());
        it.search = Some(
            std::thread::Builder::new()
                .name("nqueens-complete".into())
                .spawn(move || search_all(&inst, options, &stop, &queue))
                .map_err(|e| PyRuntimeError::new_err(format!("a search thread: {e}")))?,
        );
        Ok(it)
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next block of at most `k` completions: `(bytes, rows)`, the bytes of `rows` x `n`
    /// native `u32` columns (`rows` is 0 at the end). Waits for the search without the GIL,
    /// looking at Python's signals every 50 ms.
    fn batch<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        k: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, usize)> {
        let k = usize::try_from(positive(k, "batch")?).unwrap_or(usize::MAX);
        let mut slf = one_thread(slf, COMPLETIONS)?;
        let cols = slf.take(py, k)?;
        Ok((to_bytes(py, &cols)?, cols.len() / slf.n.max(1)))
    }

    /// The next completion's columns as native `u32` bytes.
    fn __next__<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let cols = one_thread(slf, COMPLETIONS)?.take(py, 1)?;
        if cols.is_empty() {
            return Ok(None);
        }
        to_bytes(py, &cols).map(Some)
    }

    /// `(status, (nodes, failures, propagations, solutions, restarts, seconds))` once the
    /// search has ended and every completion was taken, else `None`.
    fn end(slf: &Bound<'_, Self>) -> PyResult<Option<(&'static str, StatsTuple)>> {
        Ok(read_only(slf, COMPLETIONS)?.end)
    }

    /// `(n, givens, blocked)`, 0-based, and the given queens' conflict if any.
    fn instance(slf: &Bound<'_, Self>) -> PyResult<(InstanceTuple, Option<String>)> {
        let it = read_only(slf, COMPLETIONS)?;
        Ok((it.instance.clone(), it.conflict.clone()))
    }
}

impl CompletionIter {
    /// Up to `k` completions' columns: `k` once the search has found them, fewer at its end
    /// (none after). Waits without the GIL; Ctrl-C raises `KeyboardInterrupt` and leaves the
    /// completions found for the next call.
    fn take(&mut self, py: Python<'_>, k: usize) -> PyResult<Vec<u32>> {
        if self.search.is_none() {
            return Ok(Vec::new());
        }
        let n = self.n.max(1);
        let queue = &self.queue;
        loop {
            let ready = py.detach(|| {
                let mut q = queue.lock();
                q.room = k.max(AHEAD);
                queue.changed.notify_all();
                let (q, _) = queue
                    .changed
                    .wait_timeout_while(q, POLL, |q| q.cols.len() / n < k && q.end.is_none())
                    .unwrap_or_else(|e| e.into_inner());
                q.cols.len() / n >= k || q.end.is_some()
            });
            if ready {
                break;
            }
            py.check_signals()?;
        }
        let mut q = queue.lock();
        let rows = (q.cols.len() / n).min(k);
        let cols: Vec<u32> = q.cols.drain(..rows * n).collect();
        queue.changed.notify_all();
        if q.cols.is_empty()
            && let Some((status, found, stats)) = q.end
        {
            self.end = Some((status_name(status, found), stats_tuple(&stats)));
            drop(q);
            self.finish();
        }
        Ok(cols)
    }

    fn finish(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.queue.lock().gone = true;
        self.queue.changed.notify_all();
        if let Some(search) = self.search.take() {
            // The search sees `gone` at its next completion, or the stop flag within the
            // solver's CLOCK_EVERY nodes.
            let _ = search.join();
        }
    }
}

impl Drop for CompletionIter {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The search of a [`CompletionIter`]: each completion into the queue, waiting while the
/// queue is full, until the search ends or the iterator is gone.
fn search_all(inst: &Instance, options: Options, stop: &AtomicBool, queue: &Queue) {
    let Ok(solver) = Solver::try_new(inst, options) else {
        return;
    };
    let mut solver = solver.stop_when(stop);
    let n = inst.n().max(1);
    let mut seen = 0u64;
    let status = solver.for_each(|p| {
        let mut q = queue.lock();
        while q.cols.len() / n >= q.room.max(1) && !q.gone {
            q = queue.changed.wait(q).unwrap_or_else(|e| e.into_inner());
        }
        if q.gone {
            return ControlFlow::Break(());
        }
        seen += 1;
        q.cols.extend_from_slice(p.cols());
        queue.changed.notify_all();
        ControlFlow::Continue(())
    });
    queue.lock().end = Some((status, seen, *solver.stats()));
    queue.changed.notify_all();
}
