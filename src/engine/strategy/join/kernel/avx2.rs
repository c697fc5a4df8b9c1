//! The kernel for x86-64 with AVX2 and BMI2: `pext`, the quarter pairs tested 4 at a time, and
//! the sieve's query loop on 256-bit registers (a row of 4 lanes is one register, of 8 two,
//! read at the same offsets), written with intrinsics.

use std::arch::x86_64::*;
use std::mem::MaybeUninit;

use super::{Compiled, Kernel, PAIR_SLACK};
use crate::engine::cpu;
use crate::engine::strategy::join::layout::{NARROW, ROWS, Row, SPAN, WIDE};

/// AVX2, BMI1, BMI2 and `popcnt`: holding one proves the CPU has them.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine::strategy::join) struct Avx2(cpu::Avx2);

impl Avx2 {
    /// The kernel, on the strength of the CPU check `cpu`.
    pub fn new(cpu: cpu::Avx2) -> Avx2 {
        Avx2(cpu)
    }
}

impl Kernel for Avx2 {
    #[inline(always)]
    fn gather(self, x: u64, mask: u64) -> u64 {
        // SAFETY: `self` proves the CPU has BMI2.
        unsafe { _pext_u64(x, mask) }
    }

    #[inline(always)]
    fn compiled<W: Compiled>(self, work: W) -> u64 {
        // SAFETY: `self` proves the CPU has the features `compiled_avx2` is compiled for.
        unsafe { compiled_avx2(self, work) }
    }

    #[inline(always)]
    fn pair_up_keyed<const M: usize>(
        self,
        one: [u64; M],
        keys: [u64; M],
        mask: u64,
        others: &[u64],
        out: &mut [MaybeUninit<u64>],
    ) -> usize {
        assert!(out.len() >= M * others.len() + PAIR_SLACK);
        // SAFETY: `self` proves the CPU has AVX2; `out` has the slots `pair_up_avx2` may
        // write (asserted).
        unsafe { pair_up_avx2(one, keys, mask, others, out.as_mut_ptr().cast()) }
    }

    #[inline(always)]
    fn disjoint<const L: usize, const C: usize, const G: bool>(
        self,
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        assert!(chunks.len() >= C * ROWS && (L == NARROW || L == WIDE));
        let (chunks, avoiding) = (chunks.as_ptr().cast(), std::ptr::from_ref(avoiding).cast());
        // SAFETY: `self` proves the CPU has AVX2 and BMI2; the chunks hold `C * ROWS` rows of
        // `L / 4` registers (asserted) and `avoiding` is one, all 32-byte aligned (`Row`).
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
    #[inline(always)]
    fn disjoint_half<const L: usize, const C: usize, const G: bool>(
        self,
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        half: usize,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        assert!(chunks.len() >= C * ROWS && L == WIDE && half < 2);
        let (chunks, avoiding) = (
            chunks.as_ptr().cast::<__m256i>(),
            std::ptr::from_ref(avoiding).cast::<__m256i>(),
        );
        // SAFETY: as in `disjoint`, with rows of two registers, of which `half` (0 or 1) is
        // read: the pointers moved by `half` registers stay inside the first row, and rows
        // at a stride of two registers from there inside the chunks.
        unsafe {
            disjoint_avx2::<1, 2, C, G>(chunks.add(half), avoiding.add(half), queries, sliced)
        }
    }
}

/// [`Kernel::compiled`] for [`Avx2`], with the features of the join's AVX2 copy.
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2 and `popcnt`.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline(never)]
unsafe fn compiled_avx2<W: Compiled>(k: Avx2, work: W) -> u64 {
    work.run(k)
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
#[target_feature(enable = "avx2,bmi2")]
#[inline]
unsafe fn disjoint_avx2<const R: usize, const S: usize, const C: usize, const G: bool>(
    chunks: *const __m256i,
    avoiding: *const __m256i,
    queries: &[u64],
    sliced: u64,
) -> u64 {
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
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn pair_up_avx2<const M: usize>(
    one: [u64; M],
    keys: [u64; M],
    mask: u64,
    others: &[u64],
    out: *mut u64,
) -> usize {
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
        // mispredicted branch on most calls (the lists are short).
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
