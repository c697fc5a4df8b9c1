//! Allocations whose size the caller chose: fallible, so that a size too large for the memory
//! at hand is an error to report, not an abort.
//!
//! Rust's `Vec` aborts the process when an allocation fails. That is right for the small
//! allocations of a search, but not for the few whose size comes straight from the user (the
//! columns of `find --random` for 10^9 queens, a perm line of 10^8 queens, the blocked squares
//! of a 32768 x 32768 board): there the memory may simply not be there (an address-space or
//! data limit, a cgroup, a busy machine), and the caller, a command line or a Python
//! interpreter, must live on to say so. Estimates made beforehand
//! ([`available_memory`]) catch most cases; these catch the rest.

use std::collections::TryReserveError;

/// Memory for a buffer could not be allocated.
///
/// ```
/// let e = nqueens::memory::OutOfMemory { bytes: 3 << 30 };
/// assert_eq!(e.to_string(), "out of memory: 3072 MiB could not be allocated");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("out of memory: {} MiB could not be allocated", bytes.div_ceil(1 << 20))]
pub struct OutOfMemory {
    /// The size of the allocation that failed, in bytes.
    pub bytes: u64,
}

impl OutOfMemory {
    fn of<T>(more: usize, _: TryReserveError) -> Self {
        OutOfMemory {
            bytes: (more as u64).saturating_mul(size_of::<T>() as u64),
        }
    }
}

/// A vector of `len` copies of `value`, or the error if it cannot be allocated.
pub(crate) fn filled<T: Clone>(value: T, len: usize) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|e| OutOfMemory::of::<T>(len, e))?;
    v.resize(len, value);
    Ok(v)
}

/// A vector of `len` values made by `make`, or the error if it cannot be allocated.
pub(crate) fn filled_with<T>(len: usize, make: impl FnMut() -> T) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|e| OutOfMemory::of::<T>(len, e))?;
    v.extend(std::iter::repeat_with(make).take(len));
    Ok(v)
}

/// Room in `v` for `more` elements beyond its length, or the error if it cannot be allocated.
pub(crate) fn reserve<T>(v: &mut Vec<T>, more: usize) -> Result<(), OutOfMemory> {
    v.try_reserve(more)
        .map_err(|e| OutOfMemory::of::<T>(v.len().saturating_add(more), e))
}

/// Pushes `value`, growing `v` fallibly (doubling, as `push` does) when it is full.
#[inline]
pub(crate) fn push<T>(v: &mut Vec<T>, value: T) -> Result<(), OutOfMemory> {
    if v.len() == v.capacity() {
        reserve(v, v.len().max(64))?;
    }
    v.push(value);
    Ok(())
}

/// Jobs estimated to need less than this are not held to the memory available: asking costs
/// more than such a job.
const SMALL: u64 = 64 << 20;

/// The memory limit a job that needs `need` bytes is held to: `asked` where the caller set
/// one, else the memory available now ([`available_memory`]), and none for a small job. The
/// one rule of [`crate::Counter`], [`crate::large::Finder`] and the Python module.
///
/// ```
/// use nqueens::memory::limit;
/// assert_eq!(limit(1 << 40, Some(10)), 10);
/// assert_eq!(limit(1 << 10, None), u64::MAX);
/// assert!(limit(1 << 40, None) < u64::MAX);
/// ```
pub fn limit(need: u64, asked: Option<u64>) -> u64 {
    match asked {
        Some(limit) => limit,
        None if need <= SMALL => u64::MAX,
        None => available_memory(),
    }
}

/// The memory this process may still take, else 4 GiB where nothing says: the default limit
/// of [`crate::Counter`] and [`crate::large::Finder`]. On Linux the least of the memory available now
/// (`MemAvailable`), what the address-space limit (`ulimit -v`, `RLIMIT_AS`) leaves beyond the
/// address space already mapped, and what the cgroup's limit (`memory.max` of cgroup v2 along
/// the process's cgroup and its parents, `memory.limit_in_bytes` of v1) leaves beyond its use:
/// a count that starts within a limit does not die of a failed allocation half way.
///
/// ```
/// assert!(nqueens::memory::available_memory() > 0);
/// ```
pub fn available_memory() -> u64 {
    [mem_available(), address_space_left(), cgroup_left()]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(4 << 30)
}

/// The first number after `key` in the `key value` lines of `text`, times `unit`.
fn field(text: &str, key: &str, unit: u64) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .map(|v| v.saturating_mul(unit))
}

/// `MemAvailable` of `/proc/meminfo`.
fn mem_available() -> Option<u64> {
    field(
        &std::fs::read_to_string("/proc/meminfo").ok()?,
        "MemAvailable:",
        1024,
    )
}

/// The soft address-space limit less the address space mapped now (`VmSize`).
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    // "unlimited" does not parse: no limit.
    let limit = field(&limits, "Max address space", 1)?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mapped = field(&status, "VmSize:", 1024).unwrap_or(0);
    Some(limit.saturating_sub(mapped + THREAD_RESERVE * (crate::threads::cores() as u64 + 2)))
}

/// The address space each thread takes beyond what a count allocates: its stack (2 MiB) and
/// the allocator's arena for it (glibc reserves 64 MiB of address space per arena, one per
/// thread up to eight per core). Counted for the threads of the largest pool and two more
/// (the calling thread, a quarter list's builder), and only against an address-space limit:
/// it is reserved, not used.
const THREAD_RESERVE: u64 = 66 << 20;

/// The least room any memory limit of this process's cgroups leaves.
fn cgroup_left() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |path: String| std::fs::read_to_string(path).ok();
    let number = |text: Option<String>| text?.trim().parse::<u64>().ok();
    let mut least: Option<u64> = None;
    let mut consider = |limit: Option<u64>, used: Option<u64>| {
        if let Some(limit) = limit {
            let left = limit.saturating_sub(used.unwrap_or(0));
            least = Some(least.map_or(left, |l| l.min(left)));
        }
    };
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if controllers.is_empty() {
            // cgroup v2: every level from the process's group up to the root limits it.
            let mut dir = std::path::PathBuf::from(format!("/sys/fs/cgroup{path}"));
            loop {
                let at = |file: &str| dir.join(file).display().to_string();
                // "max" does not parse: no limit at this level.
                consider(
                    number(read(at("memory.max"))),
                    number(read(at("memory.current"))),
                );
                if dir.as_os_str() == "/sys/fs/cgroup" || !dir.pop() {
                    break;
                }
            }
        } else if controllers.split(',').any(|c| c == "memory") {
            // cgroup v1: the group's directory, or the mount itself inside a container.
            for dir in [
                format!("/sys/fs/cgroup/memory{path}"),
                "/sys/fs/cgroup/memory".into(),
            ] {
                consider(
                    number(read(format!("{dir}/memory.limit_in_bytes"))),
                    number(read(format!("{dir}/memory.usage_in_bytes"))),
                );
            }
        }
    }
    least
}

/// `bytes` as people read them: whole MiB, KiB or bytes.
///
/// ```
/// use nqueens::memory::human;
/// assert_eq!((human(3 << 20), human(2048), human(12)), ("3 MiB".into(), "2 KiB".into(), "12 bytes".into()));
/// ```
pub fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}
