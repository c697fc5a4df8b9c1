//! `nqueens count`: total and unique solutions for N or a range, with the engine or the ladder.
//!
//! A thin layer over [`nqueens::Counter`]: it checks every N of the range and every file it
//! will write before counting anything, turns Ctrl-C and SIGTERM into the counter's stop flag,
//! and prints each result through the [exporter](super::export).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;

use nqueens::Counter;
use nqueens::algo::Algo;
use nqueens::counter::{CountError, CountResult, Progress};
use nqueens::engine::tasks::checkpoint::CheckpointError;
use nqueens::engine::tasks::shard::{ShardResult, Slice};
use nqueens::engine::{self, Device, Strategy};

use super::export::{CountRow, Exporter, Output};
use super::outfile::{self, OutFile};
use super::{bad_input, signals};

/// Counts estimated to take longer than this say so as they start.
const LONG_NOTE: std::time::Duration = std::time::Duration::from_secs(600);

/// Arguments of `nqueens count`.
#[derive(clap::Args)]
pub struct Args {
    /// Board size N, or a range A..=B (also A..B, A-B).
    #[arg(value_parser = super::parse_range)]
    n: std::ops::RangeInclusive<usize>,
    /// Count with this algorithm of the ladder instead of the engine.
    #[arg(long, value_enum, conflicts_with_all = ["strategy", "checkpoint", "shard", "out"])]
    algo: Option<Algo>,
    /// How the engine splits the search [default: the fastest for N].
    #[arg(long, value_enum)]
    strategy: Option<Strategy>,
    /// Count on this device: `gpu` is the first NVIDIA GPU (a build with `--features cuda`, the
    /// NVIDIA driver and NVRTC), with the engine's tasks (the join strategy's from N = 18, the
    /// backtrack strategy's below), so its checkpoints and shards mix with CPU ones.
    #[arg(long, value_enum, default_value = "cpu", conflicts_with = "algo")]
    device: Device,
    /// Threads to count on, at most one per core [default: all cores].
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Output,
    /// Leave timings out, for output that is the same on every run.
    #[arg(long)]
    no_time: bool,
    /// Refuse to start if the engine would need more memory than this (bytes; K, M, G suffixes)
    /// [default: the memory available now, or 4G where that is unknown].
    #[arg(long, value_parser = super::parse_bytes, long_help = memory_help(), conflicts_with = "algo")]
    max_memory: Option<u64>,
    /// Start a count estimated to take more than a week (N = 25 and up on a few cores); without
    /// it such a count is refused with the estimate. Counts estimated over ten minutes print
    /// the estimate as they start.
    #[arg(long)]
    long: bool,
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

impl Args {
    /// `true` if the result is printed, not written to `--out`.
    pub fn prints_result(&self) -> bool {
        self.out.is_none()
    }
}

/// The long help of `--max-memory`: what the join strategy needs for a few N, from its own
/// estimate (the one checked before counting).
fn memory_help() -> String {
    let mut help = String::from(
        "Refuse to start if the engine would need more memory than this (bytes; K, M, G \
         suffixes) [default: the memory available now, or 4G where that is unknown].\n\n\
         The join strategy (the default from N = 14) needs, by the estimate checked here, on 1 \
         thread and for each thread more (the measured peaks are in docs/engine-trials.md):",
    );
    let mib = |bytes: u64| bytes.div_ceil(1 << 20);
    for n in [16, 18, 20, 22, 24, 26] {
        if let (Some(one), Some(two)) = (
            engine::strategy::join::memory_estimate(n, 1),
            engine::strategy::join::memory_estimate(n, 2),
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

/// Runs `nqueens count`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let single = args.n.start() == args.n.end();
    if !single && (args.checkpoint.is_some() || args.shard.is_some() || args.out.is_some()) {
        return Err(bad_input(
            "--checkpoint, --shard and --out take a single N, not a range",
        ));
    }
    if let (Some(c), Some(o)) = (&args.checkpoint, &args.out)
        && outfile::same_file(c, o)
    {
        return Err(bad_input(format!(
            "--checkpoint and --out name the same file ({}); the journal and the result need a file each",
            o.display()
        )));
    }
    let counter = |n: usize| {
        let mut c = Counter::new(n).device(args.device);
        if let Some(limit) = args.max_memory {
            c = c.max_memory(limit);
        }
        if let Some(a) = args.algo {
            c = c.algo(a);
        }
        if let Some(s) = args.strategy {
            c = c.strategy(s);
        }
        if let Some(t) = args.threads {
            c = c.threads(t as usize);
        }
        if let Some(slice) = args.shard {
            c = c.shard(slice);
        }
        if let Some(path) = &args.checkpoint {
            c = c.checkpoint(path);
        }
        c.allow_long(args.long)
    };
    // Everything that can be refused is refused before the first count, the largest N first:
    // its size is the likeliest to be out of range, and that is the error to hear of first.
    let mut counts = Vec::new();
    for n in args.n.clone().rev() {
        counts.push(counter(n).checked().map_err(count_error)?);
    }
    if let (Some(t), Some(first)) = (args.threads, counts.last()) {
        let used = first.thread_count();
        if t as usize > used {
            eprintln!("note: {t} threads asked for, {used} used: one per core");
        }
    }
    let mut out = args.out.as_deref().map(OutFile::prepare).transpose()?;
    let stop = signals::stop_flag();
    let mut printer = Exporter::new(std::io::stdout().lock(), args.format);
    for (n, checked) in args.n.clone().zip(counts.into_iter().rev()) {
        let bar = super::progress::bar(0, "tasks");
        let checkpoint = args.checkpoint.as_deref();
        // Tasks in the checkpoint and of the whole count, by the progress reports: a task is
        // reported once its record is written. None reported means the journal never opened.
        let (saved, of) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let on_progress = |p: Progress| {
            saved.fetch_max(p.done, Ordering::Relaxed);
            of.store(p.total, Ordering::Relaxed);
            if p.done == p.resumed {
                bar.set_length(p.total as u64);
                bar.set_position(p.done as u64);
                if let (Some(path), true) = (checkpoint, p.resumed > 0) {
                    bar.suspend(|| {
                        eprintln!(
                            "resuming from {}: {} of {} tasks already counted",
                            path.display(),
                            p.resumed,
                            p.total
                        )
                    });
                }
            } else {
                bar.inc(1);
            }
        };
        let c = checked.on_progress(&on_progress).stop_when(stop);
        if let Some(estimate) = c.time_estimate()
            && estimate > LONG_NOTE
        {
            eprintln!(
                "note: N={n} takes about {} on {} by the estimate{}",
                nqueens::engine::tasks::estimate::describe(estimate),
                nqueens::engine::tasks::estimate::threads(c.thread_count()),
                if checkpoint.is_some() {
                    ""
                } else {
                    "; --checkpoint FILE keeps its finished tasks if it is stopped"
                }
            );
        }
        let result = c.run();
        bar.finish_and_clear();
        let result = result.map_err(|e| match (e, of.load(Ordering::Relaxed)) {
            (CountError::Checkpoint(e @ CheckpointError::Io { .. }), of) if of > 0 => {
                anyhow::anyhow!(
                    "{e}; {} of {of} tasks are saved in it: once it can be written again (room \
                     on its disk), run the same command to resume",
                    saved.load(Ordering::Relaxed)
                )
            }
            (e, _) => count_error(e),
        })?;
        for note in &result.notes {
            eprintln!("note: {note}");
        }
        if let Some(gpu) = &result.gpu {
            eprintln!(
                "N={n} on {} ({} threads resident): {} batches{}, {} work items, {:.3} s in kernels of {:.3} s{}; {} symmetric tasks and {} main tasks on the CPU beside it",
                gpu.device,
                gpu.resident_threads,
                gpu.batches,
                if gpu.batch_places.is_power_of_two() {
                    format!(" of up to 2^{} word places", gpu.batch_places.ilog2())
                } else {
                    String::new()
                },
                gpu.items,
                gpu.kernel_seconds,
                result.seconds,
                if gpu.making_seconds > 0.0 {
                    format!(" ({:.3} s making the words)", gpu.making_seconds)
                } else {
                    String::new()
                },
                gpu.symmetric_tasks,
                gpu.cpu_tasks
            );
        }
        if let Some(out) = out.take() {
            return write_shard(out, &result, &args);
        }
        printer
            .write(&row(&result, !args.no_time))
            .context("cannot write the output")?;
    }
    Ok(())
}

/// The printed row of a result.
fn row(result: &CountResult, time: bool) -> CountRow {
    CountRow {
        n: result.n,
        total: result.total,
        unique: result.unique,
        seconds: time.then_some(result.seconds),
        by: result.method.label(),
    }
}

/// A count error as the command line reports it: bad input (exit 2) where it is.
fn count_error(err: CountError) -> anyhow::Error {
    match err {
        // The library's words, and the options that change the figures here.
        CountError::Memory { .. } => bad_input(format!("{err}: see --max-memory and --threads")),
        CountError::TooLong { .. } => {
            bad_input(format!("{err}: see --long, --checkpoint and --shard"))
        }
        CountError::TooLarge { n, .. } => bad_input(format!(
            "{err}; `nqueens find {n}` gives one solution for any N"
        )),
        e if e.is_bad_input() => bad_input(e),
        e => e.into(),
    }
}

/// Writes the result file of `--out`; if that fails at the end, the result is printed on stdout
/// so the count is not lost.
fn write_shard(out: OutFile, result: &CountResult, args: &Args) -> anyhow::Result<()> {
    let list = result.list.as_ref().expect("--out is refused with --algo");
    let shard = ShardResult::new(list, result.tally, result.seconds, hostname());
    let text = serde_json::to_string_pretty(&shard)?;
    let target = out.target().to_path_buf();
    if let Err(e) = out.commit(&text) {
        println!("{text}");
        return Err(e.context("the result is printed above instead"));
    }
    eprintln!(
        "shard {} of N={}: {} tasks counted, result in {}",
        args.shard.unwrap_or(Slice::ALL),
        result.n,
        shard.tasks_counted,
        target.display()
    );
    Ok(())
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
