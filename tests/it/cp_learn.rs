//! No-good learning (`Solver::learning`, `nqueens complete --learning`): answers against brute
//! force on small generated boards, against the answers recorded from OR-Tools CP-SAT on the
//! hard ones, and against the plain search on boards of 65 to 128 (the default from 100; 90 to
//! 99 learn first).

use crate::common;

use assert_cmd::Command;
use proptest::prelude::*;

use nqueens::cp::{Instance, Options, Solver, Status, blocked_board};

/// One completion with learning, checked against `expected` (whether one exists).
fn check(inst: &Instance, options: Options, expected: bool) {
    let mut solver = Solver::new(inst, options).learning(true);
    let (found, status) = solver.find();
    assert_eq!(found.is_some(), expected, "{inst}");
    assert_eq!(status == Status::Exhausted, !expected, "{inst}");
    assert!(found.is_none_or(|p| inst.admits(&p)), "{inst}");
    if !expected && status == Status::Exhausted && solver.stats().failures > 1 {
        assert!(
            solver.stats().nogoods > 0,
            "{inst}: failures but no no-good"
        );
    }
}

#[test]
fn hard_boards_keep_the_answers_recorded_from_cp_sat() {
    let mut seen = [0, 0];
    for (_, text, expected) in common::recorded_blocked_boards() {
        let inst = Instance::parse(&text).unwrap();
        // Without restarts only up to 40: at 50 learning takes seconds more per board.
        let runs: &[bool] = if inst.n() <= 40 {
            &[true, false]
        } else {
            &[true]
        };
        for &restarts in runs {
            let options = Options {
                restarts,
                ..Default::default()
            };
            check(&inst, options, expected);
        }
        seen[usize::from(expected)] += 1;
    }
    assert!(seen[0] >= 5 && seen[1] >= 5, "{seen:?}");
}

#[test]
fn wide_boards_learn_by_default_and_agree_with_the_plain_search() {
    // Boards of 65 to 128 past their transition (most have no completion, the proofs short);
    // learning is the default from 100.
    let mut answers = [0, 0];
    for (i, n) in [65, 72, 90, 100, 101, 110, 128].into_iter().enumerate() {
        for share in [95, 97] {
            let inst = blocked_board(n, n * n * share / 100, 1, i as u64);
            let mut plain = Solver::new(&inst, Options::default()).learning(false);
            let mut learning = Solver::new(&inst, Options::default());
            if n < 100 {
                learning = learning.learning(true);
            }
            let (a, b) = (plain.find(), learning.find());
            assert_eq!(a.0.is_some(), b.0.is_some(), "{inst}");
            // The default: probing alone first from 65, then turns (or learning first at 90).
            let default = Solver::new(&inst, Options::default()).find();
            assert_eq!(a.0.is_some(), default.0.is_some(), "{inst}");
            assert!(default.0.is_none_or(|p| inst.admits(&p)), "{inst}");
            assert!(b.0.is_none_or(|p| inst.admits(&p)), "{inst}");
            assert_eq!(plain.stats().nogoods, 0);
            if learning.stats().failures > 1 {
                assert!(learning.stats().nogoods > 0, "{inst}");
            }
            answers[usize::from(a.0.is_some())] += 1;
        }
    }
    assert!(answers[0] >= 3, "{answers:?}");
}

#[test]
fn learning_is_the_default_from_90_columns() {
    // The first board of each width whose search fails more than once (a no-good is learned
    // from every failure but the last); the node limit keeps 89 in its first stage, probing
    // alone (learning joins after 50,000 nodes), and ends the learning of 90 to 99 before it
    // would give way to the plain search.
    let options = Options {
        node_limit: Some(20_000),
        ..Options::default()
    };
    for n in [89, 90, 99, 100, 128] {
        let failing = (0..20).find_map(|seed| {
            let inst = blocked_board(n, n * n * 94 / 100, 1, seed);
            let mut solver = Solver::new(&inst, options);
            let (found, _) = solver.find();
            assert!(found.is_none_or(|p| inst.admits(&p)), "{inst}");
            (solver.stats().failures > 1).then(|| solver.stats().nogoods)
        });
        let nogoods = failing.unwrap_or_else(|| panic!("no board of {n} fails twice"));
        assert_eq!(nogoods > 0, n >= 90, "{n} columns: {nogoods} no-goods");
    }
}

#[test]
fn the_command_learns_on_request_and_answers_alike() {
    for (flag, name, count) in
        common::complete_fixtures_with(["--learning", "--no-learning"], "nogoods")
    {
        assert_eq!(count == 0, flag == "--no-learning", "{name} {flag}");
    }
    Command::cargo_bin("nqueens")
        .unwrap()
        .args(["complete", "--learning", "--no-learning"])
        .assert()
        .code(2);
}

proptest! {
    /// The library's generator across every share of blocked squares, a queen given on some:
    /// learning with and without restarts against brute force.
    #[test]
    fn generated_boards_match_brute_force(
        n in 4usize..=10,
        share in 20usize..=90,
        queen in proptest::option::of((0usize..10, 0usize..10)),
        seed in any::<u64>(),
        restarts in any::<bool>(),
    ) {
        let mut inst = blocked_board(n, n * n * share / 100, 1, seed);
        if let Some((r, c)) = queen {
            let _ = inst.fix(r % n, c % n);
        }
        let expected = common::brute_force_completions(&inst) > 0;
        check(&inst, Options { restarts, seed, ..Default::default() }, expected);
    }
}
