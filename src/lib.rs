//! # nqueens
//!
//! The N-Queens problem: place `n` queens on an `n` x `n` board so that no two attack.
//! This crate counts, lists, finds, completes and verifies placements, and keeps the classic
//! algorithms side by side. Every job has one entry point:
//!
//! ```
//! use nqueens::{Counter, Placement};
//!
//! // Count all and unique solutions (the engine, all cores).
//! let r = nqueens::count(12).unwrap();
//! assert_eq!((r.total, r.unique), (14200, Some(1787)));
//!
//! // The same with options: threads, strategy, progress, checkpoint, shard, a stop flag.
//! let r = Counter::new(10).threads(2).run().unwrap();
//! assert_eq!(r.total, 724);
//!
//! // List solutions lazily, or one per symmetry class.
//! let first: Vec<Placement> = nqueens::solutions(8).unwrap().take(3).collect();
//! assert!(first.iter().all(Placement::is_solution));
//! assert_eq!(nqueens::unique_solutions(8).unwrap().count(), 12);
//!
//! // Find one solution for a huge board, in constant memory per queen.
//! let big = nqueens::large::construct(1_000_000).unwrap();
//! assert!(big.is_solution());
//!
//! // Complete given queens and blocked squares (constraint propagation and search).
//! let puzzle = nqueens::cp::Instance::parse("8\nq 1 1\nx 2 3\n").unwrap();
//! let (found, _) = nqueens::cp::Solver::new(&puzzle, Default::default()).find();
//! assert!(puzzle.admits(&found.unwrap()));
//!
//! // Verify any placement, read from any of the text forms the crate writes.
//! let p: Placement = "2 4 1 3".parse().unwrap();
//! assert!(p.verify().is_ok());
//!
//! // Run one rung of the classic ladder by name.
//! let flags: nqueens::algo::Algo = "flags".parse().unwrap();
//! assert_eq!(flags.count(8).unwrap().total, 92);
//! ```
//!
//! The modules:
//!
//! - [`counter`]: [`count`] and [`Counter`], the front door for counting.
//! - [`Placement`]: the column of the queen in each row; verification, [`Symmetry`], formats
//!   ([`format`](mod@format)).
//! - [`algo`]: the ladder of classic algorithms, from generate-and-test to bitboards.
//! - [`solutions`](mod@solutions): lazy iterators over all solutions or one per symmetry class.
//! - [`engine`]: the fast counter, split into numbered tasks for threads, checkpoints, shards.
//! - [`cp`]: a propagation solver for partial placements and blocked squares.
//! - [`large`]: one solution for huge `n`.
//! - [`puzzle`]: puzzles with exactly one completion, proved by the completion solver.
//! - [`region`]: queens with regions (the daily "Queens" game): solve, count, verify,
//!   generate, rate and draw.
//! - [`reference`](mod@reference): the published counts (OEIS) for N = 1..=27.
//! - [`memory`]: the error of an allocation too large for the memory at hand.
//! - [`trace`]: any ladder search step by step, as text, JSON Lines, animated SVG or HTML.
//!
//! The command-line tool `nqueens` (the default `cli` feature) is a thin layer over these;
//! library users who want none of its dependencies take `default-features = false`.
#![deny(missing_docs)]

pub mod algo;
pub mod counter;
pub mod cp;
pub mod engine;
pub mod format;
pub mod large;
pub mod memory;
pub mod observe;
pub mod placement;
pub mod puzzle;
pub mod reference;
pub mod region;
pub mod solutions;
pub mod symmetry;
mod threads;
pub mod trace;

pub use counter::{Counter, count};
pub use placement::Placement;
pub use symmetry::Symmetry;

/// Every solution for `n` (1 to 64), lazily: see [`solutions::all`].
///
/// ```
/// assert_eq!(nqueens::solutions(8).unwrap().count(), 92);
/// ```
///
/// # Errors
/// [`solutions::OutOfRange`] for `n` outside 1 to 64.
pub fn solutions(n: usize) -> Result<solutions::Solutions, solutions::OutOfRange> {
    solutions::all(n)
}

/// One canonical solution per symmetry class for `n` (1 to 64), lazily: see [`solutions::unique`].
///
/// ```
/// assert_eq!(nqueens::unique_solutions(8).unwrap().count(), 12);
/// ```
///
/// # Errors
/// [`solutions::OutOfRange`] for `n` outside 1 to 64.
pub fn unique_solutions(n: usize) -> Result<solutions::UniqueSolutions, solutions::OutOfRange> {
    solutions::unique(n)
}
