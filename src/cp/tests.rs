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
        assert_eq!(all(&mut bits).0, all(&mut general).0, "{inst}");
        let (a, b) = (bits.stats(), general.stats());
        assert_eq!((a.nodes, a.failures), (b.nodes, b.failures), "{inst}");
    }
}

#[test]
fn random_completions_of_solutions_are_found() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..300 {
        let n = rng.gen_range(4..=70);
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
        for mut solver in [
            Solver::new(&inst, Options::default()),
            Solver::with_general_board(&inst, Options::default()),
        ] {
            let (found, status) = solver.find();
            assert_eq!(status, Status::Stopped, "{inst}");
            assert!(inst.admits(&found.unwrap()), "{inst}");
        }
    }
}
