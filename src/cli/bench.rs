//! `nqueens bench`: the ladder side by side, as in the reference documents' timing tables.
//!
//! Each cell counts the solutions for one N with one algorithm, several times, and records the
//! median time: one run alone is at the mercy of a cold cache or another process taking the
//! core, which on a shared machine made lines zigzag. Once a cell takes longer than the budget, that algorithm sits out the bigger boards (each N costs
//! several times the one before, so the next cell would only be longer). The counts of all
//! algorithms for an N must agree; a disagreement is marked in the table and fails the run.
//!
//! Ctrl-C or SIGTERM ends the cell under way within milliseconds (every rung looks at the
//! stop flag every few thousand nodes); the cells finished before it are in the table and in
//! the files asked for, and the run exits 1.

use std::io::{self, Write};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use nqueens::algo::{Algo, Counts};
use nqueens::observe::Work;

use super::export::{Exporter, Output, Record, Value};
use super::outfile::OutFile;
use super::{bad_input, parse_range, progress, signals};

/// Arguments of `nqueens bench`.
#[derive(clap::Args)]
#[command(
    after_help = "Cells: the median time of a count over up to --runs runs (5 by default); \
    runs are repeated only while another would keep the cell within 1 s (or --budget, if \
    smaller), so a cell over half a second is timed once and the whole table takes at most about \
    a second a cell longer than with one run. `-` where the algorithm sat out (over \
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
    /// Runs per cell: the cell's time is their median (fewer where they would pass 1 s).
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..))]
    runs: u16,
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
    /// algorithm, each named at its end (times in µs, ms and s).
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
    /// How many runs the time is the median of.
    runs: Option<usize>,
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
    let stop = signals::stop_flag();
    // Set when a signal ends a cell: that cell is dropped, the finished ones are kept.
    let mut interrupted = false;
    for n in range {
        let mut row = Vec::new();
        for (i, &algo) in algos.iter().enumerate() {
            bar.set_message(format!("N={n} {algo}"));
            let skip = over_budget[i] || algo.check(n).is_err();
            let measured = if skip {
                None
            } else {
                let mut stopped = false;
                let timed = repeat(usize::from(args.runs), REPEAT_WITHIN.min(budget), || {
                    let start = Instant::now();
                    let counts = algo.count_unless_stopped(n, stop)?;
                    stopped |= counts.is_none();
                    Ok::<_, nqueens::algo::AlgoError>((counts, start.elapsed()))
                })
                .map_err(bad_input)?;
                let (Some(value), false) = (timed.value, stopped) else {
                    interrupted = true;
                    break;
                };
                over_budget[i] = timed.median > budget;
                Some(Timed {
                    value,
                    median: timed.median,
                    runs: timed.runs,
                    steady: timed.steady,
                })
            };
            let work = match (args.nodes, &measured) {
                (true, Some(_)) => match algo.work_unless_stopped(n, stop).map_err(bad_input)? {
                    Some(work) => Some(work),
                    None => {
                        interrupted = true;
                        break;
                    }
                },
                _ => None,
            };
            bar.inc(1);
            cells.push(Cell {
                n,
                algo: algo.name(),
                seconds: measured.as_ref().map(|m| m.median.as_secs_f64()),
                runs: measured.as_ref().map(|m| m.runs),
                total: measured.as_ref().map(|m| m.value.total),
                unique: measured.as_ref().and_then(|m| m.value.unique),
                work,
            });
            row.push(measured.map(|m| (m, work)));
        }
        let counts: Vec<Counts> = row.iter().flatten().map(|(m, _)| m.value).collect();
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
                Some((m, work)) => {
                    let c = m.value;
                    let agrees = m.steady
                        && Some(c.total) == total
                        && (c.unique.is_none() || c.unique == unique);
                    if !agrees {
                        disagreements += 1;
                    }
                    let work = work.map_or(String::new(), |w| {
                        format!(" {}n {}c", short(w.nodes), short(w.checks))
                    });
                    format!(
                        "{}{}{work}",
                        duration(m.median),
                        if agrees { "" } else { "!" }
                    )
                }
            });
        }
        if !row.is_empty() {
            bar.suspend(|| write_row(&mut out, &widths, &line))?;
        }
        if interrupted {
            break;
        }
    }
    bar.finish_and_clear();
    for (file, format) in [(json, Output::Json), (csv, Output::Csv)] {
        if let Some(file) = file {
            file.commit(&export(&cells, format)?)?;
        }
    }
    if let Some(file) = plot {
        let note = format!(
            "each point: the median of up to {} runs, as many as fit in {}",
            args.runs,
            super::plot::time_label(REPEAT_WITHIN.min(budget).as_secs_f64())
        );
        file.commit(&super::plot::svg(&cells_by_algo(&algos, &cells), &note)?)?;
    }
    if interrupted {
        let timed = cells.iter().filter(|c| c.seconds.is_some()).count();
        anyhow::bail!("interrupted after {timed} timed cell(s), kept in the table and the files");
    }
    if disagreements > 0 {
        anyhow::bail!("{disagreements} counts disagree with the other algorithms (marked !)");
    }
    Ok(())
}

/// How long a cell's repeated runs may take together: repeats make small cells steady, and a cell
/// of a second or more is steady enough from one run.
const REPEAT_WITHIN: Duration = Duration::from_secs(1);

/// A cell's runs: what the first found and the median of their times.
#[derive(Debug, PartialEq)]
struct Timed<T> {
    value: T,
    median: Duration,
    runs: usize,
    /// Whether every run found the same value.
    steady: bool,
}

/// Calls `once` (which returns what it found and how long it took) up to `runs` times: always
/// once, then again while another run, as long as the last, would keep their total within
/// `within`.
///
/// # Errors
/// The first error of `once`.
fn repeat<T: PartialEq, E>(
    runs: usize,
    within: Duration,
    mut once: impl FnMut() -> Result<(T, Duration), E>,
) -> Result<Timed<T>, E> {
    let (value, first) = once()?;
    let mut times = vec![first];
    let mut steady = true;
    while times.len() < runs {
        let (spent, last) = (times.iter().sum::<Duration>(), times[times.len() - 1]);
        if spent + last > within {
            break;
        }
        let (again, time) = once()?;
        steady &= again == value;
        times.push(time);
    }
    Ok(Timed {
        value,
        median: median(&mut times),
        runs: times.len(),
        steady,
    })
}

/// The middle time (the mean of the two middle ones for an even count); `times` is sorted.
fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    let mid = times.len() / 2;
    if times.len() % 2 == 1 {
        times[mid]
    } else {
        (times[mid - 1] + times[mid]) / 2
    }
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
            (
                "runs",
                self.runs.map_or(Value::Missing, |r| Value::Int(r as u128)),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake clock: `once` for [`repeat`] that reports these times in turn, finding `value`.
    fn runs_taking<'a>(
        millis: &'a [u64],
        values: &'a [u32],
    ) -> impl FnMut() -> Result<(u32, Duration), ()> + 'a {
        let mut next = 0;
        move || {
            let i = next;
            next += 1;
            Ok((values[i % values.len()], Duration::from_millis(millis[i])))
        }
    }

    #[test]
    fn a_cell_is_the_median_of_its_runs() {
        // The zigzag of the issue: flags at N = 10 once took 9.49 ms between two of 1.5 ms.
        let t = repeat(5, REPEAT_WITHIN, runs_taking(&[2, 9, 1, 3, 2], &[7])).unwrap();
        assert_eq!(
            t,
            Timed {
                value: 7,
                median: Duration::from_millis(2),
                runs: 5,
                steady: true
            }
        );
        // An even count: the mean of the middle two.
        let t = repeat(4, REPEAT_WITHIN, runs_taking(&[1, 9, 3, 4], &[7])).unwrap();
        assert_eq!(t.median, Duration::from_micros(3500));
        assert_eq!(
            repeat(1, REPEAT_WITHIN, runs_taking(&[5], &[7]))
                .unwrap()
                .runs,
            1
        );
    }

    #[test]
    fn repeats_stop_at_the_time_allowed() {
        // 400 ms, then 400 ms more: a third would pass 1 s.
        let t = repeat(5, REPEAT_WITHIN, runs_taking(&[400, 450, 10], &[7])).unwrap();
        assert_eq!((t.runs, t.median), (2, Duration::from_millis(425)));
        // A run over the allowance is not repeated.
        let t = repeat(5, REPEAT_WITHIN, runs_taking(&[1200], &[7])).unwrap();
        assert_eq!((t.runs, t.median), (1, Duration::from_millis(1200)));
        // A slow first run (a cold cache) does not make the median.
        let t = repeat(
            5,
            REPEAT_WITHIN,
            runs_taking(&[300, 100, 100, 100, 100], &[7]),
        )
        .unwrap();
        assert_eq!((t.runs, t.median), (5, Duration::from_millis(100)));
        // The allowance is shared with a smaller --budget.
        let t = repeat(
            5,
            Duration::from_millis(250),
            runs_taking(&[100, 100, 100], &[7]),
        )
        .unwrap();
        assert_eq!(t.runs, 2);
    }

    #[test]
    fn a_run_that_finds_another_count_is_not_steady() {
        let t = repeat(3, REPEAT_WITHIN, runs_taking(&[1, 1, 1], &[7, 7, 8])).unwrap();
        assert_eq!((t.value, t.steady), (7, false));
        let mut calls = 0;
        let failing = repeat(3, REPEAT_WITHIN, || {
            calls += 1;
            Err::<(u32, Duration), _>("no")
        });
        assert_eq!((failing, calls), (Err("no"), 1));
    }
}
