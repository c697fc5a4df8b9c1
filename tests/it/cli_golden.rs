//! Byte-for-byte: the output of a fixed set of commands, recorded from the binary before the
//! library-first restructuring, must not change unless a fix changes it on purpose (then the
//! recorded file is updated in the same commit, with the reason in its message).
//!
//! `tests/fixtures/golden/commands.txt` holds one command per line; `NN.stdout` and `NN.code`
//! hold what the `NN`-th printed and its exit code. Commands run in `tests/fixtures`, so file
//! arguments are relative to it.

use assert_cmd::Command;
use std::path::Path;

#[test]
fn recorded_outputs_are_unchanged() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let golden = fixtures.join("golden");
    let commands = std::fs::read_to_string(golden.join("commands.txt")).unwrap();
    let mut checked = 0;
    for (i, line) in commands.lines().enumerate() {
        let stem = format!("{:02}", i + 1);
        let want = std::fs::read(golden.join(format!("{stem}.stdout"))).unwrap();
        let code: i32 = std::fs::read_to_string(golden.join(format!("{stem}.code")))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let out = Command::cargo_bin("nqueens")
            .unwrap()
            .current_dir(&fixtures)
            .args(line.split_whitespace())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "exit code of `{line}`");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&want),
            "stdout of `{line}`"
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} recorded commands");
}
