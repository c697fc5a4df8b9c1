//! Puzzles against brute force (every solution of the board, `n <= 10`) and, for larger
//! boards, against the completion solver.

use super::{Completions, Difficulty, Generator, Puzzle, completions};
use crate::Placement;
use crate::cp::Instance;

/// The instance without its `skip`-th clue (givens first, then blocked squares).
fn without(inst: &Instance, skip: usize) -> Instance {
    let mut less = Instance::new(inst.n());
    let givens: Vec<_> = inst.fixed().collect();
    for (i, &(r, c)) in givens.iter().enumerate() {
        if i != skip {
            less.fix(r, c).unwrap();
        }
    }
    for (i, (r, c)) in inst.blocked().enumerate() {
        if givens.len() + i != skip {
            less.block(r, c).unwrap();
        }
    }
    less
}

fn clues(inst: &Instance) -> usize {
    inst.fixed().count() + inst.blocked().count()
}

/// The completions of `inst` among all solutions of the board.
fn brute_force(inst: &Instance, all: &[Placement]) -> Vec<Placement> {
    all.iter().filter(|p| inst.admits(p)).cloned().collect()
}

fn made(generator: &Generator<'_>, count: u64) -> Vec<Puzzle> {
    generator.puzzles(count).map(Result::unwrap).collect()
}

#[test]
fn small_puzzles_have_one_completion_by_brute_force() {
    for n in 4..=10 {
        let all: Vec<Placement> = crate::solutions(n).unwrap().collect();
        for blocked in [false, true] {
            for minimal in [false, true] {
                let generator = Generator::new(n)
                    .unwrap()
                    .seed(n as u64)
                    .blocked(blocked)
                    .minimal(minimal)
                    .threads(1);
                for puzzle in made(&generator, 8) {
                    let inst = puzzle.instance();
                    assert_eq!(
                        brute_force(inst, &all),
                        [puzzle.solution().clone()],
                        "{inst}"
                    );
                    if minimal {
                        for skip in 0..clues(inst) {
                            let less = without(inst, skip);
                            assert!(brute_force(&less, &all).len() >= 2, "{inst} less {skip}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn large_puzzles_have_one_completion_by_the_solver() {
    for n in [12, 20, 32, 64] {
        for (blocked, minimal) in [(false, false), (true, false), (false, true), (true, true)] {
            let generator = Generator::new(n)
                .unwrap()
                .seed(1)
                .blocked(blocked)
                .minimal(minimal);
            for puzzle in made(&generator, 3) {
                let inst = puzzle.instance();
                assert_eq!(
                    completions(inst),
                    Completions::One(puzzle.solution().clone())
                );
                if minimal {
                    for skip in 0..clues(inst) {
                        let less = without(inst, skip);
                        assert!(matches!(completions(&less), Completions::Several(..)));
                    }
                }
            }
        }
    }
}

#[test]
fn blocked_puzzles_use_blocked_squares() {
    let generator = Generator::new(10).unwrap().seed(2).blocked(true);
    let blocked: usize = made(&generator, 10)
        .iter()
        .map(|p| p.instance().blocked().count())
        .sum();
    assert!(blocked > 0);
    let plain = Generator::new(10).unwrap().seed(2);
    assert!(
        made(&plain, 10)
            .iter()
            .all(|p| p.instance().blocked().next().is_none())
    );
}

#[test]
fn each_difficulty_is_what_it_says() {
    for n in [8, 12, 20] {
        for wanted in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
            for minimal in [false, true] {
                let generator = Generator::new(n)
                    .unwrap()
                    .seed(5)
                    .minimal(minimal)
                    .difficulty(Some(wanted));
                for puzzle in made(&generator, 3) {
                    let m = puzzle.measures();
                    assert_eq!(puzzle.difficulty(), wanted);
                    assert_eq!(m.guesses == 0, wanted == Difficulty::Easy);
                    assert_eq!(m.depth >= 2, wanted == Difficulty::Hard);
                    assert_eq!(*m, super::measure(puzzle.instance()));
                }
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzles_on_any_number_of_threads() {
    for blocked in [false, true] {
        let generator = Generator::new(16)
            .unwrap()
            .seed(9)
            .blocked(blocked)
            .minimal(true);
        let one = made(&generator.threads(1), 20);
        assert_eq!(one, made(&generator.threads(2), 20));
        assert_eq!(one, made(&generator.threads(3), 20));
        assert_eq!(one[13], generator.puzzle(13).unwrap());
        assert_ne!(one, made(&generator.seed(10), 20));
    }
}

#[test]
fn impossible_difficulties_and_sizes_are_errors() {
    use super::PuzzleError;
    for n in [0, 1, 2, 3, 65] {
        assert_eq!(Generator::new(n).unwrap_err(), PuzzleError::Size { n });
    }
    let generator = Generator::new(4)
        .unwrap()
        .difficulty(Some(Difficulty::Hard))
        .tries(50);
    let mut it = generator.puzzles(5);
    assert!(matches!(
        it.next(),
        Some(Err(PuzzleError::NotFound { n: 4, .. }))
    ));
    assert!(it.next().is_none());
}
