//! The Backtrack strategy: bitboard search below canonical border constellations.
//!
//! The task list is every canonical [`Constellation`] for `n`
//! (split further by pre-placing a queen for large `n`, see [`constellation`]); a task's
//! count is the number of completions times the size of the constellation's orbit.
//!
//! For the unique count, a completion's own symmetries matter, and they must also fix its
//! constellation. No solution for `n > 1` is its own mirror image (a reflection would put two
//! queens in one row, column or diagonal), so only constellations that a *rotation* maps onto
//! themselves (about one in `n * n`) can hold symmetric solutions. For those, the completions
//! a half or a quarter turn leaves unchanged are counted apart ([`BacktrackTasks::fixed`]), by a
//! search that places each queen with its images under the turn (`join::symmetric`): about half
//! or a quarter of the rows to search. Every other completion lies in a class of eight.

pub mod constellation;
pub mod kernel;

use std::sync::atomic::{AtomicBool, Ordering};

use constellation::{Constellation, Frame, Start, Task};

use super::symmetric::{Turn, count_holding, reflection_fixed};
use crate::Symmetry;
use crate::engine::{EngineError, Strategy, Tally, TaskSet};

/// The version of the Backtrack task list; bump it whenever the list for some `n` changes.
pub const VERSION: u32 = 1;

/// The largest board the Backtrack strategy counts: one bit per column in a `u32`.
///
/// ```
/// use nqueens::engine::strategy::backtrack::{check, MAX_N};
/// assert!(check(MAX_N).is_ok() && check(MAX_N + 1).is_err());
/// ```
pub const MAX_N: usize = 32;

/// `Ok` if the Backtrack strategy counts `n`.
///
/// ```
/// assert!(nqueens::engine::strategy::backtrack::check(32).is_ok());
/// assert!(nqueens::engine::strategy::backtrack::check(0).is_err());
/// ```
///
/// # Errors
/// [`EngineError::OutOfRange`] for `n` outside 1 to [`MAX_N`].
pub fn check(n: usize) -> Result<(), EngineError> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(EngineError::OutOfRange {
            strategy: Strategy::Backtrack,
            n,
            max: MAX_N,
            why: "a row is one 32-bit word",
        })
    }
}

/// Peak memory of counting with `threads` threads: one kernel stack each.
///
/// ```
/// use nqueens::engine::strategy::backtrack::memory_estimate;
/// assert_eq!(memory_estimate(1), 512);
/// assert_eq!(memory_estimate(16), 16 * 512);
/// ```
pub fn memory_estimate(threads: usize) -> u64 {
    (threads * std::mem::size_of::<[(u32, u32, u32, u32); 32]>()) as u64
}

/// The task list of the Backtrack strategy.
///
/// ```
/// use nqueens::engine::{strategy::backtrack::BacktrackTasks, TaskSet, Tally};
/// let tasks = BacktrackTasks::new(8).unwrap();
/// let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
/// assert_eq!((sum.total, sum.unique()), (92, 12));
/// ```
pub struct BacktrackTasks {
    n: usize,
    constellations: Vec<Setup>,
    tasks: Vec<Task>,
}

/// The completions of a task that rotations leave unchanged, counted apart from the others
/// (see [`BacktrackTasks::fixed`]); zero for a task whose constellation no rotation fixes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fixed {
    /// Completions the half turn leaves unchanged, if it fixes the constellation.
    pub half: u64,
    /// Completions the quarter turns leave unchanged, if they fix the constellation.
    pub quarter: u64,
}

/// What every task of one constellation shares.
struct Setup {
    constellation: Constellation,
    frame: Frame,
    /// Size of the orbit: the multiplier of every count below this constellation.
    weight: u64,
    /// Symmetries other than the identity that fix the constellation.
    stabiliser: Vec<Symmetry>,
    /// `true` if a rotation fixes the constellation, so completions may be symmetric.
    inspect: bool,
}

impl BacktrackTasks {
    /// The task list for `n` (1 to [`MAX_N`]).
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::BacktrackTasks, TaskSet};
    /// assert!(BacktrackTasks::new(33).is_err());
    /// // From N = 20 on, each constellation is split by the queen of its first free row.
    /// let big = BacktrackTasks::new(20).unwrap();
    /// assert!(big.len() > big.constellation_count());
    /// ```
    ///
    /// # Errors
    /// [`EngineError::OutOfRange`] for `n` outside 1 to [`MAX_N`].
    pub fn new(n: usize) -> Result<Self, EngineError> {
        check(n)?;
        let depth = constellation::split_depth(n);
        let mut constellations = Vec::new();
        let mut list = Vec::new();
        for (index, constellation) in constellation::constellations(n).into_iter().enumerate() {
            let frame = Frame::new(n, &constellation);
            let stabiliser: Vec<Symmetry> = constellation
                .stabiliser(n)
                .into_iter()
                .filter(|&g| g != Symmetry::Identity)
                .collect();
            let weight = (Symmetry::ALL.len() / (stabiliser.len() + 1)) as u64;
            for (_, prefix) in constellation::prefixes(&frame, depth) {
                list.push(Task {
                    constellation: index as u32,
                    depth: depth.min(frame.levels) as u8,
                    prefix,
                });
            }
            let inspect = stabiliser.iter().any(|g| g.is_rotation());
            constellations.push(Setup {
                constellation,
                frame,
                weight,
                stabiliser,
                inspect,
            });
        }
        Ok(BacktrackTasks {
            n,
            constellations,
            tasks: list,
        })
    }

    /// Task `index` as laid out for the kernel: its frame, the state after its prefix, its weight.
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::{kernel, BacktrackTasks}, TaskSet};
    /// let tasks = BacktrackTasks::new(8).unwrap();
    /// let total: u64 = (0..tasks.len())
    ///     .map(|i| {
    ///         let (frame, start, weight) = tasks.prepare(i);
    ///         kernel::count(frame, start) * weight
    ///     })
    ///     .sum();
    /// assert_eq!(total, 92);
    /// ```
    pub fn prepare(&self, index: usize) -> (&Frame, Start, u64) {
        let task = self.tasks[index];
        let setup = self.setup(index);
        let mut start = Start::default();
        for &col in &task.prefix[..task.depth as usize] {
            start = start.place(&setup.frame, 1 << col);
        }
        (&setup.frame, start, setup.weight)
    }

    /// The constellation task `index` searches below.
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::{constellation::constellations, BacktrackTasks};
    /// // Below N = 20, task `i` is the `i`-th constellation.
    /// let tasks = BacktrackTasks::new(8).unwrap();
    /// assert_eq!(tasks.constellation(3), constellations(8)[3]);
    /// ```
    pub fn constellation(&self, index: usize) -> Constellation {
        self.setup(index).constellation
    }

    /// What every task of task `index`'s constellation shares.
    fn setup(&self, index: usize) -> &Setup {
        &self.constellations[self.frame_index(index)]
    }

    /// The index of task `index`'s constellation, in the order of [`frames`](Self::frames).
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::BacktrackTasks;
    /// let tasks = BacktrackTasks::new(8).unwrap();
    /// assert_eq!(tasks.frame_index(3), 3);
    /// ```
    pub fn frame_index(&self, index: usize) -> usize {
        self.tasks[index].constellation as usize
    }

    /// The frame of every constellation, in constellation order.
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::BacktrackTasks;
    /// let tasks = BacktrackTasks::new(10).unwrap();
    /// assert_eq!(tasks.frames().count(), tasks.constellation_count());
    /// ```
    pub fn frames(&self) -> impl Iterator<Item = &Frame> {
        self.constellations.iter().map(|setup| &setup.frame)
    }

    /// `true` if a rotation fixes task `index`'s constellation, so that its completions are
    /// built and inspected one by one for the unique count (about one task in `n * n`).
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::BacktrackTasks, TaskSet};
    /// let tasks = BacktrackTasks::new(12).unwrap();
    /// let symmetric = (0..tasks.len()).filter(|&i| tasks.is_symmetric(i)).count();
    /// assert!(symmetric > 0 && symmetric * 20 < tasks.len());
    /// ```
    pub fn is_symmetric(&self, index: usize) -> bool {
        self.setup(index).inspect
    }

    /// The number of canonical constellations (tasks before any further split).
    ///
    /// ```
    /// use nqueens::engine::strategy::backtrack::{constellation::constellations, BacktrackTasks};
    /// let tasks = BacktrackTasks::new(16).unwrap();
    /// assert_eq!(tasks.constellation_count(), constellations(16).len());
    /// ```
    pub fn constellation_count(&self) -> usize {
        self.constellations.len()
    }

    /// The queens task `index` starts from, as `(row, col)` squares: its border queens and the
    /// queens of its prefix.
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::BacktrackTasks, TaskSet};
    /// let tasks = BacktrackTasks::new(20).unwrap();
    /// // From N = 20 on, the first free row's queen comes with the border queens.
    /// let queens = tasks.queens(0);
    /// assert_eq!(queens.len(), tasks.constellation(0).cells(20).len() + 1);
    /// ```
    pub fn queens(&self, index: usize) -> Vec<(usize, usize)> {
        let task = self.tasks[index];
        let setup = self.setup(index);
        let mut queens = setup.constellation.cells(self.n);
        for (level, &col) in task.prefix[..task.depth as usize].iter().enumerate() {
            queens.push((setup.frame.row[level] as usize, col as usize));
        }
        queens
    }

    /// The completions of task `index` that the rotations fixing its constellation leave
    /// unchanged (none unless [`is_symmetric`](Self::is_symmetric)); `None` if `stop` was set
    /// before the count was finished.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use nqueens::engine::{strategy::backtrack::{BacktrackTasks, Fixed}, TaskSet};
    /// let tasks = BacktrackTasks::new(8).unwrap();
    /// let go = AtomicBool::new(false);
    /// let fixed: Vec<Fixed> = (0..tasks.len()).filter_map(|i| tasks.fixed(i, &go)).collect();
    /// // The four solutions of N = 8 that a half turn keeps, in classes of four.
    /// assert_eq!(fixed.iter().map(|f| f.half).sum::<u64>(), 1);
    /// ```
    pub fn fixed(&self, index: usize, stop: &AtomicBool) -> Option<Fixed> {
        let setup = self.setup(index);
        let mut fixed = Fixed::default();
        if setup.inspect {
            let queens = self.queens(index);
            let count = |turn: Turn| {
                if setup.stabiliser.contains(&turn.symmetry()) {
                    count_holding(self.n, turn, &queens, stop)
                } else {
                    0
                }
            };
            fixed.half = count(Turn::Half);
            fixed.quarter = count(Turn::Quarter);
        }
        (!stop.load(Ordering::Relaxed)).then_some(fixed)
    }

    /// The tally of task `index` from the number of its completions and those of them that
    /// rotations leave unchanged: each completion stands for `weight` solutions, and adds
    /// `weight` times the number of its constellation's symmetries that leave it unchanged to
    /// eight times the unique count (Burnside, see [`Tally`]).
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::{kernel, BacktrackTasks}, TaskSet};
    /// let tasks = BacktrackTasks::new(10).unwrap();
    /// let go = std::sync::atomic::AtomicBool::new(false);
    /// for i in 0..tasks.len() {
    ///     let (frame, start, _) = tasks.prepare(i);
    ///     let found = kernel::count(frame, start);
    ///     assert_eq!(tasks.tally(i, found, tasks.fixed(i, &go).unwrap()), tasks.count(i));
    /// }
    /// ```
    pub fn tally(&self, index: usize, found: u64, fixed: Fixed) -> Tally {
        let setup = self.setup(index);
        let weight = u128::from(setup.weight);
        let kept: u64 = setup
            .stabiliser
            .iter()
            .map(|&g| match g {
                Symmetry::Rotate180 => fixed.half,
                Symmetry::Rotate90 | Symmetry::Rotate270 => fixed.quarter,
                // The lone queen of n = 1, or nothing.
                _ => reflection_fixed(self.n),
            })
            .sum();
        Tally {
            total: weight * u128::from(found),
            unique8: weight * (u128::from(found) + u128::from(kept)),
        }
    }

    /// Counts task `index` the slow, obvious way: every completion is built as a full
    /// placement and each of its constellation's symmetries tried on it. The oracle of
    /// [`fixed`](Self::fixed) and [`tally`](Self::tally) in the tests.
    ///
    /// ```
    /// use nqueens::engine::{strategy::backtrack::BacktrackTasks, TaskSet};
    /// let tasks = BacktrackTasks::new(9).unwrap();
    /// assert!((0..tasks.len()).all(|i| tasks.count_by_inspection(i) == tasks.count(i)));
    /// ```
    pub fn count_by_inspection(&self, index: usize) -> Tally {
        self.count_symmetric(index, &AtomicBool::new(false))
    }

    /// Counts a task by building every completion and trying each of the constellation's
    /// symmetries on it.
    fn count_symmetric(&self, index: usize, stop: &AtomicBool) -> Tally {
        let n = self.n;
        let task = self.tasks[index];
        let setup = self.setup(index);
        let (frame, start, _) = self.prepare(index);
        let mut board = vec![0u32; n];
        for (r, c) in setup.constellation.cells(n) {
            board[r] = c as u32;
        }
        let mut placed: Vec<u32> = task.prefix[..task.depth as usize]
            .iter()
            .map(|&c| c as u32)
            .collect();
        let mut tally = Tally::default();
        visit(frame, start, stop, &mut placed, &mut |cols: &[u32]| {
            for (level, &c) in cols.iter().enumerate() {
                board[frame.row[level] as usize] = c;
            }
            let fixed = 1 + setup
                .stabiliser
                .iter()
                .filter(|&&g| is_fixed_by(&board, g))
                .count() as u128;
            tally.total += setup.weight as u128;
            tally.unique8 += setup.weight as u128 * fixed;
        });
        tally
    }
}

/// `true` if symmetry `g` maps the full placement `board` onto itself.
fn is_fixed_by(board: &[u32], g: Symmetry) -> bool {
    let n = board.len();
    board.iter().enumerate().all(|(r, &c)| {
        let (r2, c2) = g.apply(n, r, c as usize);
        board[r2] as usize == c2
    })
}

/// Calls `found` with the columns of every level of each completion of `start` (the levels
/// before `start.level` are taken from `placed`, which the caller fills with the prefix).
fn visit(
    frame: &Frame,
    start: Start,
    stop: &AtomicBool,
    placed: &mut Vec<u32>,
    found: &mut dyn FnMut(&[u32]),
) {
    // One load per node: this path is rare (constellations a rotation fixes) and slow anyway.
    if stop.load(Ordering::Relaxed) {
        return;
    }
    if start.level == frame.levels {
        found(placed);
        return;
    }
    let mut open = start.open(frame);
    while open != 0 {
        let q = open & open.wrapping_neg();
        open ^= q;
        placed.push(q.trailing_zeros());
        visit(frame, start.place(frame, q), stop, placed, found);
        placed.pop();
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
        VERSION
    }
    fn len(&self) -> usize {
        self.tasks.len()
    }
    fn count_unless_stopped(&self, index: usize, stop: &AtomicBool) -> Option<Tally> {
        let (frame, start, _) = self.prepare(index);
        let found = kernel::count_unless_stopped(frame, start, stop);
        let fixed = self.fixed(index, stop)?;
        // The searches return early once `stop` is set, so a sum made after it is incomplete.
        (!stop.load(Ordering::Relaxed)).then(|| self.tally(index, found, fixed))
    }
    fn memory_bytes(&self, threads: usize) -> u64 {
        // The task list itself is not counted.
        memory_estimate(threads)
    }
}
