//! `nqueens verify` end to end: results, exit codes, malformed input, big streamed input.

use std::io::Write;

use assert_cmd::Command;
use nqueens::Placement;
use predicates::prelude::*;

fn verify() -> Command {
    let mut cmd = Command::cargo_bin("nqueens").unwrap();
    cmd.arg("verify");
    cmd
}

fn one_error_line(message: &'static str) -> impl Predicate<str> {
    predicate::str::starts_with("error: ")
        .and(predicate::str::contains(message))
        .and(predicate::function(|s: &str| s.lines().count() == 1))
}

#[test]
fn solutions_are_ok() {
    verify()
        .write_stdin("1 5 8 6 3 7 2 4\n2 4 1 3\n")
        .assert()
        .success()
        .stdout("ok 8: 1 5 8 6 3 7 2 4\nok 4: 2 4 1 3\n")
        .stderr("2 placements, all solutions\n");
}

#[test]
fn an_attack_names_both_queens_and_exits_1() {
    verify()
        .write_stdin("2 4 1 3\n1 3 5 2 4\n1 5 3 6 2 4\n")
        .assert()
        .code(1)
        .stdout(
            "ok 4: 2 4 1 3\nok 5: 1 3 5 2 4\ninvalid 6: queens at (row 1, col 1) and \
             (row 3, col 3) attack along a diagonal\n",
        )
        .stderr(one_error_line("1 of 3 placements is not a solution"));
    verify().write_stdin("2 1\n").assert().code(1).stdout(
        "invalid 2: queens at (row 1, col 2) and (row 2, col 1) attack along an anti-diagonal\n",
    );
    verify()
        .write_stdin("1 1\n")
        .assert()
        .code(1)
        .stdout("invalid 2: queens at (row 1, col 1) and (row 2, col 1) attack along a column\n");
    verify()
        .write_stdin("2 4 1 5\n")
        .assert()
        .code(1)
        .stdout("invalid 4: row 4: column 5 is outside a 4x4 board\n");
}

#[test]
fn formats_are_detected_per_record() {
    let mixed =
        "2 4 1 3\n\n. Q . .\n. . . Q\nQ . . .\n. . Q .\n\n{\"n\":4,\"columns\":[3,1,4,2]}\n";
    verify()
        .write_stdin(mixed)
        .assert()
        .success()
        .stdout("ok 4: 2 4 1 3\nok 4: 2 4 1 3\nok 4: 3 1 4 2\n");
}

#[test]
fn malformed_input_is_one_line_and_exit_2() {
    let cases = [
        ("1 2 x\n", "line 1: unexpected character 'x'"),
        ("2 4 1 3\n\n0 1\n", "line 3: column 0"),
        ("Q .\n. .\n", "row 2 has no queen"),
        ("Q . .\n. Q .\n", "3 squares"),
        ("{\"n\":3,\"columns\":[1,2]}\n", "\"n\" is 3"),
        ("<svg viewBox=\"0 0 2 2\">\n", "</svg>"),
        ("hello\n", "cannot tell the format"),
        (
            "1 99999999999999999999999\n",
            "a column number is too large",
        ),
        ("", "no placement in the input"),
        ("\n \n", "no placement in the input"),
    ];
    for (input, message) in cases {
        verify()
            .write_stdin(input)
            .assert()
            .code(2)
            .stderr(one_error_line(message));
    }
}

#[test]
fn unreadable_files_exit_2() {
    verify()
        .arg("/no/such/file")
        .assert()
        .code(2)
        .stderr(one_error_line("cannot open /no/such/file"));
    let dir = tempfile::tempdir().unwrap();
    verify()
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(one_error_line("cannot read the input"));
}

/// A solution for any `n` with `n % 6` not 2 or 3: the even columns, then the odd ones.
fn evens_then_odds(n: u32) -> Vec<u32> {
    (1..=n / 2)
        .map(|i| 2 * i)
        .chain((0..n.div_ceil(2)).map(|i| 2 * i + 1))
        .collect()
}

fn perm_line(cols: &[u32]) -> String {
    let words: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
    words.join(" ") + "\n"
}

#[test]
fn a_million_queens_from_a_file_and_from_stdin() {
    let n = 1_000_000;
    let cols = evens_then_odds(n);
    let line = perm_line(&cols);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(line.as_bytes()).unwrap();
    let want = "ok 1000000: 2 4 6 8 10 12 14 16 ... 999995 999997 999999\n";
    verify().arg(file.path()).assert().success().stdout(want);
    verify()
        .arg("-")
        .write_stdin(line.clone())
        .assert()
        .success()
        .stdout(want);

    // Swap two neighbours near the end: a diagonal attack the bitsets must catch and name.
    let mut bad = cols.clone();
    bad.swap(999_990, 999_991);
    let line = perm_line(&bad);
    let defect = Placement::from_one_based(&bad)
        .unwrap()
        .verify()
        .unwrap_err();
    assert!(defect.to_string().contains("(row 999992, col"));
    verify()
        .write_stdin(line)
        .assert()
        .code(1)
        .stdout(format!("invalid 1000000: {defect}\n"));
}
