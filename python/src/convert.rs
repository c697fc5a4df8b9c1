//! Arguments from Python as the library takes them: ints (numpy's too), board sizes, squares,
//! and the library's errors and columns on the way back.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt};

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

/// A board size: a natural number; 0 and sizes beyond a method's limit are left to the
/// library, whose messages say what the limit is and why.
pub(crate) fn board_size(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = natural(obj, "N")?;
    usize::try_from(n).map_err(|_| PyValueError::new_err(format!("N is too large: {n}")))
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".into(), |name| name.to_string())
}

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Columns as the bytes of native `u32`s, copied once: the package makes them an
/// `array('I')` (a `Placement`) or a numpy array without touching each column again.
pub(crate) fn to_bytes<'py>(py: Python<'py>, cols: &[u32]) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, std::mem::size_of_val(cols), |buf| {
        for (out, c) in buf.chunks_exact_mut(4).zip(cols) {
            out.copy_from_slice(&c.to_ne_bytes());
        }
        Ok(())
    })
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

/// A square given 0-based from Python: a pair of ints.
pub(crate) fn square(obj: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<(usize, usize)> {
    let (r, c): (Bound<'_, PyAny>, Bound<'_, PyAny>) = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be (row, column) pairs, not {}",
            type_name(obj)
        ))
    })?;
    on_board(n, &r, &c)
}
