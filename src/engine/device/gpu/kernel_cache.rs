//! Kernels compiled by NVRTC, kept on disk so that the next count on the machine does not
//! compile them again (a few tenths of a second of ptxas for the join's two kernels: most of a
//! small count's time on a GPU).
//!
//! A kernel's file is named by a hash of everything its machine code depends on: this crate's
//! version, the source, and the compile options (the architecture among them). What is read
//! back must look like machine code (an ELF file) or it is compiled again; a file is written
//! whole under another name and then renamed, so a reader never sees half of one. Nothing here
//! is an error: a cache that cannot be read or written is a compile.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// Where kernels are kept: `$NQUEENS_KERNEL_CACHE`, else `$XDG_CACHE_HOME/nqueens/kernels`,
/// else `~/.cache/nqueens/kernels`; none if `NQUEENS_KERNEL_CACHE` is `off` (to time a cold
/// start) or no home is known.
#[must_use]
pub fn dir() -> Option<PathBuf> {
    match std::env::var_os("NQUEENS_KERNEL_CACHE") {
        Some(v) if v == "off" => None,
        Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
        _ => std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|cache| cache.join("nqueens").join("kernels")),
    }
}

/// The file, in `dir`, of the kernel compiled from `source` with `options`.
///
/// ```
/// use nqueens::engine::device::gpu::kernel_cache::file;
/// let dir = std::path::Path::new("/tmp/k");
/// let a = file(dir, "int x;", &["--gpu-architecture=sm_90".into()]);
/// assert_eq!(a, file(dir, "int x;", &["--gpu-architecture=sm_90".into()]));
/// assert_ne!(a, file(dir, "int x;", &["--gpu-architecture=sm_80".into()]));
/// assert_ne!(a, file(dir, "int y;", &["--gpu-architecture=sm_90".into()]));
/// ```
#[must_use]
pub fn file(dir: &Path, source: &str, options: &[String]) -> PathBuf {
    let mut hasher = DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    source.hash(&mut hasher);
    options.hash(&mut hasher);
    dir.join(format!("{:016x}.cubin", hasher.finish()))
}

/// The machine code kept in `path`, if it is there and is an ELF file.
#[must_use]
pub fn read(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path)
        .ok()
        .filter(|bytes| bytes.starts_with(b"\x7fELF"))
}

/// Keeps `cubin` in `path` (its folder made if need be), whole or not at all.
pub fn keep(path: &Path, cubin: &[u8]) {
    let Some(folder) = path.parent() else {
        return;
    };
    let part = path.with_extension(format!("part{}", std::process::id()));
    let kept = std::fs::create_dir_all(folder)
        .and_then(|()| std::fs::write(&part, cubin))
        .and_then(|()| std::fs::rename(&part, path));
    if kept.is_err() {
        let _ = std::fs::remove_file(&part);
    }
}
