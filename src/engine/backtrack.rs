//! Placeholder for the Backtrack strategy.

use super::{EngineError, Strategy, Tally, TaskSet};

/// The task list of the Backtrack strategy.
pub struct BacktrackTasks {
    n: usize,
}

impl BacktrackTasks {
    /// The task list for `n`.
    pub fn new(n: usize) -> Result<Self, EngineError> {
        Ok(BacktrackTasks { n })
    }
}

impl TaskSet for BacktrackTasks {
    fn n(&self) -> usize {
        self.n
    }
    fn strategy(&self) -> Strategy {
        Strategy::Backtrack
    }
    fn version(&self) -> u32 {
        0
    }
    fn len(&self) -> usize {
        unimplemented!()
    }
    fn count(&self, _index: usize) -> Tally {
        unimplemented!()
    }
}
