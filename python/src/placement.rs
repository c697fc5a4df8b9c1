//! A placement's verdict and drawings: `defect`, `svg`, `board`.

use std::sync::atomic::AtomicBool;

use nqueens::format::Format;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::columns::{self, Columns, read_columns};
use crate::convert::{natural, square};
use crate::interrupt::interruptible;

/// `None` if `columns` is a solution, else what is wrong, as `nqueens verify` says it.
#[pyfunction]
pub(crate) fn defect(py: Python<'_>, columns: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let cols = columns::columns(columns)?;
    let stop = AtomicBool::new(false);
    match interruptible(py, &stop, || cols.defect_unless_stopped(&stop), || Ok(())) {
        (Some(verdict), _) => Ok(verdict),
        (None, Some(e)) => Err(e),
        (None, None) => Err(PyKeyboardInterrupt::new_err("verifying: stopped")),
    }
}

fn drawn(columns: Columns, format: Format) -> PyResult<String> {
    let p = columns.on_board()?;
    format
        .check(p.n())
        .map_err(|e| PyValueError::new_err(format!("{e}, not {}", p.n())))?;
    let mut out = Vec::new();
    nqueens::format::write(&mut out, &p, format)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    String::from_utf8(out).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The placement as an SVG picture of the chessboard (N up to 800): the library's picture,
/// with `size` pixels a side instead of its own, the queens of `free` rows (given as `None`)
/// left out, and a red cross on each `blocked` square (0-based `(row, col)` pairs).
#[pyfunction]
#[pyo3(signature = (columns, *, size=None, blocked=None))]
pub(crate) fn svg(
    columns: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let cols = read_columns(columns, true)?;
    let n = cols.cols.len();
    let free = cols.free.clone();
    let size = size.map(|s| natural(s, "size")).transpose()?;
    if let Some(px) = size
        && !(1..=10_000).contains(&px)
    {
        return Err(PyValueError::new_err(format!(
            "size must be from 1 to 10000 pixels, not {px}"
        )));
    }
    let mut squares = Vec::new();
    if let Some(blocked) = blocked {
        for sq in blocked.try_iter()? {
            squares.push(square(&sq?, n, "blocked")?);
        }
    }
    let picture = drawn(cols, Format::Svg)?;
    // Thin glue until the library's picture takes these options: its lines are one element
    // each, the first the <svg> element with the size, one <use> per queen.
    let mut out = String::with_capacity(picture.len() + 64 * squares.len());
    for (i, line) in picture.lines().enumerate() {
        if i == 0
            && let Some(px) = size
        {
            let side = format!("width=\"{px}\" height=\"{px}\"");
            let start = line.find(" width=\"").map_or(0, |s| s + 1);
            let end = line.find(" viewBox").unwrap_or(start);
            out.push_str(&line[..start]);
            out.push_str(&side);
            out.push_str(&line[end..]);
            out.push('\n');
            continue;
        }
        if line.starts_with("<use href=\"#queen\"")
            && free
                .iter()
                .any(|r| line.ends_with(&format!(" y=\"{r}\"/>")))
        {
            continue;
        }
        if line == "</svg>" {
            for (r, c) in &squares {
                out.push_str(&format!(
                    "<path d=\"M{c}.2 {r}.2 l0.6 0.6 m0 -0.6 l-0.6 0.6\" stroke=\"#c00\" stroke-width=\"0.08\"/>\n"
                ));
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// The placement drawn with `Q` and `.`, one row per line (N up to 1000).
#[pyfunction]
pub(crate) fn board(columns: &Bound<'_, PyAny>) -> PyResult<String> {
    drawn(columns::columns(columns)?, Format::Board).map(|mut s| {
        // The format's blank line separates placements in a stream; one alone needs none.
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    })
}
