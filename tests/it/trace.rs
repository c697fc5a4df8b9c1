//! Traces against the algorithms and independent oracles: the solutions a trace reports, the
//! nodes it visits, the boards its JSON Lines replay to, and well-formed SVG and HTML.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use nqueens::Placement;
use nqueens::algo::Algo;
use nqueens::cp::{Instance, Options, Solver};
use nqueens::observe::Work;
use nqueens::trace::{self, Event, Trace};
use quick_xml::events::Event as Xml;

fn record(algo: Algo, n: usize) -> Trace {
    let t = trace::record(algo, n, trace::MAX_STEPS).unwrap();
    assert!(t.complete, "{algo} {n}");
    t
}

fn listed(algo: Algo, n: usize) -> Vec<Vec<u32>> {
    let mut all = Vec::new();
    algo.for_each_solution(n, &mut |p| {
        all.push(p.cols().to_vec());
        ControlFlow::Continue(())
    })
    .unwrap();
    all
}

/// Every solution for `n`, by testing every ordering of the columns: the slow obvious oracle.
fn brute_force_solutions(n: usize) -> BTreeSet<Vec<u32>> {
    fn orderings(rest: Vec<u32>) -> Vec<Vec<u32>> {
        if rest.is_empty() {
            return vec![Vec::new()];
        }
        let mut all = Vec::new();
        for (i, &c) in rest.iter().enumerate() {
            let mut others = rest.clone();
            others.remove(i);
            for mut tail in orderings(others) {
                tail.insert(0, c);
                all.push(tail);
            }
        }
        all
    }
    orderings((0..n as u32).collect())
        .into_iter()
        .filter(|c| Placement::new(c.clone()).is_solution())
        .collect()
}

/// Every way to put queens on the first `k` rows of an `n` board, attacking or not.
fn boards(n: usize, k: usize) -> Vec<Vec<u32>> {
    (0..k).fold(vec![Vec::new()], |level, _| {
        level
            .into_iter()
            .flat_map(|cols| {
                (0..n as u32).map(move |c| {
                    let mut next = cols.clone();
                    next.push(c);
                    next
                })
            })
            .collect()
    })
}

fn peaceful(cols: &[u32]) -> bool {
    (0..cols.len())
        .all(|j| (0..j).all(|i| cols[i] != cols[j] && cols[i].abs_diff(cols[j]) as usize != j - i))
}

/// Partial placements of `k` peaceful queens on the first rows, `k = 1..=n`, that `keep`
/// accepts: the nodes of a row-by-row search tree pruned at the first conflict.
fn partial_placements(n: usize, keep: impl Fn(&[u32]) -> bool) -> usize {
    (1..=n)
        .map(|k| {
            boards(n, k)
                .iter()
                .filter(|c| peaceful(c) && keep(c))
                .count()
        })
        .sum()
}

#[test]
fn trace_solutions_are_solves_for_every_algorithm_up_to_8() {
    for n in 1..=8 {
        let oracle = brute_force_solutions(n);
        for algo in Algo::ALL {
            let t = record(algo, n);
            let traced: Vec<Vec<u32>> = t.solutions().map(<[u32]>::to_vec).collect();
            let mut solved = listed(algo, n);
            if algo == Algo::Parallel {
                // Threads hand solutions out in no fixed order; the trace walks them in one.
                solved.sort();
                let mut sorted = traced.clone();
                sorted.sort();
                assert_eq!(sorted, solved, "{algo} {n}");
            } else {
                assert_eq!(traced, solved, "{algo} {n}");
            }
            let set: BTreeSet<Vec<u32>> = traced.iter().cloned().collect();
            assert_eq!(set, oracle, "{algo} {n}");
            assert_eq!(set.len(), traced.len(), "{algo} {n}: a solution twice");
        }
    }
}

#[test]
fn placements_are_the_nodes_of_each_tree() {
    for n in 1..=7 {
        let all = partial_placements(n, |_| true);
        let half = n as u32 / 2;
        // mirror: the first queen in the left half, or (odd n from 5, where the second row
        // has a square left for it) in the middle over a second queen in the left half.
        let mirror = partial_placements(n, |c| {
            let middle = n % 2 == 1 && n >= 5 && c[0] == half;
            c[0] < half || (middle && c.get(1).is_none_or(|&c1| c1 < half))
        });
        let factorial = |k: usize| (1..=k).product::<usize>();
        let permutations: usize = (1..=n).map(|k| factorial(n) / factorial(n - k)).sum();
        for (algo, want) in [
            (Algo::Permutations, permutations),
            (Algo::Backtracking, all),
            (Algo::Flags, all),
            (Algo::Swap, all),
            (Algo::Bitboard, all),
            (Algo::Parallel, all),
            (Algo::Mirror, if n == 1 { 1 } else { mirror }),
        ] {
            let t = record(algo, n);
            assert_eq!(t.placements(), want, "{algo} {n}");
            assert_eq!(algo.work(n).unwrap().nodes as usize, want, "{algo} {n}");
        }
    }
}

#[test]
fn symmetry_visits_fewer_nodes_than_mirror_and_its_trace_agrees_with_its_work() {
    for n in 4..=9 {
        let t = record(Algo::Symmetry, n);
        let work = Algo::Symmetry.work(n).unwrap();
        assert_eq!(t.placements() as u64, work.nodes);
        assert_eq!(t.checks, work.checks);
        assert!(work.nodes < Algo::Mirror.work(n).unwrap().nodes, "{n}");
    }
}

#[test]
fn cp_placements_are_the_solvers_decisions_and_propagations() {
    for n in 1..=9 {
        let t = record(Algo::Cp, n);
        let mut solver = Solver::new(&Instance::new(n), Options::default());
        let (count, _) = solver.count();
        let stats = *solver.stats();
        let (mut decided, mut forced) = (0, 0);
        for e in &t.events {
            if let Event::Place { forced: f, .. } = e {
                if *f {
                    forced += 1;
                } else {
                    decided += 1;
                }
            }
        }
        assert_eq!((decided, forced), (stats.nodes, stats.propagations), "{n}");
        assert_eq!(t.solutions().count() as u64, count);
        let failures = t
            .events
            .iter()
            .filter(|e| matches!(e, Event::DeadEnd { row: None }))
            .count();
        assert_eq!(failures as u64, stats.failures, "{n}");
    }
}

#[test]
fn work_explains_the_ladder() {
    let w = |a: Algo| a.work(10).unwrap();
    let (bt, flags, swap, bits) = (
        w(Algo::Backtracking),
        w(Algo::Flags),
        w(Algo::Swap),
        w(Algo::Bitboard),
    );
    // The same tree...
    assert_eq!(bt.nodes, flags.nodes);
    assert_eq!(flags.nodes, swap.nodes);
    assert_eq!(swap.nodes, bits.nodes);
    // ...with ever fewer checks.
    assert!(bt.checks > flags.checks && flags.checks > swap.checks && swap.checks > bits.checks);
    for algo in Algo::ALL {
        assert_eq!(w(algo).solutions, 724, "{algo}");
    }
}

/// Replays JSON Lines (rows and columns from 1) onto a board of its own, checking every step is
/// legal, and returns the board (as row-major strings of `Q` and `.`) after each step.
fn replay(json: &str, check_attacks: bool) -> Vec<String> {
    let mut lines = json.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let n = header["n"].as_u64().unwrap() as usize;
    assert_eq!(header["numbering"], "from 1");
    let mut board: Vec<Option<u64>> = vec![None; n];
    let mut shown = Vec::new();
    let mut steps = 0;
    for line in lines {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v.get("end").is_some() {
            assert_eq!(v["steps"].as_u64().unwrap(), steps);
            break;
        }
        steps += 1;
        assert_eq!(v["step"].as_u64().unwrap(), steps);
        let (row, col) = (
            v["row"].as_u64().map(|r| r - 1),
            v["col"].as_u64().map(|c| c - 1),
        );
        match v["event"].as_str().unwrap() {
            "place" => {
                let (row, col) = (row.unwrap() as usize, col.unwrap());
                assert_eq!(board[row], None, "place on an occupied row: {line}");
                if check_attacks {
                    for (r, c) in board.iter().enumerate() {
                        if let Some(c) = *c {
                            assert!(
                                c != col && c.abs_diff(col) != r.abs_diff(row) as u64,
                                "{line}"
                            );
                        }
                    }
                }
                board[row] = Some(col);
            }
            "remove" => {
                let row = row.unwrap() as usize;
                assert_eq!(board[row], col, "remove of a queen not there: {line}");
                board[row] = None;
            }
            "solution" => {
                let cols: Vec<u32> = serde_json::from_value::<Vec<u32>>(v["cols"].clone())
                    .unwrap()
                    .iter()
                    .map(|c| c - 1)
                    .collect();
                let here: Vec<u32> = board.iter().map(|c| c.unwrap() as u32).collect();
                if v.get("image").is_some() {
                    let images = Placement::new(here).images().unwrap();
                    assert!(images.iter().any(|p| p.cols() == cols), "{line}");
                } else {
                    assert_eq!(here, cols, "{line}");
                }
            }
            "reject" | "dead_end" | "duplicate" => {}
            other => panic!("unknown event {other}"),
        }
        shown.push(
            (0..n)
                .map(|r| {
                    (0..n as u64)
                        .map(|c| if board[r] == Some(c) { 'Q' } else { '.' })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/"),
        );
    }
    shown
}

/// The queens of each board drawn by the text trace, in the same form as [`replay`]'s.
fn text_boards(text: &str, n: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("step "))
        .map(|(i, _)| {
            // The column numbers, then each row after its number.
            let numbers: Vec<String> = (1..=n).map(|c| c.to_string()).collect();
            assert_eq!(lines[i + 1].split_whitespace().collect::<Vec<_>>(), numbers);
            lines[i + 2..=i + 1 + n]
                .iter()
                .enumerate()
                .map(|(r, l)| {
                    let mut squares = l.split_whitespace();
                    assert_eq!(squares.next(), Some((r + 1).to_string().as_str()));
                    squares
                        .map(|s| if s == "Q" { 'Q' } else { '.' })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect()
}

#[test]
fn json_lines_replay_to_the_boards_of_the_text_trace() {
    for n in [1, 4, 5, 6] {
        for algo in Algo::ALL {
            let t = record(algo, n);
            let mut json = Vec::new();
            trace::json::write(&mut json, &t).unwrap();
            let json = String::from_utf8(json).unwrap();
            let boards = replay(&json, algo != Algo::Permutations);
            assert_eq!(boards.len(), t.events.len());
            let mut text = Vec::new();
            trace::text::write(&mut text, &t, false).unwrap();
            let text = String::from_utf8(text).unwrap();
            assert_eq!(text_boards(&text, n), boards, "{algo} {n}");
        }
    }
}

#[test]
fn json_lines_number_from_1_and_carry_the_running_checks() {
    let t = record(Algo::Mirror, 5);
    let mut json = Vec::new();
    trace::json::write(&mut json, &t).unwrap();
    let text = String::from_utf8(json).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let steps = &lines[1..lines.len() - 1];
    assert_eq!(steps.len(), t.events.len());
    for ((line, event), checks) in steps.iter().zip(&t.events).zip(&t.checks_at) {
        assert_eq!(line["checks"], *checks);
        let one = |v: usize| serde_json::json!(v + 1);
        match event {
            Event::Place { row, col, .. }
            | Event::Reject { row, col, .. }
            | Event::Remove { row, col } => {
                assert_eq!((&line["row"], &line["col"]), (&one(*row), &one(*col)));
            }
            Event::Solution { cols, .. } | Event::Duplicate { cols } => {
                let ones: Vec<u32> = cols.iter().map(|c| c + 1).collect();
                assert_eq!(line["cols"], serde_json::json!(ones));
            }
            Event::DeadEnd { row } => {
                assert_eq!(line["row"], serde_json::json!(row.map(|r| r + 1)))
            }
        }
    }
    // The running total ends at the trace's checks, and never goes down.
    assert!(t.checks_at.windows(2).all(|w| w[0] <= w[1]));
    assert!(*t.checks_at.last().unwrap() <= t.checks);
}

/// Parses `text` as XML, failing on any error; returns how many times each of `names` opens.
fn xml_counts(text: &str, names: &[&str]) -> Vec<usize> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut counts = vec![0; names.len()];
    loop {
        match reader.read_event().unwrap() {
            Xml::Start(e) | Xml::Empty(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                if let Some(i) = names.iter().position(|&n| n == name) {
                    counts[i] += 1;
                }
                for a in e.attributes() {
                    a.unwrap();
                }
            }
            Xml::Eof => break,
            _ => {}
        }
    }
    counts
}

#[test]
fn svg_and_html_are_well_formed() {
    for (algo, n) in [(Algo::Backtracking, 4), (Algo::Cp, 6), (Algo::Symmetry, 6)] {
        let t = record(algo, n);
        let mut svg = Vec::new();
        trace::svg::write(&mut svg, &t).unwrap();
        let svg = String::from_utf8(svg).unwrap();
        check_well_formed(&svg);
        let [svgs, scripts, animates] = xml_counts(&svg, &["svg", "script", "animate"])[..] else {
            unreachable!()
        };
        assert_eq!((svgs, scripts), (1, 0));
        assert!(animates > t.events.len(), "a caption per step and more");
        let mut html = Vec::new();
        trace::html::write(&mut html, &t).unwrap();
        let html = String::from_utf8(html).unwrap();
        check_well_formed(&html);
        let counts = xml_counts(&html, &["html", "script", "main"]);
        assert_eq!(counts, [1, 1, 1]);
        // The steps travel in the compact encoding, which decodes back to the events.
        let encoded = trace::html::encode(&t).unwrap();
        assert!(html.contains(&format!("\"steps\":\"{encoded}\"")));
        assert_eq!(decode(&encoded, n), t.events, "{algo} {n}");
    }
}

/// Reads the page's compact encoding back, as its script does: a test of [`trace::html::encode`].
fn decode(s: &str, n: usize) -> Vec<Event> {
    use nqueens::observe::Reason;
    const ALPHABET: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
    let b = s.as_bytes();
    let v = |i: usize| ALPHABET.find(b[i] as char).unwrap();
    let mut events = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let cols = |from: usize| (from..from + n).map(|j| v(j) as u32).collect::<Vec<u32>>();
        let (event, len) = match b[i] {
            b'P' | b'F' => (
                Event::Place {
                    row: v(i + 1),
                    col: v(i + 2),
                    forced: b[i] == b'F',
                },
                3,
            ),
            b'R' => (
                Event::Remove {
                    row: v(i + 1),
                    col: v(i + 2),
                },
                3,
            ),
            b'D' => (
                Event::DeadEnd {
                    row: (b[i + 1] != b'!').then(|| v(i + 1)),
                },
                2,
            ),
            b'S' | b'I' => (
                Event::Solution {
                    cols: cols(i + 1),
                    image: b[i] == b'I',
                },
                1 + n,
            ),
            b'U' => (Event::Duplicate { cols: cols(i + 1) }, 1 + n),
            k => {
                let reason = match k {
                    b'c' => Reason::Column,
                    b'd' => Reason::Diagonal,
                    b'a' => Reason::AntiDiagonal,
                    b'p' => Reason::Propagation,
                    b's' => Reason::Symmetry,
                    other => panic!("unknown record {}", other as char),
                };
                (
                    Event::Reject {
                        row: v(i + 1),
                        col: v(i + 2),
                        reason,
                    },
                    3,
                )
            }
        };
        events.push(event);
        i += len;
    }
    events
}

#[test]
fn whole_traces_of_8_and_10_fit_a_page() {
    // The sizes the issue asks for: 8 by backtracking at most 300 KB, 10 at most 3 MB, 8 by
    // permutations whole.
    for (algo, n, most) in [
        (Algo::Backtracking, 8, 300_000),
        (Algo::Backtracking, 10, 3_000_000),
        (Algo::Permutations, 8, 3_000_000),
    ] {
        let t = trace::record(algo, n, trace::html::MAX_STEPS).unwrap();
        assert!(t.complete, "{algo} {n}");
        let mut html = Vec::new();
        trace::html::write(&mut html, &t).unwrap();
        assert!(html.len() <= most, "{algo} {n}: {} bytes", html.len());
    }
    let t = trace::record(Algo::Backtracking, 10, trace::html::MAX_STEPS).unwrap();
    assert_eq!(t.solutions().count(), 724);
}

#[test]
fn side_by_side_needs_one_board_and_storyboards_are_one_document() {
    let (a, b) = (record(Algo::Flags, 5), record(Algo::Cp, 6));
    assert!(trace::html::write_side_by_side(&mut Vec::new(), &a, &b).is_err());
    let t = record(Algo::Backtracking, 5);
    for every_step in [false, true] {
        let mut svg = Vec::new();
        trace::storyboard::write(&mut svg, &t, every_step, trace::storyboard::MAX_BOARDS).unwrap();
        let svg = String::from_utf8(svg).unwrap();
        check_well_formed(&svg);
        let boards = if every_step {
            t.events.len()
        } else {
            t.placements() + t.solutions().count()
        };
        // One document: the outer picture and a small board per frame inside it.
        assert_eq!(xml_counts(&svg, &["svg"])[0], 1 + boards);
        assert!(svg.contains(&format!("{}. ", t.events.len())) || !every_step);
    }
}

/// Every element closes, in order: quick-xml checks end names against start names.
fn check_well_formed(text: &str) {
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut open = 0i64;
    loop {
        match reader.read_event() {
            Ok(Xml::Start(_)) => open += 1,
            Ok(Xml::End(_)) => open -= 1,
            Ok(Xml::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed at {}: {e}", reader.buffer_position()),
        }
        assert!(open >= 0);
    }
    assert_eq!(open, 0, "unclosed elements");
}

#[test]
fn a_limit_keeps_the_first_steps_of_the_whole_trace() {
    let whole = record(Algo::Flags, 6);
    for limit in [1, 10, 100] {
        let t = trace::record(Algo::Flags, 6, limit).unwrap();
        assert!(!t.complete);
        assert_eq!(t.events, whole.events[..limit]);
    }
    let exact = trace::record(Algo::Flags, 6, whole.events.len()).unwrap();
    assert!(exact.complete);
}

#[test]
fn the_plain_search_and_the_observed_one_list_the_same() {
    for algo in Algo::ALL {
        let mut work = Work::default();
        let mut seen = Vec::new();
        algo.observe(7, &mut work, &mut |p| {
            seen.push(p.clone());
            ControlFlow::Continue(())
        })
        .unwrap();
        let mut plain: Vec<Placement> = listed(algo, 7).into_iter().map(Placement::new).collect();
        if algo == Algo::Parallel {
            seen.sort();
            plain.sort();
        }
        assert_eq!(seen, plain, "{algo}");
        assert_eq!(work.solutions, 40);
    }
}

/// Queens come off in the reverse of the order they went on, in every rung's trace and in its
/// JSON Lines: the search backs up through the queens it placed, so the board, the caption and
/// the tree (whose path pops its last vertex on each back-up) agree. `cp` once took its queens
/// back in row order, which at N = 8 broke this at 183 of 999 back-ups.
#[test]
fn queens_come_off_last_placed_first() {
    for n in 1..=8 {
        for algo in Algo::ALL {
            let t = record(algo, n);
            let mut stack = Vec::new();
            for (i, e) in t.events.iter().enumerate() {
                match *e {
                    Event::Place { row, col, .. } => stack.push((row, col)),
                    Event::Remove { row, col } => {
                        assert_eq!(stack.pop(), Some((row, col)), "{algo} {n}, step {}", i + 1)
                    }
                    _ => {}
                }
            }
            let mut out = Vec::new();
            trace::json::write(&mut out, &t).unwrap();
            let mut stack = Vec::new();
            for line in String::from_utf8(out).unwrap().lines().skip(1) {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let at = (v["row"].as_u64(), v["col"].as_u64());
                match v["event"].as_str() {
                    Some("place") => stack.push(at),
                    Some("remove") => assert_eq!(stack.pop(), Some(at), "{algo} {n}: {line}"),
                    _ => {}
                }
            }
        }
    }
}

/// Each rejection's board in a storyboard draws its line of attack from the queen that rules
/// the square out, found here by an oracle of its own: the first queen in row order on the
/// board before the step that attacks the square the way the step names.
#[test]
fn storyboard_boards_draw_the_line_of_attack_and_are_numbered() {
    use nqueens::observe::Reason;
    let t = record(Algo::Flags, 5);
    let mut svg = Vec::new();
    trace::storyboard::write(&mut svg, &t, true, trace::storyboard::MAX_BOARDS).unwrap();
    let svg = String::from_utf8(svg).unwrap();
    let boards: Vec<&str> = svg.split("<svg x=").skip(1).collect();
    assert_eq!(boards.len(), t.events.len());
    let mut cols: Vec<Option<usize>> = vec![None; 5];
    for (event, board) in t.events.iter().zip(&boards) {
        // Numbers 1 to 5 above and to the left.
        for k in 1..=5 {
            assert_eq!(board.matches(&format!(">{k}</text>")).count(), 2, "{board}");
        }
        let line = board.split("<line class=\"attack\"").nth(1);
        if let Event::Reject { row, col, reason } = *event {
            let attacks = |r: usize, c: usize| match reason {
                Reason::Column => c == col,
                Reason::Diagonal => r as i64 - c as i64 == row as i64 - col as i64,
                Reason::AntiDiagonal => r + c == row + col,
                _ => false,
            };
            let (r, c) = (0..5)
                .filter_map(|r| cols[r].map(|c| (r, c)))
                .find(|&(r, c)| attacks(r, c))
                .unwrap();
            let want = format!(
                " x1=\"{}.5\" y1=\"{}.5\" x2=\"{}.5\" y2=\"{}.5\"",
                c, r, col, row
            );
            assert!(line.unwrap().starts_with(&want), "{event:?}: {board}");
            // The caption says why.
            assert!(
                board.contains(&format!(">{}</text>", reason.describe())),
                "{board}"
            );
        } else {
            assert!(line.is_none(), "{event:?}");
        }
        match *event {
            Event::Place { row, col, .. } => cols[row] = Some(col),
            Event::Remove { row, .. } => cols[row] = None,
            _ => {}
        }
    }
    // The limit counts boards.
    let mut five = Vec::new();
    trace::storyboard::write(&mut five, &t, false, 5).unwrap();
    assert_eq!(
        String::from_utf8(five).unwrap().matches("<svg").count(),
        1 + 5
    );
}
