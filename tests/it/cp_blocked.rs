//! Blocked boards as CSPLib problem 80 generates them, across the phase transition: the
//! solver's answers and counts against independent methods, and a regression set of hard boards
//! whose answers were recorded from OR-Tools CP-SAT (`bench/blocked_fixtures.py`).

use crate::common;

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use nqueens::cp::{Instance, Options, Solver, Status, blocked_board as generate};

/// The generator of `bench/blocked_gen.py`: walk the shuffled squares, block one while its row
/// and its column both keep more than `mininfile` free squares, until `m` are blocked.
fn blocked_board(n: usize, m: usize, mininfile: usize, rng: &mut ChaCha8Rng) -> Instance {
    let mut squares: Vec<(usize, usize)> = (0..n * n).map(|i| (i / n, i % n)).collect();
    squares.shuffle(rng);
    let (mut row_free, mut col_free) = (vec![n; n], vec![n; n]);
    let mut inst = Instance::new(n);
    let mut blocked = 0;
    for (r, c) in squares {
        if blocked == m {
            break;
        }
        if row_free[r] > mininfile && col_free[c] > mininfile {
            inst.block(r, c).unwrap();
            blocked += 1;
            row_free[r] -= 1;
            col_free[c] -= 1;
        }
    }
    inst
}

/// A board of size `n` with a random share of its squares blocked, from a quarter to nine
/// tenths: both sides of the transition, which for these sizes lies around two thirds.
fn random_board(n: usize, rng: &mut ChaCha8Rng) -> Instance {
    let m = n * n * rng.gen_range(25..=90) / 100;
    let mininfile = rng.gen_range(0..=2);
    blocked_board(n, m, mininfile, rng)
}

use common::brute_force_completions as brute_force;

/// A second counter, independent of the solver's propagation and branching: rows in order,
/// lines as bit masks (the textbook bitboard backtracker), blocked squares as a mask per row.
fn bitmask_count(inst: &Instance) -> u64 {
    let n = inst.n();
    let mut blocked = vec![0u64; n];
    for (r, c) in inst.blocked() {
        blocked[r] |= 1 << c;
    }
    fn go(row: usize, cols: u64, left: u64, right: u64, full: u64, blocked: &[u64]) -> u64 {
        if row == blocked.len() {
            return 1;
        }
        let mut free = full & !(cols | left | right | blocked[row]);
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += go(
                row + 1,
                cols | bit,
                (left | bit) << 1,
                (right | bit) >> 1,
                full,
                blocked,
            );
        }
        total
    }
    go(0, 0, 0, 0, (1u64 << n) - 1, &blocked)
}

/// Checks one board three ways: the count, every completion listed, and the decision (with and
/// without restarts). Returns the count.
fn check(inst: &Instance, expected: u64) {
    let mut solver = Solver::new(inst, Options::default());
    assert_eq!(solver.count(), (expected, Status::Exhausted), "{inst}");
    for restarts in [true, false] {
        let mut solver = Solver::new(
            inst,
            Options {
                restarts,
                ..Default::default()
            },
        );
        let (found, status) = solver.find();
        assert_eq!(found.is_some(), expected > 0, "{inst}");
        assert_eq!(status == Status::Exhausted, expected == 0, "{inst}");
        assert!(found.is_none_or(|p| inst.admits(&p)), "{inst}");
    }
}

/// Checks `rounds` boards drawn by `draw` (a board and its count from an oracle) with seed
/// `seed`, and that at least `least` have completions and at least `least` have none, so that
/// neither side of the transition goes untested.
fn check_both_answers(
    seed: u64,
    rounds: usize,
    least: usize,
    mut draw: impl FnMut(&mut ChaCha8Rng) -> (Instance, u64),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut with, mut without) = (0, 0);
    for _ in 0..rounds {
        let (inst, expected) = draw(&mut rng);
        check(&inst, expected);
        if expected > 0 {
            with += 1;
        } else {
            without += 1;
        }
    }
    assert!(
        with >= least && without >= least,
        "{with} with, {without} without"
    );
}

#[test]
fn small_blocked_boards_match_brute_force() {
    check_both_answers(80, 3000, 500, |rng| {
        let n = rng.gen_range(4..=12);
        let inst = random_board(n, rng);
        let expected = brute_force(&inst);
        (inst, expected)
    });
}

#[test]
fn blocked_boards_up_to_20_match_a_bitmask_counter() {
    check_both_answers(81, 300, 50, |rng| {
        let n = rng.gen_range(13..=20);
        // Close to the transition, where counts are small and proofs are not trivial.
        let m = n * n * rng.gen_range(55..=75) / 100;
        let inst = blocked_board(n, m, 1, rng);
        let expected = bitmask_count(&inst);
        (inst, expected)
    });
}

#[test]
fn the_two_independent_counters_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(82);
    for _ in 0..500 {
        let n = rng.gen_range(1..=10);
        let inst = random_board(n, &mut rng);
        assert_eq!(brute_force(&inst), bitmask_count(&inst), "{inst}");
    }
}

#[test]
fn hard_boards_keep_the_answers_recorded_from_cp_sat() {
    let mut seen = [0, 0];
    for (path, text, expected) in common::recorded_blocked_boards() {
        let inst = Instance::parse(&text).unwrap();
        let mut solver = Solver::new(&inst, Options::default());
        let (found, status) = solver.find();
        assert_eq!(found.is_some(), expected, "{}", path.display());
        assert_eq!(status == Status::Exhausted, !expected, "{}", path.display());
        assert!(found.is_none_or(|p| inst.admits(&p)), "{}", path.display());
        seen[usize::from(expected)] += 1;
    }
    assert!(seen[0] >= 5 && seen[1] >= 5, "{seen:?}");
}

proptest! {
    /// The library's generator (`nqueens::cp::blocked_board`, the one the benchmarks draw
    /// from) across every share of blocked squares: count, listing and decision against brute
    /// force, so every "none" is a proof and every completion a real one.
    #[test]
    fn generated_boards_match_brute_force(
        n in 4usize..=11,
        share in 0usize..=100,
        mininfile in 0usize..=2,
        seed in any::<u64>(),
    ) {
        let inst = generate(n, n * n * share / 100, mininfile, seed);
        check(&inst, brute_force(&inst));
    }
}
