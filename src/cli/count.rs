//! `nqueens count`: total and unique solutions for N or a range, with the engine or the ladder.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use anyhow::Context;
use nqueens::algo::Algo;
use nqueens::engine::checkpoint::{Header, Journal};
use nqueens::engine::shard::{ShardResult, Slice};
use nqueens::engine::{self, run, Strategy, Tally};

use super::bad_input;

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// `N: total unique hh:mm:ss.ms`, the table of the reference documents.
    Table,
    /// One JSON object per line and per N: `{"by":"engine/backtrack","n":8,"seconds":0.001,"total":92,"unique":12}`.
    Json,
    /// `n,total,unique,seconds` with a header line.
    Csv,
}

/// Arguments of `nqueens count`.
#[derive(clap::Args)]
pub struct Args {
    /// Board size N, or a range A..=B.
    #[arg(value_parser = super::parse_range)]
    n: std::ops::RangeInclusive<usize>,
    /// Count with this algorithm of the ladder instead of the engine.
    #[arg(long, value_enum, conflicts_with_all = ["strategy", "checkpoint", "shard", "out"])]
    algo: Option<Algo>,
    /// How the engine splits the search [default: the fastest for N].
    #[arg(long, value_enum)]
    strategy: Option<Strategy>,
    /// Threads to count on [default: all cores].
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=4096))]
    threads: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Output,
    /// Leave timings out, for output that is the same on every run.
    #[arg(long)]
    no_time: bool,
    /// Refuse to start if the engine would need more memory than this (bytes; K, M, G suffixes)
    /// [default: the memory available now, or 4G where that is unknown].
    #[arg(long, value_parser = super::parse_bytes, long_help = memory_help())]
    max_memory: Option<u64>,
    /// Record finished tasks in FILE and resume from it if it exists.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Count only shard I of K (1-based, interleaved task slices); needs --out.
    #[arg(long, value_name = "I/K", requires = "out")]
    shard: Option<Slice>,
    /// Write the result (of the shard, or of the whole count) as a JSON file for `nqueens merge`
    /// instead of printing it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// One line of results.
pub struct Row {
    /// Board size.
    pub n: usize,
    /// All solutions.
    pub total: u128,
    /// Unique solutions, where known.
    pub unique: Option<u128>,
    /// Seconds taken, unless timings are off.
    pub seconds: Option<f64>,
    /// What counted it.
    pub by: String,
}

/// Prints rows as they come, in one of the formats.
pub struct Printer {
    format: Output,
    time: bool,
    started: bool,
}

impl Printer {
    /// A printer for `format`, with or without a time column.
    pub fn new(format: Output, time: bool) -> Printer {
        Printer {
            format,
            time,
            started: false,
        }
    }

    /// Prints one row (and the header before the first).
    pub fn row(&mut self, row: &Row) -> anyhow::Result<()> {
        let mut s = String::new();
        let unique = row.unique.map_or("-".to_string(), |u| u.to_string());
        match self.format {
            Output::Table => {
                if !self.started {
                    s.push_str(" N:                Total               Unique");
                    if self.time {
                        s.push_str("        hh:mm:ss.ms");
                    }
                    s.push('\n');
                }
                write!(s, "{:2}:{:>21}{:>21}", row.n, row.total, unique)?;
                if let Some(t) = row.seconds.filter(|_| self.time) {
                    write!(s, "{:>19}", hms(t))?;
                }
                s.push('\n');
            }
            Output::Csv => {
                if !self.started {
                    s.push_str("n,total,unique,seconds\n");
                }
                let unique = row.unique.map_or(String::new(), |u| u.to_string());
                let secs = match row.seconds.filter(|_| self.time) {
                    Some(t) => format!("{t:.3}"),
                    None => String::new(),
                };
                writeln!(s, "{},{},{unique},{secs}", row.n, row.total)?;
            }
            Output::Json => {
                let value = serde_json::json!({
                    "n": row.n,
                    "total": row.total,
                    "unique": row.unique,
                    "seconds": row.seconds.filter(|_| self.time),
                    "by": row.by,
                });
                writeln!(s, "{value}")?;
            }
        }
        self.started = true;
        let mut out = std::io::stdout().lock();
        out.write_all(s.as_bytes())?;
        out.flush()?;
        Ok(())
    }
}

/// `h:mm:ss.mmm`, as the reference documents print times.
fn hms(seconds: f64) -> String {
    let ms = (seconds * 1000.0).round() as u64;
    format!(
        "{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// The long help of `--max-memory`: what the join strategy needs for a few N, from its own
/// estimate (the one checked before counting).
fn memory_help() -> String {
    let mut help = String::from(
        "Refuse to start if the engine would need more memory than this (bytes; K, M, G \
         suffixes) [default: the memory available now, or 4G where that is unknown].\n\n\
         The join strategy (the default from N = 14) needs, by the estimate checked here, on 1 \
         thread and for each thread more (measured peaks are about half):",
    );
    let mib = |bytes: u64| bytes.div_ceil(1 << 20);
    for n in [16, 18, 20, 22, 24] {
        if let (Some(one), Some(two)) = (
            engine::join::memory_estimate(n, 1),
            engine::join::memory_estimate(n, 2),
        ) {
            let _ = write!(
                help,
                "\n  N = {n}: {} MiB, +{} MiB",
                mib(one),
                mib(two - one)
            );
        }
    }
    help.push_str("\nThe backtrack strategy needs less than 1 MiB.");
    help
}

/// Set by Ctrl-C (or SIGTERM): no new task starts.
fn stop_flag() -> &'static Arc<AtomicBool> {
    static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    STOP.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler = Arc::clone(&flag);
        // Without a handler Ctrl-C still ends the process, only less gracefully; a count
        // must not fail because a host program already installed one.
        let _ = ctrlc::set_handler(move || handler.store(true, Ordering::SeqCst));
        flag
    })
}

/// The name of this machine, for shard results.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Runs `nqueens count`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let single = args.n.start() == args.n.end();
    if !single && (args.checkpoint.is_some() || args.shard.is_some() || args.out.is_some()) {
        return Err(bad_input(
            "--checkpoint, --shard and --out take a single N, not a range",
        ));
    }
    let threads = match args.threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |p| p.get()),
    };
    let mut printer = Printer::new(args.format, !args.no_time);
    for n in args.n.clone() {
        let started = Instant::now();
        let row = match args.algo {
            Some(algo) => {
                let counts = algo.count(n).map_err(bad_input)?;
                Row {
                    n,
                    total: counts.total as u128,
                    unique: counts.unique.map(u128::from),
                    seconds: None,
                    by: format!("algo/{algo:?}").to_lowercase(),
                }
            }
            None => {
                let strategy = args.strategy.unwrap_or_else(|| engine::fastest_strategy(n));
                let Some(tally) = count_engine(&args, n, strategy, threads)? else {
                    continue;
                };
                Row {
                    n,
                    total: tally.total,
                    unique: Some(tally.unique()),
                    seconds: None,
                    by: format!("engine/{strategy:?}").to_lowercase(),
                }
            }
        };
        printer.row(&Row {
            seconds: Some(started.elapsed().as_secs_f64()),
            ..row
        })?;
    }
    Ok(())
}

/// Counts `n` with the engine, resuming from and recording to a checkpoint if asked, and
/// writing a shard result if asked (then the tally is not printed: `None`).
fn count_engine(
    args: &Args,
    n: usize,
    strategy: Strategy,
    threads: usize,
) -> anyhow::Result<Option<Tally>> {
    let tasks = engine::tasks(n, strategy).map_err(bad_input)?;
    let limit = args.max_memory.unwrap_or_else(super::available_memory);
    let need = tasks.memory_bytes(threads);
    if need > limit {
        return Err(bad_input(format!(
            "counting N={n} with the {strategy:?} engine on {threads} threads needs {need} bytes of memory, more than the limit of {limit} (raise --max-memory or use fewer --threads)"
        )));
    }
    let slice = args.shard.unwrap_or(Slice::ALL);
    let mut todo: Vec<usize> = slice.indices(tasks.len()).collect();
    let mut before = Tally::default();
    let journal = match &args.checkpoint {
        Some(path) => {
            let (journal, done) =
                Journal::open(path, &Header::new(tasks.as_ref(), slice)).map_err(bad_input)?;
            if !done.is_empty() {
                eprintln!(
                    "resuming from {}: {} of {} tasks already counted",
                    path.display(),
                    done.len(),
                    todo.len()
                );
            }
            todo.retain(|i| !done.contains_key(i));
            before = done.values().copied().sum();
            Some(journal)
        }
        None => None,
    };
    let bar = super::progress::bar(todo.len() as u64, "tasks");
    let stop = stop_flag();
    let started = Instant::now();
    let outcome = run::count(tasks.as_ref(), &todo, threads, stop, &|index, tally| {
        if let Some(j) = &journal {
            j.record(index, tally)?;
        }
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some(j) = &journal {
        j.sync()?;
    }
    if outcome.stopped {
        let how = match &args.checkpoint {
            Some(path) => format!(
                "{} of {} tasks are saved in {}; run the same command again to resume",
                outcome.done + (slice.indices(tasks.len()).count() - todo.len()),
                slice.indices(tasks.len()).count(),
                path.display()
            ),
            None => "nothing was saved (use --checkpoint FILE to make a count resumable)".into(),
        };
        anyhow::bail!("interrupted: {how}");
    }
    let tally = {
        let mut t = before;
        t += outcome.tally;
        t
    };
    match &args.out {
        Some(path) => {
            let result = ShardResult::new(
                tasks.as_ref(),
                slice,
                tally,
                started.elapsed().as_secs_f64(),
                hostname(),
            );
            write_atomically(path, &serde_json::to_string_pretty(&result)?)
                .with_context(|| format!("writing {}", path.display()))?;
            eprintln!(
                "shard {slice} of N={n}: {} tasks counted, result in {}",
                result.tasks_counted,
                path.display()
            );
            Ok(None)
        }
        None => Ok(Some(tally)),
    }
}

/// Writes `text` to `path` through a temporary file and a rename, so a crash leaves either the
/// old file or the complete new one.
fn write_atomically(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.write_all(b"\n")?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}
