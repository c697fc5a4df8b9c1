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
//! One run at a time: the journal is held with an advisory lock (`flock`) while it is open, so a
//! second run of the same count (a job started twice, a requeue racing the old job) is refused
//! in one line instead of doing the work twice; the operating system drops the lock when the
//! process ends, however it ends. Only a regular file can be a journal: a device or a pipe
//! (`/dev/zero`, `/dev/full`) is refused before anything is read or written.
//!
//! Reading is strict: a complete line (ending in a newline) that does not parse or whose CRC
//! does not match is corruption, and the checkpoint is refused rather than trusted. The one
//! exception is a *torn* last line, with no newline at its end: the only way to get one is a
//! write cut short by a crash, so it is dropped (with a note in [`Journal::notes`]) and its
//! task counted again. Lines are read one at a time, none longer than a record can be, so memory is the
//! finished tasks and nothing more.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use super::bounds;
pub use super::list::Header;
use crate::engine::Tally;
use crate::format::excerpt;

/// The header line of a journal for the list `header` names.
fn header_line(header: &Header) -> String {
    let body = format!(
        "nqueens-checkpoint 1 n={} strategy={} version={} tasks={} shard={}",
        header.n,
        header.strategy.name(),
        header.version,
        header.tasks,
        header.slice
    );
    format!("{body} crc={:08x}\n", crc32fast::hash(body.as_bytes()))
}

/// Why a checkpoint cannot be used.
///
/// ```
/// use nqueens::engine::{strategy::task_list, Strategy};
/// use nqueens::engine::tasks::{checkpoint::{Header, Journal}, shard::Slice};
/// let h = Header::new(task_list(8, Strategy::Backtrack).unwrap().as_ref(), Slice::ALL);
/// let Err(err) = Journal::open(std::path::Path::new("/dev/null"), &h) else { panic!() };
/// assert!(err.to_string().contains("not a regular file"), "{err}");
/// ```
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
    #[error(
        "checkpoint {path} is corrupted at line {line}: {why}; it cannot be trusted (delete it to start over)"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The count finished from its records is one its N cannot have (see
    /// [`bounds::check_whole`]).
    #[error(
        "checkpoint {path} cannot be right: the count resumed from it gives {why}; it cannot be trusted (delete it to start over)"
    )]
    Implausible {
        /// The journal.
        path: PathBuf,
        /// What the count came to, and why it cannot be.
        why: String,
    },
    /// The file, or its folder, may not be written by this user.
    #[error(
        "checkpoint {path} cannot be written: {source}; a checkpoint must be a file this run can append to"
    )]
    Unwritable {
        /// The file.
        path: PathBuf,
        /// The operating system's refusal.
        source: std::io::Error,
    },
    /// The path is not a regular file (a device, a pipe, a directory).
    #[error(
        "checkpoint {path} is not a regular file: a checkpoint must be a file that can be read back and appended to"
    )]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Another run holds the checkpoint.
    #[error(
        "checkpoint {path} is in use by another run; two runs of one count would count the same tasks twice"
    )]
    Busy {
        /// The file.
        path: PathBuf,
    },
    /// The file was deleted, replaced or cut short while the run was recording into it: the
    /// records it held are gone, so the run stops instead of claiming them.
    #[error(
        "checkpoint {path} {why} during the run: the tasks recorded in it are lost, so the count stopped (run it again to start over)"
    )]
    Lost {
        /// The file.
        path: PathBuf,
        /// What happened to it: "was deleted", "was replaced by another file", "was cut short".
        why: &'static str,
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
///
/// ```
/// use nqueens::engine::{strategy::task_list, Strategy};
/// use nqueens::engine::tasks::{checkpoint::{Header, Journal}, shard::Slice};
/// use nqueens::engine::TaskSet;
/// let tasks = task_list(8, Strategy::Backtrack).unwrap();
/// let header = Header::new(tasks.as_ref(), Slice::ALL);
/// let path = std::env::temp_dir().join(format!("nq-doc-{}.ck", std::process::id()));
/// let (journal, done) = Journal::open(&path, &header).unwrap();
/// assert!(done.is_empty());
/// journal.record(3, tasks.count(3)).unwrap();
/// journal.sync().unwrap();
/// drop(journal);
/// // Opened again, it holds task 3; a checkpoint of another count is refused.
/// let (journal, done) = Journal::open(&path, &header).unwrap();
/// assert_eq!(done.keys().copied().collect::<Vec<_>>(), [3]);
/// drop(journal);
/// let other = Header::new(task_list(9, Strategy::Backtrack).unwrap().as_ref(), Slice::ALL);
/// assert!(Journal::open(&path, &other).is_err());
/// std::fs::remove_file(&path).unwrap();
/// ```
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
    /// Bytes the file holds at least: what was there when opened plus every record since.
    written: Arc<AtomicU64>,
    /// Set by the flusher once the file at `path` no longer holds the journal (see [`lost`]).
    lost: Arc<OnceLock<&'static str>>,
    /// Dropping the sender tells the flusher to flush one last time and stop.
    flusher: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
    /// What opening it found that the person running the count should hear of.
    notes: Vec<String>,
}

/// How often the journal is flushed to disk at most.
const SYNC_EVERY: Duration = Duration::from_secs(1);

impl Journal {
    /// Opens the checkpoint at `path` for the count described by `header`, creating it if it
    /// does not exist, and returns the journal with the tasks it already holds (example on
    /// [`Journal`]).
    ///
    /// # Errors
    /// [`CheckpointError`]: the file cannot be opened, locked, read or written, is not a regular
    /// file, belongs to another count, or holds a corrupt or implausible record.
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
            .map_err(|source| match source.kind() {
                // What the user named, not a failure of the run: refused like a device.
                std::io::ErrorKind::IsADirectory => CheckpointError::NotAFile {
                    path: path.to_path_buf(),
                },
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
                    CheckpointError::Unwritable {
                        path: path.to_path_buf(),
                        source,
                    }
                }
                _ => io(source),
            })?;
        // What the person running the count should hear of ([`Journal::notes`]).
        let mut notes = Vec::new();
        // A device or a pipe (`/dev/zero`, `/dev/full`) would be read or written forever.
        if !file.metadata().map_err(io)?.is_file() {
            return Err(CheckpointError::NotAFile {
                path: path.to_path_buf(),
            });
        }
        // Held until the journal is dropped (by this process or its death), so that a second
        // run of the same count cannot append to the journal at the same time.
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(CheckpointError::Busy {
                    path: path.to_path_buf(),
                });
            }
            // Some cluster file systems are mounted without locks (Lustre's default): the
            // journal still works, only the guard against a second writer is gone.
            Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
                notes.push(format!(
                    "checkpoint {}: the file system does not support locks, so nothing stops a second run from using it at the same time",
                    path.display()
                ));
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        let expected = header_line(header);
        let scan = scan(path, &file, header, &expected)?;
        // What the file holds from now on, at least: what was written or kept, not its length
        // read later, which someone may have cut meanwhile.
        let mut held = scan.valid_len;
        if scan.lines == 0 {
            // New, or a header torn by a crash before any record was written.
            file.set_len(0).map_err(io)?;
            file.write_all(expected.as_bytes()).map_err(io)?;
            held = expected.len() as u64;
            file.sync_all().map_err(io)?;
            sync_dir(path);
        } else if scan.torn {
            notes.push(format!(
                "checkpoint {}: dropped a torn last record (a write cut short by a crash or a full disk); its task is counted again",
                path.display()
            ));
            file.set_len(scan.valid_len).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        let disk = file.try_clone().map_err(io)?;
        let written = Arc::new(AtomicU64::new(held));
        let lost = Arc::new(OnceLock::new());
        let (stop, stopped) = mpsc::channel::<()>();
        let flusher = {
            let (path, written, lost) = (path.to_path_buf(), written.clone(), lost.clone());
            std::thread::spawn(move || {
                loop {
                    let last = !matches!(
                        stopped.recv_timeout(SYNC_EVERY),
                        Err(RecvTimeoutError::Timeout)
                    );
                    // A failed flush is retried a second later; records already written stay
                    // safe from a crash of this process either way.
                    let _ = disk.sync_data();
                    // Someone may delete or empty the file under a run of hours: the next
                    // record then fails, rather than the run telling at the end of tasks
                    // saved in a file that no longer holds them.
                    if let Some(why) = self::lost(&path, &disk, written.load(Ordering::Relaxed)) {
                        let _ = lost.set(why);
                    }
                    if last {
                        break;
                    }
                }
            })
        };
        let journal = Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            written,
            lost,
            flusher: Some((stop, flusher)),
            notes,
        };
        Ok((journal, scan.done))
    }

    /// What opening the journal found that the person running the count should hear of: a
    /// torn last record dropped, a file system without locks. The library prints nothing;
    /// the caller tells.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Appends the result of task `index` (flushed to disk within a second; example on
    /// [`Journal`]).
    ///
    /// # Errors
    /// [`CheckpointError`] if the write fails or the file no longer holds the journal.
    pub fn record(&self, index: usize, tally: Tally) -> Result<(), CheckpointError> {
        if let Some(&why) = self.lost.get() {
            return Err(self.lost_error(why));
        }
        let line = record_line(index, tally);
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .map_err(|source| CheckpointError::Io {
                path: self.path.clone(),
                source,
            })?;
        // After the write: `written` never exceeds what the file holds.
        self.written.fetch_add(line.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    /// Flushes every record to disk now, and checks that the file at the journal's path still
    /// holds them (example on [`Journal`]).
    ///
    /// # Errors
    /// [`CheckpointError`] if the flush fails or the file no longer holds the journal.
    pub fn sync(&self) -> Result<(), CheckpointError> {
        let file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.sync_data().map_err(|source| CheckpointError::Io {
            path: self.path.clone(),
            source,
        })?;
        let written = self.written.load(Ordering::Relaxed);
        match self
            .lost
            .get()
            .copied()
            .or_else(|| lost(&self.path, &file, written))
        {
            Some(why) => Err(self.lost_error(why)),
            None => Ok(()),
        }
    }

    fn lost_error(&self, why: &'static str) -> CheckpointError {
        CheckpointError::Lost {
            path: self.path.clone(),
            why,
        }
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

/// Why the file at `path` no longer holds the journal written through `file` (`written` bytes
/// at least), if it does not: deleted, replaced (renamed over), or cut short. A path that
/// cannot be looked at for another reason (permissions changed) is given the benefit of doubt.
fn lost(path: &Path, file: &File, written: u64) -> Option<&'static str> {
    let open = file.metadata().ok()?;
    let named = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some("was deleted"),
        Err(_) => return None,
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if (open.dev(), open.ino()) != (named.dev(), named.ino()) {
            return Some("was replaced by another file");
        }
    }
    #[cfg(not(unix))]
    let _ = named;
    (open.len() < written).then_some("was cut short")
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

/// The longest line of a journal: a record is at most 3 numbers of 39 digits and a checksum,
/// a header about a hundred bytes.
const MAX_LINE: usize = 256;

/// What an existing journal holds.
struct Scan {
    /// The finished tasks.
    done: BTreeMap<usize, Tally>,
    /// Complete lines read (the header included).
    lines: usize,
    /// The length of the complete lines.
    valid_len: u64,
    /// Whether a torn last line follows them.
    torn: bool,
}

/// Reads the records of an existing checkpoint, one line at a time: memory is the finished
/// tasks (at most one entry per task of the shard) and one line of at most [`MAX_LINE`] bytes.
fn scan(
    path: &Path,
    file: &File,
    header: &Header,
    expected: &str,
) -> Result<Scan, CheckpointError> {
    let corrupt = |line: usize, why: String| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        line,
        why,
    };
    let mut input = BufReader::new(file);
    let mut sum = bounds::Sum::new(header.n, header.strategy, header.tasks);
    let mut raw = Vec::new();
    let mut scan = Scan {
        done: BTreeMap::new(),
        lines: 0,
        valid_len: 0,
        torn: false,
    };
    loop {
        raw.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut raw)
            .map_err(|source| CheckpointError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        let number = scan.lines + 1;
        if read == 0 {
            break;
        }
        if raw.last() == Some(&b'\n') {
            raw.pop();
        } else {
            if read > MAX_LINE {
                return Err(corrupt(
                    number,
                    format!("a line longer than {MAX_LINE} bytes"),
                ));
            }
            // The end of the file without a newline: a write cut short by a crash, unless it
            // is not even the start of a header (every byte of it: one wrong byte at its end,
            // or a file of one byte, is a file of something else, not to be overwritten).
            if number == 1 && !expected.as_bytes().starts_with(&raw) {
                return Err(corrupt(1, "not a checkpoint header".into()));
            }
            scan.torn = true;
            break;
        }
        scan.lines = number;
        scan.valid_len += read as u64;
        let text = std::str::from_utf8(&raw).map_err(|_| corrupt(number, "not text".into()))?;
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
        let mut fields = body.split(' ');
        let parsed = match (fields.next(), fields.next(), fields.next(), fields.next()) {
            (Some(i), Some(t), Some(u), None) => i
                .parse::<usize>()
                .ok()
                .zip(t.parse::<u128>().ok())
                .zip(u.parse::<u128>().ok()),
            _ => None,
        };
        let ((index, total), unique8) =
            parsed.ok_or_else(|| corrupt(number, format!("bad record {}", excerpt(body))))?;
        if index >= header.tasks || !header.slice.contains(index) {
            return Err(corrupt(
                number,
                format!("task {index} is not in shard {}", header.slice),
            ));
        }
        let tally = Tally { total, unique8 };
        match scan.done.insert(index, tally) {
            Some(old) if old != tally => {
                return Err(corrupt(
                    number,
                    format!("task {index} recorded twice with different counts"),
                ));
            }
            Some(_) => {}
            None => sum
                .add(index, tally)
                .map_err(|why| corrupt(number, format!("task {index}: {why}")))?,
        }
    }
    Ok(scan)
}
