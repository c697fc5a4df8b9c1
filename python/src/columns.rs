//! Columns read from Python (sequences of ints, buffers), and what the library says of them.

use std::sync::atomic::AtomicBool;

use nqueens::Placement;
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView, PyString};

use crate::convert::{as_int, one_based, type_name};

/// Columns read from Python: any one-dimensional buffer of integers (an `array.array`, a
/// numpy array of any integer dtype), read from one copy of its bytes without a Python object
/// per column, or any iterable of ints (anything with `__index__`). A value outside `0..n`
/// becomes `u32::MAX`, which the library reports as off the board; `bad` keeps each such row
/// with its column as given (1-based, as messages show columns; computed by Python for ints
/// of any size). With `free_rows`, `None` or `-1` (numpy's way, in an integer array) marks a
/// row without a queen (drawing a partial board); its column is 0 and its row is listed in
/// `free`.
pub(crate) struct Columns {
    pub(crate) cols: Vec<u32>,
    bad: Vec<(usize, String)>,
    pub(crate) free: Vec<usize>,
}

/// Columns read between two looks at Python's signals: Ctrl-C stops reading 10^9 columns
/// within milliseconds, at no cost worth measuring.
pub(crate) const SIGNALS: usize = 1 << 20;

pub(crate) fn columns(obj: &Bound<'_, PyAny>) -> PyResult<Columns> {
    read_columns(obj, false)
}

pub(crate) fn read_columns(obj: &Bound<'_, PyAny>, free_rows: bool) -> PyResult<Columns> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "columns must be a sequence of ints, not str",
        ));
    }
    if let Ok(view) = PyMemoryView::from(obj) {
        return buffer_columns(&view, free_rows);
    }
    let mut bad = Vec::new();
    let mut free = Vec::new();
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "columns must be a sequence of ints, not {}",
            type_name(obj)
        ))
    })?;
    let mut given = Vec::new();
    for (r, item) in items.enumerate() {
        if r.is_multiple_of(SIGNALS) {
            obj.py().check_signals()?;
        }
        let item = item?;
        room_for_one_more(&mut given)?;
        if free_rows && item.is_none() {
            free.push(r);
            given.push(None);
            continue;
        }
        let Some(int) = as_int(&item)? else {
            let what = if free_rows { "ints or None" } else { "ints" };
            return Err(PyTypeError::new_err(format!(
                "columns must be {what}, not {}",
                type_name(&item)
            )));
        };
        if free_rows && int.eq(-1)? {
            free.push(r);
            given.push(None);
            continue;
        }
        given.push(Some(int));
    }
    let n = given.len();
    let cols = given
        .iter()
        .enumerate()
        .map(|(r, item)| match item {
            None => Ok(0),
            Some(item) => match item.extract::<u32>() {
                Ok(c) if (c as usize) < n => Ok(c),
                _ => {
                    bad.push((r, one_based(item)));
                    Ok(u32::MAX)
                }
            },
        })
        .collect::<PyResult<_>>()?;
    Ok(Columns { cols, bad, free })
}

/// Room in `given` for one more row, or `MemoryError` once the rows read (an endless iterator's,
/// say) would take more memory than there is: without it, a failed allocation aborts the
/// interpreter. Each row costs its item here and its column (and, at worst, its message)
/// later: 16 bytes counted.
fn room_for_one_more<T>(given: &mut Vec<T>) -> PyResult<()> {
    if given.len() < given.capacity() {
        return Ok(());
    }
    let rows = given.len().saturating_mul(2).max(64);
    let need = u64::try_from(rows).unwrap_or(u64::MAX).saturating_mul(16);
    let limit = nqueens::memory::limit(need, None);
    let refused = if need > limit {
        format!(
            "more than the {} of memory available",
            nqueens::memory::human(limit)
        )
    } else if given.try_reserve_exact(rows - given.len()).is_err() {
        "which could not be allocated".to_owned()
    } else {
        return Ok(());
    };
    Err(PyMemoryError::new_err(format!(
        "columns: more than {} rows take {}, {refused}",
        given.len(),
        nqueens::memory::human(need)
    )))
}

/// The columns of a buffer: one copy of its bytes (`memoryview.tobytes`, which also gathers a
/// strided view), each item decoded by the format's size, sign and byte order.
fn buffer_columns(view: &Bound<'_, PyMemoryView>, free_rows: bool) -> PyResult<Columns> {
    let py = view.py();
    let format: String = view.getattr(intern!(py, "format"))?.extract()?;
    let ndim: usize = view.getattr(intern!(py, "ndim"))?.extract()?;
    let size: usize = view.getattr(intern!(py, "itemsize"))?.extract()?;
    let (big, code) = match format.as_bytes() {
        [b'>' | b'!', c] => (true, *c),
        [b'<' | b'=' | b'@', c] => (false, *c),
        [c] => (cfg!(target_endian = "big"), *c),
        _ => (false, b'?'),
    };
    let signed = match code {
        b'b' | b'h' | b'i' | b'l' | b'q' | b'n' => true,
        b'B' | b'H' | b'I' | b'L' | b'Q' | b'N' => false,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "columns must be ints, not a buffer of format {format:?}"
            )));
        }
    };
    if ndim != 1 {
        return Err(PyTypeError::new_err(format!(
            "columns must be one-dimensional, not a buffer of {ndim} dimensions"
        )));
    }
    if !matches!(size, 1 | 2 | 4 | 8) {
        return Err(PyTypeError::new_err(format!(
            "columns must be ints of 1, 2, 4 or 8 bytes, not {size}"
        )));
    }
    let bytes = view.call_method0(intern!(py, "tobytes")).map_err(|e| {
        if e.is_instance_of::<PyMemoryError>(py) && e.value(py).to_string().is_empty() {
            let len = view
                .getattr(intern!(py, "nbytes"))
                .and_then(|b| b.extract::<u64>())
                .unwrap_or(0);
            PyMemoryError::new_err(format!(
                "columns: a copy of the buffer's {} could not be allocated",
                nqueens::memory::human(len)
            ))
        } else {
            e
        }
    })?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    let n = bytes.len() / size;
    let mut cols = Vec::new();
    cols.try_reserve_exact(n)
        .map_err(|e| PyMemoryError::new_err(format!("{n} columns: {e}")))?;
    let mut bad = Vec::new();
    let mut free = Vec::new();
    for (r, item) in bytes.chunks_exact(size).enumerate() {
        if r.is_multiple_of(SIGNALS) {
            py.check_signals()?;
        }
        let mut raw = [0u8; 8];
        // Widen to 8 bytes, little-endian, extending the sign.
        let negative = signed && (if big { item[0] } else { item[size - 1] }) & 0x80 != 0;
        if negative {
            raw = [0xff; 8];
        }
        for (i, &byte) in item.iter().enumerate() {
            raw[if big { size - 1 - i } else { i }] = byte;
        }
        let v = if signed {
            i128::from(i64::from_le_bytes(raw))
        } else {
            i128::from(u64::from_le_bytes(raw))
        };
        match u32::try_from(v) {
            Ok(c) if (c as usize) < n => cols.push(c),
            _ if free_rows && v == -1 => {
                free.push(r);
                cols.push(0);
            }
            _ => {
                bad.push((r, (v + 1).to_string()));
                cols.push(u32::MAX);
            }
        }
    }
    Ok(Columns { cols, bad, free })
}

impl Columns {
    /// What the library says is wrong with the placement, with off-board columns shown as
    /// given (1-based like every row and column in messages).
    pub(crate) fn defect(&self) -> Option<String> {
        let p = Placement::new(self.cols.clone());
        self.explain(p.verify())
    }

    /// [`defect`](Self::defect), or `None` once `stop` is set (checked every million rows),
    /// without a copy of the columns.
    pub(crate) fn defect_unless_stopped(self, stop: &AtomicBool) -> Option<Option<String>> {
        let Columns { cols, bad, free } = self;
        let p = Placement::new(cols);
        let verdict = p.verify_unless_stopped(stop)?;
        let this = Columns {
            cols: Vec::new(),
            bad,
            free,
        };
        Some(this.explain(verdict))
    }

    fn explain(&self, verdict: Result<(), nqueens::placement::Defect>) -> Option<String> {
        match verdict {
            Ok(()) => None,
            Err(nqueens::placement::Defect::OutOfBoard { row, n, .. }) => {
                let given = self
                    .bad
                    .iter()
                    .find(|(r, _)| *r == row)
                    .map_or("?", |(_, c)| c.as_str());
                Some(format!(
                    "row {}: column {given} is outside a {n}x{n} board",
                    row + 1
                ))
            }
            Err(d) => Some(d.to_string()),
        }
    }

    /// The placement, if every queen is on the board (drawing needs no more).
    pub(crate) fn on_board(self) -> PyResult<Placement> {
        if self.cols.is_empty() {
            return Err(PyValueError::new_err("the placement is empty"));
        }
        if !self.bad.is_empty() {
            return Err(PyValueError::new_err(self.defect().unwrap_or_default()));
        }
        Ok(Placement::new(self.cols))
    }
}
