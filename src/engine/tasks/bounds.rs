//! What a task's tally can be: the checks that `merge` and a resumed checkpoint make before
//! they believe a number read from a file.
//!
//! A checksum only proves that a file is as it was written; a careless script or a bad disk
//! can write a well-formed file with a wrong number in it. Every number read is therefore held
//! to bounds that the tasks themselves justify:
//!
//! - **At most the whole board.** The tasks of a list count disjoint sets of solutions (each
//!   weighted by the members of its class it stands for), so any set of tasks counts at most
//!   what the board has: `total <= Q(N)`, the published count where it is known (N <= 27), else
//!   `N!` (every solution is a permutation of the columns). Eight times the unique share is at
//!   most `8 Q(N)`. So no sum of records can overflow either: `8 * 32!` is below `2^121`.
//! - **Backtrack tasks**: each completion found adds its weight `w` (8 divided by the size of
//!   the constellation's stabiliser) to `total`, and `w * f` to `unique8`, where `f`, the
//!   symmetries of the stabiliser that fix the completion, is from 1 to `8 / w`. So every task,
//!   and every sum of tasks, has `total <= unique8 <= 8 * total`.
//! - **Join tasks**: a main task adds its count to both (`unique8 == total`); the last `2N`
//!   tasks (solutions fixed by a half or a quarter turn, for Burnside's lemma) add to `unique8`
//!   only (`total == 0`). A set of tasks has `total <= unique8`, with equality when it holds
//!   no such task.
//! - **The whole list**: the published `(total, unique)` where known. Beyond, for N >= 2 the
//!   left-right mirror pairs every solution with another (a solution it fixes would need every
//!   queen in the middle column), so `total` is even and every class has 2, 4 or 8 members:
//!   `unique8` is a multiple of 8 and `2 U <= total <= 8 U`.

use std::ops::Range;

use super::list::Slice;
use crate::engine::Strategy;
use crate::engine::Tally;

/// An upper bound on the solutions of `n` queens: the published count where known, else `n!`
/// (saturating beyond what a `u128` holds, far past the engine's largest board).
///
/// ```
/// use nqueens::engine::tasks::bounds::solutions_bound;
/// assert_eq!(solutions_bound(8), 92);
/// assert_eq!(solutions_bound(28), (1..=28u128).product());
/// ```
pub fn solutions_bound(n: usize) -> u128 {
    crate::reference::published(n).map_or_else(
        || {
            (1..=n as u128)
                .try_fold(1u128, |f, k| f.checked_mul(k))
                .unwrap_or(u128::MAX)
        },
        |(total, _)| total,
    )
}

/// The tasks of a list of `len` that count only solutions fixed by a turn (`total == 0`).
fn turn_tasks(n: usize, strategy: Strategy, len: usize) -> Range<usize> {
    match strategy {
        Strategy::Backtrack => len..len,
        Strategy::Join => len.saturating_sub(2 * n)..len,
    }
}

/// Checks the tally of some tasks of the list of `len` tasks for `n` made by `strategy`:
/// `turns` says whether they include Join's turn tasks, `only_turns` whether they are all such.
fn check_tasks(
    n: usize,
    strategy: Strategy,
    turns: bool,
    only_turns: bool,
    t: Tally,
) -> Result<(), String> {
    let bound = solutions_bound(n);
    if t.total > bound {
        return Err(format!(
            "{} solutions, more than the {bound} that N={n} has in all",
            t.total
        ));
    }
    if t.unique8 > bound.saturating_mul(8) {
        return Err(format!(
            "{}, more than the {bound} solutions that N={n} has in all",
            unique_words(t.unique8)
        ));
    }
    let fits = match strategy {
        Strategy::Backtrack => t.total <= t.unique8 && t.unique8 <= t.total.saturating_mul(8),
        Strategy::Join if only_turns => t.total == 0,
        Strategy::Join if turns => t.total <= t.unique8,
        Strategy::Join => t.total == t.unique8,
    };
    if fits {
        Ok(())
    } else {
        Err(format!(
            "total {} and unique8 {} cannot come from {} tasks (see nqueens::engine::tasks::bounds)",
            t.total,
            t.unique8,
            strategy.name()
        ))
    }
}

/// Checks the tally recorded for task `index` of the list of `len` tasks for `n` made by
/// `strategy`; `Err` says why it cannot be.
///
/// ```
/// use nqueens::engine::{tasks::bounds::check_task, Strategy, Tally};
/// let t = |total, unique8| Tally { total, unique8 };
/// assert!(check_task(8, Strategy::Backtrack, 100, 3, t(8, 8)).is_ok());
/// assert!(check_task(8, Strategy::Backtrack, 100, 100, t(8, 8)).is_err()); // no such task
/// assert!(check_task(8, Strategy::Backtrack, 100, 3, t(93, 93)).is_err()); // N = 8 has 92
/// assert!(check_task(8, Strategy::Backtrack, 100, 3, t(8, 4)).is_err()); // unique8 < total
/// ```
///
/// # Errors
/// Why the tally cannot be the task's, in words.
pub fn check_task(
    n: usize,
    strategy: Strategy,
    len: usize,
    index: usize,
    tally: Tally,
) -> Result<(), String> {
    if index >= len {
        return Err(format!("task {index} does not exist (the list has {len})"));
    }
    let turn = turn_tasks(n, strategy, len).contains(&index);
    check_tasks(n, strategy, turn, turn, tally)
}

/// Checks the tally of shard `slice` of the list of `len` tasks for `n` made by `strategy`.
///
/// ```
/// use nqueens::engine::{tasks::bounds::check_slice, tasks::shard::Slice, Strategy, Tally};
/// let half: Slice = "1/2".parse().unwrap();
/// let huge = Tally { total: 1 << 100, unique8: 1 << 100 };
/// assert!(check_slice(12, Strategy::Backtrack, 50, half, huge).is_err());
/// ```
///
/// # Errors
/// Why the sum cannot be the slice's, in words.
pub fn check_slice(
    n: usize,
    strategy: Strategy,
    len: usize,
    slice: Slice,
    tally: Tally,
) -> Result<(), String> {
    let turns = turn_tasks(n, strategy, len);
    let (mut some, mut all) = (false, true);
    for i in slice.indices(len) {
        let turn = turns.contains(&i);
        some |= turn;
        all &= turn;
    }
    check_tasks(n, strategy, some, some && all, tally)
}

/// A sum of the tallies of distinct tasks, each checked as it comes and the sum after it.
pub(crate) struct Sum {
    n: usize,
    strategy: Strategy,
    len: usize,
    tally: Tally,
    tasks: usize,
    turns: usize,
}

impl Sum {
    /// An empty sum over the list of `len` tasks for `n` made by `strategy`.
    pub(crate) fn new(n: usize, strategy: Strategy, len: usize) -> Sum {
        Sum {
            n,
            strategy,
            len,
            tally: Tally::default(),
            tasks: 0,
            turns: 0,
        }
    }

    /// Adds the tally of task `index` (not added before), or says why it cannot be.
    pub(crate) fn add(&mut self, index: usize, tally: Tally) -> Result<(), String> {
        check_task(self.n, self.strategy, self.len, index, tally)?;
        // Each tally is at most 8 times the board's count (below 2^121), and so is the sum
        // after each check: the additions cannot overflow.
        self.tally += tally;
        self.tasks += 1;
        self.turns += usize::from(turn_tasks(self.n, self.strategy, self.len).contains(&index));
        let some = self.turns > 0;
        check_tasks(
            self.n,
            self.strategy,
            some,
            some && self.turns == self.tasks,
            self.tally,
        )
        .map_err(|why| format!("the tasks so far add up to {why}"))
    }
}

/// A tally's unique count in words: `unique8` is eight times it, so one that is not a multiple
/// of 8 is no count at all, and is said so rather than shown as a fraction.
fn unique_words(unique8: u128) -> String {
    if unique8.is_multiple_of(8) {
        format!("{} unique", unique8 / 8)
    } else {
        format!("a unique count that is not a whole number ({unique8} eighths)")
    }
}

/// Checks the tally of a whole list for `n`: the published counts where known, else the
/// relations every count of N >= 2 obeys (see the module's documentation).
///
/// ```
/// use nqueens::engine::{tasks::bounds::check_whole, Tally};
/// assert!(check_whole(8, Tally { total: 92, unique8: 96 }).is_ok());
/// assert!(check_whole(8, Tally { total: 94, unique8: 96 }).is_err());
/// assert!(check_whole(28, Tally { total: 3, unique8: 8 }).is_err()); // odd
/// ```
///
/// # Errors
/// Why the sum cannot be the count of `n`, in words.
pub fn check_whole(n: usize, t: Tally) -> Result<(), String> {
    if let Some((total, unique)) = crate::reference::published(n) {
        if (t.total, t.unique8) != (total, unique * 8) {
            return Err(format!(
                "{} solutions and {}, but N={n} has {total} and {unique} unique",
                t.total,
                unique_words(t.unique8)
            ));
        }
        return Ok(());
    }
    let u = t.unique8 / 8;
    let classes = u.saturating_mul(2) <= t.total && t.total <= u.saturating_mul(8);
    if n >= 2 && (!t.total.is_multiple_of(2) || !t.unique8.is_multiple_of(8) || !classes) {
        return Err(format!(
            "total {} and unique8 {} cannot be a count of N={n}: the mirror pairs its solutions into classes of 2, 4 or 8",
            t.total, t.unique8
        ));
    }
    Ok(())
}
