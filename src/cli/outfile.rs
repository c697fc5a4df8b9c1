//! Result files (`--out`, `bench --json/--csv/--plot`): checked before any work starts, written
//! atomically at the end.
//!
//! A result file is prepared before counting: the path is followed through symbolic links to
//! the file they name, anything there that is not a regular file is refused, and a temporary
//! file with a unique name is created beside it, which proves the directory is writable. At the
//! end the text goes into the temporary file, which is synced and renamed over the target, so a
//! reader sees the old file or the whole new one, a link keeps pointing where it did, and two
//! runs never share a temporary name.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use tempfile::NamedTempFile;

use super::bad_input;

/// A result file ready to be written.
pub struct OutFile {
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    /// The file it names, links followed.
    target: PathBuf,
    tmp: NamedTempFile,
}

impl OutFile {
    /// Prepares `path`: refuses what is not (or cannot become) a regular file and checks the
    /// directory is writable, by creating the temporary file there.
    pub fn prepare(path: &Path) -> anyhow::Result<OutFile> {
        let target = resolve(path)?;
        if let Ok(meta) = std::fs::metadata(&target)
            && !meta.is_file()
        {
            return Err(bad_input(format!(
                "{} is not a regular file; results are written to a file (leave the option out to print them)",
                path.display()
            )));
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let tmp = tempfile::Builder::new()
            .prefix(".nqueens-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))?;
        Ok(OutFile {
            shown: path.to_path_buf(),
            target,
            tmp,
        })
    }

    /// The file the result will land in (links followed).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Writes `text` and a newline, syncs, and renames the file into place.
    pub fn commit(mut self, text: &str) -> anyhow::Result<()> {
        let shown = self.shown.display().to_string();
        let f = self.tmp.as_file_mut();
        f.write_all(text.as_bytes())
            .and_then(|()| f.write_all(b"\n"))
            .and_then(|()| f.sync_all())
            .with_context(|| format!("cannot write {shown}"))?;
        self.tmp
            .persist(&self.target)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot write {shown}"))?;
        Ok(())
    }
}

/// `path` with every symbolic link followed, also to a file that does not exist yet.
fn resolve(path: &Path) -> anyhow::Result<PathBuf> {
    let mut path = path.to_path_buf();
    // A chain of links longer than this is a loop, as the kernel also decides (ELOOP).
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&path)
                    .with_context(|| format!("cannot read the link {}", path.display()))?;
                path = match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(bad_input(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// `true` if `a` and `b` name the same file (links followed; also for files not yet made).
pub fn same_file(a: &Path, b: &Path) -> bool {
    let canon = |p: &Path| -> Option<PathBuf> {
        let p = resolve(p).ok()?;
        let name = p.file_name()?.to_owned();
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Some(std::fs::canonicalize(dir).ok()?.join(name))
    };
    matches!((canon(a), canon(b)), (Some(x), Some(y)) if x == y)
}
