//! `nqueens region ... --format html`: the page to play a puzzle carries the board it was given
//! (regions, letters, tints, marks), fetches nothing, and holds one board. What the page does
//! is tested in Chromium (tests/browser/regions.test.mjs).

use assert_cmd::Command;
use nqueens::region::{Board, svg};

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// The JSON the page's script is given.
fn data(page: &str) -> serde_json::Value {
    let start = page.find("const PUZZLE = ").unwrap() + "const PUZZLE = ".len();
    let end = start + page[start..].find(";\n").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn the_page_carries_the_board_and_its_marks() {
    let text = "AAAB\nCABB\nCCBD\nCCDD\nq 3 1\nx 1 4\n";
    let out = nqueens()
        .args(["region", "draw", "--format", "html"])
        .write_stdin(text)
        .assert()
        .success();
    let page = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(!page.contains("src=") && !page.contains("http:") && !page.contains("https:"));
    let board = Board::parse(text).unwrap();
    let d = data(&page);
    assert_eq!(d["n"], 4);
    let regions: Vec<usize> = board.regions().collect();
    assert_eq!(d["regions"], serde_json::json!(regions));
    assert_eq!(d["labels"], "ABCD");
    let tints: Vec<&str> = svg::tints(&board)
        .iter()
        .map(|&t| svg::PALETTE[t])
        .collect();
    assert_eq!(d["tints"], serde_json::json!(tints));
    assert_eq!(d["queens"], serde_json::json!([[2, 0]]));
    assert_eq!(d["crosses"], serde_json::json!([[0, 3]]));
    assert_eq!(d["rating"], "hard (12 steps of the rules)");
}

#[test]
fn a_generated_page_is_the_generated_puzzle() {
    let json = nqueens()
        .args(["region", "generate", "8", "--seed", "4", "--format", "json"])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
    let page = nqueens()
        .args(["region", "generate", "8", "--seed", "4", "--format", "html"])
        .assert()
        .success();
    let page = String::from_utf8(page.get_output().stdout.clone()).unwrap();
    let board = Board::parse(&json.to_string()).unwrap();
    let regions: Vec<usize> = board.regions().collect();
    assert_eq!(data(&page)["regions"], serde_json::json!(regions));
    assert!(
        data(&page)["rating"]
            .as_str()
            .unwrap()
            .starts_with(json["difficulty"].as_str().unwrap())
    );
}

#[test]
fn a_page_holds_one_board() {
    nqueens()
        .args([
            "region", "generate", "6", "--count", "2", "--format", "html",
        ])
        .assert()
        .code(2)
        .stderr("error: a page holds one puzzle: use --count 1, or --format text\n");
    nqueens()
        .args(["region", "draw", "--format", "html"])
        .write_stdin("AB\nAB\n\nAB\nAB\n")
        .assert()
        .code(2)
        .stderr(
            "error: a page holds one board, and there are 2: ask for one, or use --format text\n",
        );
}
