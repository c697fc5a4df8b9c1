//! The front door for finding one solution: [`Finder`], a builder that checks what was asked
//! ([`Finder::check`]) before any search, and finds ([`Finder::find_unless_stopped`]).
//!
//! The command line and the Python module both call it, so a size, a limit or a board without
//! solutions is refused with the same words everywhere.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{construction, first, min_conflicts};
use crate::Placement;
use crate::memory::{self, OutOfMemory};

/// How a solution is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// The explicit construction: the same solution every time, any `n`, row by row.
    Construction,
    /// Min-conflicts local search from `seed`: a random solution, the same for the same seed.
    Random {
        /// The seed of the search.
        seed: u64,
    },
    /// The lexicographically first solution, by backtracking, given up at `deadline`.
    First {
        /// When to give up (`None`: never).
        deadline: Option<Instant>,
    },
}

impl How {
    /// The largest `n` this way finds.
    pub fn max_n(self) -> usize {
        match self {
            How::Construction => construction::MAX_N,
            How::Random { .. } => min_conflicts::MAX_N,
            How::First { .. } => first::MAX_N,
        }
    }

    /// The name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            How::Construction => "the construction",
            How::Random { .. } => "min-conflicts (random)",
            How::First { .. } => "backtracking (first)",
        }
    }
}

/// Why no solution was found.
///
/// ```
/// use nqueens::large::{FindError, Finder};
/// assert_eq!(Finder::new(0).check().unwrap_err().to_string(), "N must be at least 1");
/// assert!(matches!(Finder::new(3).check(), Err(FindError::NoSolution { n: 3 })));
/// assert!(Finder::new(65).first(None).check().unwrap_err().to_string().contains("at most 64"));
/// ```
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum FindError {
    /// `n` is 0.
    #[error("N must be at least 1")]
    Zero,
    /// `n` is beyond what the way chosen handles.
    #[error("N={n} is too large for {how}: at most {max}")]
    TooLarge {
        /// Requested size.
        n: u64,
        /// The way chosen ([`How::name`]).
        how: &'static str,
        /// Its largest size.
        max: usize,
    },
    /// No solution exists (N = 2 and 3).
    #[error(
        "no solution exists for N={n}: N queens fit on an N x N board only for N = 1 and N >= 4"
    )]
    NoSolution {
        /// The board size.
        n: usize,
    },
    /// The search would need more memory than allowed.
    #[error(
        "finding {n} queens by {how} needs about {} of memory, more than the limit of {} (raise the memory limit{})",
        memory::human(*need),
        memory::human(*limit),
        if *random { ", or use the construction, which streams any N in constant memory" } else { "" }
    )]
    Memory {
        /// Board size.
        n: usize,
        /// The way chosen ([`How::name`]).
        how: &'static str,
        /// Whether that is the random search (the construction needs less).
        random: bool,
        /// Bytes needed, by estimate.
        need: u64,
        /// The limit.
        limit: u64,
    },
    /// The memory was not there after all.
    #[error("finding {n} queens: {source}")]
    OutOfMemory {
        /// Board size.
        n: usize,
        /// What failed.
        source: OutOfMemory,
    },
    /// The deadline of [`How::First`] passed first.
    #[error("backtracking found no solution for N={n} before the deadline ({nodes} queens placed)")]
    TimedOut {
        /// Board size.
        n: usize,
        /// Queens placed before the search gave up.
        nodes: u64,
    },
    /// The stop flag was set before a solution was found.
    #[error("interrupted before a solution was found")]
    Stopped,
}

impl FindError {
    /// `true` if the error is in what was asked (a size, a limit), as opposed to the search
    /// (no solution, no time, no memory after all, a stop).
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            FindError::Zero | FindError::TooLarge { .. } | FindError::Memory { .. }
        )
    }
}

/// The options of a search for one solution: a builder, then [`check`](Finder::check) and
/// [`find_unless_stopped`](Finder::find_unless_stopped).
///
/// ```
/// use nqueens::large::Finder;
/// let p = Finder::new(1000).find().unwrap();
/// assert!(p.is_solution() && p.n() == 1000);
/// let r = Finder::new(500).random(7).find().unwrap();
/// assert!(r.is_solution());
/// assert_eq!(Finder::new(8).first(None).find().unwrap().to_string(), "1 5 8 6 3 7 2 4");
/// ```
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct Finder {
    n: u64,
    how: How,
    max_memory: Option<u64>,
    streamed: bool,
}

impl Finder {
    /// A search for one solution of `n` queens by the construction, with the memory available
    /// now as the limit.
    pub fn new(n: u64) -> Finder {
        Finder {
            n,
            how: How::Construction,
            max_memory: None,
            streamed: false,
        }
    }

    /// Finds by min-conflicts from `seed` instead.
    pub fn random(mut self, seed: u64) -> Finder {
        self.how = How::Random { seed };
        self
    }

    /// Finds the lexicographically first solution instead, giving up at `deadline`.
    pub fn first(mut self, deadline: Option<Instant>) -> Finder {
        self.how = How::First { deadline };
        self
    }

    /// Refuses a search that would need more than `bytes` of memory (instead of the memory
    /// available now).
    pub fn max_memory(mut self, bytes: u64) -> Finder {
        self.max_memory = Some(bytes);
        self
    }

    /// The caller writes the construction row by row
    /// ([`write_streamed`](super::write_streamed)) instead of holding a [`Placement`]: no
    /// memory per queen is needed for it.
    pub fn streamed(mut self) -> Finder {
        self.streamed = true;
        self
    }

    /// The way chosen.
    pub fn how(&self) -> How {
        self.how
    }

    /// Bytes the search needs, by estimate: the random search's board (its columns are the
    /// placement returned), or the placement the others return, none for a
    /// [`streamed`](Self::streamed) construction.
    pub fn memory_bytes(&self) -> u64 {
        match self.how {
            How::Random { .. } => {
                min_conflicts::memory_bytes(usize::try_from(self.n).unwrap_or(usize::MAX))
            }
            How::Construction if self.streamed => 0,
            How::Construction | How::First { .. } => 4 * self.n,
        }
    }

    /// Checks everything that can be checked without searching, and gives `n`.
    ///
    /// ```
    /// use nqueens::large::{FindError, Finder};
    /// assert_eq!(Finder::new(8).check(), Ok(8));
    /// let err = Finder::new(1_000_000).random(1).max_memory(1000).check().unwrap_err();
    /// assert!(matches!(err, FindError::Memory { .. }) && err.is_bad_input());
    /// ```
    ///
    /// # Errors
    /// [`FindError::Zero`], [`FindError::TooLarge`] for the way chosen, [`FindError::NoSolution`]
    /// for N = 2 and 3, [`FindError::Memory`] over the limit.
    pub fn check(&self) -> Result<usize, FindError> {
        let max = self.how.max_n();
        let n = match usize::try_from(self.n) {
            Ok(0) => return Err(FindError::Zero),
            Ok(n) if n <= max => n,
            _ => {
                return Err(FindError::TooLarge {
                    n: self.n,
                    how: self.how.name(),
                    max,
                });
            }
        };
        if matches!(n, 2 | 3) {
            return Err(FindError::NoSolution { n });
        }
        let need = self.memory_bytes();
        let limit = memory::limit(need, self.max_memory);
        if need > limit {
            return Err(FindError::Memory {
                n,
                how: self.how.name(),
                random: matches!(self.how, How::Random { .. }),
                need,
                limit,
            });
        }
        Ok(n)
    }

    /// Finds the solution.
    ///
    /// # Errors
    /// What [`check`](Self::check) refuses, or what ended the search first.
    pub fn find(&self) -> Result<Placement, FindError> {
        self.find_unless_stopped(&AtomicBool::new(false))
    }

    /// [`find`](Self::find), giving up with [`FindError::Stopped`] once `stop` is set (within
    /// milliseconds, even for 10^9 queens, and for the first solution's backtracking).
    ///
    /// # Errors
    /// What [`check`](Self::check) refuses, or what ended the search first.
    pub fn find_unless_stopped(&self, stop: &AtomicBool) -> Result<Placement, FindError> {
        let n = self.check()?;
        let found = match self.how {
            How::Construction => match super::Construction::new(n) {
                Some(c) => Some(c.placement_unless_stopped(stop).ok_or(FindError::Stopped)?),
                None => None,
            },
            How::Random { seed } => super::min_conflicts_unless_stopped(n, seed, stop)
                .map_err(|e| match e {
                    min_conflicts::Unfinished::Stopped => FindError::Stopped,
                    min_conflicts::Unfinished::OutOfMemory(source) => {
                        FindError::OutOfMemory { n, source }
                    }
                })?
                .map(|(p, _)| p),
            How::First { deadline } => {
                first::first_unless_stopped(n, deadline, stop).map_err(|halt| {
                    if halt.stopped {
                        FindError::Stopped
                    } else {
                        FindError::TimedOut {
                            n,
                            nodes: halt.nodes,
                        }
                    }
                })?
            }
        };
        if stop.load(Ordering::Relaxed) && found.is_none() {
            return Err(FindError::Stopped);
        }
        found.ok_or(FindError::NoSolution { n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_refuses_alike_and_finds_a_solution() {
        for how in [
            How::Construction,
            How::Random { seed: 3 },
            How::First { deadline: None },
        ] {
            let finder = |n: u64| Finder {
                how,
                ..Finder::new(n)
            };
            assert_eq!(finder(0).check(), Err(FindError::Zero));
            for n in [2, 3] {
                assert_eq!(
                    finder(n).check(),
                    Err(FindError::NoSolution { n: n as usize })
                );
            }
            let too_large = how.max_n() as u64 + 1;
            assert!(matches!(
                finder(too_large).check(),
                Err(FindError::TooLarge { .. })
            ));
            for n in [1, 4, 5, 8, 13, 30] {
                let p = finder(n).find().unwrap();
                assert!(p.is_solution() && p.n() == n as usize, "{how:?} n = {n}");
            }
            let err = finder(40).max_memory(10).check().unwrap_err();
            assert!(
                err.to_string().contains("more than the limit of 10 bytes"),
                "{err}"
            );
        }
    }

    #[test]
    fn a_streamed_construction_needs_no_memory_per_queen() {
        let big = construction::MAX_N as u64;
        assert_eq!(Finder::new(big).streamed().memory_bytes(), 0);
        assert!(Finder::new(big).streamed().max_memory(0).check().is_ok());
        assert!(Finder::new(big).max_memory(1 << 30).check().is_err());
        // Streaming does not change what the random search holds: its board.
        let random = Finder::new(1 << 20).random(1);
        assert_eq!(random.streamed().memory_bytes(), random.memory_bytes());
        assert_eq!(random.memory_bytes(), min_conflicts::memory_bytes(1 << 20));
    }

    #[test]
    fn a_stopped_search_says_so() {
        let stop = AtomicBool::new(true);
        let err = Finder::new(1_000_000).random(1).find_unless_stopped(&stop);
        assert_eq!(err, Err(FindError::Stopped));
        // N = 62 takes far longer than any test: only the flag can end it.
        let err = Finder::new(62).first(None).find_unless_stopped(&stop);
        assert_eq!(err, Err(FindError::Stopped));
    }
}
