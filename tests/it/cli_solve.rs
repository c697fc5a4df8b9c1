//! `nqueens solve` end to end.

use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = nqueens().args(args).assert().success().get_output().clone();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn perm_lines_are_every_solution_once() {
    for n in 1..=9 {
        let text = stdout_of(&["solve", &n.to_string(), "--format", "perm"]);
        let lines: std::collections::BTreeSet<&str> = text.lines().collect();
        assert_eq!(lines.len() as u128, common::counts(n).0, "n={n}");
        assert_eq!(text.lines().count(), lines.len(), "n={n}: no repeats");
        for line in lines {
            let cols: Vec<u32> = line.split(' ').map(|t| t.parse().unwrap()).collect();
            assert!(
                nqueens::Placement::from_one_based(&cols)
                    .unwrap()
                    .is_solution()
            );
        }
    }
}

#[test]
fn count_goes_to_stderr() {
    nqueens()
        .args(["solve", "6", "--format", "perm"])
        .assert()
        .success()
        .stderr("4 solutions\n");
    nqueens()
        .args(["solve", "8", "--unique", "--format", "perm"])
        .assert()
        .success()
        .stdout(predicate::function(|s: &str| s.lines().count() == 12))
        .stderr("12 unique solutions\n");
}

#[test]
fn default_format_is_a_board_for_small_n_and_perm_lines_above_16() {
    let boards = stdout_of(&["solve", "4"]);
    assert_eq!(
        boards,
        ". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n\n"
    );
    let big = stdout_of(&["solve", "17", "--limit", "1"]);
    assert_eq!(big.lines().count(), 1);
    assert_eq!(big.split_whitespace().count(), 17);
}

#[test]
fn limit_answers_at_once_for_big_boards() {
    nqueens()
        .args(["solve", "30", "--limit", "5"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .success()
        .stdout(predicate::function(|s: &str| s.lines().count() == 5))
        .stderr("5 solutions (stopped at --limit 5)\n");
    nqueens()
        .args(["solve", "4", "--limit", "2"])
        .assert()
        .success()
        .stderr("2 solutions\n");
}

#[test]
fn every_format_round_trips_through_verify() {
    for format in ["board", "perm", "json", "svg"] {
        let text = stdout_of(&["solve", "7", "--format", format]);
        nqueens()
            .arg("verify")
            .write_stdin(text)
            .assert()
            .success()
            .stdout(predicate::function(|s: &str| {
                s.lines().count() == 40 && s.lines().all(|l| l.starts_with("ok 7: "))
            }));
    }
}

#[test]
fn every_algorithm_lists_the_same_unique_set() {
    let sorted = |s: String| {
        let mut lines: Vec<String> = s.lines().map(String::from).collect();
        lines.sort();
        lines
    };
    let want = sorted(stdout_of(&["solve", "8", "--unique", "--format", "perm"]));
    assert_eq!(want.len(), 12);
    for algo in nqueens::algo::Algo::ALL {
        let got = stdout_of(&[
            "solve",
            "8",
            "--unique",
            "--format",
            "perm",
            "--algo",
            algo.name(),
        ]);
        assert_eq!(sorted(got), want, "{algo}");
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["solve", "0"], "not 0"),
        (&["solve", "65"], "64-bit"),
        (
            &["solve", "8", "--algo", "quantum"],
            "unknown algorithm \"quantum\"",
        ),
        (&["solve", "13", "--algo", "permutations"], "13!"),
        (
            &["solve", "29", "--algo", "bitboard"],
            "without --algo, solve lists N up to 64",
        ),
    ];
    for (args, message) in cases {
        nqueens()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with("error: ").and(predicate::str::contains(message)))
            .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    }
}

#[test]
fn svg_is_one_gallery_document_that_verify_reads_back() {
    let text = stdout_of(&["solve", "8", "--format", "svg"]);
    // One root element: quick-xml walks it to the end with every element closed in order.
    let mut reader = quick_xml::Reader::from_str(&text);
    reader.config_mut().check_end_names = true;
    let (mut depth, mut roots, mut boards) = (0, 0, 0);
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Start(e) => {
                if depth == 0 {
                    roots += 1;
                }
                if e.name().as_ref() == b"svg" && depth == 1 {
                    boards += 1;
                }
                depth += 1;
            }
            quick_xml::events::Event::End(_) => depth -= 1,
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!((roots, boards, depth), (1, 92, 0));
    nqueens()
        .arg("verify")
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicate::function(|s: &str| {
            s.lines().count() == 92 && s.lines().all(|l| l.starts_with("ok 8: "))
        }));
    // A limit draws the first K; a gallery too big for one file is refused.
    let three = stdout_of(&["solve", "8", "--format", "svg", "--limit", "3"]);
    assert_eq!(three.matches("<svg").count(), 4);
    nqueens()
        .args(["solve", "13", "--format", "svg"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit K"));
}
