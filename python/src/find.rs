//! `find`: one solution for any `n`, through the library's [`Finder`].

use std::sync::atomic::AtomicBool;

use nqueens::large::{FindError, Finder};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::{board_size, natural, to_bytes, value_error};
use crate::interrupt::{interruptible, is_interrupt};

/// One solution for `n` as the bytes of its columns (native `u32`), or `None` when there is
/// none (N = 2, 3): the construction, or min-conflicts from `seed` when `random` is set.
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
