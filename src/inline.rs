//! Counting on the calling thread, for boards so small that starting threads costs more than
//! the count itself.
//!
//! [`Counter::run`](crate::Counter::run) asks the system for the number of cores (about 30 us
//! on Linux, which reads the cgroup limits), starts a thread pool (some hundreds of
//! microseconds) and has the engine build its task list (0.1 ms for N = 8, 1 ms for N = 10),
//! while the board itself takes microseconds. A caller that makes many small counts (the
//! Python module's `count(8)`, a table of small N) counts them here instead, on the thread
//! that asks.
//!
//! Up to [`SYMMETRY_MAX`] the fastest way is the [`symmetry`](crate::algo::symmetry) rung of
//! the ladder (bitboard on one solution per symmetry class, so it gives the unique count too),
//! which needs no task list. Measured on one loaded 2-core machine, microseconds per count:
//!
//! | N | symmetry rung | engine, backtrack tasks | engine, join tasks |
//! |---:|---:|---:|---:|
//! | 8 | 2.8 | 121 | 184 |
//! | 10 | 105 | 1043 | 362 |
//! | 11 | 611 | 2360 | 2012 |
//! | 12 | 5755 | 4479 | 2357 |

use std::time::Instant;

use crate::algo::Algo;
use crate::counter::{CountError, CountResult, Method};
use crate::engine::checkpoint::Header;
use crate::engine::shard::Slice;
use crate::engine::{self, Strategy, Tally};

/// The largest `n` that [`count`] counts with the symmetry rung when no strategy is asked for.
pub const SYMMETRY_MAX: usize = 11;

/// Counts all and unique solutions for `n` on the calling thread: with the engine's
/// `strategy` if one is given, otherwise with the fastest way for `n` (the symmetry rung up to
/// [`SYMMETRY_MAX`], the engine's fastest strategy above). Meant for small `n` (up to about 12,
/// a few milliseconds); larger counts belong to [`Counter`](crate::Counter), which spreads
/// them over threads and can be stopped.
///
/// ```
/// use nqueens::engine::Strategy;
/// let r = nqueens::inline::count(8, None).unwrap();
/// assert_eq!((r.total, r.unique), (92, Some(12)));
/// assert_eq!(r.method.label(), "algo/symmetry");
/// let r = nqueens::inline::count(8, Some(Strategy::Backtrack)).unwrap();
/// assert_eq!((r.total, r.unique, r.method.label().as_str()), (92, Some(12), "engine/backtrack"));
/// assert!(nqueens::inline::count(0, None).is_err());
/// ```
pub fn count(n: usize, strategy: Option<Strategy>) -> Result<CountResult, CountError> {
    let started = Instant::now();
    let Some(strategy) =
        strategy.or_else(|| (n > SYMMETRY_MAX).then(|| engine::fastest_strategy(n)))
    else {
        let counts = Algo::Symmetry.count(n)?;
        return Ok(CountResult {
            n,
            total: u128::from(counts.total),
            unique: counts.unique.map(u128::from),
            seconds: started.elapsed().as_secs_f64(),
            method: Method::Ladder(Algo::Symmetry),
            tally: Tally::default(),
            list: None,
            resumed: 0,
        });
    };
    let tasks = engine::task_list(n, strategy)?;
    let tally: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    Ok(CountResult {
        n,
        total: tally.total,
        unique: Some(tally.unique()),
        seconds: started.elapsed().as_secs_f64(),
        method: Method::Engine(strategy),
        tally,
        list: Some(Header::new(tasks.as_ref(), Slice::ALL)),
        resumed: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Counter;

    #[test]
    fn same_as_the_counter_and_the_reference() {
        for n in 0..=14 {
            let want = crate::reference::published(n);
            for strategy in [None, Some(Strategy::Backtrack), Some(Strategy::Join)] {
                let mut counter = Counter::new(n).threads(2);
                let method = match strategy {
                    Some(s) => Method::Engine(s),
                    None if n <= SYMMETRY_MAX => Method::Ladder(Algo::Symmetry),
                    None => Method::Engine(engine::fastest_strategy(n)),
                };
                counter = match method {
                    Method::Engine(s) => counter.strategy(s),
                    Method::Ladder(a) => counter.algo(a),
                };
                match (count(n, strategy), counter.run()) {
                    (Ok(here), Ok(pool)) => {
                        let want = want.expect("a count for every N the reference has");
                        assert_eq!((here.total, here.unique), (want.0, Some(want.1)), "N={n}");
                        assert_eq!(here.method, method);
                        assert_eq!((here.tally, here.list), (pool.tally, pool.list));
                    }
                    (Err(here), Err(pool)) => assert_eq!(here.to_string(), pool.to_string()),
                    (here, pool) => panic!("N={n}: {here:?} but the counter gave {pool:?}"),
                }
            }
        }
    }
}
