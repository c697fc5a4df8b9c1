//! A placement's verdict and drawings: `defect`, `svg`, `board`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use nqueens::format::Format;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::columns::{self, Columns, read_columns};
use crate::convert::{natural, positive, squares, type_name};
use crate::interrupt::interruptible;

/// `None` if `columns` is a solution, else what is wrong, as `nqueens verify` says it.
#[pyfunction]
pub(crate) fn defect(py: Python<'_>, columns: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let cols = columns::columns(columns)?;
    if cols.cols.len() < columns::SIGNALS {
        // Milliseconds at most: a thread to watch for Ctrl-C would cost a hundred times the
        // verdict of a small board.
        return Ok(py.detach(|| cols.defect()));
    }
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

/// Pictures drawn in this process: each gets ids of its own, so that a page of many boards
/// (a notebook) never has two elements with one id, and hiding one board leaves the others'
/// squares and queens in place.
static PICTURES: AtomicU64 = AtomicU64::new(0);

/// The placement as an SVG picture of the chessboard (N up to 800): the library's picture,
/// with `size` pixels a side instead of its own, the queens of `free` rows (given as `None`
/// or -1) left out, a red cross on each `blocked` square (0-based `(row, col)` pairs or a
/// mask), the queens of the `given` rows on a blue square (an instance's given queens), ids
/// of its own, and `title` (escaped) or "K queens on an NxN board" as its title.
#[pyfunction]
#[pyo3(signature = (columns, *, size=None, blocked=None, given=None, title=None))]
pub(crate) fn svg(
    columns: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    blocked: Option<&Bound<'_, PyAny>>,
    given: Option<&Bound<'_, PyAny>>,
    title: Option<&str>,
) -> PyResult<String> {
    let cols = read_columns(columns, true)?;
    let n = cols.cols.len();
    // The picture's bound first, which bounds the squares and rows read next.
    Format::Svg
        .check(n)
        .map_err(|e| PyValueError::new_err(format!("{e}, not {n}")))?;
    let free = cols.free.clone();
    let size = size.map(|s| positive(s, "size")).transpose()?;
    if let Some(px) = size
        && px > 10_000
    {
        return Err(PyValueError::new_err(format!(
            "size must be from 1 to 10000 pixels, not {px}"
        )));
    }
    let squares = blocked.map_or(Ok(Vec::new()), |b| squares(b, n, "blocked"))?;
    let mut given_rows = Vec::new();
    if let Some(given) = given {
        // Text is an iterable of letters, no rows.
        let rows = match given.try_iter() {
            Ok(rows) if !given.is_instance_of::<PyString>() => rows,
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "given must be rows (an iterable of ints), not {}",
                    type_name(given)
                )));
            }
        };
        for r in rows {
            // More than n rows cannot be distinct: an endless iterator is refused there.
            if given_rows.len() == n {
                return Err(PyValueError::new_err(format!(
                    "more than {n} given rows for a {n}x{n} board"
                )));
            }
            let r = natural(&r?, "a given row")?;
            match usize::try_from(r) {
                Ok(r) if r < n && !free.contains(&r) => given_rows.push(r),
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "given row {} holds no queen of the {n}x{n} board",
                        r.saturating_add(1)
                    )));
                }
            }
        }
    }
    let picture = drawn(cols, Format::Svg)?;
    let id = PICTURES.fetch_add(1, Ordering::Relaxed);
    let title = title.map_or_else(
        || {
            let k = n - free.len();
            let queens = if k == 1 { "queen" } else { "queens" };
            if free.is_empty() {
                format!("{k} {queens}")
            } else {
                format!("{k} {queens} on a {n}x{n} board")
            }
        },
        escape,
    );
    // Thin glue until the library's picture takes these options: its lines are one element
    // each, the first the <svg> element with the size, then the title, one <use> per queen.
    let mut out = String::with_capacity(picture.len() + 64 * (squares.len() + given_rows.len()));
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
        if line.starts_with("<title>") {
            out.push_str(&format!("<title>{title}</title>\n"));
            continue;
        }
        if line.starts_with("<use href=\"#queen\"")
            && free
                .iter()
                .any(|r| line.ends_with(&format!(" y=\"{r}\"/>")))
        {
            continue;
        }
        if line.starts_with("<use href=\"#queen\"") && !given_rows.is_empty() {
            // The given queens' squares go under the first queen drawn.
            for r in std::mem::take(&mut given_rows) {
                let c = picture_col(&picture, r);
                out.push_str(&format!(
                    "<rect x=\"{c}\" y=\"{r}\" width=\"1\" height=\"1\" fill=\"#6d9eeb\"/>\n"
                ));
            }
        }
        if line == "</svg>" {
            for (r, c) in &squares {
                out.push_str(&format!(
                    "<path d=\"M{c}.2 {r}.2 l0.6 0.6 m0 -0.6 l-0.6 0.6\" stroke=\"#c00\" stroke-width=\"0.08\"/>\n"
                ));
            }
        }
        out.push_str(
            &line
                .replace("\"squares\"", &format!("\"squares-{id}\""))
                .replace("#squares)", &format!("#squares-{id})"))
                .replace("\"queen\"", &format!("\"queen-{id}\""))
                .replace("\"#queen\"", &format!("\"#queen-{id}\"")),
        );
        out.push('\n');
    }
    Ok(out)
}

/// The column of the queen the library's picture draws in row `r`.
fn picture_col(picture: &str, r: usize) -> usize {
    let row = format!(" y=\"{r}\"/>");
    picture
        .lines()
        .filter(|l| l.starts_with("<use href=\"#queen\"") && l.ends_with(&row))
        .find_map(|l| {
            let x = l.split(" x=\"").nth(1)?;
            x.split('"').next()?.parse().ok()
        })
        .unwrap_or(0)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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
