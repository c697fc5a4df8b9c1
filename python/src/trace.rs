//! `trace`: the steps of one ladder algorithm's search, as JSON Lines or the HTML player.

use nqueens::algo::Algo;
use nqueens::trace as steps;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::convert::{board_size, positive, value_error};

/// The steps of `algo`'s search for `n`, as `nqueens trace N --algo ALGO --format json`
/// writes them (JSON Lines: a header, a line per step, a summary), or as the library's
/// self-contained HTML player with `html`. At most `limit` steps; without one, a search longer
/// than the player holds ([`steps::html::MAX_STEPS`]) is refused. Python keeps the JSON
/// lines and reads a step when it is asked for, so it holds as many steps as the player (the
/// command line's text and JSON formats stop at [`steps::MAX_STEPS`], a few seconds to
/// write).
#[pyfunction]
#[pyo3(signature = (n, *, algo, limit=None, html=false))]
pub(crate) fn trace(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    algo: &str,
    limit: Option<&Bound<'_, PyAny>>,
    html: bool,
) -> PyResult<String> {
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
    let mut out = Vec::new();
    if html {
        steps::html::write(&mut out, &t)
    } else {
        steps::json::write(&mut out, &t)
    }
    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    String::from_utf8(out).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}
