//! `nqueens bench` end to end.

use crate::common;

use std::collections::HashMap;

use assert_cmd::Command;
use predicates::prelude::*;

fn bench() -> Command {
    let mut cmd = Command::cargo_bin("nqueens").unwrap();
    cmd.arg("bench");
    cmd
}

/// The table `bench` prints for `args`, split into rows of cells (the header first).
fn table(args: &[&str]) -> Vec<Vec<String>> {
    let out = bench().args(args).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

#[test]
fn the_table_has_a_row_per_n_and_a_column_per_algorithm() {
    let rows = table(&["4..=8", "--algos", "backtracking,flags,symmetry"]);
    assert_eq!(
        rows[0],
        ["N", "total", "unique", "backtracking", "flags", "symmetry"]
    );
    assert_eq!(rows.len(), 6);
    for row in &rows[1..] {
        let n: usize = row[0].parse().unwrap();
        let (total, unique) = common::counts(n);
        assert_eq!(row[1], total.to_string(), "n={n}");
        assert_eq!(row[2], unique.to_string(), "n={n}");
        assert!(
            row[3..]
                .iter()
                .all(|cell| cell.ends_with('s') && !cell.contains('!'))
        );
    }
}

#[test]
fn json_and_csv_hold_every_cell() {
    let dir = tempfile::tempdir().unwrap();
    let (json, csv) = (dir.path().join("b.json"), dir.path().join("b.csv"));
    bench()
        .args([
            "--range",
            "5..=7",
            "--algos",
            "bitboard,mirror",
            "--runs",
            "3",
        ])
        .arg("--json")
        .arg(&json)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success();
    // JSON Lines, as `count --format json` writes: one object per cell.
    let cells: Vec<serde_json::Value> = std::fs::read_to_string(&json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cells.len(), 6);
    for cell in &cells {
        let n = cell["n"].as_u64().unwrap() as usize;
        assert_eq!(
            u128::from(cell["total"].as_u64().unwrap()),
            common::counts(n).0
        );
        assert!(cell["seconds"].as_f64().unwrap() >= 0.0);
        // Up to --runs runs, fewer only where they would pass a second.
        assert!((1..=3).contains(&cell["runs"].as_u64().unwrap()));
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "n,algo,seconds,runs,total,unique");
    assert_eq!(lines.len(), 7);
    assert!(lines[1].starts_with("5,bitboard,") && lines[1].ends_with(",10,"));
}

#[test]
fn an_algorithm_over_budget_sits_out_the_bigger_boards() {
    let rows = table(&[
        "8..=10",
        "--algos",
        "permutations,bitboard",
        "--budget",
        "0.000001",
    ]);
    // Every cell takes longer than a microsecond, so only N = 8 is measured.
    assert_ne!(rows[1][3], "-");
    assert_eq!(rows[2][3..], ["-", "-"]);
    assert_eq!(rows[3][1], "-");
}

#[test]
fn sizes_beyond_a_limit_are_skipped_with_a_note() {
    bench()
        .args(["1..=13", "--algos", "permutations", "--budget", "0.000001"])
        .assert()
        .success()
        .stderr(predicate::str::contains("permutations stops at N = 12"))
        .stdout(predicate::function(|s: &str| s.lines().count() == 13));
}

/// SIGTERM (as Ctrl-C) ends the cell under way within a second, and the cells finished before
/// it are kept: printed in the table and written to the files, each count right. The cell of
/// permutations at N = 12 takes seconds, so the signal comes inside a cell.
#[cfg(unix)]
#[test]
fn a_signal_ends_the_cell_under_way_and_keeps_the_finished_ones() {
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    let (json, csv) = (dir.path().join("b.json"), dir.path().join("b.csv"));
    let (out, took) = common::signalled(
        &[
            "bench",
            "8..=12",
            "--algos",
            "permutations",
            "--json",
            json.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ],
        Duration::from_millis(2500),
        "-TERM",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
    let cells: Vec<serde_json::Value> = std::fs::read_to_string(&json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        err.contains(&format!(
            "error: interrupted after {} timed cell(s)",
            cells.len()
        )),
        "{err}"
    );
    // N = 8 takes a millisecond, N = 12 seconds: the run stopped between them.
    assert!((1..5).contains(&cells.len()), "{cells:?}");
    for (cell, n) in cells.iter().zip(8..) {
        assert_eq!(cell["n"].as_u64(), Some(n));
        assert_eq!(
            u128::from(cell["total"].as_u64().unwrap()),
            common::counts(n as usize).0
        );
    }
    let table = String::from_utf8(out.stdout).unwrap();
    assert_eq!(table.lines().count(), 1 + cells.len(), "{table}");
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv.lines().count(), 1 + cells.len(), "{csv}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 8] = [
        (&["0..=3"], "at least 1"),
        (&["x"], "not a board size"),
        (&["--algos", "bitboard,warp"], "unknown algorithm \"warp\""),
        (&["--budget", "0"], "--budget"),
        (&["9..=4"], "empty range"),
        (&["--runs", "0"], "--runs"),
        (&["--runs", "x"], "--runs"),
        (
            &["29..=1000000000000"],
            "beyond the limit of every chosen algorithm",
        ),
    ];
    for (args, message) in cases {
        bench().args(args).assert().code(2).stderr(
            predicate::str::starts_with("error: ")
                .and(predicate::str::contains(message))
                .and(predicate::function(|s: &str| s.lines().count() == 1)),
        );
    }
}

/// An element of an SVG: its name, attributes, the text inside it, and the `data-algo` of the
/// line's group it sits in.
#[derive(Debug)]
struct Element {
    name: String,
    attrs: HashMap<String, String>,
    text: String,
    series: Option<String>,
}

impl Element {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.get(key).map(String::as_str)
    }

    fn number(&self, key: &str) -> f64 {
        let value = self
            .attr(key)
            .unwrap_or_else(|| panic!("{key} on {self:?}"));
        value.trim_end_matches("px").parse().unwrap()
    }
}

/// Every element of `svg`, in document order, failing on malformed XML.
fn elements(svg: &str) -> Vec<Element> {
    use quick_xml::events::{BytesStart, Event};
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut out: Vec<Element> = Vec::new();
    // The open elements, as indices into `out`.
    let mut open: Vec<usize> = Vec::new();
    let element = |e: &BytesStart, open: &[usize], out: &[Element]| {
        let attrs: HashMap<String, String> = e
            .attributes()
            .map(|a| {
                let a = a.unwrap();
                let key = String::from_utf8(a.key.as_ref().to_vec()).unwrap();
                (key, a.unescape_value().unwrap().into_owned())
            })
            .collect();
        let series = attrs
            .get("data-algo")
            .cloned()
            .or_else(|| open.last().and_then(|&i| out[i].series.clone()));
        Element {
            name: String::from_utf8(e.name().as_ref().to_vec()).unwrap(),
            attrs,
            text: String::new(),
            series,
        }
    };
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) => {
                let el = element(&e, &open, &out);
                out.push(el);
                open.push(out.len() - 1);
            }
            Event::Empty(e) => {
                let el = element(&e, &open, &out);
                out.push(el);
            }
            Event::End(_) => {
                open.pop().unwrap();
            }
            Event::Text(t) => {
                if let Some(&i) = open.last() {
                    out[i].text.push_str(&t.unescape().unwrap());
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(open.is_empty());
    out
}

/// WCAG 2 contrast of `#rrggbb` against white, from the relative luminance.
fn contrast_on_white(colour: &str) -> f64 {
    assert!(colour.len() == 7 && colour.starts_with('#'), "{colour}");
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&colour[i..i + 2], 16).unwrap()) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    1.05 / (luminance + 0.05)
}

/// A time tick's value in seconds: `250 µs`, `1.5 ms`, `10 s`; `None` for other text.
fn tick_seconds(label: &str) -> Option<f64> {
    let (number, unit) = label.split_once(' ')?;
    let scale = match unit {
        "µs" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        _ => return None,
    };
    let value: f64 = number.parse().ok()?;
    // The unit is chosen by the size: never 1000 of one unit, nor under 1 of ms or s.
    assert!(value < 1000.0, "{label}");
    assert!(unit == "µs" || value >= 1.0, "{label}");
    Some(value * scale)
}

#[test]
fn the_plot_is_readable_in_a_lesson() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("ladder.svg");
    let algos = [
        "permutations",
        "backtracking",
        "flags",
        "bitboard",
        "mirror",
        "cp",
    ];
    bench()
        .args(["4..=10", "--runs", "3", "--algos", &algos.join(",")])
        .arg("--plot")
        .arg(&plot)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&plot).unwrap();
    let all = elements(&svg);
    let texts: Vec<&Element> = all.iter().filter(|e| e.name == "text").collect();
    assert!(
        texts
            .iter()
            .any(|t| t.text.contains("median of up to 3 runs"))
    );
    // Every piece of text is at least 12 px and reads on white as text must (4.5:1).
    for t in &texts {
        assert!(t.number("font-size") >= 12.0, "{t:?}");
        let fill = t.attr("fill").unwrap();
        assert!(contrast_on_white(fill) >= 4.5, "{t:?}");
        assert!(!t.text.contains("e-"), "no powers of ten: {t:?}");
    }
    // The time axis in µs, ms and s, larger higher up, and spanning all three units here
    // (bitboard at N = 4 takes well under a millisecond, permutations at N = 10 milliseconds).
    let mut ticks: Vec<(f64, f64)> = texts
        .iter()
        .filter_map(|t| Some((t.number("y"), tick_seconds(&t.text)?)))
        .collect();
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(ticks.len() >= 3, "{ticks:?}");
    assert!(ticks.windows(2).all(|w| w[0].1 > w[1].1), "{ticks:?}");
    assert!(texts.iter().any(|t| t.text.ends_with(" µs")));
    assert!(texts.iter().any(|t| t.text.ends_with(" ms")));
    // Each algorithm: a line of 7 points, its colour and marks at least 3:1 against white, its
    // name at its end in its colour; and a dash or marker that tells it apart without colour.
    let mut cues = Vec::new();
    let mut labels = Vec::new();
    for algo in algos {
        let mine: Vec<&Element> = all
            .iter()
            .filter(|e| e.series.as_deref() == Some(algo) && e.name != "g")
            .collect();
        let line = mine.iter().find(|e| e.name == "polyline").unwrap();
        let points: Vec<(f64, f64)> = line
            .attr("points")
            .unwrap()
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(points.len(), 7, "{algo}");
        let colour = line.attr("stroke").unwrap();
        for e in &mine {
            for key in ["stroke", "fill"] {
                match e.attr(key) {
                    None | Some("none" | "#ffffff") => {}
                    Some(c) => assert!(contrast_on_white(c) >= 3.0, "{algo}: {e:?}"),
                }
            }
        }
        let marks: Vec<&&Element> = mine
            .iter()
            .filter(|e| ["circle", "rect", "polygon"].contains(&e.name.as_str()))
            .collect();
        assert_eq!(marks.len(), points.len(), "{algo}: a marker per point");
        cues.push((
            line.attr("stroke-dasharray").unwrap_or("").to_string(),
            marks[0].name.clone(),
            marks[0].attr("fill") == Some("#ffffff"),
        ));
        let label = texts
            .iter()
            .find(|t| t.text == algo && t.attr("class") == Some("end-label"))
            .unwrap_or_else(|| panic!("no end label for {algo}"));
        assert_eq!(label.attr("fill"), Some(colour));
        let (end_x, end_y) = *points.last().unwrap();
        let (x, y) = (label.number("x"), label.number("y"));
        assert!(x > end_x && x < end_x + 30.0, "{algo}: {x} after {end_x}");
        assert!((y - end_y).abs() < 17.0 * algos.len() as f64, "{algo}");
        labels.push((x, y, label.number("font-size"), algo.len()));
    }
    cues.sort();
    cues.dedup();
    assert_eq!(cues.len(), algos.len(), "{cues:?}");
    // No two end labels overlap: where their spans across overlap, they are a line apart.
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[..i] {
            let width = |l: &(f64, f64, f64, usize)| l.2 * 0.6 * l.3 as f64;
            if a.0 < b.0 + width(b) && b.0 < a.0 + width(a) {
                assert!((a.1 - b.1).abs() >= a.2.max(b.2), "{a:?} {b:?}");
            }
        }
    }
}
