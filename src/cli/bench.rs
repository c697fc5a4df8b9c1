//! `nqueens bench`: the ladder side by side, as in the reference documents' timing tables.
//!
//! Each cell counts the solutions for one N with one algorithm and records the time. Once a
//! cell takes longer than the budget, that algorithm sits out the bigger boards (each N costs
//! several times the one before, so the next cell would only be longer). The counts of all
//! algorithms for an N must agree; a disagreement is marked in the table and fails the run.

use std::io::{self, Write};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use nqueens::algo::{Algo, Counts};
use nqueens::observe::Work;

use super::export::{Exporter, Output, Record, Value};
use super::outfile::OutFile;
use super::{bad_input, parse_range, progress};

/// Arguments of `nqueens bench`.
#[derive(clap::Args)]
#[command(
    after_help = "Cells: the time of one count; `-` where the algorithm sat out (over \
    the budget on a smaller N, or N beyond its limit). The total and unique columns come from \
    the algorithms that ran; a `!` after a time marks a count that disagrees with the others \
    (and the command then exits 1). Rows stop at the largest N any chosen algorithm handles. \
    With --nodes each cell adds `Nn Cc`: N nodes visited (queens placed) and C square checks \
    (one per square tested; one per pair compared for permutations and backtracking; one per \
    row's mask for the bitboards)."
)]
pub struct Args {
    /// Sizes: N or A..=B (also A..B, A-B) [default: 4..=14].
    #[arg(value_name = "RANGE", value_parser = parse_range)]
    range: Option<RangeInclusive<usize>>,
    /// Sizes, as the positional argument.
    #[arg(long = "range", value_name = "RANGE", conflicts_with = "range", value_parser = parse_range)]
    range_flag: Option<RangeInclusive<usize>>,
    /// Seconds per cell: an algorithm whose cell takes longer skips the bigger N.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = super::parse_seconds)]
    budget: Duration,
    /// Comma-separated algorithms, in column order [default: the whole ladder].
    #[arg(long, value_name = "A,B,C", value_parser = parse_algos)]
    algos: Option<AlgoList>,
    /// Also write the cells as JSON Lines to this file (one object per cell).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write the cells as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also draw the table as an SVG picture: time against N on a log scale, a line per
    /// algorithm.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Also report nodes visited and square checks made per algorithm and N (a second,
    /// untimed search that counts them; `parallel` counts the bitboard tree it splits).
    #[arg(long)]
    nodes: bool,
}

/// The algorithms of `--algos`, in column order.
#[derive(Clone)]
struct AlgoList(Vec<Algo>);

/// Parses `--algos`: names separated by commas; a name given twice is one column, where it
/// first appears.
fn parse_algos(list: &str) -> Result<AlgoList, String> {
    let mut algos = Vec::new();
    for name in list.split(',') {
        let algo = name.trim().parse::<Algo>().map_err(|e| e.to_string())?;
        if !algos.contains(&algo) {
            algos.push(algo);
        }
    }
    Ok(AlgoList(algos))
}

/// One measured (or skipped) cell of the table.
struct Cell {
    n: usize,
    algo: &'static str,
    /// `None` when the algorithm sat out this N.
    seconds: Option<f64>,
    total: Option<u64>,
    unique: Option<u64>,
    /// With `--nodes`: nodes visited and square checks made.
    work: Option<Work>,
}

/// Runs `nqueens bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let range = args.range.or(args.range_flag).unwrap_or(4..=14);
    if *range.start() == 0 {
        return Err(bad_input("N must be at least 1: a board needs a row"));
    }
    let algos = args.algos.map_or(Algo::ALL.to_vec(), |list| list.0);
    // The files are checked before the first cell is timed.
    OutFile::distinct(&[
        ("--json", args.json.as_deref()),
        ("--csv", args.csv.as_deref()),
        ("--plot", args.plot.as_deref()),
    ])?;
    let json = args.json.as_deref().map(OutFile::prepare).transpose()?;
    let csv = args.csv.as_deref().map(OutFile::prepare).transpose()?;
    let plot = args.plot.as_deref().map(OutFile::prepare).transpose()?;
    // Rows beyond every chosen algorithm's limit would be all `-`: the table stops before them.
    let reach = algos.iter().map(|a| a.max_n()).max().unwrap_or(0);
    if *range.start() > reach {
        return Err(bad_input(format!(
            "N = {} is beyond the limit of every chosen algorithm (at most {reach})",
            range.start()
        )));
    }
    for &algo in &algos {
        if *range.end() > algo.max_n() {
            eprintln!(
                "note: {algo} stops at N = {}: {}",
                algo.max_n(),
                algo.limit_reason()
            );
        }
    }
    let range = *range.start()..=(*range.end()).min(reach);
    let budget = args.budget;
    let bar = progress::bar((range.clone().count() * algos.len()) as u64, "cells");
    let mut out = io::stdout().lock();
    let header: Vec<String> = ["N", "total", "unique"]
        .into_iter()
        .map(String::from)
        .chain(algos.iter().map(|a| a.name().to_string()))
        .collect();
    let cell_width = if args.nodes { 24 } else { 10 };
    let widths: Vec<usize> = header
        .iter()
        .enumerate()
        .map(|(i, h)| h.len().max(if i < 3 { 10 } else { cell_width }))
        .collect();
    write_row(&mut out, &widths, &header)?;
    let mut cells = Vec::new();
    let mut over_budget = vec![false; algos.len()];
    let mut disagreements = 0;
    for n in range {
        let mut row = Vec::new();
        for (i, &algo) in algos.iter().enumerate() {
            bar.set_message(format!("N={n} {algo}"));
            let skip = over_budget[i] || algo.check(n).is_err();
            let measured = if skip {
                None
            } else {
                let start = Instant::now();
                let counts = algo.count(n).map_err(bad_input)?;
                let elapsed = start.elapsed();
                over_budget[i] = elapsed > budget;
                Some((counts, elapsed))
            };
            let work = match (args.nodes, measured) {
                (true, Some(_)) => Some(algo.work(n).map_err(bad_input)?),
                _ => None,
            };
            bar.inc(1);
            row.push(measured.map(|(c, t)| (c, t, work)));
            cells.push(Cell {
                n,
                algo: algo.name(),
                seconds: measured.map(|(_, t)| t.as_secs_f64()),
                total: measured.map(|(c, _)| c.total),
                unique: measured.and_then(|(c, _)| c.unique),
                work,
            });
        }
        let counts: Vec<Counts> = row.iter().flatten().map(|&(c, ..)| c).collect();
        let total = majority(counts.iter().map(|c| c.total));
        let unique = majority(counts.iter().filter_map(|c| c.unique));
        let mut line = vec![
            n.to_string(),
            total.map_or("-".into(), |t| t.to_string()),
            unique.map_or("-".into(), |u| u.to_string()),
        ];
        for cell in &row {
            line.push(match cell {
                None => "-".into(),
                Some((c, t, work)) => {
                    let agrees =
                        Some(c.total) == total && (c.unique.is_none() || c.unique == unique);
                    if !agrees {
                        disagreements += 1;
                    }
                    let work = work.map_or(String::new(), |w| {
                        format!(" {}n {}c", short(w.nodes), short(w.checks))
                    });
                    format!("{}{}{work}", duration(*t), if agrees { "" } else { "!" })
                }
            });
        }
        bar.suspend(|| write_row(&mut out, &widths, &line))?;
    }
    bar.finish_and_clear();
    for (file, format) in [(json, Output::Json), (csv, Output::Csv)] {
        if let Some(file) = file {
            file.commit(&export(&cells, format)?)?;
        }
    }
    if let Some(file) = plot {
        file.commit(&super::plot::svg(&cells_by_algo(&algos, &cells))?)?;
    }
    if disagreements > 0 {
        anyhow::bail!("{disagreements} counts disagree with the other algorithms (marked !)");
    }
    Ok(())
}

/// The value most algorithms agree on (the first one met on a tie), `None` if none ran.
fn majority(values: impl Iterator<Item = u64> + Clone) -> Option<u64> {
    values
        .clone()
        .max_by_key(|&v| values.clone().filter(|&w| w == v).count())
}

fn write_row(out: &mut impl Write, widths: &[usize], cells: &[String]) -> anyhow::Result<()> {
    let line: Vec<String> = cells
        .iter()
        .zip(widths)
        .map(|(c, &w)| format!("{c:>w$}"))
        .collect();
    writeln!(out, "{}", line.join("  ")).context("cannot write the table")?;
    out.flush().context("cannot write the table")
}

/// A short human form: microseconds, milliseconds or seconds with 3 significant figures.
fn duration(t: Duration) -> String {
    let s = t.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1}us", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2}ms", s * 1e3)
    } else {
        format!("{s:.2}s")
    }
}

/// A count in at most 5 characters: 1234, 12.3k, 4.56M, 7.89G.
fn short(v: u64) -> String {
    let f = v as f64;
    match v {
        0..=9_999 => v.to_string(),
        10_000..=999_999 => format!("{:.1}k", f / 1e3),
        1_000_000..=999_999_999 => format!("{:.2}M", f / 1e6),
        _ => format!("{:.2}G", f / 1e9),
    }
}

impl Record for Cell {
    fn fields(&self) -> Vec<(&'static str, Value)> {
        let mut fields = vec![
            ("n", Value::Int(self.n as u128)),
            ("algo", Value::Text(self.algo.to_string())),
            (
                "seconds",
                self.seconds.map_or(Value::Missing, |s| Value::Float(s, 9)),
            ),
            ("total", self.total.into()),
            ("unique", self.unique.into()),
        ];
        if let Some(w) = self.work {
            fields.push(("nodes", Value::Int(w.nodes.into())));
            fields.push(("checks", Value::Int(w.checks.into())));
        }
        fields
    }
}

/// The cells in one of the exporter's forms, for a file (without its final newline).
fn export(cells: &[Cell], format: Output) -> anyhow::Result<String> {
    let mut out = Vec::new();
    let mut e = Exporter::new(&mut out, format);
    for c in cells {
        e.write(c)?;
    }
    let mut text = String::from_utf8(out).context("the exporter writes UTF-8")?;
    text.pop();
    Ok(text)
}

/// For each algorithm, its measured `(n, seconds)` points.
fn cells_by_algo(algos: &[Algo], cells: &[Cell]) -> Vec<(&'static str, Vec<(usize, f64)>)> {
    algos
        .iter()
        .map(|a| {
            let points = cells
                .iter()
                .filter(|c| c.algo == a.name())
                .filter_map(|c| c.seconds.map(|s| (c.n, s)))
                .collect();
            (a.name(), points)
        })
        .collect()
}
