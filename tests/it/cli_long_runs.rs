//! What a hostile new user found in `count`, `bench` and their result files, end to end:
//! result files through links, bad paths checked before any work, ranges checked as a whole,
//! threads capped, one rule for closed pipes.
use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

#[cfg(unix)]
#[test]
fn out_through_a_link_writes_the_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("result.json");
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    // A stale temporary file of the old fixed name must survive too.
    let stale = dir.path().join("link.json.tmp");
    std::fs::write(&stale, "mine").unwrap();
    nqueens()
        .args(["count", "10", "--out"])
        .arg(&link)
        .assert()
        .success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.contains("\"total\": 724"), "{text}");
    assert_eq!(std::fs::read_to_string(&stale).unwrap(), "mine");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 3, "no temporary file is left behind");
}

#[cfg(unix)]
#[test]
fn out_refuses_what_is_not_a_regular_file() {
    nqueens()
        .args(["count", "12", "--out", "/dev/null"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a regular file"));
}

#[test]
fn a_bad_result_path_is_refused_before_counting() {
    for args in [
        &[
            "count",
            "30",
            "--long",
            "--shard",
            "1/1000",
            "--out",
            "/no/such/dir/s.json",
        ][..],
        &["bench", "4..=30", "--json", "/no/such/dir/b.json"][..],
        &["bench", "4..=30", "--csv", "/no/such/dir/b.csv"][..],
    ] {
        // Counting N = 30 would take days: an answer at all means it was refused first.
        nqueens()
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("/no/such/dir"));
    }
}

#[test]
fn checkpoint_and_out_must_differ() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("same");
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&f)
        .arg("--out")
        .arg(&f)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the same file"));
}

#[test]
fn a_range_is_checked_whole_before_the_first_count() {
    // The range is checked from its largest N, whose size is the first thing to hear of, not
    // the memory or the time of a smaller one.
    nqueens()
        .args(["count", "1..=100"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("from 1 to 32, not 100"));
    nqueens()
        .args(["count", "11..=13", "--algo", "permutations"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("13"));
}

#[test]
fn threads_beyond_the_cores_are_capped_with_a_note() {
    let (total, unique) = common::counts(12);
    nqueens()
        .args(["count", "12", "-j", "4096", "--no-time", "--format", "csv"])
        .assert()
        .success()
        .stdout(format!("n,total,unique,seconds\n12,{total},{unique},\n"))
        .stderr(predicate::str::contains("4096 threads asked for"));
}

#[test]
fn ranges_are_quoted_whole_in_errors() {
    for bad in ["-1", "4..="] {
        nqueens()
            .args(["count", "--", bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{bad:?} is not a board size"
            )));
    }
}

#[test]
fn bench_shows_a_repeated_algorithm_once() {
    let out = nqueens()
        .args(["bench", "4..=6", "--algos", "flags,flags,bitboard"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let header = text.lines().next().unwrap();
    assert_eq!(header.matches("flags").count(), 1, "{header}");
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    // `yes`-like output: far more than a pipe buffer, so the writer meets the closed pipe.
    for cmd in [
        "count 1..=14 --no-time --algo bitboard",
        "solve 10 --format perm",
        "verify -",
    ] {
        let script = format!(
            "seq 1 200000 | sed 's/.*/2 4 1 3/' | {} {cmd} | head -c 1 >/dev/null; echo ${{PIPESTATUS[2]}}",
            assert_cmd::cargo::cargo_bin("nqueens").display()
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &script])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("error"), "{cmd}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0", "{cmd}");
    }
}
