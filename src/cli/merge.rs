//! `nqueens merge`: adds up the result files of the shards of one count.

use std::path::PathBuf;

use anyhow::Context;

use nqueens::engine::tasks::shard::{self, ShardResult};

use super::bad_input;
use super::export::{CountRow, Exporter, Output};

/// Arguments of `nqueens merge`.
#[derive(clap::Args)]
pub struct Args {
    /// Shard result files written by `nqueens count N --shard I/K --out FILE`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format, as for `count`.
    #[arg(long, value_enum, default_value = "table")]
    format: Output,
    /// Leave timings out. Otherwise the time is the sum of the shards' wall-clock times, each
    /// of its last run only (a shard resumed from a checkpoint does not record its earlier
    /// runs): neither the cluster's CPU time nor the time the whole count took.
    #[arg(long)]
    no_time: bool,
}

/// Runs `nqueens merge`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut results = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let name = path.display().to_string();
        let file =
            std::fs::File::open(path).map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
        let result = ShardResult::read(file).map_err(|e| bad_input(format!("{name}: {e}")))?;
        results.push((name, result));
    }
    let tally = shard::merge(&results).map_err(bad_input)?;
    let first = &results[0].1;
    let seconds: f64 = results.iter().map(|(_, r)| r.seconds).sum();
    if !args.no_time {
        eprintln!(
            "time: {seconds:.3} s, the sum of the {} shards' wall-clock times, each of its last run",
            results.len()
        );
    }
    Exporter::new(std::io::stdout().lock(), args.format)
        .write(&CountRow {
            n: first.n,
            total: tally.total,
            unique: Some(tally.unique()),
            seconds: (!args.no_time).then_some(seconds),
            by: nqueens::counter::Method::Engine(first.strategy).label(),
        })
        .context("cannot write the output")?;
    Ok(())
}
