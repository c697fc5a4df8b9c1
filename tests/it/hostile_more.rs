//! What the third hostile pass found in the command line and the library's readers (issue 52),
//! end to end through the binary: standard output closed or full, `--help` and completions
//! included; `find --first` under signals; checkpoints of one byte or a wrong header; line ends
//! of `\r` alone; UTF-16 text; `--out` names the system refuses; the words of a few messages;
//! the examples of every `--help`.
#![cfg(unix)]
use crate::common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("nqueens")
}

/// Runs the shell `script`, in which `$0` is the binary, in `dir`.
fn sh(script: &str, dir: &Path) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts one `error:` line holding `words` on stderr and exit code `code`.
#[track_caller]
fn one_error(out: &Output, code: i32, words: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert!(
        err.starts_with("error: ") && err.lines().count() == 1 && err.contains(words),
        "expected one error line with {words:?}: {err:?}"
    );
}

/// Every command, each with arguments that print a result on standard output; `$0` is the
/// binary and `s.json` a shard result in the folder.
const PRINTING: [&str; 15] = [
    "count 8",
    "solve 6",
    "find 8",
    "find 8 --first",
    "verify -",
    "complete -",
    "merge s.json",
    "bench 4..=5 --budget 0.1 --algos flags",
    "trace 4",
    "puzzle 6 --seed 1",
    "completions bash",
    "man",
    "--help",
    "--version",
    "count --help",
];

/// A folder with the shard result `s.json` of N = 8.
fn folder_with_a_shard() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = sh("\"$0\" count 8 --out s.json", dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir
}

#[test]
fn a_closed_standard_output_is_an_error_before_any_work() {
    let dir = folder_with_a_shard();
    for args in PRINTING {
        let out = sh(&format!("echo 2 4 1 3 | \"$0\" {args} >&-"), dir.path());
        one_error(&out, 1, "standard output is closed");
    }
    // Commands whose result goes to a file need no standard output.
    let out = sh(
        "\"$0\" count 8 --out r.json >&- && \"$0\" man --dir m >&-",
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(dir.path().join("r.json").is_file() && dir.path().join("m/nqueens.1").is_file());
}

#[test]
fn a_full_standard_output_is_an_error_for_every_command_help_included() {
    let dir = folder_with_a_shard();
    for args in PRINTING {
        let out = sh(
            &format!("echo 2 4 1 3 | \"$0\" {args} > /dev/full"),
            dir.path(),
        );
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args}: {err}");
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("error: cannot write") && last.contains("No space left on device"),
            "{args}: {err}"
        );
        assert!(!err.contains("panicked"), "{args}: {err}");
    }
}

#[test]
fn completions_never_panic_on_a_failed_write() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = sh(
            &format!("\"$0\" completions {shell} > /dev/full"),
            dir.path(),
        );
        one_error(&out, 1, "cannot write the completion script");
        // A reader that goes away had what it wanted: quiet, exit 0, as for every command,
        // with SIGPIPE ignored by the shell or not.
        let script = format!(
            "trap '' PIPE; \"{}\" completions {shell} | head -c 10 >/dev/null; echo ${{PIPESTATUS[0]}}",
            bin().display()
        );
        let piped = Command::new("bash").args(["-c", &script]).output().unwrap();
        assert_eq!(
            text(&piped.stdout).trim(),
            "0",
            "{shell}: {}",
            text(&piped.stderr)
        );
        assert_eq!(text(&piped.stderr), "", "{shell}");
    }
}

#[test]
fn find_first_stops_within_a_second_on_each_signal() {
    for signal in ["-INT", "-TERM", "-HUP"] {
        // N = 62 searches for far longer than any test; without a limit only a signal ends it.
        let (out, took) = common::signalled(
            &["find", "62", "--first", "--time-limit", "inf"],
            Duration::from_millis(500),
            signal,
        );
        common::assert_stopped(&out, took, "interrupted before a solution", signal);
    }
}

/// On the widest boards a node of `complete` takes milliseconds (3 ms at 32,768 columns), so
/// the clock and the signals are read every few nodes there, not every 1,024: a time limit
/// and a signal both end the search within a second (they took over 3 s).
#[test]
fn complete_on_a_board_of_32768_stops_on_its_time_limit_and_on_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("wide.txt");
    std::fs::write(&board, "32768\nx 1 1\n").unwrap();
    let board = board.to_str().unwrap();

    let started = Instant::now();
    let out = Command::new(bin())
        .args(["complete", board, "--time-limit", "0.3"])
        .output()
        .unwrap();
    common::assert_stopped(
        &out,
        started.elapsed(),
        "the time limit was reached",
        "a limit of 0.3 s",
    );

    let (out, took) = common::signalled(&["complete", board], Duration::from_millis(800), "-TERM");
    common::assert_stopped(&out, took, "interrupted", "-TERM");
}

/// The header line a checkpoint of `count 8` starts with.
fn header_of_8(dir: &Path) -> String {
    let out = sh("\"$0\" count 8 --checkpoint h.ck", dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let journal = std::fs::read_to_string(dir.join("h.ck")).unwrap();
    journal.lines().next().unwrap().to_string() + "\n"
}

#[test]
fn a_checkpoint_that_is_not_the_start_of_a_header_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let header = header_of_8(dir.path());
    let mut refused: Vec<Vec<u8>> = vec![b"x".to_vec(), b"7".to_vec(), b"\n".to_vec()];
    // A prefix of the header whose last byte is wrong, at every length.
    for len in 1..header.len() {
        let mut forged = header.as_bytes()[..len].to_vec();
        *forged.last_mut().unwrap() ^= 0x01;
        refused.push(forged);
    }
    for forged in refused {
        let ck = dir.path().join("f.ck");
        std::fs::write(&ck, &forged).unwrap();
        let out = sh("\"$0\" count 8 --checkpoint f.ck", dir.path());
        let shown = text(&forged);
        one_error(&out, 2, "f.ck is corrupted at line 1");
        assert_eq!(std::fs::read(&ck).unwrap(), forged, "{shown:?} was changed");
    }
    // A true prefix is a header torn by a crash: taken over, and the count is exact.
    for len in [1, 10, header.len() - 1] {
        let ck = dir.path().join("t.ck");
        std::fs::write(&ck, &header.as_bytes()[..len]).unwrap();
        let out = sh("\"$0\" count 8 --checkpoint t.ck --no-time", dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("92"), "{}", text(&out.stdout));
    }
}

#[test]
fn verify_and_complete_read_line_ends_of_a_lone_cr() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[u8], &str); 4] = [
        (b"2 4 1 3\r3 1 4 2\r", "2 placements, all solutions"),
        (b"2 4 1 3\r\n3 1 4 2\r\n", "2 placements, all solutions"),
        (
            b". Q . .\r. . . Q\rQ . . .\r. . Q .\r\r{\"n\":4,\"columns\":[3,1,4,2]}\r",
            "2 placements, all solutions",
        ),
        (b"1 5 8 6 3 7 2 4\r2 4 1 3", "2 placements, all solutions"),
    ];
    for (input, said) in cases {
        std::fs::write(dir.path().join("in.txt"), input).unwrap();
        let out = sh("\"$0\" verify in.txt", dir.path());
        let err = text(&out.stderr);
        assert!(out.status.success(), "{:?}: {err}", text(input));
        assert_eq!(err.trim(), said);
        assert_eq!(text(&out.stdout).lines().count(), 2);
    }
    // Two queens in one column stay invalid, line ends of any kind.
    std::fs::write(dir.path().join("bad.txt"), b"2 4 1 3\r1 1\r").unwrap();
    let out = sh("\"$0\" verify bad.txt", dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("invalid 2"),
        "{}",
        text(&out.stdout)
    );
    // An instance with `\r` line ends completes as the same instance with `\n`.
    let drawing = format!("Q.......\r..x.....\r{}", "........\r".repeat(6));
    for instance in ["8\rq 1 1\rx 2 3\r", &drawing] {
        std::fs::write(dir.path().join("i.txt"), instance).unwrap();
        let cr = sh("\"$0\" complete i.txt --count", dir.path());
        std::fs::write(dir.path().join("i.txt"), instance.replace('\r', "\n")).unwrap();
        let lf = sh("\"$0\" complete i.txt --count", dir.path());
        assert!(cr.status.success(), "{instance:?}: {}", text(&cr.stderr));
        assert_eq!(cr.stdout, lf.stdout, "{instance:?}");
    }
}

#[test]
fn utf16_text_is_named_alike_by_verify_and_complete() {
    let dir = tempfile::tempdir().unwrap();
    let utf16 = |text: &str, bom: &[u8], big: bool| -> Vec<u8> {
        let mut out = bom.to_vec();
        for unit in text.encode_utf16() {
            let bytes = if big {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            };
            out.extend_from_slice(&bytes);
        }
        out
    };
    for (bom, big) in [
        (&[0xFF, 0xFE][..], false),
        (&[0xFE, 0xFF][..], true),
        (&[][..], false),
        (&[][..], true),
    ] {
        for text_in in ["2 4 1 3\n", "Q...\n"] {
            std::fs::write(dir.path().join("u.txt"), utf16(text_in, bom, big)).unwrap();
            for command in ["verify u.txt", "complete u.txt"] {
                let out = sh(&format!("\"$0\" {command}"), dir.path());
                one_error(&out, 2, "line 1: the text is UTF-16, not UTF-8");
            }
        }
    }
}

#[test]
fn out_names_the_system_refuses_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("y.json"), "").unwrap();
    let long = format!("{}.json", "a".repeat(300));
    for (args, words) in [
        ("count 12 --out y.json/".to_string(), "ends in a separator"),
        (
            "count 12 --out y.json/r.json".to_string(),
            "Not a directory",
        ),
        (format!("count 12 --out {long}"), "File name too long"),
        (
            "count 12 --shard 1/2 --out y.json/".to_string(),
            "separator",
        ),
        (format!("bench 4..=5 --json {long}"), "File name too long"),
    ] {
        let out = sh(&format!("\"$0\" {args}"), dir.path());
        one_error(&out, 2, words);
        // Nothing was counted: no result printed instead of the file.
        assert_eq!(text(&out.stdout), "", "{args}");
    }
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "only y.json is left: {names:?}");
}

#[test]
fn a_forged_checkpoint_says_its_unique_count_is_not_whole_not_a_fraction() {
    let dir = tempfile::tempdir().unwrap();
    header_of_8(dir.path());
    let journal = std::fs::read_to_string(dir.path().join("h.ck")).unwrap();
    // One record's unique tally one more, with its checksum made right: each record alone
    // stays possible, the sum is not.
    let mut forged = false;
    let lines: Vec<String> = journal
        .lines()
        .map(|line| {
            let fields: Vec<u128> = line
                .split(' ')
                .take(3)
                .map(|f| f.parse().unwrap_or(0))
                .collect();
            if forged || line.starts_with("nqueens") || fields[1] == 0 || fields[2] >= 8 * fields[1]
            {
                return line.to_string();
            }
            forged = true;
            let body = format!("{} {} {}", fields[0], fields[1], fields[2] + 1);
            format!("{body} {:08x}", crc32fast::hash(body.as_bytes()))
        })
        .collect();
    assert!(forged);
    std::fs::write(dir.path().join("h.ck"), lines.join("\n") + "\n").unwrap();
    let out = sh("\"$0\" count 8 --checkpoint h.ck", dir.path());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    // After the line that says what is resumed.
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("error: checkpoint h.ck cannot be right")
            && last.contains(
                "92 solutions and a unique count that is not a whole number (97 eighths), \
                 but N=8 has 92 and 12 unique"
            )
            && !last.contains("/8"),
        "{err}"
    );
}

#[test]
fn merge_shows_an_absurd_time_in_a_few_characters() {
    let dir = folder_with_a_shard();
    let shard = std::fs::read_to_string(dir.path().join("s.json")).unwrap();
    let seconds = shard
        .lines()
        .find(|l| l.contains("\"seconds\""))
        .unwrap()
        .to_string();
    for claim in ["1e300", "-1e300", "1e10"] {
        let forged = shard.replace(&seconds, &format!("  \"seconds\": {claim},"));
        std::fs::write(dir.path().join("f.json"), forged).unwrap();
        let out = sh("\"$0\" merge f.json", dir.path());
        one_error(&out, 2, "not a wall time from 0 to 1000000000");
        let err = text(&out.stderr);
        assert!(err.len() < 200, "{err}");
    }
}

#[test]
fn a_checkpoint_that_cannot_grow_says_what_it_kept_and_resumes_exactly() {
    let dir = tempfile::tempdir().unwrap();
    // A file size limit of 1 KiB, its signal ignored: a write past it fails as on a full disk.
    let out = sh(
        "trap '' XFSZ; ulimit -f 1 && \"$0\" count 16 -j 2 --checkpoint f.ck",
        dir.path(),
    );
    let err = text(&out.stderr);
    one_error(&out, 1, "checkpoint f.ck: File too large");
    assert!(err.contains("run the same command to resume"), "{err}");
    let kept: usize = err
        .split(" of ")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no number of tasks kept: {err}"));
    assert!(kept > 0, "{err}");
    let resumed = sh(
        "\"$0\" count 16 -j 2 --checkpoint f.ck --no-time",
        dir.path(),
    );
    let said = text(&resumed.stderr);
    assert!(resumed.status.success(), "{said}");
    assert!(
        said.contains(&format!("resuming from f.ck: {kept} of ")),
        "{said}"
    );
    let (total, unique) = common::counts(16);
    let row = text(&resumed.stdout);
    let fields: Vec<&str> = row.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(fields, ["16:", &total.to_string(), &unique.to_string()]);
}

#[test]
fn every_piped_example_of_every_help_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = format!(
        "{}:{}",
        bin().parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for sub in [
        "count", "solve", "find", "complete", "verify", "puzzle", "bench", "merge", "trace",
    ] {
        let help = Command::new(bin()).args([sub, "--help"]).output().unwrap();
        let help = text(&help.stdout);
        let examples = help
            .split("Examples:")
            .nth(1)
            .and_then(|rest| rest.split("Exit status").next())
            .unwrap_or_default();
        for line in examples.lines() {
            // The command is what comes before two spaces in a row (a comment may follow).
            let example = line.trim().split("   ").next().unwrap_or_default().trim();
            if !example.contains("| nqueens") {
                continue;
            }
            let out = Command::new("bash")
                .args(["-o", "pipefail", "-c", example])
                .env("PATH", &path)
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "`nqueens {sub} --help` example {example:?}: {}",
                text(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 3, "only {ran} piped examples");
}

/// Item 2: under an address-space limit (`ulimit -v`, what `prlimit --as` sets) a count is
/// refused by its estimate, which counts what each thread reserves of the address space, or
/// fails cleanly when its quarter lists cannot be allocated: one line and an exit status,
/// never an abort.
#[cfg(target_os = "linux")]
#[test]
fn an_address_space_limit_is_an_error_not_an_abort() {
    let bin = bin();
    // (limit in KiB, N): the first is refused by the estimate, the others allocate what the
    // estimate does not look at (small counts) and meet the limit in the quarter lists.
    for (kib, n, want) in [(409_600, 21, 2), (28_672, 18, 1), (26_624, 18, 1)] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {kib}; exec \"$0\" count {n} -j2"))
            .arg(&bin)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(want), "{kib} KiB, N={n}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(
            err.contains("memory") && !err.contains("panicked"),
            "{kib} KiB, N={n}: {err}"
        );
    }
}
