//! Helpers shared by the integration tests.
#![allow(dead_code)]

/// The published (total, unique) for `n` (OEIS A000170 and A002562, `data/counts.tsv`).
pub fn counts(n: usize) -> (u128, u128) {
    nqueens::reference::published(n).unwrap_or_else(|| panic!("no published count for N={n}"))
}
