//! The ladder: the classic algorithms of the reference documents, slowest first.
//!
//! Each algorithm is a small module that can count and list the solutions for one `n`, and
//! each rung fixes the main cost of the one before:
//!
//! | rung | idea |
//! |---|---|
//! | [`permutations`] | try all `n!` orderings of the columns, test each |
//! | [`backtracking`] | place row by row, drop a branch at its first conflict |
//! | [`flags`] | one flag per column and diagonal: a square is checked in O(1) |
//! | [`swap`] | columns as a permutation swapped in place: only diagonals need flags |
//! | [`bitboard`] | a row's attacked squares as three bit masks |
//! | [`mirror`] | bitboard on half of the first row, doubled by the left-right mirror |
//! | [`symmetry`] | bitboard on one solution per class of the 8 symmetries: total and unique |
//! | [`parallel`] | bitboard split into subtrees over all cores |
//! | [`cp`] | propagation and search, the constraint-programming way |
//!
//! Every rung reports its steps to an [`Observer`] (nothing, at no cost, when counting):
//! [`Algo::observe`] watches a search, [`Algo::work`] counts its nodes and square checks.
//!
//! The slow ones are kept because they are the lesson, and because they are the oracles that
//! test the fast ones. [`Algo`] selects a rung by name.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::Placement;
use crate::observe::{Observer, Stopper, Work};

pub mod backtracking;
pub mod bitboard;
pub mod cp;
pub mod flags;
pub mod mirror;
pub mod parallel;
pub mod permutations;
pub mod swap;
pub mod symmetry;

/// The result of counting: the total, and the unique count if the algorithm knows it.
///
/// ```
/// use nqueens::algo::{Algo, Counts};
/// assert_eq!(Algo::Symmetry.count(10), Ok(Counts { total: 724, unique: Some(92) }));
/// assert_eq!(Algo::Mirror.count(10), Ok(Counts { total: 724, unique: None }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// All solutions.
    pub total: u64,
    /// Solutions up to rotation and reflection, where the algorithm computes it.
    pub unique: Option<u64>,
}

impl Counts {
    fn total(total: u64) -> Counts {
        Counts {
            total,
            unique: None,
        }
    }
}

/// One algorithm of the ladder, selectable by name.
///
/// ```
/// use nqueens::algo::Algo;
/// let algo: Algo = "mirror".parse().unwrap();
/// assert_eq!(algo.count(8).unwrap().total, 92);
/// assert_eq!(Algo::Symmetry.count(8).unwrap().unique, Some(12));
/// assert!(Algo::Permutations.count(20).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Algo {
    /// Generate every permutation of the columns and test it.
    Permutations,
    /// Row by row, checking each new queen against the placed ones.
    Backtracking,
    /// Row by row, with column and diagonal flag arrays.
    Flags,
    /// A permutation swapped in place, with diagonal flags.
    Swap,
    /// Attacked squares as bit masks, lowest free bit first.
    Bitboard,
    /// Bitboard on half the first row, doubled by the left-right mirror.
    Mirror,
    /// Bitboard on one solution per symmetry class: total and unique counts.
    Symmetry,
    /// Bitboard split across all cores with rayon.
    Parallel,
    /// Propagation + search (constraint programming).
    Cp,
}

/// Why an algorithm cannot run for this `n`.
///
/// ```
/// use nqueens::algo::{Algo, AlgoError};
/// let err = Algo::Permutations.count(13).unwrap_err();
/// assert!(matches!(err, AlgoError::OutOfRange { n: 13, max: 12, .. }));
/// assert!(err.to_string().starts_with("permutations handles N from 1 to 12, not 13"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AlgoError {
    /// `n` is outside the algorithm's range.
    #[error("{algo} handles N from 1 to {max}, not {n}: {why}")]
    OutOfRange {
        /// Algorithm name.
        algo: &'static str,
        /// Requested size.
        n: usize,
        /// Largest size it handles.
        max: usize,
        /// The reason for the limit.
        why: &'static str,
    },
}

/// The lower rungs count by listing: each solution they build is one more.
fn count_by_listing(
    list: impl FnOnce(&mut dyn FnMut(&Placement) -> ControlFlow<()>) -> ControlFlow<()>,
) -> u64 {
    let mut total = 0;
    let _ = list(&mut |_| {
        total += 1;
        ControlFlow::Continue(())
    });
    total
}

/// An algorithm name that is not on the ladder.
///
/// ```
/// use nqueens::algo::{Algo, UnknownAlgo};
/// let err = "quantum".parse::<Algo>().unwrap_err();
/// assert_eq!(err, UnknownAlgo("quantum".into()));
/// assert!(err.to_string().starts_with(r#"unknown algorithm "quantum"; the ladder has: perm"#));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm {0:?}; the ladder has: {names}", names = Algo::names())]
pub struct UnknownAlgo(pub String);

/// The largest N whose total fits the `u64` counters (N = 29 would overflow them).
const MAX_COUNTED: usize = 28;
const COUNTER_REASON: &str = "the number of solutions for N = 29 overflows the 64-bit counter";
/// The same limit for a search that counts nothing: the rungs are built, and tested against
/// the published counts, for the sizes they count.
const LISTING_REASON: &str =
    "the ladder's rungs list and trace the sizes they count, which end where a 64-bit count does";

impl Algo {
    /// Every algorithm, slowest first.
    ///
    /// ```
    /// for algo in nqueens::algo::Algo::ALL {
    ///     assert_eq!(algo.count(8).unwrap().total, 92, "{algo}");
    /// }
    /// ```
    pub const ALL: [Algo; 9] = [
        Algo::Permutations,
        Algo::Backtracking,
        Algo::Flags,
        Algo::Swap,
        Algo::Bitboard,
        Algo::Mirror,
        Algo::Symmetry,
        Algo::Parallel,
        Algo::Cp,
    ];

    /// The name used on the command line.
    ///
    /// ```
    /// assert_eq!(nqueens::algo::Algo::Flags.name(), "flags");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Algo::Permutations => "permutations",
            Algo::Backtracking => "backtracking",
            Algo::Flags => "flags",
            Algo::Swap => "swap",
            Algo::Bitboard => "bitboard",
            Algo::Mirror => "mirror",
            Algo::Symmetry => "symmetry",
            Algo::Parallel => "parallel",
            Algo::Cp => "cp",
        }
    }

    /// The algorithm called `name`, if any.
    ///
    /// ```
    /// use nqueens::algo::Algo;
    /// assert_eq!(Algo::from_name("swap"), Some(Algo::Swap));
    /// assert_eq!(Algo::from_name("quantum"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Algo> {
        Algo::ALL.into_iter().find(|a| a.name() == name)
    }

    /// All names, comma-separated, for messages.
    ///
    /// ```
    /// let names = nqueens::algo::Algo::names();
    /// assert!(names.starts_with("permutations, backtracking, flags,"));
    /// assert_eq!(names.split(", ").count(), nqueens::algo::Algo::ALL.len());
    /// ```
    pub fn names() -> String {
        Algo::ALL.map(Algo::name).join(", ")
    }

    /// The largest `n` this algorithm accepts (see [`limit_reason`](Self::limit_reason)).
    ///
    /// ```
    /// assert_eq!(nqueens::algo::Algo::Permutations.max_n(), 12);
    /// ```
    pub fn max_n(self) -> usize {
        match self {
            Algo::Permutations => 12,
            _ => MAX_COUNTED,
        }
    }

    /// Why [`max_n`](Self::max_n) is what it is.
    ///
    /// ```
    /// assert!(nqueens::algo::Algo::Permutations.limit_reason().contains("13!"));
    /// ```
    pub fn limit_reason(self) -> &'static str {
        match self {
            Algo::Permutations => {
                "generate and test enumerates all N! orderings; 13! is 6.2 billion, hours of work"
            }
            _ => COUNTER_REASON,
        }
    }

    /// Whether [`count`](Self::count) gives the unique count too.
    ///
    /// ```
    /// use nqueens::algo::Algo;
    /// assert!(Algo::Symmetry.gives_unique());
    /// assert!(!Algo::Bitboard.gives_unique());
    /// ```
    pub fn gives_unique(self) -> bool {
        matches!(self, Algo::Symmetry)
    }

    /// `Ok` if `n` is in `1..=max_n()`, else the reason it is not.
    ///
    /// ```
    /// assert!(nqueens::algo::Algo::Flags.check(0).is_err());
    /// ```
    ///
    /// # Errors
    /// [`AlgoError`] saying why `n` is out of this algorithm's range.
    pub fn check(self, n: usize) -> Result<(), AlgoError> {
        self.check_with(n, self.limit_reason())
    }

    /// [`check`](Self::check) for listing or tracing solutions, which counts nothing: the
    /// limit is the same, its reason said without a counter.
    ///
    /// ```
    /// let err = nqueens::algo::Algo::Flags.check_listing(40).unwrap_err().to_string();
    /// assert!(err.starts_with("flags handles N from 1 to 28, not 40"), "{err}");
    /// assert!(!err.contains("counter"), "{err}");
    /// ```
    ///
    /// # Errors
    /// [`AlgoError`] saying why this algorithm does not list the solutions of `n`.
    pub fn check_listing(self, n: usize) -> Result<(), AlgoError> {
        let why = match self {
            Algo::Permutations => self.limit_reason(),
            _ => LISTING_REASON,
        };
        self.check_with(n, why)
    }

    fn check_with(self, n: usize, why: &'static str) -> Result<(), AlgoError> {
        if (1..=self.max_n()).contains(&n) {
            Ok(())
        } else {
            Err(AlgoError::OutOfRange {
                algo: self.name(),
                n,
                max: self.max_n(),
                why: if n == 0 {
                    "a board needs at least one row"
                } else {
                    why
                },
            })
        }
    }

    /// Counts the solutions for `n`.
    ///
    /// ```
    /// let c = nqueens::algo::Algo::Swap.count(6).unwrap();
    /// assert_eq!((c.total, c.unique), (4, None));
    /// ```
    ///
    /// # Errors
    /// [`AlgoError`] for an `n` out of this algorithm's range ([`check`](Self::check)).
    pub fn count(self, n: usize) -> Result<Counts, AlgoError> {
        self.check(n)?;
        Ok(match self {
            Algo::Permutations => Counts::total(permutations::count(n)),
            Algo::Backtracking => Counts::total(backtracking::count(n)),
            Algo::Flags => Counts::total(flags::count(n)),
            Algo::Swap => Counts::total(swap::count(n)),
            Algo::Bitboard => Counts::total(bitboard::count(n)),
            Algo::Mirror => Counts::total(mirror::count(n)),
            Algo::Symmetry => symmetry::count(n),
            Algo::Parallel => Counts::total(parallel::count(n)),
            Algo::Cp => return cp::count(n),
        })
    }

    /// [`count`](Self::count), or `Ok(None)` once `stop` is set: every rung looks at the flag
    /// every few thousand nodes (and at each solution), so a count of hours ends within
    /// milliseconds. The plain [`count`](Self::count) never looks, at no cost.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use nqueens::algo::Algo;
    /// let (go, stop) = (AtomicBool::new(false), AtomicBool::new(true));
    /// for algo in Algo::ALL {
    ///     assert_eq!(algo.count_unless_stopped(8, &go).unwrap(), Some(algo.count(8).unwrap()));
    ///     assert_eq!(algo.count_unless_stopped(12, &stop).unwrap(), None, "{algo}");
    /// }
    /// ```
    ///
    /// # Errors
    /// [`AlgoError`] for an `n` out of this algorithm's range ([`check`](Self::check)).
    pub fn count_unless_stopped(
        self,
        n: usize,
        stop: &AtomicBool,
    ) -> Result<Option<Counts>, AlgoError> {
        self.check(n)?;
        let mut stopper = Stopper::new(stop);
        let counts = match self {
            Algo::Permutations => Counts::total(permutations::count_with(n, &mut stopper)),
            Algo::Backtracking => Counts::total(backtracking::count_with(n, &mut stopper)),
            Algo::Flags => Counts::total(flags::count_with(n, &mut stopper)),
            Algo::Swap => Counts::total(swap::count_with(n, &mut stopper)),
            Algo::Bitboard => Counts::total(bitboard::count_with(n, &mut stopper)),
            Algo::Mirror => Counts::total(mirror::count_with(n, &mut stopper)),
            Algo::Symmetry => symmetry::count_with(n, &mut stopper),
            Algo::Parallel => return Ok(parallel::count_unless_stopped(n, stop).map(Counts::total)),
            Algo::Cp => return cp::count_unless_stopped(n, stop),
        };
        Ok((!stopper.stopped()).then_some(counts))
    }

    /// Calls `visit` with every solution for `n`, in the algorithm's order, until it breaks.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// let mut first = None;
    /// nqueens::algo::Algo::Bitboard
    ///     .for_each_solution(5, &mut |p| {
    ///         first = Some(p.clone());
    ///         ControlFlow::Break(())
    ///     })
    ///     .unwrap();
    /// assert!(first.unwrap().is_solution());
    /// ```
    ///
    /// # Errors
    /// [`AlgoError`] for an `n` this algorithm does not list
    /// ([`check_listing`](Self::check_listing)).
    pub fn for_each_solution(
        self,
        n: usize,
        visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    ) -> Result<(), AlgoError> {
        self.check_listing(n)?;
        let _ = match self {
            Algo::Permutations => permutations::for_each_solution(n, visit),
            Algo::Backtracking => backtracking::for_each_solution(n, visit),
            Algo::Flags => flags::for_each_solution(n, visit),
            Algo::Swap => swap::for_each_solution(n, visit),
            Algo::Bitboard => bitboard::for_each_solution(n, visit),
            Algo::Mirror => mirror::for_each_solution(n, visit),
            Algo::Symmetry => symmetry::for_each_solution(n, visit),
            Algo::Parallel => parallel::for_each_solution(n, visit),
            Algo::Cp => return cp::for_each_solution(n, visit),
        };
        Ok(())
    }

    /// [`for_each_solution`](Self::for_each_solution), reporting every step of the search to
    /// `obs`, from the rung's own loops. `parallel` reports the bitboard tree it splits, walked
    /// by one thread; `Break` from `obs` or `visit` stops the search.
    ///
    /// ```
    /// use nqueens::{algo::Algo, observe::Work};
    /// let mut work = Work::default();
    /// Algo::Flags.observe(6, &mut work, &mut |_| std::ops::ControlFlow::Continue(())).unwrap();
    /// assert_eq!((work.nodes, work.solutions), (152, 4));
    /// ```
    ///
    /// # Errors
    /// [`AlgoError`] for an `n` this algorithm does not list
    /// ([`check_listing`](Self::check_listing)).
    pub fn observe<O: Observer>(
        self,
        n: usize,
        obs: &mut O,
        visit: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    ) -> Result<(), AlgoError> {
        self.check_listing(n)?;
        let _ = match self {
            Algo::Permutations => permutations::observed(n, visit, obs),
            Algo::Backtracking => backtracking::observed(n, visit, obs),
            Algo::Flags => flags::observed(n, visit, obs),
            Algo::Swap => swap::observed(n, visit, obs),
            Algo::Bitboard => bitboard::observed(n, visit, obs),
            Algo::Mirror => mirror::observed(n, visit, obs),
            Algo::Symmetry => symmetry::observed(n, visit, obs),
            Algo::Parallel => parallel::observed(n, visit, obs),
            Algo::Cp => return cp::observed(n, visit, obs),
        };
        Ok(())
    }

    /// The work of a search for every solution of `n`: nodes visited and square checks made.
    /// As long as listing every solution with this algorithm.
    ///
    /// ```
    /// use nqueens::algo::Algo;
    /// let w = Algo::Backtracking.work(4).unwrap();
    /// assert_eq!((w.nodes, w.solutions), (16, 2));
    /// ```
    ///
    /// # Errors
    /// [`AlgoError`] for an `n` this algorithm does not list
    /// ([`check_listing`](Self::check_listing)).
    pub fn work(self, n: usize) -> Result<Work, AlgoError> {
        let mut work = Work::default();
        self.observe(n, &mut work, &mut |_| ControlFlow::Continue(()))?;
        Ok(work)
    }

    /// [`work`](Self::work), or `Ok(None)` once `stop` is set, looked at as
    /// [`count_unless_stopped`](Self::count_unless_stopped) looks.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use nqueens::algo::Algo;
    /// let (go, stop) = (AtomicBool::new(false), AtomicBool::new(true));
    /// assert_eq!(Algo::Flags.work_unless_stopped(6, &go).unwrap(), Some(Algo::Flags.work(6).unwrap()));
    /// assert_eq!(Algo::Flags.work_unless_stopped(14, &stop).unwrap(), None);
    /// ```
    ///
    /// # Errors
    /// [`AlgoError`] for an `n` this algorithm does not list
    /// ([`check_listing`](Self::check_listing)).
    pub fn work_unless_stopped(
        self,
        n: usize,
        stop: &AtomicBool,
    ) -> Result<Option<Work>, AlgoError> {
        /// Counts the work, and breaks the search once the flag is set.
        struct Stoppable<'a> {
            work: Work,
            stopper: Stopper<'a>,
        }
        impl Observer for Stoppable<'_> {
            fn step(&mut self, step: crate::observe::Step<&[u32]>) -> ControlFlow<()> {
                let _ = self.work.step(step);
                self.stopper.step(step)
            }

            fn checks(&mut self, k: u64) {
                self.work.checks(k);
            }
        }
        let mut obs = Stoppable {
            work: Work::default(),
            stopper: Stopper::new(stop),
        };
        self.observe(n, &mut obs, &mut |_| ControlFlow::Continue(()))?;
        Ok((!obs.stopper.stopped()).then_some(obs.work))
    }
}

impl fmt::Display for Algo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algo {
    type Err = UnknownAlgo;

    fn from_str(s: &str) -> Result<Algo, UnknownAlgo> {
        Algo::from_name(s).ok_or_else(|| UnknownAlgo(s.to_string()))
    }
}
