//! `nqueens solve`: print every solution (or one per symmetry class) for N, streamed.
//!
//! Solutions are written as they are found, never collected, so `solve 30 --limit 5` answers
//! at once and `solve 14 | head` stops the search when `head` has had enough.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;

use anyhow::Context;
use nqueens::algo::Algo;
use nqueens::format::{self, Format};
use nqueens::Placement;

use super::bad_input;

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
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut written = 0u64;
    // Set only when a solution beyond the limit turns up, so a limit that happens to equal
    // the number of solutions is not reported as a cut.
    let mut stopped = false;
    let mut failure = None;
    let mut emit = |p: &Placement| {
        if written == limit {
            stopped = true;
            return ControlFlow::Break(());
        }
        match format::write(&mut out, p, format) {
            Ok(()) => {
                written += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        }
    };
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
            .map_err(bad_input)?;
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
    let flushed = match failure {
        Some(e) => Err(e),
        None => out.flush(),
    };
    match flushed {
        // The reader went away (`solve 12 | head`): it has what it wanted.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        other => other.context("cannot write the solutions")?,
    }
    let what = match (args.unique, written == 1) {
        (true, true) => "unique solution",
        (true, false) => "unique solutions",
        (false, true) => "solution",
        (false, false) => "solutions",
    };
    if stopped {
        eprintln!("{written} {what} (stopped at --limit {limit})");
    } else {
        eprintln!("{written} {what}");
    }
    Ok(())
}
