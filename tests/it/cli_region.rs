//! `nqueens region` end to end: generated puzzles count one solution through the binary in
//! every form that reads back, the same seed gives the same bytes on one or two threads, every
//! verb's output reads back into the others, and every malformed input exits 2 with one line
//! naming what is wrong.

use assert_cmd::Command;
use nqueens::region::{Board, Search};
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

fn stdout(args: &[&str], stdin: &str) -> String {
    let out = nqueens().args(args).write_stdin(stdin).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/region/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn generated_puzzles_count_one_solution_in_text_and_json() {
    for n in ["5", "9", "12"] {
        let args = ["region", "generate", n, "--count", "4", "--seed", "3"];
        let text = stdout(&args, "");
        let json = stdout(&[&args[..], &["--format", "json"]].concat(), "");
        for form in [&text, &json] {
            assert_eq!(
                stdout(&["region", "count", "--limit", "2"], form),
                "1\n1\n1\n1\n"
            );
        }
        let from_text: Vec<Board> = Board::parse_all(&text)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let from_json: Vec<Board> = Board::parse_all(&json)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(from_text, from_json);
        // The solution line is the one solution.
        for (board, line) in from_text
            .iter()
            .zip(text.lines().filter(|l| l.starts_with("# solution: ")))
        {
            let said: Vec<usize> = line["# solution: ".len()..]
                .split(' ')
                .map(|c| c.parse::<usize>().unwrap() - 1)
                .collect();
            assert_eq!(Search::new(board).first().unwrap(), Some(said));
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_on_one_or_two_threads() {
    for n in ["6", "12"] {
        let base = ["region", "generate", n, "--count", "9", "--seed", "42"];
        let one = stdout(&[&base[..], &["-j", "1"]].concat(), "");
        let two = stdout(&[&base[..], &["-j", "2"]].concat(), "");
        assert_eq!(one, two);
        assert_eq!(one.matches("# region puzzle").count(), 9);
    }
}

#[test]
fn a_seedless_run_prints_its_seed_and_that_seed_repeats_it() {
    let out = nqueens()
        .args(["region", "generate", "7"])
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let seed = stderr.trim().strip_prefix("seed: ").unwrap();
    let again = stdout(&["region", "generate", "7", "--seed", seed], "");
    assert_eq!(
        String::from_utf8(out.get_output().stdout.clone()).unwrap(),
        again
    );
}

#[test]
fn solve_writes_solutions_that_verify_accepts() {
    let all = stdout(&["region", "solve", &fixture("rows6.txt"), "--all"], "");
    assert_eq!(Board::parse_all(&all).len(), 90);
    stdout(&["region", "verify"], &all)
        .lines()
        .for_each(|l| assert_eq!(l, "ok"));
    let limited = stdout(
        &[
            "region",
            "solve",
            &fixture("rows6.txt"),
            "--limit",
            "3",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(limited.lines().count(), 3);
    assert_eq!(stdout(&["region", "verify"], &limited), "ok\nok\nok\n");
    // The game in progress keeps its queens.
    let game = stdout(&["region", "solve", &fixture("game12.txt")], "");
    let solved = Board::parse(&game).unwrap();
    assert!(solved.queens().contains(&(0, 10)) && solved.queens().contains(&(7, 0)));
    for order in ["fewest", "rows"] {
        assert_eq!(
            stdout(
                &["region", "solve", &fixture("game12.txt"), "--order", order],
                ""
            ),
            game
        );
    }
}

#[test]
fn count_prints_a_line_per_puzzle_and_says_when_the_limit_stopped_it() {
    assert_eq!(
        stdout(&["region", "count", &fixture("rows6.txt")], ""),
        "90\n"
    );
    assert_eq!(
        stdout(
            &["region", "count", &fixture("rows6.txt"), "--limit", "2"],
            ""
        ),
        "2 or more\n"
    );
    assert_eq!(
        stdout(&["region", "count", &fixture("none5.txt")], ""),
        "0\n"
    );
}

#[test]
fn no_solution_exits_1() {
    nqueens()
        .args(["region", "solve", &fixture("none5.txt")])
        .assert()
        .code(1)
        .stderr("error: 1 of 1 puzzle(s) have no solution\n");
}

#[test]
fn verify_names_the_rule_broken_and_exits_1() {
    let cases = [
        ("AAAA\nBBBB\nCCCC\nDDDD\nq 1 2\nq 2 4\nq 3 1\nq 4 3\n", None),
        ("AAAA\nBBBB\nCCCC\nDDDD\nq 1 2\nq 2 3\n", Some("touch")),
        (
            "AAAA\nBBBB\nCCCC\nDDDD\nq 1 2\nq 3 2\n",
            Some("two queens in column 2"),
        ),
        (
            "AABB\nAABB\nCCDD\nCCDD\nq 1 1\nq 2 4\n",
            Some("2 queen(s), but a 4 x 4 grid needs 4"),
        ),
        (
            "AAAB\nCABB\nCCBD\nCCDD\nq 2 1\nq 4 2\n",
            Some("two queens in region C"),
        ),
        (
            "AAAA\nBBBB\nCCCC\nDDDD\nq 1 2\nq 2 4\nq 3 1\n",
            Some("3 queen(s), but a 4 x 4 grid needs 4"),
        ),
    ];
    for (input, broken) in cases {
        let assert = nqueens()
            .args(["region", "verify"])
            .write_stdin(input)
            .assert();
        match broken {
            None => {
                assert.success().stdout("ok\n");
            }
            Some(why) => {
                assert.code(1).stdout(
                    predicate::str::starts_with("invalid: ").and(predicate::str::contains(why)),
                );
            }
        }
    }
}

#[test]
fn rate_lists_steps_and_a_hint_gives_the_next_one() {
    let puzzle = std::fs::read_to_string(fixture("unique7.txt")).unwrap();
    let rating = stdout(&["region", "rate", "--steps"], &puzzle);
    let first = rating.lines().next().unwrap();
    assert!(
        ["easy", "medium", "hard", "needs-guessing"]
            .iter()
            .any(|d| first.starts_with(d)),
        "{first}"
    );
    let hint = stdout(&["region", "rate", "--hint"], &puzzle);
    // The hint is the first step of the rating.
    let step1 = rating
        .lines()
        .nth(1)
        .unwrap()
        .trim_start()
        .strip_prefix("1. ")
        .unwrap();
    assert_eq!(hint.trim_end(), step1);
    let json = stdout(&["region", "rate", "--json"], &puzzle);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(value["steps"].as_array().unwrap().len() >= 7);
    // A cross on the solution's cell: the rules, sound for every solution, find none left
    // or give no next step; either way the hint is `stuck` and the exit 1.
    nqueens()
        .args(["region", "rate", "--hint", &fixture("game-wrong.txt")])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("stuck: "));
    // A solved board needs no hint.
    let solved = stdout(&["region", "solve"], &puzzle);
    assert_eq!(stdout(&["region", "rate", "--hint"], &solved), "solved\n");
}

#[test]
fn draw_writes_svg_and_a_terminal_board() {
    let svg = stdout(&["region", "draw", &fixture("game12.txt")], "");
    // Well-formed XML, to its end.
    let mut reader = quick_xml::Reader::from_str(&svg);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed: {e}"),
        }
    }
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("aria-label=\"queen\"").count(), 2);
    assert_eq!(svg.matches("aria-label=\"cross\"").count(), 1);
    assert_eq!(svg.matches("<rect").count(), 144);
    let board = stdout(
        &[
            "region",
            "draw",
            "--format",
            "board",
            &fixture("game12.txt"),
        ],
        "",
    );
    assert_eq!(board.lines().count(), 25);
    assert_eq!(board.matches('#').count(), 2);
    nqueens()
        .args([
            "region",
            "draw",
            &fixture("rows6.txt"),
            &fixture("rows6.txt"),
        ])
        .assert()
        .code(2);
    let two = format!(
        "{}\n{}",
        std::fs::read_to_string(fixture("rows6.txt")).unwrap(),
        std::fs::read_to_string(fixture("none5.txt")).unwrap()
    );
    nqueens()
        .args(["region", "draw"])
        .write_stdin(two)
        .assert()
        .code(2)
        .stderr("error: an SVG picture holds one board, and there are 2: ask for one, or use --format text\n");
}

/// Every malformed input, through every verb that reads: one line, exit 2.
#[test]
fn every_malformed_input_exits_2_with_one_line() {
    let cases = [
        ("", "<stdin>: no puzzle"),
        ("# a comment only\n", "<stdin>: no puzzle"),
        (
            "AB\nA\n",
            "<stdin>: puzzle 1: row 2 has 1 cells, but row 1 has 2: a grid must be square",
        ),
        (
            "ABC\nABC\n",
            "<stdin>: puzzle 1: the grid has 2 rows of 3 cells: a grid must be square",
        ),
        (
            "A-\nAB\n",
            "<stdin>: puzzle 1: row 1 column 2: '-' is not a region letter or digit",
        ),
        (
            "AA\nAA\n",
            "<stdin>: puzzle 1: the grid has 1 regions, but a 2 x 2 grid needs 2",
        ),
        (
            "AB\nBA\n",
            "<stdin>: puzzle 1: region B is in pieces: regions must be connected (cells joined side by side)",
        ),
        (
            "AB\nAB\nq 1\n",
            "<stdin>: puzzle 1: line 3: expected `q ROW COL` (a queen) or `x ROW COL` (a cross), found \"q 1\"",
        ),
        (
            "AB\nAB\nq 0 1\n",
            "<stdin>: puzzle 1: row 0 column 1 is off the 2 x 2 grid (rows and columns count from 1)",
        ),
        (
            "AB\nAB\nx 1 1\nq 1 1\n",
            "<stdin>: puzzle 1: row 1 column 1 is marked twice",
        ),
        (
            "A\n\nAB\nBA\n",
            "<stdin>: puzzle 2: region B is in pieces: regions must be connected (cells joined side by side)",
        ),
        (
            "{\"regions\": 3}\n",
            "<stdin>: puzzle 1: bad JSON: invalid type: integer `3`, expected a sequence at line 1 column 13",
        ),
    ];
    let too_large = format!("{}\n", "A".repeat(63));
    let mut all: Vec<(String, String)> = cases
        .iter()
        .map(|(i, e)| (i.to_string(), format!("error: {e}\n")))
        .collect();
    all.push((
        too_large,
        "error: <stdin>: puzzle 1: the grid has 63 rows; at most 62 are read (one region per letter or digit)\n".into(),
    ));
    for (input, error) in &all {
        for verb in [
            &["region", "solve"][..],
            &["region", "count"],
            &["region", "verify"],
            &["region", "rate"],
            &["region", "draw"],
        ] {
            nqueens()
                .args(verb)
                .write_stdin(input.clone())
                .assert()
                .code(2)
                .stdout("")
                .stderr(error.clone());
        }
    }
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["region", "generate", "4"][..],
        &["region", "generate", "33"],
        &["region", "generate", "8", "--count", "0"],
        &["region", "generate", "8", "-j", "0"],
        &["region", "generate", "8", "--count", "2", "--format", "svg"],
        &["region", "generate", "x"],
        &["region", "count", "--limit", "0"],
        &["region", "solve", "--all", "--limit", "2"],
        &["region", "rate", "--hint", "--steps"],
        &["region", "count", "/no/such/file"],
        &["region"],
    ] {
        let assert = nqueens().args(args).assert().code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        // `nqueens region` alone prints its help to stderr, as clap does for a missing verb.
        if args.len() > 1 {
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
    }
    nqueens()
        .args(["region", "generate", "40"])
        .assert()
        .code(2)
        .stderr("error: region puzzles are made for N from 5 to 32, not 40\n");
}

/// Each character of a coloured drawing with the 256-colour background it is drawn on, if
/// any; panics on an escape that is not a background tint with black text, or a reset.
fn painted(text: &str) -> Vec<(char, Option<u8>)> {
    let mut on = None;
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(ch) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("\x1b[") {
            let end = after.find('m').expect("an escape ends with m");
            on = match &after[..end] {
                "0" => None,
                code => Some(
                    code.strip_prefix("30;48;5;")
                        .unwrap_or_else(|| panic!("unexpected escape {code:?}"))
                        .parse()
                        .unwrap(),
                ),
            };
            rest = &after[end + 1..];
        } else {
            out.push((ch, on));
            rest = &rest[ch.len_utf8()..];
        }
    }
    out
}

#[test]
fn board_drawings_are_in_colour_when_asked_and_read_the_same_without() {
    let game = fixture("game12.txt");
    let draw = |colour: &str, no_color: Option<&str>| {
        let mut cmd = nqueens();
        cmd.args([
            "region", "draw", "--format", "board", "--color", colour, &game,
        ]);
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        } else {
            cmd.env_remove("NO_COLOR");
        }
        let out = cmd.assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let plain = draw("never", None);
    let coloured = draw("always", None);
    assert!(!plain.contains('\x1b'));
    assert!(coloured.contains("\x1b[30;48;5;"));
    // The same drawing once the escapes are gone: letters, queens, crosses and borders.
    let cells = painted(&coloured);
    let stripped: String = cells.iter().map(|&(ch, _)| ch).collect();
    assert_eq!(stripped, plain);
    // Every cell is on its region's one tint, borders on none, and a line ends plain.
    let board = Board::parse(&std::fs::read_to_string(&game).unwrap()).unwrap();
    let lines: Vec<&[(char, Option<u8>)]> = cells.split(|&(ch, _)| ch == '\n').collect();
    let mut tint_of = std::collections::BTreeMap::new();
    for r in 0..board.n() {
        let line = lines[2 * r + 1];
        for c in 0..board.n() {
            let (_, tint) = line[2 * c + 1];
            let tint = tint.expect("a cell is painted");
            let g = board.region((r, c));
            assert_eq!(*tint_of.entry(g).or_insert(tint), tint, "region {g}");
        }
    }
    for line in &lines {
        assert!(
            line.iter()
                .all(|&(ch, t)| !"|+-".contains(ch) || t.is_none())
        );
    }
    // Tests do not write to a terminal, so auto is plain, as is NO_COLOR; always wins over it.
    assert_eq!(draw("auto", None), plain);
    assert_eq!(draw("auto", Some("1")), plain);
    assert_eq!(draw("always", Some("1")), coloured);
    // Every verb that draws boards.
    for args in [
        vec![
            "region", "generate", "7", "--seed", "2", "--format", "board",
        ],
        vec!["region", "solve", "--format", "board", &game],
    ] {
        let mut always = args.clone();
        always.extend(["--color", "always"]);
        let coloured = stdout(&always, "");
        assert!(coloured.contains("\x1b[30;48;5;"));
        let stripped: String = painted(&coloured).into_iter().map(|(ch, _)| ch).collect();
        assert_eq!(stripped, stdout(&args, ""));
    }
    // Text and JSON are never painted.
    assert!(!stdout(&["region", "solve", "--color", "always", &game], "").contains('\x1b'));
    nqueens()
        .args(["region", "draw", "--color", "sometimes", &game])
        .assert()
        .code(2);
}

/// Output that cannot be written is an error for every verb, one line, exit 1, as for every
/// other command: the verbs used to drop the error of their last write and exit 0.
#[cfg(unix)]
#[test]
fn a_full_standard_output_is_an_error_for_every_verb() {
    let solved = stdout(&["region", "solve", &fixture("unique7.txt")], "");
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    for args in [
        &["solve"][..],
        &["solve", "--format", "svg"],
        &["count"],
        &["verify"],
        &["rate"],
        &["draw"],
        &["generate", "6", "--seed", "1"],
    ] {
        Command::new("sh")
            .args(["-c", "\"$0\" region \"$@\" > /dev/full"])
            .arg(&bin)
            .args(args)
            .write_stdin(solved.clone())
            .assert()
            .code(1)
            .stderr(
                predicate::str::starts_with("error: cannot write")
                    .and(predicate::str::contains("No space left on device"))
                    .and(predicate::str::contains('\n').count(1)),
            );
    }
}

/// `solve --all` writes each solution as it is found, in bounded memory: a grid with more
/// solutions than any memory holds streams into a reader that stops early, which ends it
/// quietly (exit 0). It used to gather every solution first, writing nothing until the end.
#[cfg(unix)]
#[test]
fn solve_all_streams_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    // 40 rows, each its own region.
    let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn";
    let grid: String = letters
        .chars()
        .map(|ch| format!("{}\n", ch.to_string().repeat(40)))
        .collect();
    std::fs::write(dir.path().join("rows40.txt"), grid).unwrap();
    let script = "( (ulimit -v 1048576 && \"$0\" region solve --all rows40.txt; echo $? > status) \
                  | head -c 100000 > /dev/null )";
    Command::new("sh")
        .args(["-c", script])
        .arg(assert_cmd::cargo::cargo_bin("nqueens"))
        .current_dir(dir.path())
        .assert()
        .success()
        .stderr("");
    let status = std::fs::read_to_string(dir.path().join("status")).unwrap();
    assert_eq!(status.trim(), "0");
}
