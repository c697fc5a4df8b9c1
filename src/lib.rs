//! # nqueens
//!
//! The N-Queens problem: place `n` queens on an `n` x `n` board so that no two attack.
//! This crate counts, lists, finds, completes and verifies placements.
//!
//! - [`Placement`]: the column of the queen in each row; verification, symmetries, formats.
//! - [`algo`]: the ladder of classic algorithms, from generate-and-test to bitboards.
//! - [`solutions`]: lazy iterators over all solutions or one per symmetry class.
//! - [`engine`]: the fast counter, split into numbered tasks for threads, checkpoints, shards.
//! - [`cp`]: a propagation solver for partial placements and blocked squares.
//! - [`large`]: one solution for huge `n`.
//! - [`reference`]: the published counts (OEIS) for N = 1..=27.
//! - [`trace`]: any ladder search step by step, as text, JSON Lines, animated SVG or HTML.
//!
//! ```
//! use nqueens::Placement;
//! let p = Placement::from_one_based(&[1, 5, 8, 6, 3, 7, 2, 4]).unwrap();
//! assert!(p.is_solution());
//! ```
#![deny(missing_docs)]

pub mod algo;
pub mod cp;
pub mod engine;
pub mod format;
pub mod large;
pub mod placement;
pub mod reference;
pub mod solutions;
pub mod trace;

pub use placement::Placement;

/// Every solution for `n` (1 to 64), lazily: see [`solutions::all`].
///
/// ```
/// assert_eq!(nqueens::solutions(8).unwrap().count(), 92);
/// ```
pub fn solutions(n: usize) -> Result<solutions::Solutions, solutions::OutOfRange> {
    solutions::all(n)
}

/// One canonical solution per symmetry class for `n` (1 to 64), lazily: see [`solutions::unique`].
///
/// ```
/// assert_eq!(nqueens::unique_solutions(8).unwrap().count(), 12);
/// ```
pub fn unique_solutions(n: usize) -> Result<solutions::UniqueSolutions, solutions::OutOfRange> {
    solutions::unique(n)
}
