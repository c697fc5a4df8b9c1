//! `nqueens merge`: adds up the result files of the shards of one count.

use std::path::PathBuf;

use nqueens::engine::shard::{self, ShardResult};

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
    /// Leave timings out (otherwise the time is the sum over all shards).
    #[arg(long)]
    no_time: bool,
}

/// Runs `nqueens merge`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut results = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
        let result: ShardResult = serde_json::from_str(&text)
            .map_err(|e| bad_input(format!("{name} is not a shard result: {e}")))?;
        results.push((name, result));
    }
    let tally = shard::merge(&results).map_err(bad_input)?;
    let first = &results[0].1;
    let seconds = results.iter().map(|(_, r)| r.seconds).sum();
    Exporter::new(std::io::stdout().lock(), args.format).write(&CountRow {
        n: first.n,
        total: tally.total,
        unique: Some(tally.unique()),
        seconds: (!args.no_time).then_some(seconds),
        by: format!("engine/{}", first.strategy),
    })?;
    Ok(())
}
