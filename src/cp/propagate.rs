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

use super::domain::{Bits, Board, General, Word};
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

/// The rules on the [`Bits`] boards, by whole-word sweeps: one pass over the unassigned rows
/// collects every domain. `once` gathers the columns some row can take and `twice` those that
/// two or more can, so `free & !once` are dead columns and `free & !twice` hidden singles.
///
/// Every queen a pass finds forced is placed in that pass (a singleton as soon as its row is
/// read), not one per pass: a pass costs a domain per row, and at 128 rows with five forced
/// queens a decision, passes were three quarters of the search time. The order does not
/// change the outcome: the rules only ever remove squares, so every forced queen stays forced
/// and the fixpoint (or the failure) is the same. A row read before a queen placed later in
/// the same pass may have lost squares since: the next pass sees it.
pub(crate) fn bits<W: Word>(dom: &mut Bits<W>, stats: &mut Stats) -> bool {
    loop {
        let (mut once, mut twice) = (W::ZERO, W::ZERO);
        let mut placed = false;
        let mut i = 0;
        while let Some((at, r, m)) = dom.sweep(i, &mut once, &mut twice) {
            if m == W::ZERO {
                return false;
            }
            stats.propagations += 1;
            dom.place(r, m.trailing_zeros() as usize);
            placed = true;
            // The row left the set; another one took its place at `at`.
            i = at;
        }
        // Rows read before a later singleton may only have lost squares, so `once` and
        // `twice` may hold columns no row can take any more, never miss one.
        let free = dom.free_columns();
        if free & !once != W::ZERO {
            return false;
        }
        let mut hidden = free & !twice;
        while hidden != W::ZERO {
            let c = hidden.trailing_zeros() as usize;
            hidden = hidden.clear_lowest();
            // At most one row could take `c`; none can when a queen placed since took the square.
            let Some(r) = dom
                .unassigned()
                .iter()
                .map(|&r| r as usize)
                .find(|&r| dom.available(r, c))
            else {
                return false;
            };
            stats.propagations += 1;
            dom.place(r, c);
            placed = true;
        }
        if !placed {
            return true;
        }
    }
}
