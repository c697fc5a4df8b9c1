//! `cp`: the ladder's constraint-programming rung, a thin door onto [`crate::cp`].

use std::ops::ControlFlow;

use super::{AlgoError, Counts};
use crate::Placement;

/// Counts the solutions for `n` with the propagation solver.
pub fn count(_n: usize) -> Result<Counts, AlgoError> {
    unimplemented!("cp count")
}

/// Lists the solutions for `n` with the propagation solver.
pub fn for_each_solution(
    _n: usize,
    _visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> Result<(), AlgoError> {
    unimplemented!("cp listing")
}
