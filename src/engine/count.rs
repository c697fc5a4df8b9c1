//! One count, wired: the task list from the device's runner, its identity, the journal of a
//! checkpoint, progress, the device's run, and the sum.
//!
//! [`Counter`](crate::Counter) checks the options and calls [`count`] once; this is the only
//! place that puts the engine's rooms together.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::device::{GpuError, GpuReport};
use super::device::{Prepared, RunError, Runner};
use super::tasks::bounds::check_whole as bounds_check_whole;
use super::tasks::checkpoint::{CheckpointError, Journal};
use super::tasks::list::{Header, Slice};
use super::{EngineError, Progress, Strategy, Tally};

/// What one count is asked to do (already checked).
pub(crate) struct Job<'a> {
    pub n: usize,
    pub strategy: Strategy,
    pub runner: Runner,
    pub shard: Slice,
    pub checkpoint: Option<&'a Path>,
    pub progress: Option<&'a (dyn Fn(Progress) + Sync)>,
    pub stop: Option<&'a AtomicBool>,
}

/// What a finished count found.
pub(crate) struct Counted {
    /// The sum of every task of the slice, resumed ones included.
    pub tally: Tally,
    /// The list and slice counted.
    pub header: Header,
    /// Tasks the checkpoint already held.
    pub resumed: usize,
    /// What the GPU did, for a count on the GPU.
    pub gpu: Option<GpuReport>,
    /// What the journal has to say (a torn record dropped, say).
    pub notes: Vec<String>,
}

/// Why a count did not finish.
pub(crate) enum Failure {
    Engine(EngineError),
    Checkpoint(CheckpointError),
    Threads {
        threads: usize,
        source: rayon::ThreadPoolBuildError,
    },
    Gpu(GpuError),
    /// The stop flag ended it: `done` of `of` tasks are finished (and in the journal).
    Stopped {
        done: usize,
        of: usize,
    },
}

impl From<CheckpointError> for Failure {
    fn from(e: CheckpointError) -> Failure {
        Failure::Checkpoint(e)
    }
}

/// Counts `job`: every task of its slice that its checkpoint does not already hold.
pub(crate) fn count(job: &Job<'_>) -> Result<Counted, Failure> {
    let prepared = Prepared::new(job.runner, job.n, job.strategy).map_err(Failure::Engine)?;
    let tasks = prepared.tasks();
    let header = Header::new(tasks, job.shard);
    let mut todo: Vec<usize> = job.shard.indices(tasks.len()).collect();
    let total = todo.len();
    let (journal, done) = match job.checkpoint {
        Some(path) => {
            let (journal, done) = Journal::open(path, &header)?;
            (Some(journal), done)
        }
        None => (None, BTreeMap::new()),
    };
    let notes = journal
        .as_ref()
        .map_or_else(Vec::new, |j| j.notes().to_vec());
    todo.retain(|i| !done.contains_key(i));
    let before: Tally = done.values().copied().sum();
    let resumed = done.len();
    let finished = AtomicUsize::new(resumed);
    let report = |done: usize| {
        if let Some(f) = job.progress {
            f(Progress {
                done,
                total,
                resumed,
            })
        }
    };
    report(resumed);
    let never = AtomicBool::new(false);
    let stop = job.stop.unwrap_or(&never);
    if !todo.is_empty() {
        prepared.prepare(stop).map_err(Failure::Engine)?;
    }
    let on_done = |index, tally| {
        if let Some(j) = &journal {
            j.record(index, tally)?;
        }
        report(finished.fetch_add(1, Ordering::Relaxed) + 1);
        Ok(())
    };
    let outcome = prepared.count(&todo, stop, &on_done);
    if let Some(j) = &journal {
        j.sync()?;
    }
    let (outcome, gpu) = outcome.map_err(|e| match e {
        RunError::Threads { threads, source } => Failure::Threads { threads, source },
        RunError::Callback(e) => Failure::Checkpoint(e),
        RunError::Gpu(e) => Failure::Gpu(e),
    })?;
    if outcome.stopped {
        return Err(Failure::Stopped {
            done: resumed + outcome.done,
            of: total,
        });
    }
    let mut tally = before;
    tally += outcome.tally;
    // Each record was checked as it was read; a whole count resumed is checked once more as a
    // whole (see `tasks::bounds`).
    if let (Some(path), true) = (job.checkpoint, job.shard == Slice::ALL && resumed > 0) {
        bounds_check_whole(job.n, tally).map_err(|why| CheckpointError::Implausible {
            path: path.to_path_buf(),
            why,
        })?;
    }
    Ok(Counted {
        tally,
        header,
        resumed,
        gpu,
        notes,
    })
}
