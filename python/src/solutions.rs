//! `solutions`: the library's listing, one solution or one block of them at a time.

use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::solutions::{Solutions, UniqueSolutions};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::{board_size, one_thread, positive, read_only, to_bytes, value_error};
use crate::interrupt::interruptible;

/// What a user calls a [`SolutionIter`], in the message for two threads at once.
const SOLUTIONS: &str = "a solutions() iterator";

/// The lazy iterator of `solutions(n)`: the library's search, advanced one solution per
/// `__next__` and never further.
#[pyclass(module = "nqueens._nqueens")]
pub(crate) struct SolutionIter {
    n: usize,
    listing: Listing,
    /// Columns of solutions taken for a block that Ctrl-C cut short: the next block's start.
    pending: Vec<u32>,
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
        Ok(SolutionIter {
            n,
            listing,
            pending: Vec::new(),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next solution's columns as the bytes of native `u32`s, which a `Placement` keeps
    /// without another copy.
    fn __next__<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let mut slf = one_thread(slf, SOLUTIONS)?;
        let listing = &mut slf.listing;
        let next = py.detach(move || match listing {
            Listing::All(it) => it.next(),
            Listing::Unique(it) => it.next(),
        });
        next.map(|p| to_bytes(py, p.cols())).transpose()
    }

    /// `k` as a block size ([`SolutionIter::check`]): `solutions(n, batch=k)` asks before the
    /// first block.
    fn check_batch(slf: &Bound<'_, Self>, k: &Bound<'_, PyAny>) -> PyResult<usize> {
        read_only(slf, SOLUTIONS)?.check(k)
    }

    /// Up to `k` next solutions as one block: `(bytes, rows)`, the bytes of `rows` x `n`
    /// native `u32` columns, row after row (`rows` is 0 at the end). Ctrl-C stops the filling
    /// within milliseconds; the solutions already taken wait for the next block.
    fn batch<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        k: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, usize)> {
        let mut slf = one_thread(slf, SOLUTIONS)?;
        let k = slf.check(k)?;
        let this = &mut *slf;
        let n = this.n;
        let listing = &mut this.listing;
        let mut cols = std::mem::take(&mut this.pending);
        let stop = AtomicBool::new(false);
        let (filled, interrupted) = interruptible(
            py,
            &stop,
            || {
                let mut rows = cols.len() / n.max(1);
                while rows < k && !stop.load(Ordering::Relaxed) {
                    let next = match listing {
                        Listing::All(it) => it.next(),
                        Listing::Unique(it) => it.next(),
                    };
                    let Some(p) = next else { break };
                    if let Err(e) = cols.try_reserve(p.n()) {
                        return Err((e, rows));
                    }
                    cols.extend_from_slice(p.cols());
                    rows += 1;
                }
                Ok(rows)
            },
            || Ok(()),
        );
        if let Some(e) = interrupted {
            this.pending = cols;
            return Err(e);
        }
        let rows = filled.map_err(|(e, rows)| {
            PyMemoryError::new_err(format!(
                "a block of {rows} solutions: {e} (ask for a smaller batch)"
            ))
        })?;
        Ok((to_bytes(py, &cols)?, rows))
    }
}

impl SolutionIter {
    /// `k` as a block size: at least 1, and a block that fits in memory by the library's rule
    /// ([`nqueens::memory::limit`]), counting only the solutions there are where they are
    /// published.
    fn check(&self, k: &Bound<'_, PyAny>) -> PyResult<usize> {
        let k = positive(k, "batch")?;
        let n = self.n as u64;
        let there = nqueens::reference::published(self.n).map_or(u128::MAX, |(all, unique)| {
            match self.listing {
                Listing::All(_) => all,
                Listing::Unique(_) => unique,
            }
        });
        let rows = u128::from(k).min(there);
        // The block is built once as columns and copied once into the bytes numpy takes.
        let need = u64::try_from(rows.saturating_mul(u128::from(n) * 4 * 2)).unwrap_or(u64::MAX);
        let limit = nqueens::memory::limit(need, None);
        if need > limit {
            return Err(PyMemoryError::new_err(format!(
                "batch={k}: a block of {rows} solutions of {n} queens takes {}, more than the {} \
                 of memory available (ask for a smaller batch)",
                nqueens::memory::human(need),
                nqueens::memory::human(limit)
            )));
        }
        Ok(usize::try_from(k).unwrap_or(usize::MAX))
    }
}
