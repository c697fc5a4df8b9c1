//! Every subcommand's help shows examples and its exit codes; completions and the manual page
//! come from the same definitions.

use assert_cmd::Command;
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

#[test]
fn every_subcommand_documents_examples_and_exit_codes() {
    let subcommands = [
        "count",
        "solve",
        "find",
        "complete",
        "verify",
        "bench",
        "merge",
        "completions",
        "man",
    ];
    let top = nqueens().arg("--help").output().unwrap();
    let top = String::from_utf8(top.stdout).unwrap();
    for sub in subcommands {
        assert!(top.contains(sub), "{sub} missing from the top help");
        for flag in ["-h", "--help"] {
            nqueens().args([sub, flag]).assert().success().stdout(
                predicate::str::contains("Examples:\n  nqueens ")
                    .and(predicate::str::contains("Exit status: 0 ")),
            );
        }
    }
}

#[test]
fn completions_and_the_manual_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish"] {
        nqueens()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("checkpoint").and(predicate::str::contains("merge")));
    }
    nqueens()
        .arg("man")
        .assert()
        .success()
        .stdout(predicate::str::starts_with(".ie").and(predicate::str::contains("count")));
    nqueens().args(["completions", "tcsh"]).assert().code(2);
}
