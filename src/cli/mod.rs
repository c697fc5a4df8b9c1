//! The command line: one module per subcommand, each with its `Args` and `run`.

use std::ops::RangeInclusive;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod bench;
mod complete;
mod count;
mod export;
mod find;
mod input;
mod merge;
mod outfile;
mod plot;
mod progress;
mod puzzle;
mod region;
mod signals;
mod sink;
mod solve;
mod stdout;
mod trace;
mod verify;

/// N-Queens: count, list, find, complete and verify placements of n non-attacking queens.
#[derive(Parser)]
#[command(name = "nqueens", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count all and unique solutions for N or a range A..=B.
    Count(count::Args),
    /// Print every solution (or the unique ones) for N, streamed.
    Solve(solve::Args),
    /// Find one solution for N, even for huge N.
    Find(find::Args),
    /// Complete a partial placement (fixed queens, blocked squares).
    Complete(complete::Args),
    /// Check placements read from a file or stdin.
    Verify(verify::Args),
    /// Make puzzles with exactly one completion (given queens, blocked squares).
    Puzzle(puzzle::Args),
    /// Queens with regions (the daily "Queens" game): solve, count, verify, generate, rate, draw.
    Region(region::Args),
    /// Run the ladder of algorithms side by side.
    Bench(bench::Args),
    /// Add up shard results into one count.
    Merge(merge::Args),
    /// Watch an algorithm search, step by step (text, JSON Lines, animated SVG, HTML).
    Trace(trace::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) to stdout, or write one page per subcommand to a folder.
    Man {
        /// Write `nqueens.1` and a page for each subcommand (`nqueens-count.1`, ...) into DIR,
        /// made if missing, instead of printing the main page.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

/// Examples and exit codes shown at the end of each subcommand's `--help`.
const HELP: [(&str, &str, &str); 12] = [
    (
        "count",
        "  nqueens count 16                          total and unique, all cores
  nqueens count 4..=18 --format csv         the reference documents' table
  nqueens count 12 --algo flags             one algorithm of the ladder
  nqueens count 21 --checkpoint run.ck      resumable: Ctrl-C, then the same command
  nqueens count 23 --shard 7/100 --out s7.json   one slice, for `nqueens merge`",
        "0 counted; 1 interrupted or a write failed; 2 bad usage, N out of range, over --max-memory, a checkpoint of another count",
    ),
    (
        "solve",
        "  nqueens solve 8\n  nqueens solve 10 --unique --format perm\n  nqueens solve 64 --limit 1",
        "0 listed; 2 bad usage or N out of range",
    ),
    (
        "find",
        "  nqueens find 1000000 > big.txt\n  nqueens find 1000 --random --seed 7",
        "0 a solution was printed; 1 no solution exists (N = 2 or 3) or --first ran out of time; 2 bad input (N = 0, N too large for the method, the format or the memory, bad flags)",
    ),
    (
        "complete",
        "  nqueens complete puzzle.txt\n  nqueens complete puzzle.txt --count --stats\n  printf '8\\nq 1 1\\n' | nqueens complete - --all --format perm",
        "0 completed (or counted); 1 no completion, or a limit was reached; 2 bad usage or a malformed instance",
    ),
    (
        "verify",
        "  nqueens solve 8 | nqueens verify\n  nqueens verify solutions.txt",
        "0 every placement is a solution; 1 some placement is not (two queens attack, in any form, a board row with two queens included, or a queen is off the board); 2 the input cannot be read, is malformed (reading stops at the first malformed record) or holds no placement",
    ),
    (
        "puzzle",
        "  nqueens puzzle 8\n  nqueens puzzle 12 --count 100 --seed 7 --minimal --format json > puzzles.jsonl\n  nqueens puzzle 32 --blocked --difficulty hard\n  nqueens puzzle 10 --seed 1 | nqueens complete --count",
        "0 made; 1 interrupted, or no puzzle of that difficulty found; 2 bad usage or N out of range",
    ),
    (
        "region",
        "  nqueens region generate 9 --count 10 --seed 7 > levels.txt
  nqueens region count levels.txt --limit 2      1 means unique
  nqueens region solve level.txt --format board
  nqueens region rate level.txt --steps
  nqueens region draw level.txt > level.svg",
        "0 done; 1 no solution, a placement breaking a rule, no hint, interrupted, or no puzzle of that difficulty; 2 bad usage or a malformed puzzle (named by its number)",
    ),
    (
        "bench",
        "  nqueens bench\n  nqueens bench 4..=16 --budget 2 --algos flags,bitboard,mirror\n  nqueens bench 4..=14 --plot ladder.svg --csv ladder.csv",
        "0 all counts agree; 1 some disagree, interrupted, or a write failed; 2 bad usage",
    ),
    (
        "merge",
        "  nqueens merge s*.json\n  nqueens merge s*.json --format json",
        "0 merged; 2 a shard missing, repeated, damaged or of another count",
    ),
    (
        "trace",
        "  nqueens trace 4\n  nqueens trace 6 --algo flags --compact\n  nqueens trace 6 --format html > t.html\n  nqueens trace 5 --format svg > t.svg",
        "0 traced; 2 bad usage, or a search longer than the format holds (see --limit)",
    ),
    (
        "completions",
        "  nqueens completions bash > /etc/bash_completion.d/nqueens",
        "0 printed; 2 bad usage",
    ),
    (
        "man",
        "  nqueens man > nqueens.1 && man ./nqueens.1\n  nqueens man --dir man1 && man -l man1/nqueens-count.1",
        "0 printed or written; 1 a page could not be written; 2 bad usage",
    ),
];

/// What every subcommand does with its standard output (see [`stdout`]), said in its help.
const OUTPUT_RULE: &str = "Output that cannot be written (a full disk, a closed standard \
    output) is exit 1; a reader that stops early (`| head`) ends the command quietly, with 0.";

/// The command-line definition, with examples and exit codes added to every subcommand.
fn command() -> clap::Command {
    let mut cmd = Cli::command();
    for (name, examples, codes) in HELP {
        cmd = cmd.mut_subcommand(name, |sub| {
            let before = sub
                .get_after_help()
                .map(|h| format!("{h}\n\n"))
                .unwrap_or_default();
            sub.after_help(format!(
                "{before}Examples:\n{examples}\n\nExit status: {codes}. {OUTPUT_RULE}"
            ))
        });
    }
    cmd
}

/// Prints help or the version, or a usage error as one line (`error: ...`, exit 2, like every
/// other bad input), and exits. Help and the version go to standard output under its one rule
/// (see [`stdout`]): a write that fails is an error, exit 1, not text silently lost.
fn exit_on_usage(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let what = if e.kind() == ErrorKind::DisplayHelp {
                "the help"
            } else {
                "the version"
            };
            let printed = stdout::refuse_closed().and_then(|()| {
                e.print()
                    .and_then(|()| std::io::Write::flush(&mut std::io::stdout()))
                    .map_err(|err| anyhow::Error::new(err).context(format!("cannot write {what}")))
            });
            match printed {
                Ok(()) => std::process::exit(0),
                Err(err) if is_broken_pipe(&err) => std::process::exit(0),
                Err(err) => {
                    eprintln!("error: {}", one_line(&err));
                    std::process::exit(1)
                }
            }
        }
        // Printed on standard error, as a usage error is.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            // clap's first paragraph, on one line; its usage hint follows a blank line.
            let text = e.render().to_string();
            let first = text.split("\n\n").next().unwrap_or("error: bad usage");
            eprintln!("{}", first.split_whitespace().collect::<Vec<_>>().join(" "));
            std::process::exit(2)
        }
    }
}

/// Parses the arguments and runs the subcommand.
pub fn run() -> anyhow::Result<()> {
    let cli = command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
        .unwrap_or_else(|e| exit_on_usage(e));
    if cli.command.prints_result() {
        stdout::refuse_closed()?;
    }
    match cli.command {
        Command::Completions { shell } => {
            // Made whole first: the generator panics on a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command(), "nqueens", &mut script);
            stdout::write_all(&script, "the completion script")
        }
        Command::Man { dir: None } => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command()).render(&mut page)?;
            stdout::write_all(&page, "the manual page")
        }
        Command::Man { dir: Some(dir) } => std::fs::create_dir_all(&dir)
            .and_then(|()| clap_mangen::generate_to(command(), &dir))
            .map_err(|e| {
                anyhow::anyhow!("cannot write the manual pages to {}: {e}", dir.display())
            }),
        Command::Count(a) => count::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Find(a) => find::run(a),
        Command::Complete(a) => complete::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Puzzle(a) => puzzle::run(a),
        Command::Region(a) => region::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Trace(a) => trace::run(a),
    }
}

impl Command {
    /// `true` if the command prints its result on standard output, rather than into files it
    /// is given.
    fn prints_result(&self) -> bool {
        match self {
            Command::Count(a) => a.prints_result(),
            Command::Man { dir } => dir.is_none(),
            _ => true,
        }
    }
}

/// An error caused by what the user gave (arguments, files): exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Wraps any displayable error as [`BadInput`], for `.map_err(bad_input)`.
pub fn bad_input(err: impl std::fmt::Display) -> anyhow::Error {
    BadInput(err.to_string()).into()
}

/// The error and its causes on one line, joined by `: `, each said once. Some errors already
/// put their cause in their own message (so that a library user's `to_string()` tells all);
/// a cause already said is not repeated, and line breaks inside a message become spaces.
///
/// A later cause is compared with everything said so far, so `a: b` followed by a cause `b`
/// gives `a: b` once.
pub fn one_line(err: &anyhow::Error) -> String {
    let mut said = String::new();
    for cause in err.chain() {
        let text = cause
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() || said.contains(&text) {
            continue;
        }
        if !said.is_empty() {
            said.push_str(": ");
        }
        said.push_str(&text);
    }
    said
}

/// `true` if the error is a write to a pipe whose reader has gone.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The exit code for an error: 2 if anything in its chain is bad input, else 1.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    if err.chain().any(|e| e.is::<BadInput>()) {
        2
    } else {
        1
    }
}

/// Parses `N` or `A..=B` (also `A..B`, exclusive, and `A-B`) into an inclusive range of sizes.
pub fn parse_range(s: &str) -> Result<RangeInclusive<usize>, String> {
    // The whole argument is quoted: one side of `4..=` alone would read as `""`.
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("{s:?} is not a board size or range (expected N or A..=B)"))
    };
    let range = if let Some((a, b)) = s.split_once("..=") {
        num(a)?..=num(b)?
    } else if let Some((a, b)) = s.split_once("..") {
        let b = num(b)?;
        if b == 0 {
            return Err(format!("{s:?} is an empty range"));
        }
        num(a)?..=b - 1
    } else if let Some((a, b)) = s.split_once('-') {
        num(a)?..=num(b)?
    } else {
        let n = num(s)?;
        n..=n
    };
    if range.is_empty() {
        return Err(format!("{s:?} is an empty range"));
    }
    Ok(range)
}

/// Parses a positive number of seconds (decimals allowed) into a duration; one too long to
/// represent (`1e308`, `inf`) is the longest there is, which every caller takes as no limit.
pub fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|&secs| secs > 0.0)
        .map(|secs| {
            std::time::Duration::try_from_secs_f64(secs).unwrap_or(std::time::Duration::MAX)
        })
        .ok_or_else(|| format!("{s:?} is not a positive number of seconds"))
}

/// Parses a byte count with an optional K, M, G or T suffix (powers of 1024).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("{s:?}: unknown size suffix (use K, M, G or T)")),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|v| v.checked_mul(1 << shift))
        .ok_or_else(|| format!("{s:?} is not a size in bytes (e.g. 512M)"))
}

pub use nqueens::memory::available_memory;

#[cfg(test)]
mod tests {
    use super::{one_line, parse_range};

    #[test]
    fn one_line_says_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        // A message that already holds its cause, as `CheckpointError::Io` does.
        let err = anyhow::Error::new(io).context("checkpoint /x: no such file");
        assert_eq!(one_line(&err), "checkpoint /x: no such file");
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such\nfile");
        let err = anyhow::Error::new(io).context("reading /y");
        assert_eq!(one_line(&err), "reading /y: no such file");
    }

    #[test]
    fn ranges() {
        assert_eq!(parse_range("8"), Ok(8..=8));
        assert_eq!(parse_range("4..=18"), Ok(4..=18));
        assert_eq!(parse_range("4..18"), Ok(4..=17));
        assert_eq!(parse_range("4-6"), Ok(4..=6));
        assert!(parse_range("6..=4").is_err());
        assert!(parse_range("x").is_err());
        assert!(parse_range("4..0").is_err());
    }
}
