//! The lexicographically first solution: the one a textbook backtracking program prints first.
//!
//! Rows are filled top to bottom and each row tries its columns from left to right, so the
//! first complete placement reached is the smallest in lexicographic order (for `n = 8`:
//! `1 5 8 6 3 7 2 4`). The search may have to undo almost everything before it gets there, and
//! how much depends wildly on `n` (on this machine: under a millisecond for `n = 25`, a second
//! for `n = 30`, three seconds for `n = 33`, and more than three seconds for every `n` from 34
//! to 80), which is why [`first`] takes a deadline. Pruning with a look-ahead (does every row below
//! keep a free square?) was tried: it cuts nodes but costs more time than it saves here.
//!
//! The free squares of a row are one `u64` (bit `c` = column `c`), so the lowest set bit is the
//! leftmost free column; the state of each row lives on an explicit stack. That limits `n` to
//! 64, far beyond what the search can finish anyway.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::Placement;

/// The largest `n` accepted: one `u64` holds a row. Beyond 33 the search is slow anyway (every
/// `n` from 34 to 80 took longer than 3 seconds here).
///
/// ```
/// use nqueens::large::first::{first, MAX_N};
/// assert_eq!(first(MAX_N + 1, None), Ok(None));
/// ```
pub const MAX_N: usize = 64;

/// Nodes (queens placed) between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 16;

/// The deadline passed before the search ended.
///
/// ```
/// use std::time::Instant;
/// // N = 40 takes seconds: a deadline already past stops it at its first look at the clock.
/// let err = nqueens::large::first(40, Some(Instant::now())).unwrap_err();
/// assert!(err.nodes > 0);
/// assert!(err.to_string().starts_with("no answer before the time limit"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no answer before the time limit ({nodes} queens placed and taken back)")]
pub struct TimedOut {
    /// Queens placed before the search gave up.
    pub nodes: u64,
}

/// The lexicographically first solution for `n`, or `None` when there is none (n = 0, 2, 3,
/// or `n > MAX_N`); `Err` if `deadline` passes first.
///
/// ```
/// use std::time::{Duration, Instant};
/// let p = nqueens::large::first(8, None).unwrap().unwrap();
/// assert_eq!(p, nqueens::Placement::from_one_based(&[1, 5, 8, 6, 3, 7, 2, 4]).unwrap());
/// assert_eq!(nqueens::large::first(3, None), Ok(None));
/// let soon = Instant::now() + Duration::from_secs(5);
/// assert!(nqueens::large::first(20, Some(soon)).unwrap().unwrap().is_solution());
/// ```
///
/// # Errors
/// [`TimedOut`] if `deadline` passes first.
pub fn first(n: usize, deadline: Option<Instant>) -> Result<Option<Placement>, TimedOut> {
    first_unless_stopped(n, deadline, &AtomicBool::new(false))
        .map_err(|halt| TimedOut { nodes: halt.nodes })
}

/// Why [`first_unless_stopped`] ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Halt {
    /// Queens placed before the search ended.
    pub nodes: u64,
    /// `true` if the stop flag ended it, `false` if the deadline did.
    pub stopped: bool,
}

/// [`first`], which also gives up once `stop` is set (within a millisecond: the flag is looked
/// at with the clock).
pub(crate) fn first_unless_stopped(
    n: usize,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Result<Option<Placement>, Halt> {
    let mut clock = Clock {
        deadline,
        stop,
        nodes: 0,
    };
    if n == 0 || n > MAX_N {
        return Ok(None);
    }
    Ok(search(n, &mut clock)?.map(Placement::new))
}

/// Counts nodes and looks at the clock and the stop flag now and then.
struct Clock<'a> {
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    nodes: u64,
}

impl Clock<'_> {
    #[inline]
    fn tick(&mut self) -> Result<(), Halt> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            let stopped = self.stop.load(Ordering::Relaxed);
            if stopped || self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Halt {
                    nodes: self.nodes,
                    stopped,
                });
            }
        }
        Ok(())
    }
}

/// Backtracking for `1 <= n <= 64`. Entry `row` of the stack holds the columns still to try in that row and the masks
/// of attacked columns it was entered with: `down` (columns), `left` and `right` (diagonals,
/// shifted one column per row as they move down the board).
fn search(n: usize, clock: &mut Clock) -> Result<Option<Vec<u32>>, Halt> {
    #[derive(Clone, Copy, Default)]
    struct Frame {
        todo: u64,
        down: u64,
        left: u64,
        right: u64,
    }
    let full = u64::MAX >> (64 - n);
    let mut stack = vec![Frame::default(); n];
    let mut cols = vec![0u32; n];
    stack[0].todo = full;
    let mut row = 0;
    loop {
        let f = stack[row];
        if f.todo == 0 {
            if row == 0 {
                return Ok(None);
            }
            row -= 1;
            continue;
        }
        // The lowest set bit is the leftmost column not yet tried: this keeps the order.
        let bit = f.todo & f.todo.wrapping_neg();
        stack[row].todo ^= bit;
        cols[row] = bit.trailing_zeros();
        clock.tick()?;
        if row + 1 == n {
            return Ok(Some(cols));
        }
        let (down, left, right) = (f.down | bit, (f.left | bit) << 1, (f.right | bit) >> 1);
        row += 1;
        stack[row] = Frame {
            todo: full & !(down | left | right),
            down,
            left,
            right,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_stop_flag_ends_the_search_at_its_first_look() {
        let halt = first_unless_stopped(40, None, &AtomicBool::new(true)).unwrap_err();
        assert_eq!(
            halt,
            Halt {
                nodes: CLOCK_EVERY,
                stopped: true
            }
        );
    }

    #[test]
    fn deadline_in_the_past_times_out() {
        let past = Instant::now();
        let err = first(29, Some(past)).unwrap_err();
        assert!(err.nodes >= CLOCK_EVERY);
    }
}
