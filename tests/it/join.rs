//! The Join strategy against the published counts, and the properties of its task list.
use crate::common;

use nqueens::engine::strategy::join::{JoinTasks, MAX_N, preferred};
use nqueens::engine::{EngineError, Strategy, Tally, TaskSet};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

fn tallies(tasks: &JoinTasks) -> Vec<Tally> {
    (0..tasks.len())
        .into_par_iter()
        .map(|i| tasks.count(i))
        .collect()
}

#[test]
fn totals_and_uniques_match_published_counts() {
    for n in 1..=16 {
        let tasks = JoinTasks::new(n).unwrap();
        let sum: Tally = tallies(&tasks).into_iter().sum();
        let (total, unique) = common::counts(n);
        assert_eq!(sum.total, total, "total for n={n}");
        assert_eq!(sum.unique(), unique, "unique for n={n}");
        assert_eq!(
            sum.unique8 % 8,
            0,
            "Burnside sum for n={n} is a multiple of 8"
        );
    }
}

#[test]
fn one_queen_counts_once() {
    let tasks = JoinTasks::new(1).unwrap();
    let sum: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    assert_eq!(
        sum,
        Tally {
            total: 1,
            unique8: 8
        }
    );
}

#[test]
fn task_list_is_deterministic() {
    for n in [9, 12, 13] {
        let a = JoinTasks::new(n).unwrap();
        let b = JoinTasks::new(n).unwrap();
        assert_eq!(a.len(), b.len());
        assert_eq!(a.n(), n);
        assert_eq!(a.strategy(), Strategy::Join);
        // Counting a task twice, or in another list, gives the same tally.
        let first = tallies(&a);
        assert_eq!(first, tallies(&b), "n={n}");
        let again: Vec<Tally> = (0..a.len()).rev().map(|i| a.count(i)).collect();
        assert_eq!(first, again.into_iter().rev().collect::<Vec<_>>(), "n={n}");
    }
}

#[test]
fn sum_is_the_same_in_any_order_and_on_any_threads() {
    let n = 13;
    let tasks = JoinTasks::new(n).unwrap();
    let sequential: Tally = (0..tasks.len()).map(|i| tasks.count(i)).sum();
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(7));
    let shuffled: Tally = order.iter().map(|&i| tasks.count(i)).sum();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let parallel: Tally = pool.install(|| {
        order
            .par_iter()
            .map(|&i| tasks.count(i))
            .reduce(Tally::default, |mut a, b| {
                a += b;
                a
            })
    });
    assert_eq!(sequential, shuffled);
    assert_eq!(sequential, parallel);
    assert_eq!(sequential.total, common::counts(n).0);
}

#[test]
fn every_task_adds_something_to_the_unique_sum_only_through_burnside() {
    // Main tasks add equal total and unique8; symmetric tasks add no total.
    let tasks = JoinTasks::new(12).unwrap();
    for t in tallies(&tasks) {
        assert!(t.total == t.unique8 || t.total == 0, "{t:?}");
    }
}

#[test]
fn out_of_range_sizes_are_refused() {
    for n in [0, MAX_N + 1, 40] {
        match JoinTasks::new(n) {
            Err(EngineError::OutOfRange { strategy, max, .. }) => {
                assert_eq!(strategy, Strategy::Join);
                assert_eq!(max, MAX_N);
            }
            Err(e) => panic!("n={n}: {e}"),
            Ok(_) => panic!("n={n} accepted"),
        }
    }
}

#[test]
fn memory_estimate_grows_with_threads_and_n() {
    let small = JoinTasks::new(10).unwrap();
    let big = JoinTasks::new(18).unwrap();
    assert!(small.memory_bytes(1) > 0);
    assert!(small.memory_bytes(4) > small.memory_bytes(1));
    assert!(big.memory_bytes(1) > small.memory_bytes(1));
    // The quarter lists at n = 22 hold over a hundred million placements: more than a GB.
    let huge = JoinTasks::new(22).unwrap();
    assert!(huge.memory_bytes(1) > 1 << 30);
}

#[test]
fn preferred_for_large_boards_only() {
    assert!(!preferred(4));
    assert!(preferred(18));
    assert!(!preferred(MAX_N + 1));
}

#[test]
fn agrees_with_the_backtracking_engine() {
    for n in 1..=16 {
        let backtrack = nqueens::engine::strategy::task_list(n, Strategy::Backtrack).unwrap();
        let expected: Tally = (0..backtrack.len())
            .into_par_iter()
            .map(|i| backtrack.count(i))
            .sum();
        let join = JoinTasks::new(n).unwrap();
        let got: Tally = tallies(&join).into_iter().sum();
        assert_eq!(got.total, expected.total, "total for n={n}");
        assert_eq!(got.unique(), expected.unique(), "unique for n={n}");
    }
}

#[test]
fn small_chunks_give_the_same_counts() {
    // Tasks with more top words than the chunk run their bottom half once per chunk.
    for (n, chunk) in [(11, 7), (12, 64), (14, 300)] {
        let whole = JoinTasks::new(n).unwrap();
        let chunked = JoinTasks::with_chunk(n, chunk).unwrap();
        assert_eq!(tallies(&whole), tallies(&chunked), "n={n} chunk={chunk}");
        assert!(chunked.memory_bytes(1) < whole.memory_bytes(1), "n={n}");
    }
}

#[test]
fn memory_estimate_meets_the_record_targets_and_covers_the_largest_boards() {
    let estimate = |n| nqueens::engine::strategy::join::memory_estimate(n, 2).unwrap();
    // On 2 threads: N = 22 under 2 GiB, N = 23 under 4 GiB (quarter entries of 8 bytes).
    assert!(estimate(22) < 2 << 30);
    assert!(estimate(23) < 4 << 30);
    // The quarter lists alone: 12.7 billion placements at N = 26, 8 bytes each.
    assert!(estimate(MAX_N) > 12_708_271_676 * 8);
    assert!(estimate(25) < estimate(MAX_N));
    assert_eq!(
        nqueens::engine::strategy::join::memory_estimate(MAX_N + 1, 1),
        None
    );
}

/// Runs `nqueens ARGS`, which must be refused: exit 2, nothing on stdout, one `error:` line
/// on stderr, which is returned.
fn refusal(args: &[&str]) -> String {
    let out = assert_cmd::Command::cargo_bin("nqueens")
        .unwrap()
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

#[test]
fn the_largest_board_is_refused_over_the_memory_limit_in_one_line() {
    let err = refusal(&["count", "26", "--long", "--max-memory", "1G"]);
    assert!(err.contains("--max-memory"), "{err}");
    assert!(err.contains("N=26") && err.contains("join"), "{err}");
}

#[test]
fn a_board_past_the_join_range_is_refused_in_one_line() {
    let err = refusal(&["count", "27", "--strategy", "join"]);
    assert!(err.contains("from 1 to 26, not 27"), "{err}");
}
