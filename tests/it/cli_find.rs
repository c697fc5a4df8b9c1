//! `nqueens find` end to end: the real binary, its output read back and checked.

use assert_cmd::Command;
use nqueens::format::Reader;
use nqueens::{Placement, large};
use predicates::prelude::*;

fn find(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("nqueens")
        .unwrap()
        .arg("find")
        .args(args)
        .assert()
}

/// Reads the single `perm` line of a successful run and checks it is a solution for `n`.
fn solution(assert: assert_cmd::assert::Assert, n: usize) -> Placement {
    let out = assert.success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected");
    let cols: Vec<u32> = lines[0].split(' ').map(|t| t.parse().unwrap()).collect();
    let p = Placement::from_one_based(&cols).unwrap();
    assert_eq!(p.n(), n);
    assert!(p.verify().is_ok(), "{:?}", p.verify());
    p
}

#[test]
fn construction_is_printed_and_valid() {
    for n in [1, 4, 8, 9, 10, 14, 15, 100, 1001] {
        let p = solution(find(&[&n.to_string()]), n);
        assert_eq!(Some(p), large::construct(n));
    }
}

#[test]
fn a_million_queens_stream_out_valid() {
    solution(find(&["1000000"]), 1_000_000);
}

#[test]
fn perm_is_the_default_and_an_explicit_format() {
    let default = find(&["12"]).success().get_output().stdout.clone();
    let perm = find(&["12", "--format", "perm"])
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(default, perm);
}

#[test]
fn random_with_a_seed_is_reproducible() {
    let a = solution(find(&["500", "--random", "--seed", "7"]), 500);
    let b = solution(find(&["500", "--random", "--seed", "7"]), 500);
    let c = solution(find(&["500", "--random", "--seed", "8"]), 500);
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(Some(a), large::min_conflicts(500, 7));
}

#[test]
fn random_without_a_seed_prints_one_that_repeats_the_run() {
    let assert = find(&["300", "--random"]).stderr(predicate::str::starts_with("seed: "));
    let output = assert.get_output().clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let seed = stderr.trim().strip_prefix("seed: ").unwrap().to_string();
    let first = solution(assert, 300);
    let again = solution(find(&["300", "--random", "--seed", &seed]), 300);
    assert_eq!(first, again);
}

#[test]
fn random_small_boards_are_solved() {
    for n in [1, 4, 5, 6, 7, 8, 9, 10] {
        solution(find(&[&n.to_string(), "--random", "--seed", "1"]), n);
    }
}

#[test]
fn first_prints_the_lexicographically_first_solution() {
    for n in [1, 4, 8, 12, 20] {
        let p = solution(find(&[&n.to_string(), "--first"]), n);
        assert_eq!(Some(p), large::first(n, None).unwrap());
    }
    find(&["8", "--first"]).stdout("1 5 8 6 3 7 2 4\n");
}

#[test]
fn first_past_its_time_limit_fails_with_exit_1() {
    find(&["40", "--first", "--time-limit", "0.2"])
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("within 0.2 s"));
}

#[test]
fn no_solution_for_2_and_3_is_exit_1() {
    for n in ["2", "3"] {
        for extra in [&[][..], &["--random"], &["--first"]] {
            find(&[&[n][..], extra].concat())
                .code(1)
                .stdout("")
                .stderr(predicate::str::contains("no solution exists"));
        }
    }
}

/// One line on stderr starting `error:`, exit 2, nothing on stdout.
fn bad_input(args: &[&str], message: &str) {
    find(args)
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with("error: "))
        .stderr(predicate::str::contains(message));
}

#[test]
fn bad_input_is_exit_2() {
    bad_input(&["0"], "at least 1");
    bad_input(&["4294967296"], "too large");
    bad_input(&["65", "--first"], "at most 64");
    bad_input(
        &["1001", "--format", "board"],
        "--format board is limited to N <= 1000",
    );
    bad_input(
        &["801", "--format", "svg"],
        "--format svg is limited to N <= 800",
    );
    bad_input(&["8", "--first", "--time-limit", "-1"], "--time-limit");
    bad_input(&["8", "--first", "--time-limit", "0"], "--time-limit");
    bad_input(&["x"], "invalid value");
    bad_input(&["8", "--seed", "3"], "--random");
    bad_input(&["8", "--time-limit", "3"], "--first");
    bad_input(&["8", "--random", "--first"], "cannot be used with");
    bad_input(&["8", "--max-memory", "1G"], "--random");
    bad_input(&["8", "--random", "--max-memory", "12"], "needs about");
    bad_input(&["8", "--random", "--max-memory", "lots"], "invalid value");
}

#[test]
fn random_refuses_a_board_the_memory_limit_cannot_hold() {
    // 4 * 10^9 queens need about 19 GiB: refused at once, before any allocation.
    bad_input(
        &[
            "4000000000",
            "--random",
            "--seed",
            "1",
            "--max-memory",
            "1G",
        ],
        "--max-memory",
    );
    // Within the limit, the same flag lets the search run.
    let assert = find(&["2000", "--random", "--seed", "1", "--max-memory", "100M"]);
    solution(assert, 2000);
}

/// Every placement `find` wrote in `format`, read back by the library's reader.
fn read_back(args: &[&str]) -> Vec<Placement> {
    let out = find(args).success().get_output().stdout.clone();
    Reader::new(&out[..]).map(Result::unwrap).collect()
}

#[test]
fn every_format_reads_back_as_the_same_solution() {
    for format in ["perm", "json", "board", "svg"] {
        for n in [1, 8, 9, 26] {
            let s = n.to_string();
            let constructed = read_back(&[&s, "--format", format]);
            assert_eq!(constructed, [large::construct(n).unwrap()], "{format} {n}");
            let random = read_back(&[&s, "--random", "--seed", "3", "--format", format]);
            assert_eq!(
                random,
                [large::min_conflicts(n, 3).unwrap()],
                "{format} {n}"
            );
            let first = read_back(&[&s, "--first", "--format", format]);
            assert_eq!(
                first,
                [large::first(n, None).unwrap().unwrap()],
                "{format} {n}"
            );
        }
    }
}

#[test]
fn large_json_streams_and_reads_back() {
    let placements = read_back(&["300000", "--format", "json"]);
    assert_eq!(placements, [large::construct(300_000).unwrap()]);
}

#[test]
fn output_piped_into_verify_is_accepted() {
    for args in [
        &["200000"][..],
        &["200000", "--random", "--seed", "1"],
        &["30", "--format", "board"],
    ] {
        let out = find(args).success().get_output().stdout.clone();
        Command::cargo_bin("nqueens")
            .unwrap()
            .args(["verify", "-"])
            .write_stdin(out)
            .assert()
            .success()
            .stdout(predicate::str::starts_with("ok "));
    }
}

#[test]
fn a_reader_that_stops_early_ends_find_quietly() {
    use assert_cmd::cargo::CommandCargoExt;
    use std::io::Read;
    use std::process::Stdio;

    let mut child = std::process::Command::cargo_bin("nqueens")
        .unwrap()
        .args(["find", "100000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 8];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // The pipe is closed here, long before 900 MB are written.
    let output = child.wait_with_output().unwrap();
    assert_eq!(&head, b"2 4 6 8 ");
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}
