//! `nqueens merge`: shards add up to a single run, and every bad set of shards is refused.
use crate::common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use nqueens::engine::tasks::shard::ShardResult;
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Counts every shard of `n` split `k` ways into `dir`; returns the files.
fn shards(dir: &Path, n: usize, k: usize) -> Vec<PathBuf> {
    (1..=k)
        .map(|i| {
            let out = dir.join(format!("n{n}-{i}of{k}.json"));
            nqueens()
                .args([
                    "count",
                    &n.to_string(),
                    "--shard",
                    &format!("{i}/{k}"),
                    "--out",
                ])
                .arg(&out)
                .assert()
                .success()
                .stdout("");
            out
        })
        .collect()
}

fn merge(files: &[PathBuf]) -> assert_cmd::assert::Assert {
    nqueens()
        .arg("merge")
        .args(files)
        .args(["--format", "csv", "--no-time"])
        .assert()
}

fn read(path: &Path) -> ShardResult {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write(path: &Path, r: &ShardResult) {
    std::fs::write(path, serde_json::to_string(r).unwrap()).unwrap();
}

#[test]
fn merged_shards_equal_a_single_run() {
    let dir = tempfile::tempdir().unwrap();
    for (n, k) in [(8, 1), (8, 3), (11, 2), (12, 7), (13, 5)] {
        let (t, u) = common::counts(n);
        merge(&shards(dir.path(), n, k))
            .success()
            .stdout(format!("n,total,unique,seconds\n{n},{t},{u},\n"));
    }
}

#[test]
fn shard_files_describe_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 10, 4);
    let r = read(&files[2]);
    assert_eq!(
        (r.n, r.shard, r.shards, r.format.as_str()),
        (10, 3, 4, "nqueens-shard")
    );
    assert_eq!(r.checksum, r.expected_checksum());
    assert!(!r.hostname.is_empty());
    assert_eq!(r.tasks_counted, (2..r.tasks).step_by(4).count());
}

#[test]
fn missing_shards_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 9, 5);
    merge(&[files[0].clone(), files[2].clone(), files[4].clone()])
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("2 of 5 shards missing: 2,4 "));
}

#[test]
fn a_duplicated_shard_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 9, 2);
    let copy = dir.path().join("copy.json");
    std::fs::copy(&files[1], &copy).unwrap();
    merge(&[files[0].clone(), files[1].clone(), copy])
        .code(2)
        .stderr(predicate::str::contains("shard 2/2 given twice"));
}

#[test]
fn overlapping_splits_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = shards(dir.path(), 9, 2);
    files.extend(shards(dir.path(), 9, 3));
    merge(&files)
        .code(2)
        .stderr(predicate::str::contains("overlap"));
}

#[test]
fn a_corrupted_shard_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 10, 2);
    let mut r = read(&files[0]);
    r.total += 1;
    write(&files[0], &r);
    merge(&files)
        .code(2)
        .stderr(predicate::str::contains("corrupted"));
}

#[test]
fn a_truncated_or_foreign_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 10, 2);
    let text = std::fs::read_to_string(&files[1]).unwrap();
    std::fs::write(&files[1], &text[..text.len() / 2]).unwrap();
    merge(&files)
        .code(2)
        .stderr(predicate::str::contains(": not a shard result"));
    merge(&[files[0].clone(), dir.path().join("nowhere.json")])
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn shards_of_different_counts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = shards(dir.path(), 9, 2);
    let b = shards(dir.path(), 10, 2);
    merge(&[a[0].clone(), b[1].clone()])
        .code(2)
        .stderr(predicate::str::contains("N=10 vs N=9"));
    // A shard from another version of the task list, with a valid checksum of its own.
    let mut r = read(&a[1]);
    r.task_list_version += 1;
    r.checksum = r.expected_checksum();
    write(&a[1], &r);
    merge(&a)
        .code(2)
        .stderr(predicate::str::contains("task list version"));
}

#[test]
fn a_shard_claiming_the_wrong_task_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 9, 2);
    let mut r = read(&files[0]);
    r.tasks_counted -= 1;
    r.checksum = r.expected_checksum();
    write(&files[0], &r);
    merge(&files)
        .code(2)
        .stderr(predicate::str::contains("counted"));
}

#[test]
fn merge_prints_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 8, 2);
    nqueens()
        .arg("merge")
        .args(&files)
        .args(["--format", "json", "--no-time"])
        .assert()
        .success()
        .stdout(
            "{\"by\":\"engine/backtrack\",\"n\":8,\"seconds\":null,\"total\":92,\"unique\":12}\n",
        );
    nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"(?m)^ 8:\s+92\s+12\s+\d+:\d\d:\d\d\.\d{3}$").unwrap());
}
