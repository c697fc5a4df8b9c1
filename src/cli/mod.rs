//! The command line: one module per subcommand, each with its `Args` and `run`.

use std::ops::RangeInclusive;

use clap::{Parser, Subcommand};

mod bench;
mod complete;
mod count;
mod find;
mod merge;
mod progress;
mod sink;
mod solve;
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
    /// Run the ladder of algorithms side by side.
    Bench(bench::Args),
    /// Add up shard results into one count.
    Merge(merge::Args),
    /// Watch an algorithm search, step by step (text, JSON Lines, animated SVG, HTML).
    Trace(trace::Args),
}

/// Parses the arguments and runs the subcommand.
pub fn run() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Count(a) => count::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Find(a) => find::run(a),
        Command::Complete(a) => complete::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Trace(a) => trace::run(a),
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
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("{t:?} is not a board size (expected N or A..=B)"))
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

/// The memory available now (Linux), else 4 GiB.
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(4 << 30, |kb| kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::parse_range;

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
