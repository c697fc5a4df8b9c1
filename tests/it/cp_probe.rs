//! The search with probing (`Solver::probing`, `nqueens complete --probing`): answers against
//! brute force on small generated boards, against the answers recorded from OR-Tools CP-SAT on
//! the hard ones, and against the plain search on boards of 60 to 128.

use crate::common;

use std::sync::atomic::AtomicBool;

use assert_cmd::Command;
use proptest::prelude::*;

use nqueens::cp::{Instance, Options, Solver, Status, blocked_board};

/// One completion with probing, checked against `expected` (whether one exists); the solver's
/// statistics.
fn check(inst: &Instance, options: Options, expected: bool) -> nqueens::cp::Stats {
    let mut solver = Solver::new(inst, options).probing(true);
    let (found, status) = solver.find();
    assert_eq!(found.is_some(), expected, "{inst}");
    assert_eq!(status == Status::Exhausted, !expected, "{inst}");
    assert!(found.is_none_or(|p| inst.admits(&p)), "{inst}");
    assert_eq!(solver.stats().nogoods, 0, "{inst}");
    *solver.stats()
}

#[test]
fn hard_boards_keep_the_answers_recorded_from_cp_sat() {
    let (mut seen, mut probes) = ([0, 0], 0);
    for (_, text, expected) in common::recorded_blocked_boards() {
        let inst = Instance::parse(&text).unwrap();
        for restarts in [true, false] {
            let options = Options {
                restarts,
                ..Default::default()
            };
            probes += check(&inst, options, expected).probes;
        }
        seen[usize::from(expected)] += 1;
    }
    assert!(seen[0] >= 5 && seen[1] >= 5, "{seen:?}");
    assert!(probes >= 10_000, "{probes}");
}

#[test]
fn probing_agrees_with_the_plain_search_from_60_to_128() {
    // Boards past their transition (most have no completion, the proofs short), and a few
    // below it, with a completion: the packed board takes from 4 to 32 words here.
    let mut answers = [0, 0];
    for (i, n) in [60, 64, 65, 80, 99, 100, 128].into_iter().enumerate() {
        for share in [80, 95, 97] {
            let inst = blocked_board(n, n * n * share / 100, 1, i as u64);
            let mut plain = Solver::new(&inst, Options::default()).learning(false);
            let (a, _) = plain.find();
            let b = check(&inst, Options::default(), a.is_some());
            if share >= 95 {
                assert!(b.probes > 0 || b.failures == 0, "{inst}");
            }
            answers[usize::from(a.is_some())] += 1;
        }
    }
    assert!(answers[0] >= 3 && answers[1] >= 3, "{answers:?}");
}

#[test]
fn boards_too_free_for_the_packed_board_search_plainly() {
    // Half of 128 x 128 free: over 2,048 squares, so the plain search runs, without trials.
    let inst = blocked_board(128, 128 * 128 / 2, 1, 3);
    let mut solver = Solver::new(&inst, Options::default()).probing(true);
    let (found, status) = solver.find();
    assert_eq!(status, Status::Stopped);
    assert!(inst.admits(&found.unwrap()));
    assert_eq!(solver.stats().probes, 0);
    // A board without blocked squares has no packed board either.
    let mut free = Solver::new(&Instance::new(30), Options::default()).probing(true);
    assert_eq!(free.find().1, Status::Stopped);
    assert_eq!(free.stats().probes, 0);
}

#[test]
fn probing_stops_at_its_limits() {
    // 100/9350 of the generator, a long proof: each limit ends it early.
    let inst = blocked_board(100, 9350, 1, 0);
    let options = Options {
        node_limit: Some(300),
        ..Default::default()
    };
    let mut solver = Solver::new(&inst, options).probing(true);
    let (found, status) = solver.find();
    assert!(found.is_none());
    assert_eq!(status, Status::NodeLimit);
    assert!(solver.stats().nodes <= 301, "{}", solver.stats().nodes);
    let stop = AtomicBool::new(true);
    let mut solver = Solver::new(&inst, Options::default())
        .probing(true)
        .stop_when(&stop);
    assert_eq!(solver.find().1, Status::Interrupted);
    let options = Options {
        time_limit: Some(std::time::Duration::ZERO),
        ..Default::default()
    };
    let mut solver = Solver::new(&inst, options).probing(true);
    assert_eq!(solver.find().1, Status::TimeLimit);
}

#[test]
fn the_command_probes_on_request_and_answers_alike() {
    for (flag, name, count) in
        common::complete_fixtures_with(["--probing", "--no-probing"], "probes")
    {
        assert_eq!(count == 0, flag == "--no-probing", "{name} {flag}");
    }
    for both in [["--probing", "--learning"], ["--probing", "--no-probing"]] {
        Command::cargo_bin("nqueens")
            .unwrap()
            .args(["complete", "-"])
            .args(both)
            .assert()
            .code(2);
    }
}

proptest! {
    /// The library's generator across every share of blocked squares, a queen given on some:
    /// probing with and without restarts against brute force.
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

#[test]
fn learning_and_probing_take_turns_from_100_columns() {
    // Near the transition at 100 and 128 the first turn of learning (2,000 nodes) decides
    // few boards: probing then gets its turn. Every answer is checked, and one search
    // alone (probing) agrees where both decide.
    let (mut both, mut decided) = (0, 0);
    for (n, m) in [(100, 9300), (128, 15300)] {
        for seed in 0..3 {
            let inst = blocked_board(n, m, 1, seed);
            let options = Options {
                node_limit: Some(40_000),
                ..Default::default()
            };
            let mut turns = Solver::new(&inst, options);
            let (found, status) = turns.find();
            assert!(found.as_ref().is_none_or(|p| inst.admits(p)), "{inst}");
            let stats = turns.stats();
            assert!(stats.nodes <= 40_000, "{}", stats.nodes);
            if stats.nogoods > 0 && stats.probes > 0 {
                both += 1;
            }
            if status != Status::NodeLimit {
                decided += 1;
                let mut alone = Solver::new(&inst, options).probing(true);
                let (other, end) = alone.find();
                if end != Status::NodeLimit {
                    assert_eq!(found.is_some(), other.is_some(), "{inst}");
                }
            }
        }
    }
    assert!(both >= 3, "{both} {decided}");
}
