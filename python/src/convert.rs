//! Arguments from Python as the library takes them: ints (numpy's too), board sizes, squares,
//! and the library's errors and columns on the way back.

use std::time::{Duration, Instant};

use pyo3::PyClass;
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString};

/// `obj` as a Python int: an int itself, or what its `__index__` gives (numpy's integer
/// scalars); `None` for a `bool` (an int to Python, never a size or a column here) and for
/// what has no `__index__`.
pub(crate) fn as_int<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
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
    // numpy's bools (a scalar, a 0-d array) are not ints either, though numpy before 2.1 gives
    // them an `__index__` that answers (with a warning).
    if let Ok(dtype) = obj.getattr(intern!(py, "dtype"))
        && dtype
            .getattr(intern!(py, "kind"))
            .is_ok_and(|kind| kind.eq("b").unwrap_or(false))
    {
        return Ok(None);
    }
    match obj.call_method0(intern!(py, "__index__")) {
        Ok(i) if i.is_instance_of::<PyInt>() && !i.is_instance_of::<PyBool>() => Ok(Some(i)),
        Ok(_) => Ok(None),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => Ok(None),
        Err(e) => Err(e),
    }
}

/// An integer argument as a `u64`: `TypeError` for what is not an int (a `bool` neither;
/// anything with `__index__`, such as `numpy.int64(8)`, is one), `ValueError` for a negative
/// or too large one.
pub(crate) fn natural(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
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

/// An integer argument that must be at least 1 (a count of threads, steps, pixels, rows):
/// `natural`, with 0 and negative numbers refused alike, as "at least 1".
pub(crate) fn positive(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    match natural(obj, what) {
        Ok(0) => Err(PyValueError::new_err(format!(
            "{what} must be at least 1, not 0"
        ))),
        Err(e) if e.is_instance_of::<PyValueError>(obj.py()) && is_negative(obj) => {
            Err(PyValueError::new_err(format!(
                "{what} must be at least 1, not {}",
                as_int(obj)
                    .ok()
                    .flatten()
                    .map_or_else(|| "?".into(), |i| i.to_string())
            )))
        }
        other => other,
    }
}

fn is_negative(obj: &Bound<'_, PyAny>) -> bool {
    as_int(obj)
        .ok()
        .flatten()
        .and_then(|i| i.lt(0).ok())
        .unwrap_or(false)
}

/// A board size: a natural number; a negative one is refused as "at least 1", as every
/// method's limit starts there; 0 and sizes beyond a method's limit are left to the library,
/// whose messages say what the limit is and why.
pub(crate) fn board_size(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    if is_negative(obj) {
        return positive(obj, "N").map(|_| 0);
    }
    let n = natural(obj, "N")?;
    usize::try_from(n).map_err(|_| PyValueError::new_err(format!("N is too large: {n}")))
}

/// Whether `obj` is a bool: Python's, or numpy's (a scalar, a 0-d array), which numpy before
/// 2.1 lets pass for an int and every numpy lets pass for a float.
fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyBool>()
        || obj.getattr(intern!(obj.py(), "dtype")).is_ok_and(|dtype| {
            dtype
                .getattr(intern!(obj.py(), "kind"))
                .is_ok_and(|kind| kind.eq("b").unwrap_or(false))
        })
}

/// A `time_limit` argument as Python gives it: `None`, or a number of seconds (an int, a
/// float, anything with `__float__`), never a `bool` (`True` is no number of seconds, though
/// Python takes it for 1), nor text.
pub(crate) fn seconds(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<f64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let not_seconds = || {
        PyTypeError::new_err(format!(
            "time_limit must be a number of seconds (or None for no limit), not {}",
            type_name(obj)
        ))
    };
    if is_bool(obj) || obj.is_instance_of::<PyString>() {
        return Err(not_seconds());
    }
    match obj.extract::<f64>() {
        Ok(s) => Ok(Some(s)),
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Err(not_seconds()),
        Err(e) => Err(e),
    }
}

/// A `time_limit` argument in seconds: `None` (and infinity, and a limit beyond what a
/// `Duration` holds, some 585 billion years, or than the clock can add) is no limit; a negative
/// or NaN one is refused.
pub(crate) fn time_limit(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_nan() || s < 0.0 => Err(PyValueError::new_err(format!(
            "time_limit must be a number of seconds >= 0 (or None for no limit), not {s:?}"
        ))),
        Some(s) => Ok(Duration::try_from_secs_f64(s)
            .ok()
            .filter(|d| Instant::now().checked_add(*d).is_some())),
    }
}

/// The iterator `slf` (`what`, as a user knows it) borrowed for one call that changes it.
/// Such a call waits without the GIL, so another Python thread may call the same iterator
/// meanwhile: refused with a `RuntimeError` that says so, not PyO3's "Already borrowed".
pub(crate) fn one_thread<'py, T>(slf: &Bound<'py, T>, what: &str) -> PyResult<PyRefMut<'py, T>>
where
    T: PyClass<Frozen = pyo3::pyclass::boolean_struct::False>,
{
    slf.try_borrow_mut().map_err(|_| busy(what))
}

/// The iterator `slf` borrowed for a call that only reads it: refused, as [`one_thread`]
/// refuses, while another thread's call is changing it.
pub(crate) fn read_only<'py, T: PyClass>(
    slf: &Bound<'py, T>,
    what: &str,
) -> PyResult<PyRef<'py, T>> {
    slf.try_borrow().map_err(|_| busy(what))
}

fn busy(what: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "{what} is used by one thread at a time: another thread is taking from it now (give \
         each thread its own, or share it under a lock)"
    ))
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".into(), |name| name.to_string())
}

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Columns as the bytes of native `u32`s, copied once: the package makes them a `Placement`
/// or a numpy array without touching each column again. Bytes that cannot be allocated are a
/// `MemoryError` that says how many (Python's own says nothing).
pub(crate) fn to_bytes<'py>(py: Python<'py>, cols: &[u32]) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, std::mem::size_of_val(cols), |buf| {
        for (out, c) in buf.chunks_exact_mut(4).zip(cols) {
            out.copy_from_slice(&c.to_ne_bytes());
        }
        Ok(())
    })
    .map_err(|e| out_of_memory(py, e, cols.len()))
}

/// `e`, or where it is a `MemoryError` without a message, one that says what could not be
/// allocated: `columns` columns of 4 bytes.
pub(crate) fn out_of_memory(py: Python<'_>, e: PyErr, columns: usize) -> PyErr {
    if e.is_instance_of::<PyMemoryError>(py) && e.value(py).to_string().is_empty() {
        let bytes = u64::try_from(columns).unwrap_or(u64::MAX).saturating_mul(4);
        PyMemoryError::new_err(format!(
            "{columns} columns of 4 bytes ({}) could not be allocated",
            nqueens::memory::human(bytes)
        ))
    } else {
        e
    }
}

/// An int as messages show rows and columns: 1-based, computed by Python for ints of any size.
pub(crate) fn one_based(v: &Bound<'_, PyAny>) -> String {
    v.add(1)
        .and_then(|v| v.str().map(|s| s.to_string()))
        .unwrap_or_else(|_| "?".into())
}

/// `(row, col)` given 0-based from Python, if both are on the board.
pub(crate) fn on_board(
    n: usize,
    r: &Bound<'_, PyAny>,
    c: &Bound<'_, PyAny>,
) -> PyResult<(usize, usize)> {
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

/// A square given 0-based from Python: a pair of ints, as a tuple, a list or a numpy row.
pub(crate) fn square(obj: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<(usize, usize)> {
    let not_a_pair = || {
        PyTypeError::new_err(format!(
            "{what} must be (row, column) pairs or an N x N mask of bools, not {}",
            type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyString>() {
        return Err(not_a_pair());
    }
    let pair: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .map_err(|_| not_a_pair())?
        .take(3)
        .collect::<PyResult<_>>()?;
    match pair.as_slice() {
        [r, c] => on_board(n, r, c),
        _ => Err(not_a_pair()),
    }
}

/// Squares given 0-based from Python: `(row, col)` pairs (tuples, lists, the rows of a
/// `(K, 2)` numpy array such as `numpy.argwhere(mask)`), or an `n` x `n` mask of bools (a
/// numpy array or nested lists), `True` on each square meant.
pub(crate) fn squares(
    obj: &Bound<'_, PyAny>,
    n: usize,
    what: &str,
) -> PyResult<Vec<(usize, usize)>> {
    let py = obj.py();
    // A numpy array as nested lists of Python ints or bools: one conversion for all its rows.
    let obj = if obj.hasattr(intern!(py, "ndim"))? && obj.hasattr(intern!(py, "tolist"))? {
        obj.call_method0(intern!(py, "tolist"))?
    } else {
        obj.clone()
    };
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be (row, column) pairs or an N x N mask of bools, not str"
        )));
    }
    // More than n * n pairs cannot name distinct squares: an endless iterator is refused
    // there, not followed.
    let rows: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must be (row, column) pairs or an N x N mask of bools, not {}",
                type_name(&obj)
            ))
        })?
        .take(n * n + 1)
        .collect::<PyResult<_>>()?;
    if rows.len() > n * n {
        return Err(PyValueError::new_err(format!(
            "more than {} {what} for a {n} x {n} board",
            n * n
        )));
    }
    // A mask's first row is bools only, where a pair has an int (a pair holding a bool is
    // then refused as a pair, naming the bool).
    let first_is_bool = match rows.first() {
        Some(row) if !row.is_instance_of::<PyString>() => row.try_iter().is_ok_and(|items| {
            let items: Vec<_> = items.take(n + 1).collect();
            !items.is_empty()
                && items
                    .iter()
                    .all(|v| v.as_ref().is_ok_and(|v| v.is_instance_of::<PyBool>()))
        }),
        _ => false,
    };
    if !first_is_bool {
        return rows.iter().map(|sq| square(sq, n, what)).collect();
    }
    let mut out = Vec::new();
    if rows.len() != n {
        return Err(PyValueError::new_err(format!(
            "a {what} mask must be {n} x {n} for this board, not {} rows",
            rows.len()
        )));
    }
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<Bound<'_, PyAny>> = row.try_iter()?.take(n + 1).collect::<PyResult<_>>()?;
        if cells.len() != n {
            return Err(PyValueError::new_err(format!(
                "a {what} mask must be {n} x {n} for this board: row {} has {} squares",
                r + 1,
                cells.len()
            )));
        }
        for (c, cell) in cells.iter().enumerate() {
            if !cell.is_instance_of::<PyBool>() {
                return Err(PyTypeError::new_err(format!(
                    "a {what} mask holds bools, not {}",
                    type_name(cell)
                )));
            }
            if cell.is_truthy()? {
                out.push((r, c));
            }
        }
    }
    Ok(out)
}
