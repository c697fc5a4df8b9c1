//! Counting, for a batch of query words, the stored words disjoint from each.
//!
//! The join asks, for every word `v` of one half, how many stored words `u` of the other half
//! have `u & v == 0`. Four tricks make that a few vector instructions per 256 or 512 pairs:
//!
//! 1. **Bit slicing.** The stored words are kept transposed in groups of 256 or 512 words
//!    ([`NARROW`] or [`WIDE`] lanes of 64, the layout in `layout.rs`; where the tuning says so,
//!    a side that fits 256 words is kept narrow, see `Tuning::narrow_halves`): a row per bit
//!    position says which words of the group *lack* that bit. The words disjoint from
//!    `v` are the AND of the rows of `v`'s bits, and their number is a popcount.
//! 2. **Rows ANDed ahead of time** (the "Four Russians" trick). The bit positions are cut into
//!    chunks of [`SPAN`] bits, and each chunk keeps the AND for every one of its `2^SPAN`
//!    patterns. A query then costs one AND per chunk, whatever its number of bits, and the
//!    loop has a fixed shape the compiler unrolls.
//! 3. **Buckets on a few bits.** Both sides are sorted by `k` "cut" bits, those the stored
//!    words and the queries most often both have ([`cut_bits`]). A group of stored words is
//!    only shown the classes of queries whose cut bits avoid those of one of its words, which
//!    skips whole groups of pairs that must clash; where the kernel can, a class that meets
//!    only one half of a group is asked of that half only ([`Kernel::disjoint_half`]).
//! 4. **The cut bits leave the chunks.** The queries of a class share their cut bits, so a
//!    group also keeps a row per pattern of the cut bits, loaded once per class, and the
//!    chunks slice only the other bits (gathered per query with `pext`): 5 chunks instead of 6
//!    at `n = 18`, 5 instead of 7 at `n = 20` ([`Sieve::build`]).
//!
//! The loops run group by group: a group's rows (10 to 20 KB) stay in the L1 cache while every
//! query that may meet it passes. The step per group and query class is a [`Kernel`] method,
//! so that each vector kernel writes it with its own intrinsics (AVX2's and AVX-512's) while
//! the portable one stays plain Rust; the loops around it are compiled once per kernel, in a
//! function that [`Kernel::compiled`] gives the kernel's CPU features.
//! Sorting a list into [`Classes`] is done once per join and serves both as stored words and
//! as queries.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::kernel::{Compiled, Kernel, append_pairs, class_of};
use super::layout::{self, Block, NARROW, ROWS, Row, SPAN, WIDE};
use super::tuning::Tuning;

/// The most chunks: words have at most 64 bits.
const MAX_CHUNKS: usize = 64usize.div_ceil(SPAN);
/// The most cut bits (so at most 256 buckets).
const MAX_CUT: usize = 8;
/// The most cut bits added to save a chunk.
const SPARE_CUT: usize = 2;
/// Stored words per bucket, about, for groups of `lanes` lanes: fewer make more groups
/// straddle buckets, more skip fewer pairs.
const fn bucket_words(lanes: usize) -> usize {
    64 * lanes / 4
}
/// The most words of each side whose bits are counted to choose the cut bits.
const SAMPLE: usize = 128;
/// The most bits that double a query's weight.
const MAX_DOUBLING: usize = 2;
/// Query weights: 0, 1 or 2 doubling bits.
const WEIGHTS: usize = MAX_DOUBLING + 1;
/// What a query counts for, by its weight: [`Sieve::count`] multiplies each query's disjoint
/// stored words by `scales[weight]`, and does not ask the queries whose weight scales by 0.
pub(super) type Scales = [u64; WEIGHTS];
/// Slots of the table of class starts: a power of two above every class and the end.
const SLOTS: usize = ((WEIGHTS << MAX_CUT) + 1).next_power_of_two();

/// The cut bits for a join whose stored lists hold about `stored` words, in groups of `lanes`
/// lanes: the busiest of the `candidates`, set in many words of both `a` and `b` (counted on
/// evenly spread samples).
#[inline(always)]
pub(super) fn cut_bits(a: &[u64], b: &[u64], candidates: u64, stored: usize, lanes: usize) -> u64 {
    let mut k = (stored / bucket_words(lanes))
        .max(1)
        .ilog2()
        .min(MAX_CUT as u32)
        .min(candidates.count_ones()) as usize;
    // The candidates not cut are sliced into chunks of `SPAN` bits (by the kernels that
    // gather), and each chunk costs a row load per query: a last chunk of one or two bits
    // joins the cut instead (at n = 20, 5 cut bits leave 31 bits, 6 chunks; 6 leave 5 chunks).
    let spare = (candidates.count_ones() as usize - k) % SPAN;
    if (1..=SPARE_CUT).contains(&spare) && k + spare <= MAX_CUT {
        k += spare;
    }
    if k == 0 {
        return 0;
    }
    let (fa, fb) = (frequencies(a), frequencies(b));
    let mut cut = 0u64;
    for _ in 0..k {
        // The busiest bit not taken yet (ties: the lowest).
        let best = (0..64)
            .filter(|&j| (candidates & !cut) >> j & 1 == 1)
            .max_by_key(|&j| (u64::from(fa[j]) * u64::from(fb[j]), std::cmp::Reverse(j)));
        cut |= 1 << best.expect("k is at most the number of candidates");
    }
    cut
}

/// How many of up to [`SAMPLE`] evenly spread words have each bit: 64 words at a time are
/// transposed, so that a bit's count is one popcount.
#[inline(always)]
fn frequencies(words: &[u64]) -> [u32; 64] {
    let mut f = [0u32; 64];
    let mut sample = words.iter().step_by(words.len().div_ceil(SAMPLE).max(1));
    loop {
        let mut m = [[0u64; 1]; 64];
        let mut filled = 0;
        for (x, &w) in m.iter_mut().zip(&mut sample) {
            *x = [w];
            filled += 1;
        }
        if filled == 0 {
            return f;
        }
        transpose64(&mut m);
        for (count, [row]) in f.iter_mut().zip(m) {
            *count += row.count_ones();
        }
    }
}

/// Words sorted into classes: by weight (how many `doubling` bits they have, at most
/// [`MAX_DOUBLING`]), then by their cut bits. The words of weight 0 (no doubling bit) come
/// first, sorted by cut bits: they are the ones a sieve stores.
#[derive(Default)]
pub(super) struct Classes {
    /// The cut bits and the doubling bits the words were sorted by.
    cut: u64,
    doubling: u64,
    /// First position of class `weight << k | cut`, and the end (`SLOTS` long; the slots past
    /// the end are unused).
    first: Vec<u32>,
    words: Vec<u64>,
    /// The class of each word being sorted, in the order given (the sort's scratch).
    class_of: Vec<u16>,
    /// Where each run of the words goes next in each class (the counting sort's scratch).
    ends: Vec<u32>,
    /// The words being sorted, dealt into their classes (the sort's scratch).
    bins: Bins,
}

impl Classes {
    /// Sorts `words` into classes (in place of what was held), the way `tuning` says suits
    /// kernel `k`.
    #[inline(always)]
    pub fn sort<K: Kernel>(
        &mut self,
        k: K,
        tuning: Tuning,
        words: &[u64],
        cut: u64,
        doubling: u64,
    ) {
        // Checked once here, so that every class below is under `classes`, itself under
        // `SLOTS`: a class counts at most `MAX_DOUBLING` bits and gathers `k` of them.
        assert!(
            doubling.count_ones() as usize <= MAX_DOUBLING && cut.count_ones() as usize <= MAX_CUT
        );
        (self.cut, self.doubling) = (cut, doubling);
        if self.first.len() != SLOTS {
            self.first = vec![0; SLOTS];
        }
        if tuning.classifies {
            self.sort_classified(k, words);
        } else if tuning.gathers {
            self.sort_counting(k, words);
        } else {
            self.sort_dealt(k, words);
        }
    }

    /// The sort for a kernel that works out many classes at once: all classes stored first,
    /// then the words dealt into them.
    #[inline(always)]
    fn sort_classified<K: Kernel>(&mut self, k: K, words: &[u64]) {
        let classes = WEIGHTS << self.k();
        // Grown, never shrunk: filled afresh for every sort, so no need to clear it.
        if self.class_of.len() < words.len() {
            self.class_of.resize(words.len(), 0);
        }
        let class_of = &mut self.class_of[..words.len()];
        k.classify(words, self.cut, self.doubling, class_of);
        let stored = class_of.iter().map(|&c| usize::from(c));
        self.bins.deal(words, stored, classes);
        self.gather_dealt(words.len());
    }

    /// The sort for a kernel whose `gather` is one instruction: a counting sort that works
    /// each class out twice, to count and then to place, cheaper than copying out a deal.
    #[inline(always)]
    fn sort_counting<K: Kernel>(&mut self, k: K, words: &[u64]) {
        let (cut, doubling, bits) = (self.cut, self.doubling, self.k() as u32);
        let classes = WEIGHTS << bits;
        self.words.resize(words.len(), 0);
        if self.ends.len() != PARTS * SLOTS {
            self.ends = vec![0; PARTS * SLOTS];
        }
        let ends: &mut [u32; PARTS * SLOTS] =
            (&mut self.ends[..]).try_into().expect("PARTS * SLOTS long");
        let first: &mut [u32; SLOTS] = (&mut self.first[..]).try_into().expect("SLOTS long");
        let of = |w: u64| class_of(k, w, cut, doubling, bits);
        place(first, ends, &mut self.words, words, of, classes);
    }

    /// The sort for a kernel that gathers a bit at a time: each class worked out once, as
    /// the word is dealt.
    #[inline(always)]
    fn sort_dealt<K: Kernel>(&mut self, k: K, words: &[u64]) {
        let (cut, doubling, bits) = (self.cut, self.doubling, self.k() as u32);
        let classes = WEIGHTS << bits;
        let of = words.iter().map(|&w| class_of(k, w, cut, doubling, bits));
        self.bins.deal(words, of, classes);
        self.gather_dealt(words.len());
    }

    /// Copies the words dealt into `words`, class by class.
    #[inline(always)]
    fn gather_dealt(&mut self, len: usize) {
        let classes = WEIGHTS << self.k();
        self.bins.gather(&mut self.words, &mut self.first, classes);
        // Every word was dealt to a class below `classes`, and so gathered.
        assert_eq!(self.words.len(), len);
    }

    /// Keeps, class by class, `(w & mask)` for every word `w` of `from` with `w & key == 0`
    /// (in place of what was held): the same classes as sorting those words afresh, as long as
    /// `mask` keeps the cut and doubling bits `from` was sorted by.
    #[inline(always)]
    pub fn keep<K: Kernel>(&mut self, k: K, from: &Classes, key: u64, mask: u64) {
        (self.cut, self.doubling) = (from.cut, from.doubling);
        let classes = WEIGHTS << self.k();
        if self.first.len() != SLOTS {
            self.first = vec![0; SLOTS];
        }
        self.words.clear();
        for c in 0..classes {
            self.first[c] = self.words.len() as u32;
            append_pairs(k, &mut self.words, 0, key, mask, from.class(c));
        }
        self.first[classes] = self.words.len() as u32;
    }

    /// The number of cut bits.
    fn k(&self) -> usize {
        self.cut.count_ones() as usize
    }

    /// How many words are held.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// How many words a sieve built from these stores: those of weight 0.
    pub fn stored_len(&self) -> usize {
        self.first[1 << self.k()] as usize
    }

    /// The words of weight 0, sorted by cut bits, and where each bucket starts.
    fn plain(&self) -> (&[u64], &[u32]) {
        (
            &self.words[..self.stored_len()],
            &self.first[..(1 << self.k()) + 1],
        )
    }

    /// The words of class `class`.
    #[inline(always)]
    fn class(&self, class: usize) -> &[u64] {
        &self.words[self.first[class] as usize..self.first[class + 1] as usize]
    }
}

/// How many runs of the words the counting sort of [`place`] goes through side by side.
const PARTS: usize = 4;

/// The counting sort of [`Classes::sort`]: puts `words` into `sorted` class by class (`of`
/// gives a word's class; every class must be below `classes`, as [`Classes::sort`] checks),
/// and leaves in `first[c]` where class `c` starts (and in `first[classes]` the end); `ends` is
/// scratch.
///
/// The words are cut into [`PARTS`] runs, taken one word of each in turn, each run with
/// counters of its own, and a class holds run 0's words, then run 1's, and so on: the order
/// given is kept. Neighbouring words are often of the same class (a half's words come in
/// pairs of quarter entries, one entry with many others), and with one counter per class each
/// word waited for its neighbour's increment to be stored and loaded back; with runs of
/// their own, neighbours no longer wait for each other.
#[inline(always)]
fn place(
    first: &mut [u32; SLOTS],
    ends: &mut [u32; PARTS * SLOTS],
    sorted: &mut [u64],
    words: &[u64],
    of: impl Fn(u64) -> usize,
    classes: usize,
) {
    assert!(classes < SLOTS && sorted.len() == words.len());
    // Run `p`'s counters at `ends[p * SLOTS..]`, a table of a power-of-two size indexed
    // modulo that size, so that the index needs no bounds check (the checks had cost 2-3% at
    // n = 18 and 19). Plain arrays and slices, too: the stores cannot then touch the vectors'
    // own fields, so the compiler keeps their addresses in registers instead of reloading them
    // per word.
    let at = |p: usize, c: usize| p * SLOTS + c % SLOTS;
    for p in 0..PARTS {
        ends[p * SLOTS..=p * SLOTS + classes].fill(0);
    }
    in_runs(words, |p, w| ends[at(p, of(w))] += 1);
    // Where each run's share of each class starts: class by class, run by run.
    let mut start = 0;
    for c in 0..=classes {
        first[c] = start;
        for p in 0..PARTS {
            let n = ends[at(p, c)];
            ends[at(p, c)] = start;
            start += n;
        }
    }
    // A cheap check of that: a word of class `classes` or above would be missing here.
    assert_eq!(first[classes] as usize, words.len());
    in_runs(words, |p, w| {
        let slot = at(p, of(w));
        let to = ends[slot] as usize;
        debug_assert!(to < sorted.len());
        // SAFETY: `to` is below `sorted.len()`. The first pass counted the words of each run
        // and class with the same runs and classes, all below `classes` (checked just above),
        // so this pass sees exactly as many words of run `p` and class `c` as the running sum
        // left room for: `ends[slot]` stays below the start of the next share, at most
        // `words.len()`, which is `sorted.len()`.
        unsafe { *sorted.get_unchecked_mut(to) = w };
        ends[slot] += 1;
    });
}

/// Calls `visit(p, w)` for every word `w` of `words` cut into [`PARTS`] runs, one word of each
/// run in turn (`p`: the run), the last run also taking the words past the last whole round.
#[inline(always)]
fn in_runs(words: &[u64], mut visit: impl FnMut(usize, u64)) {
    let part = words.len() / PARTS;
    for i in 0..part {
        for p in 0..PARTS {
            visit(p, words[p * part + i]);
        }
    }
    for &w in &words[PARTS * part..] {
        visit(PARTS - 1, w);
    }
}

/// Words per block of [`Bins`].
const BIN: usize = 64;

/// The sort's one pass over the words: each word goes straight to the end of its class, held
/// in blocks of [`BIN`] words that the classes take in turn from one store and chain, and the
/// classes are then copied out one after the other ([`Bins::gather`]).
///
/// A counting sort reads the words twice, once to count the classes and once to place them;
/// dealing them into blocks reads them once, and copying whole blocks out is cheap.
/// A class's last block may be part full, so the store needs at most a block per [`BIN`]
/// words and one more per class that has words.
#[derive(Default)]
struct Bins {
    store: Vec<u64>,
    /// For each block taken, the next block of its class.
    next: Vec<u32>,
    /// For each class (`SLOTS` long): its first block, and where its next word goes, a
    /// multiple of `BIN` when its last block is full (0: it has none yet, as block 0 ends at
    /// `BIN`).
    head: Vec<u32>,
    end: Vec<u32>,
}

impl Bins {
    /// Bytes the blocks of `words` words may occupy, with their chains and tables.
    fn bytes(words: u64) -> u64 {
        let blocks = words / BIN as u64 + words.min((WEIGHTS << MAX_CUT) as u64);
        blocks * (BIN as u64 * 8 + 4) + 8 * SLOTS as u64
    }

    /// Deals `words` into their classes, given in the same order (`class_of`), all below
    /// `classes` (at most `SLOTS`).
    #[inline(always)]
    fn deal(&mut self, words: &[u64], class_of: impl Iterator<Item = usize>, classes: usize) {
        assert!(classes <= SLOTS);
        // A block per `BIN` words, and a part-full last block per class that has words.
        let blocks = words.len() / BIN + classes.min(words.len());
        if self.store.len() < blocks * BIN {
            self.store.resize(blocks * BIN, 0);
            self.next.resize(blocks, 0);
        }
        if self.end.len() != SLOTS {
            (self.head, self.end) = (vec![0; SLOTS], vec![0; SLOTS]);
        }
        self.end[..classes].fill(0);
        let mut taken = 0;
        // Plain slices: the stores cannot touch the vectors' own fields, so the compiler keeps
        // their addresses in registers instead of reloading them per word.
        let (store, next) = (&mut self.store[..], &mut self.next[..]);
        let (head, end): (&mut [u32; SLOTS], &mut [u32; SLOTS]) = (
            (&mut self.head[..]).try_into().expect("SLOTS long"),
            (&mut self.end[..]).try_into().expect("SLOTS long"),
        );
        for (&w, c) in words.iter().zip(class_of) {
            // A power-of-two table, indexed modulo its size: no bounds check.
            let c = c % SLOTS;
            let mut at = end[c] as usize;
            if at.is_multiple_of(BIN) {
                // The class's block is full, or it has none: one word in `BIN` at most.
                // At most `blocks` are taken when every class is below `classes`.
                assert!(taken < blocks, "a class at or above {classes}");
                if at == 0 {
                    head[c] = taken as u32;
                } else {
                    debug_assert!(at / BIN <= next.len());
                    // SAFETY: `at` is at most `store.len()` (below), which is `BIN` times
                    // `next.len()`, and not 0.
                    unsafe { *next.get_unchecked_mut(at / BIN - 1) = taken as u32 };
                }
                at = taken * BIN;
                taken += 1;
            }
            debug_assert!(at < store.len());
            // SAFETY: every `end` is at most `store.len()`, a multiple of `BIN`: it starts at
            // 0, and is only ever set to one past a slot written here; the store never
            // shrinks. So an `at` that is not a multiple of `BIN` lies below `store.len()`,
            // and one that is was just replaced by the start of block `taken`, below `blocks`,
            // which the store holds.
            unsafe { *store.get_unchecked_mut(at) = w };
            end[c] = at as u32 + 1;
        }
    }

    /// Copies the words dealt, class by class (`classes` of them), to `words`, and leaves in
    /// `first[c]` where class `c` starts (and in `first[classes]` the end).
    #[inline(always)]
    fn gather(&self, words: &mut Vec<u64>, first: &mut [u32], classes: usize) {
        words.clear();
        for (c, &end) in self.end[..classes].iter().enumerate() {
            first[c] = words.len() as u32;
            let end = end as usize;
            if end == 0 {
                continue; // No words of class `c`.
            }
            let mut block = self.head[c] as usize;
            // The blocks of a class are taken in increasing order, so only its last one
            // holds its end.
            loop {
                let start = block * BIN;
                if end <= start + BIN {
                    words.extend_from_slice(&self.store[start..end]);
                    break;
                }
                words.extend_from_slice(&self.store[start..start + BIN]);
                block = self.next[block] as usize;
            }
        }
        first[classes] = words.len() as u32;
    }
}

/// Stored words, bucketed and bit-sliced, ready to count the ones disjoint from a query.
///
/// Groups hold `64 * L` words. One is kept per thread and built again for each join, so its
/// buffers are allocated once.
#[derive(Default)]
pub(super) struct Sieve<const L: usize> {
    /// Chunks per group.
    chunks: usize,
    /// The bits of a word that the chunks slice, in order (see [`Sieve::build`]).
    sliced: u64,
    /// Whether a query's `sliced` bits are gathered to the low end before its chunks are read
    /// (else `sliced` is every bit of the word, in place).
    gathers: bool,
    /// Rows per group: `chunks * ROWS`, then one per pattern of the cut bits.
    stride: usize,
    /// The cut-bit classes of queries that group `g` may hold a disjoint word for:
    /// `classes[reach[g]..reach[g + 1]]`.
    classes: Vec<u8>,
    /// For each of those classes, the part of the group whose words it may be disjoint from:
    /// [`WHOLE`], or one half ([`FIRST_HALF`], [`SECOND_HALF`]) where every word of the
    /// other clashes with the class's cut bits (only where [`Tuning::halves`]).
    parts: Vec<u8>,
    reach: Vec<u32>,
    /// `stride` rows per group, `8 / L` to a block.
    blocks: Vec<Block>,
    /// Rows in use.
    len: usize,
    /// Words stored and pairs tested since the last [`Sieve::take_work`].
    stored: u64,
    pairs: u64,
}

/// Bytes a sieve of `words` stored words of `bits` bits may occupy, with three lists of classes
/// of as many words (the two sides of a join, and a task's sorted top entries), for
/// the wider of the two group sizes (the one that pads more), and a narrow sieve of one group.
pub(super) fn bytes(words: u64, bits: usize) -> u64 {
    // And the sieve of the sides that fit one narrow group, where groups are wide: its rows.
    let small = Sieve::<NARROW>::bytes(Sieve::<NARROW>::GROUP as u64, bits)
        - Sieve::<NARROW>::bytes(0, bits);
    Sieve::<NARROW>::bytes(words, bits).max(Sieve::<WIDE>::bytes(words, bits)) + small
}

impl<const L: usize> Sieve<L> {
    /// Words per group.
    pub(super) const GROUP: usize = 64 * L;

    /// Bytes a sieve of `words` stored words of `bits` bits may occupy, with three lists of
    /// classes of as many words.
    fn bytes(words: u64, bits: usize) -> u64 {
        let row = (L * 8) as u64;
        let groups = words.div_ceil(Self::GROUP as u64);
        let chunks = bits.div_ceil(SPAN).max(1) as u64;
        // Per group: its rows (at most all the bits sliced, and a row per cut pattern), its
        // query classes and where they start.
        let group = (chunks * ROWS as u64 + (1 << MAX_CUT)) * row + 2 * (1 << MAX_CUT) + 4;
        // Each list of classes: its words, a class per word (`u16`, for the sort), the
        // table of class starts and the sort's blocks.
        let classes = 3 * ((8 + 2) * words + 4 * (SLOTS as u64) + Bins::bytes(words));
        groups * group + classes
    }

    /// The words stored and the pairs tested since the last call.
    pub fn take_work(&mut self) -> (u64, u64) {
        (
            std::mem::take(&mut self.stored),
            std::mem::take(&mut self.pairs),
        )
    }

    /// The rows in use.
    fn rows(&self) -> &[Row<L>] {
        layout::rows(&self.blocks, self.len)
    }

    /// The rows in use, to be written.
    fn rows_mut(&mut self) -> &mut [Row<L>] {
        layout::rows_mut(&mut self.blocks, self.len)
    }

    /// Stores the words of weight 0 of `stored` (words of at most `bits` bits) at positions
    /// `part`, in place of what was stored.
    ///
    /// A query's cut bits are the same for its whole class, and no stored word has a doubling
    /// bit. So each group keeps one more row per pattern of the cut bits, which a class loads
    /// once per group, and where the kernel gathers bits fast ([`Tuning::gathers`]) and that
    /// makes fewer chunks, the chunks slice only the other bits, gathered per query: a query
    /// then loads fewer rows, and the query loop is bound by its loads (at `n = 20`, 5 chunks
    /// instead of 7). Otherwise the chunks slice every bit in place, and a query needs no
    /// gathering (at `n = 17` the other bits fill five chunks too).
    #[inline(always)]
    pub fn build(&mut self, tuning: Tuning, stored: &Classes, part: Range<usize>, bits: usize) {
        let (all, first) = stored.plain();
        let words = &all[part];
        self.stored += words.len() as u64;
        let buckets = first.len() - 1;
        let word = if bits == 64 { !0 } else { (1 << bits) - 1 };
        let chunks_of = |bits: u64| (bits.count_ones() as usize).div_ceil(SPAN).max(1);
        let other = word & !stored.cut & !stored.doubling;
        self.gathers = tuning.gathers && chunks_of(other) < chunks_of(word);
        self.sliced = if self.gathers { other } else { word };
        self.chunks = chunks_of(self.sliced);
        self.stride = self.chunks * ROWS + buckets;
        // The bit each chunk position stands for (`NONE` past the last), and each cut bit.
        let mut sliced = [NONE; MAX_CHUNKS * SPAN];
        for (at, bit) in sliced.iter_mut().zip(ones(self.sliced)) {
            *at = bit;
        }
        let mut cut = [NONE; MAX_CUT];
        for (at, bit) in cut.iter_mut().zip(ones(stored.cut)) {
            *at = bit;
        }
        // The sorted words are cut into groups, which may straddle buckets: a bucket is often
        // smaller than a group, and padding each to whole groups wasted a quarter of the
        // lanes at n = 18. A group serves the query classes that avoid the cut bits of one of
        // its words.
        self.classes.clear();
        self.parts.clear();
        self.reach.clear();
        self.reach.push(0);
        let (stride, chunks) = (self.stride, self.chunks);
        self.len = words.len().div_ceil(Self::GROUP) * stride;
        self.blocks
            .resize((self.len * L).div_ceil(8), Block::default());
        let halves = tuning.halves && L == WIDE;
        for (g, block) in words.chunks(Self::GROUP).enumerate() {
            let rows = &mut self.rows_mut()[g * stride..(g + 1) * stride];
            fill_group(rows, block, &sliced[..chunks * SPAN], &cut[..stored.k()]);
            // A class meets the group where its cut row (the words that avoid its cut bits) is
            // not empty, and only one half of it where the row is empty in the other half
            // (always so in a group of at most half as many words).
            for c in 0..buckets {
                let row = self.rows()[g * stride + chunks * ROWS + c];
                let holds = |lanes: &[u64]| lanes.iter().any(|&x| x != 0);
                let part = match (holds(&row[..L / 2]), holds(&row[L / 2..])) {
                    (false, false) => continue,
                    (true, false) if halves => FIRST_HALF,
                    (false, true) if halves => SECOND_HALF,
                    _ => WHOLE,
                };
                self.classes.push(c as u8);
                self.parts.push(part);
            }
            self.reach.push(self.classes.len() as u32);
        }
    }

    /// `Σ scales[weight(q)] · #{stored u : u & q == 0}` over the `queries`, which must be
    /// sorted with the same cut bits as the stored words; the queries whose weight scales by 0
    /// are not asked.
    ///
    /// Once `stop` is set it returns early, with a sum that must be thrown away.
    #[inline(always)]
    pub fn count<K: Kernel>(
        &mut self,
        k: K,
        queries: &Classes,
        scales: Scales,
        stop: &AtomicBool,
    ) -> u64 {
        macro_rules! run {
            ($($c:literal)*) => {
                match (self.chunks, self.gathers) {
                    $(
                        ($c, true) => k.compiled(Loops::<L, $c, true> { sieve: self, queries, scales, stop }),
                        ($c, false) => k.compiled(Loops::<L, $c, false> { sieve: self, queries, scales, stop }),
                    )*
                    _ => unreachable!("at most {MAX_CHUNKS} chunks"),
                }
            };
        }
        // Two arms per possible number of chunks: the list must reach `MAX_CHUNKS`.
        const _: () = assert!(MAX_CHUNKS == 11);
        run!(1 2 3 4 5 6 7 8 9 10 11)
    }

    /// The loops of [`Sieve::count`], with the number of chunks `C`, and whether a query's
    /// bits are gathered `G`, known to the compiler: the body of [`Loops`], inlined into the
    /// function of its own [`Kernel::compiled`] makes for each kernel, width and shape.
    #[inline(always)]
    fn loops<K: Kernel, const C: usize, const G: bool>(
        &mut self,
        k: K,
        queries: &Classes,
        scales: Scales,
        stop: &AtomicBool,
    ) -> u64 {
        let (bits, sliced) = (queries.k(), self.sliced);
        // The weights asked (a query class of another weight is not even looked at).
        let asked_weights = || (0..WEIGHTS).filter(|&weight| scales[weight] != 0);
        // Queries asked of whole groups, and of half groups.
        let (mut total, mut asked_whole, mut asked_half) = (0, 0, 0);
        for (g, group) in self.rows().chunks_exact(self.stride).enumerate() {
            // A group meets every query once: milliseconds even at N = 24, so a stopped
            // count ends promptly, and one load per group costs nothing.
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let met = self.reach[g] as usize..self.reach[g + 1] as usize;
            let (chunks, cuts) = group.split_at(C * ROWS);
            for (&cut, &part) in self.classes[met.clone()].iter().zip(&self.parts[met]) {
                // The group's words that avoid the class's cut bits.
                let avoiding = &cuts[cut as usize];
                for weight in asked_weights() {
                    let asked = queries.class(weight << bits | cut as usize);
                    let found = if part == WHOLE {
                        asked_whole += asked.len();
                        k.disjoint::<L, C, G>(chunks, avoiding, asked, sliced)
                    } else {
                        asked_half += asked.len();
                        let half = usize::from(part == SECOND_HALF);
                        k.disjoint_half::<L, C, G>(chunks, avoiding, half, asked, sliced)
                    };
                    total += found * scales[weight];
                }
            }
        }
        self.pairs += (asked_whole * Self::GROUP + asked_half * Self::GROUP / 2) as u64;
        total
    }
}

/// A sieve's query loops for one shape, as work for [`Kernel::compiled`].
struct Loops<'a, const L: usize, const C: usize, const G: bool> {
    sieve: &'a mut Sieve<L>,
    queries: &'a Classes,
    scales: Scales,
    stop: &'a AtomicBool,
}

impl<const L: usize, const C: usize, const G: bool> Compiled for Loops<'_, L, C, G> {
    #[inline(always)]
    fn run<K: Kernel>(self, k: K) -> u64 {
        self.sieve
            .loops::<K, C, G>(k, self.queries, self.scales, self.stop)
    }
}

/// The parts of a group a query class may meet ([`Sieve`]'s `parts`): all of it, or only its
/// first or second half of words.
const WHOLE: u8 = 0;
const FIRST_HALF: u8 = 1;
const SECOND_HALF: u8 = 2;

/// No bit: a chunk position past the bits sliced, whose row every word passes.
const NONE: u8 = 64;

/// The positions of the set bits of `x`, lowest first.
fn ones(mut x: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let bit = x.trailing_zeros() as u8;
        x &= x.wrapping_sub(1);
        (bit < 64).then_some(bit)
    })
}

/// Writes the rows of one group of up to `64 * L` words: for each chunk of `sliced` (the bit
/// at each chunk position) and each pattern of its bits, the words lacking all of them; then
/// for each pattern of the `cut` bits, the words lacking all of those.
#[inline(always)]
fn fill_group<const L: usize>(rows: &mut [Row<L>], block: &[u64], sliced: &[u8], cut: &[u8]) {
    // Per bit position, the words lacking it, lane by lane (64 words per lane).
    // Word `i` of lane `l` is `lacking[i][l]` until the lanes are transposed together.
    let mut lacking = [[0u64; L]; 64];
    let mut valid = [0u64; L];
    for (lane, words) in block.chunks(64).enumerate() {
        for (i, &w) in words.iter().enumerate() {
            lacking[i][lane] = !w;
        }
        valid[lane] = if words.len() == 64 {
            !0
        } else {
            (1 << words.len()) - 1
        };
    }
    transpose64(&mut lacking);
    // Pattern `s` of a table: the row of `s` without its lowest bit, ANDed with that bit's.
    // Padding words are cleared from every row, so they never count.
    let (chunk_rows, cut_rows) = rows.split_at_mut(sliced.len() / SPAN * ROWS);
    let tables = chunk_rows
        .chunks_exact_mut(ROWS)
        .zip(sliced.chunks_exact(SPAN))
        .chain([(cut_rows, cut)]);
    const _: () = assert!(SPAN <= 8 && MAX_CUT <= 8);
    for (table, bits) in tables {
        // The table's bits' rows, copied once (`NONE`: every word), so that a pattern's
        // lowest bit (below 8) picks its row without a bounds check.
        let mut picked = [valid; 8];
        for (row, &bit) in picked.iter_mut().zip(bits) {
            if let Some(lack) = lacking.get(usize::from(bit)) {
                *row = *lack;
            }
        }
        table[0] = Row(valid);
        for s in 1..table.len() {
            let mut row = table[s & (s - 1)];
            let bit = &picked[s.trailing_zeros() as usize % 8];
            for l in 0..L {
                row[l] &= bit[l];
            }
            table[s] = row;
        }
    }
}

/// Transposes `L` 64×64 bit matrices in place, lane by lane: bit `i` of `m[k][l]` goes to
/// bit `k` of `m[i][l]`.
///
/// Swaps ever smaller off-diagonal blocks (32×32, then 16×16, ...), each with a few word
/// operations: 6 rounds of 32 swaps instead of 4096 single-bit moves. The lanes go through
/// the same steps, so a group's 4 or 8 lanes are one vector register each step.
#[inline(always)]
fn transpose64<const L: usize>(m: &mut [[u64; L]; 64]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            // Rows k and k + width exchange their high and low `width`-bit blocks.
            let (low, high) = m.split_at_mut(k + width);
            for (a, b) in low[k].iter_mut().zip(&mut high[0]) {
                let t = ((*a >> width) ^ *b) & mask;
                *a ^= t << width;
                *b ^= t;
            }
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

#[cfg(test)]
mod tests {
    use super::super::kernel::{Portable, each_kernel};
    use super::*;
    use crate::engine::cpu::Isa;

    #[test]
    fn transpose_moves_every_bit() {
        let mut m = [[0u64; 3]; 64];
        let mut next = super::super::xorshift(0x9e37_79b9_7f4a_7c15);
        for w in m.iter_mut().flatten() {
            *w = next();
        }
        let original = m;
        transpose64(&mut m);
        for l in 0..3 {
            for (k, row) in original.iter().enumerate() {
                for (i, column) in m.iter().enumerate() {
                    assert_eq!(row[l] >> i & 1, column[l] >> k & 1, "bit {i} of row {k}");
                }
            }
        }
    }

    #[test]
    fn sorting_puts_every_word_in_its_class_with_every_kernel() {
        fn check<K: Kernel>(k: K, sorted: &mut Classes, words: &[u64], cut: u64, doubling: u64) {
            // Every sort with every kernel: the tuning picks the sort.
            for tuning in [Tuning::PORTABLE, Tuning::AVX2, Tuning::AVX512] {
                sorted.sort(k, tuning, words, cut, doubling);
                let k = cut.count_ones();
                let classes = WEIGHTS << k;
                assert_eq!(sorted.first[0], 0);
                assert_eq!(sorted.first[classes] as usize, words.len());
                for c in 0..classes {
                    for &w in sorted.class(c) {
                        let weight = (w & doubling).count_ones() as usize;
                        assert_eq!(weight << k | Portable.gather(w, cut) as usize, c, "{w:#x}");
                    }
                }
                let (mut given, mut got) = (words.to_vec(), sorted.words.clone());
                given.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, given, "the same words, each once, {tuning:?}");
            }
        }
        let mut next = super::super::xorshift(0x2545_f491_4f6c_dd1d);
        // One list of classes per kernel, sorted into again and again, as a join does: what an
        // earlier sort left must not show. Lists shorter and longer than a vector and than a
        // block of the deal, and 0 to `MAX_CUT` cut bits (with none, a class of many blocks).
        let mut reused: Vec<Classes> = Isa::ALL.iter().map(|_| Classes::default()).collect();
        for len in [0, 1, 7, 9, 100, 3000, 64, 5] {
            let words: Vec<u64> = (0..len).map(|_| next() & next()).collect();
            for k in 0..=MAX_CUT as u32 {
                let doubling = 1 << (next() % 64) | 1 << (next() % 64);
                let mut cut = 0u64;
                while cut.count_ones() < k {
                    cut |= 1 << (next() % 64) & !doubling;
                }
                each_kernel!(|kernel, isa| {
                    check(kernel, &mut reused[isa as usize], &words, cut, doubling);
                });
            }
        }
    }

    #[test]
    fn keeping_from_sorted_classes_equals_sorting_what_is_kept() {
        let mut step = super::super::xorshift(0x853c_49e6_748f_ea9b);
        let mut next = || {
            let x = step();
            x & (x >> 2)
        };
        // Words with bits above the mask (as odd n's top entries have), keys that keep none,
        // some or all of them, lists shorter and longer than a vector.
        let (mask, doubling) = ((1u64 << 40) - 1, 1 << 5 | 1 << 30);
        for len in [0, 1, 7, 9, 100, 3000] {
            let words: Vec<u64> = (0..len).map(|_| next()).collect();
            for (key, cut) in [
                (0, 0),
                (1 << 45 | 1 << 2, 0b1011 << 10),
                (!0, 1 << 7 | 1 << 33),
            ] {
                let mut sorted = Classes::default();
                sorted.sort(Portable, Tuning::PORTABLE, &words, cut, doubling);
                let mut kept = Classes::default();
                kept.keep(Portable, &sorted, key, mask);
                let mut fresh = Classes::default();
                let filtered: Vec<u64> = words
                    .iter()
                    .filter(|&&w| w & key == 0)
                    .map(|&w| w & mask)
                    .collect();
                fresh.sort(Portable, Tuning::PORTABLE, &filtered, cut, doubling);
                let classes = (WEIGHTS << cut.count_ones()) + 1;
                assert_eq!(kept.words, fresh.words, "len {len}, key {key:x}");
                assert_eq!(kept.first[..classes], fresh.first[..classes]);
                assert_eq!(kept.len(), filtered.len());
            }
        }
    }

    #[test]
    fn sieve_counts_like_a_double_loop() {
        // Every kernel the CPU can run, in both widths, with and without gathering and asking
        // half groups: the portable kernel slices every bit, the others only the bits the cut
        // rows leave, gathered per query.
        each_kernel!(|k, isa| {
            for tuning in [Tuning::PORTABLE, Tuning::AVX2, Tuning::AVX512] {
                let _ = isa;
                sieve_counts_like_a_double_loop_in::<_, NARROW>(k, tuning);
                sieve_counts_like_a_double_loop_in::<_, WIDE>(k, tuning);
            }
        });
    }

    fn sieve_counts_like_a_double_loop_in<K: Kernel, const L: usize>(k: K, tuning: Tuning) {
        let mut step = super::super::xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = |bits: u32| {
            let x = step();
            // Sparse words, like half-board words: about a quarter of the bits set.
            x & (x >> 1) & ((1u128 << bits) - 1) as u64
        };
        let cases = [
            (0, 34),
            (1, 34),
            (63, 34),
            (64, 30),
            (65, 34),
            (300, 46),
            (511, 40),
            (513, 40),
            (5000, 34),
            // Enough words for every cut bit (`MAX_CUT`), in groups of either width.
            (40000, 46),
        ];
        // Classes asked of one half of a group only (where the kernel does that).
        let mut halves = 0;
        for (len, bits) in cases {
            let words: Vec<u64> = (0..len).map(|_| next(bits)).collect();
            let queries: Vec<u64> = (0..300).map(|_| next(bits)).collect();
            let doubling = 1 << 3 | 1 << 20;
            let cut = cut_bits(&words, &queries, !doubling, len, L);
            let (mut stored, mut asked) = (Classes::default(), Classes::default());
            stored.sort(k, tuning, &words, cut, doubling);
            asked.sort(k, tuning, &queries, cut, doubling);
            let mut sieve = Sieve::<L>::default();
            sieve.build(tuning, &stored, 0..stored.stored_len(), bits as usize);
            // The stored words in two parts, each a sieve: the counts add up.
            let (mut front, mut back) = (Sieve::<L>::default(), Sieve::<L>::default());
            let split = stored.stored_len() / 3;
            front.build(tuning, &stored, 0..split, bits as usize);
            back.build(tuning, &stored, split..stored.stored_len(), bits as usize);
            halves += [&sieve, &front, &back]
                .iter()
                .map(|s| s.parts.iter().filter(|&&p| p != WHOLE).count())
                .sum::<usize>();
            // The join's scales (weight 0 doubled, or not asked) and others.
            for scales in [[1, 2, 4], [2, 2, 4], [0, 2, 4], [3, 0, 5]] {
                let slow: u64 = queries
                    .iter()
                    .map(|&q| {
                        let disjoint = words
                            .iter()
                            .filter(|&&w| w & doubling == 0 && w & q == 0)
                            .count() as u64;
                        disjoint * scales[(q & doubling).count_ones() as usize]
                    })
                    .sum();
                let never = AtomicBool::new(false);
                assert_eq!(
                    sieve.count(k, &asked, scales, &never),
                    slow,
                    "{len} words of {bits} bits, {L} lanes, scales {scales:?}"
                );
                assert_eq!(
                    front.count(k, &asked, scales, &never) + back.count(k, &asked, scales, &never),
                    slow,
                    "{len} words of {bits} bits, {L} lanes, scales {scales:?}, split at {split}"
                );
            }
        }
        assert_eq!(
            halves > 0,
            tuning.halves && L == WIDE,
            "{halves} classes asked of half a group"
        );
    }

    #[test]
    fn frequencies_count_each_bit_of_an_even_sample() {
        // Up to SAMPLE words are all counted; of more, every `len / SAMPLE`-th (rounded up).
        for len in [0, 1, 63, 65, SAMPLE, 1000] {
            let words: Vec<u64> = (0..len as u64)
                .map(|i| (i * 0x9e37_79b9) | (1 << 63))
                .collect();
            let step = words.len().div_ceil(SAMPLE).max(1);
            for (j, &count) in frequencies(&words).iter().enumerate() {
                let slow = words
                    .iter()
                    .step_by(step)
                    .filter(|&&w| w >> j & 1 == 1)
                    .count();
                assert_eq!(count as usize, slow, "bit {j} of {len} words");
            }
        }
    }
}
