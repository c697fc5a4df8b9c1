//! Result files (`--out`, `bench --json/--csv/--plot`): checked before any work starts, written
//! atomically at the end.
//!
//! A result file is prepared before counting: the path is followed through symbolic links to
//! the file they name, and refused if what is there is not a regular file, is read-only or not
//! writable by this user, or is a checkpoint that a running count holds (its lock); a file that
//! does not exist yet is made and removed at once, so that a name the system refuses (too
//! long, under a file: `y.json/`) is refused before the work. A temporary file made and
//! removed at once beside it proves the directory is writable. At the end the
//! text goes into a new temporary file, which is synced, given the mode (and where allowed the
//! owner) of the file it replaces, and renamed over the target, so a reader sees the old file
//! or the whole new one, a link keeps pointing where it did, and two runs never share a
//! temporary name. A new file gets the mode the umask gives (0644 under the usual 022), as
//! `>` in a shell would. Only a run killed in the instant between the two steps of the end can
//! leave a temporary file.

use std::fs::{File, Metadata, OpenOptions, Permissions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::bad_input;

/// A result file ready to be written.
pub struct OutFile {
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    /// The file it names, links followed.
    target: PathBuf,
    /// The directory the temporary file goes into.
    dir: PathBuf,
}

impl OutFile {
    /// Prepares `path`: refuses what is not (or cannot become) a regular file, a file this run
    /// may not write, and a checkpoint in use, and checks the directory is writable.
    pub fn prepare(path: &Path) -> anyhow::Result<OutFile> {
        let target = resolve(path)?;
        match std::fs::metadata(&target) {
            Ok(meta) => refuse_existing(path, &target, &meta)?,
            Err(_) => try_name(path, &target)?,
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        // Dropped (removed) at once: the real temporary file is made only when the result is
        // written, so a run killed before that leaves nothing behind.
        temporary(&dir).map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))?;
        Ok(OutFile {
            shown: path.to_path_buf(),
            target,
            dir,
        })
    }

    /// Refuses two result files of one command that are the same file (links followed): one
    /// result would overwrite the other. `paths` pairs each option with its path, if given.
    pub fn distinct(paths: &[(&str, Option<&Path>)]) -> anyhow::Result<()> {
        let given: Vec<(&str, &Path)> = paths
            .iter()
            .filter_map(|&(option, path)| Some((option, path?)))
            .collect();
        for (i, (a, pa)) in given.iter().enumerate() {
            if let Some((b, pb)) = given[i + 1..].iter().find(|(_, pb)| same_file(pa, pb)) {
                return Err(bad_input(format!(
                    "{a} and {b} name the same file ({}); each result needs a file of its own",
                    pb.display()
                )));
            }
        }
        Ok(())
    }

    /// The file the result will land in (links followed).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Writes `text` and a newline, syncs, and renames the file into place with the mode (and
    /// where allowed the owner) of the file it replaces.
    pub fn commit(self, text: &str) -> anyhow::Result<()> {
        let shown = self.shown.display().to_string();
        let mut tmp = temporary(&self.dir).with_context(|| format!("cannot write {shown}"))?;
        let old = std::fs::metadata(&self.target).ok();
        let f = tmp.as_file_mut();
        f.write_all(text.as_bytes())
            .and_then(|()| f.write_all(b"\n"))
            .and_then(|()| keep_mode_and_owner(f, old.as_ref()))
            .and_then(|()| f.sync_all())
            .with_context(|| format!("cannot write {shown}"))?;
        tmp.persist(&self.target)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot write {shown}"))?;
        Ok(())
    }
}

/// A new temporary file in `dir`, with the mode the umask gives a new file (tempfile's own
/// default is 0600, which would make every result private).
fn temporary(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".nqueens-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Asked of open(2), which takes the umask off, as for any new file.
        builder.permissions(Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Gives the temporary file `f` the permissions of the file it will replace, and on Unix its
/// owner and group where this user may (root, or a group of ours): a result replaced must not
/// become private, nor public.
fn keep_mode_and_owner(f: &File, old: Option<&Metadata>) -> std::io::Result<()> {
    let Some(old) = old else {
        return Ok(());
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Not allowed for most users on most files; then the file is this user's, as a copy is.
        let _ = std::os::unix::fs::fchown(f, Some(old.uid()), Some(old.gid()));
    }
    f.set_permissions(old.permissions())
}

/// Refuses an existing `target` (named `path` by the user) that a result must not replace: not
/// a regular file, read-only, not writable by this user, or a checkpoint a running count holds.
fn refuse_existing(path: &Path, target: &Path, meta: &Metadata) -> anyhow::Result<()> {
    let shown = path.display();
    if !meta.is_file() {
        return Err(bad_input(format!(
            "{shown} is not a regular file; results are written to a file (leave the option out to print them)"
        )));
    }
    // Read-only for everyone: refused even where the user could override it (root), as `rm`
    // asks before removing a write-protected file.
    if meta.permissions().readonly() {
        return Err(bad_input(format!(
            "{shown} is read-only; make it writable or choose another file"
        )));
    }
    // Opened without truncating: this changes nothing, it only asks the system.
    if let Err(e) = OpenOptions::new().write(true).open(target) {
        return Err(bad_input(format!("cannot write {shown}: {e}")));
    }
    if let Ok(file) = File::open(target)
        && let Err(TryLockError::WouldBlock) = file.try_lock()
    {
        return Err(bad_input(format!(
            "{shown} is the checkpoint of a running count; a result there would destroy it"
        )));
    }
    Ok(())
}

/// Makes the file `target` (named `path` by the user), which does not exist yet, and removes it
/// at once: the system itself says whether the name can be a file (not too long, not under a
/// file as in `y.json/`, not ending in `/`), which the rename at the end would find too late.
fn try_name(path: &Path, target: &Path) -> anyhow::Result<()> {
    // The system's word for it is "Is a directory", even where the name before the `/` is a file.
    if path
        .as_os_str()
        .to_string_lossy()
        .ends_with(['/', std::path::MAIN_SEPARATOR])
    {
        return Err(bad_input(format!(
            "{} ends in a separator: a result is written to a file, so name one",
            path.display()
        )));
    }
    match OpenOptions::new().write(true).create_new(true).open(target) {
        Ok(file) => {
            drop(file);
            std::fs::remove_file(target)
                .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))
        }
        // Made by someone else meanwhile: what is there is checked when it is replaced.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(bad_input(format!("cannot write {}: {e}", path.display()))),
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
