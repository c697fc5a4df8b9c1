//! Failed states: the nodes whose subtree a search to find one completion has proved to hold
//! none, kept across its restarts so that a later run cuts them at once.
//!
//! What is left to solve below a node is fixed by its *state*: the rows without a queen and
//! the squares each still has (with the rows' indices, which fix the diagonals; the free
//! columns are the union of those squares at a fixpoint, since a free column no row can take
//! is a failure). How the queens above came there does not matter. So once every square of a
//! node's decision has failed, any node of the same state fails too.
//!
//! In one search tree a state never comes back: sibling subtrees differ in the queen of the
//! line branched on. It does across restarts, and the last run even starts again in the first
//! run's order, through the subtrees the first run proved. Only the nodes of the first
//! [`DEPTH`] decisions are kept and looked up: they head the big subtrees, and they are few
//! (a few thousand on the proofs measured, at 60 to 80 columns), where keeping every node would
//! cost a state per node and save no more (`docs/completion.md`).
//!
//! States are compared in full, never by a hash alone: a collision would cut a subtree that
//! holds a completion, a wrong "none".

use std::collections::HashSet;

use super::domain::Board;

/// The nodes of the first `DEPTH` decisions of a run are kept and looked up.
const DEPTH: usize = 10;

/// The most words kept in all, 16 MiB: past it no more states are kept (those kept still cut).
const MAX_WORDS: usize = 1 << 21;

/// The failed states of a search, and the states of its open decisions.
#[derive(Default)]
pub(super) struct FailedStates {
    failed: HashSet<Box<[u64]>>,
    /// Words kept in `failed`.
    words: usize,
    /// The states of the open decisions of depth below [`DEPTH`], back to back.
    open: Vec<u64>,
    /// Where a state is written to be looked up.
    scratch: Vec<u64>,
    /// How many nodes a failed state cut, for the tests.
    pub(super) cuts: u64,
}

impl FailedStates {
    /// Forgets the open decisions, as a new run starts from the root.
    pub(super) fn start_run(&mut self) {
        self.open.clear();
    }

    /// Records the state of the decision about to be made at `depth` (the number of open
    /// decisions), and returns where it starts, to hand to [`fail`](Self::fail) if every
    /// square of the decision fails; `None` below [`DEPTH`].
    pub(super) fn open<B: Board>(&mut self, dom: &B, depth: usize) -> Option<u32> {
        if depth >= DEPTH {
            return None;
        }
        let start = self.open.len();
        dom.state(&mut self.open);
        Some(start as u32)
    }

    /// Every square of the decision whose state starts at `start` failed: its state is kept.
    pub(super) fn fail(&mut self, start: u32) {
        let start = start as usize;
        if self.words + (self.open.len() - start) <= MAX_WORDS {
            let state: Box<[u64]> = self.open[start..].into();
            self.words += state.len();
            self.failed.insert(state);
        }
        self.open.truncate(start);
    }

    /// Whether the node `dom` is now at, with `depth` open decisions above it, has a state
    /// that failed before.
    pub(super) fn failed<B: Board>(&mut self, dom: &B, depth: usize) -> bool {
        if depth >= DEPTH || self.failed.is_empty() {
            return false;
        }
        self.scratch.clear();
        dom.state(&mut self.scratch);
        let cut = self.failed.contains(self.scratch.as_slice());
        self.cuts += u64::from(cut);
        cut
    }
}
