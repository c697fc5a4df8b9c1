//! Placeholder for the Join strategy.

use super::{EngineError, Strategy, Tally, TaskSet};

/// The task list of the Join strategy.
pub struct JoinTasks {
    n: usize,
}

impl JoinTasks {
    /// The task list for `n`.
    pub fn new(n: usize) -> Result<Self, EngineError> {
        Ok(JoinTasks { n })
    }
}

impl TaskSet for JoinTasks {
    fn n(&self) -> usize {
        self.n
    }
    fn strategy(&self) -> Strategy {
        Strategy::Join
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

/// `true` if joining half-boards beats backtracking for `n`.
pub fn preferred(_n: usize) -> bool {
    false
}
