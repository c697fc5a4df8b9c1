//! `nqueens complete`: extend given queens to a solution, avoiding blocked squares.
//!
//! Reads an instance (see [`nqueens::cp::Instance::parse`] for the three text forms), then
//! prints one completion, counts them (`--count`) or lists them all (`--all`). When there is
//! none it prints `no completion` with the effort of the proof and exits 1, like `grep` finding
//! nothing.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::time::Duration;

use anyhow::Context;
use nqueens::cp::{Instance, Options, Solver, Stats, Status};
use nqueens::format::{self, Format};

use super::input::Input;
use super::sink::Sink;
use super::{bad_input, signals};

/// Arguments of `nqueens complete`.
#[derive(clap::Args)]
pub struct Args {
    /// The instance: a file, or `-` for standard input. Forms: `N` then `q ROW COL` / `x ROW COL`
    /// lines (1-based); a board drawing of `Q`, `x`, `.`; or a placement written by `solve`.
    #[arg(default_value = "-", value_parser = Input::parser())]
    file: Input,
    /// Count every completion instead of showing one.
    #[arg(long, conflicts_with_all = ["all", "format"])]
    count: bool,
    /// List every completion, as it is found.
    #[arg(long)]
    all: bool,
    /// How to write completions [default: board up to N = 64, perm above; board is limited to
    /// N <= 1000, svg to N <= 800].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Print search statistics (nodes, failures, propagations, time) to stderr.
    #[arg(long)]
    stats: bool,
    /// Seed of the random tie-breaking between restarts.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Search once, without restarts: restarts guard against unlucky runs when looking for one
    /// completion, but they repeat work when there is none to find.
    #[arg(long)]
    no_restarts: bool,
    /// Learn no-goods from failures when looking for one completion, alone: by default boards
    /// of 100 to 128 with blocked squares learn and probe in turns (65 to 89 after probing
    /// alone for a while), and 90 to 99 learn for a while, then search without; this turns
    /// learning alone on for any board up to 128.
    #[arg(long, conflicts_with = "no_learning")]
    learning: bool,
    /// Do not learn no-goods from failures.
    #[arg(long)]
    no_learning: bool,
    /// Search with probing when looking for one completion, alone: at every node, a trial
    /// queen on each square of each row and column left with two squares (boards up to 128
    /// with blocked squares; by default from 65 to 89 for a while, then in turns with
    /// learning, as from 100).
    #[arg(long, conflicts_with_all = ["learning", "no_learning", "no_probing"])]
    probing: bool,
    /// Do not search with probing.
    #[arg(long, conflicts_with_all = ["learning", "no_learning"])]
    no_probing: bool,
    /// Give up after this many search nodes.
    #[arg(long, value_name = "NODES")]
    node_limit: Option<u64>,
    /// Give up after this many seconds (decimals allowed).
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds)]
    time_limit: Option<Duration>,
}

/// Runs `nqueens complete`.
pub fn run(args: Args) -> anyhow::Result<()> {
    // The solver counts its domains with the copy `NQUEENS_ISA` forces, as a count does.
    nqueens::engine::cpu::Isa::from_env().map_err(|e| bad_input(e.to_string()))?;
    // Read line by line: an endless input gives an error at its first overlong line, in
    // bounded memory, instead of being read whole first.
    let name = args.file.name();
    let instance =
        Instance::read(args.file.open(1 << 16)?).map_err(|e| bad_input(format!("{name}: {e}")))?;
    let options = Options {
        node_limit: args.node_limit,
        time_limit: args.time_limit,
        seed: args.seed,
        restarts: !args.no_restarts,
    };
    let mut solver = Solver::try_new(&instance, options)
        .map_err(|e| bad_input(format!("{name}: a board of {} rows: {e}", instance.n())))?
        .stop_when(signals::stop_flag());
    if args.learning || args.no_learning {
        solver = solver.learning(args.learning);
    }
    if args.probing || args.no_probing {
        solver = solver.probing(args.probing);
    }
    // A drawing is N lines of 2N characters: a terminal's worth up to 64, gigabytes at 32768.
    let format = args.format.unwrap_or(if instance.n() <= 64 {
        Format::Board
    } else {
        Format::Perm
    });
    super::find::check_format(instance.n(), format)?;
    let mut out = BufWriter::new(io::stdout().lock());

    let (found, status) = if args.count {
        let (count, status) = solver.count();
        if status == Status::Exhausted {
            writeln!(out, "{count}")?;
        }
        (count, status)
    } else if args.all {
        let mut sink = Sink::new(&mut out, instance.n(), format, None);
        let mut wrong = None;
        let status = solver.for_each(|p| match check(&instance, p) {
            Ok(()) => sink.emit(p),
            Err(e) => {
                wrong = Some(e);
                ControlFlow::Break(())
            }
        });
        if let Some(e) = wrong {
            return Err(e);
        }
        match sink.finish()? {
            Some(written) => (written.count, status),
            None => return Ok(()),
        }
    } else {
        let (p, status) = solver.find();
        if let Some(p) = &p {
            check(&instance, p)?;
            format::write(&mut out, p, format)?;
        }
        (u64::from(p.is_some()), status)
    };
    let stats = *solver.stats();
    if args.stats {
        eprintln!("{stats}");
    }
    match status {
        Status::NodeLimit | Status::TimeLimit => {
            out.flush()?;
            anyhow::bail!(
                "gave up: the {} limit was reached after {found} completion(s) ({})",
                if status == Status::NodeLimit {
                    "node"
                } else {
                    "time"
                },
                stats
            );
        }
        Status::Interrupted => {
            out.flush().or_else(ignore_broken_pipe)?;
            anyhow::bail!("interrupted after {found} completion(s) ({stats})");
        }
        Status::Exhausted if found == 0 && !args.count => {
            writeln!(out, "no completion ({})", effort(&stats))?;
            out.flush()?;
            // "None" is an answer, not an error: stdout says so, the exit code lets scripts test it.
            std::process::exit(1);
        }
        _ => out.flush().or_else(ignore_broken_pipe),
    }
}

/// The proof effort in the words of the "no completion" line.
fn effort(stats: &Stats) -> String {
    format!(
        "proved in {} nodes, {} failures, {:.3} ms",
        stats.nodes,
        stats.failures,
        stats.time.as_secs_f64() * 1e3
    )
}

/// Every completion is checked before it is printed: a wrong one would be a bug, not an answer.
fn check(instance: &Instance, p: &nqueens::Placement) -> anyhow::Result<()> {
    anyhow::ensure!(
        instance.admits(p),
        "internal error: the solver produced {:?}, which does not complete the instance",
        p.cols()
    );
    Ok(())
}

fn ignore_broken_pipe(e: io::Error) -> anyhow::Result<()> {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e).context("cannot write the output")
    }
}
