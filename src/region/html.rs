//! A page to play a region puzzle: one self-contained HTML file (nothing fetched), with the
//! grid drawn as on the [SVG](super::svg) (light Okabe-Ito tints, thick borders between
//! regions, each region's letter in every cell), queens and crosses placed by mouse or
//! keyboard, undo, a check that names the rule broken, and a hint that is the rating solver's
//! next deduction with its reason (the page's script carries the same rules as
//! [`rate`], and the browser tests compare the two step by step).
//!
//! The page carries the board's regions and marks as JSON; its script does the rest.
//!
//! ```
//! let board = nqueens::region::Board::parse("AAAB\nCABB\nCCBD\nCCDD\n").unwrap();
//! let page = nqueens::region::html::page(&board);
//! assert!(page.starts_with("<!DOCTYPE html>") && page.contains("\"labels\":\"ABCD\""));
//! // Nothing is fetched: no sources, no links out.
//! assert!(!page.contains("src=") && !page.contains("https:"));
//! ```

use super::svg::{PALETTE, tints};
use super::{Board, rate};
use crate::format::page::Page;

#[derive(serde::Serialize)]
struct Data {
    n: usize,
    /// The region of each cell, row by row.
    regions: Vec<usize>,
    /// The letter of each region.
    labels: String,
    /// The tint of each region.
    tints: Vec<&'static str>,
    /// The board's marks, from 0.
    queens: Vec<[usize; 2]>,
    crosses: Vec<[usize; 2]>,
    /// The puzzle's rating without its marks, in words.
    rating: String,
}

/// The page that plays `board` from its marks (see the [module](self)).
pub fn page(board: &Board) -> String {
    let n = board.n();
    let rating = rate(&board.cleared());
    let cells = |cells: &[(usize, usize)]| cells.iter().map(|&(r, c)| [r, c]).collect();
    let data = Data {
        n,
        regions: board.regions().collect(),
        labels: (0..n).map(|g| board.label(g)).collect(),
        tints: tints(board).into_iter().map(|t| PALETTE[t]).collect(),
        queens: cells(board.queens()),
        crosses: cells(board.crosses()),
        rating: format!(
            "{} ({} steps of the rules{})",
            rating.difficulty,
            rating.steps.len(),
            if rating.stuck.is_some() {
                ", then no rule applies"
            } else {
                ""
            }
        ),
    };
    let data = serde_json::to_string(&data).expect("numbers and strings always serialise");
    // Letters, digits and the difficulty's words only: nothing to escape.
    let title = format!("Queens with regions, {n} x {n}");
    Page {
        title: &title,
        style: include_str!("page/play.css"),
        intro: "<p class=\"rules\">Place one queen in every row, every column and every coloured region; no two
queens may touch, not even diagonally. Each cell shows its region's letter, and thick lines
run between regions.</p>
",
        noscript: "The page needs JavaScript; the same puzzle as text: nqueens region draw --format text.",
        data_name: "PUZZLE",
        data: &data,
        script: include_str!("page/play.js"),
    }
    .render()
}
