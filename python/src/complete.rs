//! `complete`: the constraint solver on an instance given as text, rows or columns.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use nqueens::cp::{Instance, InstanceError, Options, Solver, Stats, Status};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::convert::{as_int, natural, on_board, square, type_name, value_error};
use crate::interrupt::{interruptible, is_interrupt};

fn instance_error(e: InstanceError) -> PyErr {
    value_error(e)
}

/// The instance given to `complete`: a text in one of the command line's forms, the rows of
/// a drawing, or a column (or `None`) per row; plus blocked squares.
fn read_instance(
    given: &Bound<'_, PyAny>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<Instance> {
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
    let inst = read_instance(instance, blocked)?;
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
