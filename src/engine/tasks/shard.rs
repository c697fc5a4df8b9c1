//! Shards: one count split over many machines, then added up.
//!
//! Shard `I/K` (1-based) counts the tasks whose index `i` has `i % K == I - 1`. Interleaving
//! balances the shards: neighbouring tasks are of similar size, so every shard gets a fair share
//! of large and small ones. Each shard writes a [`ShardResult`]; [`merge`] checks that the
//! results belong to the same count, cover every shard exactly once and are undamaged, then
//! adds them.

use std::collections::BTreeMap;
use std::io::Read;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::bounds;
use super::list::Header;
pub use super::list::Slice;
use crate::engine::{Strategy, Tally};

/// The result file of one shard.
///
/// ```
/// use nqueens::{Counter, engine::tasks::shard::{ShardResult, Slice}};
/// let r = Counter::new(10).shard(Slice { index: 2, count: 3 }).run().unwrap();
/// let shard = ShardResult::new(r.list.as_ref().unwrap(), r.tally, r.seconds, "node7".into());
/// assert_eq!((shard.shard, shard.shards, shard.tally()), (2, 3, r.tally));
/// assert_eq!(shard.checksum, shard.expected_checksum());
/// // The file round-trips; a changed count no longer matches its checksum.
/// let text = serde_json::to_string(&shard).unwrap();
/// let mut back = ShardResult::read(text.as_bytes()).unwrap();
/// assert_eq!(back, shard);
/// back.total += 1;
/// assert_ne!(back.checksum, back.expected_checksum());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// Always `"nqueens-shard"`, so other JSON files are recognised as such.
    pub format: String,
    /// Board size.
    pub n: usize,
    /// Strategy of the task list.
    pub strategy: Strategy,
    /// Version of the task list.
    pub task_list_version: u32,
    /// Number of tasks in the whole list.
    pub tasks: usize,
    /// Which shard, from 1.
    pub shard: usize,
    /// How many shards.
    pub shards: usize,
    /// Tasks counted in this shard.
    pub tasks_counted: usize,
    /// Solutions in this shard.
    pub total: u128,
    /// Eight times this shard's share of the unique count.
    pub unique8: u128,
    /// Wall-clock seconds of the run that finished this shard: a shard resumed from a
    /// checkpoint counts only its last run, so the sum over shards is the wall time of the
    /// shards' last runs, not CPU time (each run used all the threads it was given).
    pub seconds: f64,
    /// The machine that counted it.
    pub hostname: String,
    /// The version of `nqueens` that counted it.
    pub engine: String,
    /// CRC-32 (hex) of every field above except `seconds` and `hostname`.
    pub checksum: String,
}

/// The most shards a count can be split into.
pub const MAX_SHARDS: usize = 1 << 24;

/// The largest [`ShardResult::seconds`] a result may claim: about 31 years.
pub const MAX_SECONDS: f64 = 1e9;

/// The largest shard result file: one is a few hundred bytes.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;

/// The value of [`ShardResult::format`].
pub const FORMAT: &str = "nqueens-shard";

impl ShardResult {
    /// The result of counting the slice of the task list `list` describes to `tally` (example on [`ShardResult`]).
    pub fn new(list: &Header, tally: Tally, seconds: f64, hostname: String) -> ShardResult {
        let slice = list.slice;
        let mut r = ShardResult {
            format: FORMAT.to_string(),
            n: list.n,
            strategy: list.strategy,
            task_list_version: list.version,
            tasks: list.tasks,
            shard: slice.index,
            shards: slice.count,
            tasks_counted: slice.indices(list.tasks).count(),
            total: tally.total,
            unique8: tally.unique8,
            seconds,
            hostname,
            engine: env!("CARGO_PKG_VERSION").to_string(),
            checksum: String::new(),
        };
        r.checksum = r.expected_checksum();
        r
    }

    /// The bytes of a result file, refusing one larger than [`MAX_FILE_BYTES`] after reading
    /// no more than one byte beyond it: the one bounded reader of [`read`](Self::read) and of
    /// the Python module, which keeps the text.
    ///
    /// ```
    /// use nqueens::engine::tasks::shard::ShardResult;
    /// assert_eq!(ShardResult::read_bytes(&b"{}"[..]).unwrap(), b"{}");
    /// assert!(ShardResult::read_bytes(std::io::repeat(0)).unwrap_err().contains("larger than"));
    /// ```
    ///
    /// # Errors
    /// The read's error, or the size, in words.
    pub fn read_bytes(input: impl Read) -> Result<Vec<u8>, String> {
        let mut text = Vec::new();
        input
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut text)
            .map_err(|e| format!("cannot read it: {e}"))?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(format!(
                "not a shard result: larger than {MAX_FILE_BYTES} bytes"
            ));
        }
        Ok(text)
    }

    /// The checksum the fields call for (example on [`ShardResult`]).
    pub fn expected_checksum(&self) -> String {
        let body = format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
            self.format,
            self.n,
            self.strategy.name(),
            self.task_list_version,
            self.tasks,
            self.shard,
            self.shards,
            self.tasks_counted,
            self.total,
            self.unique8,
            self.engine
        );
        format!("{:08x}", crc32fast::hash(body.as_bytes()))
    }

    /// Reads a result file, refusing one larger than [`MAX_FILE_BYTES`] before decoding it.
    ///
    /// ```
    /// use nqueens::engine::tasks::shard::ShardResult;
    /// assert!(ShardResult::read(&b"{\"format\": 1}"[..]).is_err());
    /// assert!(ShardResult::read(std::io::repeat(b' ')).unwrap_err().contains("larger than"));
    /// ```
    ///
    /// # Errors
    /// Why the input is not a shard result, in words.
    pub fn read(input: impl Read) -> Result<ShardResult, String> {
        let text = Self::read_bytes(input)?;
        let json = text.strip_prefix(crate::format::BOM).unwrap_or(&text);
        serde_json::from_slice(json).map_err(|e| {
            // The decoder's message may quote a whole string of the file: keep its start.
            let message = e.to_string();
            match message.char_indices().nth(160) {
                Some((cut, _)) => format!("not a shard result: {}...", &message[..cut]),
                None => format!("not a shard result: {message}"),
            }
        })
    }

    /// What this shard counted (example on [`ShardResult`]).
    pub fn tally(&self) -> Tally {
        Tally {
            total: self.total,
            unique8: self.unique8,
        }
    }
}

/// Why shard results cannot be added up.
///
/// ```
/// use nqueens::engine::tasks::shard::{merge, MergeError};
/// assert_eq!(merge(&[]), Err(MergeError::Empty));
/// ```
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// No results were given.
    #[error("no shard results to merge")]
    Empty,
    /// A result's checksum does not match its content.
    #[error("{file}: corrupted (checksum {found}, content says {expected})")]
    Corrupt {
        /// The file.
        file: String,
        /// The checksum in the file, quoted (and cut if long) by [`crate::format::excerpt`].
        found: String,
        /// The checksum of the content.
        expected: String,
    },
    /// A result is internally inconsistent.
    #[error("{file}: {why}")]
    Invalid {
        /// The file.
        file: String,
        /// What is wrong.
        why: String,
    },
    /// Two results belong to different counts or split the list differently.
    #[error("{file} does not belong with {first}: {why}")]
    Mismatch {
        /// The file that differs.
        file: String,
        /// The first file.
        first: String,
        /// What differs.
        why: String,
    },
    /// The same shard was given twice.
    #[error("shard {shard}/{shards} given twice: {first} and {second}")]
    Duplicate {
        /// The shard.
        shard: usize,
        /// Number of shards.
        shards: usize,
        /// One file.
        first: String,
        /// The other file.
        second: String,
    },
    /// The shards add up to what no count of their N can be.
    #[error("the shards add up to a wrong count: {0}")]
    Implausible(String),
    /// Some shards are missing.
    #[error(
        "{} of {shards} shards missing: {} (a Slurm job array reruns them with `sbatch --array={}`)",
        count(missing),
        list(missing),
        list(missing)
    )]
    Missing {
        /// The missing shard numbers, as runs of consecutive numbers.
        missing: Vec<RangeInclusive<usize>>,
        /// Number of shards.
        shards: usize,
    },
}

fn count(missing: &[RangeInclusive<usize>]) -> usize {
    missing.iter().map(|r| r.end() - r.start() + 1).sum()
}

/// The runs as `sbatch --array` takes them: `2,5-7`.
fn list(missing: &[RangeInclusive<usize>]) -> String {
    let runs: Vec<String> = missing
        .iter()
        .map(|r| match r.end() - r.start() {
            0 => r.start().to_string(),
            _ => format!("{}-{}", r.start(), r.end()),
        })
        .collect();
    runs.join(",")
}

/// Checks that `results` (each with a name for messages) are the complete, undamaged set of
/// shards of one count, and adds them up.
///
/// ```
/// use nqueens::{Counter, engine::tasks::shard::{merge, ShardResult, Slice}};
/// let shard = |i| {
///     let r = Counter::new(8).shard(Slice { index: i, count: 2 }).run().unwrap();
///     let list = r.list.as_ref().unwrap();
///     (format!("s{i}.json"), ShardResult::new(list, r.tally, r.seconds, "here".into()))
/// };
/// let sum = merge(&[shard(1), shard(2)]).unwrap();
/// assert_eq!((sum.total, sum.unique()), (92, 12));
/// assert!(merge(&[shard(1)]).is_err());
/// ```
///
/// # Errors
/// [`MergeError`] if the results belong to different counts, miss or repeat a shard, or
/// one is damaged.
pub fn merge(results: &[(String, ShardResult)]) -> Result<Tally, MergeError> {
    let (first_name, first) = results.first().ok_or(MergeError::Empty)?;
    // Keyed by shard rather than a slot for each of `shards`: memory follows the files given,
    // not the number of shards a file claims.
    let mut seen: BTreeMap<usize, &str> = BTreeMap::new();
    let mut sum = Tally::default();
    for (name, r) in results {
        let expected = r.expected_checksum();
        if r.checksum != expected {
            return Err(MergeError::Corrupt {
                file: name.clone(),
                found: crate::format::excerpt(&r.checksum),
                expected,
            });
        }
        let invalid = |why: String| MergeError::Invalid {
            file: name.clone(),
            why,
        };
        if r.format != FORMAT {
            return Err(invalid(format!(
                "not a shard result (format {})",
                crate::format::excerpt(&r.format)
            )));
        }
        if !(0.0..=MAX_SECONDS).contains(&r.seconds) {
            // `{:e}` for a claim too large to print in full (`1e300` has 301 digits).
            let claim = if r.seconds.abs() < MAX_SECONDS * 1e3 {
                r.seconds.to_string()
            } else {
                format!("{:e}", r.seconds)
            };
            return Err(invalid(format!(
                "\"seconds\" is {claim}, not a wall time from 0 to {MAX_SECONDS} (about 31 \
                 years)"
            )));
        }
        if r.shards == 0 || r.shard == 0 || r.shard > r.shards || r.shards > MAX_SHARDS {
            return Err(invalid(format!(
                "shard {}/{} does not exist",
                r.shard, r.shards
            )));
        }
        let slice = Slice {
            index: r.shard,
            count: r.shards,
        };
        let owed = slice.indices(r.tasks).count();
        if r.tasks_counted != owed {
            return Err(invalid(format!(
                "counted {} tasks, shard {slice} has {owed}",
                r.tasks_counted
            )));
        }
        let differs = [
            (r.n != first.n, format!("N={} vs N={}", r.n, first.n)),
            (
                r.strategy != first.strategy,
                format!("strategy {:?} vs {:?}", r.strategy, first.strategy),
            ),
            (
                r.task_list_version != first.task_list_version || r.tasks != first.tasks,
                format!(
                    "task list version {} ({} tasks) vs {} ({} tasks)",
                    r.task_list_version, r.tasks, first.task_list_version, first.tasks
                ),
            ),
            (
                r.shards != first.shards,
                format!(
                    "split into {} shards vs {}: the shards overlap",
                    r.shards, first.shards
                ),
            ),
        ];
        if let Some((_, why)) = differs.into_iter().find(|(d, _)| *d) {
            return Err(MergeError::Mismatch {
                file: name.clone(),
                first: first_name.clone(),
                why,
            });
        }
        // The files agree with the first one; it agrees with the task list of its N.
        if seen.is_empty() {
            let list = crate::engine::strategy::task_list(r.n, r.strategy)
                .map_err(|e| invalid(e.to_string()))?;
            if (r.task_list_version, r.tasks) != (list.version(), list.len()) {
                return Err(invalid(format!(
                    "task list version {} of {} tasks, but N={} by {} is version {} of {} tasks",
                    r.task_list_version,
                    r.tasks,
                    r.n,
                    r.strategy.name(),
                    list.version(),
                    list.len()
                )));
            }
        }
        let tally = Tally {
            total: r.total,
            unique8: r.unique8,
        };
        bounds::check_slice(r.n, r.strategy, r.tasks, slice, tally)
            .map_err(|why| invalid(format!("shard {slice}: {why}")))?;
        if let Some(other) = seen.insert(r.shard, name) {
            return Err(MergeError::Duplicate {
                shard: r.shard,
                shards: r.shards,
                first: other.to_string(),
                second: name.clone(),
            });
        }
        sum = sum
            .total
            .checked_add(r.total)
            .zip(sum.unique8.checked_add(r.unique8))
            .map(|(total, unique8)| Tally { total, unique8 })
            .ok_or_else(|| invalid("the counts add up past 2^128: not a count of queens".into()))?;
        // Bounded by the board's count and so far from overflow, only while it grows: the sum
        // of the shards is checked again as a whole below.
        bounds::check_slice(r.n, r.strategy, r.tasks, Slice::ALL, sum)
            .map_err(|why| invalid(format!("with the shards before it, {why}")))?;
    }
    // The gaps between the shards given, in order.
    let mut missing = Vec::new();
    let mut next = 1;
    for &shard in seen.keys().chain([first.shards + 1].iter()) {
        if shard > next {
            missing.push(next..=shard - 1);
        }
        next = shard + 1;
    }
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing,
            shards: first.shards,
        });
    }
    bounds::check_whole(first.n, sum).map_err(MergeError::Implausible)?;
    Ok(sum)
}
