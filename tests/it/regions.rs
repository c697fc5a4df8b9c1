//! Queens with regions: the exact solver against brute force (every permutation filtered by
//! the rules) on random grids with random marks, generated puzzles unique (by brute force for
//! N <= 8, by the solver with a limit of 2 above), the same puzzles on any number of threads,
//! the human-rule rater never placing a queen or a cross that some solution contradicts, and
//! proptests that a generated puzzle of any seed and number has exactly its one solution.

use std::collections::BTreeSet;

use nqueens::region::{Board, Broken, Difficulty, Generator, Order, RegionError, Search, rate};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every solution by brute force: each permutation of the columns, kept if its queens are in
/// distinct regions, no two in neighbouring rows touch, every queen of the board is kept and
/// no cross is used.
fn brute_force(board: &Board) -> BTreeSet<Vec<usize>> {
    fn permutations(n: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        for c in 0..n {
            if !prefix.contains(&c) {
                prefix.push(c);
                permutations(n, prefix, out);
                prefix.pop();
            }
        }
    }
    let n = board.n();
    let mut all = Vec::new();
    permutations(n, &mut Vec::new(), &mut all);
    all.into_iter()
        .filter(|cols| {
            let regions: BTreeSet<usize> = (0..n).map(|r| board.region((r, cols[r]))).collect();
            regions.len() == n
                && (1..n).all(|r| cols[r].abs_diff(cols[r - 1]) > 1)
                && board.queens().iter().all(|&(r, c)| cols[r] == c)
                && board.crosses().iter().all(|&(r, c)| cols[r] != c)
        })
        .collect()
}

/// A random grid of `n` connected regions, grown from `n` distinct random cells.
fn random_grid(n: usize, seed: u64) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cells: Vec<usize> = (0..n * n).collect();
    cells.shuffle(&mut rng);
    let mut region = vec![usize::MAX; n * n];
    for (g, &cell) in cells[..n].iter().enumerate() {
        region[cell] = g;
    }
    let beside = |i: usize| {
        let (r, c) = (i / n, i % n);
        let mut v = Vec::new();
        if r > 0 {
            v.push(i - n);
        }
        if r + 1 < n {
            v.push(i + n);
        }
        if c > 0 {
            v.push(i - 1);
        }
        if c + 1 < n {
            v.push(i + 1);
        }
        v
    };
    while region.contains(&usize::MAX) {
        let edge: Vec<usize> = (0..n * n)
            .filter(|&i| {
                region[i] == usize::MAX && beside(i).iter().any(|&j| region[j] != usize::MAX)
            })
            .collect();
        let &cell = edge.choose(&mut rng).unwrap();
        let from: Vec<usize> = beside(cell)
            .into_iter()
            .filter(|&j| region[j] != usize::MAX)
            .collect();
        region[cell] = region[*from.choose(&mut rng).unwrap()];
    }
    Board::from_regions(n, &region).unwrap()
}

/// The grid with a few random marks, none on the same cell.
fn with_marks(mut board: Board, seed: u64, queens: usize, crosses: usize) -> Board {
    let n = board.n();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut cells: Vec<(usize, usize)> = (0..n * n).map(|i| (i / n, i % n)).collect();
    cells.shuffle(&mut rng);
    for (i, &cell) in cells.iter().take(queens + crosses).enumerate() {
        board.mark(cell, i < queens).unwrap();
    }
    board
}

fn solver_solutions(board: &Board, order: Order) -> BTreeSet<Vec<usize>> {
    let mut found = BTreeSet::new();
    let count = Search::new(board)
        .order(order)
        .for_each(|s| {
            assert!(found.insert(s.to_vec()), "a solution found twice");
        })
        .unwrap();
    assert_eq!(count.solutions as usize, found.len());
    assert!(!count.limited);
    found
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn solver_finds_exactly_the_brute_force_solutions(
        n in 1usize..=7,
        seed: u64,
        queens in 0usize..=2,
        crosses in 0usize..=6,
    ) {
        let board = with_marks(random_grid(n, seed), seed, queens.min(n), crosses.min(n * n - queens.min(n)));
        let oracle = brute_force(&board);
        for order in [Order::Fewest, Order::Rows] {
            prop_assert_eq!(&solver_solutions(&board, order), &oracle);
            // A limit stops at the limit, and "unique" needs no more than two.
            let two = Search::new(&board).order(order).limit(2).count().unwrap();
            prop_assert_eq!(two.solutions as usize, oracle.len().min(2));
            prop_assert_eq!(two.limited, oracle.len() >= 2);
            let first = Search::new(&board).order(order).first().unwrap();
            prop_assert_eq!(first.is_some(), !oracle.is_empty());
            if let Some(first) = first {
                prop_assert!(oracle.contains(&first));
            }
        }
    }

    #[test]
    fn verify_accepts_exactly_the_solutions(n in 1usize..=6, seed: u64) {
        let board = random_grid(n, seed);
        let oracle = brute_force(&board);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..20 {
            let mut cols: Vec<usize> = (0..n).collect();
            cols.shuffle(&mut rng);
            let queens: Vec<(usize, usize)> = cols.iter().copied().enumerate().collect();
            prop_assert_eq!(nqueens::region::verify(&board, &queens).is_ok(), oracle.contains(&cols));
        }
        for cols in &oracle {
            let queens: Vec<(usize, usize)> = cols.iter().copied().enumerate().collect();
            prop_assert_eq!(nqueens::region::verify(&board, &queens), Ok(()));
        }
    }

    #[test]
    fn the_rater_only_places_what_every_solution_has(n in 4usize..=7, seed: u64, crosses in 0usize..=3) {
        let board = with_marks(random_grid(n, seed), seed, 0, crosses);
        let oracle = brute_force(&board);
        prop_assume!(!oracle.is_empty());
        let rating = rate(&board);
        let mut crossed = BTreeSet::new();
        for step in &rating.steps {
            for &(r, c) in &step.queens {
                prop_assert!(oracle.iter().all(|s| s[r] == c), "{:?} placed a wrong queen", step);
            }
            for &(r, c) in &step.crosses {
                prop_assert!(oracle.iter().all(|s| s[r] != c), "{:?} crossed out a solution's cell", step);
                crossed.insert((r, c));
            }
        }
        match &rating.stuck {
            None => {
                prop_assert_eq!(oracle.len(), 1);
                let solution: Vec<(usize, usize)> =
                    oracle.iter().next().unwrap().iter().copied().enumerate().collect();
                prop_assert_eq!(&rating.queens, &solution);
            }
            Some(why) => {
                prop_assert_eq!(rating.difficulty, Difficulty::NeedsGuessing);
                // A solvable board never looks contradictory to sound rules.
                prop_assert!(why.contains("no rule applies"), "{}", why);
            }
        }
    }

    #[test]
    fn text_and_json_forms_read_back(n in 1usize..=12, seed: u64, queens in 0usize..=3, crosses in 0usize..=5) {
        let board = with_marks(random_grid(n, seed), seed, queens.min(n), crosses.min(n * n - queens.min(n)));
        prop_assert_eq!(Board::parse(&board.to_text()).unwrap(), board.clone());
        prop_assert_eq!(Board::parse(&board.to_json()).unwrap(), board);
    }
}

#[test]
fn generated_small_puzzles_are_unique_by_brute_force() {
    for n in 5..=8 {
        let generator = Generator::new(n).unwrap().seed(n as u64).threads(1);
        for puzzle in generator.puzzles(12) {
            let puzzle = puzzle.unwrap();
            let oracle = brute_force(&puzzle.board);
            assert_eq!(oracle.len(), 1, "N={n}:\n{}", puzzle.board);
            assert!(oracle.contains(&puzzle.solution));
        }
    }
}

#[test]
fn generated_large_puzzles_are_unique_by_the_solver() {
    for n in [11, 16] {
        for puzzle in Generator::new(n).unwrap().seed(5).threads(2).puzzles(2) {
            let puzzle = puzzle.unwrap();
            let count = Search::new(&puzzle.board).limit(2).count().unwrap();
            assert_eq!((count.solutions, count.limited), (1, false), "N={n}");
            if n <= 11 {
                let rows = Search::new(&puzzle.board)
                    .order(Order::Rows)
                    .limit(2)
                    .count()
                    .unwrap();
                assert_eq!(rows.solutions, 1);
            }
            let found = Search::new(&puzzle.board).first().unwrap().unwrap();
            assert_eq!(found, puzzle.solution);
            // Where the rules solve it, they give the one solution.
            if puzzle.rating.stuck.is_none() {
                let cells: Vec<_> = puzzle.solution.iter().copied().enumerate().collect();
                assert_eq!(puzzle.rating.queens, cells);
            }
        }
    }
}

#[test]
fn generation_is_the_same_on_any_number_of_threads() {
    let one: Vec<_> = Generator::new(9)
        .unwrap()
        .seed(11)
        .threads(1)
        .puzzles(10)
        .map(Result::unwrap)
        .collect();
    let two: Vec<_> = Generator::new(9)
        .unwrap()
        .seed(11)
        .threads(2)
        .puzzles(10)
        .map(Result::unwrap)
        .collect();
    assert_eq!(one, two);
    let other: Vec<_> = Generator::new(9)
        .unwrap()
        .seed(12)
        .threads(1)
        .puzzles(10)
        .map(Result::unwrap)
        .collect();
    assert_ne!(one, other);
}

#[test]
fn difficulty_asked_for_is_the_difficulty_made() {
    for wanted in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
        let puzzle = Generator::new(7)
            .unwrap()
            .seed(2)
            .difficulty(Some(wanted))
            .puzzle(0)
            .unwrap();
        assert_eq!(puzzle.rating.difficulty, wanted);
        assert_eq!(rate(&puzzle.board), puzzle.rating);
    }
    assert!(Generator::new(4).is_err());
    assert!(Generator::new(33).is_err());
}

#[test]
fn generated_puzzles_are_rated_on_their_own_stream() {
    // Made alone or in a run, puzzle i is the same.
    let generator = Generator::new(10).unwrap().seed(3);
    let run: Vec<_> = generator.puzzles(5).map(Result::unwrap).collect();
    assert_eq!(generator.puzzle(4).unwrap(), run[4]);
}

#[test]
fn a_rule_broken_is_named() {
    let board = Board::parse("AAAA\nBBBB\nCCCC\nDDDD\n").unwrap();
    assert_eq!(
        nqueens::region::verify(&board, &[(0, 1), (0, 3)]),
        Err(Broken::Row { row: 0 })
    );
    assert_eq!(
        nqueens::region::verify(&board, &[(0, 1), (2, 1)]),
        Err(Broken::Column { col: 1 })
    );
    let board = Board::parse("AAAB\nCABB\nCCBD\nCCDD\n").unwrap();
    // Region before touching: these two also touch.
    assert_eq!(
        nqueens::region::verify(&board, &[(0, 0), (1, 1)]),
        Err(Broken::Region { label: 'A' })
    );
    assert_eq!(
        nqueens::region::verify(&board, &[(1, 0), (3, 1)]),
        Err(Broken::Region { label: 'C' })
    );
    assert_eq!(
        nqueens::region::verify(&board, &[(0, 1), (2, 0)]),
        Err(Broken::Missing { found: 2, n: 4 })
    );
    assert_eq!(
        nqueens::region::verify(&board, &[(0, 0), (1, 0)]),
        Err(Broken::Column { col: 0 })
    );
    assert_eq!(
        nqueens::region::verify(&board, &[(0, 0), (0, 4)]),
        Err(Broken::OffGrid { cell: (0, 4), n: 4 })
    );
    assert_eq!(
        nqueens::region::verify(&board, &[(1, 0), (0, 1)]),
        Err(Broken::Touching {
            a: (0, 1),
            b: (1, 0)
        })
    );
}

#[test]
fn malformed_grids_say_what_is_wrong() {
    let cases: [(&str, RegionError); 11] = [
        ("", RegionError::Empty),
        ("# only a comment\n", RegionError::Empty),
        (
            "AB\nA\n",
            RegionError::NotSquare {
                row: 2,
                len: 1,
                n: 2,
            },
        ),
        ("ABC\nABC\n", RegionError::Rows { rows: 2, n: 3 }),
        (
            "A-\nAB\n",
            RegionError::BadCell {
                row: 1,
                col: 2,
                ch: '-',
            },
        ),
        ("AA\nAA\n", RegionError::RegionCount { found: 1, n: 2 }),
        ("AB\nBA\n", RegionError::Disconnected { label: 'B' }),
        (
            "AB\nAB\nq 1\n",
            RegionError::BadMark {
                line: 3,
                text: "q 1".into(),
            },
        ),
        (
            "AB\nAB\nq 3 1\n",
            RegionError::OffGrid {
                row: 3,
                col: 1,
                n: 2,
            },
        ),
        (
            "AB\nAB\nq 1 1\nx 1 1\n",
            RegionError::MarkedTwice { row: 1, col: 1 },
        ),
        (&"A".repeat(63), RegionError::TooLarge { n: 63 }),
    ];
    for (text, error) in cases {
        assert_eq!(Board::parse(text), Err(error), "{text:?}");
    }
    assert!(matches!(
        Board::parse("{\"regions\": 3}"),
        Err(RegionError::Json(_))
    ));
    assert_eq!(
        Board::parse(r#"{"regions": ["AB", "AB"], "queens": [[1, 3]]}"#),
        Err(RegionError::OffGrid {
            row: 1,
            col: 3,
            n: 2
        })
    );
}

#[test]
fn fixtures_count_as_brute_force_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/region");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for board in Board::parse_all(&text) {
            let board = board.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            seen += 1;
            let count = Search::new(&board).count().unwrap().solutions as usize;
            if board.n() <= 9 {
                assert_eq!(count, brute_force(&board).len(), "{}", path.display());
            }
            // The first line of each fixture says how many solutions it has.
            let said: usize = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("# solutions: "))
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or_else(|| panic!("{}: no '# solutions: K' line", path.display()));
            assert_eq!(count, said, "{}", path.display());
        }
    }
    assert!(seen >= 4);
}

#[test]
fn random_grids_of_every_small_size_agree_with_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for n in 1..=8 {
        for _ in 0..30 {
            let board = random_grid(n, rng.r#gen());
            let oracle = brute_force(&board);
            assert_eq!(solver_solutions(&board, Order::Fewest), oracle);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Any seed and puzzle number: by brute force, the generated puzzle has exactly one
    /// solution, the one it comes with, and the rating's steps keep to it.
    #[test]
    fn a_generated_puzzles_solution_is_the_only_one(n in 5usize..=8, seed: u64, index in 0u64..1 << 20) {
        let puzzle = Generator::new(n).unwrap().seed(seed).puzzle(index).unwrap();
        let oracle: Vec<Vec<usize>> = brute_force(&puzzle.board).into_iter().collect();
        prop_assert_eq!(&oracle, &vec![puzzle.solution.clone()]);
        for step in &puzzle.rating.steps {
            for &(r, c) in &step.queens {
                prop_assert_eq!(puzzle.solution[r], c, "{:?} placed a wrong queen", step);
            }
            for &(r, c) in &step.crosses {
                prop_assert_ne!(puzzle.solution[r], c, "{:?} crossed out the solution", step);
            }
        }
        let cells: Vec<(usize, usize)> = puzzle.solution.iter().copied().enumerate().collect();
        match puzzle.rating.stuck {
            None => prop_assert_eq!(&puzzle.rating.queens, &cells),
            Some(_) => prop_assert_eq!(puzzle.rating.difficulty, Difficulty::NeedsGuessing),
        }
    }

    /// Larger grids, where brute force is out of reach: the rows-from-the-top search (plain
    /// backtracking, without the fewest-open-cells order's deductions) finds the one solution.
    #[test]
    fn a_larger_generated_puzzle_is_unique_by_plain_backtracking(n in 9usize..=12, seed: u64, index in 0u64..1 << 20) {
        let puzzle = Generator::new(n).unwrap().seed(seed).puzzle(index).unwrap();
        let mut found = Vec::new();
        let count = Search::new(&puzzle.board)
            .order(Order::Rows)
            .for_each(|s| found.push(s.to_vec()))
            .unwrap();
        prop_assert_eq!(count.solutions, 1);
        prop_assert_eq!(found, vec![puzzle.solution]);
    }
}
