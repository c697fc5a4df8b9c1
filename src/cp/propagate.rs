//! Propagation: the three all-different constraints, applied until nothing more follows.
//!
//! The model is the one of the OR-Tools example: one variable per row (the queen's column),
//! and all-different on `q[i]`, on `q[i] + i` and on `q[i] - i`. Three rules enforce it:
//!
//! - *Forward checking*: a queen removes its column and both diagonals from every other row.
//!   The boards in [`domain`](super::domain) do this as part of placing a queen.
//! - *Singleton*: a row with one square left must take it; a row with none is a dead end.
//! - *Hidden single*: the columns are all different and there are as many rows as columns,
//!   so every column is used. A column that only one row can still take must get that row's
//!   queen; a column no row can take is a dead end. (Diagonals outnumber rows, so they have
//!   no such rule.)
//!
//! Each forced queen is placed like a decision, and may force more. On a failure the caller
//! undoes every queen placed since its mark, forced ones included.

use super::domain::{Bits64, Board, General};
use super::stats::Stats;

/// The rules on the [`General`] board, driven by its work lists: only rows and columns whose
/// counters fell to one or zero are looked at.
pub(crate) fn counters(dom: &mut General, stats: &mut Stats) -> bool {
    loop {
        if let Some(r) = dom.pop_low_row() {
            if dom.assigned(r) {
                continue;
            }
            match dom.size(r) {
                0 => return fail(dom),
                1 => {
                    let c = (0..dom.n())
                        .find(|&c| dom.available(r, c))
                        .expect("a domain of size one has a square");
                    stats.propagations += 1;
                    dom.place(r, c);
                }
                _ => {}
            }
        } else if let Some(c) = dom.pop_low_col() {
            if dom.column_taken(c) {
                continue;
            }
            match dom.support(c) {
                0 => return fail(dom),
                1 => {
                    let r = dom
                        .unassigned()
                        .iter()
                        .map(|&r| r as usize)
                        .find(|&r| dom.available(r, c))
                        .expect("a column with support one has a row");
                    stats.propagations += 1;
                    dom.place(r, c);
                }
                _ => {}
            }
        } else {
            return true;
        }
    }
}

fn fail(dom: &mut General) -> bool {
    dom.clear_low();
    false
}

/// The rules on the [`Bits64`] board, by whole-word sweeps: one pass over the unassigned rows
/// collects every domain. `once` gathers the columns some row can take and `twice` those that
/// two or more can, so `free & !once` are dead columns and `free & !twice` hidden singles.
pub(crate) fn bits64(dom: &mut Bits64, stats: &mut Stats) -> bool {
    loop {
        let (mut once, mut twice) = (0u64, 0u64);
        let mut singleton = None;
        for &r in dom.unassigned() {
            let m = dom.domain(r as usize);
            if m == 0 {
                return false;
            }
            // `m & (m - 1)` clears the lowest bit: zero means exactly one square.
            if m & (m - 1) == 0 {
                singleton = Some((r as usize, m));
            }
            twice |= once & m;
            once |= m;
        }
        let free = dom.free_columns();
        if free & !once != 0 {
            return false;
        }
        let (r, c) = if let Some((r, m)) = singleton {
            (r, m.trailing_zeros() as usize)
        } else if free & !twice != 0 {
            let c = (free & !twice).trailing_zeros() as usize;
            let r = dom
                .unassigned()
                .iter()
                .map(|&r| r as usize)
                .find(|&r| dom.domain(r) >> c & 1 == 1)
                .expect("a column seen once has a row");
            (r, c)
        } else {
            return true;
        };
        stats.propagations += 1;
        dom.place(r, c);
    }
}
