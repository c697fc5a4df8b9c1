//! Puzzles: boards with some queens given (and perhaps squares blocked) that have exactly one
//! completion, for teachers, puzzle books and reasoning benchmarks.
//!
//! Uniqueness is proved, not hoped: every puzzle's completions are counted with a limit of 2
//! by the completion solver ([`crate::cp`]), which decides boards of 64 in milliseconds where
//! plain enumeration stops near 12. A *minimal* puzzle loses its uniqueness when any one of
//! its clues (given queen or blocked square) is taken away. The difficulty is the solver's own
//! effort on the puzzle ([`Measures`], [`Difficulty`]): none of its guesses needed is easy,
//! guesses each settled by propagation alone medium, nested guesses hard.
//!
//! - [`Generator`]: the options (size, seed, blocked squares, minimal, difficulty, threads)
//!   and the puzzles, one by number or a stream in order;
//! - `generate`: how one puzzle is made;
//! - `prove`: uniqueness ([`completions`]) and the difficulty measures ([`measure`]);
//! - `write`: the two text forms, a board drawing and JSON Lines, both read back by
//!   [`Instance::read`](crate::cp::Instance::read).
//!
//! The same seed gives the same puzzles, whatever the number of threads: puzzle `i` is made
//! from its own stream of the seed, and puzzles come out in the order of their numbers.
//!
//! ```
//! use nqueens::puzzle::{Completions, Generator, completions};
//! let generator = Generator::new(8).unwrap().seed(7).minimal(true);
//! for puzzle in generator.puzzles(3) {
//!     let puzzle = puzzle.unwrap();
//!     assert!(matches!(completions(puzzle.instance()), Completions::One(p) if &p == puzzle.solution()));
//! }
//! assert_eq!(generator.puzzle(2).unwrap(), generator.puzzles(3).nth(2).unwrap().unwrap());
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::threads::{InOrder, Numbered};

use crate::Placement;
use crate::cp::Instance;

mod generate;
mod prove;
mod write;

pub use prove::{Completions, Difficulty, Measures, completions, measure};
pub use write::{write_board, write_json};

/// The smallest board with puzzles: 1 has nothing to ask, 2 and 3 have no solution.
pub const MIN_N: usize = 4;

/// The largest board puzzles are made for: the completion solver's one-word board.
pub const MAX_N: usize = 64;

/// Puzzles made and dropped for their difficulty before giving up, unless
/// [`Generator::tries`] says otherwise.
pub const DEFAULT_TRIES: u32 = 1000;

/// A puzzle: the clues, the one solution they allow, and the solver's effort on them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    instance: Instance,
    solution: Placement,
    measures: Measures,
}

impl Puzzle {
    /// The clues: the given queens and the blocked squares.
    pub fn instance(&self) -> &Instance {
        &self.instance
    }

    /// The one completion of the clues.
    pub fn solution(&self) -> &Placement {
        &self.solution
    }

    /// The solver's effort to solve the puzzle and prove the solution unique.
    pub fn measures(&self) -> &Measures {
        &self.measures
    }

    /// The difficulty its measures make.
    pub fn difficulty(&self) -> Difficulty {
        self.measures.difficulty()
    }

    /// The number of given queens.
    ///
    /// ```
    /// let puzzle = nqueens::puzzle::Generator::new(6).unwrap().puzzle(0).unwrap();
    /// assert_eq!(puzzle.givens(), puzzle.instance().fixed().count());
    /// ```
    pub fn givens(&self) -> usize {
        self.instance.fixed().count()
    }
}

/// Why no puzzle came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The board size is outside [`MIN_N`]..=[`MAX_N`].
    #[error("puzzles are made for N from {MIN_N} to {MAX_N}, not {n}")]
    Size {
        /// The size asked for.
        n: usize,
    },
    /// No puzzle of the difficulty asked for (or, without one, no puzzle whose minimality the
    /// solver could decide within its bound) turned up in the puzzles tried.
    #[error("no {} puzzle for N={n} in {tries} tries", .difficulty.map_or("minimal", Difficulty::name))]
    NotFound {
        /// The board size.
        n: usize,
        /// The difficulty asked for.
        difficulty: Option<Difficulty>,
        /// Puzzles made and dropped.
        tries: u32,
    },
    /// The stop flag was raised.
    #[error("stopped before the puzzle was made")]
    Stopped,
}

/// The options of a run of puzzles, and the puzzles.
///
/// ```
/// use nqueens::puzzle::{Difficulty, Generator};
/// let generator = Generator::new(10).unwrap()
///     .seed(1)
///     .blocked(true)
///     .difficulty(Some(Difficulty::Medium))
///     .threads(2);
/// let puzzle = generator.puzzle(0).unwrap();
/// assert_eq!(puzzle.difficulty(), Difficulty::Medium);
/// assert!(puzzle.instance().admits(puzzle.solution()));
/// assert!(Generator::new(3).is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Generator<'a> {
    n: usize,
    seed: u64,
    blocked: bool,
    minimal: bool,
    difficulty: Option<Difficulty>,
    threads: Option<usize>,
    tries: u32,
    stop: Option<&'a AtomicBool>,
}

impl<'a> Generator<'a> {
    /// Puzzles on a board of `n` (from [`MIN_N`] to [`MAX_N`]): seed 0, given queens only,
    /// not minimal, any difficulty, all cores.
    ///
    /// # Errors
    /// [`PuzzleError::Size`] for an `n` outside [`MIN_N`]..=[`MAX_N`].
    pub fn new(n: usize) -> Result<Self, PuzzleError> {
        if !(MIN_N..=MAX_N).contains(&n) {
            return Err(PuzzleError::Size { n });
        }
        Ok(Generator {
            n,
            seed: 0,
            blocked: false,
            minimal: false,
            difficulty: None,
            threads: None,
            tries: DEFAULT_TRIES,
            stop: None,
        })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The seed: the same seed gives the same puzzles.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Clues may be blocked squares too, not only given queens.
    #[must_use]
    pub fn blocked(mut self, blocked: bool) -> Self {
        self.blocked = blocked;
        self
    }

    /// Only minimal puzzles: taking away any clue leaves more than one completion.
    #[must_use]
    pub fn minimal(mut self, minimal: bool) -> Self {
        self.minimal = minimal;
        self
    }

    /// Only puzzles of this difficulty (`None`: any).
    #[must_use]
    pub fn difficulty(mut self, difficulty: Option<Difficulty>) -> Self {
        self.difficulty = difficulty;
        self
    }

    /// Threads for [`puzzles`](Self::puzzles) (at least 1; all cores by default).
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads.max(1));
        self
    }

    /// Puzzles made and dropped for their difficulty before [`PuzzleError::NotFound`].
    #[must_use]
    pub fn tries(mut self, tries: u32) -> Self {
        self.tries = tries.max(1);
        self
    }

    /// Stops making puzzles, with [`PuzzleError::Stopped`], once `flag` is set; it is looked
    /// at between two proofs of uniqueness.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use nqueens::puzzle::{Generator, PuzzleError};
    /// let stop = AtomicBool::new(true);
    /// let generator = Generator::new(8).unwrap().stop_when(&stop);
    /// assert_eq!(generator.puzzle(0), Err(PuzzleError::Stopped));
    /// ```
    #[must_use]
    pub fn stop_when(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Puzzle number `index` (from 0), on the calling thread: the same for the same options
    /// and seed, whatever else was made.
    ///
    /// # Errors
    /// [`PuzzleError::NotFound`] if no puzzle of the difficulty asked for turned up,
    /// [`PuzzleError::Stopped`] once the stop flag is raised.
    pub fn puzzle(&self, index: u64) -> Result<Puzzle, PuzzleError> {
        generate::puzzle(self, index)
    }

    /// Puzzles 0 to `count - 1`, in order, made on [`threads`](Self::threads) threads a batch
    /// at a time. After an error the iterator ends.
    pub fn puzzles(&self, count: u64) -> Puzzles<'a> {
        let threads = self.threads.unwrap_or_else(rayon::current_num_threads);
        Puzzles(InOrder::new(*self, count, threads))
    }

    fn check_stop(&self) -> Result<(), PuzzleError> {
        match self.stop {
            Some(flag) if flag.load(Ordering::Relaxed) => Err(PuzzleError::Stopped),
            _ => Ok(()),
        }
    }
}

/// Puzzles in the order of their numbers, from [`Generator::puzzles`].
pub struct Puzzles<'a>(InOrder<Generator<'a>>);

impl Numbered for Generator<'_> {
    type Item = Puzzle;
    type Error = PuzzleError;

    fn make(&self, index: u64) -> Result<Puzzle, PuzzleError> {
        self.puzzle(index)
    }
}

impl Iterator for Puzzles<'_> {
    type Item = Result<Puzzle, PuzzleError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
}

#[cfg(test)]
mod tests;
