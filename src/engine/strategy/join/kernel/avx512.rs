//! The kernel for x86-64 with AVX-512: `pext`, the quarter pairs and the sort's classes 8
//! words at a time, and the sieve's query loop on 512-bit registers (256-bit ones, with VL,
//! for rows of 4 lanes), written with intrinsics: left to itself, the compiler vectorises the
//! groups across queries with gathers, which are slow.

use std::arch::x86_64::*;
use std::mem::MaybeUninit;

use super::{Compiled, Kernel, PAIR_SLACK};
use crate::engine::cpu;
use crate::engine::strategy::join::layout::{NARROW, ROWS, Row, SPAN, WIDE};

/// AVX-512 F, VL, VPOPCNTDQ and BITALG, with AVX2, BMI1, BMI2 and `popcnt`: holding one proves
/// the CPU has them.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine::strategy::join) struct Avx512(cpu::Avx512);

impl Avx512 {
    /// The kernel, on the strength of the CPU check `cpu`.
    pub fn new(cpu: cpu::Avx512) -> Avx512 {
        Avx512(cpu)
    }
}

impl Kernel for Avx512 {
    #[inline(always)]
    fn gather(self, x: u64, mask: u64) -> u64 {
        super::Avx2::new(self.0.avx2()).gather(x, mask)
    }

    #[inline(always)]
    fn compiled<W: Compiled>(self, work: W) -> u64 {
        // SAFETY: `self` proves the CPU has the features `compiled_avx512` is compiled for.
        unsafe { compiled_avx512(self, work) }
    }

    #[inline(always)]
    fn classify(self, words: &[u64], cut: u64, doubling: u64, classes: &mut [u16]) {
        assert!(cut.count_ones() <= 8 && classes.len() >= words.len());
        // SAFETY: `self` proves the CPU has the features; `cut` has at most 8 bits and
        // `classes` room for a class per word (asserted).
        unsafe { classify_avx512(words, cut, doubling, classes.as_mut_ptr()) }
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
        // SAFETY: `self` proves the CPU has the features; `out` has the slots
        // `pair_up_avx512` may write (asserted).
        unsafe { pair_up_avx512(one, keys, mask, others, out.as_mut_ptr().cast()) }
    }

    #[inline(always)]
    fn disjoint<const L: usize, const C: usize, const G: bool>(
        self,
        chunks: &[Row<L>],
        avoiding: &Row<L>,
        queries: &[u64],
        sliced: u64,
    ) -> u64 {
        assert!(chunks.len() >= C * ROWS);
        let (rows, avoiding) = (chunks.as_ptr(), std::ptr::from_ref(avoiding));
        if L == WIDE {
            // SAFETY: `self` proves the CPU has the features; the chunks hold `C * ROWS` rows
            // of 8 lanes (asserted) and `avoiding` is one.
            unsafe { disjoint_avx512::<C, G>(rows.cast(), avoiding.cast(), queries, sliced) }
        } else {
            assert!(L == NARROW);
            // SAFETY: as above, with rows of 4 lanes, 32-byte aligned (`Row`).
            unsafe { disjoint_avx512_narrow::<C, G>(rows.cast(), avoiding.cast(), queries, sliced) }
        }
    }
}

/// [`Kernel::compiled`] for [`Avx512`], with the features of the join's AVX-512 copy.
///
/// # Safety
/// The CPU must have AVX-512F, VL, BITALG and VPOPCNTDQ, AVX2, BMI1, BMI2 and `popcnt`.
#[target_feature(enable = "avx512f,avx512vl,avx512bitalg,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt")]
#[inline(never)]
unsafe fn compiled_avx512<W: Compiled>(k: Avx512, work: W) -> u64 {
    work.run(k)
}

/// The query loop of [`Kernel::disjoint`] with AVX-512 instructions on registers of one
/// width (the intrinsics named for it): per query, `pext` gathers its sliced bits (if `G`), the
/// rows of three chunks (or `avoiding` and two) are ANDed by one `vpternlogq`, and the lanes'
/// bits counted by one `vpopcntq` into per-lane running sums, which it returns. For the
/// `unsafe fn`s below, whose callers vouch for `C * ROWS` rows at `chunks` and one at
/// `avoiding`, aligned as their `$load` needs.
macro_rules! query_loop {
    ($chunks:ident, $avoiding:ident, $queries:ident, $sliced:ident, $load:ident, $zero:ident,
     $and3:ident, $and:ident, $add:ident, $popcnt:ident) => {{
        // SAFETY (of every `row`): `c < C` and the index is below `ROWS`, so the row lies
        // inside the chunks the caller vouches for.
        let row = |c: usize, q: u64| unsafe {
            $load($chunks.add(c * ROWS + (q >> (SPAN * c)) as usize % ROWS))
        };
        // SAFETY: the caller vouches for one row at `avoiding`, aligned as `$load` needs.
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

/// [`Kernel::disjoint`] for rows of 8 lanes at `chunks` and `avoiding`: [`query_loop!`] on
/// 512-bit registers, loaded unaligned (a row type proves 32 bytes; the sieve's rows of 8 lanes
/// are 64-byte aligned, and an unaligned load of aligned data costs the same), its 8 running
/// sums added at the end.
///
/// # Safety
/// The CPU must have AVX-512F, AVX512-VPOPCNTDQ and BMI2, `chunks` must point to `C * ROWS`
/// rows of 8 lanes and `avoiding` to one.
#[target_feature(enable = "avx512f,avx512vpopcntdq,bmi2")]
#[inline]
unsafe fn disjoint_avx512<const C: usize, const G: bool>(
    chunks: *const __m512i,
    avoiding: *const __m512i,
    queries: &[u64],
    sliced: u64,
) -> u64 {
    let found = query_loop!(
        chunks,
        avoiding,
        queries,
        sliced,
        _mm512_loadu_si512,
        _mm512_setzero_si512,
        _mm512_ternarylogic_epi64,
        _mm512_and_si512,
        _mm512_add_epi64,
        _mm512_popcnt_epi64
    );
    _mm512_reduce_add_epi64(found) as u64
}

/// [`disjoint_avx512`] for rows of 4 lanes (a sieve of at most 256 stored words), with the
/// same AVX-512 instructions on 256-bit registers (AVX512-VL). On CPUs that split a
/// 512-bit operation into two 256-bit halves, a side that fits 256 words then costs half as
/// much as in a group of 512.
///
/// # Safety
/// The CPU must have AVX-512F, AVX512-VL, AVX512-VPOPCNTDQ and BMI2, `chunks` must point to
/// `C * ROWS` rows of 4 lanes aligned to 32 bytes and `avoiding` to one.
#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,bmi2")]
#[inline]
unsafe fn disjoint_avx512_narrow<const C: usize, const G: bool>(
    chunks: *const __m256i,
    avoiding: *const __m256i,
    queries: &[u64],
    sliced: u64,
) -> u64 {
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
/// classes. The sort then reads the classes instead of working each out twice with `pext`.
///
/// # Safety
/// The CPU must have AVX-512F, AVX512-BITALG and AVX512-VPOPCNTDQ, `cut` at most 8 bits, and
/// `classes` must be valid for `words.len()` writes.
#[target_feature(enable = "avx512f,avx512bitalg,avx512vpopcntdq")]
#[inline]
unsafe fn classify_avx512(words: &[u64], cut: u64, doubling: u64, classes: *mut u16) {
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
#[target_feature(enable = "avx512f,popcnt")]
#[inline]
unsafe fn pair_up_avx512<const M: usize>(
    one: [u64; M],
    keys: [u64; M],
    mask: u64,
    others: &[u64],
    out: *mut u64,
) -> usize {
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
