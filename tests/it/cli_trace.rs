//! `nqueens trace` and `nqueens bench --nodes` end to end.

use assert_cmd::Command;
use nqueens::algo::Algo;
use predicates::prelude::*;

fn nqueens(args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("nqueens").unwrap();
    cmd.args(args);
    cmd
}

fn stdout(args: &[&str]) -> String {
    let out = nqueens(args).assert().success().get_output().clone();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_text_trace_draws_each_step_and_finds_both_solutions_of_4() {
    let text = stdout(&["trace", "4"]);
    // Rows and columns from 1, as solve and verify number them.
    assert!(text.contains("step 1  place    row 1 col 1"));
    assert!(text.contains("solution 2 4 1 3") && text.contains("solution 3 1 4 2"));
    assert!(text.contains("dead end row 3: no square left"));
    assert!(text.contains("anti-diagonal /") && !text.contains(" diagonal /"));
    // After the first queen, row 1 shows its column and diagonal attacked; the board is
    // numbered, columns above and rows on the left.
    assert!(text.contains(
        "step 1  place    row 1 col 1  [nodes 1, solutions 0]\n    1 2 3 4\n  1 Q x x x\n  2 x x . .\n"
    ));
}

#[test]
fn compact_is_one_line_per_step_between_a_header_and_a_summary() {
    let t = nqueens::trace::record(Algo::Swap, 5, 100_000).unwrap();
    let text = stdout(&["trace", "5", "--algo", "swap", "--compact"]);
    assert_eq!(text.lines().count(), t.events.len() + 2);
    assert!(text.lines().last().unwrap().contains("10 solutions"));
}

#[test]
fn json_lines_have_a_line_per_step() {
    let text = stdout(&["trace", "6", "--algo", "cp", "--format", "json"]);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["algo"], "cp");
    let end = lines.last().unwrap();
    assert_eq!(end["end"], "complete");
    assert_eq!(end["solutions"], 4);
    assert_eq!(end["steps"].as_u64().unwrap() as usize, lines.len() - 2);
}

#[test]
fn a_long_search_is_refused_with_a_message_naming_limit() {
    nqueens(&["trace", "12"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("error: ").and(predicate::str::contains("--limit K")))
        .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    // An SVG holds fewer steps than text.
    nqueens(&["trace", "8", "--format", "svg"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2000 steps").and(predicate::str::contains("--limit")));
}

#[test]
fn limit_shows_the_first_steps() {
    let text = stdout(&["trace", "12", "--limit", "100", "--compact"]);
    assert_eq!(text.lines().count(), 102);
    assert!(text.lines().last().unwrap().contains("beyond --limit"));
    let svg = stdout(&["trace", "8", "--format", "svg", "--limit", "300"]);
    assert!(svg.starts_with("<svg") && svg.contains("step 300 of 300"));
    let html = stdout(&["trace", "5", "--algo", "mirror", "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
}

#[test]
fn whole_searches_of_8_and_10_play_as_one_page() {
    let page = stdout(&["trace", "10", "--format", "html"]);
    assert!(page.len() <= 3_000_000, "{} bytes", page.len());
    let t = nqueens::trace::record(Algo::Backtracking, 10, 1_000_000).unwrap();
    assert!(page.contains(&format!(
        "10 queens, backtracking: {} steps<",
        t.events.len()
    )));
    let perm = stdout(&["trace", "8", "--algo", "permutations", "--format", "html"]);
    assert!(perm.contains("\"complete\":true"));
    let pair = stdout(&["trace", "8", "--format", "html", "--beside", "bitboard"]);
    assert!(pair.contains("backtracking: 18512 steps beside bitboard: 18512 steps"));
    nqueens(&["trace", "8", "--format", "html", "--beside", "bitboard"])
        .assert()
        .success();
    nqueens(&[
        "trace", "8", "--beside", "cp", "--format", "html", "--algo", "flags",
    ])
    .assert()
    .success();
}

#[test]
fn a_storyboard_is_one_svg_with_a_board_per_placement() {
    let svg = stdout(&["trace", "4", "--format", "storyboard"]);
    let t = nqueens::trace::record(Algo::Backtracking, 4, 1000).unwrap();
    // The outer picture, then a board per placement and per solution.
    assert_eq!(svg.matches("<svg").count(), 1 + t.placements() + 2);
    assert!(svg.contains("1. place row 1 col 1") && svg.contains("solution 2 4 1 3"));
    let every = stdout(&["trace", "4", "--format", "storyboard", "--every-step"]);
    assert_eq!(every.matches("<svg").count(), 1 + t.events.len());
    // The limit counts boards: cp at N = 8 (over 2,000 steps, fewer boards) is drawn whole,
    // --limit K draws K boards, and a search of more boards is refused naming --limit.
    let cp = nqueens::trace::record(Algo::Cp, 8, 1_000_000).unwrap();
    assert!(cp.events.len() > 2000);
    let drawn = nqueens::trace::storyboard::boards(&cp, false);
    let svg = stdout(&["trace", "8", "--algo", "cp", "--format", "storyboard"]);
    assert_eq!(svg.matches("<svg").count(), 1 + drawn);
    let ten = stdout(&["trace", "8", "--format", "storyboard", "--limit", "10"]);
    assert_eq!(ten.matches("<svg").count(), 1 + 10);
    nqueens(&["trace", "8", "--format", "storyboard"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit"));
}

#[test]
fn bad_arguments_are_one_line_and_exit_2() {
    for args in [
        &["trace", "0"][..],
        &["trace", "13", "--algo", "permutations"],
        &["trace", "6", "--algo", "quantum"],
        &["trace", "6", "--limit", "0"],
        &["trace", "6", "--limit", "300001"],
        &["trace", "6", "--format", "html", "--limit", "1000001"],
        &["trace", "6", "--beside", "flags"],
        &["trace", "6", "--format", "html", "--beside", "quantum"],
        &[
            "trace",
            "6",
            "--format",
            "html",
            "--beside",
            "permutations",
            "--limit",
            "0",
        ],
        &["trace", "6", "--every-step"],
        &["trace", "6", "--format", "storyboard", "--limit", "2001"],
        &[
            "trace", "65", "--algo", "bitboard", "--format", "html", "--limit", "5",
        ],
        &["trace", "6", "--compact", "--format", "json"],
    ] {
        nqueens(args)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("error"));
    }
}

#[test]
fn bench_nodes_reports_the_library_counts() {
    let text = stdout(&[
        "bench",
        "6..=7",
        "--algos",
        "backtracking,bitboard",
        "--nodes",
    ]);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("7 "))
        .unwrap();
    for algo in [Algo::Backtracking, Algo::Bitboard] {
        let w = algo.work(7).unwrap();
        assert!(
            row.contains(&format!(" {}n {}c", w.nodes, w.checks)),
            "{row}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("b.json");
    nqueens(&["bench", "8", "--algos", "flags", "--nodes", "--json"])
        .arg(&json)
        .assert()
        .success();
    // JSON Lines: one object per cell, with the work as two more fields.
    let cell: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&json).unwrap().trim()).unwrap();
    let w = Algo::Flags.work(8).unwrap();
    assert_eq!(cell["nodes"], w.nodes);
    assert_eq!(cell["checks"], w.checks);
    // Without --nodes the cells stay as they were.
    let plain = stdout(&["bench", "6", "--algos", "flags"]);
    let counted = |t: &str| t.len() > 1 && t[..t.len() - 1].parse::<u64>().is_ok();
    assert!(
        !plain
            .split_whitespace()
            .any(|t| (t.ends_with('n') || t.ends_with('c')) && counted(t))
    );
}
