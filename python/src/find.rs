//! `find`: one solution for any `n`, through the library's [`Finder`].

use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::large::{Construction, FindError, Finder, How};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::{board_size, natural, out_of_memory, to_bytes, value_error};
use crate::interrupt::{interruptible, is_interrupt};

/// Rows written between two looks at the stop flag: 10^9 queens stop within milliseconds.
const ROWS: usize = 1 << 20;

/// One solution for `n` as the bytes of its columns (native `u32`), or `None` when there is
/// none (N = 2, 3): the construction, or min-conflicts from `seed` when `random` is set.
///
/// The construction writes its columns straight into the bytes the `Placement` keeps, so the
/// call needs the 4 bytes a queen that [`Finder::check`] counts, and no copy beside them.
#[pyfunction]
#[pyo3(signature = (n, *, random=false, seed=None, max_memory=None))]
pub(crate) fn find<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    random: bool,
    seed: Option<&Bound<'py, PyAny>>,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let n = board_size(n)?;
    let seed = seed.map(|s| natural(s, "seed")).transpose()?.unwrap_or(0);
    let mut finder = Finder::new(n as u64);
    if random {
        finder = finder.random(seed);
    }
    if let Some(m) = max_memory {
        finder = finder.max_memory(natural(m, "max_memory")?);
    }
    match finder.check() {
        Ok(_) => {}
        Err(FindError::NoSolution { .. }) => return Ok(None),
        Err(e @ FindError::Memory { .. }) => {
            return Err(PyValueError::new_err(format!(
                "{e}: see the max_memory argument"
            )));
        }
        Err(e) => return Err(value_error(e)),
    }
    let stop = AtomicBool::new(false);
    if matches!(finder.how(), How::Construction)
        && let Some(c) = Construction::new(n)
    {
        return constructed(py, &c, &stop).map(Some);
    }
    let found = match interruptible(py, &stop, || finder.find_unless_stopped(&stop), || Ok(())) {
        (_, Some(e)) if !is_interrupt(py, &e) => return Err(e),
        (found, _) => found,
    };
    match found {
        Ok(p) => to_bytes(py, p.cols()).map(Some),
        Err(FindError::NoSolution { .. }) => Ok(None),
        Err(e @ FindError::OutOfMemory { .. }) => Err(PyMemoryError::new_err(e.to_string())),
        Err(e @ FindError::Stopped) => Err(PyKeyboardInterrupt::new_err(format!(
            "finding {n} queens: {e}"
        ))),
        Err(e) => Err(value_error(e)),
    }
}

/// The construction's columns written into new bytes without the GIL, a million rows between
/// two looks at `stop` (which Ctrl-C sets).
fn constructed<'py>(
    py: Python<'py>,
    c: &Construction,
    stop: &AtomicBool,
) -> PyResult<Bound<'py, PyBytes>> {
    let n = c.n();
    let len = n
        .checked_mul(4)
        .and_then(|len| isize::try_from(len).ok())
        .ok_or_else(|| PyMemoryError::new_err(format!("{n} queens: too many for one buffer")))?;
    // SAFETY: a null pointer asks for new, uninitialised bytes of `len`; a failed allocation
    // is a null result, which `from_owned_ptr_or_err` turns into Python's MemoryError.
    let bytes = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            pyo3::ffi::PyBytes_FromStringAndSize(std::ptr::null(), len),
        )
    }
    .map_err(|e| out_of_memory(py, e, n))?
    .cast_into::<PyBytes>()?;
    // SAFETY: the bytes are new and no other reference to them exists until this function
    // returns them, so writing into their `len` bytes (CPython's idiom for filling a new bytes
    // object) races with nothing; `PyBytes_AsString` of a bytes object is its buffer.
    let buf = unsafe {
        std::slice::from_raw_parts_mut(
            pyo3::ffi::PyBytes_AsString(bytes.as_ptr()).cast::<u8>(),
            n * 4,
        )
    };
    if n < ROWS {
        // Milliseconds at most: no thread to watch for Ctrl-C, which would cost more.
        fill_rows(buf, c, 0);
        return Ok(bytes);
    }
    let fill = || {
        for (block, chunk) in buf.chunks_mut(4 * ROWS).enumerate() {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            fill_rows(chunk, c, block * ROWS);
        }
        true
    };
    match interruptible(py, stop, fill, || Ok(())) {
        (true, None) => Ok(bytes),
        (_, Some(e)) if !is_interrupt(py, &e) => Err(e),
        _ => Err(PyKeyboardInterrupt::new_err(format!(
            "finding {n} queens: {}",
            FindError::Stopped
        ))),
    }
}

/// The construction's columns of the rows from `start` on, as native `u32` bytes into `out`.
fn fill_rows(out: &mut [u8], c: &Construction, start: usize) {
    for (i, col) in out.chunks_exact_mut(4).enumerate() {
        col.copy_from_slice(&c.col(start + i).to_ne_bytes());
    }
}
