//! HTML traces: a self-contained page (no network) that plays the search with controls, the
//! constraints of the algorithm beside the board, its pseudocode with the current line lit, and
//! the search tree with zoom, pan, an overview and click-to-jump.
//!
//! The page carries the steps in a compact encoding ([`encode`]), three characters a step, and
//! its script rebuilds the boards, the counters and the tree from them: the whole search of
//! 8 queens by backtracking (18,512 steps) is a page of about 140 KB, and of 10 queens (all
//! 724 solutions, 396,462 steps) about 1.6 MB. The page is also well-formed XML, and
//! `#step=K` in its address shows step K, on opening and whenever it changes.
//!
//! ```
//! use nqueens::algo::Algo;
//! let t = nqueens::trace::record(Algo::Backtracking, 4, 1000).unwrap();
//! let mut out = Vec::new();
//! nqueens::trace::html::write(&mut out, &t).unwrap();
//! let page = String::from_utf8(out).unwrap();
//! assert!(page.starts_with("<!DOCTYPE html>"));
//! // Nothing is fetched: no sources, no links out.
//! assert!(!page.contains("src=") && !page.contains("https:"));
//! ```

use std::fmt::Write as _;
use std::io::{self, Write};

use super::svg::escape;
use super::{Event, Trace};
use crate::format::page::Page;
use crate::observe::Reason;

/// The most steps a page holds: the whole search of 10 queens by backtracking (396,462 steps)
/// and of 8 by permutations (259,512), with room to spare.
pub const MAX_STEPS: usize = 1_000_000;

/// The largest board a page draws: a row or column is one character of [`encode`]'s alphabet.
pub const MAX_N: usize = 64;

/// The characters that stand for the numbers 0 to 63 in [`encode`].
const ALPHABET: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/// The steps of `trace` in the page's compact encoding, one record per step, each a letter
/// for what happened followed by fixed-width numbers (0-based, one character each from
/// `0-9A-Za-z-_`):
///
/// | record | step |
/// |---|---|
/// | `P` row col | place a queen (`F`: forced by propagation) |
/// | `c`, `d`, `a`, `p`, `s` row col | reject: column, diagonal `\`, anti-diagonal `/`, propagation, symmetry |
/// | `R` row col | take a queen back |
/// | `D` row | dead end (`D!`: propagation emptied a line) |
/// | `S` n columns | solution (`I`: an image by symmetry; `U`: a duplicate dropped) |
///
/// ```
/// use nqueens::algo::Algo;
/// let t = nqueens::trace::record(Algo::Backtracking, 4, 3).unwrap();
/// assert_eq!(nqueens::trace::html::encode(&t).unwrap(), "P00c10d11");
/// ```
///
/// # Errors
/// A board of more than [`MAX_N`] rows.
pub fn encode(trace: &Trace) -> io::Result<String> {
    if trace.n > MAX_N {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "a page draws boards of at most {MAX_N} rows, not {}",
                trace.n
            ),
        ));
    }
    let digit = |v: usize| ALPHABET[v] as char;
    let mut s = String::with_capacity(trace.events.len() * 3);
    for event in &trace.events {
        match event {
            Event::Place { row, col, forced } => {
                s.push(if *forced { 'F' } else { 'P' });
                s.push(digit(*row));
                s.push(digit(*col));
            }
            Event::Reject { row, col, reason } => {
                s.push(match reason {
                    Reason::Column => 'c',
                    Reason::Diagonal => 'd',
                    Reason::AntiDiagonal => 'a',
                    Reason::Propagation => 'p',
                    Reason::Symmetry => 's',
                });
                s.push(digit(*row));
                s.push(digit(*col));
            }
            Event::Remove { row, col } => {
                s.push('R');
                s.push(digit(*row));
                s.push(digit(*col));
            }
            Event::DeadEnd { row } => {
                s.push('D');
                s.push(row.map_or('!', digit));
            }
            Event::Solution { cols, image } => {
                s.push(if *image { 'I' } else { 'S' });
                cols.iter().for_each(|&c| s.push(digit(c as usize)));
            }
            Event::Duplicate { cols } => {
                s.push('U');
                cols.iter().for_each(|&c| s.push(digit(c as usize)));
            }
        }
    }
    Ok(s)
}

/// The check counts of `trace` step by step: for each step, the checks made since the one
/// before, a character of the alphabet under 62 (`0-9A-Za-z`), else `~`, decimal digits, `.`.
fn encode_checks(trace: &Trace) -> String {
    let mut s = String::with_capacity(trace.events.len());
    let mut before = 0;
    for &at in &trace.checks_at {
        let d = at - before;
        before = at;
        if d < 62 {
            s.push(ALPHABET[d as usize] as char);
        } else {
            let _ = write!(s, "~{d}.");
        }
    }
    s
}

/// Writes `trace` as a self-contained HTML page (see the [module](self)).
///
/// # Errors
/// Those of `out`, or a board of more than [`MAX_N`] rows.
pub fn write(out: &mut impl Write, trace: &Trace) -> io::Result<()> {
    write_page(out, &[trace])
}

/// Writes a page that plays two traces of the same board side by side, stepping together by
/// placements (the k-th queen placed by each), each with its own board, constraints, counters
/// and tree.
///
/// ```
/// use nqueens::algo::Algo;
/// use nqueens::trace::{html, record};
/// let (a, b) = (record(Algo::Flags, 5, 1000).unwrap(), record(Algo::Bitboard, 5, 1000).unwrap());
/// let mut out = Vec::new();
/// html::write_side_by_side(&mut out, &a, &b).unwrap();
/// let page = String::from_utf8(out).unwrap();
/// assert!(page.contains("\"algo\":\"flags\"") && page.contains("\"algo\":\"bitboard\""));
/// ```
///
/// # Errors
/// Those of `out`, boards of different sizes, or a board of more than [`MAX_N`] rows.
pub fn write_side_by_side(out: &mut impl Write, left: &Trace, right: &Trace) -> io::Result<()> {
    if left.n != right.n {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "side by side needs one board size, not {} and {}",
                left.n, right.n
            ),
        ));
    }
    write_page(out, &[left, right])
}

#[derive(serde::Serialize)]
struct Data<'a> {
    n: usize,
    algo: &'a str,
    complete: bool,
    steps: String,
    checks: String,
}

fn write_page(out: &mut impl Write, traces: &[&Trace]) -> io::Result<()> {
    let mut data = Vec::new();
    for t in traces {
        data.push(Data {
            n: t.n,
            algo: t.algo.name(),
            complete: t.complete,
            steps: encode(t)?,
            checks: encode_checks(t),
        });
    }
    let data = serde_json::to_string(&data).map_err(io::Error::other)?;
    let names: Vec<String> = traces
        .iter()
        .map(|t| {
            format!(
                "{}: {} steps{}",
                t.algo,
                t.events.len(),
                if t.complete {
                    ""
                } else {
                    " (the start of the search)"
                }
            )
        })
        .collect();
    let title = format!("{} queens, {}", traces[0].n, names.join(" beside "));
    let page = Page {
        title: &escape(&title),
        style: include_str!("page/player.css"),
        intro: "",
        noscript: "The player needs JavaScript; the same trace as text: nqueens trace N --compact.",
        data_name: "TRACES",
        data: &data,
        script: include_str!("page/player.js"),
    }
    .render();
    out.write_all(page.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::Algo;

    #[test]
    fn check_counts_of_62_and_more_are_written_out() {
        let place = |row| Event::Place {
            row,
            col: 0,
            forced: false,
        };
        let t = Trace {
            n: 4,
            algo: Algo::Backtracking,
            events: vec![place(0), place(1), place(2), place(3)],
            checks: 300,
            checks_at: vec![0, 61, 123, 300],
            complete: true,
        };
        assert_eq!(encode_checks(&t), "0z~62.~177.");
        assert_eq!(encode(&t).unwrap(), "P00P10P20P30");
    }

    #[test]
    fn boards_beyond_the_alphabet_are_refused() {
        let t = Trace {
            n: MAX_N + 1,
            algo: Algo::Bitboard,
            events: Vec::new(),
            checks: 0,
            checks_at: Vec::new(),
            complete: false,
        };
        assert!(encode(&t).is_err());
        assert!(write(&mut Vec::new(), &t).is_err());
    }
}
