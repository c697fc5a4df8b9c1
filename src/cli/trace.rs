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
    /// A self-contained page with controls and the search tree.
    Html,
}

impl TraceFormat {
    /// The most steps a trace in this format holds.
    fn max_steps(self) -> usize {
        match self {
            TraceFormat::Text | TraceFormat::Json => trace::MAX_STEPS,
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
    solution. A search longer than the format holds (300000 steps for text and json, 2000 for \
    svg, 20000 for html) is refused unless --limit asks for its first K steps."
)]
pub struct Args {
    /// Board size.
    n: usize,
    /// The algorithm of the ladder to watch.
    #[arg(long, value_name = "NAME", default_value = "backtracking")]
    algo: String,
    /// Show only the first K steps.
    #[arg(long, value_name = "K")]
    limit: Option<usize>,
    /// One line per step instead of a board per step (text only).
    #[arg(long)]
    compact: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: TraceFormat,
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
    let limit = match args.limit {
        Some(0) => return Err(bad_input("--limit must be at least 1")),
        Some(k) if k > max => {
            return Err(bad_input(format!(
                "--limit {k} is more than a {name} trace holds (at most {max} steps)"
            )));
        }
        Some(k) => k,
        None => max,
    };
    let t = trace::record(algo, args.n, limit).map_err(bad_input)?;
    if !t.complete && args.limit.is_none() {
        return Err(bad_input(format!(
            "the search of {algo} for N = {} takes more than {max} steps, more than a {name} \
             trace holds; show its first K steps with --limit K",
            args.n
        )));
    }
    let mut out = BufWriter::new(io::stdout().lock());
    match args.format {
        TraceFormat::Text => trace::text::write(&mut out, &t, args.compact),
        TraceFormat::Json => trace::json::write(&mut out, &t),
        TraceFormat::Svg => trace::svg::write(&mut out, &t),
        TraceFormat::Html => trace::html::write(&mut out, &t),
    }
    .and_then(|()| out.flush())
    .or_else(|e| match e.kind() {
        // A reader that has seen enough (`| head`) is not a failure.
        io::ErrorKind::BrokenPipe => Ok(()),
        _ => Err(e),
    })
    .context("cannot write the trace")
}
