//! The Join strategy's tasks on a GPU: the GPU makes each join's halves from the quarter lists
//! it holds (`make.cu`, [`super::make`]) and counts their pairs (`join.cu`).
//!
//! The tasks are the CPU join's numbered list ([`JoinTasks`]), so progress, checkpoints,
//! shards and `merge` work unchanged. The quarter lists are copied to the device once; then a
//! batch of main tasks is:
//!
//! 1. **Planned on the host** ([`Plan`]): a few numbers per join, where its halves' placements
//!    are in the quarter lists, and bounds for what it makes.
//! 2. **Made on the device**, a block per join: both halves glued, the words free of the long
//!    diagonals counted, the cut bits chosen, each side sorted into classes (by its *part*, how
//!    many of the board's two long diagonals a word holds, 0 to 2, then by `k` *cut* bits)
//!    and packed (the long diagonals' and the cut bits taken out, so that at N = 18 to 23 a
//!    word fits 32 bits), and the tiles laid out. As on the CPU
//!    ([`twice_sorted`](crate::engine::strategy::join)), a join is two terms: the top words of
//!    part 0 stored and every bottom word asked, then the bottom words of part 0 stored and the
//!    top words of parts 1 and 2 asked. A term's stored words are cut into tiles of up to
//!    [`TILE_WORDS`] words of one bucket (one cut pattern), asked only by the query classes
//!    whose cut pattern avoids the bucket's (the others clash on a cut bit: 3.5 times fewer
//!    pair tests at N = 20, `docs/gpu.md`).
//! 3. **Counted on the device**: each tile's bit-sliced table built in shared memory and asked
//!    its queries, a weighted count per tile (64 bits), a sum per join; the host weighs each
//!    join by its symmetry family, in 128 bits.
//!
//! Batches are sized from the measured rate to take about [`BATCH_SECONDS`], two in flight, so
//! a stop request is honoured within a second. The CPU threads beside the GPU count main tasks
//! from the back of the list meanwhile, and the tasks after the main ones (the solutions a half
//! or quarter turn leaves unchanged, for the unique count: a few milliseconds of search).
//!
//! [`JoinBackend`] is what makes and counts a batch: the GPU ([`super::cuda_join::CudaJoin`])
//! or the same kernels compiled for the CPU ([`HostJoin`]), which the tests use.
//!
//! [`JoinBatch`] and [`Lister`] are the host's own way to the same words and tiles (the CPU
//! join's listing, sorted and packed here): the tests' oracle for what the device makes, and
//! how `examples/gpu_join_work` counts the kernel's work.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::cuda_join::CudaJoin;
use super::make::{self, BOARD_WORDS, Plan, QuarterCopy, make_on_host};
use super::{BATCH_SECONDS, Busy, Collected, Report};
use crate::engine::device::GpuError;
use crate::engine::device::{Outcome, RunError};
use crate::engine::strategy::join::{JoinHalves, JoinTasks, QuarterTables};
use crate::engine::{Tally, TaskSet};

/// Bit positions per chunk of the kernel's table (`NQJ_SPAN`).
pub const SPAN: usize = 5;

/// Stored words per group: one 32-bit row per pattern (`32` lanes of a warp).
pub const GROUP_WORDS: usize = 32;

/// Groups per tile (`NQJ_GROUPS`).
pub const GROUPS: usize = 32;

/// The most stored words in a tile.
pub const TILE_WORDS: usize = GROUP_WORDS * GROUPS;

/// Words per tile record (`NQJ_TILE_WORDS`): first stored word, stored words, where the query
/// side's class table starts, and the tile's shape ([`shape`]).
pub const TILE_RECORD: usize = 4;

/// Parts of a side: words holding 0, 1 or 2 of the long diagonals.
pub const PARTS: usize = 3;

/// The most cut bits (256 buckets): the kernel's tile shape keeps the bucket in 8 bits.
pub const MAX_CUT: usize = 8;

/// Cut bits a board's layout plans for when it sizes the chunks: more leave fewer bits to
/// slice, but smaller buckets (more tiles, more padding).
const PLANNED_CUT: usize = 6;

/// Stored words per bucket the cut bits aim at: 16 groups, so that a tile's table (built once
/// per tile) serves enough queries and a bucket's last, partly filled group wastes little.
const BUCKET_WORDS: usize = 512;

/// Words sampled per side to find the busiest bits.
const SAMPLE: usize = 32;

/// The chunks the host-compiled kernels have (`NQJ_CHUNKS` in the build script): enough for
/// 32-bit words (narrow) and for every board the join counts (wide).
pub const HOST_CHUNKS: (usize, usize) = (7, 10);

/// A tile's shape word: its `bucket` of `k` cut bits, and the query parts it asks, `from`
/// to `to`.
///
/// ```
/// use nqueens::engine::device::gpu::join::shape;
/// assert_eq!(shape(5, 3, 0, 2), 5 | 3 << 8 | 2 << 14);
/// ```
#[must_use]
pub const fn shape(bucket: u32, k: u32, from: u32, to: u32) -> u32 {
    bucket | k << 8 | from << 12 | to << 14
}

/// A tile's shape word read back: `(bucket, k, from, to)`, as [`shape`] made it (bits above
/// 16 ignored).
///
/// ```
/// use nqueens::engine::device::gpu::join::{shape, unshape};
/// assert_eq!(unshape(shape(5, 3, 0, 2)), (5, 3, 0, 2));
/// ```
#[must_use]
pub const fn unshape(shape: u32) -> (u32, u32, u32, u32) {
    (
        shape & 0xff,
        shape >> 8 & 0xf,
        shape >> 12 & 3,
        shape >> 14 & 3,
    )
}

/// How a board's words are packed, and the kernel compiled, for one count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The bits of a listed word.
    word: u64,
    /// The two long diagonals' bits.
    long: u64,
    /// Chunks of [`SPAN`] bits the kernel slices (`NQJ_CHUNKS`).
    pub chunks: usize,
    /// Whether packed words have bits above 32 (`NQJ_WIDE`).
    pub wide: bool,
    /// The fewest cut bits, so that what is left of a word fits the chunks (and 32 bits if
    /// narrow).
    pub min_cut: usize,
}

impl Layout {
    /// The layout of the board `tasks` counts.
    ///
    /// ```
    /// use nqueens::engine::{device::gpu::join::Layout, strategy::join::JoinTasks};
    /// let n20 = Layout::of(&JoinTasks::new(20).unwrap()); // 38 bits, 36 less the long ones
    /// assert_eq!((n20.chunks, n20.wide, n20.min_cut), (6, false, 6));
    /// let n23 = Layout::of(&JoinTasks::new(23).unwrap()); // 42 bits, 40 packed
    /// assert_eq!((n23.chunks, n23.wide, n23.min_cut), (7, false, 8));
    /// ```
    ///
    /// `NQUEENS_GPU_PLANNED_CUT` (0 to 8; other values are ignored) sizes the chunks for that
    /// many cut bits instead ([`Layout::planned`]): a switch for timing on a GPU.
    #[must_use]
    pub fn of(tasks: &JoinTasks) -> Layout {
        Layout::of_planned(tasks, forced_planned_cut())
    }

    /// The layout of the board `tasks` counts, planned for `planned` cut bits where given
    /// ([`Layout::planned`]).
    #[must_use]
    pub fn of_planned(tasks: &JoinTasks, planned: Option<usize>) -> Layout {
        Layout::planned(tasks.word_bits(), tasks.long_diagonal_bits(), planned)
    }

    /// The bits a listed word may have.
    #[must_use]
    pub fn word_mask(&self) -> u64 {
        self.word
    }

    /// The layout for words of `bits` bits of which `long` are the long diagonals' (at most
    /// two bits, and every word's other bits at most 56).
    ///
    /// # Panics
    /// If `long` has more than two bits or lies outside the word.
    #[must_use]
    pub fn for_words(bits: usize, long: u64) -> Layout {
        Layout::planned(bits, long, None)
    }

    /// [`Layout::for_words`], with the chunks sized for `planned` cut bits where given (at most
    /// [`MAX_CUT`]), and the words kept wide where what is left of them passes 32 bits. Fewer
    /// cut bits planned make more chunks (more loads per group of stored words), and leave
    /// the making free to choose fewer cut bits, so larger buckets and tiles (more groups per
    /// query): `None` plans for 6, and keeps words narrow up to 32 bits past the most cut.
    ///
    /// ```
    /// use nqueens::engine::device::gpu::join::Layout;
    /// // N = 23: 42 bits, two of them the long diagonals.
    /// let narrow = Layout::planned(42, 1 << 20 | 1 << 21, None);
    /// assert_eq!((narrow.chunks, narrow.wide, narrow.min_cut), (7, false, 8));
    /// let wide = Layout::planned(42, 1 << 20 | 1 << 21, Some(3));
    /// assert_eq!((wide.chunks, wide.wide, wide.min_cut), (8, true, 0));
    /// ```
    ///
    /// # Panics
    /// As [`Layout::for_words`], and if `planned` is over [`MAX_CUT`].
    #[must_use]
    pub fn planned(bits: usize, long: u64, planned: Option<usize>) -> Layout {
        let word = if bits >= 64 { !0 } else { (1u64 << bits) - 1 };
        assert!(long.count_ones() <= 2 && long & !word == 0);
        let packed = bits - long.count_ones() as usize;
        assert!(packed <= 56, "words of {packed} bits");
        assert!(planned.is_none_or(|cut| cut <= MAX_CUT));
        let cut = planned.unwrap_or(PLANNED_CUT);
        let wide = packed > 32 + MAX_CUT || planned.is_some() && packed.saturating_sub(cut) > 32;
        let chunks = packed.saturating_sub(cut).div_ceil(SPAN).max(1);
        let room = (chunks * SPAN).min(if wide { 64 } else { 32 });
        Layout {
            word,
            long,
            chunks,
            wide,
            min_cut: packed.saturating_sub(room),
        }
    }
}

/// The cut bits `NQUEENS_GPU_PLANNED_CUT` asks the layout to plan for, if it holds a number
/// from 0 to [`MAX_CUT`] (other values are ignored): for measuring how the tiles' size bears on
/// the count kernel (`scripts/gpu-check.sh --layouts`).
///
/// ```standalone_crate
/// use nqueens::engine::device::gpu::join::forced_planned_cut;
/// // SAFETY: this example is a program of its own (`standalone_crate`), with no other thread
/// // reading the environment.
/// unsafe { std::env::set_var("NQUEENS_GPU_PLANNED_CUT", "3") };
/// assert_eq!(forced_planned_cut(), Some(3));
/// for ignored in ["9", "-1", "few", ""] {
///     unsafe { std::env::set_var("NQUEENS_GPU_PLANNED_CUT", ignored) };
///     assert_eq!(forced_planned_cut(), None);
/// }
/// ```
#[must_use]
pub fn forced_planned_cut() -> Option<usize> {
    std::env::var("NQUEENS_GPU_PLANNED_CUT")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&cut| cut <= MAX_CUT)
}

/// The bits of `mask` from the lowest, as positions.
fn positions(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let bit = (mask != 0).then(|| mask.trailing_zeros());
        mask &= mask.wrapping_sub(1);
        bit
    })
}

/// The `k` busiest of the `candidates`, set in many words of both `a` and `b` (counted on
/// evenly spread samples; ties to the lowest bit).
fn busiest(a: &[u64], b: &[u64], candidates: u64, k: usize) -> u64 {
    let count = |words: &[u64]| {
        let mut f = [0u64; 64];
        for &w in words.iter().step_by(words.len().div_ceil(SAMPLE).max(1)) {
            for b in positions(w & candidates) {
                f[b as usize] += 1;
            }
        }
        f
    };
    let (fa, fb) = (count(a), count(b));
    let mut cut = 0u64;
    for _ in 0..k {
        let best = positions(candidates & !cut)
            .max_by_key(|&j| (fa[j as usize] * fb[j as usize], std::cmp::Reverse(j)))
            .expect("k is at most the number of candidates");
        cut |= 1 << best;
    }
    cut
}

/// Gathering the bits of a mask into the low bits (BMI2's `pext`).
trait Extract: Copy {
    fn pext(self, w: u64, mask: u64) -> u64;
}

/// `pext` in software, a step per bit of the mask.
#[derive(Clone, Copy)]
struct Soft;

impl Extract for Soft {
    #[inline(always)]
    fn pext(self, w: u64, mask: u64) -> u64 {
        positions(mask)
            .enumerate()
            .fold(0, |out, (j, b)| out | (w >> b & 1) << j)
    }
}

/// `pext` in hardware, from a proof that the CPU has BMI2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Bmi2 {
    _proof: crate::engine::cpu::Avx2,
}

#[cfg(target_arch = "x86_64")]
impl Extract for Bmi2 {
    #[inline(always)]
    fn pext(self, w: u64, mask: u64) -> u64 {
        // SAFETY: a `Bmi2` is only made from a proof that the CPU has BMI2.
        unsafe { std::arch::x86_64::_pext_u64(w, mask) }
    }
}

/// One side of a join to sort into classes and pack.
struct Sorting<'a> {
    side: &'a [u64],
    long: u64,
    cut: u64,
    k: usize,
    /// The bits a packed word keeps.
    keep: u64,
}

impl Sorting<'_> {
    /// Counts the words of each class into `sizes` (`3 << k` of them), then writes each word
    /// packed to its place: class by class, in the order of the side. `low` (and `high`, for
    /// wide words) are as long as the side.
    #[inline(always)]
    fn run<E: Extract>(&self, e: E, sizes: &mut [u32], low: &mut [u32], high: Option<&mut [u32]>) {
        let class_of = |w: u64| {
            ((w & self.long).count_ones() as usize) << self.k | e.pext(w, self.cut) as usize
        };
        let classes: Vec<u16> = self.side.iter().map(|&w| class_of(w) as u16).collect();
        // Four counts per class, taken in turn: consecutive words are often of one class,
        // and a single count would make each increment wait for the one before.
        let mut counts = vec![[0u32; 4]; sizes.len()];
        for (i, &c) in classes.iter().enumerate() {
            counts[c as usize][i % 4] += 1;
        }
        for (size, count) in sizes.iter_mut().zip(&counts) {
            *size = count.iter().sum();
        }
        let mut next = Vec::with_capacity(sizes.len());
        let mut at = 0u32;
        for &size in sizes.iter() {
            next.push(at);
            at += size;
        }
        match high {
            None => {
                for (&w, &c) in self.side.iter().zip(&classes) {
                    let i = next[c as usize];
                    next[c as usize] += 1;
                    low[i as usize] = e.pext(w, self.keep) as u32;
                }
            }
            Some(high) => {
                for (&w, &c) in self.side.iter().zip(&classes) {
                    let i = next[c as usize] as usize;
                    next[c as usize] += 1;
                    let packed = e.pext(w, self.keep);
                    (low[i], high[i]) = (packed as u32, (packed >> 32) as u32);
                }
            }
        }
    }
}

/// [`Sorting::run`] with BMI2's `pext`.
///
/// # Safety
/// None beyond `cpu`: it proves the CPU has the features the function is compiled for.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
unsafe fn sort_bmi2(
    cpu: crate::engine::cpu::Avx2,
    sorting: &Sorting,
    sizes: &mut [u32],
    low: &mut [u32],
    high: Option<&mut [u32]>,
) {
    sorting.run(Bmi2 { _proof: cpu }, sizes, low, high);
}

/// A batch of main tasks: their joins' packed words, class tables and tiles, and which task
/// each tile's count goes to, with what weight.
#[derive(Clone, Debug, Default)]
pub struct JoinBatch {
    /// The task indices.
    pub tasks: Vec<usize>,
    /// Whether the words have a high half (`high`).
    pub wide: bool,
    /// The packed words of every join: their low 32 bits.
    pub low: Vec<u32>,
    /// Their high 32 bits, if `wide` (else empty).
    pub high: Vec<u32>,
    /// Each side's class table: where each of its `3 << k` classes starts in the words, part
    /// by part, and where the last ends.
    pub starts: Vec<u32>,
    /// The tiles, [`TILE_RECORD`] words each.
    pub tiles: Vec<u32>,
    /// For each tile: the position of its task in `tasks` and its join's family weight.
    pub owner: Vec<(u32, u64)>,
    /// Pair tests the tiles make: stored words (whole groups) times the queries asked, summed.
    pub pairs: u64,
    /// Queries the tiles ask, summed: each costs the count kernel a load and its rows'
    /// offsets, however few groups its tile has.
    pub queries: u64,
}

/// One side of a join sorted into classes: where its class table starts and the classes'
/// sizes, summed over the subsets of each cut pattern, per part.
struct Side {
    table: u32,
    /// `reach[part][mask]`: the words of the part whose cut pattern lies within `mask`.
    reach: [Vec<u64>; PARTS],
}

impl Side {
    fn reach(&self, parts: std::ops::RangeInclusive<usize>, mask: usize) -> u64 {
        parts.map(|p| self.reach[p][mask]).sum()
    }
}

impl JoinBatch {
    /// Appends one join, `weight` times the pairs of `top` and `bottom` (words of `layout`)
    /// as the CPU join's `twice_sorted` counts them: both sides sorted and packed, then its two
    /// terms' tiles, owned by the task at position `task` of the batch.
    fn add(&mut self, layout: &Layout, task: u32, weight: u64, top: &[u64], bottom: &[u64]) {
        let long = layout.long;
        let free = |side: &[u64]| side.iter().filter(|&&w| w & long == 0).count();
        let candidates = layout.word & !long;
        let k = (free(top).max(free(bottom)) / BUCKET_WORDS).max(1).ilog2() as usize;
        let k = k
            .clamp(layout.min_cut, MAX_CUT)
            .min(candidates.count_ones() as usize);
        let cut = busiest(top, bottom, candidates, k);
        let top = self.push_side(layout, top, cut, k);
        let bottom = self.push_side(layout, bottom, cut, k);
        // The top words of part 0 against every bottom word; then the bottom words of part 0
        // against the top words of parts 1 and 2 (`twice_sorted`'s two ways).
        self.term(&top, &bottom, 0..=2, k, task, weight);
        self.term(&bottom, &top, 1..=2, k, task, weight);
    }

    /// Appends `side`'s words sorted into classes (part, then cut pattern) and packed, and its
    /// class table.
    fn push_side(&mut self, layout: &Layout, side: &[u64], cut: u64, k: usize) -> Side {
        let keep = layout.word & !layout.long & !cut;
        let (table, first) = (self.starts.len() as u32, self.low.len());
        self.low.resize(first + side.len(), 0);
        if layout.wide {
            self.high.resize(first + side.len(), 0);
        }
        let high = layout.wide.then(|| &mut self.high[first..]);
        let sorting = Sorting {
            side,
            long: layout.long,
            cut,
            k,
            keep,
        };
        let mut sizes = vec![0u32; PARTS << k];
        let low = &mut self.low[first..];
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = crate::engine::cpu::Avx2::detect() {
            // SAFETY: `cpu` proves the CPU has BMI2 and `popcnt`.
            unsafe { sort_bmi2(cpu, &sorting, &mut sizes, low, high) };
        } else {
            sorting.run(Soft, &mut sizes, low, high);
        }
        #[cfg(not(target_arch = "x86_64"))]
        sorting.run(Soft, &mut sizes, low, high);
        let mut at = first as u32;
        for &size in &sizes {
            self.starts.push(at);
            at += size;
        }
        self.starts.push(at);
        // Per part, the words whose pattern lies within each mask (sums over subsets).
        let reach = std::array::from_fn(|part| {
            let mut r: Vec<u64> = sizes[part << k..(part + 1) << k]
                .iter()
                .map(|&s| u64::from(s))
                .collect();
            for bit in 0..k {
                for mask in 0..1usize << k {
                    if mask >> bit & 1 == 1 {
                        r[mask] += r[mask ^ 1 << bit];
                    }
                }
            }
            r
        });
        Side { table, reach }
    }

    /// Appends the tiles of one term: the part-0 words of `stored`, bucket by bucket, asked
    /// by the classes of `queries`' `parts` that avoid each bucket's cut pattern.
    fn term(
        &mut self,
        stored: &Side,
        queries: &Side,
        parts: std::ops::RangeInclusive<usize>,
        k: usize,
        task: u32,
        weight: u64,
    ) {
        let all = (1usize << k) - 1;
        for bucket in 0..=all {
            let begin = self.starts[stored.table as usize + bucket];
            let end = self.starts[stored.table as usize + bucket + 1];
            let asked = queries.reach(parts.clone(), all & !bucket);
            if begin == end || asked == 0 {
                continue;
            }
            let mut at = begin;
            while at < end {
                let len = (end - at).min(TILE_WORDS as u32);
                self.tiles.extend_from_slice(&[
                    at,
                    len,
                    queries.table,
                    shape(
                        bucket as u32,
                        k as u32,
                        *parts.start() as u32,
                        *parts.end() as u32,
                    ),
                ]);
                self.owner.push((task, weight));
                self.pairs += u64::from(len.next_multiple_of(GROUP_WORDS as u32)) * asked;
                self.queries += asked;
                at += len;
            }
        }
    }

    /// The batch of main tasks `todo` (the first tasks of the list), listed on the current
    /// rayon pool; `None` if `stop` was set first.
    pub fn of(tasks: &JoinTasks, todo: &[usize], stop: &AtomicBool) -> Option<JoinBatch> {
        Lister::new(tasks).list(todo, stop, JoinBatch::default())
    }

    /// The batches `parts` one after the other, copied once into `into`'s vectors (emptied
    /// first: a batch done with, so that their memory is used again rather than faulted in
    /// afresh).
    fn concat(layout: Layout, parts: &[JoinBatch], into: JoinBatch) -> JoinBatch {
        let mut batch = into;
        batch.clear();
        batch.wide = layout.wide;
        let size = |f: fn(&JoinBatch) -> usize| parts.iter().map(f).sum::<usize>();
        batch.tasks.reserve(size(|p| p.tasks.len()));
        batch.low.reserve(size(|p| p.low.len()));
        batch.high.reserve(size(|p| p.high.len()));
        batch.starts.reserve(size(|p| p.starts.len()));
        batch.tiles.reserve(size(|p| p.tiles.len()));
        batch.owner.reserve(size(|p| p.owner.len()));
        for part in parts {
            batch.append(part);
        }
        batch
    }

    /// Empties the batch, keeping its vectors' memory.
    fn clear(&mut self) {
        self.tasks.clear();
        self.low.clear();
        self.high.clear();
        self.starts.clear();
        self.tiles.clear();
        self.owner.clear();
        self.pairs = 0;
        self.queries = 0;
    }

    /// A batch of one join of words of `layout`: `weight` times the pairs of `top` and `bottom`
    /// counted as the CPU join's `twice_sorted` counts them (the tests' way in). Its one task
    /// is numbered 0.
    #[must_use]
    pub fn of_join(layout: &Layout, weight: u64, top: &[u64], bottom: &[u64]) -> JoinBatch {
        let mut batch = JoinBatch {
            tasks: vec![0],
            wide: layout.wide,
            ..JoinBatch::default()
        };
        batch.add(layout, 0, weight, top, bottom);
        batch
    }

    /// Appends the tasks of `more` (of the same layout) after this batch's.
    pub fn append(&mut self, more: &JoinBatch) {
        let words = self.low.len() as u32;
        let (starts, first) = (self.starts.len() as u32, self.tasks.len() as u32);
        self.tasks.extend_from_slice(&more.tasks);
        self.low.extend_from_slice(&more.low);
        self.high.extend_from_slice(&more.high);
        self.starts.extend(more.starts.iter().map(|&s| s + words));
        self.tiles.extend(
            more.tiles
                .chunks(TILE_RECORD)
                .flat_map(|t| [t[0] + words, t[1], t[2] + starts, t[3]]),
        );
        self.owner
            .extend(more.owner.iter().map(|&(task, w)| (task + first, w)));
        self.pairs += more.pairs;
        self.queries += more.queries;
    }

    /// Bytes of the words, class tables and tiles that go to the device.
    pub fn bytes(&self) -> usize {
        4 * (self.low.len() + self.high.len() + self.starts.len() + self.tiles.len())
    }

    /// The number of tiles.
    pub fn tile_count(&self) -> usize {
        self.tiles.len() / TILE_RECORD
    }

    /// Each task's count, from its tiles' sums (one per tile, as the kernel gives them).
    pub fn found(&self, sums: &[u64]) -> impl Iterator<Item = (usize, u128)> + '_ {
        assert_eq!(sums.len(), self.tile_count());
        let mut per_task = vec![0u128; self.tasks.len()];
        for (&(task, weight), &sum) in self.owner.iter().zip(sums) {
            per_task[task as usize] += u128::from(weight) * u128::from(sum);
        }
        self.tasks.iter().copied().zip(per_task)
    }

    /// `Ok` if what the kernel reads stays within the batch: every tile stores at most
    /// [`TILE_WORDS`] words within the words (none: an empty slot, all zeros), its shape is
    /// one the kernel knows, and its class
    /// table lies within `starts` and runs in order within the words. Made so by
    /// [`JoinBatch::of`]; checked again before a launch.
    ///
    /// # Errors
    /// [`GpuError::Driver`] naming the first tile that is not so.
    pub fn check(&self) -> Result<(), GpuError> {
        let len = self.low.len();
        let bad = |t: &[u32]| GpuError::Driver(format!("a tile {t:?} outside the batch"));
        if self.wide && self.high.len() != len || !self.wide && !self.high.is_empty() {
            return Err(GpuError::Driver(
                "the words' high halves do not match".into(),
            ));
        }
        if self.owner.len() != self.tile_count() {
            return Err(GpuError::Driver("tiles without a task".into()));
        }
        let mut checked = None;
        for t in self.tiles.chunks(TILE_RECORD) {
            let (s, sl, table, shape) = (t[0] as usize, t[1] as usize, t[2] as usize, t[3]);
            if sl == 0 {
                // An empty slot of a join made on the device: the kernel reads nothing.
                if t.iter().any(|&x| x != 0) {
                    return Err(bad(t));
                }
                continue;
            }
            let (bucket, k, from, to) = unshape(shape);
            let entries = (PARTS << k) + 1;
            let fits = sl <= TILE_WORDS
                && s + sl <= len
                && k as usize <= MAX_CUT
                && bucket < 1 << k
                && shape >> 16 == 0
                && from <= to
                && to < PARTS as u32
                && table + entries <= self.starts.len();
            if !fits {
                return Err(bad(t));
            }
            if checked != Some(table) {
                let classes = &self.starts[table..table + entries];
                let ordered = classes.windows(2).all(|w| w[0] <= w[1]);
                if !ordered || classes[entries - 1] as usize > len {
                    return Err(bad(t));
                }
                checked = Some(table);
            }
        }
        Ok(())
    }
}

/// Lists batches of a task list's main tasks on the current rayon pool. Each thread lists its
/// tasks into a part of its own, and the parts are copied once into the batch; the parts'
/// memory is kept for the next batch, as is the memory of each batch handed back to
/// [`Lister::list`], so that listing does not fault fresh pages in at every batch.
pub struct Lister<'a> {
    tasks: &'a JoinTasks,
    layout: Layout,
    parts: Mutex<Vec<JoinBatch>>,
}

impl<'a> Lister<'a> {
    /// A lister for the main tasks of `tasks`.
    #[must_use]
    pub fn new(tasks: &'a JoinTasks) -> Lister<'a> {
        Lister {
            tasks,
            layout: Layout::of(tasks),
            parts: Mutex::new(Vec::new()),
        }
    }

    /// The batch of main tasks `todo`, in the memory of `into` (a batch done with, or a new
    /// one); `None` if `stop` was set first.
    pub fn list(&self, todo: &[usize], stop: &AtomicBool, into: JoinBatch) -> Option<JoinBatch> {
        let mut parts = self.parts(todo, stop)?;
        let batch = JoinBatch::concat(self.layout, &parts, into);
        self.give_back(&mut parts);
        Some(batch)
    }

    /// The tasks of `todo` listed into parts, a part per piece of the list a thread takes.
    fn parts(&self, todo: &[usize], stop: &AtomicBool) -> Option<Vec<JoinBatch>> {
        let layout = &self.layout;
        let parts: Vec<Option<JoinBatch>> = todo
            .par_iter()
            .fold(
                || Some(self.take()),
                |part, &index| {
                    let mut part = part?;
                    part.tasks.push(index);
                    let task = (part.tasks.len() - 1) as u32;
                    self.tasks
                        .for_each_join(index, stop, &mut |join: JoinHalves| {
                            part.add(layout, task, join.weight, join.top, join.bottom);
                        })
                        .then_some(part)
                },
            )
            .collect();
        let stopped = parts.iter().any(Option::is_none);
        let mut parts: Vec<JoinBatch> = parts.into_iter().flatten().collect();
        if stopped {
            self.give_back(&mut parts);
            return None;
        }
        Some(parts)
    }

    /// An empty part, with the memory of one listed before if there is one.
    fn take(&self) -> JoinBatch {
        let mut part = self
            .parts
            .lock()
            .expect("the parts' lock is not poisoned")
            .pop()
            .unwrap_or_default();
        part.clear();
        part.wide = self.layout.wide;
        part
    }

    fn give_back(&self, parts: &mut Vec<JoinBatch>) {
        self.parts
            .lock()
            .expect("the parts' lock is not poisoned")
            .append(parts);
    }
}

/// What makes and counts a batch of joins: the GPU, or its kernels compiled for the CPU.
///
/// Two slots, so that two batches can be in flight: [`submit`](Self::submit) starts one in a
/// free slot and [`collect`](Self::collect) waits for it.
pub trait JoinBackend {
    /// Takes the board's quarter lists ([`QuarterCopy::of`]'s `tables`) and what the kernels
    /// need of the board ([`make::board`]), once, before the first batch, and says at how many
    /// word places a batch stops taking tasks (as many as its memory holds:
    /// [`make::choose_batch_bits`]).
    ///
    /// # Errors
    /// [`GpuError`] if the device fails or has too little memory for them.
    fn load(&mut self, tables: QuarterTables, board: [u64; BOARD_WORDS]) -> Result<u64, GpuError>;
    /// Starts making and counting the joins of `plan` in `slot` (0 or 1), which is free.
    ///
    /// # Errors
    /// [`GpuError`] if the device fails.
    fn submit(&mut self, slot: usize, plan: &Plan) -> Result<(), GpuError>;
    /// Waits for the batch in `slot` and returns each join's sum.
    ///
    /// # Errors
    /// [`GpuError`] if the device fails, or a join made more than its plan allowed.
    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError>;
}

/// Declares host copies of the count kernel (`join.cu`, named by `NQJ_HOST_NAME`).
macro_rules! host_counts {
    ($($name:ident),+) => {
        unsafe extern "C" {
            $(fn $name(
                low: *const u32,
                high: *const u32,
                starts: *const u32,
                tiles: *const u32,
                n_tiles: u32,
                sums: *mut u64,
            );)+
        }
    };
}

host_counts!(
    nq_join_host_narrow,
    nq_join_host_wide,
    nq_join_host_narrow_listed,
    nq_join_host_wide_listed
);

/// A host copy of the count kernel: its entry point (as `nq_join_host_narrow`).
type HostCount =
    unsafe extern "C" fn(*const u32, *const u32, *const u32, *const u32, u32, *mut u64);

/// Each tile's sum, counted by the kernel compiled for the CPU (the narrow or the wide copy,
/// with [`HOST_CHUNKS`] chunks), its blocks' threads played one after the other: for each
/// query class the tile meets, `Σ scale · #{s : s & q == 0}` over the tile's stored words `s`
/// and the class's words `q`, where `scale` is 2 in part 2, else 1.
///
/// ```
/// use nqueens::engine::device::gpu::join::{count_batch, JoinBatch, Layout};
/// // Words of 6 bits whose bit 5 is a long diagonal: 0b100000 is a query holding it.
/// let layout = Layout::for_words(6, 1 << 5);
/// let batch = JoinBatch::of_join(&layout, 1, &[0b01, 0b10], &[0b01, 0b100100]);
/// let sums = count_batch(&batch).unwrap();
/// // 0b10 meets 0b01 and 0b100100 (once each), 0b01 meets 0b100100.
/// assert_eq!(sums.iter().sum::<u64>(), 3);
/// ```
///
/// # Errors
/// [`GpuError::Driver`] for a tile outside the batch ([`JoinBatch::check`]), or words of
/// more bits than the host copy slices.
pub fn count_batch(batch: &JoinBatch) -> Result<Vec<u64>, GpuError> {
    count_with(batch, [nq_join_host_narrow, nq_join_host_wide])
}

/// [`count_batch`] with the copies compiled with the switch `NQJ_CLASS_LIST=1` (each tile's
/// query classes listed once, each warp given an equal run of its queries), which a GPU may
/// be given (`NQUEENS_GPU_JOIN_DEFINES`): the tests check that it counts the same.
///
/// # Errors
/// As [`count_batch`].
pub fn count_batch_listed(batch: &JoinBatch) -> Result<Vec<u64>, GpuError> {
    count_with(
        batch,
        [nq_join_host_narrow_listed, nq_join_host_wide_listed],
    )
}

/// [`count_batch`] with the host copies `[narrow, wide]`.
fn count_with(batch: &JoinBatch, [narrow, wide]: [HostCount; 2]) -> Result<Vec<u64>, GpuError> {
    batch.check()?;
    let bits = batch
        .high
        .iter()
        .map(|&h| 64 - (u64::from(h) << 32).leading_zeros() as usize)
        .max()
        .unwrap_or(32);
    let capacity = SPAN * HOST_CHUNKS.1;
    if bits > capacity {
        return Err(GpuError::Driver(format!(
            "words of {bits} bits; the host kernel slices {capacity}"
        )));
    }
    let count = if batch.wide { wide } else { narrow };
    // The narrow copy never reads `high`: it is given the low halves.
    let high = if batch.wide { &batch.high } else { &batch.low };
    let mut sums = vec![0u64; batch.tile_count()];
    const CHUNK: usize = 16;
    sums.par_chunks_mut(CHUNK)
        .zip(batch.tiles.par_chunks(CHUNK * TILE_RECORD))
        .for_each(|(out, tiles)| {
            // SAFETY: every tile stores 1 to TILE_WORDS words within the words, and its class
            // table lies within `starts` and runs in order within the words (checked above), so
            // the kernel reads only the batch, and its table of GROUPS groups holds the tile;
            // `high` is as long as `low`; `out` has one sum per tile of `tiles`; the words have
            // at most the bits the copy slices (32 for the narrow one, checked above for the
            // wide one).
            unsafe {
                count(
                    batch.low.as_ptr(),
                    high.as_ptr(),
                    batch.starts.as_ptr(),
                    tiles.as_ptr(),
                    out.len() as u32,
                    out.as_mut_ptr(),
                )
            }
        });
    Ok(sums)
}

/// The join's kernels on the CPU as a [`JoinBackend`]: `submit` keeps the plan, `collect`
/// makes it ([`make_on_host`], a join at a time on the current rayon pool) and counts it
/// ([`count_batch`], which checks the tiles made first).
#[derive(Debug, Default)]
pub struct HostJoin {
    quarters: QuarterCopy,
    board: [u64; BOARD_WORDS],
    slots: [Plan; 2],
    origin: Option<Instant>,
}

impl JoinBackend for HostJoin {
    fn load(&mut self, tables: QuarterTables, board: [u64; BOARD_WORDS]) -> Result<u64, GpuError> {
        self.quarters = QuarterCopy::of(tables);
        self.board = board;
        // The host's batches are the tests': the fewest places, unless asked.
        Ok(1 << make::forced_batch_bits().unwrap_or(make::MIN_BATCH_BITS))
    }

    fn submit(&mut self, slot: usize, plan: &Plan) -> Result<(), GpuError> {
        self.origin.get_or_insert_with(Instant::now);
        self.slots[slot] = plan.clone();
        Ok(())
    }

    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        let origin = self
            .origin
            .expect("a batch is submitted before it is collected");
        let started = origin.elapsed().as_secs_f64();
        let plan = std::mem::take(&mut self.slots[slot]);
        let counts = make_and_count_on_host(&self.quarters, &self.board, &plan)?;
        let span = (started, origin.elapsed().as_secs_f64());
        Ok(Collected {
            counts,
            span,
            making: 0.0,
        })
    }
}

/// Each join's sum for `plan`, its joins made and counted by the kernels compiled for the CPU,
/// a join per rayon task.
///
/// # Errors
/// What [`make_on_host`] and [`count_batch`] give.
pub fn make_and_count_on_host(
    quarters: &QuarterCopy,
    board: &[u64; BOARD_WORDS],
    plan: &Plan,
) -> Result<Vec<u64>, GpuError> {
    (0..plan.join_count())
        .into_par_iter()
        .map(|j| {
            let one = plan.one_join(j);
            let slots = count_batch(&make_on_host(quarters, board, &one)?.batch)?;
            Ok(make::sum_joins(&one, &slots)[0])
        })
        .collect()
}

/// The main tasks of a count, taken from both ends until they meet: the device's batches from
/// the front, the CPU threads beside it one task at a time from the back.
struct Queue {
    /// The first task not taken from the front, and one past the last not taken from the back.
    ends: Mutex<(usize, usize)>,
}

impl Queue {
    fn new(len: usize) -> Queue {
        Queue {
            ends: Mutex::new((0, len)),
        }
    }

    fn front(&self) -> Option<usize> {
        let mut ends = self.ends.lock().expect("the queue's lock is not poisoned");
        (ends.0 < ends.1).then(|| {
            ends.0 += 1;
            ends.0 - 1
        })
    }

    fn back(&self) -> Option<usize> {
        let mut ends = self.ends.lock().expect("the queue's lock is not poisoned");
        (ends.0 < ends.1).then(|| {
            ends.1 -= 1;
            ends.1
        })
    }
}

/// Counts the tasks `todo` of `tasks` with `backend` making and counting the main tasks'
/// joins, as [`count_tasks`](crate::engine::device::pool::count_tasks) does on the CPU:
/// `on_done` once per finished task, and `stop` ends the run within about a batch, reporting
/// the batches under way.
///
/// `beside` CPU threads count main tasks with the CPU join meanwhile, taking them from the back
/// of the list while the backend's batches take them from the front (0: the backend counts them
/// all). The symmetric tasks at the end of the list (a few milliseconds of search) go to those
/// threads first, or to one thread of their own.
///
/// # Errors
/// [`RunError::Gpu`] if the backend fails, [`RunError::Threads`] if the CPU threads cannot
/// start, [`RunError::Callback`] with the first error of `on_done`. The CPU threads end at the
/// task they are counting when any of these happens.
pub fn count_tasks<E: Send>(
    backend: &mut dyn JoinBackend,
    tasks: &JoinTasks,
    todo: &[usize],
    beside: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
) -> Result<(Outcome, Report), RunError<E>> {
    let main = tasks.main_len();
    let (plain, symmetric): (Vec<usize>, Vec<usize>) = todo.iter().partition(|&&i| i < main);
    let mut report = Report {
        symmetric_tasks: symmetric.len(),
        ..Report::default()
    };
    let threads = beside.max(1);
    let pool =
        crate::threads::pool(threads).map_err(|source| RunError::Threads { threads, source })?;
    let queue = Queue::new(plain.len());
    let next_symmetric = std::sync::atomic::AtomicUsize::new(0);
    let on_cpu = std::sync::atomic::AtomicUsize::new(0);
    // Set when the backend or a callback fails: the CPU threads end at their task.
    let halt = AtomicBool::new(false);
    let outcomes: Mutex<Vec<Result<Outcome, RunError<E>>>> = Mutex::new(Vec::new());
    let worker = || {
        let mut outcome = Outcome::default();
        let result = loop {
            if halt.load(Ordering::Relaxed) {
                break Ok(outcome);
            }
            let index = match symmetric.get(next_symmetric.fetch_add(1, Ordering::Relaxed)) {
                Some(&index) => index,
                None if beside == 0 => break Ok(outcome),
                None => match queue.back() {
                    Some(at) => {
                        on_cpu.fetch_add(1, Ordering::Relaxed);
                        plain[at]
                    }
                    None => break Ok(outcome),
                },
            };
            let Some(tally) = tasks.count_unless_stopped(index, stop) else {
                break Ok(outcome);
            };
            if let Err(e) = on_done(index, tally) {
                halt.store(true, Ordering::Relaxed);
                break Err(RunError::Callback(e));
            }
            outcome.tally += tally;
            outcome.done += 1;
        };
        outcomes
            .lock()
            .expect("the outcomes' lock is not poisoned")
            .push(result);
    };
    let batched = pool.in_place_scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|_| worker());
        }
        let batched = batches(
            backend,
            tasks,
            &plain,
            &queue,
            stop,
            &halt,
            on_done,
            &mut report,
        );
        if batched.is_err() {
            halt.store(true, Ordering::Relaxed);
        }
        batched
    });
    let mut outcome = batched?;
    for side in outcomes
        .into_inner()
        .expect("the outcomes' lock is not poisoned")
    {
        let side = side?;
        outcome.tally += side.tally;
        outcome.done += side.done;
    }
    report.cpu_tasks = on_cpu.into_inner();
    outcome.stopped = outcome.done < todo.len();
    Ok((outcome, report))
}

/// The backend's share of [`count_tasks`]: the quarter lists loaded, then batches of `todo`
/// taken from the front of `queue`, two in flight, until the queue is empty, `stop` or `halt`
/// is set.
#[allow(clippy::too_many_arguments)]
fn batches<E: Send>(
    backend: &mut dyn JoinBackend,
    tasks: &JoinTasks,
    todo: &[usize],
    queue: &Queue,
    stop: &AtomicBool,
    halt: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
    report: &mut Report,
) -> Result<Outcome, RunError<E>> {
    let mut outcome = Outcome::default();
    if todo.is_empty() {
        return Ok(outcome);
    }
    let layout = Layout::of(tasks);
    let tables = match tasks.quarter_tables(stop) {
        Ok(Some(tables)) => tables,
        Ok(None) => return Ok(outcome),
        Err(e) => return Err(GpuError::Driver(format!("the join's quarter lists: {e}")).into()),
    };
    let max_words = backend.load(tables, make::board(tasks, &layout))?;
    report.batch_places = max_words;
    let started = Instant::now();
    // The first batches are small (a task each), to measure the rate; later ones aim at
    // BATCH_SECONDS.
    let mut target_words: u64 = 1;
    let mut in_flight: VecDeque<(usize, Plan)> = VecDeque::new();
    // Plans counted, whose memory the next ones use.
    let mut spare: Vec<Plan> = Vec::new();
    let mut free_slots = vec![1, 0];
    let mut busy = Busy::default();
    let mut words_done = 0u64;
    loop {
        while let Some(&slot) = free_slots.last() {
            if stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed) {
                break;
            }
            let mut plan = spare.pop().unwrap_or_default();
            plan.clear();
            let limit = target_words.min(max_words);
            while plan.tasks.is_empty() || plan.words < limit {
                let Some(at) = queue.front() else {
                    break;
                };
                if !plan.add_task(tasks, &layout, todo[at], stop) {
                    return Err(GpuError::Driver("the quarter lists were not made".into()).into());
                }
            }
            if plan.tasks.is_empty() {
                spare.push(plan);
                break;
            }
            plan.check()?;
            backend.submit(slot, &plan)?;
            free_slots.pop();
            in_flight.push_back((slot, plan));
        }
        let Some((slot, plan)) = in_flight.pop_front() else {
            break;
        };
        let collected = backend.collect(slot)?;
        free_slots.push(slot);
        busy.add(report, plan.slots, &collected);
        words_done += plan.words;
        for (index, found) in plan.found(&collected.counts) {
            let tally = Tally {
                total: found,
                unique8: found,
            };
            on_done(index, tally).map_err(RunError::Callback)?;
            outcome.tally += tally;
            outcome.done += 1;
        }
        spare.push(plan);
        let elapsed = started
            .elapsed()
            .max(Duration::from_millis(1))
            .as_secs_f64();
        let rate = words_done as f64 / elapsed;
        target_words = ((rate * BATCH_SECONDS) as u64).max(1 << 16);
    }
    Ok(outcome)
}

/// Counts the tasks `todo` of `tasks` with the first GPU ([`CudaJoin`]) counting the pairs,
/// as [`count_tasks`] does with any backend; the report names the device.
///
/// # Errors
/// What [`count_tasks`] gives, and [`GpuError`] if the GPU cannot start: no driver, NVRTC or
/// device, too little free memory for two batches (before any work), the kernel not compiling.
pub fn count_on_gpu<E: Send>(
    tasks: &JoinTasks,
    todo: &[usize],
    threads: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, Tally) -> Result<(), E> + Sync),
) -> Result<(Outcome, Report), RunError<E>> {
    let mut gpu = CudaJoin::new(Layout::of(tasks))?;
    // One thread drives the GPU; the others count beside it.
    let beside = threads.saturating_sub(1);
    let (outcome, mut report) = count_tasks(&mut gpu, tasks, todo, beside, stop, on_done)?;
    report.device = gpu.name();
    report.resident_threads = gpu.resident_threads();
    Ok((outcome, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_in_software_gathers_the_mask_bits_in_order() {
        assert_eq!(Soft.pext(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(Soft.pext(0b1011_0110, 0b0101_0101), 0b0110);
        assert_eq!(Soft.pext(1 << 63 | 1, 1 << 63 | 1 << 5 | 1), 0b101);
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = crate::engine::cpu::Avx2::detect() {
            let hard = Bmi2 { _proof: cpu };
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let mask = x.rotate_left(29) & x.rotate_left(7);
                assert_eq!(Soft.pext(x, mask), hard.pext(x, mask));
            }
        }
    }

    #[test]
    fn the_layout_fits_every_board_the_join_counts() {
        for n in 4..=crate::engine::strategy::join::MAX_N {
            let Ok(tasks) = JoinTasks::new(n) else {
                continue;
            };
            // The default, and every number of cut bits the switch may plan for.
            for planned in std::iter::once(None).chain((0..=MAX_CUT).map(Some)) {
                let layout = Layout::of_planned(&tasks, planned);
                let packed = tasks.word_bits() - 2;
                let room = (layout.chunks * SPAN).min(if layout.wide { 64 } else { 32 });
                assert!(
                    layout.min_cut <= MAX_CUT && packed <= room + layout.min_cut,
                    "n = {n}, {planned:?}"
                );
                assert!(layout.chunks <= HOST_CHUNKS.1 && (layout.wide || layout.chunks <= 7));
                if let Some(cut) = planned {
                    assert!(layout.min_cut <= cut, "n = {n}, {planned:?}");
                }
            }
        }
    }
}
