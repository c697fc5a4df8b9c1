//! The hot loop: counts the completions of one task.
//!
//! A task arrives as a [`Frame`] (per free row, the columns the border queens leave open) and a
//! [`Start`] (the queens already placed by the task's prefix). The loop is the classic bitboard
//! search (one bit per column; one mask per diagonal direction, shifted as we go down) with three
//! changes that matter for speed:
//!
//! - **No recursion**: an explicit stack of four words per level, so there are no calls, and the
//!   state of a suspended level is exactly what it needs to resume.
//! - **Leaves by popcount**: at the second-to-last free row, instead of descending once more for
//!   each child, the open columns of the last row are counted with one `popcnt`. The last level of
//!   a search tree holds most of its nodes, so this removes most pushes and pops.
//! - **Rows with a border queen are skipped**: the diagonals shift by the row distance to the
//!   next free row, so the loop never spends a level on a forced queen.
//!
//! The loop is compiled twice: a portable copy, and on x86-64 a copy with `popcnt` and `bmi1`
//! enabled (single instructions for counting bits and isolating the lowest one), chosen at run
//! time, so no `target-cpu=native` is needed.

use super::tasks::{Frame, Start};

/// Solutions and search nodes (queens placed) of one task.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Completions found.
    pub solutions: u64,
    /// Queens placed by the search; only counted by [`count_with_nodes`], otherwise 0.
    pub nodes: u64,
}

/// Counts the completions of `start` in `frame`.
///
/// ```
/// use nqueens::engine::{kernel, tasks::{constellations, Frame, Start}};
/// // Every 8x8 solution lies below one of these constellations.
/// let found: u64 = constellations(8)
///     .iter()
///     .map(|c| kernel::count(&Frame::new(8, c), Start::default()))
///     .sum();
/// assert!(found > 0);
/// ```
pub fn count(frame: &Frame, start: Start) -> u64 {
    dispatch::<false>(frame, start).solutions
}

/// Counts completions and search nodes, for benchmarks (a little slower than [`count`]).
///
/// ```
/// use nqueens::engine::{kernel, tasks::{constellations, Frame, Start}};
/// let c = kernel::count_with_nodes(&Frame::new(10, &constellations(10)[0]), Start::default());
/// assert!(c.nodes >= c.solutions);
/// ```
pub fn count_with_nodes(frame: &Frame, start: Start) -> Count {
    dispatch::<true>(frame, start)
}

fn dispatch<const NODES: bool>(frame: &Frame, start: Start) -> Count {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
        {
            // SAFETY: the CPU has just been checked to support every feature `search_x86`
            // is compiled for.
            return unsafe { search_x86::<NODES>(frame, start) };
        }
    }
    search::<NODES>(frame, start)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
unsafe fn search_x86<const NODES: bool>(frame: &Frame, start: Start) -> Count {
    search::<NODES>(frame, start)
}

#[inline(always)]
fn search<const NODES: bool>(frame: &Frame, start: Start) -> Count {
    let levels = frame.levels;
    assert!(levels <= 32, "a frame has at most 32 levels");
    let mut open = start.open(frame);
    match levels - start.level {
        0 => {
            return Count {
                solutions: 1,
                nodes: 0,
            }
        }
        1 => {
            return Count {
                solutions: open.count_ones() as u64,
                nodes: 0,
            }
        }
        _ => {}
    }
    let last = levels - 2;
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut depth = 0;
    let mut level = start.level;
    let (mut cols, mut left, mut right) = (start.cols, start.left, start.right);
    let mut solutions = 0u64;
    let mut nodes = 0u64;
    loop {
        if open == 0 {
            if depth == 0 {
                break;
            }
            depth -= 1;
            level -= 1;
            // SAFETY: `depth` was below 32 when this entry was pushed.
            (cols, left, right, open) = unsafe { *stack.get_unchecked(depth) };
            continue;
        }
        let q = open & open.wrapping_neg();
        open ^= q;
        if NODES {
            nodes += 1;
        }
        // SAFETY: `level <= last = levels - 2` and `levels <= 32` (asserted above), so `level`
        // and `level + 1` index the 32-entry arrays.
        let (s, allowed) = unsafe {
            (
                *frame.shift.get_unchecked(level),
                *frame.allowed.get_unchecked(level + 1),
            )
        };
        let (c, l, r) = (cols | q, (left | q) >> s, (right | q) << s);
        let next = allowed & !(c | l | r);
        if level == last {
            solutions += next.count_ones() as u64;
        } else if next != 0 {
            // SAFETY: `depth` counts the levels above `level`, so `depth < levels <= 32`.
            unsafe { *stack.get_unchecked_mut(depth) = (cols, left, right, open) };
            depth += 1;
            level += 1;
            (cols, left, right, open) = (c, l, r, next);
        }
    }
    Count { solutions, nodes }
}
