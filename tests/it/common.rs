//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::time::Duration;

/// The published (total, unique) for `n` (OEIS A000170 and A002562, `data/counts.tsv`).
pub fn counts(n: usize) -> (u128, u128) {
    nqueens::reference::published(n).unwrap_or_else(|| panic!("no published count for N={n}"))
}

/// Every solution for `n` (columns by row, 0-based), by the plainest backtracking: a queen per
/// row, checked against every earlier queen. The slow, obvious oracle of the fast counters.
pub fn brute_force(n: usize) -> Vec<Vec<u32>> {
    fn go(n: usize, cols: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        let r = cols.len();
        if r == n {
            out.push(cols.clone());
            return;
        }
        for c in 0..n as u32 {
            let safe = cols
                .iter()
                .enumerate()
                .all(|(r2, &c2)| c2 != c && r - r2 != c.abs_diff(c2) as usize);
            if safe {
                cols.push(c);
                go(n, cols, out);
                cols.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(n, &mut Vec::new(), &mut out);
    out
}

/// Completions of a completion instance counted the obvious way: row by row, every open column
/// (not blocked, and the given queen's where the row has one), every earlier queen checked.
pub fn brute_force_completions(inst: &nqueens::cp::Instance) -> u64 {
    let n = inst.n();
    let mut open = vec![vec![true; n]; n];
    for (r, c) in inst.blocked() {
        open[r][c] = false;
    }
    for (r, c) in inst.fixed() {
        for (c2, square) in open[r].iter_mut().enumerate() {
            *square &= c2 == c;
        }
    }
    fn go(row: usize, cols: &mut Vec<usize>, open: &[Vec<bool>]) -> u64 {
        let n = open.len();
        if row == n {
            return 1;
        }
        let mut total = 0;
        for c in 0..n {
            let fits = open[row][c]
                && cols
                    .iter()
                    .enumerate()
                    .all(|(r, &q)| q != c && row - r != c.abs_diff(q));
            if fits {
                cols.push(c);
                total += go(row + 1, cols, open);
                cols.pop();
            }
        }
        total
    }
    go(0, &mut Vec::new(), &open)
}

/// The blocked boards of `tests/fixtures/blocked` with the answer CP-SAT recorded for each
/// (`# answer: completion` or `none`): `(path, text, has_a_completion)`.
pub fn recorded_blocked_boards() -> Vec<(std::path::PathBuf, String, bool)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/blocked");
    let mut boards: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let answer = text
                .lines()
                .find_map(|l| l.strip_prefix("# answer: "))
                .unwrap_or_else(|| panic!("{}: no recorded answer", path.display()));
            let completion = match answer {
                "completion" => true,
                "none" => false,
                other => panic!("{}: unknown answer {other:?}", path.display()),
            };
            (path, text, completion)
        })
        .collect();
    boards.sort();
    boards
}

/// Runs `nqueens ARGS`, sends `signal` (as `kill` names it: `-TERM`) after `after`, and
/// returns the output and the time from the signal to the exit. A process that ignores the
/// signal is killed after 10 s, so the test fails instead of hanging.
#[cfg(unix)]
pub fn signalled(args: &[&str], after: Duration, signal: &str) -> (std::process::Output, Duration) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let sent = std::time::Instant::now();
    let killed = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    while child.try_wait().unwrap().is_none() && sent.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let took = sent.elapsed();
    let _ = child.kill();
    (child.wait_with_output().unwrap(), took)
}

/// Asserts that a command stopped early, by a signal or its time limit (`what`, for the
/// messages): exit 1, `says` in its stderr, within two seconds of the signal or the start.
pub fn assert_stopped(out: &std::process::Output, took: Duration, says: &str, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{what}: {err}");
    assert!(err.contains(says), "{what}: {err}");
    assert!(
        took < Duration::from_secs(2),
        "{what}: stopped after {took:?}"
    );
}

/// Runs `nqueens complete --stats` on three blocked fixtures (one with a completion, two
/// without or with) once with each of `flags`, checks every answer against the fixture's
/// recorded one (the same exit code with each flag, every completion valid), and returns the
/// count `stat` of each run's `--stats` line, with the flag.
pub fn complete_fixtures_with(
    flags: [&'static str; 2],
    stat: &str,
) -> Vec<(&'static str, String, u64)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/blocked");
    let mut counts = Vec::new();
    for name in ["40-1330-0.txt", "50-2110-0.txt", "50-2150-1.txt"] {
        let path = format!("{dir}/{name}");
        let text = std::fs::read_to_string(&path).unwrap();
        let inst = nqueens::cp::Instance::parse(&text).unwrap();
        let completion = text.contains("# answer: completion");
        let mut codes = Vec::new();
        for flag in flags {
            let out = assert_cmd::Command::cargo_bin("nqueens")
                .unwrap()
                .args(["complete", &path, "--format", "perm", "--stats", flag])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let count: u64 = stderr
                .split(&format!("{stat} "))
                .nth(1)
                .and_then(|s| s.split(',').next())
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{name} {flag}: no count of {stat} in {stderr}"));
            if completion {
                let text = std::str::from_utf8(&out.stdout).unwrap();
                let p = nqueens::format::read(text)
                    .into_iter()
                    .next()
                    .unwrap()
                    .unwrap();
                assert!(inst.admits(&p), "{name} {flag}");
            }
            codes.push(out.status.code());
            counts.push((flag, name.to_string(), count));
        }
        assert_eq!(codes[0], codes[1], "{name}");
        assert_eq!(codes[0], Some(if completion { 0 } else { 1 }), "{name}");
    }
    counts
}
