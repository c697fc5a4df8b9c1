//! Region puzzles with exactly one solution.
//!
//! 1. **A solution**: N queens, one per row and column, no two touching, by backtracking over
//!    the rows with the columns in random order.
//! 2. **Regions grown from its queens**: each queen's cell starts a region; again and again a
//!    random cell next to some region joins a region beside it, until every cell has one.
//!    Regions are connected by construction. Cells of no region yet are closed, so the grid
//!    starts with one solution and each cell that joins can only add some: a cell joins a
//!    region only if the solution stays the only one, and a cell no region beside it can take
//!    waits for the end, when it joins any.
//! 3. **Reshaped until unique** (if some cell had to join anyway): the exact solver looks for
//!    two solutions; while it finds another one, one of that one's queens not shared with the
//!    solution moves to another region: the cell, the shortest path within its region to a
//!    cell beside another region, and whatever of its region reached the region's queen only
//!    through them, so that both regions stay connected. The region moved into now holds two
//!    of the other's queens, so the other is no solution, while the solution's queens kept
//!    their regions. A grid that cannot be reshaped within `RESHAPES` moves, or whose proof
//!    runs past its budget, is dropped for a new one.
//! 4. **Rated** by [`rate`](super::rate); with a difficulty asked for, a puzzle of another one
//!    is dropped, up to [`Generator::tries`] grids.
//!
//! Puzzle `i` of a seed is made from its own stream of the seed, so the same seed gives the
//! same puzzles on any number of threads, in the order of their numbers.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::threads::{InOrder, Numbered};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::solve::{count_parts, low};
use super::{Board, Difficulty, Rating, Search, rate};

/// The smallest grid puzzles are made for: 4 x 4 has only two solutions to choose from.
pub const GENERATE_MIN_N: usize = 5;

/// The largest grid puzzles are made for. The proofs grow steeply with the grid: at 28 a
/// puzzle takes seconds, at 32 minutes (docs/regions.md).
pub const GENERATE_MAX_N: usize = 32;

/// Grids made and dropped for their difficulty before giving up, unless
/// [`Generator::tries`] says otherwise.
pub const DEFAULT_TRIES: u32 = 1000;

/// A generated puzzle: the regions, their one solution and its rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The regions, without marks.
    pub board: Board,
    /// The one solution: the column of the queen in each row, from 0.
    pub solution: Vec<usize>,
    /// How a person solves it.
    pub rating: Rating,
}

/// Why no puzzle came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The grid size is outside [`GENERATE_MIN_N`]..=[`GENERATE_MAX_N`].
    #[error("region puzzles are made for N from {GENERATE_MIN_N} to {GENERATE_MAX_N}, not {n}")]
    Size {
        /// The size asked for.
        n: usize,
    },
    /// No puzzle of the difficulty asked for (or, without one, no grid that could be
    /// reshaped to one solution) turned up.
    #[error("no {} region puzzle for N={n} in {tries} grids", .difficulty.map_or("unique", Difficulty::name))]
    NotFound {
        /// The size.
        n: usize,
        /// The difficulty asked for.
        difficulty: Option<Difficulty>,
        /// Grids made and dropped.
        tries: u32,
    },
    /// The stop flag was raised.
    #[error("stopped before the puzzle was made")]
    Stopped,
}

/// The options of a run of region puzzles, and the puzzles.
///
/// ```
/// use nqueens::region::{Generator, Search};
/// let generator = Generator::new(8).unwrap().seed(3).threads(2);
/// for puzzle in generator.puzzles(3) {
///     let puzzle = puzzle.unwrap();
///     let count = Search::new(&puzzle.board).count().unwrap();
///     assert_eq!(count.solutions, 1);
/// }
/// assert_eq!(generator.puzzle(1).unwrap(), generator.puzzles(2).nth(1).unwrap().unwrap());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Generator<'a> {
    n: usize,
    seed: u64,
    difficulty: Option<Difficulty>,
    threads: Option<usize>,
    tries: u32,
    stop: Option<&'a AtomicBool>,
}

impl<'a> Generator<'a> {
    /// Puzzles on an `n` x `n` grid (from [`GENERATE_MIN_N`] to [`GENERATE_MAX_N`]): seed 0, any difficulty, all
    /// cores.
    ///
    /// # Errors
    /// [`GenerateError::Size`] for `n` out of range.
    pub fn new(n: usize) -> Result<Self, GenerateError> {
        if !(GENERATE_MIN_N..=GENERATE_MAX_N).contains(&n) {
            return Err(GenerateError::Size { n });
        }
        Ok(Generator {
            n,
            seed: 0,
            difficulty: None,
            threads: None,
            tries: DEFAULT_TRIES,
            stop: None,
        })
    }

    /// The seed: the same seed gives the same puzzles.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
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

    /// Grids made and dropped for their difficulty before [`GenerateError::NotFound`].
    #[must_use]
    pub fn tries(mut self, tries: u32) -> Self {
        self.tries = tries.max(1);
        self
    }

    /// Stops with [`GenerateError::Stopped`] once `flag` is set.
    #[must_use]
    pub fn stop_when(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Puzzle number `index` (from 0), made on the calling thread: the same for the same
    /// options and seed, whatever else was made.
    ///
    /// # Errors
    /// [`GenerateError::NotFound`] or [`GenerateError::Stopped`].
    pub fn puzzle(&self, index: u64) -> Result<Puzzle, GenerateError> {
        let n = self.n;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(index);
        let mut tries = 0;
        while tries < self.tries {
            self.check_stop()?;
            tries += 1;
            let solution = queens(n, &mut rng);
            let mut region = self.grow(&solution, &mut rng)?;
            if !self.reshape(&mut region, &solution, &mut rng)? {
                continue;
            }
            let board = Board::from_regions(n, &renumber(&region))
                .expect("grown regions are connected, one per queen");
            let rating = rate(&board);
            if self.difficulty.is_some_and(|d| d != rating.difficulty) {
                continue;
            }
            return Ok(Puzzle {
                board,
                solution,
                rating,
            });
        }
        Err(GenerateError::NotFound {
            n,
            difficulty: self.difficulty,
            tries: self.tries,
        })
    }

    /// Puzzles 0 to `count - 1`, in order, made on [`threads`](Self::threads) threads a batch
    /// at a time. After an error the iterator ends.
    pub fn puzzles(&self, count: u64) -> Puzzles<'a> {
        let threads = self.threads.unwrap_or_else(rayon::current_num_threads);
        Puzzles(InOrder::new(*self, count, threads))
    }

    fn check_stop(&self) -> Result<(), GenerateError> {
        match self.stop {
            Some(flag) if flag.load(Ordering::Relaxed) => Err(GenerateError::Stopped),
            _ => Ok(()),
        }
    }

    /// Moves cells between regions until `solution` is the only solution; `false` if that
    /// took more than [`RESHAPES`] moves or no move was left.
    fn reshape(
        &self,
        region: &mut [usize],
        solution: &[usize],
        rng: &mut impl Rng,
    ) -> Result<bool, GenerateError> {
        let n = self.n;
        for _ in 0..RESHAPES * n {
            let board = Board::from_regions(n, &renumber(region))
                .expect("moves keep every region connected");
            let mut search = Search::new(&board).limit(2).budget(PROOF_NODES);
            if let Some(flag) = self.stop {
                search = search.stop_when(flag);
            }
            let mut other = None;
            let counted = search.for_each(|s| {
                if s != solution {
                    other = Some(s.to_vec());
                }
            });
            self.check_stop()?;
            // A proof past its budget: the grid is dropped.
            let Ok(count) = counted else {
                return Ok(false);
            };
            let Some(other) = other else {
                debug_assert_eq!(count.solutions, 1);
                return Ok(true);
            };
            let mut cells: Vec<usize> = (0..n)
                .filter(|&r| other[r] != solution[r])
                .map(|r| r * n + other[r])
                .collect();
            cells.shuffle(rng);
            let moved = cells
                .into_iter()
                .any(|cell| move_cell(n, region, solution, cell, rng));
            if !moved {
                return Ok(false);
            }
        }
        Ok(false)
    }
}

/// Cells one proof may try before its grid is dropped (while reshaping) or the cell it tests
/// is refused (while growing): a few grids at N = 20 and more take millions, where most take
/// hundreds.
const PROOF_NODES: u64 = 20_000;

/// Moves per row that reshaping may take before the grid is dropped.
const RESHAPES: usize = 20;

/// Puzzles in the order of their numbers, from [`Generator::puzzles`].
pub struct Puzzles<'a>(InOrder<Generator<'a>>);

impl Numbered for Generator<'_> {
    type Item = Puzzle;
    type Error = GenerateError;

    fn make(&self, index: u64) -> Result<Puzzle, GenerateError> {
        self.puzzle(index)
    }
}

impl Iterator for Puzzles<'_> {
    type Item = Result<Puzzle, GenerateError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
}

/// A random placement of `n` queens, one per row and column, no two touching.
fn queens(n: usize, rng: &mut impl Rng) -> Vec<usize> {
    fn go(n: usize, cols: &mut Vec<usize>, used: &mut [bool], rng: &mut impl Rng) -> bool {
        if cols.len() == n {
            return true;
        }
        let mut order: Vec<usize> = (0..n).filter(|&c| !used[c]).collect();
        order.shuffle(rng);
        for c in order {
            if cols.last().is_some_and(|&p| p.abs_diff(c) <= 1) {
                continue;
            }
            cols.push(c);
            used[c] = true;
            if go(n, cols, used, rng) {
                return true;
            }
            cols.pop();
            used[c] = false;
        }
        false
    }
    let mut cols = Vec::with_capacity(n);
    assert!(
        go(n, &mut cols, &mut vec![false; n], rng),
        "every n from 4 has a placement"
    );
    cols
}

/// No region yet.
const NONE: usize = usize::MAX;

impl Generator<'_> {
    /// Regions grown at random from the queens' cells (region `r` starts at row `r`'s queen),
    /// keeping the solution the only one where it can.
    ///
    /// Cells of no region yet are closed, so the grid starts with one solution, and each cell
    /// that joins a region can only add solutions, each with a queen on that cell: a cell joins
    /// a region beside it only if the solver finds no solution with a queen there, trying each
    /// region beside it in random order. A cell no region can take is left to the end, when the cells
    /// left join random regions beside them and reshaping takes over.
    fn grow(&self, solution: &[usize], rng: &mut impl Rng) -> Result<Vec<usize>, GenerateError> {
        let n = self.n;
        let mut region = vec![NONE; n * n];
        let mut closed = vec![low(n); n];
        // The regions as the solver reads them: any number for a cell of no region yet.
        let mut parts = vec![0u8; n * n];
        for (r, &c) in solution.iter().enumerate() {
            region[r * n + c] = r;
            parts[r * n + c] = r as u8;
            closed[r] &= !(1 << c);
        }
        let mut refused = vec![false; n * n];
        loop {
            self.check_stop()?;
            let edge: Vec<usize> = (0..n * n)
                .filter(|&i| {
                    region[i] == NONE
                        && !refused[i]
                        && side_by_side(n, i).any(|j| region[j] != NONE)
                })
                .collect();
            let Some(&cell) = edge.choose(rng) else {
                break;
            };
            let mut beside = regions_beside(n, &region, cell);
            beside.shuffle(rng);
            closed[cell / n] &= !(1 << (cell % n));
            let mut joined = false;
            for g in beside {
                parts[cell] = g as u8;
                // The grid had one solution; a second one now would put a queen on the cell.
                let found = count_parts(
                    n,
                    &parts,
                    &closed,
                    (cell / n, cell % n),
                    1,
                    PROOF_NODES,
                    self.stop,
                );
                self.check_stop()?;
                if found == Ok(0) {
                    region[cell] = g;
                    joined = true;
                    break;
                }
            }
            if !joined {
                closed[cell / n] |= 1 << (cell % n);
                parts[cell] = 0;
                refused[cell] = true;
            }
        }
        // The cells no region would take: anywhere beside, for reshaping to mend.
        while region.contains(&NONE) {
            let edge: Vec<usize> = (0..n * n)
                .filter(|&i| region[i] == NONE && side_by_side(n, i).any(|j| region[j] != NONE))
                .collect();
            let &cell = edge
                .choose(rng)
                .expect("a grid with free cells has one beside a region");
            region[cell] = *regions_beside(n, &region, cell)
                .choose(rng)
                .expect("the cell is beside a region");
        }
        Ok(region)
    }
}

/// The distinct regions beside a cell.
fn regions_beside(n: usize, region: &[usize], cell: usize) -> Vec<usize> {
    let mut beside: Vec<usize> = side_by_side(n, cell)
        .map(|j| region[j])
        .filter(|&g| g != NONE)
        .collect();
    beside.sort_unstable();
    beside.dedup();
    beside
}

/// Moves `cell` out of its region into another one, with the fewest cells that keep both
/// regions connected: the shortest path within its region from the cell to one beside another
/// region (not through the region's queen of `solution`), and the cells that only reached
/// that queen through the path. `false` if its region meets no other region but through the
/// queen's cell.
fn move_cell(
    n: usize,
    region: &mut [usize],
    solution: &[usize],
    cell: usize,
    rng: &mut impl Rng,
) -> bool {
    let own = region[cell];
    // Region `own` grew from row `own`'s queen, which stays.
    let seed = own * n + solution[own];
    let mut from = vec![usize::MAX; n * n];
    from[cell] = cell;
    let mut queue = std::collections::VecDeque::from([cell]);
    let mut end = None;
    while let Some(i) = queue.pop_front() {
        let mut targets = regions_beside(n, region, i);
        targets.retain(|&g| g != own);
        if let Some(&target) = targets.choose(rng) {
            end = Some((i, target));
            break;
        }
        let mut next: Vec<usize> = side_by_side(n, i)
            .filter(|&j| region[j] == own && j != seed && from[j] == usize::MAX)
            .collect();
        next.shuffle(rng);
        for j in next {
            from[j] = i;
            queue.push_back(j);
        }
    }
    let Some((mut i, target)) = end else {
        return false;
    };
    loop {
        region[i] = target;
        if i == cell {
            break;
        }
        i = from[i];
    }
    let mut reached = vec![false; n * n];
    reached[seed] = true;
    let mut stack = vec![seed];
    while let Some(i) = stack.pop() {
        for j in side_by_side(n, i) {
            if !reached[j] && region[j] == own {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    for (g, reached) in region.iter_mut().zip(reached) {
        if *g == own && !reached {
            *g = target;
        }
    }
    true
}

/// The cells side by side with cell `i` of an `n` x `n` grid.
fn side_by_side(n: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / n, i % n);
    [
        (r > 0).then(|| i - n),
        (r + 1 < n).then(|| i + n),
        (c > 0).then(|| i - 1),
        (c + 1 < n).then(|| i + 1),
    ]
    .into_iter()
    .flatten()
}

/// The regions numbered by first appearance, row by row, so that they read `A`, `B`, ... in
/// reading order.
fn renumber(region: &[usize]) -> Vec<usize> {
    let mut map = vec![usize::MAX; region.len()];
    let mut next = 0;
    region
        .iter()
        .map(|&g| {
            if map[g] == usize::MAX {
                map[g] = next;
                next += 1;
            }
            map[g]
        })
        .collect()
}
