//! `nqueens find`: one solution for any N, by construction (default), at random, or the
//! lexicographically first one.

use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::RngCore;

use nqueens::format::{self, Format};
use nqueens::large::{self, construction, first, min_conflicts};

use super::signals;

/// The largest N drawn as a board: a 1000 x 1000 board is already 2 MB of dots.
const MAX_BOARD: usize = 1000;
/// The largest N drawn as an SVG picture: the picture is at most 800 pixels wide, so beyond
/// that a square would be smaller than a pixel.
const MAX_SVG: usize = 800;

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
    let n = check_n(&args)?;
    if matches!(n, 2 | 3) {
        bail!(
            "no solution exists for N={n}: N queens fit on an N x N board only for N = 1 and N >= 4"
        );
    }
    check_format(n, args.format)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let written = if args.first {
        // A limit too far away to represent is no limit.
        let deadline = Instant::now().checked_add(args.time_limit);
        let placement = match large::first(n, deadline) {
            Ok(p) => p.context("backtracking found no solution")?,
            Err(timeout) => bail!(
                "--first found no solution for N={n} within {} s ({} queens placed); \
                 without --first a solution comes at once",
                args.time_limit.as_secs_f64(),
                timeout.nodes
            ),
        };
        format::write(&mut out, &placement, args.format)
    } else if args.random {
        let need = min_conflicts::memory_bytes(n);
        let limit = args.max_memory.unwrap_or_else(super::available_memory);
        if need > limit {
            return Err(super::bad_input(format!(
                "--random for N={n} needs about {} of memory, more than the limit of {} \
                 (raise --max-memory, or drop --random: the construction streams any N in \
                 constant memory)",
                super::human_bytes(need),
                super::human_bytes(limit)
            )));
        }
        let seed = args.seed.unwrap_or_else(|| {
            let seed = rand::rngs::OsRng.next_u64();
            eprintln!("seed: {seed}");
            seed
        });
        let (placement, _) = large::min_conflicts_unless_stopped(n, seed, signals::stop_flag())
            .map_err(|e| match e {
                // The estimate above let it through, but the memory was not there.
                large::Unfinished::OutOfMemory(_) => super::bad_input(format!(
                    "--random for N={n}: {e} (lower N, or drop --random: the construction \
                     streams any N in constant memory)"
                )),
                large::Unfinished::Stopped => e.into(),
            })?
            .context("min-conflicts found no solution")?;
        format::write(&mut out, &placement, args.format)
    } else {
        let construction =
            large::Construction::new(n).context("the construction has no solution")?;
        large::write_streamed(&mut out, n, construction.cols(), args.format)
    };
    match written.and_then(|()| out.flush()) {
        // A reader that stops early (`| head`) is not an error of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write the solution"),
    }
}

/// N as a `usize`, within the limits of the chosen method.
fn check_n(args: &Args) -> anyhow::Result<usize> {
    if args.n == 0 {
        return Err(super::bad_input("N must be at least 1"));
    }
    let (max, method) = if args.first {
        (first::MAX_N, "--first (backtracking)")
    } else if args.random {
        (min_conflicts::MAX_N, "--random")
    } else {
        (construction::MAX_N, "the construction")
    };
    match usize::try_from(args.n) {
        Ok(n) if n <= max => Ok(n),
        _ => Err(super::bad_input(format!(
            "N={} is too large for {method}: at most {max}",
            args.n
        ))),
    }
}

/// Refuses formats that would be unreadably large for N (`find` and `complete`).
pub(super) fn check_format(n: usize, format: Format) -> anyhow::Result<()> {
    let (max, why) = match format {
        Format::Perm | Format::Json => return Ok(()),
        Format::Board => (MAX_BOARD, "a board has N x N cells"),
        Format::Svg => (MAX_SVG, "the picture is at most 800 pixels wide"),
    };
    if n > max {
        let name = format!("{format:?}").to_lowercase();
        return Err(super::bad_input(format!(
            "--format {name} is limited to N <= {max} ({why}); use --format perm for N={n}"
        )));
    }
    Ok(())
}
