//! The counting engine against the published counts and against slow, obvious oracles.
use crate::common;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use nqueens::Symmetry;
use nqueens::engine::strategy::backtrack::constellation::{
    Constellation, Frame, Start, constellations, prefixes,
};
use nqueens::engine::strategy::backtrack::{BacktrackTasks, kernel};
use nqueens::engine::{Strategy, Tally, TaskSet, device::pool};
use proptest::prelude::*;

use common::brute_force as solutions;

/// The number of the eight symmetries that map `s` onto itself.
fn symmetries_fixing(s: &[u32]) -> u128 {
    let n = s.len();
    Symmetry::ALL
        .into_iter()
        .filter(|&g| {
            s.iter().enumerate().all(|(r, &c)| {
                let (r2, c2) = g.apply(n, r, c as usize);
                s[r2] as usize == c2
            })
        })
        .count() as u128
}

fn sum(set: &dyn TaskSet, threads: usize) -> Tally {
    let all: Vec<usize> = (0..set.len()).collect();
    let never = AtomicBool::new(false);
    let out = pool::count_tasks(set, &all, threads, &never, &|_, _| Ok::<(), ()>(())).unwrap();
    assert!(!out.stopped);
    out.tally
}

#[test]
fn counts_match_published_up_to_15() {
    for n in 1..=15 {
        let t = sum(&BacktrackTasks::new(n).unwrap(), 2);
        assert_eq!((t.total, t.unique()), common::counts(n), "N={n}");
        assert_eq!(t.unique8 % 8, 0, "N={n}: the unique count is whole");
    }
}

#[test]
fn counts_match_published_16() {
    let t = sum(&BacktrackTasks::new(16).unwrap(), 2);
    assert_eq!((t.total, t.unique()), common::counts(16));
}

// About 8 s of CPU: 4 s on CI's two cores, well inside the suite's budget.
#[test]
fn counts_match_published_17() {
    let t = sum(&BacktrackTasks::new(17).unwrap(), 2);
    assert_eq!((t.total, t.unique()), common::counts(17));
}

#[test]
fn agrees_with_the_oracle_up_to_12() {
    for n in 1..=12 {
        let all = solutions(n);
        let unique8: u128 = all.iter().map(|s| symmetries_fixing(s)).sum();
        let t = sum(&BacktrackTasks::new(n).unwrap(), 1);
        assert_eq!(t.total, all.len() as u128, "N={n}");
        assert_eq!(t.unique8, unique8, "N={n}");
    }
}

#[test]
fn both_strategies_agree_with_the_ladder_up_to_12() {
    for n in 1..=12 {
        let ladder = nqueens::algo::symmetry::count(n);
        for strategy in [Strategy::Backtrack, Strategy::Join] {
            let t = sum(
                nqueens::engine::strategy::task_list(n, strategy)
                    .unwrap()
                    .as_ref(),
                2,
            );
            assert_eq!(t.total, ladder.total as u128, "N={n} {strategy:?}");
            assert_eq!(Some(t.unique() as u64), ladder.unique, "N={n} {strategy:?}");
        }
    }
}

#[test]
fn one_and_two_threads_agree() {
    for n in [10, 13] {
        let set = BacktrackTasks::new(n).unwrap();
        assert_eq!(sum(&set, 1), sum(&set, 2), "N={n}");
    }
}

#[test]
fn task_list_is_deterministic() {
    for n in [8, 13, 21] {
        let a = BacktrackTasks::new(n).unwrap();
        let b = BacktrackTasks::new(n).unwrap();
        assert_eq!(a.len(), b.len());
        for i in 0..a.len() {
            assert_eq!(a.constellation(i), b.constellation(i));
            let ((fa, sa, wa), (fb, sb, wb)) = (a.prepare(i), b.prepare(i));
            assert_eq!(
                (fa.allowed, fa.shift, sa, wa),
                (fb.allowed, fb.shift, sb, wb)
            );
        }
    }
}

#[test]
fn the_list_holds_one_constellation_of_each_class_of_solutions() {
    // Against brute force: the classes of the solutions' own border queens are exactly the
    // classes the list names, once each.
    let canonical = |c: Constellation, n: usize| {
        Symmetry::ALL
            .iter()
            .map(|&g| c.transformed(g, n))
            .min()
            .unwrap()
    };
    for n in 5..=10 {
        let listed: Vec<Constellation> = constellations(n)
            .into_iter()
            .map(|c| canonical(c, n))
            .collect();
        let mut unique = listed.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), listed.len(), "n={n}: a class listed twice");
        let mut found: Vec<Constellation> = solutions(n)
            .iter()
            .map(|s| canonical(Constellation::of(s), n))
            .collect();
        found.sort();
        found.dedup();
        assert!(
            found.iter().all(|c| unique.binary_search(c).is_ok()),
            "n={n}: a solution's class is missing"
        );
    }
}

#[test]
fn every_task_has_the_weight_of_its_class() {
    for n in 4..=10 {
        let set = BacktrackTasks::new(n).unwrap();
        let mut by_class: HashMap<Constellation, Tally> = HashMap::new();
        for i in 0..set.len() {
            *by_class.entry(set.constellation(i)).or_default() += set.count(i);
        }
        let all = solutions(n);
        for (c, tally) in by_class {
            let orbit: Vec<Constellation> =
                Symmetry::ALL.iter().map(|&g| c.transformed(g, n)).collect();
            let members: Vec<&Vec<u32>> = all
                .iter()
                .filter(|s| orbit.contains(&Constellation::of(s)))
                .collect();
            assert_eq!(tally.total, members.len() as u128, "N={n} class {c:?}");
            let unique8: u128 = members.iter().map(|s| symmetries_fixing(s)).sum();
            assert_eq!(tally.unique8, unique8, "N={n} class {c:?}");
        }
    }
}

#[test]
fn every_solution_class_is_covered_once() {
    for n in 4..=10 {
        let reps = constellations(n);
        for s in solutions(n) {
            let c = Constellation::of(&s);
            let hits = reps
                .iter()
                .filter(|r| Symmetry::ALL.iter().any(|&g| r.transformed(g, n) == c))
                .count();
            assert_eq!(hits, 1, "N={n} solution {s:?}");
        }
    }
}

#[test]
fn prefixes_split_a_constellation_exactly() {
    for n in [9, 12] {
        for c in constellations(n) {
            let f = Frame::new(n, &c);
            let whole = kernel::count(&f, Default::default());
            for depth in 1..=2 {
                let parts: u64 = prefixes(&f, depth)
                    .into_iter()
                    .map(|(start, _)| kernel::count(&f, start))
                    .sum();
                assert_eq!(parts, whole, "N={n} {c:?} depth {depth}");
            }
        }
    }
}

#[test]
fn node_counting_kernel_counts_the_same() {
    for c in constellations(11) {
        let f = Frame::new(11, &c);
        let counted = kernel::count_with_nodes(&f, Default::default());
        assert_eq!(counted.solutions, kernel::count(&f, Default::default()));
        assert!(counted.nodes > 0 || counted.solutions <= 1);
    }
}

/// Completions of `start`, by the plain recursion over `Start::place` (the kernel's oracle).
fn completions(f: &Frame, start: Start) -> u64 {
    if start.level == f.levels {
        return 1;
    }
    let mut open = start.open(f);
    let mut sum = 0;
    while open != 0 {
        let q = open & open.wrapping_neg();
        open ^= q;
        sum += completions(f, start.place(f, q));
    }
    sum
}

/// Checks the kernel against the oracle from `start` and from every state below it.
fn check_every_state(f: &Frame, start: Start) {
    let want = completions(f, start);
    assert_eq!(kernel::count(f, start), want, "{start:?}");
    assert_eq!(
        kernel::count_with_nodes(f, start).solutions,
        want,
        "{start:?}"
    );
    if start.level < f.levels {
        let mut open = start.open(f);
        while open != 0 {
            let q = open & open.wrapping_neg();
            open ^= q;
            check_every_state(f, start.place(f, q));
        }
    }
}

#[test]
fn kernel_counts_right_from_every_state() {
    // Every number of rows left (the stack loop, each tail row, the closed-form last two rows),
    // including states with no completion.
    for n in 5..=10 {
        for c in constellations(n) {
            check_every_state(&Frame::new(n, &c), Start::default());
        }
    }
}

#[test]
fn out_of_range_is_an_error() {
    assert!(nqueens::engine::strategy::task_list(0, Strategy::Backtrack).is_err());
    assert!(nqueens::engine::strategy::task_list(33, Strategy::Backtrack).is_err());
    assert!(nqueens::engine::strategy::task_list(32, Strategy::Backtrack).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The kernel's count of one task equals the number of solutions (found by brute force) that
    /// have the task's border queens.
    #[test]
    fn kernel_counts_what_brute_force_finds(n in 5usize..=10, pick in any::<prop::sample::Index>()) {
        let reps = constellations(n);
        let c = reps[pick.index(reps.len())];
        let f = Frame::new(n, &c);
        let want = solutions(n).iter().filter(|s| Constellation::of(s) == c).count() as u64;
        prop_assert_eq!(kernel::count(&f, Default::default()), want);
    }
}

#[test]
fn split_tasks_of_large_boards_count_the_same_both_ways() {
    // From N=20 tasks carry a pre-placed queen; check a few of them, with and without
    // symmetries, against the kernel run directly on the prepared task.
    let n = 20;
    let set = BacktrackTasks::new(n).unwrap();
    let symmetric = |i: usize| {
        set.constellation(i)
            .stabiliser(n)
            .into_iter()
            .any(|g| g.is_rotation())
    };
    let picks: Vec<usize> = (0..set.len())
        .filter(|&i| symmetric(i))
        .take(3)
        .chain((0..set.len()).step_by(set.len() / 3).take(3))
        .collect();
    assert!(picks.iter().any(|&i| symmetric(i)) && picks.iter().any(|&i| !symmetric(i)));
    for i in picks {
        let (frame, start, weight) = set.prepare(i);
        assert_eq!(start.level, 1, "task {i} has its first free row pre-placed");
        let t = set.count(i);
        assert_eq!(
            t.total,
            u128::from(kernel::count(frame, start) * weight),
            "task {i}"
        );
        // Each completion adds `weight` times the number of rotations fixing it (1, 2 or 4).
        assert!(t.unique8 >= t.total && t.unique8 <= 4 * t.total, "task {i}");
    }
}

#[test]
fn symmetric_tasks_counted_apart_match_inspecting_every_completion() {
    // The fast path (completions by the kernel, the symmetric ones by a search that places
    // queens with their images) against building every completion and trying each symmetry.
    let go = AtomicBool::new(false);
    for n in (1..=16).chain([20]) {
        let set = BacktrackTasks::new(n).unwrap();
        let symmetric: Vec<usize> = (0..set.len()).filter(|&i| set.is_symmetric(i)).collect();
        assert!(n < 4 || n == 20 || !symmetric.is_empty(), "N={n}");
        for i in symmetric
            .into_iter()
            .take(if n == 20 { 40 } else { usize::MAX })
        {
            let (frame, start, _) = set.prepare(i);
            let fast = set.tally(i, kernel::count(frame, start), set.fixed(i, &go).unwrap());
            assert_eq!(fast, set.count_by_inspection(i), "N={n}, task {i}");
        }
    }
}

/// The command, with `NQUEENS_ISA` set to `isa`.
fn with_isa(isa: &str, args: &[&str]) -> assert_cmd::assert::Assert {
    assert_cmd::Command::cargo_bin("nqueens")
        .unwrap()
        .env("NQUEENS_ISA", isa)
        .args(args)
        .assert()
}

#[test]
fn every_copy_the_cpu_runs_can_be_forced_and_counts_alike() {
    use nqueens::engine::cpu::Isa;
    for isa in Isa::available() {
        for strategy in ["join", "backtrack"] {
            let args = [
                "count",
                "13",
                "--strategy",
                strategy,
                "--format",
                "json",
                "--no-time",
            ];
            with_isa(isa.name(), &args).success().stdout(format!(
                "{{\"by\":\"engine/{strategy}\",\"n\":13,\"seconds\":null,\"total\":73712,\"unique\":9233}}\n"
            ));
        }
    }
    // Unset and empty alike: the widest.
    with_isa("", &["count", "8"]).success();
}

#[test]
fn a_copy_that_is_not_there_is_refused_in_one_line() {
    use nqueens::engine::cpu::Isa;
    let mut refused = vec!["sse9".to_string(), "AVX2".to_string()];
    refused.extend(
        Isa::ALL
            .into_iter()
            .filter(|&isa| isa > Isa::detect())
            .map(|isa| isa.name().to_string()),
    );
    let board = "tests/fixtures/blocked/50-2110-0.txt";
    for isa in refused {
        for args in [&["count", "10"][..], &["complete", board]] {
            let assert = with_isa(&isa, args).code(2).stdout("");
            let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.starts_with("error: ") && stderr.contains("NQUEENS_ISA"),
                "{stderr}"
            );
        }
    }
}

/// The constraint solver counts its domains by `popcnt` or in plain Rust as the copy says:
/// the same completion, and the same search, either way.
#[test]
fn every_copy_the_cpu_runs_completes_alike() {
    use nqueens::engine::cpu::Isa;
    let board = "tests/fixtures/blocked/50-2110-0.txt";
    let outputs: Vec<String> = Isa::available()
        .into_iter()
        .map(|isa| {
            let out = with_isa(isa.name(), &["complete", board, "--stats"]).success();
            let out = out.get_output();
            // The completion, and the search's counts without the time it took.
            let stats = String::from_utf8(out.stderr.clone()).unwrap();
            let stats = stats.split(", time ").next().unwrap().to_string();
            String::from_utf8(out.stdout.clone()).unwrap() + &stats
        })
        .collect();
    assert!(
        outputs[0].contains("Q") && outputs[0].contains("nodes "),
        "{}",
        outputs[0]
    );
    assert!(outputs.iter().all(|o| *o == outputs[0]), "{outputs:?}");
}

#[test]
fn the_command_line_and_the_library_name_the_same_method_for_every_n() {
    for n in [1, 4, 8, 10, 12, 13, 15] {
        let method = nqueens::Counter::new(n).run().unwrap().method.label();
        let args = ["count", &n.to_string(), "--format", "json", "--no-time"];
        let out = assert_cmd::Command::cargo_bin("nqueens")
            .unwrap()
            .args(args)
            .assert()
            .success();
        let line = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(
            line.contains(&format!("\"by\":\"{method}\"")),
            "N={n}: {line}"
        );
        assert!(method.starts_with("engine/"), "N={n}: {method}");
    }
}
