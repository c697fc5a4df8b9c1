//! Counting, for a batch of query words, the stored words disjoint from each.
//!
//! The join asks, for every word `v` of one half, how many stored words `u` of the other half
//! have `u & v == 0`. Three tricks make that a few vector instructions per 256 pairs:
//!
//! 1. **Bit slicing.** The stored words are kept transposed in groups of 256: a 256-bit row
//!    per bit position says which words of the group *lack* that bit. The words disjoint from
//!    `v` are the AND of the rows of `v`'s bits, and their number is a popcount.
//! 2. **Rows ANDed ahead of time** (the "Four Russians" trick). The bit positions are cut into
//!    chunks of [`SPAN`] bits, and each chunk keeps the AND for every one of its `2^SPAN`
//!    patterns. A query then costs one AND per chunk (7 at `n = 18`), whatever its number of
//!    bits, and the loop has a fixed shape the compiler unrolls.
//! 3. **Buckets on a few bits.** The stored words are sorted into `2^k` buckets by `k` "cut"
//!    bits, those the stored words and the queries most often both have; a query only visits
//!    the buckets whose cut bits avoid its own, which skips whole groups of pairs that must
//!    clash.
//!
//! The loops run group by group: a group's rows (7 KB) stay in the L1 cache while every query
//! that may meet it passes, so the queries are sorted once by their cut bits into classes.

/// 64-bit lanes per group: 4 fill one AVX2 register.
const LANES: usize = 4;
/// Words per group.
const GROUP: usize = 64 * LANES;
/// Bit positions per chunk of pre-ANDed rows.
const SPAN: usize = 6;
/// Rows per chunk: one per pattern of its bits.
const ROWS: usize = 1 << SPAN;
/// The most chunks: words have at most 64 bits.
const MAX_CHUNKS: usize = 64usize.div_ceil(SPAN);
/// The most cut bits (so at most 256 buckets).
pub(super) const MAX_CUT: usize = 8;
/// Stored words per bucket, about: fewer leave groups part-filled, more skip fewer pairs
/// (measured at `n = 16..18`).
const BUCKET_WORDS: usize = GROUP / 4;
/// The most words whose bits are counted to choose the cut bits.
const SAMPLE: usize = 256;
/// The most bits that double a query's weight in [`Sieve::count`].
pub(super) const MAX_DOUBLING: usize = 2;

/// One row: one bit per word of a group.
type Row = [u64; LANES];

/// Stored words, bucketed and bit-sliced, ready to count the ones disjoint from a query.
///
/// One is kept per thread and built again for each join, so its buffers are allocated once.
#[derive(Default)]
pub(super) struct Sieve {
    /// Number of cut bits.
    k: usize,
    /// The cut bits: bucket bit `i` is the `i`-th lowest of them.
    cut: u64,
    /// The bits that can clash (set in some stored word), in chunks.
    active: u64,
    /// Chunks per group.
    chunks: usize,
    /// The classes of queries (by cut bits) that group `g` may hold a disjoint word for:
    /// `classes[reach[g]..reach[g + 1]]`.
    classes: Vec<u8>,
    reach: Vec<u32>,
    /// `chunks * ROWS` rows per group.
    rows: Vec<Row>,
    /// Buffers: the first position of each bucket or class, and words or queries sorted by it.
    first: Vec<u32>,
    sorted: Vec<u64>,
}

impl Sieve {
    /// Bytes a sieve of `words` stored words may occupy (with as many queries).
    pub fn bytes(words: u64, bits: usize) -> u64 {
        let row = (LANES * 8) as u64;
        let groups = words.div_ceil(GROUP as u64);
        let chunks = bits.div_ceil(SPAN).max(1) as u64;
        // Per group: its rows, its query classes and where they start. Then the sorted words
        // (or queries) and the class starts.
        let group = chunks * ROWS as u64 * row + (1 << MAX_CUT) + 4;
        groups * group + 8 * words + 4 * ((MAX_DOUBLING as u64 + 1) << MAX_CUT) + 4
    }

    /// Stores `words` (each at most 64 bits) for queries like `queries` (a sample will do),
    /// in place of what was stored.
    #[inline(always)]
    pub fn build<G: Gather>(&mut self, words: &[u64], queries: &[u64]) {
        // A bit no stored word has cannot clash.
        let active = words.iter().fold(0, |acc, &w| acc | w);
        let k = (words.len() / BUCKET_WORDS)
            .max(1)
            .ilog2()
            .min(MAX_CUT as u32)
            .min(active.count_ones()) as usize;
        let cut = busiest(words, queries, active, k);
        let chunks = (active.count_ones() as usize).div_ceil(SPAN).max(1);
        *self = Sieve {
            k,
            cut,
            active,
            chunks,
            ..std::mem::take(self)
        };

        // Sort the words by bucket, keeping each bucket's first position.
        let buckets = 1 << k;
        let first = &mut self.first;
        first.clear();
        first.resize(buckets + 1, 0);
        for &w in words {
            first[G::gather(w, cut) as usize + 1] += 1;
        }
        for b in 1..first.len() {
            first[b] += first[b - 1];
        }
        self.sorted.resize(words.len(), 0);
        for &w in words {
            let b = G::gather(w, cut) as usize;
            self.sorted[first[b] as usize] = G::gather(w, active);
            first[b] += 1;
        }
        // `first[b]` is now where bucket `b + 1` starts.
        first.rotate_right(1);
        first[0] = 0;

        // Then cut the sorted words into groups, which may straddle buckets: a bucket is often
        // smaller than a group, and padding each to whole groups wasted a quarter of the lanes
        // at n = 18. A group serves the query classes that avoid one of its buckets' cut bits.
        self.rows.clear();
        self.classes.clear();
        self.reach.clear();
        self.reach.push(0);
        let mut low = 0;
        for (g, block) in self.sorted.chunks(GROUP).enumerate() {
            push_group(&mut self.rows, block, chunks);
            let (lo, hi) = (g * GROUP, g * GROUP + block.len());
            // The buckets with words in `lo..hi`: from the one holding `lo`.
            while first[low + 1] as usize <= lo {
                low += 1;
            }
            let mut high = low;
            while (first[high + 1] as usize) < hi {
                high += 1;
            }
            let held = |b: usize| first[b] < first[b + 1];
            self.classes.extend(
                (0..buckets)
                    .filter(|&c| (low..=high).any(|b| held(b) && b & c == 0))
                    .map(|c| c as u8),
            );
            self.reach.push(self.classes.len() as u32);
        }
    }

    /// `Σ 2^|q & doubling| · #{stored u : u & q == 0}` over the `queries`: each query counts
    /// twice for each bit of `doubling` it has (at most [`MAX_DOUBLING`] of them).
    #[inline(always)]
    pub fn count<G: Gather>(&mut self, queries: &[u64], doubling: u64) -> u64 {
        debug_assert!(doubling.count_ones() as usize <= MAX_DOUBLING);
        // Sort the queries into classes by their cut bits and their weight, keeping only the
        // bits the chunks look at.
        const WEIGHTS: usize = MAX_DOUBLING + 1;
        let (cut, active) = (self.cut, self.active);
        let class_of =
            |q: u64| G::gather(q, cut) as usize * WEIGHTS + (q & doubling).count_ones() as usize;
        let mut first = std::mem::take(&mut self.first);
        let mut sorted = std::mem::take(&mut self.sorted);
        first.clear();
        first.resize((WEIGHTS << self.k) + 1, 0);
        for &q in queries {
            first[class_of(q) + 1] += 1;
        }
        for c in 1..first.len() {
            first[c] += first[c - 1];
        }
        sorted.resize(queries.len(), 0);
        for &q in queries {
            let c = class_of(q);
            sorted[first[c] as usize] = G::gather(q, active);
            first[c] += 1;
        }
        first.rotate_right(1);
        first[0] = 0;
        macro_rules! run {
            ($($c:literal)*) => {
                match self.chunks {
                    $($c => self.run::<$c, WEIGHTS>(&sorted, &first),)*
                    _ => unreachable!("at most {MAX_CHUNKS} chunks"),
                }
            };
        }
        let total = run!(1 2 3 4 5 6 7 8 9 10 11 12 13);
        self.first = first;
        self.sorted = sorted;
        total
    }

    /// The loops of [`Sieve::count`], with the number of chunks known to the compiler.
    #[inline(always)]
    fn run<const C: usize, const W: usize>(&self, queries: &[u64], first: &[u32]) -> u64 {
        let mut total = 0;
        for (g, group) in self.rows.chunks_exact(C * ROWS).enumerate() {
            let classes = &self.classes[self.reach[g] as usize..self.reach[g + 1] as usize];
            for &cut in classes {
                for doublings in 0..W {
                    let class = cut as usize * W + doublings;
                    let range = first[class] as usize..first[class + 1] as usize;
                    // Per-lane sums, added up once per class: no horizontal add per query.
                    let mut found = [0u64; LANES];
                    for &q in &queries[range] {
                        let mut acc = group[q as usize & (ROWS - 1)];
                        for c in 1..C {
                            let row = &group[c * ROWS + (q >> (SPAN * c)) as usize % ROWS];
                            for l in 0..LANES {
                                acc[l] &= row[l];
                            }
                        }
                        for l in 0..LANES {
                            found[l] += u64::from(acc[l].count_ones());
                        }
                    }
                    total += found.iter().sum::<u64>() << doublings;
                }
            }
        }
        total
    }
}

/// The `k` bits of `active` that most often clash: set in many stored words and many queries
/// (counted on evenly spread samples).
fn busiest(words: &[u64], queries: &[u64], active: u64, k: usize) -> u64 {
    let count = |list: &[u64]| {
        let mut f = [0u32; 64];
        for &w in list.iter().step_by(list.len().div_ceil(SAMPLE).max(1)) {
            let mut x = w & active;
            while x != 0 {
                f[x.trailing_zeros() as usize] += 1;
                x &= x - 1;
            }
        }
        f
    };
    let (fw, fq) = if k == 0 {
        ([0; 64], [0; 64])
    } else {
        (count(words), count(queries))
    };
    let mut cut = 0u64;
    for _ in 0..k {
        // The busiest bit not taken yet (ties: the lowest).
        let best = (0..64)
            .filter(|&j| (active & !cut) >> j & 1 == 1)
            .max_by_key(|&j| (u64::from(fw[j]) * u64::from(fq[j]), std::cmp::Reverse(j)));
        cut |= 1 << best.expect("k is at most the number of active bits");
    }
    cut
}

/// Appends the rows of one group of up to [`GROUP`] words (already gathered to their chunked
/// bits): for each chunk and each pattern of its bits, the words lacking all of them.
fn push_group(rows: &mut Vec<Row>, block: &[u64], chunks: usize) {
    // Per bit position, the words lacking it, lane by lane (64 words per lane).
    let mut lacking = [[0u64; LANES]; 64];
    let mut valid = [0u64; LANES];
    for (lane, words) in block.chunks(64).enumerate() {
        let mut m = [0u64; 64];
        for (x, &w) in m.iter_mut().zip(words) {
            *x = !w;
        }
        transpose64(&mut m);
        for (j, &bits) in m.iter().enumerate() {
            lacking[j][lane] = bits;
        }
        valid[lane] = if words.len() == 64 {
            !0
        } else {
            (1 << words.len()) - 1
        };
    }
    // Pattern `s` of a chunk: the row of `s` without its lowest bit, ANDed with that bit's.
    // Padding words are cleared from every row, so they never count.
    for c in 0..chunks {
        let base = rows.len();
        rows.push(valid);
        for s in 1..ROWS {
            let mut row = rows[base + (s & (s - 1))];
            let bit = &lacking[(SPAN * c + s.trailing_zeros() as usize).min(63)];
            for l in 0..LANES {
                row[l] &= bit[l];
            }
            rows.push(row);
        }
    }
}

/// Packs the bits of `x` at the set positions of `mask` into the low bits (BMI2's `pext`).
pub(super) trait Gather {
    fn gather(x: u64, mask: u64) -> u64;
}

/// `pext` in software: one step per bit of the mask.
pub(super) struct Soft;

impl Gather for Soft {
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

/// The `pext` instruction: only for code that has checked the CPU has BMI2.
#[cfg(target_arch = "x86_64")]
pub(super) struct Pext;

#[cfg(target_arch = "x86_64")]
impl Gather for Pext {
    #[inline(always)]
    fn gather(x: u64, mask: u64) -> u64 {
        // SAFETY: `Pext` is only used by code compiled for BMI2, chosen after the CPU was
        // checked for it.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
}

/// Transposes a 64×64 bit matrix in place: bit `i` of `m[k]` goes to bit `k` of `m[i]`.
///
/// Swaps ever smaller off-diagonal blocks (32×32, then 16×16, ...), each with a few word
/// operations: 6 rounds of 32 swaps instead of 4096 single-bit moves.
fn transpose64(m: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            // Rows k and k + width exchange their high and low `width`-bit blocks.
            let t = ((m[k] >> width) ^ m[k + width]) & mask;
            m[k] ^= t << width;
            m[k + width] ^= t;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_moves_every_bit() {
        let mut m = [0u64; 64];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for w in m.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *w = x;
        }
        let original = m;
        transpose64(&mut m);
        for (k, row) in original.iter().enumerate() {
            for (i, column) in m.iter().enumerate() {
                assert_eq!(row >> i & 1, column >> k & 1, "bit {i} of row {k}");
            }
        }
    }

    #[test]
    fn gather_packs_the_masked_bits() {
        let cases = [
            (0b1011_0110, 0b1111_0000, 0b1011),
            (0b1011_0110, 0b0101_0101, 0b0110),
            (!0, 1 << 63 | 1, 0b11),
            (12345, 0, 0),
        ];
        for (x, mask, packed) in cases {
            assert_eq!(Soft::gather(x, mask), packed);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("bmi2") {
                assert_eq!(Pext::gather(x, mask), packed);
            }
        }
    }

    #[test]
    fn sieve_counts_like_a_double_loop() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bits: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse words, like half-board words: about a quarter of the bits set.
            x & (x >> 1) & ((1u128 << bits) - 1) as u64
        };
        for (len, bits) in [
            (0, 34),
            (1, 34),
            (63, 34),
            (64, 30),
            (65, 34),
            (300, 46),
            (5000, 34),
        ] {
            let words: Vec<u64> = (0..len).map(|_| next(bits)).collect();
            let queries: Vec<u64> = (0..200).map(|_| next(bits)).collect();
            let doubling = 1 << 3 | 1 << 20;
            let mut sieve = Sieve::default();
            sieve.build::<Soft>(&words, &queries);
            let slow: u64 = queries
                .iter()
                .map(|&q| {
                    let disjoint = words.iter().filter(|&&w| w & q == 0).count() as u64;
                    disjoint << (q & doubling).count_ones()
                })
                .sum();
            assert_eq!(sieve.count::<Soft>(&queries, doubling), slow, "{len} words");
            // Queries unlike the sample still count right.
            let others: Vec<u64> = (0..50).map(|_| next(64)).collect();
            let slow: u64 = others
                .iter()
                .map(|&q| words.iter().filter(|&&w| w & q == 0).count() as u64)
                .sum();
            assert_eq!(
                sieve.count::<Soft>(&others, 0),
                slow,
                "{len} words, other queries"
            );
        }
    }
}
