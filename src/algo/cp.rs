//! `cp`: the ladder's constraint-programming rung, a thin door onto [`crate::cp`].
//!
//! The solver is built for completion problems, not for counting; on an empty board it still
//! counts and lists every solution, with propagation doing work that a bitboard does for free.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use super::{AlgoError, Counts};
use crate::Placement;
use crate::cp::{Instance, MAX_N, Options, Solver, Status};
use crate::observe::Observer;

fn solver(n: usize) -> Result<Solver<'static>, AlgoError> {
    let instance = Instance::with_size(n).map_err(|_| AlgoError::OutOfRange {
        algo: "cp",
        n,
        max: MAX_N,
        why: "each queen costs O(n) work; one solution for larger boards is `find`'s job",
    })?;
    Ok(Solver::new(&instance, Options::default()))
}

/// Counts the solutions for `n` with the propagation solver.
///
/// ```
/// assert_eq!(nqueens::algo::cp::count(8).unwrap().total, 92);
/// ```
///
/// # Errors
/// [`AlgoError`] for an `n` the solver does not count.
pub fn count(n: usize) -> Result<Counts, AlgoError> {
    let (total, status) = solver(n)?.count();
    debug_assert_eq!(status, Status::Exhausted);
    Ok(Counts {
        total,
        unique: None,
    })
}

/// [`count`], or `None` once `stop` is set.
pub(crate) fn count_unless_stopped(
    n: usize,
    stop: &AtomicBool,
) -> Result<Option<Counts>, AlgoError> {
    let (total, status) = solver(n)?.stop_when(stop).count();
    Ok((status != Status::Interrupted).then_some(Counts {
        total,
        unique: None,
    }))
}

/// Lists the solutions for `n` with the propagation solver, until `visit` breaks.
///
/// ```
/// let mut seen = 0;
/// nqueens::algo::cp::for_each_solution(6, &mut |p| {
///     assert!(p.is_solution());
///     seen += 1;
///     std::ops::ControlFlow::Continue(())
/// })
/// .unwrap();
/// assert_eq!(seen, 4);
/// ```
///
/// # Errors
/// [`AlgoError`] for an `n` the solver does not list.
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> Result<(), AlgoError> {
    solver(n)?.for_each(visit);
    Ok(())
}

/// [`for_each_solution`], reporting each step to `obs`.
pub(crate) fn observed(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut dyn Observer,
) -> Result<(), AlgoError> {
    solver(n)?.observe(visit, obs);
    Ok(())
}
