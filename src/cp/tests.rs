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
        let mut wide = Solver::new(&inst, opts).learning(false);
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

/// `true` if some completion of `inst` holds every queen of `queens`.
fn completes_with(inst: &Instance, queens: &[(usize, usize)]) -> bool {
    let mut with = inst.clone();
    queens.iter().all(|&(r, c)| with.fix(r, c).is_ok()) && oracle(&with) > 0
}

/// Learning against the oracle: the answer, and every no-good learned on the way (a set of
/// queens no completion holds), so that a wrong no-good is caught even when the answer
/// survives it.
fn check_learning(inst: &Instance, solver: &mut Solver, expected: u64) -> usize {
    let (found, status) = solver.find();
    assert_eq!(found.is_some(), expected > 0, "{inst}");
    assert!(found.is_none_or(|p| inst.admits(&p)), "{inst}");
    assert_eq!(status == Status::Exhausted, expected == 0, "{inst}");
    let nogoods = solver.nogoods();
    for g in &nogoods {
        assert!(
            !completes_with(inst, g),
            "{inst}: the no-good {g:?} has a completion"
        );
    }
    nogoods.len()
}

#[test]
fn learned_nogoods_and_answers_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut learned, mut with, mut without, mut minimised) = (0, 0, 0, 0);
    for i in 0..1500 {
        let n = rng.gen_range(4..=11);
        // Near and around the transition of small boards, and random queens on some.
        let share = rng.gen_range(30..=80);
        let mut inst = super::blocked_board(n, n * n * share / 100, 1, rng.r#gen());
        if i % 3 == 0 {
            let _ = inst.fix(rng.gen_range(0..n), rng.gen_range(0..n));
        }
        let expected = oracle(&inst);
        if expected > 0 {
            with += 1;
        } else {
            without += 1;
        }
        let restarts = i % 2 == 0;
        let opts = Options {
            restarts,
            seed: rng.r#gen(),
            ..Default::default()
        };
        let mut solvers = [
            Solver::new(&inst, opts).learning(true),
            Solver::with_board128(&inst, opts).learning(true),
            Solver::with_nogood_cap(&inst, opts, 2),
        ];
        for solver in &mut solvers {
            learned += check_learning(&inst, solver, expected);
            // A second search starts from the no-goods of the first.
            learned += check_learning(&inst, solver, expected);
            // The board is back at its root: counting (which never learns) is exact.
            assert_eq!(solver.count().0, expected, "{inst}");
            minimised += solver.minimised();
        }
    }
    assert!(with >= 200 && without >= 200, "{with} {without}");
    assert!(learned >= 10_000, "{learned}");
    // Minimisation ran, on no-goods the checks above held to the oracle.
    assert!(minimised >= 1_000, "{minimised}");
}

#[test]
fn learning_agrees_with_the_plain_search_near_the_transition() {
    // Boards of 14 to 40 near the transition, where restarts and cuts of the no-good store
    // (down to 50) happen many times: the answer of the plain search, every completion valid.
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let (mut restarts, mut both) = (0, [0, 0]);
    for _ in 0..120 {
        let n = rng.gen_range(14..=40);
        let share = rng.gen_range(70..=86);
        let inst = super::blocked_board(n, n * n * share / 100, 1, rng.r#gen());
        let plain = Solver::new(&inst, Options::default())
            .learning(false)
            .find();
        let mut solver = Solver::with_nogood_cap(&inst, Options::default(), 50);
        let (found, status) = solver.find();
        assert_eq!(found.is_some(), plain.0.is_some(), "{inst}");
        assert!(found.is_none_or(|p| inst.admits(&p)), "{inst}");
        assert_ne!(status, Status::NodeLimit);
        restarts += solver.stats().restarts;
        both[usize::from(plain.0.is_some())] += 1;
    }
    assert!(both[0] >= 20 && both[1] >= 20, "{both:?}");
    assert!(restarts >= 100, "{restarts}");
}

#[test]
fn failed_states_cut_only_subtrees_without_a_completion() {
    // Boards of 14 to 48 near the transition, searched plainly with restarts (so failed
    // states are kept and cut) and without (so none are): the same answer on every board,
    // every completion valid, and cuts on many boards. On the small boards the oracle itself
    // counts the completions.
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let (mut cut_boards, mut both) = (0, [0, 0]);
    for i in 0..160 {
        let n = if i < 40 {
            rng.gen_range(8..=11)
        } else {
            rng.gen_range(14..=48)
        };
        let share = rng.gen_range(70..=86);
        let inst = super::blocked_board(n, n * n * share / 100, 1, rng.r#gen());
        let mut kept = Solver::new(&inst, Options::default()).learning(false);
        let (found, status) = kept.find();
        assert_eq!(
            status,
            if found.is_some() {
                Status::Stopped
            } else {
                Status::Exhausted
            }
        );
        assert!(found.as_ref().is_none_or(|p| inst.admits(p)), "{inst}");
        let expected = if n <= 11 {
            oracle(&inst) > 0
        } else {
            let no_restarts = Options {
                restarts: false,
                ..Options::default()
            };
            let mut plain = Solver::new(&inst, no_restarts).learning(false);
            assert_eq!(plain.failed_cuts(), 0);
            plain.find().0.is_some()
        };
        assert_eq!(found.is_some(), expected, "{inst}");
        cut_boards += usize::from(kept.failed_cuts() > 0);
        both[usize::from(expected)] += 1;
    }
    assert!(both[0] >= 20 && both[1] >= 20, "{both:?}");
    assert!(cut_boards >= 10, "{cut_boards}");
}

#[test]
fn learning_first_then_the_plain_search_as_it_runs_alone() {
    // Boards of 14 to 40 near the transition, learning for a few nodes and then searching
    // plainly: the answer of the plain search, and after the switch exactly its failures (the
    // same tree: ties are restored), within a node limit counted over both.
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let (mut switched, mut learned_it) = (0, 0);
    for i in 0..120 {
        let n = rng.gen_range(14..=40);
        let share = rng.gen_range(70..=86);
        let inst = super::blocked_board(n, n * n * share / 100, 1, rng.r#gen());
        let mut plain = Solver::new(&inst, Options::default()).learning(false);
        let (alone, _) = plain.find();
        let limit = (i % 4 == 0).then_some(60);
        let options = Options {
            node_limit: limit,
            ..Options::default()
        };
        let mut solver = Solver::with_learn_first(&inst, options, 30);
        let (found, status) = solver.find();
        assert!(found.as_ref().is_none_or(|p| inst.admits(p)), "{inst}");
        let stats = solver.stats();
        if let Some(limit) = limit {
            assert!(stats.nodes <= limit, "{inst}: {} nodes", stats.nodes);
        }
        if status == Status::NodeLimit {
            continue;
        }
        assert_eq!(found.is_some(), alone.is_some(), "{inst}");
        // Every failure of the learning phase gives a no-good, but one at the root.
        if stats.failures > stats.nogoods + 1 {
            assert_eq!(
                stats.failures - stats.nogoods,
                plain.stats().failures,
                "{inst}"
            );
            switched += 1;
        } else {
            learned_it += 1;
        }
    }
    assert!(
        switched >= 20 && learned_it >= 20,
        "{switched} {learned_it}"
    );
}

/// The available squares of row `r` the obvious way: open, not removed, no queen on its
/// column or a diagonal.
fn domain_oracle(
    n: usize,
    blocked: &[Vec<bool>],
    queens: &[(usize, usize)],
    r: usize,
) -> Vec<usize> {
    (0..n)
        .filter(|&c| {
            !blocked[r][c]
                && queens
                    .iter()
                    .all(|&(qr, qc)| qc != c && qr.abs_diff(r) != qc.abs_diff(c))
        })
        .collect()
}

/// Both ways of keeping a word board's domains (computed from line masks up to 64 columns,
/// stored up to 128) against the oracle, through random placements, removals of squares
/// and undo in any order that takes back the latest first, as search and learning do.
#[test]
fn word_board_domains_match_the_oracle_through_placing_removing_and_undo() {
    use super::domain::{Bits, Board, NONE, Word};

    enum Step {
        Queen,
        Removed(usize, usize),
    }

    fn check<W: Word>(rng: &mut ChaCha8Rng, n: usize) -> u64 {
        let mut blocked = vec![vec![false; n]; n];
        let mut list = Vec::new();
        let share = rng.gen_range(0.0..0.95);
        for (r, row) in blocked.iter_mut().enumerate() {
            for (c, b) in row.iter_mut().enumerate() {
                if rng.gen_bool(share) {
                    *b = true;
                    list.push((r as u32, c as u32));
                }
            }
        }
        let mut board = Bits::<W>::new(n, list);
        let mut queens: Vec<(usize, usize)> = Vec::new();
        let mut steps = Vec::new();
        let mut checked = 0;
        for _ in 0..4 * n {
            // The board against the oracle, every unassigned row.
            for &r in board.unassigned() {
                let r = r as usize;
                let want = domain_oracle(n, &blocked, &queens, r);
                let mut got = Vec::new();
                board.each_square(r, |c| got.push(c));
                assert_eq!(got, want, "n {n}, row {r}, queens {queens:?}");
                assert_eq!(board.size(r) as usize, want.len());
                for c in 0..n {
                    assert_eq!(board.available(r, c), want.contains(&c));
                }
                checked += 1;
            }
            let open: Vec<(usize, usize)> = board
                .unassigned()
                .iter()
                .flat_map(|&r| (0..n).map(move |c| (r as usize, c)))
                .filter(|&(r, c)| board.available(r, c))
                .collect();
            match rng.gen_range(0..10) {
                0..4 if !open.is_empty() => {
                    let (r, c) = open[rng.gen_range(0..open.len())];
                    board.place(r, c);
                    assert_eq!(board.queens()[r], c as u32);
                    queens.push((r, c));
                    steps.push(Step::Queen);
                }
                4..6 if !open.is_empty() => {
                    let (r, c) = open[rng.gen_range(0..open.len())];
                    board.remove_square(r, c);
                    blocked[r][c] = true;
                    steps.push(Step::Removed(r, c));
                }
                _ => {
                    // Take back the latest steps, a queen at a time or a removal at a time.
                    for _ in 0..rng.gen_range(1..=3) {
                        match steps.pop() {
                            Some(Step::Queen) => {
                                let (r, _) = queens.pop().expect("a queen per step");
                                board.undo_to(queens.len());
                                assert_eq!(board.queens()[r], NONE);
                            }
                            Some(Step::Removed(r, c)) => {
                                board.restore_square(r, c);
                                blocked[r][c] = false;
                            }
                            None => break,
                        }
                    }
                }
            }
        }
        checked
    }

    let mut rng = ChaCha8Rng::seed_from_u64(54);
    let mut checked = 0;
    for _ in 0..150 {
        let n = rng.gen_range(1..=128);
        if n <= 64 {
            checked += check::<u64>(&mut rng, n);
        }
        checked += check::<u128>(&mut rng, n);
    }
    assert!(checked > 100_000, "{checked} rows checked");
}

/// A domain's size counted by `popcnt` (where the CPU has it) and by plain Rust, on random
/// words of every population: the row choice may use either.
#[test]
fn domain_sizes_count_the_same_with_and_without_popcnt() {
    use super::domain::Word;
    use crate::engine::cpu::Avx2;

    let mut rng = ChaCha8Rng::seed_from_u64(128);
    let cpu = Avx2::detect();
    for _ in 0..10_000 {
        let density = rng.gen_range(0.0..=1.0);
        let mut w: u128 = 0;
        for i in 0..128 {
            if rng.gen_bool(density) {
                w |= 1 << i;
            }
        }
        let half = w as u64;
        assert_eq!(Word::count_ones(w, cpu), w.count_ones());
        assert_eq!(Word::count_ones(w, None), w.count_ones());
        assert_eq!(Word::count_ones(half, cpu), half.count_ones());
        assert_eq!(Word::count_ones(half, None), half.count_ones());
    }
}

#[test]
fn probing_matches_the_oracle_on_random_instances() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let mut probes = 0;
    for i in 0..3000 {
        let inst = random_instance(&mut rng);
        let expected = oracle(&inst);
        let opts = Options {
            restarts: i % 2 == 0,
            seed: rng.r#gen(),
            ..Default::default()
        };
        let mut solver = Solver::new(&inst, opts).probing(true);
        for _ in 0..2 {
            let (one, status) = solver.find();
            assert_eq!(one.is_some(), expected > 0, "{inst}");
            assert!(one.is_none_or(|p| inst.admits(&p)), "{inst}");
            assert_eq!(status == Status::Exhausted, expected == 0, "{inst}");
        }
        // Counting never probes.
        assert_eq!(solver.count().0, expected, "{inst}");
        probes += solver.stats().probes;
    }
    assert!(probes >= 1_000, "{probes}");
}

#[test]
fn probing_agrees_with_the_plain_search_near_the_transition() {
    // Boards of 14 to 60 near the transition, with restarts (many runs end early) and without.
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let (mut restarts, mut both) = (0, [0, 0]);
    for i in 0..160 {
        let n = rng.gen_range(14..=60);
        let share = rng.gen_range(70..=88);
        let inst = super::blocked_board(n, n * n * share / 100, 1, rng.r#gen());
        let plain = Solver::new(&inst, Options::default())
            .learning(false)
            .find();
        let opts = Options {
            restarts: i % 4 != 0,
            seed: rng.r#gen(),
            ..Default::default()
        };
        let mut solver = Solver::new(&inst, opts).probing(true);
        let (found, status) = solver.find();
        assert_eq!(found.is_some(), plain.0.is_some(), "{inst}");
        assert!(found.is_none_or(|p| inst.admits(&p)), "{inst}");
        assert_ne!(status, Status::NodeLimit);
        restarts += solver.stats().restarts;
        both[usize::from(plain.0.is_some())] += 1;
    }
    assert!(both[0] >= 20 && both[1] >= 20, "{both:?}");
    assert!(restarts >= 20, "{restarts}");
}

#[test]
fn two_walks_find_every_completion_once() {
    // The two walks of a split, in turns of a few nodes and going on after each completion,
    // enumerate the completions: each once (the parts they take over never overlap) and all
    // of them (none is lost between the parts), whichever order goes first and however long
    // it goes alone. Against the oracle on small boards, and against the plain search's
    // enumeration on boards near the transition.
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut steals = 0;
    for i in 0..3300 {
        let (inst, expected) = if i < 3000 {
            let inst = random_instance(&mut rng);
            let expected = oracle(&inst);
            (inst, expected)
        } else {
            let n = rng.gen_range(14..=24);
            let share = rng.gen_range(66..=84);
            let inst = super::blocked_board(n, n * n * share / 100, 1, rng.r#gen());
            let mut plain = Solver::new(&inst, Options::default()).learning(false);
            let (all, status) = all(&mut plain);
            assert_eq!(status, Status::Exhausted);
            (inst, all.len() as u64)
        };
        let alone = [0, 20, 200][rng.gen_range(0..3)];
        let turn = rng.gen_range(1..=40);
        let (found, stolen) = super::probe::split_completions(&inst, i % 2 == 0, alone, turn);
        let mut found: Vec<Placement> = found.into_iter().map(Placement::new).collect();
        assert!(found.iter().all(|p| inst.admits(p)), "{inst}");
        found.sort();
        let before = found.len();
        found.dedup();
        assert_eq!(found.len(), before, "{inst}: a completion found twice");
        assert_eq!(before as u64, expected, "{inst}");
        steals += stolen;
    }
    assert!(steals >= 2_500, "{steals}");
}

#[test]
fn probing_in_small_turns_walks_the_tree_of_one_search() {
    // The resumable search of `Mode::Turns`, stopped every few nodes and resumed, against one
    // call that goes to the end: the same answer, the same nodes, failures and probes; and
    // the same verdict as the search with probing alone (whose order of squares differs).
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let never = std::sync::atomic::AtomicBool::new(false);
    let mut turns = 0;
    for _ in 0..60 {
        let n = rng.gen_range(14..=50);
        let share = rng.gen_range(72..=88);
        let inst = super::blocked_board(n, n * n * share / 100, 1, rng.r#gen());
        let options = Options {
            restarts: false,
            ..Options::default()
        };
        let alone = Solver::new(&inst, options).probing(true).find();
        let mut whole = super::probe::prober(&inst, &options).expect("fits");
        let mut a = super::Stats::default();
        let (expected, status) = whole.resume(u64::MAX, None, None, &mut a, &never);
        assert_eq!(expected.is_some(), alone.0.is_some(), "{inst}");
        assert_eq!(status, alone.1, "{inst}");
        let mut prober = super::probe::prober(&inst, &options).expect("fits");
        let mut stats = super::Stats::default();
        let (found, end) = loop {
            let step = rng.gen_range(1..=9);
            let (found, end) = prober.resume(step, None, None, &mut stats, &never);
            if end != Status::NodeLimit {
                break (found, end);
            }
            turns += 1;
        };
        assert_eq!(end, status, "{inst}");
        assert_eq!(found, expected, "{inst}");
        assert_eq!(
            (a.nodes, a.failures, a.probes),
            (stats.nodes, stats.failures, stats.probes),
            "{inst}"
        );
    }
    assert!(turns >= 1_000, "{turns}");
}
