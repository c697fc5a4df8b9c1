//! Making one puzzle: a random solution, then clues that rule out every other completion.
//!
//! 1. **A solution**: min-conflicts local search from a seed drawn from the puzzle's stream.
//! 2. **Clues until unique**: the solver looks for two completions of the clues so far; while
//!    it finds a second one, a clue is added that the solution keeps and the other breaks: on a
//!    random row where they differ, the solution's queen is given, or (with blocked squares)
//!    the other's square is blocked, each half the time. Each clue rules out at least the
//!    completion just found, so the loop ends, and it ends with exactly one completion. A
//!    proof that takes more than `PROOF_NODES` decisions gets one more of the solution's
//!    queens given instead.
//! 3. **Minimal** (if asked): every clue, in random order, is taken away if the puzzle stays
//!    unique without it. A clue that had to stay still has to at the end, since taking clues
//!    away only adds completions: each clue left is one whose removal was checked and refused.
//!    A removal the solver cannot decide within `PROOF_NODES` drops the puzzle.
//! 4. **Difficulty** (if asked): a puzzle harder than wanted gets more of the solution's queens
//!    given (not with `minimal`), one at a time, until it is no harder; a puzzle that is then
//!    easier than wanted, or was from the start, is dropped and a new one made, up to
//!    [`Generator::tries`](super::Generator::tries) puzzles.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::prove::{Completions, completions_within, measure};
use super::{Generator, Puzzle, PuzzleError};
use crate::Placement;
use crate::cp::Instance;

/// A clue: a given queen or a blocked square, 0-based `(row, col)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clue {
    Given(usize, usize),
    Blocked(usize, usize),
}

/// The instance the clues make on a board of `n`.
fn instance(n: usize, clues: &[Clue]) -> Instance {
    let mut inst = Instance::new(n);
    for &clue in clues {
        // Every clue agrees with one solution: givens are its queens, blocked squares are off it.
        match clue {
            Clue::Given(r, c) => inst.fix(r, c),
            Clue::Blocked(r, c) => inst.block(r, c),
        }
        .expect("clues of one solution never clash");
    }
    inst
}

/// Puzzle number `index` of `generator` (see the module's steps), or why there is none.
pub(super) fn puzzle(generator: &Generator<'_>, index: u64) -> Result<Puzzle, PuzzleError> {
    let n = generator.n;
    // One stream of the seed per puzzle: a puzzle depends on its seed and index only, never
    // on which thread made it or what was made before.
    let mut rng = ChaCha8Rng::seed_from_u64(generator.seed);
    rng.set_stream(index);
    for _ in 0..generator.tries {
        let solution =
            crate::large::min_conflicts(n, rng.next_u64()).expect("a board of 4 or more has one");
        let mut clues = Vec::new();
        loop {
            generator.check_stop()?;
            match completions_within(&instance(n, &clues), Some(PROOF_NODES)) {
                Some(Completions::One(_)) => break,
                Some(Completions::Several(a, b)) => {
                    let other = if a == solution { b } else { a };
                    clues.push(ruling_out(&solution, &other, generator.blocked, &mut rng));
                }
                Some(Completions::None) => {
                    unreachable!("the solution completes every set of its clues")
                }
                None => clues.push(one_more_given(&solution, &clues, &mut rng)),
            }
        }
        if generator.minimal && !minimise(generator, &mut clues, &mut rng)? {
            continue;
        }
        let mut inst = instance(n, &clues);
        let mut measures = measure(&inst);
        if let Some(wanted) = generator.difficulty {
            if !generator.minimal {
                let mut free: Vec<usize> = (0..n)
                    .filter(|&r| !inst.fixed().any(|(g, _)| g == r))
                    .collect();
                free.shuffle(&mut rng);
                while measures.difficulty() > wanted {
                    generator.check_stop()?;
                    let row = free.pop().expect("a board with every queen given is easy");
                    clues.push(Clue::Given(row, solution.cols()[row] as usize));
                    inst = instance(n, &clues);
                    measures = measure(&inst);
                }
            }
            if measures.difficulty() != wanted {
                continue;
            }
        }
        return Ok(Puzzle {
            instance: inst,
            solution,
            measures,
        });
    }
    Err(PuzzleError::NotFound {
        n,
        difficulty: generator.difficulty,
        tries: generator.tries,
    })
}

/// Decisions one proof of uniqueness may take. Puzzles of 50 and more with few clues can
/// need millions; a proof that runs past this gets one more of the solution's queens given
/// instead, which keeps every puzzle fast to make (and to stop with Ctrl-C) at the price of
/// a few more clues on large boards.
const PROOF_NODES: u64 = 20_000;

/// Takes away every clue, in random order, that the puzzle stays unique without. `false` if
/// some removal could not be decided within [`PROOF_NODES`]: the puzzle is not known to be
/// minimal and is dropped.
fn minimise(
    generator: &Generator<'_>,
    clues: &mut Vec<Clue>,
    rng: &mut impl Rng,
) -> Result<bool, PuzzleError> {
    let n = generator.n;
    clues.shuffle(rng);
    let mut i = 0;
    while i < clues.len() {
        generator.check_stop()?;
        let clue = clues.remove(i);
        match completions_within(&instance(n, clues), Some(PROOF_NODES)) {
            Some(Completions::One(_)) => {}
            Some(_) => {
                clues.insert(i, clue);
                i += 1;
            }
            None => return Ok(false),
        }
    }
    Ok(true)
}

/// One more of the solution's queens, on a random row that has none given yet.
fn one_more_given(solution: &Placement, clues: &[Clue], rng: &mut impl Rng) -> Clue {
    let free: Vec<usize> = (0..solution.n())
        .filter(|&r| !clues.contains(&Clue::Given(r, solution.cols()[r] as usize)))
        .collect();
    let &row = free
        .choose(rng)
        .expect("a board with every queen given needs no search");
    Clue::Given(row, solution.cols()[row] as usize)
}

/// A clue that `solution` keeps and `other` breaks, on a random row where they differ.
fn ruling_out(solution: &Placement, other: &Placement, blocked: bool, rng: &mut impl Rng) -> Clue {
    let rows: Vec<usize> = (0..solution.n())
        .filter(|&r| solution.cols()[r] != other.cols()[r])
        .collect();
    let &row = rows
        .choose(rng)
        .expect("two different completions differ in some row");
    if blocked && rng.gen_bool(0.5) {
        Clue::Blocked(row, other.cols()[row] as usize)
    } else {
        Clue::Given(row, solution.cols()[row] as usize)
    }
}
