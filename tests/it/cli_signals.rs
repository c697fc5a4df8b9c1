//! Ctrl-C and SIGTERM stop a count within two seconds, even inside one long task, and a count
//! resumed from its checkpoint after the stop is exact.
#![cfg(unix)]
use crate::common;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn start(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {name}");
}

#[test]
fn sigint_stops_a_count_whose_tasks_take_hours() {
    // N = 30 with the backtracking engine: each task is hours of search.
    let (out, took) = common::signalled(&["count", "30", "--long"], Duration::from_secs(1), "-INT");
    common::assert_stopped(&out, took, "interrupted: nothing was saved", "-INT");
}

#[test]
fn sigterm_stops_a_checkpointed_count_inside_its_tasks() {
    let dir = tempfile::tempdir().unwrap();
    for (n, strategy) in [("30", "backtrack"), ("21", "join")] {
        let ck = dir.path().join(format!("{n}.ck"));
        let ck = ck.to_str().unwrap();
        let args = [
            "count",
            n,
            "--strategy",
            strategy,
            "-j",
            "2",
            "--checkpoint",
            ck,
            "--long",
        ];
        let (out, took) = common::signalled(&args, Duration::from_millis(1500), "-TERM");
        common::assert_stopped(&out, took, "tasks are saved in", &format!("N={n}"));
    }
}

#[test]
fn a_stopped_count_resumes_to_the_exact_count() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("18.ck");
    let ck = ck.to_str().unwrap();
    let args = ["count", "18", "-j", "1", "--no-time", "--checkpoint", ck];
    // The signal goes once the first task is saved, not after a fixed time: a fast machine
    // could finish N = 18 before any fixed delay that a slow one needs.
    let mut child = start(&args);
    let saved =
        |path: &str| std::fs::read_to_string(path).is_ok_and(|text| text.lines().count() > 1);
    while child.try_wait().unwrap().is_none() && !saved(ck) {
        std::thread::sleep(Duration::from_micros(500));
    }
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    let (code, err) = (out.status.code(), String::from_utf8_lossy(&out.stderr));
    assert_eq!(code, Some(1), "the count should still be running: {err}");
    let resumed = Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .output()
        .unwrap();
    assert!(resumed.status.success());
    let (total, unique) = common::counts(18);
    let line = String::from_utf8(resumed.stdout).unwrap();
    let line = line.lines().nth(1).unwrap();
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(fields, ["18:", &total.to_string(), &unique.to_string()]);
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("resuming from"));
}
