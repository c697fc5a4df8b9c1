//! Checkpoints: an append-only journal of finished tasks, so a long count survives being stopped.
//!
//! The file is text, one line per record, each line ending in the CRC-32 of the rest of it:
//!
//! ```text
//! nqueens-checkpoint 1 n=18 strategy=backtrack version=1 tasks=4462 shard=1/1 crc=0c1f...
//! 17 154248 154248 5e0b51d2
//! 3 97652 97656 a0c3417e
//! ```
//!
//! The header names the count (board size, strategy, task-list version, number of tasks and the
//! shard); resuming with anything else is refused. Each record is `task total unique8`, written
//! with one `write` call as soon as the task finishes. A process killed at any moment (even
//! `kill -9`) has handed every finished record to the operating system, so nothing is lost; a
//! background thread flushes the file to disk (`fsync`) once a second and when the run ends, so
//! a power loss can cost at most the last second of work and never the file's consistency, and
//! no counting thread waits for the disk.
//!
//! Reading is strict: a complete line (ending in a newline) that does not parse or whose CRC
//! does not match is corruption, and the checkpoint is refused rather than trusted. The one
//! exception is a *torn* last line, with no newline at its end: the only way to get one is a
//! write cut short by a crash, so it is dropped (with a note on stderr) and its task counted
//! again.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Duration;

use super::shard::Slice;
use super::{Strategy, Tally, TaskSet};

/// What a checkpoint belongs to: resuming requires every field to match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Board size.
    pub n: usize,
    /// Strategy of the task list.
    pub strategy: Strategy,
    /// Version of the task list.
    pub version: u32,
    /// Number of tasks in the whole list.
    pub tasks: usize,
    /// The slice of the list being counted.
    pub slice: Slice,
}

impl Header {
    /// The header for counting `slice` of `tasks`.
    pub fn new(tasks: &dyn TaskSet, slice: Slice) -> Header {
        Header {
            n: tasks.n(),
            strategy: tasks.strategy(),
            version: tasks.version(),
            tasks: tasks.len(),
            slice,
        }
    }

    fn line(&self) -> String {
        let body = format!(
            "nqueens-checkpoint 1 n={} strategy={} version={} tasks={} shard={}",
            self.n,
            self.strategy.name(),
            self.version,
            self.tasks,
            self.slice
        );
        format!("{body} crc={:08x}\n", crc32fast::hash(body.as_bytes()))
    }
}

/// Why a checkpoint cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is not a checkpoint, or has been damaged.
    #[error("checkpoint {path} is corrupted at line {line}: {why}; it cannot be trusted (delete it to start over)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The file belongs to another count.
    #[error(
        "checkpoint {path} belongs to another count: it has `{found}`, this run is `{expected}`"
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The header in the file (without its checksum).
        found: String,
        /// The header this run would write.
        expected: String,
    },
}

/// An open checkpoint that records finished tasks.
///
/// Counting threads only append (one `write` each); a background thread flushes the file to disk
/// once a second, so no counting thread ever waits for the disk.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
    /// Dropping the sender tells the flusher to flush one last time and stop.
    flusher: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
}

/// How often the journal is flushed to disk at most.
const SYNC_EVERY: Duration = Duration::from_secs(1);

impl Journal {
    /// Opens the checkpoint at `path` for the count described by `header`, creating it if it
    /// does not exist, and returns the journal with the tasks it already holds.
    pub fn open(
        path: &Path,
        header: &Header,
    ) -> Result<(Journal, BTreeMap<usize, Tally>), CheckpointError> {
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let expected = header.line();
        let (done, valid_len) = if bytes.is_empty()
            || (!bytes.contains(&b'\n') && expected.as_bytes().starts_with(&bytes))
        {
            // New, or a header torn by a crash before any record was written.
            file.set_len(0).map_err(io)?;
            file.write_all(expected.as_bytes()).map_err(io)?;
            file.sync_all().map_err(io)?;
            sync_dir(path);
            (BTreeMap::new(), expected.len())
        } else {
            parse(path, &bytes, header, &expected)?
        };
        if valid_len < bytes.len() {
            eprintln!(
                "note: checkpoint {}: dropped a torn last record (a write cut short by a crash); its task is counted again",
                path.display()
            );
            file.set_len(valid_len as u64).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        let disk = file.try_clone().map_err(io)?;
        let (stop, stopped) = mpsc::channel::<()>();
        let flusher = std::thread::spawn(move || loop {
            let last = !matches!(
                stopped.recv_timeout(SYNC_EVERY),
                Err(RecvTimeoutError::Timeout)
            );
            // A failed flush is retried a second later; records already written stay safe
            // from a crash of this process either way.
            let _ = disk.sync_data();
            if last {
                break;
            }
        });
        let journal = Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            flusher: Some((stop, flusher)),
        };
        Ok((journal, done))
    }

    /// Appends the result of task `index` (flushed to disk within a second).
    pub fn record(&self, index: usize, tally: Tally) -> Result<(), CheckpointError> {
        let line = record_line(index, tally);
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .map_err(|source| CheckpointError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// Flushes every record to disk now.
    pub fn sync(&self) -> Result<(), CheckpointError> {
        let file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.sync_data().map_err(|source| CheckpointError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        if let Some((stop, flusher)) = self.flusher.take() {
            drop(stop);
            let _ = flusher.join();
        }
    }
}

/// Makes a new file's directory entry durable; best effort, since not every system allows it.
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

fn record_line(index: usize, tally: Tally) -> String {
    let body = format!("{index} {} {}", tally.total, tally.unique8);
    format!("{body} {:08x}\n", crc32fast::hash(body.as_bytes()))
}

/// Reads the records of an existing checkpoint; returns them and the length of the valid part
/// (shorter than the file only by a torn last line).
fn parse(
    path: &Path,
    bytes: &[u8],
    header: &Header,
    expected: &str,
) -> Result<(BTreeMap<usize, Tally>, usize), CheckpointError> {
    let corrupt = |line: usize, why: String| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        line,
        why,
    };
    let mut done = BTreeMap::new();
    let mut offset = 0;
    let mut number = 0;
    while let Some(end) = bytes[offset..].iter().position(|&b| b == b'\n') {
        number += 1;
        let raw = &bytes[offset..offset + end];
        offset += end + 1;
        let text = std::str::from_utf8(raw).map_err(|_| corrupt(number, "not text".into()))?;
        let (body, crc) = text
            .rsplit_once(' ')
            .ok_or_else(|| corrupt(number, "no checksum".into()))?;
        let crc = crc.strip_prefix("crc=").unwrap_or(crc);
        if u32::from_str_radix(crc, 16).ok() != Some(crc32fast::hash(body.as_bytes())) {
            return Err(corrupt(number, "checksum mismatch".into()));
        }
        if number == 1 {
            if !body.starts_with("nqueens-checkpoint ") {
                return Err(corrupt(1, "not a checkpoint header".into()));
            }
            let want = expected.rsplit_once(' ').map_or(expected, |(b, _)| b);
            if body != want {
                return Err(CheckpointError::Mismatch {
                    path: path.to_path_buf(),
                    found: body.to_string(),
                    expected: want.to_string(),
                });
            }
            continue;
        }
        let fields: Vec<&str> = body.split(' ').collect();
        let parsed = match fields[..] {
            [i, t, u] => i
                .parse::<usize>()
                .ok()
                .zip(t.parse::<u128>().ok())
                .zip(u.parse::<u128>().ok()),
            _ => None,
        };
        let ((index, total), unique8) =
            parsed.ok_or_else(|| corrupt(number, format!("bad record {body:?}")))?;
        if index >= header.tasks || !header.slice.contains(index) {
            return Err(corrupt(
                number,
                format!("task {index} is not in shard {}", header.slice),
            ));
        }
        let tally = Tally { total, unique8 };
        if done.insert(index, tally).is_some_and(|old| old != tally) {
            return Err(corrupt(
                number,
                format!("task {index} recorded twice with different counts"),
            ));
        }
    }
    if number == 0 {
        return Err(corrupt(1, "not a checkpoint header".into()));
    }
    Ok((done, offset))
}
