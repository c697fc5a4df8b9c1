//! The ladder: the classic algorithms of the reference documents, slowest first.
//!
//! Each algorithm is a small module that can count and list the solutions for one `n`.
//! The slow ones are kept because they are the lesson, and because they are the oracles that
//! test the fast ones.

use std::ops::ControlFlow;

use crate::Placement;

pub mod cp;

/// The result of counting: the total, and the unique count if the algorithm knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// All solutions.
    pub total: u64,
    /// Solutions up to rotation and reflection, where the algorithm computes it.
    pub unique: Option<u64>,
}

/// One algorithm of the ladder, selectable by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Algo {
    /// Propagation + search (constraint programming).
    Cp,
}

/// Why an algorithm cannot run for this `n`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AlgoError {
    /// `n` is outside the algorithm's range.
    #[error("{algo} handles N from 1 to {max}, not {n}: {why}")]
    OutOfRange {
        /// Algorithm name.
        algo: &'static str,
        /// Requested size.
        n: usize,
        /// Largest size it handles.
        max: usize,
        /// The reason for the limit.
        why: &'static str,
    },
}

impl Algo {
    /// Counts the solutions for `n`.
    pub fn count(self, n: usize) -> Result<Counts, AlgoError> {
        match self {
            Algo::Cp => cp::count(n),
        }
    }

    /// Calls `visit` with every solution for `n`, in the algorithm's order, until it breaks.
    pub fn for_each_solution(
        self,
        n: usize,
        visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    ) -> Result<(), AlgoError> {
        match self {
            Algo::Cp => cp::for_each_solution(n, visit),
        }
    }
}
