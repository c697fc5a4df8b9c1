//! The symmetric-solution counter against a brute-force listing, and Burnside's lemma against
//! the published unique counts.
use crate::common;

use nqueens::engine::strategy::symmetric::{Turn, count, count_from, reflection_fixed};

/// Every solution for `n`, from the shared brute-force oracle.
fn all_solutions(n: usize) -> Vec<Vec<usize>> {
    common::brute_force(n)
        .into_iter()
        .map(|s| s.into_iter().map(|c| c as usize).collect())
        .collect()
}

/// The solution turned by 90 degrees: the queen at (r, c) moves to (c, n-1-r).
fn quarter_turn(q: &[usize]) -> Vec<usize> {
    let n = q.len();
    let mut t = vec![0; n];
    for (r, &c) in q.iter().enumerate() {
        t[c] = n - 1 - r;
    }
    t
}

fn half_turn(q: &[usize]) -> Vec<usize> {
    quarter_turn(&quarter_turn(q))
}

/// Solutions unchanged by `turn`, listed.
fn listed(n: usize, turn: Turn) -> Vec<Vec<usize>> {
    all_solutions(n)
        .into_iter()
        .filter(|q| match turn {
            Turn::Half => half_turn(q) == *q,
            Turn::Quarter => quarter_turn(q) == *q,
        })
        .collect()
}

#[test]
fn counts_match_a_listing_up_to_12() {
    for n in 1..=12 {
        for turn in [Turn::Half, Turn::Quarter] {
            let list = listed(n, turn);
            assert_eq!(count(n, turn), list.len() as u64, "n={n} {turn:?}");
            for first in 0..n {
                let expected = list.iter().filter(|q| q[0] == first).count() as u64;
                assert_eq!(
                    count_from(n, turn, first),
                    expected,
                    "n={n} {turn:?} first={first}"
                );
            }
        }
    }
}

#[test]
fn listing_finds_symmetric_solutions() {
    // Guards the oracle itself: the listing must see the known symmetric solutions.
    assert_eq!(listed(4, Turn::Quarter).len(), 2);
    assert_eq!(listed(8, Turn::Half).len(), 4);
    assert_eq!(listed(8, Turn::Quarter).len(), 0);
}

#[test]
fn quarter_turn_solutions_are_half_turn_solutions() {
    for n in 1..=14 {
        assert!(count(n, Turn::Quarter) <= count(n, Turn::Half), "n={n}");
    }
}

#[test]
fn no_quarter_turn_solutions_for_n_2_or_3_mod_4() {
    for n in [2, 3, 6, 7, 10, 11, 14, 15] {
        assert_eq!(count(n, Turn::Quarter), 0, "n={n}");
    }
}

#[test]
fn one_queen_is_symmetric_under_everything() {
    assert_eq!(count(1, Turn::Half), 1);
    assert_eq!(count(1, Turn::Quarter), 1);
    assert_eq!(reflection_fixed(1), 1);
    for n in 2..=12 {
        assert_eq!(reflection_fixed(n), 0);
        // No solution for n > 1 is its own mirror image.
        let mirrored = all_solutions(n)
            .into_iter()
            .filter(|q| q.iter().all(|&c| c == n - 1 - c))
            .count();
        assert_eq!(mirrored, 0, "n={n}");
    }
}

#[test]
fn burnside_gives_the_published_unique_counts() {
    for n in 1..=16 {
        let (total, unique) = common::counts(n);
        let p = u128::from(count(n, Turn::Half));
        let r = u128::from(count(n, Turn::Quarter));
        let f = u128::from(reflection_fixed(n));
        assert_eq!((total + p + 2 * r + 4 * f) / 8, unique, "n={n}");
        assert_eq!((total + p + 2 * r + 4 * f) % 8, 0, "n={n}");
    }
}
