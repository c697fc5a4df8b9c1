//! The lexicographically first solution: the one a textbook backtracking program prints first.
//!
//! Rows are filled top to bottom and each row tries its columns from left to right, so the
//! first complete placement reached is the smallest in lexicographic order (for `n = 8`:
//! `1 5 8 6 3 7 2 4`). The search may have to undo almost everything before it gets there, and
//! how much depends wildly on `n` (tens of nodes for some, billions for a neighbour), which is
//! why [`first`] takes a deadline.
//!
//! Up to 64 columns the free squares of a row are one `u64` (bit `c` = column `c`), and the
//! lowest set bit is the leftmost free column; above that, flag arrays per column and diagonal.
//! Both keep their state on an explicit stack, one entry per row.

use std::time::Instant;

use crate::Placement;

/// The largest `n` accepted: the search needs a few bytes per row and diagonal, but beyond a
/// few hundred rows it is not expected to finish anyway.
pub const MAX_N: usize = 100_000;

/// Nodes (queens placed) between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 16;

/// The deadline passed before the search ended.
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
/// assert!(nqueens::large::first(100, Some(soon)).unwrap().unwrap().is_solution());
/// ```
pub fn first(n: usize, deadline: Option<Instant>) -> Result<Option<Placement>, TimedOut> {
    let mut clock = Clock { deadline, nodes: 0 };
    if n == 0 || n > MAX_N {
        return Ok(None);
    }
    let cols = if n <= 64 {
        first_bitboard(n, &mut clock)?
    } else {
        first_flags(n, &mut clock)?
    };
    Ok(cols.map(Placement::new))
}

/// Counts nodes and looks at the clock now and then.
struct Clock {
    deadline: Option<Instant>,
    nodes: u64,
}

impl Clock {
    #[inline]
    fn tick(&mut self) -> Result<(), TimedOut> {
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    return Err(TimedOut { nodes: self.nodes });
                }
            }
        }
        Ok(())
    }
}

/// `n <= 64`. Entry `row` of the stack holds the columns still to try in that row and the masks
/// of attacked columns it was entered with: `down` (columns), `left` and `right` (diagonals,
/// shifted one column per row as they move down the board).
fn first_bitboard(n: usize, clock: &mut Clock) -> Result<Option<Vec<u32>>, TimedOut> {
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

/// Any `n`: one flag per column and per diagonal; `cols[row]` doubles as the resume point.
fn first_flags(n: usize, clock: &mut Clock) -> Result<Option<Vec<u32>>, TimedOut> {
    let mut col_used = vec![false; n];
    let mut down_used = vec![false; 2 * n - 1];
    let mut up_used = vec![false; 2 * n - 1];
    let mut cols = vec![0u32; n];
    let mut row = 0;
    let mut start = 0;
    loop {
        let free =
            (start..n).find(|&c| !col_used[c] && !down_used[row + n - 1 - c] && !up_used[row + c]);
        match free {
            Some(c) => {
                clock.tick()?;
                cols[row] = c as u32;
                if row + 1 == n {
                    return Ok(Some(cols));
                }
                col_used[c] = true;
                down_used[row + n - 1 - c] = true;
                up_used[row + c] = true;
                row += 1;
                start = 0;
            }
            None => {
                if row == 0 {
                    return Ok(None);
                }
                row -= 1;
                let c = cols[row] as usize;
                col_used[c] = false;
                down_used[row + n - 1 - c] = false;
                up_used[row + c] = false;
                start = c + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_and_flags_agree() {
        for n in 1..=24 {
            let mut a = Clock {
                deadline: None,
                nodes: 0,
            };
            let mut b = Clock {
                deadline: None,
                nodes: 0,
            };
            assert_eq!(first_bitboard(n, &mut a), first_flags(n, &mut b), "n = {n}");
            assert_eq!(a.nodes, b.nodes, "n = {n}");
        }
    }

    #[test]
    fn deadline_in_the_past_times_out() {
        let past = Instant::now();
        let err = first(29, Some(past)).unwrap_err();
        assert!(err.nodes >= CLOCK_EVERY);
    }
}
