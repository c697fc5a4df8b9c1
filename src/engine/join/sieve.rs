//! Counting the stored words that are disjoint from a query word.
//!
//! The join asks, for every bottom word `v`, how many top words `u` have `u & v == 0`. Two
//! tricks make one question cost a few vector instructions per 256 top words:
//!
//! 1. **Bit slicing.** The top words are stored transposed in groups of 256: for each bit
//!    position `j`, one 256-bit row says which words of the group do *not* have bit `j`. The
//!    words disjoint from `v` are then the AND of the rows of `v`'s set bits, and their number
//!    is a popcount: 256 pairs tested with about a dozen ANDs.
//! 2. **Buckets on a few bits.** The top words are split into `2^k` buckets by `k` frequent
//!    ("cut") bits. A query only visits the buckets whose cut bits avoid its own, which skips
//!    most of the pairs that would collide on the busiest diagonals.

/// 64-bit lanes per group: 4 fill one AVX2 register.
const LANES: usize = 4;
/// Words per group.
const GROUP: usize = 64 * LANES;
/// The most cut bits (so at most 256 buckets).
pub(super) const MAX_CUT: usize = 8;

/// The stored top words of one task, bucketed and bit-sliced.
pub static STATS: [std::sync::atomic::AtomicU64; 6] = [const { std::sync::atomic::AtomicU64::new(0) }; 6];
pub(super) struct Sieve {
    /// Rows per group: one validity row, then one per bit position.
    stride: usize,
    /// Positions of the cut bits, bucket bit `i` is word bit `cut[i]`.
    cut: [u32; MAX_CUT],
    k: usize,
    cut_mask: u64,
    /// Group range of bucket `s`: `start[s]..start[s + 1]`.
    start: Vec<u32>,
    /// `stride` rows per group, each row one bit per word of the group.
    rows: Vec<[u64; LANES]>,
}

impl Sieve {
    /// Bytes a sieve of `words` words of `bits` bits may occupy (with the words themselves).
    pub fn bytes(words: u64, bits: usize) -> u64 {
        let row = (LANES * 8) as u64;
        let groups = words.div_ceil(GROUP as u64) + (1 << MAX_CUT);
        words * 8 + groups * (bits as u64 + 1) * row + (1 << MAX_CUT) * 4
    }

    /// Stores `words`, each using only the low `bits` bits.
    pub fn build(words: &[u64], bits: usize) -> Sieve {
        let mut freq = [0u32; 64];
        for &w in words {
            let mut x = w;
            while x != 0 {
                freq[x.trailing_zeros() as usize] += 1;
                x &= x - 1;
            }
        }
        // One bucket per ~4 groups keeps the partly filled last group of each bucket cheap.
        let k = (words.len() / (4 * GROUP)).max(1).ilog2().min(MAX_CUT as u32) as usize;
        let mut order: Vec<usize> = (0..bits).collect();
        order.sort_by_key(|&j| std::cmp::Reverse(freq[j]));
        let mut cut = [0u32; MAX_CUT];
        let mut cut_mask = 0;
        for (c, &j) in cut.iter_mut().zip(&order).take(k) {
            *c = j as u32;
            cut_mask |= 1 << j;
        }
        STATS[4].fetch_add(words.len() as u64, std::sync::atomic::Ordering::Relaxed);
        STATS[5].fetch_add(k as u64, std::sync::atomic::Ordering::Relaxed);
        let mut s = Sieve {
            stride: bits + 1,
            cut,
            k,
            cut_mask,
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

        s.rows = vec![[0; LANES]; groups as usize * s.stride];
        let mut filled = vec![0usize; 1 << k];
        let keep = if bits == 64 { !0 } else { (1u64 << bits) - 1 } & !cut_mask;
        for &w in words {
            let b = s.bucket(w);
            let i = filled[b];
            filled[b] += 1;
            let base = (s.start[b] as usize + i / GROUP) * s.stride;
            let (lane, bit) = ((i / 64) % LANES, 1u64 << (i % 64));
            s.rows[base][lane] |= bit;
            let mut lacks = !w & keep;
            while lacks != 0 {
                let j = lacks.trailing_zeros() as usize;
                s.rows[base + 1 + j][lane] |= bit;
                lacks &= lacks - 1;
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
        let mut set = [0u8; 64];
        let mut len = 0;
        let mut rest = query & !self.cut_mask;
        while rest != 0 {
            set[len] = rest.trailing_zeros() as u8 + 1;
            len += 1;
            rest &= rest - 1;
        }
        let set = &set[..len];
        STATS[0].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        STATS[1].fetch_add(len as u64, std::sync::atomic::Ordering::Relaxed);
        let mut total = 0;
        // Every sub-mask of `free`, from `free` down to 0: the buckets the query can meet.
        let mut b = free;
        loop {
            let groups = self.start[b] as usize..self.start[b + 1] as usize;
            for group in self.rows[groups.start * self.stride..groups.end * self.stride]
                .chunks_exact(self.stride)
            {
                STATS[2].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let mut acc = group[0];
                for &j in set {
                    let row = group[j as usize];
                    for l in 0..LANES {
                        acc[l] &= row[l];
                    }
                }
                total += acc.iter().map(|x| u64::from(x.count_ones())).sum::<u64>();
            }
            STATS[3].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if b == 0 {
                break;
            }
            b = (b - 1) & free;
        }
        total
    }
}
