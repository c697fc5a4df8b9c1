//! `trace`: the steps of one ladder algorithm's search, as columns, JSON Lines or the HTML
//! player.

use nqueens::algo::Algo;
use nqueens::observe::{Reason, Step};
use nqueens::trace::{self as steps, Trace};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::{board_size, positive, value_error};

/// `algo`'s search for `n` recorded: at most `limit` steps; without one, a search longer than
/// the player holds ([`steps::html::MAX_STEPS`]) is refused. Python holds as many steps as the
/// player (the command line's text and JSON formats stop at [`steps::MAX_STEPS`], a few
/// seconds to write).
fn recorded(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    algo: &str,
    limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Trace> {
    let n = board_size(n)?;
    let algo: Algo = algo.parse().map_err(value_error)?;
    algo.check_listing(n).map_err(value_error)?;
    let max = steps::html::MAX_STEPS;
    let limit = limit.map(|k| positive(k, "limit")).transpose()?;
    let steps = match limit {
        Some(k) if k > max as u64 => {
            return Err(PyValueError::new_err(format!(
                "limit={k} is more than a trace holds (at most {max} steps, as the player)"
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
            "the search of {algo} for N = {n} takes more than {max} steps, more than a trace \
             holds; ask for its first K steps with limit=K"
        )));
    }
    Ok(t)
}

/// The steps of `algo`'s search for `n` as `nqueens trace N --algo ALGO --format json` writes
/// them (JSON Lines: a header, a line per step, a summary), or as the library's
/// self-contained HTML player with `html`.
#[pyfunction]
#[pyo3(signature = (n, *, algo, limit=None, html=false))]
pub(crate) fn trace(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    algo: &str,
    limit: Option<&Bound<'_, PyAny>>,
    html: bool,
) -> PyResult<String> {
    let t = recorded(py, n, algo, limit)?;
    let mut out = Vec::new();
    if html {
        steps::html::write(&mut out, &t)
    } else {
        steps::json::write(&mut out, &t)
    }
    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    String::from_utf8(out).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// A trace as columns, a value a step each, 0-based: `(events, rows, cols, reasons, flags,
/// checks, boards, summary)`. `events` and `reasons` are bytes of codes (the orders of
/// [`EVENTS`] and [`REASONS`]; reason 0 is none), `rows` and `cols` native `i32`s (-1 where
/// the step has none), `flags` bytes (1 forced, 2 image), `checks` native `u64`s (the square
/// checks up to the step), `boards` the `(step index, columns)` of each solution and
/// duplicate, `summary` `(complete, steps, nodes, checks, solutions)`.
type TraceColumns<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Vec<(usize, Vec<u32>)>,
    (bool, usize, usize, u64, usize),
);

/// The events' names, in the order of their codes.
const EVENTS: [&str; 6] = [
    "place",
    "reject",
    "remove",
    "dead_end",
    "solution",
    "duplicate",
];

/// The reasons' names, in the order of their codes from 1.
const REASONS: [&str; 5] = [
    "column",
    "diagonal",
    "anti_diagonal",
    "propagation",
    "symmetry",
];

/// The steps of `algo`'s search for `n` as columns ([`TraceColumns`]), the steps of `trace`'s
/// JSON without a line to write or parse for each: the package reads a step from them when
/// asked, and numpy and pandas take them whole.
#[pyfunction]
#[pyo3(signature = (n, *, algo, limit=None))]
pub(crate) fn trace_columns<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    algo: &str,
    limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<TraceColumns<'py>> {
    let t = recorded(py, n, algo, limit)?;
    let len = t.events.len();
    let (mut events, mut reasons, mut flags) = (
        Vec::with_capacity(len),
        Vec::with_capacity(len),
        Vec::with_capacity(len),
    );
    let (mut rows, mut cols) = (Vec::with_capacity(len * 4), Vec::with_capacity(len * 4));
    let mut checks = Vec::with_capacity(len * 8);
    let mut boards = Vec::new();
    let at = |v: usize| i32::try_from(v).unwrap_or(-1);
    for (i, event) in t.events.iter().enumerate() {
        let (code, row, col, reason, flag) = match *event {
            Step::Place { row, col, forced } => (0, at(row), at(col), 0, u8::from(forced)),
            Step::Reject { row, col, reason } => (1, at(row), at(col), reason_code(reason), 0),
            Step::Remove { row, col } => (2, at(row), at(col), 0, 0),
            Step::DeadEnd { row } => (3, row.map_or(-1, at), -1, 0, 0),
            Step::Solution { ref cols, image } => {
                boards.push((i, cols.clone()));
                (4, -1, -1, 0, 2 * u8::from(image))
            }
            Step::Duplicate { ref cols } => {
                boards.push((i, cols.clone()));
                (5, -1, -1, 0, 0)
            }
        };
        events.push(code);
        reasons.push(reason);
        flags.push(flag);
        rows.extend_from_slice(&row.to_ne_bytes());
        cols.extend_from_slice(&col.to_ne_bytes());
        let done = t.checks_at.get(i).copied().unwrap_or(t.checks);
        checks.extend_from_slice(&done.to_ne_bytes());
    }
    let summary = (
        t.complete,
        len,
        t.placements(),
        t.checks,
        t.solutions().count(),
    );
    Ok((
        PyBytes::new(py, &events),
        PyBytes::new(py, &rows),
        PyBytes::new(py, &cols),
        PyBytes::new(py, &reasons),
        PyBytes::new(py, &flags),
        PyBytes::new(py, &checks),
        boards,
        summary,
    ))
}

fn reason_code(reason: Reason) -> u8 {
    match reason {
        Reason::Column => 1,
        Reason::Diagonal => 2,
        Reason::AntiDiagonal => 3,
        Reason::Propagation => 4,
        Reason::Symmetry => 5,
    }
}

/// The names of the codes of [`trace_columns`]: `(events, reasons)`.
#[pyfunction]
pub(crate) fn trace_names() -> (Vec<&'static str>, Vec<&'static str>) {
    (EVENTS.to_vec(), REASONS.to_vec())
}
