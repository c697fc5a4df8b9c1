//! `nqueens find`: one solution for any N, by construction (default), at random, or the
//! lexicographically first one.

use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use anyhow::Context;
use rand::RngCore;

use nqueens::format::{self, Format};
use nqueens::large::{self, FindError, Finder, How};

use super::signals;

/// Arguments of `nqueens find`.
#[derive(clap::Args)]
#[command(after_help = "\
Methods:
  (default)  explicit construction: the same solution every time, any N up to 4294967295,
             streamed row by row in constant memory
  --random   min-conflicts local search: a random solution, N up to 4294967295 (4.5 bytes of
             memory per queen, refused past --max-memory); the same --seed gives the same
             solution on every machine
  --first    the lexicographically first solution by backtracking, N up to 64; can take
             very long for some N, hence --time-limit")]
pub struct Args {
    /// Board size N.
    n: u64,
    /// A random solution by min-conflicts local search instead of the fixed construction.
    #[arg(long, conflicts_with = "first")]
    random: bool,
    /// Seed for --random; without it a fresh seed is drawn and printed on stderr as `seed: S`.
    #[arg(long, requires = "random")]
    seed: Option<u64>,
    /// The lexicographically first solution (what backtracking prints first).
    #[arg(long)]
    first: bool,
    /// Seconds --first may search before giving up (exit 1).
    #[arg(
        long,
        value_name = "SECS",
        default_value = "60",
        requires = "first",
        allow_negative_numbers = true,
        value_parser = super::parse_seconds
    )]
    time_limit: Duration,
    /// Refuse --random if it would need more memory than this (bytes; K, M, G suffixes; about
    /// 5 bytes a queen) [default: the memory available now, or 4G where that is unknown].
    #[arg(long, value_parser = super::parse_bytes, requires = "random")]
    max_memory: Option<u64>,
    /// Output format (perm and json for any N, board up to N=1000, svg up to N=800).
    #[arg(long, value_enum, default_value_t = Format::Perm)]
    format: Format,
}

/// Runs `nqueens find`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut finder = Finder::new(args.n);
    if args.first {
        // A limit too far away to represent is no limit.
        finder = finder.first(Instant::now().checked_add(args.time_limit));
    } else if args.random {
        // The seed is drawn after the checks, so a refused run prints none.
        finder = finder.random(0);
    } else {
        finder = finder.streamed();
    }
    if let Some(limit) = args.max_memory {
        finder = finder.max_memory(limit);
    }
    let n = finder.check().map_err(find_error)?;
    check_format(n, args.format)?;
    if args.random {
        let seed = args.seed.unwrap_or_else(|| {
            let seed = rand::rngs::OsRng.next_u64();
            eprintln!("seed: {seed}");
            seed
        });
        finder = finder.random(seed);
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let written = match finder.how() {
        How::Construction => {
            let construction =
                large::Construction::new(n).context("the construction has no solution")?;
            large::write_streamed(&mut out, n, construction.cols(), args.format)
        }
        How::Random { .. } | How::First { .. } => {
            let placement =
                finder
                    .find_unless_stopped(signals::stop_flag())
                    .map_err(|e| match e {
                        FindError::TimedOut { nodes, .. } => anyhow::anyhow!(
                            "--first found no solution for N={n} within {} s ({nodes} queens \
                         placed); without --first a solution comes at once",
                            args.time_limit.as_secs_f64()
                        ),
                        e => find_error(e),
                    })?;
            format::write(&mut out, &placement, args.format)
        }
    };
    match written.and_then(|()| out.flush()) {
        // A reader that stops early (`| head`) is not an error of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write the solution"),
    }
}

/// A find error as the command line reports it: bad input (exit 2) where it is, exit 1 for
/// the rest (no solution, stopped, the memory not there after all).
fn find_error(e: FindError) -> anyhow::Error {
    match e {
        // The estimate let it through, but the memory was not there: the limit was wrong.
        FindError::OutOfMemory { n, source } => super::bad_input(format!(
            "--random for N={n}: {source} (lower N, or drop --random: the construction streams \
             any N in constant memory)"
        )),
        FindError::Memory { .. } => super::bad_input(format!("{e}: see --max-memory")),
        e if e.is_bad_input() => super::bad_input(e),
        e => e.into(),
    }
}

/// Refuses formats that would be unreadably large for N (`find` and `complete`), by the
/// library's rule.
pub(super) fn check_format(n: usize, format: Format) -> anyhow::Result<()> {
    format
        .check(n)
        .map_err(|e| super::bad_input(format!("--format {e}; use --format perm for N={n}")))
}
