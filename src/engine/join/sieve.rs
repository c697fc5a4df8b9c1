//! Counting the stored words that are disjoint from a query word.
//!
//! The join asks, for every bottom word `v`, how many top words `u` have `u & v == 0`. Two
//! tricks make one question cost a few vector instructions per 256 top words:
//!
//! 1. **Bit slicing.** The top words are stored transposed in groups of 256: for each bit
//!    position `j`, one 256-bit row says which words of the group do *not* have bit `j`. The
//!    words disjoint from `v` are then the AND of the rows of `v`'s set bits, and their number
//!    is a popcount: 256 pairs tested with about a dozen ANDs.
//! 2. **Buckets on a few bits.** The top words are split into `2^k` buckets by `k` "cut" bits,
//!    those that the top words and the queries most often both have. A query only visits the
//!    buckets whose cut bits avoid its own, which skips most of the pairs that would collide on
//!    the busiest diagonals. (Ranking the bits by the queries' frequency as well as the stored
//!    words' made `n = 18` about 20% faster.)

/// 64-bit lanes per group: 4 fill one AVX2 register.
const LANES: usize = 4;
/// Words per group.
const GROUP: usize = 64 * LANES;
/// The most cut bits (so at most 256 buckets).
pub(super) const MAX_CUT: usize = 8;

/// The stored top words of one task, bucketed and bit-sliced.
pub(super) struct Sieve {
    /// Rows per group: one validity row, then one per bit position.
    stride: usize,
    /// Positions of the cut bits, bucket bit `i` is word bit `cut[i]`.
    cut: [u32; MAX_CUT],
    k: usize,
    cut_mask: u64,
    /// The bits set in some stored word.
    present: u64,
    /// Group range of bucket `s`: `start[s]..start[s + 1]`.
    start: Vec<u32>,
    /// `stride` rows per group, each row one bit per word of the group.
    rows: Vec<[u64; LANES]>,
}

impl Sieve {
    /// Bytes a sieve of `words` words of `bits` bits may occupy, with the words themselves
    /// and as many queries kept to choose the cut bits.
    pub fn bytes(words: u64, bits: usize) -> u64 {
        let row = (LANES * 8) as u64;
        let groups = words.div_ceil(GROUP as u64) + (1 << MAX_CUT);
        2 * words * 8 + groups * (bits as u64 + 1) * row + (1 << MAX_CUT) * 4
    }

    /// Stores `words`, each using only the low `bits` bits, bucketed for queries like
    /// `queries` (a sample is enough).
    pub fn build(words: &[u64], bits: usize, queries: &[u64]) -> Sieve {
        // About one group per bucket: more cut bits skip more pairs but leave more groups
        // part-filled (measured at n = 16 and 18).
        let k = (words.len() / GROUP).max(1).ilog2().min(MAX_CUT as u32) as usize;
        // A cut bit skips the pairs where both words have it: rank bits by how often the
        // stored words and the queries have them.
        let mut freq = [0u64; 64];
        if k > 0 {
            let count = |list: &[u64]| {
                let mut f = [0u64; 64];
                for &w in list {
                    let mut x = w;
                    while x != 0 {
                        f[x.trailing_zeros() as usize] += 1;
                        x &= x - 1;
                    }
                }
                f
            };
            let (fw, fq) = (count(words), count(queries));
            for j in 0..64 {
                freq[j] = fw[j] * fq[j];
            }
        }
        let mut order: Vec<usize> = (0..bits).collect();
        order.sort_by_key(|&j| std::cmp::Reverse(freq[j]));
        let mut cut = [0u32; MAX_CUT];
        let mut cut_mask = 0;
        for (c, &j) in cut.iter_mut().zip(&order).take(k) {
            *c = j as u32;
            cut_mask |= 1 << j;
        }
        let mut s = Sieve {
            stride: bits + 1,
            cut,
            k,
            cut_mask,
            present: words.iter().fold(0, |acc, &w| acc | w),
            start: Vec::new(),
            rows: Vec::new(),
        };

        let mut sizes = vec![0u32; 1 << k];
        for &w in words {
            sizes[s.bucket(w)] += 1;
        }
        s.start = Vec::with_capacity(sizes.len() + 1);
        let mut groups = 0;
        for &size in &sizes {
            s.start.push(groups);
            groups += size.div_ceil(GROUP as u32);
        }
        s.start.push(groups);

        // Sort the words by bucket, then transpose them 64 at a time into the rows.
        let mut sorted = vec![0u64; words.len()];
        let mut next: Vec<usize> = Vec::with_capacity(sizes.len());
        let mut at = 0;
        for &size in &sizes {
            next.push(at);
            at += size as usize;
        }
        for &w in words {
            let b = s.bucket(w);
            sorted[next[b]] = w;
            next[b] += 1;
        }
        s.rows = vec![[0; LANES]; groups as usize * s.stride];
        let keep = if bits == 64 { !0 } else { (1u64 << bits) - 1 } & !cut_mask;
        let mut from = 0;
        for (b, &size) in sizes.iter().enumerate() {
            let bucket = &sorted[from..from + size as usize];
            from += size as usize;
            for (i, block) in bucket.chunks(64).enumerate() {
                let base = (s.start[b] as usize + i / LANES) * s.stride;
                let lane = i % LANES;
                // Row j of the block: the words lacking bit j. Padding words lack nothing.
                let mut m = [0u64; 64];
                for (x, &w) in m.iter_mut().zip(block) {
                    *x = !w & keep;
                }
                transpose64(&mut m);
                s.rows[base][lane] = if block.len() == 64 {
                    !0
                } else {
                    (1 << block.len()) - 1
                };
                for (row, &bits_j) in s.rows[base + 1..base + 1 + bits].iter_mut().zip(&m) {
                    row[lane] = bits_j;
                }
            }
        }
        s
    }

    /// The bucket of a word: its cut bits, gathered.
    #[inline(always)]
    fn bucket(&self, w: u64) -> usize {
        let mut b = 0;
        for (i, &j) in self.cut[..self.k].iter().enumerate() {
            b |= (((w >> j) & 1) as usize) << i;
        }
        b
    }

    /// The number of stored words `u` with `u & query == 0`.
    #[inline(always)]
    pub fn count(&self, query: u64) -> u64 {
        let free = !self.bucket(query) & ((1 << self.k) - 1);
        // A bit no stored word has cannot clash: its row is all ones, skip it.
        let query = query & !self.cut_mask & self.present;
        let mut set = [0u8; 64];
        let mut len = 0;
        let mut rest = query;
        while rest != 0 {
            set[len] = rest.trailing_zeros() as u8 + 1;
            len += 1;
            rest &= rest - 1;
        }
        let set = &set[..len];
        // Per-lane counts, summed once at the end: no horizontal add per group.
        let mut total = [0u64; LANES];
        // Every sub-mask of `free`, from `free` down to 0: the buckets the query can meet.
        let mut b = free;
        loop {
            let groups = self.start[b] as usize..self.start[b + 1] as usize;
            for group in self.rows[groups.start * self.stride..groups.end * self.stride]
                .chunks_exact(self.stride)
            {
                let mut acc = group[0];
                for &j in set {
                    // SAFETY: `j <= bits < stride == group.len()`: `set` holds positions below
                    // `bits`, plus one.
                    let row = unsafe { group.get_unchecked(j as usize) };
                    for l in 0..LANES {
                        acc[l] &= row[l];
                    }
                }
                for l in 0..LANES {
                    total[l] += u64::from(acc[l].count_ones());
                }
            }
            if b == 0 {
                break;
            }
            b = (b - 1) & free;
        }
        total.iter().sum()
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
    fn sieve_counts_like_a_double_loop() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse words, like half-board words: about a quarter of 34 bits set.
            x & (x >> 1) & ((1 << 34) - 1)
        };
        for len in [0, 1, 63, 64, 65, 300, 5000] {
            let words: Vec<u64> = (0..len).map(|_| next()).collect();
            let sieve = Sieve::build(&words, 34, &words);
            for _ in 0..50 {
                let q = next();
                let slow = words.iter().filter(|&&w| w & q == 0).count() as u64;
                assert_eq!(sieve.count(q), slow, "{len} words");
            }
        }
    }
}
