//! Both boards against an obvious oracle on thousands of random small instances.

use std::ops::ControlFlow;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Instance, Options, Solver, Status};
use crate::Placement;

/// Counts completions the obvious way: row by row, every column, check every earlier queen.
fn oracle(inst: &Instance) -> u64 {
    let n = inst.n();
    let mut given = vec![None; n];
    for (r, c) in inst.fixed() {
        given[r] = Some(c);
    }
    let blocked: Vec<(usize, usize)> = inst.blocked().collect();
    fn go(
        row: usize,
        cols: &mut Vec<usize>,
        given: &[Option<usize>],
        blocked: &[(usize, usize)],
    ) -> u64 {
        let n = given.len();
        if row == n {
            return 1;
        }
        let mut total = 0;
        for c in 0..n {
            let fits = given[row].is_none_or(|g| g == c)
                && !blocked.contains(&(row, c))
                && cols
                    .iter()
                    .enumerate()
                    .all(|(r, &q)| q != c && row - r != c.abs_diff(q));
            if fits {
                cols.push(c);
                total += go(row + 1, cols, given, blocked);
                cols.pop();
            }
        }
        total
    }
    go(0, &mut Vec::new(), &given, &blocked)
}

/// A random instance: a few queens (kept when they fit) and a few blocked squares.
fn random_instance(rng: &mut ChaCha8Rng) -> Instance {
    let n = rng.gen_range(1..=10);
    let mut inst = Instance::new(n);
    for _ in 0..rng.gen_range(0..=n / 2) {
        let _ = inst.fix(rng.gen_range(0..n), rng.gen_range(0..n));
    }
    for _ in 0..rng.gen_range(0..=n) {
        let _ = inst.block(rng.gen_range(0..n), rng.gen_range(0..n));
    }
    inst
}

fn all(solver: &mut Solver) -> (Vec<Placement>, Status) {
    let mut seen = Vec::new();
    let status = solver.for_each(|p| {
        seen.push(p.clone());
        ControlFlow::Continue(())
    });
    (seen, status)
}

#[test]
fn both_boards_match_the_oracle_on_random_instances() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for _ in 0..3000 {
        let inst = random_instance(&mut rng);
        let expected = oracle(&inst);
        let opts = Options::default();
        for mut solver in [
            Solver::new(&inst, opts),
            Solver::with_general_board(&inst, opts),
            Solver::with_board128(&inst, opts),
        ] {
            let (found, status) = all(&mut solver);
            assert_eq!(status, Status::Exhausted);
            assert_eq!(found.len() as u64, expected, "{inst}");
            assert!(found.iter().all(|p| inst.admits(p)), "{inst}");
            let mut distinct = found.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), found.len(), "{inst}");
            let (one, status) = solver.find();
            assert_eq!(one.is_some(), expected > 0, "{inst}");
            assert!(one.is_none_or(|p| inst.admits(&p)));
            assert_eq!(status == Status::Exhausted, expected == 0);
        }
    }
}

#[test]
fn both_boards_search_the_same_tree() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..200 {
        let inst = random_instance(&mut rng);
        let mut bits = Solver::new(&inst, Options::default());
        let mut general = Solver::with_general_board(&inst, Options::default());
        let mut wide = Solver::with_board128(&inst, Options::default());
        let found = all(&mut bits).0;
        assert_eq!(found, all(&mut general).0, "{inst}");
        assert_eq!(found, all(&mut wide).0, "{inst}");
        let (a, b, c) = (bits.stats(), general.stats(), wide.stats());
        assert_eq!((a.nodes, a.failures), (b.nodes, b.failures), "{inst}");
        assert_eq!((a.nodes, a.failures), (c.nodes, c.failures), "{inst}");
    }
}

#[test]
fn random_completions_of_solutions_are_found() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..300 {
        let n = rng.gen_range(4..=140);
        let Some(solution) = Solver::new(
            &Instance::new(n),
            Options {
                seed: rng.r#gen(),
                ..Default::default()
            },
        )
        .find()
        .0
        else {
            continue;
        };
        let mut inst = Instance::new(n);
        for (r, &c) in solution.cols().iter().enumerate() {
            if rng.gen_bool(0.4) {
                inst.fix(r, c as usize).unwrap();
            }
        }
        let mut solvers = vec![
            Solver::new(&inst, Options::default()),
            Solver::with_general_board(&inst, Options::default()),
        ];
        if n <= 128 {
            solvers.push(Solver::with_board128(&inst, Options::default()));
        }
        for mut solver in solvers {
            let (found, status) = solver.find();
            assert_eq!(status, Status::Stopped, "{inst}");
            assert!(inst.admits(&found.unwrap()), "{inst}");
        }
    }
}

#[test]
fn wide_boards_search_the_same_tree_on_blocked_boards() {
    // The double-word board against the counter board where it is used (65 to 128), on
    // boards near the transition, until a completion or the node limit: the same nodes and the
    // same answer, restarts included.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..12 {
        let n = rng.gen_range(65..=128);
        let m = n * n * rng.gen_range(85..=94) / 100;
        let inst = super::blocked_board(n, m, 1, rng.r#gen());
        let opts = Options {
            node_limit: Some(3000),
            ..Default::default()
        };
        let mut wide = Solver::new(&inst, opts);
        let mut general = Solver::with_general_board(&inst, opts);
        let (a, b) = (wide.find(), general.find());
        assert_eq!(a, b, "{inst}");
        assert!(a.0.is_none_or(|p| inst.admits(&p)));
        let (a, b) = (wide.stats(), general.stats());
        assert_eq!((a.nodes, a.failures), (b.nodes, b.failures), "{inst}");
    }
}

#[test]
fn generated_boards_follow_the_csplib_procedure() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for _ in 0..200 {
        let n = rng.gen_range(1..=30);
        let m = rng.gen_range(0..=n * n);
        let mininfile = rng.gen_range(0..=3);
        let seed = rng.r#gen();
        let inst = super::blocked_board(n, m, mininfile, seed);
        assert_eq!(inst, super::blocked_board(n, m, mininfile, seed));
        let mut row_free = vec![n; n];
        let mut col_free = vec![n; n];
        for (r, c) in inst.blocked() {
            row_free[r] -= 1;
            col_free[c] -= 1;
        }
        let floor = mininfile.min(n);
        assert!(
            row_free.iter().chain(&col_free).all(|&f| f >= floor),
            "{inst}"
        );
        let count = inst.blocked().count();
        // Fewer than m only when no square is left to block: every unblocked square has a
        // row or a column at the floor.
        assert!(count <= m);
        if count < m {
            let blocked: std::collections::HashSet<(usize, usize)> = inst.blocked().collect();
            for (r, &row) in row_free.iter().enumerate() {
                for (c, &col) in col_free.iter().enumerate() {
                    let open = !blocked.contains(&(r, c));
                    assert!(!open || row <= mininfile || col <= mininfile, "{inst}");
                }
            }
        }
    }
}
