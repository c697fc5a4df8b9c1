//! A small propagation solver for N-Queens, with given queens and blocked squares.
//!
//! Constraint programming splits a search problem into a *model* (variables, their domains,
//! constraints) and a generic *search* (choose, propagate, back up). For N-Queens the model is
//! one variable per row whose value is the queen's column, and three all-different constraints:
//! on the columns, on the `\` diagonals and on the `/` diagonals.
//!
//! - `domain` keeps which squares each row can still take: one machine word per row for
//!   `n <= 128`, counters for any `n`; placing and undoing a queen is `O(n)`;
//! - `propagate` applies forward checking, singletons and hidden singles;
//! - [`Solver`] searches: first-fail row order, middle-out value order, restarts;
//! - `packed` and `probe` keep a blocked board's free squares as a few machine words and
//!   search it with a trial queen on every square of every line of two (by default on
//!   blocked boards of 65 to 89 columns alone first, then in turns with `learn`'s
//!   no-goods, and in turns from 100 to 128);
//! - [`Instance`] is what is given: queens that must stay and squares that are blocked;
//!   [`blocked_board`] draws the hard ones of CSPLib problem 80.
//!
//! Completion (are these queens part of a solution?) is NP-complete, and a standard CP
//! benchmark; counters that only enumerate cannot answer it.
//!
//! ```
//! use nqueens::cp::{Instance, Options, Solver};
//! let inst = Instance::parse("8\nq 1 4\nx 2 6\n").unwrap();
//! let mut solver = Solver::new(&inst, Options::default());
//! let (found, _) = solver.find();
//! let p = found.expect("8 queens with one given at row 1, column 4");
//! assert!(inst.admits(&p));
//! ```

mod domain;
mod failed;
mod generate;
mod instance;
mod learn;
mod packed;
mod probe;
mod propagate;
mod reach;
mod search;
mod stats;

pub use generate::{GENERATE_MAX_N, blocked_board};
pub use instance::{Instance, InstanceError, MAX_N, ParseError};
pub use search::{Options, Solver, Status};
pub use stats::Stats;

#[cfg(test)]
mod tests;
