//! Hostile input through the real binary (issue 17): sizes claimed by the input, endless input
//! without newlines, devices given as files, a second writer of a checkpoint, absurd shard
//! results. Each answer must be one `error:` line with exit code 2, in bounded memory.
//!
//! Memory is bounded by running the binary under `ulimit -v`: a reader that keeps an endless
//! input, or allocates what a picture claims, dies of a failed allocation instead of answering.
use crate::common;

use std::fs::File;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use nqueens::engine::tasks::shard::ShardResult;
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Address space given to the binary: far more than any of these answers needs, far less than
/// the endless inputs would take.
const LIMIT_KB: u64 = 1 << 20;

/// `nqueens ARGS` under the memory limit, with stdin from the shell command `feed` if given.
fn bounded(feed: Option<&str>, args: &str) -> Command {
    limited(&format!("-v {LIMIT_KB}"), feed, args)
}

/// `nqueens ARGS` under `ulimit LIMIT`, with stdin from the shell command `feed` if given (in
/// which `$0` is the binary too).
fn limited(limit: &str, feed: Option<&str>, args: &str) -> Command {
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let run = format!("(ulimit {limit} && exec \"$0\" {args})");
    let script = match feed {
        Some(feed) => format!("{feed} | {run}"),
        None => run,
    };
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(script).arg(bin);
    cmd
}

fn one_error_line(words: &'static str) -> impl Predicate<str> {
    predicate::str::starts_with("error: ")
        .and(predicate::str::contains(words))
        .and(predicate::function(|s: &str| s.lines().count() == 1))
}

/// An SVG picture of `2 4 1 3` whose `viewBox` claims `claim` rows.
fn svg_claiming(claim: &str) -> String {
    let mut out = Vec::new();
    nqueens::format::svg::write(&mut out, &nqueens::Placement::new(vec![1, 3, 0, 2])).unwrap();
    String::from_utf8(out).unwrap().replace(
        "viewBox=\"0 0 4 4\"",
        &format!("viewBox=\"0 0 {claim} {claim}\""),
    )
}

#[test]
fn a_picture_claiming_a_huge_board_is_malformed_not_a_crash() {
    for claim in ["99999999999", "4000000000", "100000000"] {
        let svg = svg_claiming(claim);
        nqueens()
            .arg("verify")
            .write_stdin(svg.clone())
            .assert()
            .code(2)
            .stderr(one_error_line("line "));
        nqueens()
            .args(["complete", "-"])
            .write_stdin(svg)
            .assert()
            .code(2)
            .stderr(one_error_line("not an instance"));
    }
    // The claim is checked against the queens drawn: the fifth row has none.
    nqueens()
        .arg("verify")
        .write_stdin(svg_claiming("100000000"))
        .assert()
        .code(2)
        .stderr(one_error_line("row 5 has no queen"));
}

#[test]
fn verify_of_an_endless_input_errs_at_once_in_bounded_memory() {
    bounded(None, "verify /dev/zero")
        .assert()
        .code(2)
        .stderr(one_error_line("line 1: cannot tell the format"));
    // An endless perm line that turns bad, and an endless board row.
    bounded(Some("{ printf '1 2 '; cat /dev/zero; }"), "verify")
        .assert()
        .code(2)
        .stderr(one_error_line("line 1: unexpected character"));
    bounded(Some("head -c 1500000000 /dev/zero | tr '\\0' ."), "verify")
        .assert()
        .code(2)
        // "has no queen", or "has more than K squares" where K (set by the memory available) is
        // below 1.5e9.
        .stderr(one_error_line("line 1: row 1 has "));
}

#[test]
fn complete_of_a_gigabyte_of_dots_errs_in_bounded_memory() {
    bounded(
        Some("head -c 1500000000 /dev/zero | tr '\\0' ."),
        "complete -",
    )
    .assert()
    .code(2)
    .stderr(one_error_line("line 1: longer than"));
}

#[test]
fn errors_quote_a_long_token_briefly() {
    let token = "7".repeat(200_000);
    let assert = nqueens()
        .args(["complete", "-"])
        .write_stdin(format!("{token}\n"))
        .assert()
        .code(2)
        .stderr(one_error_line("the board size must be from 1 to"));
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.len() < 200, "{stderr}");
    assert!(stderr.contains("(200000 bytes)"), "{stderr}");
}

#[test]
fn a_device_is_not_a_checkpoint() {
    for device in ["/dev/zero", "/dev/full", "/dev/null"] {
        bounded(None, &format!("count 8 --checkpoint {device}"))
            .assert()
            .code(2)
            .stderr(one_error_line("is not a regular file"));
    }
}

#[test]
fn a_checkpoint_in_a_missing_folder_says_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing").join("n12.ckpt");
    nqueens()
        .args(["count", "12", "--checkpoint"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(
            one_error_line("n12.ckpt").and(predicate::function(|s: &str| {
                // The operating system's reason, said once, not again by each layer.
                s.matches("os error 2").count() == 1
            })),
        );
}

#[test]
fn a_second_writer_of_a_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    // This test's own lock stands in for a first run still counting.
    let held = File::create(&path).unwrap();
    held.try_lock().unwrap();
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(one_error_line("is in use by another run"));
    drop(held);
    let (total, unique) = common::counts(10);
    nqueens()
        .args([
            "count",
            "10",
            "--format",
            "csv",
            "--no-time",
            "--checkpoint",
        ])
        .arg(&path)
        .assert()
        .success()
        .stdout(format!("n,total,unique,seconds\n10,{total},{unique},\n"));
}

#[test]
fn an_empty_json_placement_is_bad_input() {
    nqueens()
        .arg("verify")
        .write_stdin("{\"n\":0,\"columns\":[]}\n")
        .assert()
        .code(2)
        .stderr(one_error_line("line 1: not a placement in JSON"));
}

#[test]
fn board_errors_name_the_offending_line() {
    nqueens()
        .arg("verify")
        .write_stdin("2 4 1 3\n\n. Q . .\n. . . Q\nQ . Q .\n. . Q .\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "invalid: line 5: row 3 has two queens",
        ));
    nqueens()
        .arg("verify")
        .write_stdin("2 4 1 3\n\n. Q . .\n. . . Q\nQ . x .\n. . Q .\n")
        .assert()
        .code(2)
        .stderr(one_error_line("line 5: row 3: unexpected character 'x'"));
}

/// Shard files of `count 8` split two ways, in `dir`.
fn shards(dir: &Path) -> Vec<PathBuf> {
    (1..=2)
        .map(|i| {
            let out = dir.join(format!("s{i}.json"));
            nqueens()
                .args(["count", "8", "--shard", &format!("{i}/2"), "--out"])
                .arg(&out)
                .assert()
                .success();
            out
        })
        .collect()
}

#[test]
fn merge_refuses_absurd_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path());
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let mut result: ShardResult = serde_json::from_str(&text).unwrap();
    for seconds in [1e308, -1.0, 2e9] {
        result.seconds = seconds;
        std::fs::write(&files[1], serde_json::to_string(&result).unwrap()).unwrap();
        nqueens()
            .arg("merge")
            .args(&files)
            .assert()
            .code(2)
            .stderr(one_error_line("not a wall time"));
    }
}

#[test]
fn merge_says_what_its_time_is_and_lists_missing_shards_for_sbatch() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path());
    nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "the sum of the 2 shards' wall-clock times, each of its last run",
        ));
    nqueens()
        .arg("merge")
        .arg(&files[1])
        .assert()
        .code(2)
        .stderr(one_error_line("sbatch --array=1`"));
}

#[test]
fn merge_of_an_endless_file_errs_in_bounded_memory() {
    bounded(None, "merge /dev/zero")
        .assert()
        .code(2)
        .stderr(one_error_line("larger than"));
}

/// Whether process `pid` catches SIGINT yet (the `SigCgt` mask of `/proc/PID/status`; where
/// there is no `/proc`, after a generous second).
fn catches_sigint(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/status")) {
        Ok(status) => status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & 0b10 != 0),
        Err(_) => {
            std::thread::sleep(std::time::Duration::from_secs(1));
            true
        }
    }
}

/// Runs `nqueens ARGS` (stdin from `stdin`), sends it `signal` once it catches signals, and
/// returns its exit code and stderr. A minute without an exit is a hang: the test fails.
#[cfg(unix)]
fn interrupted(args: &[&str], stdin: Option<&Path>, signal: &str) -> (Option<i32>, String) {
    interrupted_when(args, stdin, Some(signal), || {})
}

/// [`interrupted`], calling `before` just before the signal is sent; with no signal, `before`
/// alone must end the run.
#[cfg(unix)]
fn interrupted_when(
    args: &[&str],
    stdin: Option<&Path>,
    signal: Option<&str>,
    before: impl FnOnce(),
) -> (Option<i32>, String) {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdin(stdin.map_or(Stdio::null(), |p| File::open(p).unwrap().into()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !catches_sigint(child.id()) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before the signal"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{args:?}: no handler"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    before();
    let pid = child.id().to_string();
    let kill = |name: &str| Command::new("kill").args([name, &pid]).status().unwrap();
    if let Some(signal) = signal {
        assert!(kill(signal).success());
    }
    let sent = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if sent.elapsed() > Duration::from_secs(60) {
            kill("-KILL");
            panic!("{args:?} still ran a minute after {signal:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(unix)]
#[test]
fn every_ladder_count_stops_on_sigint_sigterm_and_sighup() {
    let signals = ["-INT", "-TERM", "-HUP"];
    for (i, algo) in nqueens::algo::Algo::ALL.into_iter().enumerate() {
        // Counts of hours for every rung: permutations takes N up to 12 only.
        let n = algo.max_n().min(24).to_string();
        let signal = signals[i % signals.len()];
        let (code, err) = interrupted(
            &["count", &n, "--algo", algo.name(), "-j", "2"],
            None,
            signal,
        );
        assert_eq!(code, Some(1), "{algo} after {signal}: {err}");
        // A ladder count is one search: no checkpoint could have kept any of it.
        assert!(
            err.contains("error: interrupted: nothing was saved")
                && err.contains("which cannot be resumed")
                && !err.contains("use a checkpoint"),
            "{algo}: {err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn find_random_stops_on_a_signal() {
    // Seconds of local search even on a fast machine, in some hundreds of MiB.
    let (code, err) = interrupted(
        &[
            "find", "50000000", "--random", "--seed", "1", "--format", "perm",
        ],
        None,
        "-HUP",
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error: interrupted before a solution was found"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn complete_stops_on_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    // An empty board of 40: its completions take years to count.
    let empty = dir.path().join("empty40.txt");
    std::fs::write(&empty, "40\n").unwrap();
    for args in [["complete", "-", "--count"], ["complete", "-", "--all"]] {
        let (code, err) = interrupted(&args, Some(&empty), "-TERM");
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains("error: interrupted after"), "{err}");
    }
}

/// The mode bits of `path`.
#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn no_output_replaces_a_checkpoint_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("busy.ck");
    std::fs::write(&path, "a journal\n").unwrap();
    // This test's own lock stands in for a count still writing its checkpoint.
    let held = File::open(&path).unwrap();
    held.try_lock().unwrap();
    let out = path.to_str().unwrap();
    for args in [
        vec!["count", "8", "--out", out],
        vec!["bench", "4..=5", "--json", out],
        vec!["bench", "4..=5", "--csv", out],
        vec!["bench", "4..=5", "--plot", out],
    ] {
        nqueens()
            .args(&args)
            .assert()
            .code(2)
            .stderr(one_error_line("is the checkpoint of a running count"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a journal\n");
    }
}

#[test]
fn two_outputs_of_one_command_must_be_two_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("o.json");
    let b = dir.path().join(".").join("o.json");
    nqueens()
        .args(["bench", "4..=5", "--json"])
        .arg(&a)
        .arg("--csv")
        .arg(&b)
        .assert()
        .code(2)
        .stderr(one_error_line("--json and --csv name the same file"));
    assert!(!a.exists());
}

#[cfg(unix)]
#[test]
fn out_keeps_the_mode_of_the_file_it_replaces_and_refuses_a_read_only_one() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.json");
    std::fs::write(&kept, "old\n").unwrap();
    set_mode(&kept, 0o640);
    nqueens()
        .args(["count", "8", "--out"])
        .arg(&kept)
        .assert()
        .success();
    assert_eq!(mode(&kept), 0o640);
    let result = ShardResult::read(File::open(&kept).unwrap()).unwrap();
    assert_eq!(result.n, 8);

    let read_only = dir.path().join("ro.json");
    std::fs::write(&read_only, "old\n").unwrap();
    set_mode(&read_only, 0o444);
    for args in [["count", "8", "--out"], ["bench", "4..=5", "--json"]] {
        nqueens()
            .args(args)
            .arg(&read_only)
            .assert()
            .code(2)
            .stderr(one_error_line("is read-only"));
        assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "old\n");
    }
}

#[cfg(unix)]
#[test]
fn new_outputs_follow_the_umask_and_no_temporary_file_waits_beside_them() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    for (umask, want) in [("022", 0o644), ("027", 0o640), ("077", 0o600)] {
        let out = dir.path().join(format!("u{umask}.json"));
        let script = format!("umask {umask} && exec \"$0\" count 8 --out \"$1\"");
        Command::new("sh")
            .args(["-c", &script])
            .arg(&bin)
            .arg(&out)
            .assert()
            .success();
        assert_eq!(mode(&out), want, "umask {umask}");
    }
    // A count under way has made no temporary file yet: a kill leaves nothing behind.
    let out = dir.path().join("later.json");
    let temporaries = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .count()
    };
    let (code, err) = interrupted_when(
        &["count", "30", "--long", "--out", out.to_str().unwrap()],
        None,
        Some("-INT"),
        || assert_eq!(temporaries(), 0),
    );
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(temporaries(), 0);
    assert!(!out.exists());
}

/// The shard files of `count 12` split three ways, in `dir`, read back.
fn shards_of_12(dir: &Path) -> Vec<(PathBuf, ShardResult)> {
    (1..=3)
        .map(|i| {
            let out = dir.join(format!("s{i}.json"));
            nqueens()
                .args(["count", "12", "--shard", &format!("{i}/3"), "--out"])
                .arg(&out)
                .assert()
                .success();
            let result = ShardResult::read(File::open(&out).unwrap()).unwrap();
            (out, result)
        })
        .collect()
}

/// Writes `result` to `path` with its checksum made to match, as a careless script would.
fn forge(path: &Path, mut result: ShardResult) {
    result.checksum = result.expected_checksum();
    std::fs::write(path, serde_json::to_string(&result).unwrap()).unwrap();
}

#[test]
fn merge_believes_no_forged_number() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards_of_12(dir.path());
    let paths: Vec<&PathBuf> = files.iter().map(|(p, _)| p).collect();
    let (total, unique) = common::counts(12);
    nqueens()
        .args(["merge", "--no-time", "--format", "csv"])
        .args(&paths)
        .assert()
        .success()
        .stdout(format!("n,total,unique,seconds\n12,{total},{unique},\n"));
    type Forgery = fn(&mut ShardResult);
    let forgeries: [(&str, Forgery, &str); 6] = [
        ("another N", |r| r.n = 13, "but N=13 by backtrack is"),
        (
            "a huge total",
            |r| r.total = 1 << 127,
            "more than the 14200",
        ),
        (
            "2^64 - 1",
            |r| r.total = u64::MAX.into(),
            "more than the 14200",
        ),
        (
            "unique8 below total",
            |r| r.unique8 = r.total - 1,
            "cannot come from backtrack tasks",
        ),
        (
            "unique8 above 8 total",
            |r| r.unique8 = 8 * r.total + 8,
            "cannot come from",
        ),
        // Within every bound of the shard, so only the sum can tell.
        (
            "two fewer",
            |r| (r.total, r.unique8) = (r.total - 2, r.unique8 - 2),
            "but N=12 has 14200",
        ),
    ];
    for (what, change, words) in forgeries {
        for (path, result) in &files {
            let mut forged = result.clone();
            change(&mut forged);
            // "another N" is told in every file, as a script that edits them all would.
            if what == "another N" || path == &files[1].0 {
                forge(path, forged);
            }
        }
        nqueens()
            .arg("merge")
            .args(&paths)
            .assert()
            .code(2)
            .stderr(one_error_line(words));
        for (path, result) in &files {
            forge(path, result.clone());
        }
    }
}

#[test]
fn a_checkpoint_record_claiming_too_much_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("n10.ck");
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&ck)
        .assert()
        .success();
    let journal = std::fs::read_to_string(&ck).unwrap();
    // Rewrites the record of the first task that found solutions, checksum and all.
    let with = |total: u128, unique8: u128| -> String {
        let mut lines: Vec<String> = journal.lines().map(str::to_string).collect();
        let at = 1 + lines[1..]
            .iter()
            .position(|l| l.split(' ').nth(1) != Some("0"))
            .unwrap();
        let index = lines[at].split(' ').next().unwrap().to_string();
        let body = format!("{index} {total} {unique8}");
        lines[at] = format!("{body} {:08x}", crc32fast::hash(body.as_bytes()));
        lines.join("\n") + "\n"
    };
    for (total, unique8, words) in [
        (
            u128::from(u64::MAX),
            u128::from(u64::MAX),
            "more than the 724",
        ),
        (8, 4, "cannot come from backtrack tasks"),
        // A task that found solutions said to have found none: only the count it finishes tells.
        (0, 0, "cannot be right"),
    ] {
        std::fs::write(&ck, with(total, unique8)).unwrap();
        // A resumed count says so first; the error is its last line.
        nqueens()
            .args(["count", "10", "--checkpoint"])
            .arg(&ck)
            .assert()
            .code(2)
            .stderr(predicate::function(|s: &str| {
                s.lines()
                    .last()
                    .is_some_and(|l| l.starts_with("error: ") && l.contains(words))
            }));
    }
}

#[test]
fn an_address_space_limit_is_a_memory_limit() {
    // Both need gigabytes, more than the limit `bounded` sets: refused before they start,
    // instead of dying of a failed allocation.
    bounded(None, "count 23 -j 1")
        .assert()
        .code(2)
        .stderr(one_error_line("bytes of memory, more than the limit of"));
    bounded(None, "find 1000000000 --random --seed 1")
        .assert()
        .code(2)
        .stderr(one_error_line("MiB of memory, more than the limit of"));
}

#[test]
fn an_allocation_that_fails_is_an_error_not_an_abort() {
    // `--max-memory` lets the search past the estimate; the address space then cannot hold
    // its 1.6 GB of columns.
    bounded(None, "find 400000000 --random --seed 1 --max-memory 100G")
        .assert()
        .code(2)
        .stderr(one_error_line("--random for N=400000000: out of memory"));
    // A data-segment limit (`ulimit -d`) is one that the memory estimates do not read: every
    // allocation of a size the input drives must fail as an error.
    const DATA_KB: &str = "-d 300000";
    limited(DATA_KB, None, "find 100000000 --random --seed 1")
        .assert()
        .code(2)
        .stderr(one_error_line("out of memory"));
    limited(DATA_KB, Some("\"$0\" find 100000000"), "verify")
        .assert()
        .code(2)
        .stderr(one_error_line("line 1: a placement of more than"));
    // A blocked square makes the solver keep a bit per square: 128 MiB for N = 32768.
    limited(
        "-d 100000",
        Some("printf '32768\\nx 1 1\\n'"),
        "complete - --format perm",
    )
    .assert()
    .code(2)
    .stderr(one_error_line("a board of 32768 rows: out of memory"));
}

#[cfg(unix)]
#[test]
fn a_checkpoint_deleted_or_emptied_during_a_run_stops_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("c.ck");
    let args = [
        "count",
        "20",
        "-j",
        "2",
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    // Once the run has written its header (a minute without is a hang).
    let written = || {
        let started = std::time::Instant::now();
        while ck.metadata().map_or(true, |m| m.len() == 0) {
            assert!(started.elapsed().as_secs() < 60, "no checkpoint written");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    };
    // Deleted, then Ctrl-C: the finished tasks are not "saved in c.ck".
    let (code, err) = interrupted_when(&args, None, Some("-INT"), || {
        written();
        std::fs::remove_file(&ck).unwrap()
    });
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("c.ck was deleted during the run"), "{err}");
    assert!(!err.contains("saved"), "{err}");
    // Emptied, without a signal: the count notices and stops (a minute of it is a hang).
    let (code, err) = interrupted_when(&args, None, None, || {
        written();
        File::create(&ck).unwrap();
    });
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("c.ck was cut short during the run"), "{err}");
    assert!(err.lines().last().unwrap().starts_with("error: "), "{err}");
}

#[test]
fn messages_say_what_the_user_can_do_not_the_internals() {
    // `count 33`: no engine name the user never chose; what to do instead.
    nqueens().args(["count", "33"]).assert().code(2).stderr(
        one_error_line("N = 33 is beyond what can be counted")
            .and(predicate::str::contains("Backtrack").not())
            .and(predicate::str::contains("nqueens find 33")),
    );
    // Listing and tracing count nothing: no counter overflows.
    for args in [&["solve", "40", "--algo", "flags"][..], &["trace", "64"]] {
        nqueens().args(args).assert().code(2).stderr(
            one_error_line("handles N from 1 to 28").and(predicate::str::contains("counter").not()),
        );
    }
    // A limit below 1 MiB is not "0 MiB".
    nqueens()
        .args(["find", "1000", "--random", "--max-memory", "1K"])
        .assert()
        .code(2)
        .stderr(one_error_line("more than the limit of 1 KiB"));
    // A time limit too far away to represent is no limit.
    nqueens()
        .args(["find", "10", "--first", "--time-limit", "1e308"])
        .assert()
        .success()
        .stdout("1 3 6 8 10 5 9 2 4 7\n");
    nqueens()
        .args(["complete", "-", "--format", "perm", "--time-limit", "1e308"])
        .write_stdin("4\nq 1 2\n")
        .assert()
        .success()
        .stdout("2 4 1 3\n");
}

#[test]
fn a_byte_order_mark_is_accepted_and_non_ascii_is_quoted_whole() {
    const BOM: &str = "\u{feff}";
    nqueens()
        .arg("verify")
        .write_stdin(format!("{BOM}2 4 1 3\n"))
        .assert()
        .success();
    nqueens()
        .args(["complete", "-", "--format", "perm"])
        .write_stdin(format!("{BOM}4\nq 1 2\n"))
        .assert()
        .success()
        .stdout("2 4 1 3\n");
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = shards_of_12(dir.path())
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let text = std::fs::read_to_string(&shards[0]).unwrap();
    std::fs::write(&shards[0], format!("{BOM}{text}")).unwrap();
    nqueens()
        .arg("merge")
        .args(&shards)
        .assert()
        .success()
        .stdout(predicate::str::contains("14200"));
    // 'é', not the 'Ã' of its first byte.
    nqueens()
        .arg("verify")
        .write_stdin("é 4 1 3\n")
        .assert()
        .code(2)
        .stderr(one_error_line("cannot tell the format from 'é'"));
    nqueens()
        .arg("verify")
        .write_stdin("2 4 1 é\n")
        .assert()
        .code(2)
        .stderr(one_error_line("unexpected character 'é'"));
}

#[test]
fn a_checkpoint_that_is_a_folder_or_unwritable_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(one_error_line("is not a regular file"));
    // Where even root may not write (a file's mode does not stop root).
    if Path::new("/sys").is_dir() {
        nqueens()
            .args(["count", "10", "--checkpoint", "/sys/nq.ck"])
            .assert()
            .code(2)
            .stderr(one_error_line("cannot be written"));
    }
}

#[test]
fn two_queens_in_a_row_are_invalid_in_every_form_not_malformed() {
    // The same defect drawn as a board, as a picture, and the column form of it in perm:
    // each is a placement that is not a solution (exit 1), and reading goes on after it.
    let svg = {
        let mut out = Vec::new();
        nqueens::format::svg::write(&mut out, &nqueens::Placement::new(vec![1, 3, 0, 2])).unwrap();
        String::from_utf8(out)
            .unwrap()
            .replace("x=\"0\" y=\"2\"", "x=\"0\" y=\"1\"")
    };
    for input in ["QQ..\n....\n....\n....\n\n", "1 1 3 4\n", svg.as_str()] {
        nqueens()
            .arg("verify")
            .write_stdin(format!("{input}2 4 1 3\n"))
            .assert()
            .code(1)
            .stdout(predicate::str::starts_with("invalid").and(predicate::str::contains("ok 4")))
            .stderr(one_error_line("1 of 2 placements is not a solution"));
    }
}

#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_are_read_like_any_other() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"b\xffd.txt");
    let path = dir.path().join(name);
    std::fs::write(&path, "2 4 1 3\n").unwrap();
    nqueens()
        .arg("verify")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("ok 4"));
    std::fs::write(&path, "4\nq 1 2\n").unwrap();
    nqueens()
        .args(["complete", "--format", "perm"])
        .arg(&path)
        .assert()
        .success()
        .stdout("2 4 1 3\n");
}

#[test]
fn man_writes_a_page_for_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    nqueens()
        .arg("man")
        .arg("--dir")
        .arg(&pages)
        .assert()
        .success();
    for sub in [
        "count", "solve", "find", "complete", "verify", "merge", "trace", "bench",
    ] {
        let page = std::fs::read_to_string(pages.join(format!("nqueens-{sub}.1")))
            .unwrap_or_else(|e| panic!("nqueens-{sub}.1: {e}"));
        assert!(
            page.contains(".SH OPTIONS"),
            "nqueens-{sub}.1 lists its options"
        );
    }
    let main = std::fs::read_to_string(pages.join("nqueens.1")).unwrap();
    assert!(main.contains("nqueens\\-count(1)"));
    // A folder that cannot be made is one line, not a panic.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    nqueens()
        .arg("man")
        .arg("--dir")
        .arg(file.join("sub"))
        .assert()
        .code(1)
        .stderr(one_error_line("cannot write the manual pages"));
}

#[test]
fn every_help_has_one_exit_status_section() {
    for sub in [
        "count", "solve", "find", "complete", "verify", "puzzle", "bench", "merge", "trace",
    ] {
        let out = nqueens().args([sub, "--help"]).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert_eq!(text.matches("Exit status").count(), 1, "{sub} --help");
        assert!(
            text.lines().all(|l| l.chars().count() <= 100),
            "{sub} --help: a long line"
        );
    }
}

#[test]
fn complete_prints_a_big_board_as_columns_and_refuses_ignored_options() {
    // An empty board of 2000 rows: one line of columns by default, not 8 MB of drawing.
    let out = nqueens()
        .arg("complete")
        .write_stdin("2000\n")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert_eq!(text.split_whitespace().count(), 2000);
    nqueens()
        .args(["complete", "--format", "board"])
        .write_stdin("2000\n")
        .assert()
        .code(2)
        .stderr(one_error_line("--format board is limited"));
    // Small boards are still drawn.
    nqueens()
        .arg("complete")
        .write_stdin("4\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(". Q . ."));
    // --count prints a number: a format for completions it does not print is refused.
    nqueens()
        .args(["complete", "--count", "--format", "svg"])
        .write_stdin("8\n")
        .assert()
        .code(2)
        .stderr(one_error_line("cannot be used with"));
}

#[test]
fn a_count_of_years_is_refused_with_its_estimate_unless_asked_for() {
    for n in ["27", "28"] {
        nqueens()
            .args(["count", n, "-j", "2"])
            .assert()
            .code(2)
            .stderr(
                one_error_line("years on 2 threads by the estimate")
                    .and(predicate::str::contains("see --long")),
            );
    }
    // One shard of many is short enough to start: refused only by the tiny memory limit,
    // which is checked after the time.
    nqueens()
        .args([
            "count",
            "26",
            "--shard",
            "1/1000",
            "--out",
            "/dev/null",
            "--max-memory",
            "1K",
        ])
        .assert()
        .code(2)
        .stderr(one_error_line("--max-memory").and(predicate::str::contains("days").not()));
}

#[test]
fn a_range_reports_its_largest_size_first() {
    // N = 33 is out of range: that is the error, not N = 26's memory or N = 27's time.
    nqueens()
        .args(["count", "1..=33"])
        .assert()
        .code(2)
        .stderr(one_error_line("N = 33 is beyond what can be counted"));
}

#[test]
fn options_that_would_be_ignored_are_refused() {
    nqueens()
        .args(["count", "8", "--algo", "flags", "--max-memory", "1G"])
        .assert()
        .code(2)
        .stderr(one_error_line("cannot be used with"));
}
