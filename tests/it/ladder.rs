//! The ladder and the lazy listing against the published counts and against each other.

use crate::common;

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use nqueens::Placement;
use nqueens::Symmetry;
use nqueens::algo::Algo;

/// Every algorithm, with the largest N it is run to within the test budget.
const REACH: [(Algo, usize); 9] = [
    (Algo::Permutations, 10),
    (Algo::Backtracking, 11),
    (Algo::Flags, 12),
    (Algo::Swap, 12),
    (Algo::Bitboard, 14),
    (Algo::Mirror, 14),
    (Algo::Symmetry, 14),
    (Algo::Parallel, 14),
    (Algo::Cp, 12),
];

fn listed(algo: Algo, n: usize) -> Vec<Placement> {
    let mut all = Vec::new();
    algo.for_each_solution(n, &mut |p| {
        all.push(p.clone());
        ControlFlow::Continue(())
    })
    .unwrap();
    all
}

#[test]
fn every_algorithm_counts_the_published_totals() {
    for (algo, max) in REACH {
        for n in 1..=max {
            let (total, unique) = common::counts(n);
            let counts = algo.count(n).unwrap();
            assert_eq!(u128::from(counts.total), total, "{algo} n={n}");
            assert_eq!(counts.unique.is_some(), algo.gives_unique(), "{algo}");
            if let Some(u) = counts.unique {
                assert_eq!(u128::from(u), unique, "{algo} n={n} unique");
            }
        }
    }
}

#[test]
fn every_algorithm_lists_the_backtracking_set() {
    for n in 1..=8 {
        let oracle: BTreeSet<Placement> = listed(Algo::Backtracking, n).into_iter().collect();
        assert!(oracle.iter().all(Placement::is_solution));
        for (algo, _) in REACH {
            let list = listed(algo, n);
            assert_eq!(list.len(), oracle.len(), "{algo} n={n}: no repeats");
            let set: BTreeSet<Placement> = list.into_iter().collect();
            assert_eq!(set, oracle, "{algo} n={n}");
        }
    }
}

#[test]
fn listing_stops_when_asked() {
    for (algo, _) in REACH {
        let mut seen = 0;
        algo.for_each_solution(8, &mut |_| {
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(seen, 3, "{algo}");
    }
}

#[test]
fn out_of_range_sizes_are_refused_with_a_reason() {
    for algo in Algo::ALL {
        let err = algo.count(0).unwrap_err().to_string();
        assert!(err.contains("at least one row"), "{err}");
        let err = algo.count(algo.max_n() + 1).unwrap_err().to_string();
        assert!(err.contains(algo.limit_reason()), "{err}");
        assert!(
            algo.for_each_solution(algo.max_n() + 1, &mut |_| ControlFlow::Break(()))
                .is_err()
        );
    }
}

#[test]
fn names_round_trip() {
    for algo in Algo::ALL {
        assert_eq!(algo.name().parse::<Algo>(), Ok(algo));
    }
    assert!(
        "fastest"
            .parse::<Algo>()
            .unwrap_err()
            .to_string()
            .contains("bitboard")
    );
}

#[test]
fn lazy_listing_is_the_backtracking_set() {
    for n in 1..=9 {
        let lazy: Vec<Placement> = nqueens::solutions(n).unwrap().collect();
        let set: BTreeSet<Placement> = lazy.iter().cloned().collect();
        assert_eq!(set.len(), lazy.len(), "n={n}: no repeats");
        let oracle: BTreeSet<Placement> = listed(Algo::Backtracking, n).into_iter().collect();
        assert_eq!(set, oracle, "n={n}");
    }
    for n in 10..=12 {
        assert_eq!(
            nqueens::solutions(n).unwrap().count() as u128,
            common::counts(n).0
        );
    }
}

#[test]
fn unique_listing_is_one_canonical_per_class_covering_all() {
    for n in 1..=10 {
        let reps: Vec<Placement> = nqueens::unique_solutions(n).unwrap().collect();
        assert_eq!(reps.len() as u128, common::counts(n).1, "n={n}");
        let mut covered = BTreeSet::new();
        for p in &reps {
            assert!(p.is_solution() && p.is_canonical());
            for s in Symmetry::ALL {
                covered.insert(p.transform(s).unwrap());
            }
        }
        // Classes are disjoint, so pairwise non-equivalent representatives cover exactly the
        // sum of their class sizes, and together all solutions.
        let sizes: usize = reps.iter().map(|p| p.class_size().unwrap()).sum();
        assert_eq!(
            covered.len(),
            sizes,
            "n={n}: representatives are not equivalent"
        );
        let all: BTreeSet<Placement> = nqueens::solutions(n).unwrap().collect();
        assert_eq!(covered, all, "n={n}");
    }
}

#[test]
fn big_boards_list_at_once() {
    for n in 20..=64 {
        let first: Vec<Placement> = nqueens::solutions(n).unwrap().take(3).collect();
        assert_eq!(first.len(), 3);
        assert!(first.iter().all(|p| p.n() == n && p.is_solution()));
        let rep = nqueens::unique_solutions(n).unwrap().next().unwrap();
        assert!(rep.is_solution() && rep.is_canonical());
    }
    assert!(nqueens::solutions(0).is_err());
    assert!(nqueens::solutions(65).is_err());
}
