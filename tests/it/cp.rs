//! The propagation solver through its public API: published counts, fixtures, errors, limits.

use crate::common;

use std::ops::ControlFlow;
use std::time::Duration;

use nqueens::cp::{Instance, Options, Solver, Status};

use common::brute_force_completions as oracle;

#[test]
fn counts_match_the_published_ones_up_to_12() {
    for n in 1..=12 {
        let (total, _) = common::counts(n);
        assert_eq!(
            nqueens::algo::cp::count(n).unwrap().total as u128,
            total,
            "n={n}"
        );
    }
}

#[test]
fn listing_gives_each_solution_once() {
    for n in 1..=9 {
        let mut seen = Vec::new();
        nqueens::algo::cp::for_each_solution(n, &mut |p| {
            assert!(p.is_solution());
            seen.push(p.clone());
            ControlFlow::Continue(())
        })
        .unwrap();
        let listed = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), listed);
        assert_eq!(listed as u128, common::counts(n).0, "n={n}");
    }
}

#[test]
fn the_ladder_rejects_size_zero() {
    assert!(nqueens::algo::cp::count(0).is_err());
}

fn fixtures() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cp");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

#[test]
fn every_fixture_parses_and_its_count_matches_the_oracle() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 6);
    for (name, text) in fixtures {
        let inst = Instance::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(Instance::parse(&inst.to_string()).unwrap(), inst, "{name}");
        let expected = oracle(&inst);
        let (count, status) = Solver::new(&inst, Options::default()).count();
        assert_eq!((count, status), (expected, Status::Exhausted), "{name}");
        let (found, _) = Solver::new(&inst, Options::default()).find();
        assert_eq!(found.is_some(), expected > 0, "{name}");
        if let Some(p) = found {
            assert!(inst.admits(&p), "{name}");
        }
    }
}

#[test]
fn the_three_forms_read_the_same_instance() {
    let list = Instance::parse("4\nq 1 2\nx 3 3\n").unwrap();
    let spaced = Instance::parse(". Q . .\n. . . .\n. . x .\n. . . .\n").unwrap();
    let compact = Instance::parse(".Q..\n....\n..x.\n....\n").unwrap();
    assert_eq!(list, spaced);
    assert_eq!(list, compact);
    let placement = Instance::parse("2 4 1 3\n").unwrap();
    assert_eq!(
        placement.fixed().collect::<Vec<_>>(),
        [(0, 1), (1, 3), (2, 0), (3, 2)]
    );
}

#[test]
fn bad_instances_name_the_line_and_the_problem() {
    let cases = [
        ("8\nq 1 1\n\nq 3 3\n", 4, "diagonal"),
        ("8\nq 1 1\nq 1 5\n", 3, "row"),
        ("8\nq 2 1\n# note\nq 7 1\n", 4, "column"),
        ("8\nq 1 8\nq 3 6\n", 3, "anti-diagonal"),
        ("8\nx 4 4\nq 4 4\n", 3, "blocked"),
        ("8\nq 4 4\nx 4 4\n", 3, "blocked"),
        ("8\nq 9 1\n", 2, "outside"),
        ("8\nq 0 1\n", 2, "count from 1"),
        ("8\nq one 2\n", 2, "not a row or column"),
        ("8\nq 1 2 3\n", 2, "expected"),
        ("0\n", 1, "board size"),
        (
            "100000000000000000000\n",
            1,
            "not \"100000000000000000000\"",
        ),
        ("Q..\n.Z.\n...\n", 2, "'Z'"),
        ("Q..\n..\n...\n", 2, "2 cells, expected 3"),
        ("Q..\n...\n...\n...\n", 4, "more than 3 rows"),
        ("Q...\n....\n", 2, "ends after 2 rows"),
        ("Q..\n.Q.\n...\n", 2, "diagonal"),
        ("2 4 1 3\n3 1 4 2\n", 1, "more than one placement"),
        ("hello world\n", 1, "not an instance"),
        ("# only a comment\n", 1, "no instance"),
    ];
    for (text, line, words) in cases {
        let err = Instance::parse(text).unwrap_err();
        assert_eq!(err.line, line, "{text:?}: {err}");
        assert!(err.to_string().contains(words), "{text:?}: {err}");
    }
}

#[test]
fn statistics_add_up() {
    let mut solver = Solver::new(&Instance::new(8), Options::default());
    assert_eq!(solver.count(), (92, Status::Exhausted));
    let stats = *solver.stats();
    assert_eq!(stats.solutions, 92);
    assert_eq!(stats.restarts, 0);
    assert!(stats.failures < stats.nodes);
    // Every solution has at least one decision or forced queen per row beyond the first few.
    assert!(stats.nodes + stats.propagations >= 92);
    assert!(stats.time > Duration::ZERO);
    assert!(stats.to_string().contains("solutions 92"));
}

#[test]
fn node_and_time_limits_stop_the_search() {
    let inst = Instance::new(14);
    let limited = Options {
        node_limit: Some(500),
        ..Default::default()
    };
    let mut solver = Solver::new(&inst, limited);
    assert_eq!(solver.count().1, Status::NodeLimit);
    assert_eq!(solver.stats().nodes, 500);
    let timed = Options {
        time_limit: Some(Duration::ZERO),
        ..Default::default()
    };
    assert_eq!(Solver::new(&inst, timed).count().1, Status::TimeLimit);
}

#[test]
fn large_boards_have_a_verified_solution() {
    for n in [65, 100, 257, 1000] {
        let (found, status) = Solver::new(&Instance::new(n), Options::default()).find();
        assert_eq!(status, Status::Stopped);
        assert!(found.unwrap().is_solution(), "n={n}");
    }
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let mut inst = Instance::new(40);
    inst.fix(0, 0).unwrap();
    inst.fix(1, 30).unwrap();
    let run = |seed| {
        let mut solver = Solver::new(
            &inst,
            Options {
                seed,
                ..Default::default()
            },
        );
        let found = solver.find().0.unwrap();
        (found, solver.stats().nodes)
    };
    assert_eq!(run(5), run(5));
    assert!(inst.admits(&run(9).0));
}

/// `m` random blocked squares on an `n` board, every row and column keeping a free square.
fn random_blocked(n: usize, m: usize, seed: u64) -> Instance {
    use rand::{SeedableRng, seq::SliceRandom};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut squares: Vec<(usize, usize)> = (0..n * n).map(|i| (i / n, i % n)).collect();
    squares.shuffle(&mut rng);
    let (mut row_free, mut col_free) = (vec![n; n], vec![n; n]);
    let mut inst = Instance::new(n);
    let mut blocked = 0;
    for (r, c) in squares {
        if blocked == m {
            break;
        }
        if row_free[r] > 1 && col_free[c] > 1 {
            blocked += 1;
            inst.block(r, c).unwrap();
            row_free[r] -= 1;
            col_free[c] -= 1;
        }
    }
    inst
}

#[test]
fn restarts_still_prove_that_there_is_no_completion() {
    // Near the phase transition (81% of a 36 board blocked) many instances have no completion,
    // and proving it takes thousands of failures: enough for restarts.
    let mut proved = 0;
    for seed in 0..10 {
        let inst = random_blocked(36, 1050, seed);
        let mut with = Solver::new(&inst, Options::default());
        let mut without = Solver::new(
            &inst,
            Options {
                restarts: false,
                ..Default::default()
            },
        );
        let (a, b) = (with.find(), without.find());
        assert_eq!(a.0.is_some(), b.0.is_some(), "{inst}");
        if a.0.is_none() && with.stats().restarts > 0 {
            proved += 1;
        }
        for found in [a.0, b.0].into_iter().flatten() {
            assert!(inst.admits(&found));
        }
    }
    assert!(proved > 0);
}
