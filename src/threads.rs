//! Threads: how many cores this process may use, and the one way a pool of threads is made.

use std::sync::OnceLock;

/// The cores this process may use, asked once: on Linux the question reads the cgroup's files,
/// which costs more than a small count.
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |p| p.get()))
}

/// A pool of `threads` threads, at least one and at most one per core: more threads than cores
/// only add switching (and a number from a user must not start a million threads).
pub(crate) fn pool(threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.clamp(1, cores()))
        .build()
}
