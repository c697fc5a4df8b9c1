//! `nqueens complete` end to end: every input form, every mode, every error path.

use crate::common;

use assert_cmd::Command;
use nqueens::Placement;
use nqueens::cp::Instance;
use predicates::prelude::*;

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/cp/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn complete() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Reads `perm` lines back as placements.
fn placements(stdout: &[u8]) -> Vec<Placement> {
    nqueens::format::read(std::str::from_utf8(stdout).unwrap())
        .into_iter()
        .map(Result::unwrap)
        .collect()
}

fn instance(name: &str) -> Instance {
    Instance::parse(&std::fs::read_to_string(fixture(name)).unwrap()).unwrap()
}

#[test]
fn each_input_form_gets_a_verified_completion() {
    for name in [
        "corner_list.txt",
        "two_given_list.txt",
        "drawing_spaced.txt",
        "drawing_compact.txt",
        "placement_perm.txt",
        "blocked_row_edges.txt",
    ] {
        let out = complete()
            .args(["complete", &fixture(name), "--format", "perm"])
            .assert()
            .success();
        let found = placements(&out.get_output().stdout);
        assert_eq!(found.len(), 1, "{name}");
        assert!(instance(name).admits(&found[0]), "{name}");
    }
}

#[test]
fn standard_input_is_read_by_default_and_as_dash() {
    for args in [vec!["complete"], vec!["complete", "-"]] {
        let out = complete()
            .args(&args)
            .args(["--format", "perm"])
            .write_stdin("6\nq 1 2\n")
            .assert()
            .success();
        let found = placements(&out.get_output().stdout);
        assert_eq!(found[0].cols()[0], 1);
        assert!(found[0].is_solution());
    }
}

#[test]
fn count_and_all_agree() {
    let file = fixture("two_given_list.txt");
    let counted = complete()
        .args(["complete", &file, "--count"])
        .assert()
        .success();
    let count: usize = String::from_utf8_lossy(&counted.get_output().stdout)
        .trim()
        .parse()
        .unwrap();
    assert!(count > 1);
    let listed = complete()
        .args(["complete", &file, "--all", "--format", "perm"])
        .assert()
        .success();
    let mut all = placements(&listed.get_output().stdout);
    assert_eq!(all.len(), count);
    let inst = instance("two_given_list.txt");
    assert!(all.iter().all(|p| inst.admits(p)));
    all.sort();
    all.dedup();
    assert_eq!(all.len(), count);
}

#[test]
fn count_of_an_empty_board_is_the_published_count() {
    let (total, _) = common::counts(10);
    complete()
        .args(["complete", "--count"])
        .write_stdin("10\n")
        .assert()
        .success()
        .stdout(format!("{total}\n"));
}

#[test]
fn stats_go_to_stderr() {
    complete()
        .args(["complete", &fixture("corner_list.txt"), "--stats", "--format", "perm"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nodes").not())
        .stderr(predicate::str::is_match(r"^nodes \d+, column branches \d+, failures \d+, propagations \d+, solutions 1, nogoods \d+, restarts \d+, probes \d+, time [\d.]+ ms\n$").unwrap());
}

#[test]
fn no_completion_says_so_and_exits_1() {
    for extra in [&[][..], &["--all"][..]] {
        complete()
            .args(["complete", &fixture("no_completion.txt")])
            .args(extra)
            .assert()
            .code(1)
            .stdout(
                predicate::str::is_match(
                    r"^no completion \(proved in \d+ nodes, \d+ failures, [\d.]+ ms\)\n$",
                )
                .unwrap(),
            )
            .stderr("");
    }
    complete()
        .args(["complete", &fixture("no_completion.txt"), "--count"])
        .assert()
        .success()
        .stdout("0\n");
}

#[test]
fn limits_give_up_with_exit_1() {
    complete()
        .args(["complete", "--count", "--node-limit", "100"])
        .write_stdin("14\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "error: gave up: the node limit",
        ));
    complete()
        .args(["complete", "--count", "--time-limit", "0.000001"])
        .write_stdin("14\n")
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(
            "error: gave up: the time limit",
        ));
}

#[test]
fn seeds_are_reproducible() {
    let run = |seed: &str| {
        complete()
            .args(["complete", "--format", "perm", "--seed", seed])
            .write_stdin("200\nq 1 1\nq 100 37\n")
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    assert_eq!(run("3"), run("3"));
}

#[test]
fn every_error_names_the_line_and_exits_2() {
    let cases = [
        (
            "8\nq 1 1\nq 3 3\n",
            "line 3: the queen at row 3, column 3 attacks the one at row 1, column 1 along a diagonal",
        ),
        (
            "8\nx 2 2\nq 2 2\n",
            "line 3: row 2, column 2 holds a queen and is blocked",
        ),
        (
            "8\nq 1 9\n",
            "line 2: row 1, column 9 is outside the 8x8 board",
        ),
        (
            "8\n# fine\nq 1\n",
            "line 3: expected `row col`, `q row col` or `x row col`",
        ),
        ("8\nq a b\n", "line 2: \"a\" is not a row or column number"),
        ("Q..\n...\n..?\n", "line 3: '?' is not a cell"),
        ("Q..\n....\n", "line 2: row 2 has 4 cells, expected 3"),
        ("0\n", "line 1: the board size must be from 1"),
        ("", "line 1: no instance"),
        // Clues that cannot be read are an error, never dropped in favour of the placement
        // beside them (a puzzle's solution), which used to be completed instead.
        (
            "{\"n\":8,\"givens\":[[1,\"4\"]],\"columns\":[1,5,8,6,3,7,2,4]}\n",
            "line 1: not an instance in JSON: invalid type: string \"4\"",
        ),
        (
            "{\"n\":8,\"givens\":[[1,4]],\"blocked\":[[2]]}\n",
            "line 1: not an instance in JSON: invalid length 1",
        ),
    ];
    for (input, message) in cases {
        complete()
            .arg("complete")
            .write_stdin(input)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(format!(
                "error: <stdin>: {message}"
            )))
            .stderr(predicate::str::contains('\n').count(1));
    }
}

#[test]
fn a_missing_file_and_bad_flags_exit_2() {
    complete()
        .args(["complete", "/no/such/instance.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot open /no/such/instance.txt",
        ));
    complete()
        .args(["complete", "--time-limit", "soon"])
        .assert()
        .code(2);
    complete()
        .args(["complete", "--count", "--all"])
        .assert()
        .code(2);
}

#[test]
fn every_output_format_reads_back_as_an_instance() {
    let file = fixture("corner_list.txt");
    let perm = complete()
        .args(["complete", &file, "--format", "perm"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    for format in ["board", "json", "svg"] {
        let written = complete()
            .args(["complete", &file, "--format", format])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        // Fed back, every queen is given: the only completion is the placement itself.
        complete()
            .args(["complete", "--format", "perm"])
            .write_stdin(written)
            .assert()
            .success()
            .stdout(String::from_utf8(perm.clone()).unwrap());
    }
}

#[test]
fn the_default_format_is_the_board() {
    complete()
        .arg("complete")
        .write_stdin("4\nq 1 2\n")
        .assert()
        .success()
        .stdout(". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n");
}

#[test]
fn no_restarts_gives_the_same_answers() {
    for (name, code) in [("corner_list.txt", 0), ("no_completion.txt", 1)] {
        complete()
            .args(["complete", &fixture(name), "--no-restarts", "--stats"])
            .assert()
            .code(code)
            .stderr(predicate::str::contains("restarts 0,"));
    }
}

#[test]
fn all_completions_as_svg_are_one_gallery_that_verify_reads_back() {
    // Every completion of the empty 6 board (its 4 solutions) as one SVG document, not one
    // document per completion (which browsers refuse as a file).
    let out = complete()
        .args(["complete", "--all", "--format", "svg"])
        .write_stdin("6\n")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    let roots = text.matches("xmlns=").count();
    assert_eq!(roots, 1, "one root document");
    assert_eq!(
        text.matches("<svg").count(),
        1 + 4,
        "the root and a board per completion"
    );
    complete()
        .arg("verify")
        .write_stdin(text)
        .assert()
        .success()
        .stderr(predicate::str::contains("4 placements, all solutions"));
}
