//! Watching a rung search: the steps each rung reports as it goes, and who receives them.
//!
//! Every rung is written once, generic over an [`Observer`]. Counting and listing pass `()`,
//! whose methods are empty and whose [`Observer::active`] is `false`: the compiler removes the
//! calls and the work done only for them, so the plain search is the same machine code as
//! before the hooks. A trace passes an observer that records each [`Step`]; [`Work`] counts
//! the nodes and checks. The steps therefore come from the very loops that count, and cannot
//! drift from them.
//!
//! ```
//! use nqueens::observe::{Observer, Step};
//! use nqueens::algo::Algo;
//! use std::ops::ControlFlow;
//!
//! struct Placed(u64);
//! impl Observer for Placed {
//!     fn step(&mut self, step: Step<&[u32]>) -> ControlFlow<()> {
//!         if let Step::Place { .. } = step {
//!             self.0 += 1;
//!         }
//!         ControlFlow::Continue(())
//!     }
//! }
//! let mut placed = Placed(0);
//! Algo::Backtracking.observe(4, &mut placed, &mut |_| ControlFlow::Continue(())).unwrap();
//! // 4 + 6 + 4 + 2 partial placements of 1, 2, 3 and 4 rows.
//! assert_eq!(placed.0, 16);
//! ```

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a rung refused a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// A queen above stands in the same column.
    Column,
    /// A queen above stands on the same `\` diagonal (`row - col` is equal).
    Diagonal,
    /// A queen above stands on the same `/` diagonal (`row + col` is equal).
    AntiDiagonal,
    /// `cp`: propagation left no square for some row or column after this square was chosen.
    Propagation,
    /// `mirror` and `symmetry`: another square's solutions are this one's images.
    Symmetry,
}

impl Reason {
    /// A short phrase for people.
    ///
    /// ```
    /// assert_eq!(nqueens::observe::Reason::Diagonal.describe(), "diagonal \\");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Column => "column",
            Reason::Diagonal => "diagonal \\",
            Reason::AntiDiagonal => "anti-diagonal /",
            Reason::Propagation => "propagation",
            Reason::Symmetry => "symmetry",
        }
    }
}

/// One step of a search, as a rung reports it, with the columns of a whole board as `C`:
/// borrowed (`&[u32]`) as the rungs hand it out, owned (`Vec<u32>`) as a trace keeps it
/// ([`crate::trace::Event`]). Serialized as one JSON object tagged by `"event"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Step<C> {
    /// A queen put on `(row, col)`: one node of the search tree. `forced` is `cp`'s
    /// propagation placing a queen that had only one square left.
    Place {
        /// Row, from 0 at the top.
        row: usize,
        /// Column, from 0 at the left.
        col: usize,
        /// Placed by propagation, not chosen.
        #[serde(default, skip_serializing_if = "is_false")]
        forced: bool,
    },
    /// A square the rung considered for the next queen and refused.
    Reject {
        /// Row of the square.
        row: usize,
        /// Column of the square.
        col: usize,
        /// What rules it out.
        reason: Reason,
    },
    /// A queen taken off `(row, col)` on the way back up.
    Remove {
        /// Row of the queen.
        row: usize,
        /// Column of the queen.
        col: usize,
    },
    /// No square of `row` can take a queen: the search backs up. `None` for `cp`, whose
    /// propagation fails on a row or a column with nothing left.
    DeadEnd {
        /// The row left without a square, where known.
        row: Option<usize>,
    },
    /// A solution, in the order the rung hands it out. `image` marks one derived from a
    /// searched solution by a symmetry (`mirror`, `symmetry`) instead of found on the board.
    Solution {
        /// The column of each row's queen.
        cols: C,
        /// Derived by symmetry rather than searched.
        #[serde(default, skip_serializing_if = "is_false")]
        image: bool,
    },
    /// `symmetry`: a complete board dropped because a smaller image of it is searched.
    Duplicate {
        /// The column of each row's queen.
        cols: C,
    },
}

fn is_false(b: &bool) -> bool {
    !b
}

impl Step<&[u32]> {
    /// The same step with its columns copied, to be kept after the search moves on.
    ///
    /// ```
    /// use nqueens::observe::Step;
    /// let cols = [1, 3, 0, 2];
    /// let kept = Step::Solution { cols: &cols[..], image: false }.to_owned();
    /// assert_eq!(kept, Step::Solution { cols: vec![1, 3, 0, 2], image: false });
    /// ```
    pub fn to_owned(self) -> Step<Vec<u32>> {
        match self {
            Step::Place { row, col, forced } => Step::Place { row, col, forced },
            Step::Reject { row, col, reason } => Step::Reject { row, col, reason },
            Step::Remove { row, col } => Step::Remove { row, col },
            Step::DeadEnd { row } => Step::DeadEnd { row },
            Step::Solution { cols, image } => Step::Solution {
                cols: cols.to_vec(),
                image,
            },
            Step::Duplicate { cols } => Step::Duplicate {
                cols: cols.to_vec(),
            },
        }
    }
}

/// Receives the steps of a search. `Break` from [`step`](Observer::step) stops the search.
pub trait Observer {
    /// `false` only for the observer that ignores everything: rungs skip work done only to
    /// describe a step (which squares a mask ruled out, and why). A method rather than a
    /// constant so that `&mut dyn Observer` exists; for `()` it inlines to `false`.
    fn active(&self) -> bool {
        true
    }

    /// One step of the search.
    fn step(&mut self, step: Step<&[u32]>) -> ControlFlow<()>;

    /// `k` more square checks: a test of one square (against each queen for `backtracking`,
    /// against flags for `flags` and `swap`), or one mask operation that tests a whole row
    /// for the bitboards.
    fn checks(&mut self, k: u64) {
        let _ = k;
    }
}

/// The observer of plain counting and listing: nothing, at no cost.
impl Observer for () {
    #[inline(always)]
    fn active(&self) -> bool {
        false
    }

    #[inline(always)]
    fn step(&mut self, _: Step<&[u32]>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn checks(&mut self, _: u64) {}
}

impl<O: Observer + ?Sized> Observer for &mut O {
    #[inline(always)]
    fn active(&self) -> bool {
        (**self).active()
    }

    #[inline(always)]
    fn step(&mut self, step: Step<&[u32]>) -> ControlFlow<()> {
        (**self).step(step)
    }

    #[inline(always)]
    fn checks(&mut self, k: u64) {
        (**self).checks(k)
    }
}

/// Nodes between two looks at the stop flag: a few microseconds of any rung's search, so a
/// stop is seen at once, while the atomic load is paid once per 4096 nodes.
const STOP_EVERY: u32 = 4096;

/// The observer of a count that a flag may stop: it ignores every step but queens placed and
/// solutions, looks at the flag every [`STOP_EVERY`] nodes and at every solution (rungs that
/// place no queen when unobserved, as `permutations`, still report their solutions), and
/// breaks the search once the flag is set. Not [`active`](Observer::active), so the rungs do
/// no work to describe steps; after the first `Break` every later node breaks too, so the
/// recursive counters that ignore a `Break` in their sum climb out within one node per level.
pub(crate) struct Stopper<'a> {
    flag: &'a AtomicBool,
    left: u32,
    stopped: bool,
}

impl<'a> Stopper<'a> {
    /// An observer that stops the search once `flag` is set.
    pub(crate) fn new(flag: &'a AtomicBool) -> Stopper<'a> {
        // The first node looks at once: a search started after the stop ends at its root.
        Stopper {
            flag,
            left: 1,
            stopped: false,
        }
    }

    /// Whether the flag cut the search short (its counts are then partial).
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    #[cold]
    fn look(&mut self) -> ControlFlow<()> {
        if self.flag.load(Ordering::Relaxed) {
            self.stopped = true;
            // Look again at the very next node: every level of the search breaks in turn.
            self.left = 1;
            return ControlFlow::Break(());
        }
        self.left = STOP_EVERY;
        ControlFlow::Continue(())
    }
}

impl Observer for Stopper<'_> {
    #[inline(always)]
    fn active(&self) -> bool {
        false
    }

    #[inline(always)]
    fn step(&mut self, step: Step<&[u32]>) -> ControlFlow<()> {
        match step {
            Step::Place { .. } => {
                self.left -= 1;
                if self.left == 0 {
                    return self.look();
                }
                ControlFlow::Continue(())
            }
            Step::Solution { .. } => self.look(),
            _ => ControlFlow::Continue(()),
        }
    }
}

/// The work of one search: how many nodes it visited and how many square checks it made.
///
/// ```
/// use nqueens::algo::Algo;
/// let flags = Algo::Flags.work(8).unwrap();
/// let bitboard = Algo::Bitboard.work(8).unwrap();
/// assert_eq!(flags.nodes, bitboard.nodes); // the same tree...
/// assert!(bitboard.checks * 5 < flags.checks); // ...with a row checked at once
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Work {
    /// Queens placed, chosen or forced: the nodes of the search tree below the root.
    pub nodes: u64,
    /// Square checks, in the rung's own unit (see [`Observer::checks`]).
    pub checks: u64,
    /// Solutions handed out.
    pub solutions: u64,
}

impl Observer for Work {
    fn step(&mut self, step: Step<&[u32]>) -> ControlFlow<()> {
        match step {
            Step::Place { .. } => self.nodes += 1,
            Step::Solution { .. } => self.solutions += 1,
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn checks(&mut self, k: u64) {
        self.checks += k;
    }
}

/// Why a queen at `(row, col)` would be attacked by the queens in `cols` (`cols[r]` the
/// column of row `r`'s queen, `u32::MAX` for none), checked in the order column, `\`, `/`.
pub(crate) fn attack(cols: &[u32], row: usize, col: usize) -> Option<Reason> {
    let queens = || {
        cols.iter()
            .enumerate()
            .filter(|&(r, &c)| r != row && c != u32::MAX)
            .map(|(r, &c)| (r, c as usize))
    };
    if queens().any(|(_, c)| c == col) {
        Some(Reason::Column)
    } else if queens().any(|(r, c)| r.wrapping_sub(c) == row.wrapping_sub(col)) {
        Some(Reason::Diagonal)
    } else if queens().any(|(r, c)| r + c == row + col) {
        Some(Reason::AntiDiagonal)
    } else {
        None
    }
}
