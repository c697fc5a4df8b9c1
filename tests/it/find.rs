//! The library side of `find`: construction, min-conflicts and the first solution, each
//! checked against an independent verifier or an obvious oracle.

use std::time::{Duration, Instant};

use nqueens::Placement;
use nqueens::format::Format;
use nqueens::large::{self, Construction};
use proptest::prelude::*;

/// Whether `cols` is a solution, checked pair by pair: nothing shared with the library.
fn is_solution_slow(cols: &[u32]) -> bool {
    let n = cols.len();
    (0..n).all(|i| {
        (cols[i] as usize) < n
            && (i + 1..n)
                .all(|j| cols[i] != cols[j] && (j - i) != cols[i].abs_diff(cols[j]) as usize)
    })
}

#[test]
fn construction_solves_every_n_up_to_5000() {
    for n in 1..=5000 {
        match large::construct(n) {
            Some(p) => {
                assert_eq!(p.n(), n);
                assert!(p.verify().is_ok(), "n = {n}: {:?}", p.verify());
            }
            None => assert!(matches!(n, 2 | 3), "no construction for n = {n}"),
        }
    }
    assert!(large::construct(0).is_none());
}

#[test]
fn construction_agrees_with_a_pairwise_check_for_small_n() {
    for n in (1..=60).filter(|n| !matches!(n, 2 | 3)) {
        assert!(
            is_solution_slow(large::construct(n).unwrap().cols()),
            "n = {n}"
        );
    }
}

#[test]
fn construction_solves_large_n_of_every_residue() {
    let mut sizes = vec![100_000, 999_983];
    sizes.extend((0..6).map(|k| 1_000_000 + k));
    for n in sizes {
        let p = large::construct(n).unwrap();
        assert!(p.verify().is_ok(), "n = {n}: {:?}", p.verify());
    }
}

#[test]
fn single_columns_and_the_stream_agree_with_the_placement() {
    for n in [1, 4, 8, 9, 14, 15, 1000, 1001, 1002, 1003, 1004, 1005] {
        let p = large::construct(n).unwrap();
        let c = Construction::new(n).unwrap();
        for (row, &col) in p.cols().iter().enumerate() {
            assert_eq!(large::construct_col(n, row), Some(col));
            assert_eq!(c.col(row), col);
        }
        assert_eq!(large::construct_col(n, n), None);
        let mut text = Vec::new();
        large::write_streamed(&mut text, n, c.cols(), Format::Perm).unwrap();
        assert_eq!(read_perm(&text), p);
    }
}

#[test]
fn construction_stays_on_the_board_near_the_largest_n() {
    let max = large::construction::MAX_N;
    assert!(Construction::new(max + 1).is_none());
    for n in [max - 5, max - 4, max - 3, max - 2, max - 1, max] {
        let c = Construction::new(n).unwrap();
        let rows = [0, 1, 2, n / 2 - 1, n / 2, n / 2 + 1, n - 3, n - 2, n - 1];
        let cols: Vec<u32> = rows.iter().map(|&r| c.col(r)).collect();
        assert!(
            cols.iter().all(|&col| (col as usize) < n),
            "n = {n}: {cols:?}"
        );
        let mut distinct = cols.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), cols.len(), "n = {n}: {cols:?}");
    }
}

/// Parses one `perm` line, the way a reader of `find`'s output would.
fn read_perm(text: &[u8]) -> Placement {
    let text = std::str::from_utf8(text).unwrap();
    assert!(text.ends_with('\n') && text.matches('\n').count() == 1);
    let cols: Vec<u32> = text
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    Placement::from_one_based(&cols).unwrap()
}

#[test]
fn min_conflicts_solves_small_boards_for_many_seeds() {
    for n in 1..=40 {
        for seed in 0..30 {
            match large::min_conflicts(n, seed) {
                Some(p) => {
                    assert_eq!(p.n(), n);
                    assert!(is_solution_slow(p.cols()), "n = {n}, seed = {seed}");
                }
                None => assert!(matches!(n, 2 | 3), "n = {n}, seed = {seed}"),
            }
        }
    }
    assert!(large::min_conflicts(0, 1).is_none());
}

#[test]
fn min_conflicts_solves_large_boards() {
    for (n, seeds) in [(1000, 0..20), (100_000, 0..3), (1_000_000, 0..1)] {
        for seed in seeds {
            let p = large::min_conflicts(n, seed).unwrap();
            assert!(
                p.verify().is_ok(),
                "n = {n}, seed = {seed}: {:?}",
                p.verify()
            );
        }
    }
}

#[test]
fn min_conflicts_is_reproducible_and_seeds_differ() {
    for n in [8, 50, 10_000] {
        assert_eq!(large::min_conflicts(n, 99), large::min_conflicts(n, 99));
    }
    let mut solutions: Vec<_> = (0..10)
        .map(|seed| large::min_conflicts(1000, seed).unwrap())
        .collect();
    solutions.sort();
    solutions.dedup();
    assert_eq!(solutions.len(), 10);
}

#[test]
fn min_conflicts_stats_add_up() {
    let (p, stats) = large::min_conflicts_stats(100_000, 5).unwrap();
    assert!(p.is_solution());
    assert!(stats.swaps <= stats.tries);
    assert!(stats.conflicted > 0 || stats.tries == 0);
}

/// The first solution by the textbook method: rows in order, columns left to right, a flag for
/// every column and diagonal already taken.
fn first_oracle(n: usize) -> Option<Vec<u32>> {
    struct Board {
        n: usize,
        cols: Vec<u32>,
        col_taken: Vec<bool>,
        down_taken: Vec<bool>,
        up_taken: Vec<bool>,
    }
    fn extend(b: &mut Board) -> bool {
        let (row, n) = (b.cols.len(), b.n);
        if row == n {
            return true;
        }
        for c in 0..n {
            let (down, up) = (row + n - 1 - c, row + c);
            if b.col_taken[c] || b.down_taken[down] || b.up_taken[up] {
                continue;
            }
            b.col_taken[c] = true;
            b.down_taken[down] = true;
            b.up_taken[up] = true;
            b.cols.push(c as u32);
            if extend(b) {
                return true;
            }
            b.cols.pop();
            b.col_taken[c] = false;
            b.down_taken[down] = false;
            b.up_taken[up] = false;
        }
        false
    }
    let mut board = Board {
        n,
        cols: Vec::new(),
        col_taken: vec![false; n],
        down_taken: vec![false; 2 * n],
        up_taken: vec![false; 2 * n],
    };
    extend(&mut board).then_some(board.cols)
}

#[test]
fn first_matches_the_textbook_oracle() {
    for n in 1..=27 {
        let ours = large::first(n, None).unwrap();
        assert_eq!(ours.map(Placement::into_cols), first_oracle(n), "n = {n}");
    }
}

#[test]
fn first_matches_the_textbook_oracle_for_28_to_30() {
    for n in 28..=30 {
        let ours = large::first(n, None).unwrap().unwrap();
        assert_eq!(Some(ours.into_cols()), first_oracle(n), "n = {n}");
    }
}

#[test]
fn first_gives_up_at_the_deadline() {
    let start = Instant::now();
    let result = large::first(40, Some(start + Duration::from_millis(100)));
    assert!(result.is_err());
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn first_refuses_what_it_cannot_hold() {
    assert_eq!(large::first(0, None), Ok(None));
    assert_eq!(large::first(large::first::MAX_N + 1, None), Ok(None));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn construction_is_a_solution(n in 4usize..200_000) {
        prop_assert!(large::construct(n).unwrap().verify().is_ok());
    }

    #[test]
    fn min_conflicts_is_a_solution(n in 4usize..3000, seed in any::<u64>()) {
        let p = large::min_conflicts(n, seed).unwrap();
        prop_assert!(p.verify().is_ok());
        prop_assert_eq!(Some(p), large::min_conflicts(n, seed));
    }
}
