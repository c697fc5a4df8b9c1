//! The join's words made on the GPU (`make.cu`): the host plans a batch, a few numbers per task
//! and per join, and the device glues each task's top half and each join's bottom half from the
//! quarter lists it holds, sorts the words into classes, packs them and lays out the tiles that
//! `join.cu` counts. Only the plan goes to the device, and only a sum and a status per join
//! come back.
//!
//! A [`Plan`] is a batch of main tasks: per task, where its top half's placements are in the
//! quarter lists; per join, where its bottom half's are (`JoinKeys`), where its words go and how
//! many each half may have at most (the pairs of quarter entries it tries, an exact upper
//! bound), and how many tile slots it may fill at most (see `Plan::add`). [`make_on_host`] runs the device's code compiled for the CPU and gives a
//! [`JoinBatch`], which the tests and the host backend count and check like any other.

use super::GpuError;
use super::join::{JoinBatch, Layout, MAX_CUT, PARTS, TILE_RECORD, TILE_WORDS};
use crate::engine::strategy::join::{JoinKeys, JoinTasks, QuarterTables};

/// Where each number of a join's record is (`NQM_J_*`).
pub mod field {
    /// The join's task's top half: its record in [`Plan::tops`](super::Plan::tops).
    pub const TOP: usize = 0;
    /// The bottom half's keys: the first row set's left key, its right key, the row sets.
    pub const BOTTOM: usize = 1;
    /// The bits of an entry that attack the middle queen.
    pub const BLOCKED: usize = 4;
    /// Where the join's words start (the top's, then the bottom's after the top's bound).
    pub const AT: usize = 5;
    /// The top half's bound of words, then the bottom's.
    pub const CAP: usize = 6;
    /// Where the join's tile slots start.
    pub const TILES_AT: usize = 8;
    /// How many tile slots the join has.
    pub const SLOTS: usize = 9;
}

/// Numbers per join in a plan (`NQM_JOIN_WORDS`, laid out as [`field`] says).
pub const JOIN_WORDS: usize = 10;

/// Numbers per task's top half in a plan (`NQM_TOP_WORDS`): its three keys, where its entries
/// start in the batch's top entries, and how many it may have (its pairs tried).
pub const TOP_WORDS: usize = 5;

/// Words per join in the status the device writes back (`NQM_STATUS_WORDS`): the two halves'
/// words, `k`, the cut bits (low, high), the tiles used, an error (0: none).
pub const STATUS_WORDS: usize = 8;

/// Entries of a side's class table (`NQM_TABLE`): room for the most classes and the end.
pub const TABLE: usize = (PARTS << MAX_CUT) + 1;

/// Numbers describing the board (`NQM_BOARD_WORDS`).
pub const BOARD_WORDS: usize = 5;

/// Threads per block of `nq_make` (`NQM_BLOCK`).
pub const BLOCK: u32 = 256;

/// Blocks per multiprocessor `nq_make` is compiled to allow (`NQM_MIN_BLOCKS`): 64 registers
/// a thread.
pub const MIN_BLOCKS: u32 = 4;

/// The most registers per thread `nq_make`'s launch configuration allows.
pub const MAX_REGISTERS: u32 = 65536 / (BLOCK * MIN_BLOCKS);

/// Stored words per bucket the cut bits aim at (`NQM_BUCKET_WORDS`, as the host listing's).
const BUCKET_WORDS: u64 = 512;

/// The fewest word places (the halves' bounds) at which a batch stops taking tasks, as a power
/// of two: 2^27 places, 2 GiB of device memory at 16 bytes a place (the glued word, and its
/// packed halves). A place is a pair of quarter entries tried, of which a third (even N) or a
/// sixth (odd N) are words: a batch holds 20 to 45 million words, a few milliseconds of the
/// GPU's time.
pub const MIN_BATCH_BITS: u32 = 27;

/// The most, 2^30 places (16 GiB a batch), taken where the GPU has the memory: the making
/// kernels get a block per top half and per join, so a larger batch gives each launch more
/// blocks and fewer idle tails (measured in docs/gpu.md, "the batch's size").
pub const MAX_BATCH_BITS: u32 = 30;

/// The range `NQUEENS_GPU_BATCH_BITS` may set the batch size in: 2^20 places (16 MiB) to 2^30.
pub const BATCH_BITS_RANGE: std::ops::RangeInclusive<u32> = 20..=MAX_BATCH_BITS;

/// Device memory reserved for two batches of `2^bits` places in flight beside the quarter
/// lists: each up to twice `2^bits` places (the batch that passes the limit takes its last
/// task whole) of 16 bytes, with a margin of 1 GiB for their tables and tiles, the modules and
/// the streams. A batch larger still (one task of more than `2^bits` places, past N = 26 at
/// the fewest) fails to allocate: one error line, the tasks reported before it exact.
///
/// ```
/// use nqueens::engine::device::gpu::make::reserved_bytes;
/// assert_eq!(reserved_bytes(27), 9 << 30);
/// assert_eq!(reserved_bytes(30), 65 << 30);
/// ```
#[must_use]
pub const fn reserved_bytes(bits: u32) -> u64 {
    2 * 2 * (1u64 << bits) * 16 + (1 << 30)
}

/// The batch size `NQUEENS_GPU_BATCH_BITS` asks for, if it holds a number in
/// [`BATCH_BITS_RANGE`] (other values are ignored): for measuring how the batch's size bears
/// on the making kernels (`scripts/gpu-check.sh --batch`).
///
/// ```standalone_crate
/// use nqueens::engine::device::gpu::make::forced_batch_bits;
/// // SAFETY: this example is a program of its own (`standalone_crate`), with no other thread
/// // reading the environment.
/// unsafe { std::env::set_var("NQUEENS_GPU_BATCH_BITS", "29") };
/// assert_eq!(forced_batch_bits(), Some(29));
/// for ignored in ["31", "19", "many", ""] {
///     unsafe { std::env::set_var("NQUEENS_GPU_BATCH_BITS", ignored) };
///     assert_eq!(forced_batch_bits(), None);
/// }
/// ```
#[must_use]
pub fn forced_batch_bits() -> Option<u32> {
    std::env::var("NQUEENS_GPU_BATCH_BITS")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .filter(|bits| BATCH_BITS_RANGE.contains(bits))
}

/// The batch size, as a power of two of word places, for a GPU with `free` bytes free that must
/// also hold `lists` bytes of quarter lists: `forced` if given (and it fits), else the largest
/// from [`MIN_BATCH_BITS`] to [`MAX_BATCH_BITS`] whose [`reserved_bytes`] fit beside the
/// lists; `None` if it does not fit.
///
/// ```
/// use nqueens::engine::device::gpu::make::choose_batch_bits;
/// const GIB: u64 = 1 << 30;
/// // An 80 GB H100 with 79 GiB free: 2^30 beside N = 23's 2 GiB of lists, 2^29 beside N = 25's 20.
/// assert_eq!(choose_batch_bits(79 * GIB, 2 * GIB, None), Some(30));
/// assert_eq!(choose_batch_bits(79 * GIB, 20 * GIB, None), Some(29));
/// // A 16 GB card: the fewest, or nothing.
/// assert_eq!(choose_batch_bits(15 * GIB, 2 * GIB, None), Some(27));
/// assert_eq!(choose_batch_bits(15 * GIB, 10 * GIB, None), None);
/// // Asked for: taken if it fits.
/// assert_eq!(choose_batch_bits(79 * GIB, 2 * GIB, Some(22)), Some(22));
/// assert_eq!(choose_batch_bits(15 * GIB, 2 * GIB, Some(30)), None);
/// ```
#[must_use]
pub fn choose_batch_bits(free: u64, lists: u64, forced: Option<u32>) -> Option<u32> {
    let fits = |bits: u32| lists.saturating_add(reserved_bytes(bits)) <= free;
    match forced {
        Some(bits) => fits(bits).then_some(bits),
        None => (MIN_BATCH_BITS..=MAX_BATCH_BITS)
            .rev()
            .find(|&bits| fits(bits)),
    }
}

/// What the device needs of the board: the word's bits, the long diagonals' bits, the bits
/// of a family, the fewest cut bits, and whether packed words have a high half.
#[must_use]
pub fn board(tasks: &JoinTasks, layout: &Layout) -> [u64; BOARD_WORDS] {
    [
        layout.word_mask(),
        tasks.long_diagonal_bits(),
        tasks.family_bits() as u64,
        layout.min_cut as u64,
        u64::from(layout.wide),
    ]
}

/// A batch of main tasks for the device to make and count.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The task indices.
    pub tasks: Vec<usize>,
    /// [`TOP_WORDS`] numbers per task: its top half, glued once for all its joins.
    pub tops: Vec<u64>,
    /// Top entries' places: the sum of the tops' bounds.
    pub top_places: u64,
    /// [`JOIN_WORDS`] numbers per join.
    pub joins: Vec<u64>,
    /// Per join: the position of its task in `tasks`, and its symmetry family's weight.
    pub owner: Vec<(u32, u64)>,
    /// Word places: the sum of the joins' halves' bounds.
    pub words: u64,
    /// Tile slots.
    pub slots: u64,
}

impl Plan {
    /// The number of joins.
    #[must_use]
    pub fn join_count(&self) -> usize {
        self.owner.len()
    }

    /// The number of top halves.
    #[must_use]
    pub fn top_count(&self) -> usize {
        self.tops.len() / TOP_WORDS
    }

    /// Appends the joins of main task `index` of `tasks`; `false` if `stop` was set first (the
    /// plan is then to be thrown away).
    pub fn add_task(
        &mut self,
        tasks: &JoinTasks,
        layout: &Layout,
        index: usize,
        stop: &std::sync::atomic::AtomicBool,
    ) -> bool {
        let task = self.tasks.len() as u32;
        self.tasks.push(index);
        let mut top = None;
        tasks.for_each_join_keys(index, stop, &mut |keys| {
            // The task's joins share its top half: glued once, its first join records it.
            let at = *top.get_or_insert_with(|| {
                let at = self.top_count() as u64;
                let t = keys.top;
                self.tops.extend_from_slice(&[
                    t.left_first,
                    t.right_last,
                    t.row_sets,
                    self.top_places,
                    t.tried,
                ]);
                self.top_places += t.tried;
                at
            });
            self.add(layout, task, at, keys);
        })
    }

    /// Appends one join, whose task's top half is record `top`. Its tile slots: a term's tiles
    /// are at most its stored words over [`TILE_WORDS`] plus one per bucket (the last, partly
    /// filled tile of each), and `k` is at most what the device would choose if every word
    /// tried were free of the long diagonals.
    fn add(&mut self, layout: &Layout, task: u32, top: u64, keys: JoinKeys) {
        let (top_cap, bottom_cap) = (keys.top.tried, keys.bottom.tried);
        let most = (top_cap.max(bottom_cap) / BUCKET_WORDS).max(1).ilog2() as usize;
        let k = most.clamp(layout.min_cut, MAX_CUT);
        let slots = top_cap / TILE_WORDS as u64 + bottom_cap / TILE_WORDS as u64 + (2 << k);
        self.joins.extend_from_slice(&[
            top,
            keys.bottom.left_first,
            keys.bottom.right_last,
            keys.bottom.row_sets,
            keys.blocked,
            self.words,
            top_cap,
            bottom_cap,
            self.slots,
            slots,
        ]);
        self.owner.push((task, keys.weight));
        self.words += top_cap + bottom_cap;
        self.slots += slots;
    }

    /// Join `j` alone, as a plan of its own (its task's index and top half, its weight, its
    /// words and tile slots from 0): the host makes a plan's joins on many threads this way.
    #[must_use]
    pub fn one_join(&self, j: usize) -> Plan {
        let mut record = self.joins[j * JOIN_WORDS..(j + 1) * JOIN_WORDS].to_vec();
        let top = record[field::TOP] as usize;
        let mut tops = self.tops[top * TOP_WORDS..(top + 1) * TOP_WORDS].to_vec();
        tops[3] = 0;
        let (task, weight) = self.owner[j];
        (
            record[field::TOP],
            record[field::AT],
            record[field::TILES_AT],
        ) = (0, 0, 0);
        Plan {
            tasks: vec![self.tasks[task as usize]],
            top_places: tops[4],
            tops,
            words: record[field::CAP] + record[field::CAP + 1],
            slots: record[field::SLOTS],
            joins: record,
            owner: vec![(0, weight)],
        }
    }

    /// Empties the plan, keeping its memory.
    pub fn clear(&mut self) {
        self.tasks.clear();
        self.tops.clear();
        self.joins.clear();
        self.owner.clear();
        self.top_places = 0;
        self.words = 0;
        self.slots = 0;
    }

    /// `Ok` if the device can make the plan: its word places, class tables and tiles indexed
    /// in 32 bits, as the kernels index them, and each join's top half one of the plan's.
    ///
    /// # Errors
    /// [`GpuError::Driver`] for a plan too large for one launch, or a join naming no top half.
    pub fn check(&self) -> Result<(), GpuError> {
        let tables = 2 * TABLE as u64 * self.join_count() as u64;
        if self.words >= 1 << 32 || tables >= 1 << 32 || self.slots >= 1 << 31 {
            return Err(GpuError::Driver(format!(
                "a batch of {} word places and {} tiles is too large for one launch",
                self.words, self.slots
            )));
        }
        let tops = self.top_count() as u64;
        if self.joins.chunks(JOIN_WORDS).any(|j| j[field::TOP] >= tops) {
            return Err(GpuError::Driver("a join without its top half".into()));
        }
        Ok(())
    }

    /// Each task's count, from its joins' sums ([`sum_joins`]: one per join).
    pub fn found(&self, sums: &[u64]) -> impl Iterator<Item = (usize, u128)> + '_ {
        assert_eq!(sums.len(), self.join_count());
        let mut per_task = vec![0u128; self.tasks.len()];
        for (&sum, &(task, weight)) in sums.iter().zip(&self.owner) {
            per_task[task as usize] += u128::from(weight) * u128::from(sum);
        }
        self.tasks.iter().copied().zip(per_task)
    }
}

/// What the device made of a plan, as the host's copy of `nq_make` gives it.
#[derive(Clone, Debug)]
pub struct Made {
    /// The words, class tables and tiles (one per slot, empty slots stored 0), ready to count.
    pub batch: JoinBatch,
    /// [`STATUS_WORDS`] per join.
    pub status: Vec<u32>,
}

impl Made {
    /// Join `j`'s made words (top, bottom), `k` and cut bits.
    #[must_use]
    pub fn join(&self, j: usize) -> (u32, u32, u32, u64) {
        let s = &self.status[j * STATUS_WORDS..(j + 1) * STATUS_WORDS];
        (s[0], s[1], s[2], u64::from(s[3]) | u64::from(s[4]) << 32)
    }
}

/// `Ok` unless a join's status reports an error (a plan whose bounds were too small).
///
/// # Errors
/// [`GpuError::Driver`] naming the join.
pub fn check_status(status: &[u32]) -> Result<(), GpuError> {
    match status
        .chunks(STATUS_WORDS)
        .position(|s| s.len() == STATUS_WORDS && s[6] != 0)
    {
        None => Ok(()),
        Some(j) => Err(GpuError::Driver(format!(
            "join {j} of a batch made more {} than planned",
            if status[j * STATUS_WORDS + 6] == 1 {
                "words"
            } else {
                "tiles"
            }
        ))),
    }
}

unsafe extern "C" {
    fn nq_sum_joins_host(joins: *const u64, sums: *const u64, n_joins: u32, out: *mut u64);
}

/// Declares a host copy of the making kernels (`make.cu`, its names suffixed by
/// `NQM_HOST_SUFFIX`): `nq_glue_tops` and `nq_make`.
macro_rules! host_makes {
    ($glue_tops:ident, $make:ident) => {
        unsafe extern "C" {
            fn $glue_tops(
                left: *const u64,
                left_start: *const u64,
                right: *const u64,
                right_start: *const u64,
                tops: *const u64,
                top_staging: *mut u64,
                top_counts: *mut u32,
                first: u32,
                count: u32,
            );
            fn $make(
                left: *const u64,
                left_start: *const u64,
                right: *const u64,
                right_start: *const u64,
                tops: *const u64,
                top_staging: *const u64,
                top_counts: *const u32,
                joins: *const u64,
                board: *const u64,
                staging: *mut u64,
                low: *mut u32,
                high: *mut u32,
                starts: *mut u32,
                tiles: *mut u32,
                status: *mut u32,
                first: u32,
                count: u32,
            );
        }
    };
}

host_makes!(nq_glue_tops_host, nq_make_host);
host_makes!(nq_glue_tops_host_claim, nq_make_host_claim);

/// A host copy's `nq_glue_tops` entry point.
type HostGlueTops = unsafe extern "C" fn(
    *const u64,
    *const u64,
    *const u64,
    *const u64,
    *const u64,
    *mut u64,
    *mut u32,
    u32,
    u32,
);

/// A host copy's `nq_make` entry point.
type HostMake = unsafe extern "C" fn(
    *const u64,
    *const u64,
    *const u64,
    *const u64,
    *const u64,
    *const u64,
    *const u32,
    *const u64,
    *const u64,
    *mut u64,
    *mut u32,
    *mut u32,
    *mut u32,
    *mut u32,
    *mut u32,
    u32,
    u32,
);

/// The quarter lists as the device holds them: entries, and 64-bit starts.
#[derive(Clone, Debug, Default)]
pub struct QuarterCopy {
    /// Left entries, and where each key's start.
    pub left: (Vec<u64>, Vec<u64>),
    /// Right entries, and where each key's start.
    pub right: (Vec<u64>, Vec<u64>),
}

impl QuarterCopy {
    /// A copy of `tables` ([`JoinTasks`]' quarter lists).
    #[must_use]
    pub fn of(tables: QuarterTables) -> QuarterCopy {
        let copy = |(entries, start): (&[u64], &[usize])| {
            (entries.to_vec(), start.iter().map(|&s| s as u64).collect())
        };
        let [left, right] = tables;
        QuarterCopy {
            left: copy(left),
            right: copy(right),
        }
    }
}

impl QuarterCopy {
    /// A copy of the quarter lists of `tasks`, made first if need be.
    ///
    /// # Errors
    /// [`GpuError::Driver`] if they cannot be allocated.
    pub fn of_tasks(tasks: &JoinTasks) -> Result<QuarterCopy, GpuError> {
        let never = std::sync::atomic::AtomicBool::new(false);
        match tasks.quarter_tables(&never) {
            Ok(Some(tables)) => Ok(QuarterCopy::of(tables)),
            Ok(None) => unreachable!("nothing stops the lists"),
            Err(e) => Err(GpuError::Driver(format!("the join's quarter lists: {e}"))),
        }
    }
}

/// One join of a main task as the host lists it: its halves' words and its family's weight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedJoin {
    /// The size of the join's symmetry family.
    pub weight: u64,
    /// The top words that leave the middle queen free.
    pub top: Vec<u64>,
    /// The bottom words that avoid the middle queen.
    pub bottom: Vec<u64>,
}

/// The joins of main task `index` of `tasks`, in [`Plan::add_task`]'s order, listed on the host
/// as the CPU join lists them: what the device must make.
#[must_use]
pub fn listed_joins(tasks: &JoinTasks, index: usize) -> Vec<ListedJoin> {
    let mut joins = Vec::new();
    let never = std::sync::atomic::AtomicBool::new(false);
    tasks.for_each_join(index, &never, &mut |join| {
        joins.push(ListedJoin {
            weight: join.weight,
            top: join.top.to_vec(),
            bottom: join.bottom.to_vec(),
        });
    });
    joins
}

/// Each join's sum from its tile slots' `sums` (one per slot of `plan`), by `nq_sum_joins`
/// compiled for the CPU: what the device gives back.
///
/// # Panics
/// If `sums` does not have one sum per slot.
#[must_use]
pub fn sum_joins(plan: &Plan, sums: &[u64]) -> Vec<u64> {
    assert_eq!(sums.len() as u64, plan.slots);
    let mut out = vec![0u64; plan.join_count()];
    // SAFETY: every join's slots lie within the plan's (`Plan::add` gives each join the next
    // ones), `sums` has a sum per slot (asserted), `out` a place per join.
    unsafe {
        nq_sum_joins_host(
            plan.joins.as_ptr(),
            sums.as_ptr(),
            plan.join_count() as u32,
            out.as_mut_ptr(),
        );
    }
    out
}

/// Runs `nq_make` compiled for the CPU over every join of `plan`, on the calling thread.
///
/// # Errors
/// [`GpuError::Driver`] if the plan is too large ([`Plan::check`]), refers to keys outside the
/// quarter lists, or a join made more than planned ([`check_status`]).
pub fn make_on_host(
    quarters: &QuarterCopy,
    board: &[u64; BOARD_WORDS],
    plan: &Plan,
) -> Result<Made, GpuError> {
    make_with(quarters, board, plan, (nq_glue_tops_host, nq_make_host))
}

/// [`make_on_host`] with the copy compiled with the switch `NQM_CLASS_CLAIM=1` (the scatter's
/// lanes that share a class claim their places with one atomic add), which a GPU may be given
/// (`NQUEENS_GPU_MAKE_DEFINES`): the tests check that it makes the same words.
///
/// # Errors
/// As [`make_on_host`].
pub fn make_on_host_claiming(
    quarters: &QuarterCopy,
    board: &[u64; BOARD_WORDS],
    plan: &Plan,
) -> Result<Made, GpuError> {
    make_with(
        quarters,
        board,
        plan,
        (nq_glue_tops_host_claim, nq_make_host_claim),
    )
}

/// [`make_on_host`] with the host copy `(glue_tops, make)`.
fn make_with(
    quarters: &QuarterCopy,
    board: &[u64; BOARD_WORDS],
    plan: &Plan,
    (glue_tops, make): (HostGlueTops, HostMake),
) -> Result<Made, GpuError> {
    plan.check()?;
    // A half's keys: `sets` row sets from left key `first` up and right key `last` down.
    let keys_fit = |first: u64, last: u64, sets: u64| {
        sets == 0
            || first + sets < quarters.left.1.len() as u64
                && last < quarters.right.1.len() as u64 - 1
                && last + 1 >= sets
    };
    let fit = plan
        .tops
        .chunks(TOP_WORDS)
        .all(|t| keys_fit(t[0], t[1], t[2]))
        && plan.joins.chunks(JOIN_WORDS).all(|j| {
            let b = field::BOTTOM;
            keys_fit(j[b], j[b + 1], j[b + 2])
        });
    if !fit {
        return Err(GpuError::Driver(
            "a plan's keys lie outside the quarter lists".into(),
        ));
    }
    let words = plan.words as usize;
    let wide = board[4] != 0;
    let mut top_staging = vec![0u64; plan.top_places as usize];
    let mut top_counts = vec![0u32; plan.top_count()];
    let mut staging = vec![0u64; words];
    let mut low = vec![0u32; words];
    let mut high = vec![0u32; if wide { words } else { 1 }];
    let mut starts = vec![0u32; 2 * TABLE * plan.join_count()];
    let mut tiles = vec![0u32; TILE_RECORD * plan.slots as usize];
    let mut status = vec![0u32; STATUS_WORDS * plan.join_count()];
    let [(left, left_start), (right, right_start)] = [&quarters.left, &quarters.right];
    // SAFETY: every key a top's or a join's row sets read lies within the quarter lists
    // (checked above; the lists' starts are in order and end at their entries' length), so the
    // glue reads within them; each top's places lie within `top_staging` (`Plan::add_task`
    // gives each the next ones), and the glue writes no more than its bound (its pairs tried);
    // `top_counts` has a count per top.
    unsafe {
        glue_tops(
            left.as_ptr(),
            left_start.as_ptr(),
            right.as_ptr(),
            right_start.as_ptr(),
            plan.tops.as_ptr(),
            top_staging.as_mut_ptr(),
            top_counts.as_mut_ptr(),
            0,
            plan.top_count() as u32,
        );
    }
    // SAFETY: as above for the keys; every join's top is one of the plan's (`plan.check`), and
    // it reads at most its top's count or bound of entries; the plan's bounds are exact upper
    // bounds of what each join makes (its pairs tried, and its tiles) and the code writes no
    // more than them (an overflow is reported in the status, not written); `staging`, `low`
    // and `high` (wide only) have a place for every word of the plan, `starts` two tables per
    // join, `tiles` a record per slot, `status` a record per join; indices fit 32 bits
    // (`plan.check`).
    unsafe {
        make(
            left.as_ptr(),
            left_start.as_ptr(),
            right.as_ptr(),
            right_start.as_ptr(),
            plan.tops.as_ptr(),
            top_staging.as_ptr(),
            top_counts.as_ptr(),
            plan.joins.as_ptr(),
            board.as_ptr(),
            staging.as_mut_ptr(),
            low.as_mut_ptr(),
            high.as_mut_ptr(),
            starts.as_mut_ptr(),
            tiles.as_mut_ptr(),
            status.as_mut_ptr(),
            0,
            plan.join_count() as u32,
        );
    }
    check_status(&status)?;
    let mut owner = vec![(0, 0); plan.slots as usize];
    for (record, &o) in plan.joins.chunks(JOIN_WORDS).zip(&plan.owner) {
        let first = record[field::TILES_AT] as usize;
        owner[first..first + record[field::SLOTS] as usize].fill(o);
    }
    if !wide {
        high.clear();
    }
    Ok(Made {
        batch: JoinBatch {
            tasks: plan.tasks.clone(),
            wide,
            low,
            high,
            starts,
            tiles,
            owner,
            pairs: 0,
            queries: 0,
        },
        status,
    })
}
