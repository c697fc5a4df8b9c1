//! `nqueens solve`: print every solution (or one per symmetry class) for N, streamed.
//!
//! Solutions are written as they are found, never collected, so `solve 30 --limit 5` answers
//! at once and `solve 14 | head` stops the search when `head` has had enough (except an SVG
//! gallery, which is one document: see [`super::sink`]).

use std::io::{self, BufWriter};
use std::ops::ControlFlow;

use nqueens::Placement;
use nqueens::algo::Algo;
use nqueens::format::Format;

use super::bad_input;
use super::sink::Sink;

/// Boards up to this size are drawn by default; bigger ones are written as perm lines, since a
/// drawn board of N squares a side is 2N characters wide.
const BOARD_UP_TO: usize = 16;

/// Arguments of `nqueens solve`.
#[derive(clap::Args)]
#[command(
    after_help = "By default boards up to N = 16 are drawn (separated by blank lines) and \
    bigger ones are written as perm lines. The number of solutions written goes to stderr."
)]
pub struct Args {
    /// Board size: 1 to 64 (to the algorithm's limit with --algo).
    n: usize,
    /// Only one solution per symmetry class: the canonical (smallest) one.
    #[arg(long)]
    unique: bool,
    /// Stop after this many solutions.
    #[arg(long, value_name = "K")]
    limit: Option<u64>,
    /// Output format [default: board for N <= 16, else perm].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// List with this algorithm of the ladder (permutations, backtracking, flags, swap,
    /// bitboard, mirror, symmetry, parallel, cp) instead of the lazy search.
    #[arg(long, value_name = "NAME")]
    algo: Option<String>,
}

/// Runs `nqueens solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let n = args.n;
    let format = args.format.unwrap_or(if n <= BOARD_UP_TO {
        Format::Board
    } else {
        Format::Perm
    });
    let mut sink = Sink::new(BufWriter::new(io::stdout().lock()), n, format, args.limit);
    let mut emit = |p: &Placement| sink.emit(p);
    search(&args, &mut emit)?;
    let Some(written) = sink.finish()? else {
        return Ok(());
    };
    report(&args, written.count, written.cut);
    Ok(())
}

/// Hands every solution the arguments ask for to `emit`, in order, until it breaks.
fn search(args: &Args, emit: &mut dyn FnMut(&Placement) -> ControlFlow<()>) -> anyhow::Result<()> {
    let n = args.n;
    match &args.algo {
        Some(name) => {
            let algo: Algo = name.parse().map_err(bad_input)?;
            let unique = args.unique;
            algo.for_each_solution(n, &mut |p| {
                if unique && !p.is_canonical() {
                    return ControlFlow::Continue(());
                }
                emit(p)
            })
            .map_err(|e| {
                bad_input(format!(
                    "{e}; without --algo, solve lists N up to {}",
                    nqueens::solutions::MAX_N
                ))
            })?;
        }
        None if args.unique => {
            let _ = nqueens::unique_solutions(n)
                .map_err(bad_input)?
                .try_for_each(|p| emit(&p));
        }
        None => {
            let _ = nqueens::solutions(n)
                .map_err(bad_input)?
                .try_for_each(|p| emit(&p));
        }
    }
    Ok(())
}

/// Says on stderr how many solutions went out.
fn report(args: &Args, count: u64, cut: bool) {
    let what = match (args.unique, count == 1) {
        (true, true) => "unique solution",
        (true, false) => "unique solutions",
        (false, true) => "solution",
        (false, false) => "solutions",
    };
    match args.limit {
        Some(limit) if cut => eprintln!("{count} {what} (stopped at --limit {limit})"),
        _ => eprintln!("{count} {what}"),
    }
}
