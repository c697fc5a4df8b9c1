//! Standard output: one rule, for every command, `--help` and `--version` included.
//!
//! - A reader that goes away (`nqueens solve 14 | head`) had what it wanted: the command stops
//!   quietly, with exit code 0 ([`super::is_broken_pipe`], applied in `main`).
//! - A write that fails otherwise (`> /dev/full`, a full disk) is an error: one line, exit 1.
//! - Standard output closed when the program starts (`>&-`) is refused before any work, one
//!   line, exit 1, by every command that prints its result there (a count with `--out` and
//!   `man --dir` do not). It has to be seen before `main`: the Rust runtime puts `/dev/null` in
//!   place of a closed standard stream before `main` runs, and the result would vanish with
//!   exit code 0.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;

/// Set before `main` if standard output was closed when the program started.
static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Looks at standard output before the runtime replaces a closed one.
#[cfg(unix)]
extern "C" fn look_before_main() {
    // SAFETY: F_GETFD only asks whether the descriptor is open; it reads and changes no memory
    // of ours, and fails (with EBADF) only for a closed descriptor.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Run by the loader before `main` (and before the runtime's own start-up code).
#[cfg(unix)]
#[used]
#[cfg_attr(
    target_vendor = "apple",
    unsafe(link_section = "__DATA,__mod_init_func")
)]
#[cfg_attr(not(target_vendor = "apple"), unsafe(link_section = ".init_array"))]
static LOOK_BEFORE_MAIN: extern "C" fn() = look_before_main;

/// The error for a closed standard output, if it is closed.
///
/// # Errors
/// Standard output was closed when the program started.
pub fn refuse_closed() -> anyhow::Result<()> {
    if CLOSED_AT_START.load(Ordering::Relaxed) {
        anyhow::bail!(
            "standard output is closed, so the result would be lost: send it to a file, or to \
             /dev/null to throw it away"
        );
    }
    Ok(())
}

/// Writes `bytes` to standard output and flushes it.
///
/// # Errors
/// The write failed (a reader gone away is told apart by [`super::is_broken_pipe`]).
pub fn write_all(bytes: &[u8], what: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .with_context(|| format!("cannot write {what}"))
}
