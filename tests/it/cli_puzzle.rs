//! `nqueens puzzle` end to end: every format reads back into `complete` (one completion) and
//! `verify`, the same seed gives the same bytes on any number of threads, bad input exits 2.

use assert_cmd::Command;
use nqueens::cp::Instance;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = nqueens().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// The board output split into one text per puzzle (each ends with a blank line).
fn boards(text: &str) -> Vec<String> {
    text.split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|b| format!("{b}\n"))
        .collect()
}

#[test]
fn complete_counts_one_completion_for_every_puzzle_in_every_format() {
    for n in ["6", "10", "24"] {
        for extra in [
            &[][..],
            &["--blocked"],
            &["--minimal"],
            &["--blocked", "--minimal"],
        ] {
            let mut args = vec!["puzzle", n, "--count", "3", "--seed", "4"];
            args.extend_from_slice(extra);
            let board = stdout(&[&args[..], &["--format", "board"]].concat());
            let json = stdout(&[&args[..], &["--format", "json"]].concat());
            let puzzles: Vec<String> = boards(&board)
                .into_iter()
                .chain(json.lines().map(|l| format!("{l}\n")))
                .collect();
            assert_eq!(puzzles.len(), 6, "{args:?}");
            for puzzle in puzzles {
                nqueens()
                    .args(["complete", "--count"])
                    .write_stdin(puzzle.clone())
                    .assert()
                    .success()
                    .stdout("1\n");
                // The board's drawing and the JSON object give the same clues.
                assert_eq!(Instance::parse(&puzzle).unwrap().n().to_string(), n);
            }
            let json_clues: Vec<Instance> =
                json.lines().map(|l| Instance::parse(l).unwrap()).collect();
            let board_clues: Vec<Instance> = boards(&board)
                .iter()
                .map(|b| Instance::parse(b).unwrap())
                .collect();
            assert_eq!(json_clues, board_clues, "{args:?}");
        }
    }
}

#[test]
fn the_completion_found_is_the_solution_given() {
    let json = stdout(&[
        "puzzle", "12", "--count", "5", "--seed", "8", "--format", "json",
    ]);
    for line in json.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let found = nqueens()
            .args(["complete", "--format", "perm"])
            .write_stdin(line)
            .assert()
            .success();
        let perm: Vec<u64> = String::from_utf8_lossy(&found.get_output().stdout)
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let columns: Vec<u64> = record["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        assert_eq!(perm, columns);
        let givens = record["givens"].as_array().unwrap().len() as u64;
        assert_eq!(record["number_of_givens"].as_u64(), Some(givens));
    }
}

#[test]
fn verify_checks_the_solutions_of_puzzles_in_every_format() {
    for format in ["board", "json"] {
        let text = stdout(&[
            "puzzle",
            "16",
            "--count",
            "4",
            "--seed",
            "2",
            "--blocked",
            "--format",
            format,
        ]);
        nqueens()
            .arg("verify")
            .write_stdin(text.clone())
            .assert()
            .success()
            .stderr("4 placements, all solutions\n");
        if format == "board" {
            // A solution that leaves a given queen out is refused, naming the square.
            let first = text.lines().find(|l| l.starts_with("# solution:")).unwrap();
            let cols: Vec<usize> = first[11..]
                .split_whitespace()
                .map(|c| c.parse().unwrap())
                .collect();
            let shifted: Vec<String> = cols.iter().map(|c| (c % 16 + 1).to_string()).collect();
            let forged = text.replacen(first, &format!("# solution: {}", shifted.join(" ")), 1);
            nqueens()
                .arg("verify")
                .write_stdin(forged)
                .assert()
                .code(2)
                .stderr(predicates::str::contains(
                    "the solution leaves out the given queen",
                ));
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_on_any_number_of_threads() {
    for format in ["board", "json"] {
        let args = [
            "puzzle",
            "20",
            "--count",
            "12",
            "--seed",
            "11",
            "--minimal",
            "--format",
            format,
        ];
        let one = stdout(&[&args[..], &["-j", "1"]].concat());
        assert_eq!(one, stdout(&[&args[..], &["-j", "2"]].concat()));
        assert_eq!(one, stdout(&[&args[..], &["-j", "3"]].concat()));
        assert_ne!(
            one,
            stdout(&[
                "puzzle",
                "20",
                "--count",
                "12",
                "--seed",
                "12",
                "--minimal",
                "--format",
                format
            ])
        );
    }
}

#[test]
fn a_seed_is_drawn_and_told_when_none_is_given() {
    let out = nqueens().args(["puzzle", "8"]).assert().success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let seed = err.trim().strip_prefix("seed: ").unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        stdout(&["puzzle", "8", "--seed", seed])
    );
}

#[test]
fn each_difficulty_is_selected() {
    for difficulty in ["easy", "medium", "hard"] {
        let json = stdout(&[
            "puzzle",
            "10",
            "--count",
            "4",
            "--seed",
            "3",
            "--difficulty",
            difficulty,
            "--format",
            "json",
        ]);
        for line in json.lines() {
            assert!(
                line.contains(&format!("\"difficulty\":\"{difficulty}\"")),
                "{line}"
            );
        }
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        &["puzzle", "3"][..],
        &["puzzle", "65"],
        &["puzzle", "0"],
        &["puzzle", "-4"],
        &["puzzle", "99999999999999999999999"],
        &["puzzle", "8", "--count", "0"],
        &["puzzle", "8", "--difficulty", "tricky"],
        &["puzzle", "8", "--format", "svg"],
        &["puzzle", "8", "-j", "0"],
    ] {
        let out = nqueens().args(args).assert().code(2).stdout("");
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}

#[test]
fn no_puzzle_of_an_impossible_difficulty_is_exit_1() {
    nqueens()
        .args(["puzzle", "4", "--difficulty", "hard", "--seed", "1"])
        .assert()
        .code(1)
        .stderr("error: no hard puzzle for N=4 in 1000 tries\n");
}

#[test]
fn help_shows_examples_and_exit_codes() {
    let help = stdout(&["puzzle", "--help"]);
    assert!(help.contains("Examples:\n  nqueens puzzle "), "{help}");
    assert!(help.contains("Exit status: 0 "), "{help}");
    assert!(stdout(&["--help"]).contains("puzzle"));
}
