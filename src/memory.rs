//! Allocations whose size the caller chose: fallible, so that a size too large for the memory
//! at hand is an error to report, not an abort.
//!
//! Rust's `Vec` aborts the process when an allocation fails. That is right for the small
//! allocations of a search, but not for the few whose size comes straight from the user (the
//! columns of `find --random` for 10^9 queens, a perm line of 10^8 queens, the blocked squares
//! of a 32768 x 32768 board): there the memory may simply not be there (an address-space or
//! data limit, a cgroup, a busy machine), and the caller, a command line or a Python
//! interpreter, must live on to say so. Estimates made beforehand
//! ([`available_memory`](crate::counter::available_memory)) catch most cases; these catch the rest.

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
