//! `nqueens._nqueens`: the native half of the Python package `nqueens`.
//!
//! A thin layer over the `nqueens` library: every function here converts and checks its Python
//! arguments, calls one library entry point with the GIL released, and converts the answer
//! back; the library decides everything else. The Python package (`py_src/nqueens/`) gives
//! these functions their final shape (keyword arguments, result classes, tqdm bars) and their
//! documentation. One module per job, as the library is split: [`convert`] and [`columns`]
//! for the arguments all share, [`interrupt`] for the one way a long call runs, then
//! [`count`], [`solutions`], [`find`], [`placement`], [`complete`], [`trace`] and [`puzzle`].
//!
//! Nothing here may panic: the workspace's release profile aborts on panic, which would kill
//! the Python interpreter. So every argument is checked before it reaches the library, and
//! the library is only called in ways its documentation says cannot panic.

#![deny(missing_docs)]

use nqueens::algo::Algo;
use nqueens::engine::Strategy;
use pyo3::prelude::*;

mod columns;
mod complete;
mod convert;
mod count;
mod find;
mod interrupt;
mod placement;
mod puzzle;
mod regions;
mod solutions;
mod trace;

/// The native module.
#[pymodule]
fn _nqueens(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(count::count, m)?)?;
    m.add_function(wrap_pyfunction!(count::check_count, m)?)?;
    m.add_function(wrap_pyfunction!(count::merge, m)?)?;
    m.add_function(wrap_pyfunction!(count::read_shard, m)?)?;
    m.add_function(wrap_pyfunction!(find::find, m)?)?;
    m.add_function(wrap_pyfunction!(placement::defect, m)?)?;
    m.add_function(wrap_pyfunction!(placement::svg, m)?)?;
    m.add_function(wrap_pyfunction!(placement::board, m)?)?;
    m.add_function(wrap_pyfunction!(complete::complete, m)?)?;
    m.add_function(wrap_pyfunction!(trace::trace, m)?)?;
    m.add_function(wrap_pyfunction!(trace::trace_columns, m)?)?;
    m.add_function(wrap_pyfunction!(trace::trace_names, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("TimeUp", m.py().get_type::<count::TimeUp>())?;
    m.add_class::<count::CountOptions>()?;
    m.add_class::<solutions::SolutionIter>()?;
    m.add_class::<puzzle::PuzzleIter>()?;
    m.add_class::<complete::CompletionIter>()?;
    m.add("ALGORITHMS", Algo::ALL.map(Algo::name).to_vec())?;
    m.add("STRATEGIES", Strategy::ALL.map(Strategy::name).to_vec())?;
    m.add("MAX_LISTED", nqueens::solutions::MAX_N)?;
    regions::register(m)?;
    Ok(())
}
