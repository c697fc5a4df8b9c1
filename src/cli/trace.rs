//! `nqueens trace`: the search of one ladder algorithm, step by step.

use std::io::{self, BufWriter, Write};

use anyhow::Context;
use nqueens::algo::Algo;
use nqueens::trace;

use super::bad_input;

/// How a trace is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    /// A board per step (one line per step with --compact).
    Text,
    /// JSON Lines: a header, one object per step, a summary.
    Json,
    /// One animated SVG (SMIL, no script).
    Svg,
    /// A self-contained page with controls, the constraints and the search tree.
    Html,
    /// A storyboard for slides: one small board per placement (per step with --every-step).
    Storyboard,
}

impl TraceFormat {
    /// The most steps a trace in this format holds (a storyboard: the most it records).
    fn max_steps(self) -> usize {
        match self {
            TraceFormat::Text | TraceFormat::Json | TraceFormat::Storyboard => trace::MAX_STEPS,
            TraceFormat::Svg => trace::svg::MAX_STEPS,
            TraceFormat::Html => trace::html::MAX_STEPS,
        }
    }
}

/// Arguments of `nqueens trace`.
#[derive(clap::Args)]
#[command(
    after_help = "Steps: place (a queen put on a square), reject (a square refused: column, \
    diagonal \\ or /, symmetry, or propagation for cp), dead end, back up (a queen taken off), \
    solution. Rows and columns are numbered from 1. A search longer than the format holds \
    (300000 steps for text and json, 2000 for svg, 1000000 for html, 2000 boards for a \
    storyboard) is refused unless --limit asks for its first K steps (boards for a storyboard)."
)]
pub struct Args {
    /// Board size.
    n: usize,
    /// The algorithm of the ladder to watch.
    #[arg(long, value_name = "NAME", default_value = "backtracking")]
    algo: String,
    /// Show only the first K steps (for a storyboard, its first K boards).
    #[arg(long, value_name = "K")]
    limit: Option<usize>,
    /// One line per step instead of a board per step (text only).
    #[arg(long)]
    compact: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: TraceFormat,
    /// A second algorithm played beside the first on the same board, stepping together by
    /// placements (html only).
    #[arg(long, value_name = "NAME")]
    beside: Option<String>,
    /// A board for every step, not only for every placement (storyboard only).
    #[arg(long)]
    every_step: bool,
}

/// Runs `nqueens trace`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let algo: Algo = args.algo.parse().map_err(bad_input)?;
    algo.check_listing(args.n).map_err(bad_input)?;
    let name = format!("{:?}", args.format).to_lowercase();
    let max = args.format.max_steps();
    if args.compact && args.format != TraceFormat::Text {
        return Err(bad_input("--compact is for --format text"));
    }
    let storyboard = args.format == TraceFormat::Storyboard;
    let boards = args.limit.unwrap_or(trace::storyboard::MAX_BOARDS);
    if storyboard && boards > trace::storyboard::MAX_BOARDS {
        return Err(bad_input(format!(
            "--limit {boards} is more than a storyboard holds (at most {} boards)",
            trace::storyboard::MAX_BOARDS
        )));
    }
    let limit = match args.limit {
        Some(0) => return Err(bad_input("--limit must be at least 1")),
        // A storyboard's limit counts boards; it records as much of the search as text does.
        Some(_) if storyboard => max,
        Some(k) if k > max => {
            return Err(bad_input(format!(
                "--limit {k} is more than a {name} trace holds (at most {max} steps)"
            )));
        }
        Some(k) => k,
        None => max,
    };
    if args.beside.is_some() && args.format != TraceFormat::Html {
        return Err(bad_input("--beside is for --format html"));
    }
    if args.every_step && args.format != TraceFormat::Storyboard {
        return Err(bad_input("--every-step is for --format storyboard"));
    }
    if args.format == TraceFormat::Html && args.n > trace::html::MAX_N {
        return Err(bad_input(format!(
            "a page draws boards of at most {} rows, not {}",
            trace::html::MAX_N,
            args.n
        )));
    }
    let record = |algo: Algo| -> anyhow::Result<trace::Trace> {
        algo.check_listing(args.n).map_err(bad_input)?;
        let t = trace::record(algo, args.n, limit).map_err(bad_input)?;
        if storyboard && args.limit.is_none() {
            let drawn = trace::storyboard::boards(&t, args.every_step);
            if !t.complete || drawn > boards {
                return Err(bad_input(format!(
                    "the search of {algo} for N = {} draws more than {boards} boards, more than \
                     a storyboard holds; draw its first K boards with --limit K",
                    args.n
                )));
            }
        }
        if !t.complete && args.limit.is_none() {
            return Err(bad_input(format!(
                "the search of {algo} for N = {} takes more than {max} steps, more than a \
                 {name} trace holds; show its first K steps with --limit K",
                args.n
            )));
        }
        Ok(t)
    };
    let t = record(algo)?;
    let beside = match &args.beside {
        Some(other) => Some(record(other.parse().map_err(bad_input)?)?),
        None => None,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    match args.format {
        TraceFormat::Text => trace::text::write(&mut out, &t, args.compact),
        TraceFormat::Json => trace::json::write(&mut out, &t),
        TraceFormat::Svg => trace::svg::write(&mut out, &t),
        TraceFormat::Html => match &beside {
            Some(b) => trace::html::write_side_by_side(&mut out, &t, b),
            None => trace::html::write(&mut out, &t),
        },
        TraceFormat::Storyboard => trace::storyboard::write(&mut out, &t, args.every_step, boards),
    }
    .and_then(|()| out.flush())
    .or_else(|e| match e.kind() {
        // A reader that has seen enough (`| head`) is not a failure.
        io::ErrorKind::BrokenPipe => Ok(()),
        _ => Err(e),
    })
    .context("cannot write the trace")
}
