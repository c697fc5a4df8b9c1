//! `nqueens bench` end to end.

use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;

fn bench() -> Command {
    let mut cmd = Command::cargo_bin("nqueens").unwrap();
    cmd.arg("bench");
    cmd
}

/// The table `bench` prints for `args`, split into rows of cells (the header first).
fn table(args: &[&str]) -> Vec<Vec<String>> {
    let out = bench().args(args).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

#[test]
fn the_table_has_a_row_per_n_and_a_column_per_algorithm() {
    let rows = table(&["4..=8", "--algos", "backtracking,flags,symmetry"]);
    assert_eq!(
        rows[0],
        ["N", "total", "unique", "backtracking", "flags", "symmetry"]
    );
    assert_eq!(rows.len(), 6);
    for row in &rows[1..] {
        let n: usize = row[0].parse().unwrap();
        let (total, unique) = common::counts(n);
        assert_eq!(row[1], total.to_string(), "n={n}");
        assert_eq!(row[2], unique.to_string(), "n={n}");
        assert!(
            row[3..]
                .iter()
                .all(|cell| cell.ends_with('s') && !cell.contains('!'))
        );
    }
}

#[test]
fn json_and_csv_hold_every_cell() {
    let dir = tempfile::tempdir().unwrap();
    let (json, csv) = (dir.path().join("b.json"), dir.path().join("b.csv"));
    bench()
        .args(["--range", "5..=7", "--algos", "bitboard,mirror"])
        .arg("--json")
        .arg(&json)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success();
    // JSON Lines, as `count --format json` writes: one object per cell.
    let cells: Vec<serde_json::Value> = std::fs::read_to_string(&json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cells.len(), 6);
    for cell in &cells {
        let n = cell["n"].as_u64().unwrap() as usize;
        assert_eq!(
            u128::from(cell["total"].as_u64().unwrap()),
            common::counts(n).0
        );
        assert!(cell["seconds"].as_f64().unwrap() >= 0.0);
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "n,algo,seconds,total,unique");
    assert_eq!(lines.len(), 7);
    assert!(lines[1].starts_with("5,bitboard,") && lines[1].ends_with(",10,"));
}

#[test]
fn an_algorithm_over_budget_sits_out_the_bigger_boards() {
    let rows = table(&[
        "8..=10",
        "--algos",
        "permutations,bitboard",
        "--budget",
        "0.000001",
    ]);
    // Every cell takes longer than a microsecond, so only N = 8 is measured.
    assert_ne!(rows[1][3], "-");
    assert_eq!(rows[2][3..], ["-", "-"]);
    assert_eq!(rows[3][1], "-");
}

#[test]
fn sizes_beyond_a_limit_are_skipped_with_a_note() {
    bench()
        .args(["1..=13", "--algos", "permutations", "--budget", "0.000001"])
        .assert()
        .success()
        .stderr(predicate::str::contains("permutations stops at N = 12"))
        .stdout(predicate::function(|s: &str| s.lines().count() == 13));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 6] = [
        (&["0..=3"], "at least 1"),
        (&["x"], "not a board size"),
        (&["--algos", "bitboard,warp"], "unknown algorithm \"warp\""),
        (&["--budget", "0"], "--budget"),
        (&["9..=4"], "empty range"),
        (
            &["29..=1000000000000"],
            "beyond the limit of every chosen algorithm",
        ),
    ];
    for (args, message) in cases {
        bench().args(args).assert().code(2).stderr(
            predicate::str::starts_with("error: ")
                .and(predicate::str::contains(message))
                .and(predicate::function(|s: &str| s.lines().count() == 1)),
        );
    }
}
