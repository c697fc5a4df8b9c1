//! One solution for huge `n`: explicit construction, min-conflicts local search, and the
//! lexicographically first solution by backtracking.
//!
//! Counting or listing solutions explodes with `n`, and even finding one by plain backtracking
//! stalls for some `n` near 30 and for almost all large `n`. Two ideas need no search at all, or
//! almost none:
//!
//! - [`construction`]: a closed formula gives the column of every row in constant time, so a
//!   solution of a billion queens can be streamed in constant memory ([`Construction`]).
//! - [`min_conflicts`](mod@min_conflicts): a random permutation repaired by swaps that remove
//!   diagonal conflicts gives a different random solution for each seed, in time and memory
//!   linear in `n`.
//!
//! [`first`](mod@first) is the opposite: the solution the textbook backtracking program prints
//! first, which can take very long, hence its deadline. [`Finder`] is the front door to all
//! three: it checks the size, the memory and the boards without solutions once, for the
//! command line and the Python module alike. [`write`](mod@write) streams any of them in the
//! `perm` or `json` format at disk speed.
//!
//! ```
//! use nqueens::large;
//! assert!(large::construct(100).unwrap().is_solution());
//! assert!(large::min_conflicts(100, 1).unwrap().is_solution());
//! let first = large::first(8, None).unwrap().unwrap();
//! assert_eq!(first.cols(), &[0, 4, 7, 5, 2, 6, 1, 3]);
//! ```

pub mod construction;
pub mod find;
pub mod first;
pub mod min_conflicts;
pub mod write;

pub use construction::{Construction, construct, construct_col};
pub use find::{FindError, Finder, How};
pub use first::{TimedOut, first};
pub use min_conflicts::{
    Stats, Unfinished, min_conflicts, min_conflicts_stats, min_conflicts_unless_stopped,
};
pub use write::{ColumnWriter, write_streamed};
