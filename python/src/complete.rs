//! `complete`: the constraint solver on an instance given as text, rows or columns.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use nqueens::cp::{Instance, InstanceError, Options, Solver, Stats, Status};
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::convert::{
    as_int, natural, on_board, positive, squares, to_bytes, type_name, value_error,
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

fn time_limit(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    match seconds {
        // No search lasts longer than this; a larger limit is no limit.
        Some(s) if s == f64::INFINITY => Ok(None),
        Some(s) => Duration::try_from_secs_f64(s).map(Some).map_err(|_| {
            PyValueError::new_err(format!(
                "time_limit must be a number of seconds >= 0 (or None for no limit), not {s}"
            ))
        }),
        None => Ok(None),
    }
}

fn options(
    seed: Option<&Bound<'_, PyAny>>,
    restarts: bool,
    node_limit: Option<&Bound<'_, PyAny>>,
    seconds: Option<f64>,
) -> PyResult<Options> {
    Ok(Options {
        node_limit: node_limit.map(|l| natural(l, "node_limit")).transpose()?,
        time_limit: time_limit(seconds)?,
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
    time_limit: Option<f64>,
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

/// What the search thread of a [`CompletionIter`] hands over: a block of completions (their
/// columns, row after row), or the end of the search with its status and statistics.
enum Found {
    Block(Vec<u32>),
    End(Status, u64, Stats),
}

/// The lazy iterator of `complete(..., all=True)`: the solver's search on a thread of its own,
/// handing over one block of completions at a time through a channel that holds none, so the
/// search runs at most one block ahead of the caller and waits there. Dropping the iterator
/// stops the search.
#[pyclass(module = "nqueens._nqueens")]
pub(crate) struct CompletionIter {
    n: usize,
    k: usize,
    from_search: Option<Mutex<Receiver<Found>>>,
    to_search: Option<SyncSender<usize>>,
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
        time_limit: Option<f64>,
    ) -> PyResult<Self> {
        let (inst, conflict) = read_instance(instance, blocked)?;
        let options = options(seed, restarts, node_limit, time_limit)?;
        let n = inst.n();
        let stop = Arc::new(AtomicBool::new(false));
        let mut it = CompletionIter {
            n,
            k: 1,
            from_search: None,
            to_search: None,
            stop: stop.clone(),
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
        let (found_tx, found_rx) = sync_channel(0);
        let (ask_tx, ask_rx) = sync_channel::<usize>(1);
        let search = std::thread::Builder::new()
            .name("nqueens-complete".into())
            .spawn(move || search_all(&inst, options, &stop, &ask_rx, &found_tx))
            .map_err(|e| PyRuntimeError::new_err(format!("a search thread: {e}")))?;
        it.from_search = Some(Mutex::new(found_rx));
        it.to_search = Some(ask_tx);
        it.search = Some(search);
        Ok(it)
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next block of at most `k` completions: `(bytes, rows)`, the bytes of `rows` x `n`
    /// native `u32` columns (`rows` is 0 at the end). Waits for the search without the GIL,
    /// looking at Python's signals every 50 ms.
    fn batch<'py>(
        mut slf: PyRefMut<'py, Self>,
        py: Python<'py>,
        k: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, usize)> {
        slf.k = usize::try_from(positive(k, "batch")?).unwrap_or(usize::MAX);
        let this = &mut *slf;
        let n = this.n;
        let cols = this.next_block(py)?.unwrap_or_default();
        Ok((to_bytes(py, &cols)?, cols.len() / n.max(1)))
    }

    /// The next completion's columns as native `u32` bytes.
    fn __next__<'py>(
        mut slf: PyRefMut<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyBytes>>> {
        slf.k = 1;
        let cols = slf.next_block(py)?;
        cols.map(|c| to_bytes(py, &c)).transpose()
    }

    /// `(status, (nodes, failures, propagations, solutions, restarts, seconds))` once the
    /// search has ended, else `None`.
    fn end(&self) -> Option<(&'static str, StatsTuple)> {
        self.end
    }

    /// `(n, givens, blocked)`, 0-based, and the given queens' conflict if any.
    fn instance(&self) -> (InstanceTuple, Option<String>) {
        (self.instance.clone(), self.conflict.clone())
    }
}

impl CompletionIter {
    fn next_block(&mut self, py: Python<'_>) -> PyResult<Option<Vec<u32>>> {
        let (Some(ask), Some(from)) = (&self.to_search, &self.from_search) else {
            return Ok(None);
        };
        if ask.send(self.k).is_err() {
            return Ok(None);
        }
        loop {
            match py.detach(|| {
                from.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .recv_timeout(POLL)
            }) {
                Ok(Found::Block(cols)) => return Ok(Some(cols)),
                Ok(Found::End(status, found, stats)) => {
                    self.end = Some((status_name(status, found), stats_tuple(&stats)));
                    self.finish();
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        // The search waits for the block it was filling to be taken: the next
                        // call asks again and gets it.
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.finish();
                    return Ok(None);
                }
            }
        }
    }

    fn finish(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.to_search = None;
        self.from_search = None;
        if let Some(search) = self.search.take() {
            // The search sees the stop flag within CLOCK_EVERY nodes, or a closed channel.
            let _ = search.join();
        }
    }
}

impl Drop for CompletionIter {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The search of a [`CompletionIter`]: waits for a block size, fills a block of that many
/// completions, hands it over, and again, until the search ends or the iterator is gone.
fn search_all(
    inst: &Instance,
    options: Options,
    stop: &AtomicBool,
    ask: &Receiver<usize>,
    found: &SyncSender<Found>,
) {
    let Ok(solver) = Solver::try_new(inst, options) else {
        return;
    };
    let mut solver = solver.stop_when(stop);
    let n = inst.n();
    let Ok(mut want) = ask.recv() else { return };
    let mut block = Vec::new();
    let mut seen = 0u64;
    let status = solver.for_each(|p| {
        seen += 1;
        block.extend_from_slice(p.cols());
        if block.len() / n.max(1) < want {
            return ControlFlow::Continue(());
        }
        if found
            .send(Found::Block(std::mem::take(&mut block)))
            .is_err()
        {
            return ControlFlow::Break(());
        }
        match ask.recv() {
            Ok(k) => {
                want = k;
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(()),
        }
    });
    if !block.is_empty() {
        if found.send(Found::Block(block)).is_err() {
            return;
        }
        if ask.recv().is_err() {
            return;
        }
    }
    let _ = found.send(Found::End(status, seen, *solver.stats()));
}
