//! The steps of the join that some CPUs have faster instructions for: gathering a word's cut
//! bits ([`Kernel::gather`], `pext`), classing words for the sort ([`Kernel::classify`]),
//! pairing quarter entries ([`Kernel::pair_up`]) and counting the stored words of a sieve
//! group disjoint from each query ([`Kernel::disjoint`]).
//!
//! One file per instruction set, each a kernel type: [`Portable`] runs anywhere; [`Avx2`] and
//! [`Avx512`] hold the proof ([`cpu::Avx2`], [`cpu::Avx512`]) that the CPU has their features,
//! so their safe methods may run those instructions. Which copy runs, and how the join uses it
//! (its [`Tuning`](super::tuning::Tuning)), is chosen once, at dispatch ([`super::JoinTasks`]).
//! Adding an instruction set is a file here, an [`Isa`](crate::engine::cpu::Isa) and an arm
//! in the dispatch and in [`each_kernel`].

mod portable;
pub(super) use portable::Portable;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
pub(super) use avx2::Avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
pub(super) use avx512::Avx512;

#[cfg(test)]
mod tests;

use std::mem::MaybeUninit;

use super::layout::{ROWS, Row, SPAN};
#[cfg(doc)]
use crate::engine::cpu;

/// Spare slots past the end that [`Kernel::pair_up`] may write (and leave unused): a whole
/// vector of 8 words may be stored from the last kept position.
pub(super) const PAIR_SLACK: usize = 8;

/// Appends to `out` what [`Kernel::pair_up`] writes: `(one | r) & mask` for every `r` of
/// `others` with `key & r == 0`, in order.
#[inline(always)]
pub(super) fn append_pairs<K: Kernel>(
    k: K,
    out: &mut Vec<u64>,
    one: u64,
    key: u64,
    mask: u64,
    others: &[u64],
) {
    out.reserve(others.len() + PAIR_SLACK);
    let spare = &mut out.spare_capacity_mut()[..others.len() + PAIR_SLACK];
    let end = k.pair_up(one, key, mask, others, spare);
    // SAFETY: `pair_up` has written the first `end` spare slots.
    unsafe { out.set_len(out.len() + end) };
}

/// Appends to `out` what [`Kernel::pair_up_many`] writes: `(one[i] | r) & mask` for every
/// `r` of `others` and every `i` with `(one[i] | blocked) & r == 0`, in some order.
#[inline(always)]
pub(super) fn append_pairs_many<K: Kernel, const M: usize>(
    k: K,
    out: &mut Vec<u64>,
    one: [u64; M],
    blocked: u64,
    mask: u64,
    others: &[u64],
) {
    out.reserve(M * others.len() + PAIR_SLACK);
    let spare = &mut out.spare_capacity_mut()[..M * others.len() + PAIR_SLACK];
    let end = k.pair_up_many(one, blocked, mask, others, spare);
    // SAFETY: `pair_up_many` has written the first `end` spare slots.
    unsafe { out.set_len(out.len() + end) };
}

/// The class of word `w` for the sort: how many of the `doubling` bits it has, above its `k`
/// `cut` bits gathered.
#[inline(always)]
pub(super) fn class_of<K: Kernel>(k: K, w: u64, cut: u64, doubling: u64, bits: u32) -> usize {
    ((w & doubling).count_ones() << bits) as usize | k.gather(w, cut) as usize
}

/// Work to run with a kernel's CPU features: the sieve's query loops, kept out of line so that
/// each kernel, width and shape is one small function of its own (inlined into the join's
/// copies, the 22 shapes made each copy one function the compiler took minutes to optimise).
pub(super) trait Compiled {
    /// Runs the work with kernel `k`.
    fn run<K: Kernel>(self, k: K) -> u64;
}

/// The steps of the join that some CPUs have faster instructions for. A value is a kernel the
/// running CPU can use: the vector kernels are only made from a proof of the CPU check.
pub(super) trait Kernel: Copy {
    /// Packs the bits of `x` at the set positions of `mask` into the low bits (BMI2's `pext`).
    fn gather(self, x: u64, mask: u64) -> u64;

    /// Runs `work` in a function of its own, compiled with this kernel's CPU features.
    #[inline(never)]
    fn compiled<W: Compiled>(self, work: W) -> u64 {
        work.run(self)
    }

    /// Writes to `classes[i]` the class of `words[i]` for the sort ([`class_of`]). `cut` has
    /// at most 8 bits and `doubling` at most 2, so a class is below `3 << 8`; `classes` is at
    /// least as long as `words`.
    #[inline(always)]
    fn classify(self, words: &[u64], cut: u64, doubling: u64, classes: &mut [u16]) {
        let bits = cut.count_ones();
        for (class, &w) in classes.iter_mut().zip(words) {
            *class = class_of(self, w, cut, doubling, bits) as u16;
        }
    }

    /// Writes `(one | r) & mask` to the front of `out` for every `r` of `others` with
    /// `key & r == 0`, in order, and returns how many it wrote (`one`: a quarter entry
    /// paired with the other quarter's, or 0 to keep the part of a list that avoids `key`).
    /// `out` must have `others.len() + PAIR_SLACK` slots; those past the returned count may be
    /// written too, with anything.
    #[inline(always)]
    fn pair_up(
        self,
        one: u64,
        key: u64,
        mask: u64,
        others: &[u64],
        out: &mut [MaybeUninit<u64>],
    ) -> usize {
        self.pair_up_keyed([one], [key], mask, others, out)
    }

    /// [`Kernel::pair_up`] for `M` entries `one` of a quarter against the same `others`, each
    /// with the key `one[i] | blocked`; the pairs are written in some order. `out` must have
    /// `M * others.len() + PAIR_SLACK` slots.
    #[inline(always)]
    fn pair_up_many<const M: usize>(
        self,
        one: [u64; M],
        blocked: u64,
        mask: u64,
        others: &[u64],
        out: &mut [MaybeUninit<u64>],
    ) -> usize {
        self.pair_up_keyed(one, one.map(|o| o | blocked), mask, others, out)
    }

    /// [`Kernel::pair_up`] for `M` entries `one[i]` against the same `others`, each with its
    /// key `keys[i]`; the pairs are written in some order. `out` must have
    /// `M * others.len() + PAIR_SLACK` slots. Here entry by entry, one pair at a time.
    #[inline(always)]
    fn pair_up_keyed<const M: usize>(
        self,
        one: [u64; M],
        keys: [u64; M],
        mask: u64,
        others: &[u64],
        out: &mut [MaybeUninit<u64>],
    ) -> usize {
        one.iter().zip(&keys).fold(0, |end, (&one, &key)| {
            let out = &mut out[end..end + others.len()];
            let mut kept = 0;
            // Every pair is written and kept by moving the end: about half pass, and a branch
            // would be mispredicted half the time.
            for &r in others {
                // In bounds: `kept` is at most the index of `r`.
                out[kept].write((one | r) & mask);
                kept += usize::from(key & r == 0);
            }
            end + kept
        })
    }

    /// The number of pairs (stored word of the group, query) that are disjoint: for each query
    /// the AND of `avoiding` (the words that avoid the class's cut bits) and one row per chunk
    /// (`C` chunks of `ROWS` rows) of the query's `sliced` bits, gathered if `G`, counted.
    /// `chunks` holds at least `C * ROWS` rows.
    #[inline(always)]
    fn disjoint<const L: usize, const C: usize, const G: bool>(
        self,
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        disjoint_lanes::<Self, L, C, G>(self, chunks, avoiding, 0..L, queries, sliced)
    }

    /// [`Kernel::disjoint`] for the stored words of one half of the group only (`half`: 0
    /// the first `L / 2` lanes, 1 the others).
    #[inline(always)]
    fn disjoint_half<const L: usize, const C: usize, const G: bool>(
        self,
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        half: usize,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        // Two calls, each with its lanes known to the compiler.
        if half == 0 {
            disjoint_lanes::<Self, L, C, G>(self, chunks, avoiding, 0..L / 2, queries, sliced)
        } else {
            disjoint_lanes::<Self, L, C, G>(self, chunks, avoiding, L / 2..L, queries, sliced)
        }
    }
}

/// [`Kernel::disjoint`] in plain Rust, on the `lanes` of the rows.
#[inline(always)]
fn disjoint_lanes<K: Kernel, const L: usize, const C: usize, const G: bool>(
    k: K,
    chunks: &[Row<L>],
    avoiding: &Row<L>,
    lanes: std::ops::Range<usize>,
    queries: &[u64],
    sliced: u64,
) -> u64 {
    // Per-lane sums, added up once per class: no horizontal add per query.
    let mut found = [0u64; L];
    for &q in queries {
        let q = if G { k.gather(q, sliced) } else { q };
        // Without gathering the chunks slice the cut bits too: `avoiding` adds nothing.
        let (mut acc, from) = if G {
            (*avoiding, 0)
        } else {
            (chunks[q as usize % ROWS], 1)
        };
        for c in from..C {
            let row = &chunks[c * ROWS + (q >> (SPAN * c)) as usize % ROWS];
            for l in lanes.clone() {
                acc[l] &= row[l];
            }
        }
        for l in lanes.clone() {
            found[l] += u64::from(acc[l].count_ones());
        }
    }
    found.iter().sum()
}

/// Runs `$body` once for every kernel this CPU runs, with `$k` bound to it and `$isa` to its
/// [`Isa`](crate::engine::cpu::Isa): the one list of kernels for the tests.
#[cfg(test)]
macro_rules! each_kernel {
    (|$k:ident, $isa:ident| $body:block) => {
        for $isa in $crate::engine::cpu::Isa::available() {
            match $isa {
                $crate::engine::cpu::Isa::Portable => {
                    let $k = $crate::engine::strategy::join::kernel::Portable;
                    $body
                }
                #[cfg(target_arch = "x86_64")]
                $crate::engine::cpu::Isa::Avx2 => {
                    let $k = $crate::engine::strategy::join::kernel::Avx2::new(
                        $crate::engine::cpu::Avx2::detect().expect("available"),
                    );
                    $body
                }
                #[cfg(target_arch = "x86_64")]
                $crate::engine::cpu::Isa::Avx512 => {
                    let $k = $crate::engine::strategy::join::kernel::Avx512::new(
                        $crate::engine::cpu::Avx512::detect().expect("available"),
                    );
                    $body
                }
                #[allow(unreachable_patterns)]
                _ => unreachable!("{} is not available here", $isa),
            }
        }
    };
}
#[cfg(test)]
pub(super) use each_kernel;
