//! `parallel`: the bitboard search split across all cores.
//!
//! Placing the first two rows in every possible way splits the search into up to `n * (n - 1)`
//! independent subtrees. Rayon hands them to one thread per core, each runs the plain
//! `bitboard` search below its two queens, and the counts are summed. Listing works the same
//! way: the threads send solutions through a bounded channel to the caller, so they arrive in
//! no fixed order and the threads stop soon after the caller stops listening.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use rayon::prelude::*;

use super::bitboard::{self, Masks};
use crate::Placement;
use crate::observe::{Observer, Stopper};

/// Counts the solutions for `n` on all cores.
///
/// ```
/// assert_eq!(nqueens::algo::parallel::count(11), 2680);
/// ```
pub fn count(n: usize) -> u64 {
    subtrees(n)
        .into_par_iter()
        .map(|(_, masks)| bitboard::count_below(masks, &mut ()))
        .sum()
}

/// [`count`], or `None` once `stop` is set: each subtree's search looks at the flag.
pub(crate) fn count_unless_stopped(n: usize, stop: &AtomicBool) -> Option<u64> {
    subtrees(n)
        .into_par_iter()
        .map(|(_, masks)| {
            let mut stopper = Stopper::new(stop);
            let count = bitboard::count_below(masks, &mut stopper);
            (!stopper.stopped()).then_some(count)
        })
        .sum()
}

/// Calls `visit` with every solution for `n`, found on all cores, in no fixed order.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut count = 0;
/// let _ = nqueens::algo::parallel::for_each_solution(8, &mut |p| {
///     assert!(p.is_solution());
///     count += 1;
///     ControlFlow::Continue(())
/// });
/// assert_eq!(count, 92);
/// ```
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Bounded, so that fast threads wait for a slow caller instead of filling memory.
        let (tx, rx) = mpsc::sync_channel::<Placement>(1024);
        let stop = &stop;
        scope.spawn(move || {
            subtrees(n)
                .into_par_iter()
                .for_each_with(tx, |tx, (mut cols, masks)| {
                    let _ = bitboard::list_below(
                        masks,
                        &mut cols,
                        &mut |p: &Placement| {
                            // A failed send means the caller has hung up: stop too.
                            if stop.load(Ordering::Relaxed) || tx.send(p.clone()).is_err() {
                                return ControlFlow::Break(());
                            }
                            ControlFlow::Continue(())
                        },
                        &mut (),
                    );
                });
        });
        let flow = loop {
            match rx.recv() {
                Ok(p) => {
                    if visit(&p).is_break() {
                        stop.store(true, Ordering::Relaxed);
                        break ControlFlow::Break(());
                    }
                }
                Err(_) => break ControlFlow::Continue(()),
            }
        };
        // Dropping the receiver wakes any thread blocked on a full channel.
        drop(rx);
        flow
    })
}

/// The steps of a traced search: the bitboard tree that the threads share out, walked by one
/// thread in order (steps from several threads at once would interleave beyond reading).
pub(crate) fn observed(
    n: usize,
    visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    obs: &mut impl Observer,
) -> ControlFlow<()> {
    bitboard::observed(n, visit, obs)
}

/// Every way to place the first `min(n, 2)` rows, with the masks below them.
fn subtrees(n: usize) -> Vec<(Vec<u32>, Masks)> {
    let mut level = vec![(Vec::new(), Masks::new(n))];
    for _ in 0..n.min(2) {
        level = level
            .into_iter()
            .flat_map(|(cols, masks)| {
                let free = masks.free();
                (0..n as u32)
                    .filter(move |&c| free >> c & 1 == 1)
                    .map(move |c| {
                        let mut cols: Vec<u32> = cols.clone();
                        cols.push(c);
                        (cols, masks.place(1 << c))
                    })
            })
            .collect();
    }
    level
}
