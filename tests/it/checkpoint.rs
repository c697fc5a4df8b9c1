//! Checkpoints: killed runs resume to the exact count; damaged files are never trusted.
use crate::common;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use assert_cmd::Command;
use assert_cmd::cargo::CommandCargoExt;
use predicates::prelude::*;
use rand::{Rng, SeedableRng};

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// `nqueens count N --format csv --no-time --checkpoint PATH`, ready for more arguments.
fn count_with_checkpoint(n: usize, path: &Path) -> Command {
    let mut cmd = nqueens();
    cmd.args([
        "count",
        &n.to_string(),
        "--format",
        "csv",
        "--no-time",
        "--checkpoint",
    ])
    .arg(path);
    cmd
}

/// Counts `n` with the checkpoint at `path` to the end; returns the CSV line.
fn finish(n: usize, path: &Path, extra: &[&str]) -> String {
    let out = count_with_checkpoint(n, path)
        .args(extra)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string()
}

fn expected(n: usize) -> String {
    let (t, u) = common::counts(n);
    format!("{n},{t},{u},")
}

fn records(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .count()
        .saturating_sub(1)
}

/// Kills `nqueens count n --strategy strategy --checkpoint` ten times, then lets it finish,
/// and checks the count.
///
/// The kills are driven by progress, not by the clock: each run is killed once the checkpoint
/// holds a random number of further records, so a machine fast enough to finish the whole
/// count between two clock-driven kills still gets killed mid-run. The first run is killed at
/// a random moment of its first 20 ms instead, usually before any task is done.
fn kill_and_resume(n: usize, strategy: &str, seed: u64) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ck");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let strategy_enum =
        <nqueens::engine::Strategy as clap::ValueEnum>::from_str(strategy, true).unwrap();
    let tasks = nqueens::engine::strategy::task_list(n, strategy_enum)
        .unwrap()
        .len();
    let mut progress = Vec::new();
    for round in 0..10 {
        let before = if path.exists() { records(&path) } else { 0 };
        let target = before + rng.gen_range(1..=(tasks / 12).max(1));
        let mut child = std::process::Command::cargo_bin("nqueens")
            .unwrap()
            .args(["count", &n.to_string(), "--strategy", strategy])
            .args(["--no-time", "--checkpoint"])
            .arg(&path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        if round == 0 {
            std::thread::sleep(Duration::from_millis(rng.gen_range(1..20)));
        } else {
            // Polls until the run has saved `target` records or ended on its own.
            while child.try_wait().unwrap().is_none()
                && !(path.exists() && records(&path) >= target)
            {
                std::thread::sleep(Duration::from_micros(500));
            }
        }
        // SIGKILL: no chance to clean up, as in a crash.
        child.kill().ok();
        child.wait().unwrap();
        if path.exists() {
            progress.push(records(&path));
        }
    }
    assert!(
        progress.iter().any(|&r| r > 0 && r < tasks),
        "some kill came in the middle of the {strategy} run: {progress:?} of {tasks}"
    );
    assert_eq!(
        finish(n, &path, &["--strategy", strategy]),
        expected(n),
        "{strategy}"
    );
}

#[test]
fn killed_at_random_moments_then_resumed_gives_the_exact_count() {
    kill_and_resume(15, "backtrack", 7);
}

#[test]
fn killed_join_runs_resume_too() {
    kill_and_resume(16, "join", 11);
}

#[test]
fn a_finished_checkpoint_answers_without_counting_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ck");
    assert_eq!(finish(12, &path, &[]), expected(12));
    let tasks =
        nqueens::engine::strategy::task_list(12, nqueens::engine::strategy::fastest_strategy(12))
            .unwrap()
            .len();
    count_with_checkpoint(12, &path)
        .assert()
        .success()
        .stdout(predicate::str::contains(expected(12)))
        .stderr(predicate::str::contains(format!(
            "{tasks} of {tasks} tasks already counted"
        )));
}

#[test]
fn a_torn_last_record_is_dropped_and_recounted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ck");
    finish(11, &path, &[]);
    let text = std::fs::read_to_string(&path).unwrap();
    // Cut the file in the middle of its last line, as a crash during a write would.
    std::fs::write(&path, &text[..text.len() - 5]).unwrap();
    count_with_checkpoint(11, &path)
        .assert()
        .success()
        .stdout(predicate::str::contains(expected(11)))
        .stderr(predicate::str::contains("torn"));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count(),
        text.lines().count()
    );
}

#[test]
fn a_damaged_record_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ck");
    finish(10, &path, &[]);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Change one count digit of a middle record, keeping its old checksum.
    let line = &mut lines[5];
    let space = line.find(' ').unwrap();
    let digit = line.as_bytes()[space + 1];
    let changed = if digit == b'9' {
        '1'
    } else {
        (digit + 1) as char
    };
    line.replace_range(space + 1..space + 2, &changed.to_string());
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&path)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("corrupted at line 6"));
}

#[test]
fn a_checkpoint_of_another_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ck");
    finish(9, &path, &[]);
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("belongs to another count"));
    let out = dir.path().join("s.json");
    nqueens()
        .args(["count", "9", "--shard", "1/2", "--out"])
        .arg(&out)
        .arg("--checkpoint")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("shard=1/2"));
}

#[test]
fn a_file_that_is_not_a_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "shopping list\nmilk\n").unwrap();
    nqueens()
        .args(["count", "8", "--checkpoint"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("corrupted at line 1"));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "shopping list\nmilk\n"
    );
}

#[test]
fn shards_resume_from_their_own_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 1..=3 {
        let ck = dir.path().join(format!("s{i}.ck"));
        let out = dir.path().join(format!("s{i}.json"));
        for _ in 0..2 {
            nqueens()
                .args(["count", "12", "--shard", &format!("{i}/3"), "--out"])
                .arg(&out)
                .arg("--checkpoint")
                .arg(&ck)
                .assert()
                .success();
        }
        files.push(out);
    }
    nqueens()
        .arg("merge")
        .args(&files)
        .args(["--format", "csv", "--no-time"])
        .assert()
        .success()
        .stdout(format!("n,total,unique,seconds\n{}\n", expected(12)));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_and_says_how_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ck");
    let child = std::process::Command::cargo_bin("nqueens")
        .unwrap()
        .args(["count", "17", "--threads", "1", "--checkpoint"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the run has started recording, then interrupt it as Ctrl-C would.
    for _ in 0..200 {
        if path.exists() && records(&path) > 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("interrupted"), "{err}");
    assert!(
        err.contains("run the same command again to resume"),
        "{err}"
    );
    let n = records(&path);
    assert!(err.contains(&format!("{n} of ")), "{err} ({n} records)");
}
