//! `nqueens puzzle`: puzzles with exactly one completion, streamed in order as they are made.

use std::io::{self, BufWriter, Write};

use anyhow::Context;
use rand::RngCore;

use nqueens::puzzle::{Difficulty, Generator, PuzzleError, write_board, write_json};

use super::{bad_input, signals};

/// How to write puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PuzzleFormat {
    /// A `#` line with the measures, the drawing (`Q` given, `x` blocked, `.` free), the
    /// solution in a `#` line, a blank line.
    Board,
    /// One JSON object per line: givens, blocked squares, solution ("columns"), measures.
    Json,
}

/// Arguments of `nqueens puzzle`.
#[derive(clap::Args)]
#[command(after_help = "\
Every puzzle has exactly one completion, proved by counting its completions with a limit of 2;
`nqueens complete` reads either format back (one puzzle at a time) and `nqueens verify` checks
the solutions in JSON. Difficulty is the completion solver's effort (docs/puzzle.md): easy needs
no guess, medium needs guesses each settled by propagation alone, hard needs nested guesses.")]
pub struct Args {
    /// Board size N (4 to 64).
    n: u64,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Seed: the same seed gives the same puzzles; without it a fresh seed is drawn and printed
    /// on stderr as `seed: S`.
    #[arg(long)]
    seed: Option<u64>,
    /// Clues may be blocked squares as well as given queens.
    #[arg(long)]
    blocked: bool,
    /// Only puzzles of this difficulty.
    #[arg(long, value_enum)]
    difficulty: Option<Difficulty>,
    /// Only minimal puzzles: taking away any clue leaves more than one completion.
    #[arg(long)]
    minimal: bool,
    /// How to write puzzles.
    #[arg(long, value_enum, default_value_t = PuzzleFormat::Board)]
    format: PuzzleFormat,
    /// Threads (all cores by default); the output is the same for any number.
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
}

/// Runs `nqueens puzzle`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let n = usize::try_from(args.n).unwrap_or(usize::MAX);
    let generator = Generator::new(n).map_err(bad_input)?;
    let seed = args.seed.unwrap_or_else(|| {
        let seed = rand::rngs::OsRng.next_u64();
        eprintln!("seed: {seed}");
        seed
    });
    let mut generator = generator
        .seed(seed)
        .blocked(args.blocked)
        .minimal(args.minimal)
        .difficulty(args.difficulty)
        .stop_when(signals::stop_flag());
    if let Some(threads) = args.threads {
        generator = generator.threads(threads as usize);
    }
    let mut out = BufWriter::new(io::stdout().lock());
    for (number, puzzle) in (1..).zip(generator.puzzles(args.count)) {
        let puzzle = match puzzle {
            Ok(p) => p,
            Err(PuzzleError::Stopped) => {
                out.flush().ok();
                anyhow::bail!("interrupted after {} puzzle(s)", number - 1);
            }
            Err(e) => {
                out.flush().ok();
                return Err(e.into());
            }
        };
        let written = match args.format {
            PuzzleFormat::Board => write_board(&mut out, &puzzle, number),
            PuzzleFormat::Json => write_json(&mut out, &puzzle),
        };
        // Each puzzle is out before the next is made: a long run streams.
        match written.and_then(|()| out.flush()) {
            // A reader that stops early (`| head`) is not an error of ours.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            other => other.context("cannot write the puzzles")?,
        }
    }
    Ok(())
}
