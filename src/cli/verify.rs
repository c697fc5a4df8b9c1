//! `nqueens verify`: check placements read from a file or stdin.
//!
//! Records are read one at a time by [`nqueens::format::Reader`], which tells each record's
//! format from its first character, and checked as they come: a perm line of 10^8 queens
//! costs its columns and a few bits per row, and its result is printed before the next
//! record is read.

use std::io::{self, BufWriter, Write};

use anyhow::Context;
use nqueens::Placement;
use nqueens::format::{ReadError, Reader};

use super::bad_input;
use super::input::Input;

/// Placements with more queens than this are shown by their first and last columns only.
const SHOWN_IN_FULL: usize = 20;

/// Arguments of `nqueens verify`.
#[derive(clap::Args)]
#[command(
    after_help = "Reads any mix of the formats `solve` writes (perm lines, boards, JSON \
    lines, SVG pictures) and prints one line per placement: `ok N: columns` or `invalid N: why`."
)]
pub struct Args {
    /// The file to read; `-` or nothing for stdin.
    #[arg(default_value = "-", value_parser = Input::parser())]
    file: Input,
}

/// Runs `nqueens verify`.
pub fn run(args: Args) -> anyhow::Result<()> {
    // Big reads: a perm line of 10^8 queens is 900 MB of text.
    const BUFFER: usize = 1 << 20;
    let input = args.file.open(BUFFER)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let (mut seen, mut invalid) = (0u64, 0u64);
    // Columns cost 4 bytes a queen, up to twice that while their vector grows: a record that
    // could not fit in the memory available is refused when it passes that size, not when the
    // machine runs out.
    let max_n = usize::try_from(super::available_memory() / 16).unwrap_or(usize::MAX);
    for record in Reader::new(input).max_n(max_n) {
        let placement = match record {
            // Two queens in one row of a board: the same verdict as two in one column of a
            // perm line, though no placement can hold it.
            Err(attack @ ReadError::Attack { .. }) => {
                seen += 1;
                invalid += 1;
                writeln!(out, "invalid: {attack}").context("cannot write the results")?;
                continue;
            }
            // Malformed and unreadable input alike are the user's to fix: exit 2.
            other => other.map_err(bad_input)?,
        };
        seen += 1;
        let line = match placement.verify() {
            Ok(()) => format!("ok {}: {}", placement.n(), shown(&placement)),
            Err(defect) => {
                invalid += 1;
                format!("invalid {}: {defect}", placement.n())
            }
        };
        writeln!(out, "{line}").context("cannot write the results")?;
        // Each verdict is out before the next (perhaps huge) record is read.
        out.flush().context("cannot write the results")?;
    }
    if seen == 0 {
        return Err(bad_input("no placement in the input"));
    }
    let plural = if seen == 1 { "placement" } else { "placements" };
    if invalid > 0 {
        let verdict = if invalid == 1 {
            "is not a solution"
        } else {
            "are not solutions"
        };
        anyhow::bail!("{invalid} of {seen} {plural} {verdict}");
    }
    eprintln!("{seen} {plural}, all solutions");
    Ok(())
}

/// The 1-based columns, shortened to the first and last few for big boards.
fn shown(p: &Placement) -> String {
    let cols = p.cols();
    let join = |cs: &[u32]| {
        cs.iter()
            .map(|c| (c + 1).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if cols.len() <= SHOWN_IN_FULL {
        join(cols)
    } else {
        format!("{} ... {}", join(&cols[..8]), join(&cols[cols.len() - 3..]))
    }
}
