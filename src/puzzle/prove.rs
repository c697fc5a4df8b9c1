//! Uniqueness, proved by the completion solver, and the solver's effort on that proof, which
//! is what a puzzle's difficulty is measured in.

use std::ops::ControlFlow;

use crate::Placement;
use crate::cp::{Instance, Options, Solver, Status};
use crate::observe::{Observer, Step};

/// How many completions an instance has, up to two, with the ones found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completions {
    /// No completion.
    None,
    /// Exactly one: the search ran to the end and met only this one.
    One(Placement),
    /// Two or more; the first two the search met.
    Several(Placement, Placement),
}

/// Counts the completions of `instance` with a limit of 2: the search stops at the second, and
/// a single completion is proved unique by a search that ran to the end.
///
/// ```
/// use nqueens::cp::Instance;
/// use nqueens::puzzle::{Completions, completions};
/// let mut inst = Instance::new(4);
/// assert!(matches!(completions(&inst), Completions::Several(..)));
/// inst.fix(0, 1).unwrap();
/// assert!(matches!(completions(&inst), Completions::One(p) if p.cols() == [1, 3, 0, 2]));
/// ```
pub fn completions(instance: &Instance) -> Completions {
    completions_within(instance, None).expect("a search without a node limit runs to the end")
}

/// [`completions`] within `node_limit` decisions: `None` if the search needed more.
pub(crate) fn completions_within(
    instance: &Instance,
    node_limit: Option<u64>,
) -> Option<Completions> {
    let mut found = Vec::with_capacity(2);
    let options = Options {
        node_limit,
        ..Options::default()
    };
    let status = Solver::new(instance, options).for_each(|p| {
        found.push(p.clone());
        if found.len() == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if status == Status::NodeLimit {
        return None;
    }
    let mut found = found.into_iter();
    Some(match (found.next(), found.next()) {
        (None, _) => Completions::None,
        (Some(p), None) => Completions::One(p),
        (Some(p), Some(q)) => Completions::Several(p, q),
    })
}

/// The completion solver's effort to solve a puzzle and prove its answer unique: one search
/// to the end (no restarts, seed 0), so the figures belong to the puzzle, not to a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Measures {
    /// Decisions: queens placed by choice rather than forced (the solver's nodes).
    pub guesses: u64,
    /// The most decisions on the board at once: 1 when every guess is settled by
    /// propagation alone, more when guesses must be nested.
    pub depth: u32,
    /// Guesses whose propagation ended in a row or column with no square left.
    pub failures: u64,
    /// Queens placed because propagation forced them, the givens' consequences included.
    pub propagations: u64,
}

/// How hard a puzzle is, from its [`Measures`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Difficulty {
    /// Propagation alone solves it: no guess.
    Easy,
    /// Guesses are needed, but each one is settled by propagation alone (depth 1).
    Medium,
    /// Guesses must be nested: some guess is settled only after further guesses (depth 2+).
    Hard,
}

impl Difficulty {
    /// The name used in every output: `easy`, `medium` or `hard`.
    ///
    /// ```
    /// assert_eq!(nqueens::puzzle::Difficulty::Hard.name(), "hard");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

impl std::fmt::Display for Difficulty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Difficulty {
    type Err = String;

    /// ```
    /// use nqueens::puzzle::Difficulty;
    /// assert_eq!("medium".parse(), Ok(Difficulty::Medium));
    /// assert!("tricky".parse::<Difficulty>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "easy" => Ok(Difficulty::Easy),
            "medium" => Ok(Difficulty::Medium),
            "hard" => Ok(Difficulty::Hard),
            _ => Err(format!("{s:?} is not a difficulty (easy, medium or hard)")),
        }
    }
}

impl Measures {
    /// The difficulty these measures make: no guess is easy, depth 1 medium, deeper hard.
    ///
    /// ```
    /// use nqueens::puzzle::{Difficulty, Measures};
    /// assert_eq!(Measures::default().difficulty(), Difficulty::Easy);
    /// let m = Measures { guesses: 3, depth: 2, ..Default::default() };
    /// assert_eq!(m.difficulty(), Difficulty::Hard);
    /// ```
    pub fn difficulty(&self) -> Difficulty {
        match (self.guesses, self.depth) {
            (0, _) => Difficulty::Easy,
            (_, 0 | 1) => Difficulty::Medium,
            _ => Difficulty::Hard,
        }
    }
}

/// Measures the solver's effort on `instance`: the search for every completion, stopped at
/// the second (a puzzle has only one, so for a puzzle it runs to the end).
///
/// ```
/// use nqueens::{Placement, cp::Instance, puzzle::{Difficulty, measure}};
/// let all = Instance::from_placement(&Placement::new(vec![1, 3, 0, 2])).unwrap();
/// assert_eq!(measure(&all).difficulty(), Difficulty::Easy);
/// ```
pub fn measure(instance: &Instance) -> Measures {
    let mut depth = Depth {
        decided: vec![false; instance.n()],
        now: 0,
        most: 0,
    };
    let mut solver = Solver::new(instance, Options::default());
    let mut found = 0;
    solver.observe(
        |_| {
            found += 1;
            if found == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
        &mut depth,
    );
    let stats = solver.stats();
    Measures {
        guesses: stats.nodes,
        depth: depth.most,
        failures: stats.failures,
        propagations: stats.propagations,
    }
}

/// Follows the decisions on the board: the solver reports a chosen queen as an unforced
/// place, and every queen it takes off on backing up.
struct Depth {
    decided: Vec<bool>,
    now: u32,
    most: u32,
}

impl Observer for Depth {
    fn step(&mut self, step: Step<&[u32]>) -> ControlFlow<()> {
        match step {
            Step::Place {
                row, forced: false, ..
            } => {
                self.decided[row] = true;
                self.now += 1;
                self.most = self.most.max(self.now);
            }
            Step::Remove { row, .. } if self.decided[row] => {
                self.decided[row] = false;
                self.now -= 1;
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}
