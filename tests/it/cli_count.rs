//! `nqueens count` end to end.
use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// The standard output of a successful `nqueens ARGS`.
fn stdout_of(args: &[&str]) -> String {
    let out = nqueens()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn csv_lists_published_counts() {
    let text = stdout_of(&["count", "1..=12", "--format", "csv", "--no-time"]);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("n,total,unique,seconds"));
    for n in 1..=12 {
        let (t, u) = common::counts(n);
        assert_eq!(lines.next(), Some(format!("{n},{t},{u},").as_str()));
    }
    assert_eq!(lines.next(), None);
}

#[test]
fn csv_has_seconds_unless_no_time() {
    nqueens()
        .args(["count", "8", "--format", "csv"])
        .assert()
        .success()
        .stdout(
            predicate::str::is_match(r"^n,total,unique,seconds\n8,92,12,\d+\.\d{3}\n$").unwrap(),
        );
}

#[test]
fn table_has_the_reference_layout() {
    let (t, u) = common::counts(11);
    nqueens()
        .args(["count", "10..=11"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(" N:"))
        .stdout(predicate::str::contains("hh:mm:ss.ms"))
        .stdout(
            predicate::str::is_match(format!(r"(?m)^11:\s+{t}\s+{u}\s+\d+:\d\d:\d\d\.\d\d\d$"))
                .unwrap(),
        );
}

#[test]
fn json_is_one_object_per_n() {
    let text = stdout_of(&["count", "6..=9", "--format", "json", "--threads", "1"]);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    for (row, n) in rows.iter().zip(6..) {
        let (t, u) = common::counts(n);
        assert_eq!(row["n"], n);
        assert_eq!(row["total"].as_u64().unwrap() as u128, t);
        assert_eq!(row["unique"].as_u64().unwrap() as u128, u);
        assert!(row["seconds"].is_f64());
        assert_eq!(row["by"], "engine/backtrack");
    }
}

#[test]
fn thread_counts_give_the_same_output() {
    let run = |threads: &str| stdout_of(&["count", "13", "--no-time", "--threads", threads]);
    assert_eq!(run("1"), run("2"));
}

#[test]
fn beyond_32_says_why_and_exits_2() {
    nqueens()
        .args(["count", "33"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::is_match(r"^error: .*32.*\n$").unwrap());
}

#[test]
fn zero_is_refused() {
    nqueens().args(["count", "0"]).assert().code(2);
}

#[test]
fn bad_sizes_and_flags_exit_2() {
    nqueens().args(["count", "x"]).assert().code(2);
    nqueens()
        .args(["count", "8", "--threads", "0"])
        .assert()
        .code(2);
    nqueens()
        .args(["count", "8", "--max-memory", "12Q"])
        .assert()
        .code(2);
    nqueens()
        .args(["count", "8", "--shard", "3/2", "--out", "x.json"])
        .assert()
        .code(2);
    nqueens()
        .args(["count", "8", "--shard", "1/2"])
        .assert()
        .code(2);
}

#[test]
fn memory_limit_refuses_before_counting() {
    nqueens()
        .args(["count", "30", "--long", "--max-memory", "16"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--max-memory"));
}

#[test]
fn help_says_what_memory_the_join_needs() {
    let help = stdout_of(&["count", "--help"]);
    // The figures are the estimate the limit is checked against, in MiB.
    for n in [18, 20, 24] {
        let mib = nqueens::engine::strategy::join::memory_estimate(n, 1)
            .unwrap()
            .div_ceil(1 << 20);
        assert!(help.contains(&format!("N = {n}: {mib} MiB")), "{help}");
    }
}

#[test]
fn join_refuses_a_board_the_memory_limit_cannot_hold() {
    // N = 20 needs over 100 MiB by the estimate: refused at once, before any counting.
    nqueens()
        .args(["count", "20", "--strategy", "join", "--max-memory", "100M"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("join engine").and(predicate::str::contains("--max-memory")),
        );
}

#[test]
fn long_run_flags_take_a_single_n() {
    nqueens()
        .args(["count", "4..=8", "--checkpoint", "c.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("single N"));
}

#[test]
fn piped_output_has_no_progress() {
    nqueens()
        .args(["count", "12", "--no-time"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn the_gpu_without_gpu_support_is_one_line_and_exit_2() {
    // Built with `--features cuda` on a machine with a GPU this count would run: the test is
    // for the builds and machines of the test suite, which have neither (tests/gpu.rs covers
    // the feature's own error path).
    if cfg!(feature = "cuda") {
        return;
    }
    let out = nqueens()
        .args(["count", "12", "--device", "gpu"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("without GPU support") && err.contains("--features cuda"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    // Both strategies count on the GPU: the join too is refused for want of GPU support.
    nqueens()
        .args(["count", "12", "--device", "gpu", "--strategy", "join"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("without GPU support"));
    // What the GPU cannot do is refused first, as bad input.
    nqueens()
        .args(["count", "26", "--device", "gpu", "--strategy", "backtrack"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the GPU counts N from 1 to 25, not 26",
        ));
}
