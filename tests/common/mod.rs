//! Helpers shared by the integration tests.
#![allow(dead_code)]

/// The published counts (OEIS A000170 total, A002562 unique) for N = 1..=27, read from
/// `tests/data/counts.tsv`, a copy of the project's reference file.
pub fn published() -> Vec<(usize, u128, u128)> {
    let text = include_str!("../data/counts.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('n'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

/// The published (total, unique) for `n`.
pub fn counts(n: usize) -> (u128, u128) {
    let (_, t, u) = published()
        .into_iter()
        .find(|&(m, _, _)| m == n)
        .unwrap_or_else(|| panic!("no published count for N={n}"));
    (t, u)
}
