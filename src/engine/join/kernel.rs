//! The steps of the join that some CPUs have faster instructions for, as a type, so that the
//! loops around them are compiled once per instruction set: gathering a word's cut bits
//! ([`Kernel::gather`], `pext`), classing words for the sort ([`Kernel::classify`]), pairing
//! quarter entries ([`Kernel::pair_up`]) and counting the stored words of a sieve group
//! disjoint from each query ([`Kernel::disjoint`]).
//!
//! [`Portable`] runs anywhere. [`Bmi2`] and [`Avx512`] are only used by code compiled for their
//! features (`#[target_feature]`), which is only called with a proof from [`super::isa`] that
//! the CPU has them; their vector steps are written with intrinsics.

use std::sync::atomic::AtomicBool;

use super::sieve::{Classes, NARROW, ROWS, Row, SPAN, Scales, Sieve, WIDE};

/// Spare slots past the end that [`Kernel::pair_up`] may write (and leave unused): a whole
/// vector of 8 words may be stored from the last kept position.
const PAIR_SLACK: usize = 8;

/// Appends to `out` what [`Kernel::pair_up`] writes: `(one | r) & mask` for every `r` of
/// `others` with `key & r == 0`, in order.
#[inline(always)]
pub(super) fn append_pairs<K: Kernel>(
    out: &mut Vec<u64>,
    one: u64,
    key: u64,
    mask: u64,
    others: &[u64],
) {
    out.reserve(others.len() + PAIR_SLACK);
    let spare = &mut out.spare_capacity_mut()[..others.len() + PAIR_SLACK];
    let end = K::pair_up(one, key, mask, others, spare);
    // SAFETY: `pair_up` has written the first `end` spare slots.
    unsafe { out.set_len(out.len() + end) };
}

/// Appends to `out` what [`Kernel::pair_up_many`] writes: `(one[i] | r) & mask` for every
/// `r` of `others` and every `i` with `(one[i] | blocked) & r == 0`, in some order.
#[inline(always)]
pub(super) fn append_pairs_many<K: Kernel, const M: usize>(
    out: &mut Vec<u64>,
    one: [u64; M],
    blocked: u64,
    mask: u64,
    others: &[u64],
) {
    out.reserve(M * others.len() + PAIR_SLACK);
    let spare = &mut out.spare_capacity_mut()[..M * others.len() + PAIR_SLACK];
    let end = K::pair_up_many(one, blocked, mask, others, spare);
    // SAFETY: `pair_up_many` has written the first `end` spare slots.
    unsafe { out.set_len(out.len() + end) };
}

/// The class of word `w` for the sort: how many of the `doubling` bits it has, above its `k`
/// `cut` bits gathered.
#[inline(always)]
pub(super) fn class_of<K: Kernel + ?Sized>(w: u64, cut: u64, doubling: u64, k: u32) -> usize {
    ((w & doubling).count_ones() << k) as usize | K::gather(w, cut) as usize
}

/// The steps of the join that some CPUs have faster instructions for, as a type, so that the
/// loops around them are compiled once per instruction set.
pub(super) trait Kernel {
    /// Whether [`Kernel::gather`] is one instruction: then a sieve may slice only the bits its
    /// cut rows leave (one pattern per query class), and gather them per query.
    const GATHERS: bool;

    /// Packs the bits of `x` at the set positions of `mask` into the low bits (BMI2's `pext`).
    fn gather(x: u64, mask: u64) -> u64;

    /// A sieve's query loops ([`Sieve::loops`]) with `C` chunks, gathering if `G`: a function
    /// of its own per kernel, width and shape, compiled with the kernel's CPU features (the
    /// vector kernels override this to add them). Called once per sieve count, so the call
    /// costs nothing. Inlined into the join's copies instead, the 22 shapes made each copy one
    /// function the compiler took half a minute (AVX-512) to minutes (portable) to optimise,
    /// in every build and in every test that called them.
    #[inline(never)]
    fn sieve_loops<const L: usize, const C: usize, const G: bool>(
        sieve: &mut Sieve<L>,
        queries: &Classes,
        scales: Scales,
        stop: &AtomicBool,
    ) -> u64
    where
        Self: Sized,
    {
        sieve.loops::<Self, C, G>(queries, scales, stop)
    }

    /// Whether this kernel's loops on rows of [`NARROW`] lanes cost about half those on
    /// [`WIDE`] lanes: then a join stores a side that fits one narrow group in a narrow sieve.
    /// (AVX-512 on a CPU that splits 512-bit operations in two, and AVX2, whose wide rows are
    /// two registers; the portable loops gain nothing from narrower rows.)
    const NARROW_HALVES: bool = false;

    /// Whether [`Kernel::classify`] works out many classes at once: then the sort stores them
    /// before it places the words, else it works each class out as it places the word (one
    /// at a time, storing them made the sort no faster).
    const CLASSIFIES: bool;

    /// Writes to `classes[i]` the class of `words[i]` for the sort ([`class_of`]). `cut` has
    /// at most 8 bits and `doubling` at most 2, so a class is below `3 << 8`; `classes` is at
    /// least as long as `words`.
    #[inline(always)]
    fn classify(words: &[u64], cut: u64, doubling: u64, classes: &mut [u16]) {
        let k = cut.count_ones();
        for (class, &w) in classes.iter_mut().zip(words) {
            *class = class_of::<Self>(w, cut, doubling, k) as u16;
        }
    }

    /// Writes `(one | r) & mask` to the front of `out` for every `r` of `others` with
    /// `key & r == 0`, in order, and returns how many it wrote (`one`: a quarter entry
    /// paired with the other quarter's, or 0 to keep the part of a list that avoids `key`).
    /// `out` must have `others.len() + PAIR_SLACK` slots; those past the returned count may be
    /// written too, with anything.
    #[inline(always)]
    fn pair_up(
        one: u64,
        key: u64,
        mask: u64,
        others: &[u64],
        out: &mut [std::mem::MaybeUninit<u64>],
    ) -> usize {
        Self::pair_up_keyed([one], [key], mask, others, out)
    }

    /// [`Kernel::pair_up`] for `M` entries `one` of a quarter against the same `others`, each
    /// with the key `one[i] | blocked`; the pairs are written in some order. `out` must have
    /// `M * others.len() + PAIR_SLACK` slots.
    #[inline(always)]
    fn pair_up_many<const M: usize>(
        one: [u64; M],
        blocked: u64,
        mask: u64,
        others: &[u64],
        out: &mut [std::mem::MaybeUninit<u64>],
    ) -> usize {
        Self::pair_up_keyed(one, one.map(|o| o | blocked), mask, others, out)
    }

    /// [`Kernel::pair_up`] for `M` entries `one[i]` against the same `others`, each with its
    /// key `keys[i]`; the pairs are written in some order. `out` must have
    /// `M * others.len() + PAIR_SLACK` slots. Here entry by entry, one pair at a time.
    #[inline(always)]
    fn pair_up_keyed<const M: usize>(
        one: [u64; M],
        keys: [u64; M],
        mask: u64,
        others: &[u64],
        out: &mut [std::mem::MaybeUninit<u64>],
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
    #[inline(always)]
    fn disjoint<const L: usize, const C: usize, const G: bool>(
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        disjoint_lanes::<Self, L, C, G, { Lanes::All as u8 }>(chunks, avoiding, queries, sliced)
    }

    /// Whether [`Kernel::disjoint_half`] costs about half of [`Kernel::disjoint`] on rows of
    /// [`WIDE`] lanes: then a sieve asks a query class of only the half of a group it may
    /// meet.
    const HALVES: bool = false;

    /// [`Kernel::disjoint`] for the stored words of one half of the group only (`half`: 0
    /// the first `L / 2` lanes, 1 the others).
    #[inline(always)]
    fn disjoint_half<const L: usize, const C: usize, const G: bool>(
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        half: usize,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        if half == 0 {
            disjoint_lanes::<Self, L, C, G, { Lanes::First as u8 }>(
                chunks, avoiding, queries, sliced,
            )
        } else {
            disjoint_lanes::<Self, L, C, G, { Lanes::Second as u8 }>(
                chunks, avoiding, queries, sliced,
            )
        }
    }
}

/// Which lanes of a row [`disjoint_lanes`] reads.
#[repr(u8)]
enum Lanes {
    All,
    First,
    Second,
}

/// [`Kernel::disjoint`] in plain Rust, on the lanes `P` of the rows (a [`Lanes`]), known to
/// the compiler.
#[inline(always)]
fn disjoint_lanes<
    K: Kernel + ?Sized,
    const L: usize,
    const C: usize,
    const G: bool,
    const P: u8,
>(
    chunks: &[Row<L>],
    avoiding: &Row<L>,
    queries: &[u64],
    sliced: u64,
) -> u64 {
    let lanes = match P {
        p if p == Lanes::All as u8 => 0..L,
        p if p == Lanes::First as u8 => 0..L / 2,
        _ => L / 2..L,
    };
    // Per-lane sums, added up once per class: no horizontal add per query.
    let mut found = [0u64; L];
    for &q in queries {
        let q = if G { K::gather(q, sliced) } else { q };
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

/// Any CPU: `pext` in software, one step per bit of the mask, and the lanes as plain arrays.
pub(super) struct Portable;

impl Kernel for Portable {
    // A loop over the mask's bits: a query reads its chunks in place instead.
    const GATHERS: bool = false;
    const CLASSIFIES: bool = false;
    // Half the lanes, half the steps.
    const HALVES: bool = true;

    #[inline(always)]
    fn gather(x: u64, mask: u64) -> u64 {
        let (mut out, mut m, mut bit) = (0, mask, 0);
        while m != 0 {
            let low = m & m.wrapping_neg();
            out |= u64::from(x & low != 0) << bit;
            bit += 1;
            m ^= low;
        }
        out
    }
}

/// BMI2's `pext`, and with AVX2 intrinsics the quarter pairs tested 4 at a time and the
/// sieve's query loop (a row of 4 lanes is one register, of 8 two, read at the same offsets).
/// Only for code compiled for BMI2 and AVX2, chosen after the CPU was checked for them.
#[cfg(target_arch = "x86_64")]
pub(super) struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl Kernel for Bmi2 {
    const GATHERS: bool = true;
    // Measured: storing the classes made the AVX2 loops 1.4% slower at n = 18 on a Zen 4,
    // 3% on a Zen 3.
    const CLASSIFIES: bool = false;
    // Groups of 512 words, two registers a row, share a query's `pext` and row offsets
    // between them; a side that fits 256 words keeps one register a row. Measured on AMD's
    // Zen 3 (AVX2, no AVX-512), against groups of 256 for every side: n = 18 1.07x faster on
    // one thread, n = 17 1.05x, n = 20 on two 1.10x (whole process, paired runs).
    const NARROW_HALVES: bool = true;

    #[inline(always)]
    fn gather(x: u64, mask: u64) -> u64 {
        // SAFETY: `Bmi2` is only used by code compiled for BMI2, chosen after the CPU was
        // checked for it.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }

    #[inline(always)]
    fn sieve_loops<const L: usize, const C: usize, const G: bool>(
        sieve: &mut Sieve<L>,
        queries: &Classes,
        scales: Scales,
        stop: &AtomicBool,
    ) -> u64 {
        // SAFETY: `Bmi2` is only used by code compiled for AVX2 and BMI2, chosen after the CPU
        // was checked for them.
        unsafe { sieve_loops_avx2::<L, C, G>(sieve, queries, scales, stop) }
    }

    #[inline(always)]
    fn pair_up_keyed<const M: usize>(
        one: [u64; M],
        keys: [u64; M],
        mask: u64,
        others: &[u64],
        out: &mut [std::mem::MaybeUninit<u64>],
    ) -> usize {
        assert!(out.len() >= M * others.len() + PAIR_SLACK);
        // SAFETY: `Bmi2` is only used by code compiled for AVX2, chosen after the CPU was
        // checked for it; `out` has the slots `pair_up_avx2` may write.
        unsafe { pair_up_avx2(one, keys, mask, others, out.as_mut_ptr().cast()) }
    }

    #[inline(always)]
    fn disjoint<const L: usize, const C: usize, const G: bool>(
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        assert!(chunks.len() >= C * ROWS && (L == NARROW || L == WIDE));
        let (chunks, avoiding) = (chunks.as_ptr().cast(), avoiding.as_ptr().cast());
        // SAFETY: `Bmi2` is only used by code compiled for AVX2 and BMI2, chosen after the
        // CPU was checked for them; the chunks hold `C * ROWS` rows of `L` lanes and
        // `avoiding` is one, all 32-byte aligned (rows of the sieve's 64-byte blocks).
        unsafe {
            if L == WIDE {
                disjoint_avx2::<2, 2, C, G>(chunks, avoiding, queries, sliced)
            } else {
                disjoint_avx2::<1, 1, C, G>(chunks, avoiding, queries, sliced)
            }
        }
    }

    // A half of a wide row is one of its two registers: one load and one AND per chunk
    // instead of two, and half the adders.
    const HALVES: bool = true;

    #[inline(always)]
    fn disjoint_half<const L: usize, const C: usize, const G: bool>(
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        half: usize,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        assert!(chunks.len() >= C * ROWS && L == WIDE && half < 2);
        let (chunks, avoiding) = (
            chunks.as_ptr().cast::<std::arch::x86_64::__m256i>(),
            avoiding.as_ptr().cast::<std::arch::x86_64::__m256i>(),
        );
        // SAFETY: as in `disjoint`, with rows of two registers, of which `half` (0 or 1) is
        // read: the pointers moved by `half` registers stay inside the first row, and rows
        // at a stride of two registers from there inside the chunks.
        unsafe {
            disjoint_avx2::<1, 2, C, G>(chunks.add(half), avoiding.add(half), queries, sliced)
        }
    }
}

/// [`Kernel::sieve_loops`] for [`Bmi2`], with the features of the join's AVX2 copy.
///
/// # Safety
/// The CPU must have AVX2, BMI2 and `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
#[inline(never)]
unsafe fn sieve_loops_avx2<const L: usize, const C: usize, const G: bool>(
    sieve: &mut Sieve<L>,
    queries: &Classes,
    scales: Scales,
    stop: &AtomicBool,
) -> u64 {
    sieve.loops::<Bmi2, C, G>(queries, scales, stop)
}

/// [`Kernel::disjoint`] with AVX2, for the first `R` registers of rows of `S` registers at
/// `chunks` and `avoiding`.
///
/// AVX2 has no popcount of its vectors: one costs 8 steps (two table lookups by nibble, and
/// the sums of the bytes). So the rows of 4 queries are first added bit by bit with
/// carry-save adders (Harley and Seal: 5 bitwise steps each), and one popcount counts the
/// fours of them.
///
/// # Safety
/// The CPU must have AVX2 and BMI2, `chunks` must point to `C * ROWS` rows of `S` registers
/// aligned to 32 bytes (at least `R` of them) and `avoiding` to one.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
#[inline]
unsafe fn disjoint_avx2<const R: usize, const S: usize, const C: usize, const G: bool>(
    chunks: *const std::arch::x86_64::__m256i,
    avoiding: *const std::arch::x86_64::__m256i,
    queries: &[u64],
    sliced: u64,
) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY (of every `row`): `c < C`, the index is below `ROWS` and `r < R <= S`, so the
    // register lies inside the chunks the caller vouches for.
    let row = |c: usize, q: u64, r: usize| unsafe {
        _mm256_load_si256(chunks.add((c * ROWS + (q >> (SPAN * c)) as usize % ROWS) * S + r))
    };
    // SAFETY: `r < R`, inside the one aligned row the caller vouches for at `avoiding`.
    let avoiding: [__m256i; R] =
        std::array::from_fn(|r| unsafe { _mm256_load_si256(avoiding.add(r)) });
    // The stored words disjoint from query `q`, one bit each.
    let disjoint_from = |q: u64| -> [__m256i; R] {
        let q = if G { _pext_u64(q, sliced) } else { q };
        std::array::from_fn(|r| {
            // Without gathering the chunks slice the cut bits too: `avoiding` adds nothing.
            let (mut acc, from) = if G {
                (avoiding[r], 0)
            } else {
                (row(0, q, r), 1)
            };
            for c in from..C {
                acc = _mm256_and_si256(acc, row(c, q, r));
            }
            acc
        })
    };
    // `sum` becomes `sum ^ a ^ b`; the carries are returned.
    let carry_save = |sum: &mut [__m256i; R], a: [__m256i; R], b: [__m256i; R]| {
        std::array::from_fn(|r| {
            let half = _mm256_xor_si256(sum[r], a[r]);
            let carry =
                _mm256_or_si256(_mm256_and_si256(sum[r], a[r]), _mm256_and_si256(half, b[r]));
            sum[r] = _mm256_xor_si256(half, b[r]);
            carry
        })
    };
    // The bits set in the registers, as 4 sums of 64 bits.
    let nibbles = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let low = _mm256_set1_epi8(0x0f);
    let popcount = |x: [__m256i; R]| {
        let mut bytes = _mm256_setzero_si256();
        for v in x {
            let lo = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(v, low));
            let hi = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(_mm256_srli_epi16(v, 4), low));
            bytes = _mm256_add_epi8(bytes, _mm256_add_epi8(lo, hi));
        }
        _mm256_sad_epu8(bytes, _mm256_setzero_si256())
    };
    // The bits of weight 1 and 2 not yet counted, and the number of fours counted.
    let zero = [_mm256_setzero_si256(); R];
    let (mut ones, mut twos, mut fours) = (zero, zero, _mm256_setzero_si256());
    let mut blocks = queries.chunks_exact(4);
    for block in &mut blocks {
        let twos_a = carry_save(&mut ones, disjoint_from(block[0]), disjoint_from(block[1]));
        let twos_b = carry_save(&mut ones, disjoint_from(block[2]), disjoint_from(block[3]));
        fours = _mm256_add_epi64(fours, popcount(carry_save(&mut twos, twos_a, twos_b)));
    }
    let mut total = _mm256_add_epi64(
        _mm256_slli_epi64(fours, 2),
        _mm256_slli_epi64(popcount(twos), 1),
    );
    total = _mm256_add_epi64(total, popcount(ones));
    for &q in blocks.remainder() {
        total = _mm256_add_epi64(total, popcount(disjoint_from(q)));
    }
    let mut lanes = [0u64; 4];
    // SAFETY: `lanes` is 32 bytes, written unaligned.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), total) };
    lanes.iter().sum()
}

/// For each mask of 4 kept lanes, the 32-bit halves of those lanes moved to the front, in
/// order (the rest: anything), for `vpermd`.
#[cfg(target_arch = "x86_64")]
const PACK4: [[u32; 8]; 16] = {
    let mut table = [[0u32; 8]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut lane, mut to) = (0, 0);
        while lane < 4 {
            if mask >> lane & 1 == 1 {
                table[mask][to] = 2 * lane as u32;
                table[mask][to + 1] = 2 * lane as u32 + 1;
                to += 2;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// [`Kernel::pair_up_keyed`] 4 of the others at a time with AVX2, each 4 loaded once for all
/// `M` entries: one compare gives the mask of those kept, and a `vpermd` by a table row packs
/// their ORs to the front of a register, stored whole at the end so far; chunk by chunk, entry
/// by entry.
///
/// # Safety
/// The CPU must have AVX2, and `out` must be valid for `M * others.len() + PAIR_SLACK` writes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn pair_up_avx2<const M: usize>(
    one: [u64; M],
    keys: [u64; M],
    mask: u64,
    others: &[u64],
    out: *mut u64,
) -> usize {
    use std::arch::x86_64::*;
    let ones = one.map(|o| _mm256_set1_epi64x(o as i64));
    let keys = keys.map(|k| _mm256_set1_epi64x(k as i64));
    let mask = _mm256_set1_epi64x(mask as i64);
    let mut end = 0;
    // The pairs of 4 others `r` (those of `lanes` only) with each entry, stored at `end`.
    let mut pair = |r: __m256i, lanes: __m256i| {
        for (one, key) in ones.iter().zip(&keys) {
            let clear = _mm256_cmpeq_epi64(_mm256_and_si256(r, *key), _mm256_setzero_si256());
            let kept = _mm256_and_si256(clear, lanes);
            let kept = _mm256_movemask_pd(_mm256_castsi256_pd(kept)) as usize;
            // SAFETY: `kept` is below 16, a row of the table of 8 indices.
            let order = unsafe { _mm256_loadu_si256(PACK4[kept].as_ptr().cast()) };
            let paired = _mm256_and_si256(_mm256_or_si256(r, *one), mask);
            let packed = _mm256_permutevar8x32_epi32(paired, order);
            // SAFETY: `end` is at most `M` times the number of others before these, plus
            // their kept ones for each entry before, so the 4 words stored lie within the
            // `M * others.len() + PAIR_SLACK` the caller vouches for.
            unsafe { _mm256_storeu_si256(out.add(end).cast(), packed) };
            end += kept.count_ones() as usize;
        }
    };
    let chunks = others.chunks_exact(4);
    let rest = chunks.remainder();
    for chunk in chunks {
        // SAFETY: the chunk holds 4 words.
        let r = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        pair(r, _mm256_set1_epi64x(-1));
    }
    if !rest.is_empty() {
        // The last one to three as one more step, the lanes past the end neither read nor
        // kept, rather than a loop of one at a time whose varying length would end in a
        // mispredicted branch on most calls (the lists are short). With the others loaded
        // once for two entries, on Zen 3: n = 19 on two threads 1.06x faster, n = 17 on one
        // 1.04x (whole process, paired runs, medians of 11 and 41).
        let lanes = _mm256_cmpgt_epi64(
            _mm256_set1_epi64x(rest.len() as i64),
            _mm256_setr_epi64x(0, 1, 2, 3),
        );
        // SAFETY: only the lanes below `rest.len()` are read, and they lie within `rest`.
        let r = unsafe { _mm256_maskload_epi64(rest.as_ptr().cast(), lanes) };
        pair(r, lanes);
    }
    end
}

/// `pext`, and quarter pairs and groups of 8 lanes with AVX-512 instructions written out: left
/// to itself, the compiler vectorises the groups across queries with gathers, 3 times slower.
/// Only for code compiled for AVX-512 (with `vpopcntq`) and BMI2, chosen after the CPU was
/// checked for them.
#[cfg(target_arch = "x86_64")]
pub(super) struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx512 {
    const GATHERS: bool = true;
    const CLASSIFIES: bool = true;
    // Measured on AMD's Zen 4 (512-bit operations in two halves): n = 17, where 78% of the
    // sieves hold under 256 words, 1.09x faster on one thread (whole process, paired runs,
    // median of 7); groups of 128 words for the sides that fit them measured 1.08x slower.
    const NARROW_HALVES: bool = true;

    #[inline(always)]
    fn gather(x: u64, mask: u64) -> u64 {
        Bmi2::gather(x, mask)
    }

    #[inline(always)]
    fn sieve_loops<const L: usize, const C: usize, const G: bool>(
        sieve: &mut Sieve<L>,
        queries: &Classes,
        scales: Scales,
        stop: &AtomicBool,
    ) -> u64 {
        // SAFETY: `Avx512` is only used by code compiled for AVX-512, chosen after the CPU was
        // checked for it.
        unsafe { sieve_loops_avx512::<L, C, G>(sieve, queries, scales, stop) }
    }

    #[inline(always)]
    fn classify(words: &[u64], cut: u64, doubling: u64, classes: &mut [u16]) {
        assert!(cut.count_ones() <= 8 && classes.len() >= words.len());
        // SAFETY: `Avx512` is only used by code compiled for these features, chosen after the
        // CPU was checked for them; `cut` has at most 8 bits and `classes` room for a class
        // per word.
        unsafe { classify_avx512(words, cut, doubling, classes.as_mut_ptr()) }
    }

    #[inline(always)]
    fn pair_up_keyed<const M: usize>(
        one: [u64; M],
        keys: [u64; M],
        mask: u64,
        others: &[u64],
        out: &mut [std::mem::MaybeUninit<u64>],
    ) -> usize {
        assert!(out.len() >= M * others.len() + PAIR_SLACK);
        // SAFETY: `Avx512` is only used by code compiled for these features, chosen after the
        // CPU was checked for them; `out` has the slots `pair_up_avx512` may write.
        unsafe { pair_up_avx512(one, keys, mask, others, out.as_mut_ptr().cast()) }
    }

    #[inline(always)]
    fn disjoint<const L: usize, const C: usize, const G: bool>(
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        assert!(chunks.len() >= C * ROWS);
        if L == WIDE {
            // SAFETY: `Avx512` is only used by code compiled for these features, chosen after
            // the CPU was checked for them; the chunks hold `C * ROWS` rows of 8 lanes and
            // `avoiding` is one, all 64-byte aligned (blocks of the sieve).
            unsafe {
                disjoint_avx512::<C, G>(
                    chunks.as_ptr().cast(),
                    avoiding.as_ptr().cast(),
                    queries,
                    sliced,
                )
            }
        } else {
            assert!(L == NARROW);
            // SAFETY: as above, with rows of 4 lanes, 32-byte aligned (two to a block).
            unsafe {
                disjoint_avx512_narrow::<C, G>(
                    chunks.as_ptr().cast(),
                    avoiding.as_ptr().cast(),
                    queries,
                    sliced,
                )
            }
        }
    }
}

/// The query loop of [`Kernel::disjoint`] with AVX-512 instructions on registers of one
/// width (the intrinsics named for it): per query, `pext` gathers its sliced bits (if `G`), the
/// rows of three chunks (or `avoiding` and two) are ANDed by one `vpternlogq`, and the lanes'
/// bits counted by one `vpopcntq` into per-lane running sums, which it returns. For the
/// `unsafe fn`s below, whose callers vouch for `C * ROWS` aligned rows at `chunks` and one at
/// `avoiding`.
#[cfg(target_arch = "x86_64")]
macro_rules! query_loop {
    ($chunks:ident, $avoiding:ident, $queries:ident, $sliced:ident, $load:ident, $zero:ident,
     $and3:ident, $and:ident, $add:ident, $popcnt:ident) => {{
        // SAFETY (of every `row`): `c < C` and the index is below `ROWS`, so the row lies
        // inside the chunks the caller vouches for.
        let row = |c: usize, q: u64| unsafe {
            $load($chunks.add(c * ROWS + (q >> (SPAN * c)) as usize % ROWS))
        };
        // SAFETY: the caller vouches for one aligned row at `avoiding`.
        let avoiding = unsafe { $load($avoiding) };
        let mut found = $zero();
        for &q in $queries {
            let q = if G { _pext_u64(q, $sliced) } else { q };
            // Without gathering the chunks slice the cut bits too: `avoiding` adds nothing.
            let (mut acc, mut c) = if G { (avoiding, 0) } else { (row(0, q), 1) };
            while c + 1 < C {
                // 0x80: the truth table of `a & b & c`.
                acc = $and3::<0x80>(acc, row(c, q), row(c + 1, q));
                c += 2;
            }
            if c < C {
                acc = $and(acc, row(c, q));
            }
            found = $add(found, $popcnt(acc));
        }
        found
    }};
}

/// [`Kernel::sieve_loops`] for [`Avx512`], with the features of the join's AVX-512 copy.
///
/// # Safety
/// The CPU must have AVX-512F, BITALG and VPOPCNTDQ, AVX2, BMI2 and `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bitalg,avx512vpopcntdq,avx2,bmi2,popcnt")]
#[inline(never)]
unsafe fn sieve_loops_avx512<const L: usize, const C: usize, const G: bool>(
    sieve: &mut Sieve<L>,
    queries: &Classes,
    scales: Scales,
    stop: &AtomicBool,
) -> u64 {
    sieve.loops::<Avx512, C, G>(queries, scales, stop)
}

/// [`Kernel::disjoint`] for rows of 8 lanes at `chunks` and `avoiding`, aligned to 64 bytes:
/// [`query_loop!`] on 512-bit registers, its 8 running sums added at the end.
///
/// # Safety
/// The CPU must have AVX-512F, AVX512-VPOPCNTDQ and BMI2, `chunks` must point to `C * ROWS`
/// aligned rows of 8 lanes and `avoiding` to one.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,bmi2")]
#[inline]
unsafe fn disjoint_avx512<const C: usize, const G: bool>(
    chunks: *const std::arch::x86_64::__m512i,
    avoiding: *const std::arch::x86_64::__m512i,
    queries: &[u64],
    sliced: u64,
) -> u64 {
    use std::arch::x86_64::*;
    let found = query_loop!(
        chunks,
        avoiding,
        queries,
        sliced,
        _mm512_load_si512,
        _mm512_setzero_si512,
        _mm512_ternarylogic_epi64,
        _mm512_and_si512,
        _mm512_add_epi64,
        _mm512_popcnt_epi64
    );
    _mm512_reduce_add_epi64(found) as u64
}

/// [`disjoint_avx512`] for rows of 4 lanes (a sieve of at most 256 stored words), with the
/// same AVX-512 instructions on 256-bit registers (AVX512-VL). This CPU family splits a
/// 512-bit operation into two 256-bit halves, so a side that fits 256 lanes costs half as
/// much as in a group of 512: most joins of `n = 17` store fewer than 256 words.
///
/// # Safety
/// The CPU must have AVX-512F, AVX512-VL, AVX512-VPOPCNTDQ and BMI2, `chunks` must point to
/// `C * ROWS` rows of 4 lanes aligned to 32 bytes and `avoiding` to one.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,bmi2")]
#[inline]
unsafe fn disjoint_avx512_narrow<const C: usize, const G: bool>(
    chunks: *const std::arch::x86_64::__m256i,
    avoiding: *const std::arch::x86_64::__m256i,
    queries: &[u64],
    sliced: u64,
) -> u64 {
    use std::arch::x86_64::*;
    let found = query_loop!(
        chunks,
        avoiding,
        queries,
        sliced,
        _mm256_load_si256,
        _mm256_setzero_si256,
        _mm256_ternarylogic_epi64,
        _mm256_and_si256,
        _mm256_add_epi64,
        _mm256_popcnt_epi64
    );
    let mut lanes = [0u64; 4];
    // SAFETY: `lanes` is 32 bytes, written unaligned.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), found) };
    lanes.iter().sum()
}

/// [`Kernel::classify`] 8 words at a time: `vpshufbitqmb` copies the cut bits of each word
/// into its byte of a mask, `vpopcntq` counts its doubling bits, and `vpmovqw` stores the 8
/// classes. The sort then reads the classes instead of working each out twice with `pext`
/// (measured 1.4x faster on its own, sorting lists of 6500 words into 768 classes).
///
/// # Safety
/// The CPU must have AVX-512F, AVX512-BITALG and AVX512-VPOPCNTDQ, `cut` at most 8 bits, and
/// `classes` must be valid for `words.len()` writes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bitalg,avx512vpopcntdq")]
#[inline]
unsafe fn classify_avx512(words: &[u64], cut: u64, doubling: u64, classes: *mut u16) {
    use std::arch::x86_64::*;
    let k = cut.count_ones();
    // Byte j of every lane: the position of the j-th lowest cut bit. The bytes past the `k`
    // cut bits select bit 0, and `used` clears what they copy.
    let mut positions = [0u8; 8];
    let mut rest = cut;
    for p in &mut positions {
        if rest == 0 {
            break;
        }
        *p = rest.trailing_zeros() as u8;
        rest &= rest - 1;
    }
    let positions = _mm512_set1_epi64(i64::from_le_bytes(positions));
    let used = 0x0101_0101_0101_0101u64 * ((1u64 << k) - 1);
    let (doubling, shift) = (
        _mm512_set1_epi64(doubling as i64),
        _mm512_set1_epi64(i64::from(k)),
    );
    for (i, chunk) in words.chunks(8).enumerate() {
        // The last chunk may be short: its missing lanes are neither read nor stored.
        let lanes = ((1u16 << chunk.len()) - 1) as u8;
        // SAFETY: the mask reads only the chunk's own words.
        let w = unsafe { _mm512_maskz_loadu_epi64(lanes, chunk.as_ptr().cast()) };
        let pattern = _mm512_bitshuffle_epi64_mask(w, positions) & used;
        let pattern = _mm512_cvtepu8_epi64(_mm_cvtsi64_si128(pattern as i64));
        let weight = _mm512_popcnt_epi64(_mm512_and_si512(w, doubling));
        let class = _mm512_or_si512(_mm512_sllv_epi64(weight, shift), pattern);
        // SAFETY: the lanes stored are the chunk's, whose slots the caller vouches for.
        unsafe { _mm512_mask_cvtepi64_storeu_epi16(classes.add(8 * i).cast(), lanes, class) };
    }
}

/// [`Kernel::pair_up_keyed`] for each of `M` entries `one[i]` with its own `keys[i]`, 8 of
/// `others` at a time, each loaded once for all `M`: one AND-test gives the mask of those kept,
/// and `vpcompressq` packs their (masked) ORs to the front of a register, stored whole at the
/// end so far; chunk by chunk, entry by entry.
///
/// # Safety
/// The CPU must have AVX-512F, and `out` must be valid for `M * others.len() + PAIR_SLACK`
/// writes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
#[inline]
unsafe fn pair_up_avx512<const M: usize>(
    one: [u64; M],
    keys: [u64; M],
    mask: u64,
    others: &[u64],
    out: *mut u64,
) -> usize {
    use std::arch::x86_64::*;
    let ones = one.map(|o| _mm512_set1_epi64(o as i64));
    let keys = keys.map(|k| _mm512_set1_epi64(k as i64));
    let mask = _mm512_set1_epi64(mask as i64);
    let mut end = 0;
    for chunk in others.chunks(8) {
        // The last chunk may be short: its missing lanes are neither read nor kept.
        let lanes = ((1u16 << chunk.len()) - 1) as u8;
        // SAFETY: the mask reads only the chunk's own words.
        let r = unsafe { _mm512_maskz_loadu_epi64(lanes, chunk.as_ptr().cast()) };
        for (one, key) in ones.iter().zip(&keys) {
            let kept = _mm512_mask_testn_epi64_mask(lanes, r, *key);
            // 0xa8: the truth table of `(a | b) & c`.
            let paired = _mm512_ternarylogic_epi64::<0xa8>(r, *one, mask);
            let packed = _mm512_maskz_compress_epi64(kept, paired);
            // SAFETY: `end` is at most `M` times the number of others before this chunk, plus
            // this chunk's for each entry before, so the 8 words stored lie within the
            // `M * others.len() + PAIR_SLACK` the caller vouches for.
            unsafe { _mm512_storeu_si512(out.add(end).cast(), packed) };
            end += kept.count_ones() as usize;
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_packs_the_masked_bits() {
        let cases = [
            (0b1011_0110, 0b1111_0000, 0b1011),
            (0b1011_0110, 0b0101_0101, 0b0110),
            (!0, 1 << 63 | 1, 0b11),
            (12345, 0, 0),
        ];
        for (x, mask, packed) in cases {
            assert_eq!(Portable::gather(x, mask), packed);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("bmi2") {
                assert_eq!(Bmi2::gather(x, mask), packed);
            }
        }
    }

    #[test]
    fn classify_counts_the_doubling_bits_above_the_cut_bits_gathered() {
        fn check<K: Kernel>(words: &[u64], cut: u64, doubling: u64) {
            // The definition, bit by bit: no `pext`, no popcount.
            let slow: Vec<u16> = words
                .iter()
                .map(|&w| {
                    let (mut pattern, mut next) = (0u16, 0);
                    for bit in 0..64 {
                        if cut >> bit & 1 == 1 {
                            pattern |= ((w >> bit & 1) as u16) << next;
                            next += 1;
                        }
                    }
                    let weight = (0..64).filter(|&b| (w & doubling) >> b & 1 == 1).count();
                    (weight as u16) << next | pattern
                })
                .collect();
            let mut fast = vec![u16::MAX; words.len()];
            K::classify(words, cut, doubling, &mut fast);
            assert_eq!(fast, slow, "{} words, cut {cut:#x}", words.len());
        }
        let mut next = super::super::xorshift(0x0fed_cba9_8765_4321);
        // Every length of a last short chunk, 0 to 8 cut bits anywhere in the word (the top
        // bit too), and 0 to 2 doubling bits.
        for len in 0..=19 {
            let words: Vec<u64> = (0..len).map(|_| next()).collect();
            for k in 0..=8 {
                let mut cut: u64 = if k > 0 && len % 2 == 0 { 1 << 63 } else { 0 };
                while cut.count_ones() < k {
                    cut |= 1 << (next() % 64);
                }
                let mut doubling = 0u64;
                while doubling.count_ones() < (len % 3) as u32 {
                    doubling |= 1 << (next() % 64);
                }
                check::<Portable>(&words, cut, doubling);
                #[cfg(target_arch = "x86_64")]
                if super::super::isa::Avx2::detect().is_some() {
                    check::<Bmi2>(&words, cut, doubling);
                }
                #[cfg(target_arch = "x86_64")]
                if super::super::isa::Avx512::detect().is_some() {
                    check::<Avx512>(&words, cut, doubling);
                }
            }
        }
    }

    #[test]
    fn pair_up_keeps_the_others_that_avoid_the_key_masked() {
        fn check<K: Kernel>(one: u64, key: u64, mask: u64, others: &[u64]) {
            let slow: Vec<u64> = others
                .iter()
                .filter(|&&r| r & key == 0)
                .map(|&r| (one | r) & mask)
                .collect();
            let mut out = vec![std::mem::MaybeUninit::new(0); others.len() + PAIR_SLACK];
            let end = K::pair_up(one, key, mask, others, &mut out);
            // SAFETY: `pair_up` wrote the first `end` slots (all were initialised anyway).
            let fast: Vec<u64> = out[..end]
                .iter()
                .map(|w| unsafe { w.assume_init() })
                .collect();
            assert_eq!(fast, slow, "{} others", others.len());
        }
        let mut step = super::super::xorshift(0x1234_5678_9abc_def1);
        let mut next = || {
            let x = step();
            x & x >> 3
        };
        // Every length of a last short chunk, keys that keep none, some or all, and masks
        // that keep all bits or some.
        for len in 0..=41 {
            let others: Vec<u64> = (0..len).map(|_| next()).collect();
            for key in [0, !0, next(), next() & next()] {
                let (one, mask) = (next(), [!0, next()][len % 2]);
                check::<Portable>(one, key, mask, &others);
                #[cfg(target_arch = "x86_64")]
                if super::super::isa::Avx2::detect().is_some() {
                    check::<Bmi2>(one, key, mask, &others);
                }
                #[cfg(target_arch = "x86_64")]
                if super::super::isa::Avx512::detect().is_some() {
                    check::<Avx512>(one, key, mask, &others);
                }
            }
        }
    }

    #[test]
    fn pairing_many_entries_at_once_keeps_what_each_alone_keeps() {
        fn check<K: Kernel, const M: usize>(
            one: [u64; M],
            blocked: u64,
            mask: u64,
            others: &[u64],
        ) {
            let mut slow: Vec<u64> = one
                .iter()
                .flat_map(|&o| {
                    let kept = others.iter().filter(move |&&r| (o | blocked) & r == 0);
                    kept.map(move |&r| (o | r) & mask)
                })
                .collect();
            let mut fast = vec![0xdead];
            append_pairs_many::<K, M>(&mut fast, one, blocked, mask, others);
            assert_eq!(fast.remove(0), 0xdead, "what `out` held is kept");
            // In some order: the same pairs, each once.
            slow.sort_unstable();
            fast.sort_unstable();
            assert_eq!(fast, slow, "{M} entries, {} others", others.len());
        }
        fn each<const M: usize>(one: [u64; M], blocked: u64, mask: u64, others: &[u64]) {
            check::<Portable, M>(one, blocked, mask, others);
            #[cfg(target_arch = "x86_64")]
            if super::super::isa::Avx2::detect().is_some() {
                check::<Bmi2, M>(one, blocked, mask, others);
            }
            #[cfg(target_arch = "x86_64")]
            if super::super::isa::Avx512::detect().is_some() {
                check::<Avx512, M>(one, blocked, mask, others);
            }
        }
        let mut step = super::super::xorshift(0x0fed_cba9_8765_4321);
        let mut next = || {
            let x = step();
            x & x >> 3
        };
        // Every length of a last short chunk, with nothing blocked or some bits blocked.
        for len in 0..=25 {
            let others: Vec<u64> = (0..len).map(|_| next()).collect();
            for blocked in [0, next() & next()] {
                let mask = [!0, next()][len % 2];
                each([next()], blocked, mask, &others);
                each([next(), next()], blocked, mask, &others);
                each([next(), 0, next()], blocked, mask, &others);
            }
        }
    }
}
