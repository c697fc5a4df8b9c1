//! How a sieve lays out its stored words in memory: rows of bits, in chunks of pre-ANDed
//! patterns. Shared by the sieve that writes the rows and the kernels that read them.

use std::ops::{Deref, DerefMut};

/// 64-bit lanes per group where a side fits 256 words, or the widest vectors are AVX2's
/// without halves: 4 fill one 256-bit register.
pub(super) const NARROW: usize = 4;
/// 64-bit lanes per group of 512 words: one AVX-512 register, or two of AVX2.
pub(super) const WIDE: usize = 8;
/// Bit positions per chunk of pre-ANDed rows.
pub(super) const SPAN: usize = 6;
/// Rows per chunk: one per pattern of its bits.
pub(super) const ROWS: usize = 1 << SPAN;

/// One row: one bit per word of a group of `L` lanes, aligned to 32 bytes, so that a kernel
/// may load it (or its halves of 4 lanes) as whole 256-bit registers on the strength of the
/// type alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub(super) struct Row<const L: usize>(pub [u64; L]);

impl<const L: usize> Row<L> {
    /// A row of `L` lanes of 64 words each: rows tile 32-byte registers and 64-byte blocks
    /// only for 4 or 8 lanes (checked when a row type is used).
    pub(super) const TILES: () = assert!(L == NARROW || L == WIDE);
}

impl<const L: usize> Default for Row<L> {
    fn default() -> Row<L> {
        Row([0; L])
    }
}

impl<const L: usize> Deref for Row<L> {
    type Target = [u64; L];
    fn deref(&self) -> &[u64; L] {
        &self.0
    }
}

impl<const L: usize> DerefMut for Row<L> {
    fn deref_mut(&mut self) -> &mut [u64; L] {
        &mut self.0
    }
}

/// The rows' storage: 64-byte blocks aligned to a cache line, so that no row of 4 or 8 lanes
/// straddles two lines (a vector load that does costs two).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(super) struct Block([u64; 8]);

/// `rows` rows of `L` lanes laid over `blocks`.
///
/// # Panics
/// If the blocks hold fewer than `rows` rows.
pub(super) fn rows<const L: usize>(blocks: &[Block], rows: usize) -> &[Row<L>] {
    let () = Row::<L>::TILES;
    assert!(rows * L <= blocks.len() * 8);
    // SAFETY: a block is 8 plain `u64`s at 64-byte alignment, so `8 / L` rows of `L` lanes
    // (`L` divides 8, and a row's 32-byte alignment divides the block's) tile each block
    // exactly, and the blocks hold at least `rows` rows (asserted).
    unsafe { std::slice::from_raw_parts(blocks.as_ptr().cast(), rows) }
}

/// [`rows`], to be written.
///
/// # Panics
/// If the blocks hold fewer than `rows` rows.
pub(super) fn rows_mut<const L: usize>(blocks: &mut [Block], rows: usize) -> &mut [Row<L>] {
    let () = Row::<L>::TILES;
    assert!(rows * L <= blocks.len() * 8);
    // SAFETY: as in `rows`, and the borrow of the blocks is unique.
    unsafe { std::slice::from_raw_parts_mut(blocks.as_mut_ptr().cast(), rows) }
}
