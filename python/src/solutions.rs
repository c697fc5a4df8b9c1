//! `solutions`: the library's listing, one solution or one block of them at a time.

use nqueens::solutions::{Solutions, UniqueSolutions};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::convert::{board_size, natural, to_bytes, value_error};

/// The lazy iterator of `solutions(n)`: the library's search, advanced one solution per
/// `__next__` and never further.
#[pyclass(module = "nqueens._nqueens")]
pub(crate) struct SolutionIter {
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
