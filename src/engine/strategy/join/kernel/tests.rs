//! Every kernel this CPU runs against the obvious definition of each step (and so against the
//! portable kernel), on random inputs.

use proptest::prelude::*;

use super::*;
use crate::engine::strategy::join::layout::{NARROW, WIDE};

/// `pext` bit by bit.
fn gather_slowly(x: u64, mask: u64) -> u64 {
    let (mut out, mut next) = (0, 0);
    for bit in 0..64 {
        if mask >> bit & 1 == 1 {
            out |= (x >> bit & 1) << next;
            next += 1;
        }
    }
    out
}

/// Words with about a quarter of their bits set, like half-board words.
fn sparse() -> impl Strategy<Value = u64> {
    (any::<u64>(), any::<u64>()).prop_map(|(a, b)| a & b)
}

/// Up to 8 bits of a word.
fn cut() -> impl Strategy<Value = u64> {
    prop::collection::vec(0..64u32, 0..=8).prop_map(|bits| bits.iter().fold(0, |c, b| c | 1 << b))
}

proptest! {
    #[test]
    fn gather_packs_the_masked_bits(x: u64, mask: u64) {
        each_kernel!(|k, isa| {
            prop_assert_eq!(k.gather(x, mask), gather_slowly(x, mask), "{}", isa);
        });
    }

    #[test]
    fn classify_counts_the_doubling_bits_above_the_cut_bits_gathered(
        words in prop::collection::vec(any::<u64>(), 0..40),
        cut in cut(),
        doubling in prop::collection::vec(0..64u32, 0..=2),
    ) {
        let doubling = doubling.iter().fold(0u64, |d, b| d | 1 << b);
        let slow: Vec<u16> = words
            .iter()
            .map(|&w| {
                let weight = (w & doubling).count_ones() as u16;
                weight << cut.count_ones() | gather_slowly(w, cut) as u16
            })
            .collect();
        each_kernel!(|k, isa| {
            let mut fast = vec![u16::MAX; words.len() + 3];
            k.classify(&words, cut, doubling, &mut fast);
            prop_assert_eq!(&fast[..words.len()], &slow[..], "{}", isa);
        });
    }

    #[test]
    fn pair_up_keeps_the_others_that_avoid_the_key_masked(
        others in prop::collection::vec(sparse(), 0..45),
        one in sparse(),
        key in prop_oneof![Just(0), Just(!0), sparse()],
        mask in prop_oneof![Just(!0), any::<u64>()],
    ) {
        let slow: Vec<u64> = others
            .iter()
            .filter(|&&r| r & key == 0)
            .map(|&r| (one | r) & mask)
            .collect();
        each_kernel!(|k, isa| {
            let mut fast = vec![0xdead];
            append_pairs(k, &mut fast, one, key, mask, &others);
            prop_assert_eq!(fast.remove(0), 0xdead, "what `out` held is kept");
            prop_assert_eq!(&fast, &slow, "{}", isa);
        });
    }

    #[test]
    fn pairing_many_entries_at_once_keeps_what_each_alone_keeps(
        others in prop::collection::vec(sparse(), 0..30),
        one in prop::array::uniform3(sparse()),
        blocked in prop_oneof![Just(0), sparse()],
        mask in prop_oneof![Just(!0), any::<u64>()],
    ) {
        fn check<K: Kernel, const M: usize>(
            k: K,
            one: [u64; M],
            blocked: u64,
            mask: u64,
            others: &[u64],
        ) -> Result<(), TestCaseError> {
            let mut slow: Vec<u64> = one
                .iter()
                .flat_map(|&o| {
                    let kept = others.iter().filter(move |&&r| (o | blocked) & r == 0);
                    kept.map(move |&r| (o | r) & mask)
                })
                .collect();
            let mut fast = Vec::new();
            append_pairs_many::<K, M>(k, &mut fast, one, blocked, mask, others);
            // In some order: the same pairs, each once.
            slow.sort_unstable();
            fast.sort_unstable();
            prop_assert_eq!(fast, slow);
            Ok(())
        }
        each_kernel!(|k, isa| {
            let _ = isa;
            check(k, [one[0]], blocked, mask, &others)?;
            check(k, [one[0], one[1]], blocked, mask, &others)?;
            check(k, one, blocked, mask, &others)?;
        });
    }

    #[test]
    fn disjoint_counts_the_rows_anded(
        seed in prop::collection::vec(sparse(), 3 * ROWS * WIDE + WIDE),
        queries in prop::collection::vec(any::<u64>(), 0..11),
        sliced in any::<u64>(),
    ) {
        // Three chunks of random rows (not a sieve's: the step is defined on any rows).
        fn rows<const L: usize>(seed: &[u64]) -> (Vec<Row<L>>, Row<L>) {
            let mut rows: Vec<Row<L>> = seed
                .chunks_exact(L)
                .map(|c| Row(c.try_into().expect("L words")))
                .collect();
            let avoiding = rows.pop().expect("one more row");
            rows.truncate(3 * ROWS);
            (rows, avoiding)
        }
        fn slow<const L: usize, const G: bool>(
            rows: &[Row<L>],
            avoiding: &Row<L>,
            lanes: std::ops::Range<usize>,
            queries: &[u64],
            sliced: u64,
        ) -> u64 {
            queries
                .iter()
                .map(|&q| {
                    let q = if G { gather_slowly(q, sliced) } else { q };
                    lanes
                        .clone()
                        .map(|l| {
                            let mut acc = if G { avoiding[l] } else { rows[q as usize % ROWS][l] };
                            for c in usize::from(!G)..3 {
                                acc &= rows[c * ROWS + (q >> (SPAN * c)) as usize % ROWS][l];
                            }
                            u64::from(acc.count_ones())
                        })
                        .sum::<u64>()
                })
                .sum()
        }
        let (narrow, narrow_avoiding) = rows::<NARROW>(&seed[..3 * ROWS * NARROW + NARROW]);
        let (wide, wide_avoiding) = rows::<WIDE>(&seed);
        each_kernel!(|k, isa| {
            for gathered in [false, true] {
                let (n, w) = if gathered {
                    (
                        k.disjoint::<NARROW, 3, true>(&narrow, &narrow_avoiding, &queries, sliced),
                        k.disjoint::<WIDE, 3, true>(&wide, &wide_avoiding, &queries, sliced),
                    )
                } else {
                    (
                        k.disjoint::<NARROW, 3, false>(&narrow, &narrow_avoiding, &queries, sliced),
                        k.disjoint::<WIDE, 3, false>(&wide, &wide_avoiding, &queries, sliced),
                    )
                };
                let (sn, sw) = if gathered {
                    (
                        slow::<NARROW, true>(&narrow, &narrow_avoiding, 0..NARROW, &queries, sliced),
                        slow::<WIDE, true>(&wide, &wide_avoiding, 0..WIDE, &queries, sliced),
                    )
                } else {
                    (
                        slow::<NARROW, false>(&narrow, &narrow_avoiding, 0..NARROW, &queries, sliced),
                        slow::<WIDE, false>(&wide, &wide_avoiding, 0..WIDE, &queries, sliced),
                    )
                };
                prop_assert_eq!(n, sn, "{} narrow, gathered: {}", isa, gathered);
                prop_assert_eq!(w, sw, "{} wide, gathered: {}", isa, gathered);
                for half in 0..2 {
                    let lanes = if half == 0 { 0..WIDE / 2 } else { WIDE / 2..WIDE };
                    let fast = k.disjoint_half::<WIDE, 3, true>(&wide, &wide_avoiding, half, &queries, sliced);
                    let slow = slow::<WIDE, true>(&wide, &wide_avoiding, lanes, &queries, sliced);
                    prop_assert_eq!(fast, slow, "{} half {}", isa, half);
                }
            }
        });
    }
}
