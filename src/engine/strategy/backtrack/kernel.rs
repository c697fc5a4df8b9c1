//! The hot loop: counts the completions of one task.
//!
//! A task arrives as a [`Frame`] (per free row, the columns the border queens leave open) and a
//! [`Start`] (the queens already placed by the task's prefix). The loop is the classic bitboard
//! search (one bit per column; one mask per diagonal direction, shifted as we go down) with three
//! changes that matter for speed:
//!
//! - **No recursion**: an explicit stack of four words per level, so there are no calls, and the
//!   state of a suspended level is exactly what it needs to resume.
//! - **The last rows in loops of their own**: the last four free rows, where most nodes are, are
//!   searched by nested loops with their masks in registers (`Tail`), and the last two of them
//!   without any loop: the completions below a whole row of candidate queens take five popcounts
//!   (see `Tail::two`).
//! - **Rows with a border queen are skipped**: the diagonals shift by the row distance to the
//!   next free row, so the loop never spends a level on a forced queen.
//!
//! The loop is compiled twice: a portable copy, and on x86-64 a copy with `popcnt` and `bmi1`
//! enabled (single instructions for counting bits and isolating the lowest one), chosen at run
//! time through the engine's CPU layer ([`crate::engine::cpu`]), so no `target-cpu=native` is
//! needed.

use std::sync::atomic::{AtomicBool, Ordering};

use super::constellation::{Frame, Start};
#[cfg(target_arch = "x86_64")]
use crate::engine::cpu::{self, Isa};

/// Solutions and search nodes (queens placed) of one task.
///
/// ```
/// use nqueens::engine::strategy::backtrack::{kernel, constellation::{constellations, Frame, Start}};
/// let frame = Frame::new(12, &constellations(12)[5]);
/// let c = kernel::count_with_nodes(&frame, Start::default());
/// assert_eq!(c.solutions, kernel::count(&frame, Start::default()));
/// assert!(c.nodes >= c.solutions);
/// ```
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
/// use nqueens::engine::strategy::backtrack::{kernel, constellation::{constellations, Frame, Start}};
/// // Every 8x8 solution lies below one of these constellations or one of its images.
/// let found: u64 = constellations(8)
///     .iter()
///     .map(|c| {
///         let orbit = 8 / c.stabiliser(8).len() as u64;
///         kernel::count(&Frame::new(8, c), Start::default()) * orbit
///     })
///     .sum();
/// assert_eq!(found, 92);
/// ```
pub fn count(frame: &Frame, start: Start) -> u64 {
    count_unless_stopped(frame, start, &AtomicBool::new(false))
}

/// [`count`] that returns early once `stop` is set, with a count to be thrown away.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::engine::strategy::backtrack::{kernel, constellation::{constellations, Frame}};
/// let frame = Frame::new(12, &constellations(12)[0]);
/// let go = AtomicBool::new(false);
/// let all = kernel::count_unless_stopped(&frame, Default::default(), &go);
/// assert_eq!(all, kernel::count(&frame, Default::default()));
/// ```
pub fn count_unless_stopped(frame: &Frame, start: Start, stop: &AtomicBool) -> u64 {
    dispatch::<false>(frame, start, stop).solutions
}

/// Counts completions and search nodes, for benchmarks (a little slower than [`count`]).
///
/// ```
/// use nqueens::engine::strategy::backtrack::{kernel, constellation::{constellations, Frame, Start}};
/// let c = kernel::count_with_nodes(&Frame::new(10, &constellations(10)[0]), Start::default());
/// assert!(c.nodes >= c.solutions);
/// ```
pub fn count_with_nodes(frame: &Frame, start: Start) -> Count {
    dispatch::<true>(frame, start, &AtomicBool::new(false))
}

/// The search, with the copy [`Isa::chosen`](crate::engine::cpu::Isa::chosen) names: any vector copy of the CPU layer also
/// proves `popcnt` and `bmi1`, the instructions this loop gains from.
fn dispatch<const NODES: bool>(frame: &Frame, start: Start, stop: &AtomicBool) -> Count {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = cpu::Avx2::for_isa(Isa::chosen()) {
        // SAFETY: `cpu` proves the CPU has the features `search_x86` is compiled for.
        return unsafe { search_x86::<NODES>(cpu, frame, start, stop) };
    }
    search::<NODES>(frame, start, stop)
}

/// The search compiled with `popcnt` and `bmi1`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
fn search_x86<const NODES: bool>(
    _: cpu::Avx2,
    frame: &Frame,
    start: Start,
    stop: &AtomicBool,
) -> Count {
    search::<NODES>(frame, start, stop)
}

#[inline(always)]
fn search<const NODES: bool>(frame: &Frame, start: Start, stop: &AtomicBool) -> Count {
    let levels = frame.levels;
    assert!(levels <= 32, "a frame has at most 32 levels");
    let open = start.open(frame);
    let (cols, left, right) = (start.cols, start.left, start.right);
    let tail = Tail::new(frame);
    match levels - start.level {
        0 => Count {
            solutions: 1,
            nodes: 0,
        },
        1 => Count {
            solutions: open.count_ones() as u64,
            nodes: 0,
        },
        2 => tail.two::<NODES>(cols, left, right, open),
        3 => tail.three::<NODES>(cols, left, right, open),
        TAIL => tail.four::<NODES>(cols, left, right, open),
        _ => descend::<NODES>(frame, &tail, start, stop),
    }
}

/// Tails searched between two looks at the stop flag. A tail is four rows (microseconds at
/// most), so a stopped search ends within milliseconds; the flag and its countdown take
/// registers the loop would use, so they are looked at rarely.
const CHECK_EVERY: u32 = 1 << 12;

/// How many free rows at the bottom of a frame [`Tail`] searches.
const TAIL: usize = 4;

/// The last four free rows, searched by nested loops instead of the stack, the last two of
/// them without any loop (see [`Tail::two`]).
///
/// Most of the tree's nodes sit in its last few rows. In loops of their own, with the masks
/// and shifts of those rows in registers, a node costs no push, no pop and no level check;
/// the gain shrinks with each row added, and four is the best (`docs/engine-trials.md`).
struct Tail {
    /// `shift[k]`: the row distance from the `k`-th last free row to the next (`k >= 2`).
    shift: [u32; TAIL + 1],
    /// `allowed[k]`: the columns the border queens leave open in the `k`-th last free row.
    allowed: [u32; TAIL + 1],
}

impl Tail {
    fn new(frame: &Frame) -> Tail {
        let mut tail = Tail {
            shift: [0; TAIL + 1],
            allowed: [0; TAIL + 1],
        };
        for k in 1..=TAIL.min(frame.levels) {
            tail.shift[k] = frame.shift[frame.levels - k];
            tail.allowed[k] = frame.allowed[frame.levels - k];
        }
        tail
    }

    /// The state below a queen `q` on the `k`-th last row, and the open columns there.
    #[inline(always)]
    fn place(&self, k: usize, cols: u32, left: u32, right: u32, q: u32) -> (u32, u32, u32, u32) {
        let s = self.shift[k];
        let (c, l, r) = (cols | q, (left | q) >> s, (right | q) << s);
        (c, l, r, self.allowed[k - 1] & !(c | l | r))
    }

    /// Completions of the fourth-to-last row with columns `open`.
    #[inline(always)]
    fn four<const NODES: bool>(&self, cols: u32, left: u32, right: u32, open: u32) -> Count {
        self.each_queen::<NODES>(4, cols, left, right, open, |c, l, r, next| {
            self.three::<NODES>(c, l, r, next)
        })
    }

    /// Completions of the third-to-last row with columns `open`.
    #[inline(always)]
    fn three<const NODES: bool>(&self, cols: u32, left: u32, right: u32, open: u32) -> Count {
        self.each_queen::<NODES>(3, cols, left, right, open, |c, l, r, next| {
            self.two::<NODES>(c, l, r, next)
        })
    }

    /// The loop of the `k`-th last row: each queen of `open` in turn, with `below` counting the
    /// completions under it. Inlined with `below`, it is the same nested loop as written out by
    /// hand for each row.
    #[inline(always)]
    fn each_queen<const NODES: bool>(
        &self,
        k: usize,
        cols: u32,
        left: u32,
        right: u32,
        mut open: u32,
        below: impl Fn(u32, u32, u32, u32) -> Count,
    ) -> Count {
        let mut found = Count::default();
        if NODES {
            found.nodes = open.count_ones() as u64;
        }
        while open != 0 {
            let q = open & open.wrapping_neg();
            open ^= q;
            let (c, l, r, next) = self.place(k, cols, left, right, q);
            let under = below(c, l, r, next);
            found.solutions += under.solutions;
            found.nodes += under.nodes;
        }
        found
    }

    /// Completions of the second-to-last row with columns `open`, without a loop over them.
    ///
    /// A queen `q` there leaves the last row the columns of `rest` (what the queens above
    /// leave it) except three: `q` itself and its two diagonal neighbours `q >> s` and `q << s`
    /// (distinct bits, as `s >= 1`; a bit shifted off the word is simply gone). So it has
    /// `popcnt(rest) - [q in rest] - [q >> s in rest] - [q << s in rest]` completions, and the
    /// sum over every `q` of `open` takes five popcounts: summed over `q`, the brackets count
    /// `rest & open`, `rest & (open >> s)` and `rest & (open << s)` (a shift maps distinct bits
    /// to distinct bits).
    #[inline(always)]
    fn two<const NODES: bool>(&self, cols: u32, left: u32, right: u32, open: u32) -> Count {
        let s = self.shift[2];
        let rest = self.allowed[1] & !(cols | left >> s | right << s);
        let each = open.count_ones() * rest.count_ones();
        let lost = (rest & open).count_ones()
            + (rest & open >> s).count_ones()
            + (rest & open << s).count_ones();
        Count {
            solutions: u64::from(each - lost),
            nodes: if NODES { open.count_ones() as u64 } else { 0 },
        }
    }
}

/// The search from `start` (more than [`TAIL`] free rows left) down to the last row above the
/// tail, whose children [`Tail::four`] counts.
#[inline(always)]
fn descend<const NODES: bool>(
    frame: &Frame,
    tail: &Tail,
    start: Start,
    stop: &AtomicBool,
) -> Count {
    let deepest = frame.levels - TAIL - 1;
    let mut found = Count::default();
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut depth = 0;
    let mut level = start.level;
    let (mut cols, mut left, mut right) = (start.cols, start.left, start.right);
    let mut open = start.open(frame);
    let mut until_check = CHECK_EVERY;
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
            found.nodes += 1;
        }
        // SAFETY: `level <= deepest < levels` and `levels <= 32` (asserted by the caller), so
        // `level` and `level + 1` index the 32-entry arrays.
        let (s, allowed) = unsafe {
            (
                *frame.shift.get_unchecked(level),
                *frame.allowed.get_unchecked(level + 1),
            )
        };
        let (c, l, r) = (cols | q, (left | q) >> s, (right | q) << s);
        let next = allowed & !(c | l | r);
        if level == deepest {
            let below = tail.four::<NODES>(c, l, r, next);
            found.solutions += below.solutions;
            found.nodes += below.nodes;
            until_check -= 1;
            if until_check == 0 {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                until_check = CHECK_EVERY;
            }
        } else if next != 0 {
            // SAFETY: `depth` counts the levels above `level`, so `depth < levels <= 32`.
            unsafe { *stack.get_unchecked_mut(depth) = (cols, left, right, open) };
            depth += 1;
            level += 1;
            (cols, left, right, open) = (c, l, r, next);
        }
    }
    found
}
