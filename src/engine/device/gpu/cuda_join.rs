//! The join kernel (`join.cu`) on the GPU, through `cudarc`: compiled by NVRTC when a count
//! starts, for the GPU's own architecture and the count's [`Layout`].

use std::sync::Arc;

use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use cudarc::driver::{
    CudaContext, CudaEvent, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;

use super::cuda::{self, Compiled, driver_error};
use super::join::{GROUPS, JoinBackend, Layout, TILE_RECORD, TILE_WORDS};
use super::make::{self, BOARD_WORDS, Plan, STATUS_WORDS, TABLE, check_status};
use super::{Collected, GpuError};
use crate::engine::strategy::join::QuarterTables;

/// The join kernel's source, compiled by NVRTC at run time (and by the host compiler for the
/// tests).
pub const SOURCE: &str = include_str!("join.cu");

/// The source of the kernel that makes a batch's words from the quarter lists, as [`SOURCE`].
pub const MAKE_SOURCE: &str = include_str!("make.cu");

/// Threads per block (`NQJ_BLOCK`): eight warps share a tile's table.
pub const BLOCK: u32 = 256;

/// Blocks per multiprocessor the kernel is compiled to allow (`NQJ_MIN_BLOCKS`): a tile's
/// table takes 24 KB (6 chunks) to 37 KB (9 chunks) of the 228 KB of shared memory an H100
/// multiprocessor has, so 5 blocks fit at every layout; asking for 5 leaves the compiler 51
/// registers a thread, which every layout fits without spills, and 5 blocks count faster
/// than 4 (measured in docs/gpu.md).
pub const MIN_BLOCKS: u32 = 5;

/// The most registers per thread the launch configuration allows.
///
/// ```
/// assert_eq!(nqueens::engine::device::gpu::cuda_join::MAX_REGISTERS, 51);
/// ```
pub const MAX_REGISTERS: u32 = 65536 / (BLOCK * MIN_BLOCKS);

/// `Ok` if the first GPU's free memory holds the join's quarter lists of `n` and two batches
/// of at least [`make::MIN_BATCH_BITS`] places (or of `NQUEENS_GPU_BATCH_BITS`): asked before
/// any work, so that a board too large for the GPU is refused in one line.
///
/// # Errors
/// [`GpuError`]: no driver or device, or [`GpuError::Driver`] saying what is free and what is
/// needed.
pub fn fits(n: usize) -> Result<(), GpuError> {
    let lists = crate::engine::strategy::join::quarter_list_bytes(n).unwrap_or(u64::MAX / 2);
    let context = cuda::first_gpu()?;
    batch_bits(&context, lists, &format!("the join at N = {n} needs"))?;
    Ok(())
}

/// The batch size for `context`'s GPU beside `lists` bytes of quarter lists
/// ([`make::choose_batch_bits`] with its free memory), or an error that says what is free and
/// what `needs` (how the message goes on).
fn batch_bits(context: &CudaContext, lists: u64, needs: &str) -> Result<u32, GpuError> {
    let (free, _) = context.mem_get_info().map_err(driver_error)?;
    let forced = make::forced_batch_bits();
    make::choose_batch_bits(free as u64, lists, forced).ok_or_else(|| {
        let fewest = make::reserved_bytes(forced.unwrap_or(make::MIN_BATCH_BITS));
        GpuError::Driver(format!(
            "the GPU has {} MiB free; {needs} {} MiB (its quarter lists and two batches)",
            free >> 20,
            (lists + fewest) >> 20
        ))
    })
}

/// Compiles [`SOURCE`] for `arch` (`"sm_90"` for Hopper) with `chunks` chunks of 5 bits and
/// 32-bit words or not (`wide`), as a count's [`Layout`] says, with `defines` from
/// [`join_defines`]; `verbose` asks ptxas for its resource report. Needs NVRTC only, no
/// driver and no GPU.
///
/// # Errors
/// [`GpuError::NoNvrtc`] without NVRTC, [`GpuError::Compile`] if it does not compile.
pub fn compile(
    arch: &str,
    chunks: usize,
    wide: bool,
    defines: &[String],
    verbose: bool,
) -> Result<Compiled, GpuError> {
    let mut options = vec![
        format!("-DNQJ_BLOCK={BLOCK}"),
        format!(
            "-DNQJ_MIN_BLOCKS={}",
            min_blocks(defines, "NQJ_", MIN_BLOCKS)
        ),
        format!("-DNQJ_GROUPS={GROUPS}"),
        format!("-DNQJ_CHUNKS={chunks}"),
        format!("-DNQJ_WIDE={}", u8::from(wide)),
    ];
    options.extend(without_min_blocks(defines, "NQJ_"));
    cuda::compile_source(SOURCE, c"nqueens_join.cu", arch, options, verbose)
}

/// The count kernel's switches, from `NQUEENS_GPU_JOIN_DEFINES` (`scripts/gpu-check.sh
/// --switches` times them too): as [`make_defines`], `-DNQJ_NAME=NUMBER`, where
/// `NQJ_BLOCK`, `NQJ_GROUPS`, `NQJ_CHUNKS` and `NQJ_WIDE` are the host's shapes.
///
/// ```
/// use nqueens::engine::device::gpu::cuda_join::join_defines;
/// assert_eq!(join_defines("-DNQJ_MIN_BLOCKS=5").unwrap(), ["-DNQJ_MIN_BLOCKS=5"]);
/// assert!(join_defines("-DNQJ_CHUNKS=6").is_err());
/// ```
///
/// # Errors
/// As [`make_defines`].
pub fn join_defines(text: &str) -> Result<Vec<String>, GpuError> {
    switches(
        "NQUEENS_GPU_JOIN_DEFINES",
        "NQJ_",
        &["BLOCK", "GROUPS", "CHUNKS", "WIDE"],
        text,
    )
}

/// The making kernels' switches from `NQUEENS_GPU_MAKE_DEFINES`, for timing a change to
/// `make.cu` behind a `#define` on a GPU without rebuilding (`scripts/gpu-check.sh
/// --switches`): space-separated `-DNQM_NAME=NUMBER`. `NQM_MIN_BLOCKS`, the blocks of
/// `nq_make` a multiprocessor must hold at once (so at most 65,536 / (256 x it) registers a
/// thread), goes from 1 to 8; `NQM_BLOCK` and `NQM_TILE_STORED` are the host's shapes, not
/// switches.
///
/// ```
/// use nqueens::engine::device::gpu::cuda_join::make_defines;
/// assert_eq!(make_defines(" -DNQM_MIN_BLOCKS=5 ").unwrap(), ["-DNQM_MIN_BLOCKS=5"]);
/// assert!(make_defines("").unwrap().is_empty());
/// for bad in ["-DNQM_MIN_BLOCKS=9", "-DNQM_MIN_BLOCKS=0", "-DNQM_BLOCK=128", "-DNQ_MIN_BLOCKS=5", "-O0"] {
///     assert!(make_defines(bad).is_err(), "{bad}");
/// }
/// ```
///
/// # Errors
/// [`GpuError::Compile`] for a switch that is not `-DNQM_NAME=NUMBER`, or a value the launch
/// cannot take.
pub fn make_defines(text: &str) -> Result<Vec<String>, GpuError> {
    switches(
        "NQUEENS_GPU_MAKE_DEFINES",
        "NQM_",
        &["BLOCK", "TILE_STORED"],
        text,
    )
}

/// `text`, the value of the environment variable `var`, read as a module's switches
/// `-D{prefix}NAME=NUMBER`: `MIN_BLOCKS` from 1 to 8, no name of `fixed`.
fn switches(var: &str, prefix: &str, fixed: &[&str], text: &str) -> Result<Vec<String>, GpuError> {
    let bad = |why: String| GpuError::Compile(format!("{var}: {why}"));
    text.split_whitespace()
        .map(|token| {
            let (name, value) = cuda::switch(token, prefix)
                .ok_or_else(|| bad(format!("{token:?} is not -D{prefix}NAME=NUMBER")))?;
            if fixed.contains(&name) {
                return Err(bad(format!(
                    "{prefix}{name} is the host's launch shape, not a switch"
                )));
            }
            if name == "MIN_BLOCKS" && !(1..=8).contains(&value) {
                return Err(bad(format!("{prefix}MIN_BLOCKS must be from 1 to 8")));
            }
            Ok(token.to_string())
        })
        .collect()
}

/// The blocks a multiprocessor must hold at once with `defines` (from [`make_defines`] or
/// [`join_defines`], whose names start with `prefix`): the last `MIN_BLOCKS` there, else
/// `default`. The kernel is compiled for at most 65,536 / (256 x it) registers a thread.
///
/// ```
/// use nqueens::engine::device::gpu::{cuda_join::min_blocks, make::MIN_BLOCKS};
/// assert_eq!(min_blocks(&[], "NQM_", MIN_BLOCKS), MIN_BLOCKS);
/// assert_eq!(min_blocks(&["-DNQM_MIN_BLOCKS=6".to_string()], "NQM_", MIN_BLOCKS), 6);
/// assert_eq!(min_blocks(&["-DNQM_MIN_BLOCKS=6".to_string()], "NQJ_", 4), 4);
/// ```
#[must_use]
pub fn min_blocks(defines: &[String], prefix: &str, default: u32) -> u32 {
    defines
        .iter()
        .rev()
        .filter_map(|token| cuda::switch(token, prefix))
        .find(|&(name, _)| name == "MIN_BLOCKS")
        .map_or(default, |(_, value)| value as u32)
}

/// `defines` but their `MIN_BLOCKS`, which the compile functions pass once, resolved.
fn without_min_blocks<'a>(
    defines: &'a [String],
    prefix: &'a str,
) -> impl Iterator<Item = String> + 'a {
    defines
        .iter()
        .filter(move |token| !matches!(cuda::switch(token, prefix), Some(("MIN_BLOCKS", _))))
        .cloned()
}

/// Compiles the making kernels ([`MAKE_SOURCE`]) for `arch`, with `defines` from
/// [`make_defines`]; `verbose` asks ptxas for its resource report.
///
/// # Errors
/// [`GpuError::NoNvrtc`] without NVRTC, [`GpuError::Compile`] if it does not compile.
pub fn compile_make(arch: &str, defines: &[String], verbose: bool) -> Result<Compiled, GpuError> {
    let mut options = vec![
        format!("-DNQM_BLOCK={}", make::BLOCK),
        format!(
            "-DNQM_MIN_BLOCKS={}",
            min_blocks(defines, "NQM_", make::MIN_BLOCKS)
        ),
        format!("-DNQM_TILE_STORED={TILE_WORDS}"),
    ];
    options.extend(without_min_blocks(defines, "NQM_"));
    cuda::compile_source(MAKE_SOURCE, c"nqueens_make.cu", arch, options, verbose)
}

/// The switches the environment sets: the count kernel's, then the making kernels'.
///
/// # Errors
/// As [`make_defines`] and [`join_defines`].
pub fn defines_from_env() -> Result<(Vec<String>, Vec<String>), GpuError> {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    Ok((
        join_defines(&var("NQUEENS_GPU_JOIN_DEFINES"))?,
        make_defines(&var("NQUEENS_GPU_MAKE_DEFINES"))?,
    ))
}

/// What a slot holds.
enum Slot {
    Free,
    Busy(Box<InFlight>),
}

/// One batch on the device.
struct InFlight {
    /// Joins: `sums` has one more when there are none.
    joins: usize,
    /// Each join's sum.
    sums: CudaSlice<u64>,
    _slot_sums: CudaSlice<u64>,
    status: CudaSlice<u32>,
    // Kept until the kernels are done with them: the plan and the board, the glued words,
    // the packed words (low and high halves), the class tables and the tiles.
    _plan: [CudaSlice<u64>; 3],
    _tops: [CudaSlice<u64>; 2],
    _top_counts: CudaSlice<u32>,
    _made: [CudaSlice<u32>; 4],
    events: (CudaEvent, CudaEvent),
    // Recorded between the making kernels and the count.
    made_at: CudaEvent,
}

/// The quarter lists in device memory: entries and starts, left then right.
struct Quarters {
    slices: [CudaSlice<u64>; 4],
}

/// The first GPU as a [`JoinBackend`]: two streams, one per slot.
pub struct CudaJoin {
    context: Arc<CudaContext>,
    streams: [Arc<CudaStream>; 2],
    glue_tops: CudaFunction,
    make: CudaFunction,
    join: CudaFunction,
    sum: CudaFunction,
    origin: CudaEvent,
    resident: usize,
    quarters: Option<Quarters>,
    board: [u64; BOARD_WORDS],
    slots: [Slot; 2],
}

impl CudaJoin {
    /// Opens the first GPU and compiles the kernels for it and the count's `layout`.
    ///
    /// # Errors
    /// [`GpuError`]: no driver, NVRTC or device; a kernel not compiling.
    pub fn new(layout: Layout) -> Result<CudaJoin, GpuError> {
        let context = cuda::first_gpu()?;
        let (major, minor) = context.compute_capability().map_err(driver_error)?;
        let arch = format!("sm_{major}{minor}");
        let load = |compiled: Compiled, name: &str| {
            context
                .load_module(Ptx::from_binary(compiled.cubin))
                .and_then(|module| module.load_function(name))
                .map_err(driver_error)
        };
        let (join_defines, make_defines) = defines_from_env()?;
        let function = load(
            compile(&arch, layout.chunks, layout.wide, &join_defines, false)?,
            "nq_join",
        )?;
        let make_module = context
            .load_module(Ptx::from_binary(
                compile_make(&arch, &make_defines, false)?.cubin,
            ))
            .map_err(driver_error)?;
        let make = make_module.load_function("nq_make").map_err(driver_error)?;
        let glue_tops = make_module
            .load_function("nq_glue_tops")
            .map_err(driver_error)?;
        let sum = make_module
            .load_function("nq_sum_joins")
            .map_err(driver_error)?;
        let sms = context
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(driver_error)? as usize;
        let per_sm = function
            .occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)
            .map_err(driver_error)?
            .max(1) as usize;
        let streams = [
            context.new_stream().map_err(driver_error)?,
            context.new_stream().map_err(driver_error)?,
        ];
        let origin = streams[0]
            .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(driver_error)?;
        Ok(CudaJoin {
            context,
            streams,
            glue_tops,
            make,
            join: function,
            sum,
            origin,
            resident: sms * per_sm * BLOCK as usize,
            quarters: None,
            board: [0; BOARD_WORDS],
            slots: [Slot::Free, Slot::Free],
        })
    }

    /// The device's name, as the driver gives it.
    pub fn name(&self) -> String {
        self.context
            .name()
            .unwrap_or_else(|_| "an NVIDIA GPU".into())
    }

    /// Threads resident on the device at once.
    pub fn resident_threads(&self) -> usize {
        self.resident
    }
}

impl JoinBackend for CudaJoin {
    fn load(&mut self, tables: QuarterTables, board: [u64; BOARD_WORDS]) -> Result<u64, GpuError> {
        let lists: u64 = tables
            .iter()
            .map(|(entries, start)| 8 * (entries.len() + start.len()) as u64)
            .sum();
        let bits = batch_bits(&self.context, lists, "the join needs")?;
        let stream = &self.streams[0];
        let upload = |v: &[u64]| stream.clone_htod(v).map_err(driver_error);
        let starts = |s: &[usize]| s.iter().map(|&x| x as u64).collect::<Vec<u64>>();
        let [(left, left_start), (right, right_start)] = tables;
        self.quarters = Some(Quarters {
            slices: [
                upload(left)?,
                upload(&starts(left_start))?,
                upload(right)?,
                upload(&starts(right_start))?,
            ],
        });
        stream.synchronize().map_err(driver_error)?;
        self.board = board;
        Ok(1 << bits)
    }

    fn submit(&mut self, slot: usize, plan: &Plan) -> Result<(), GpuError> {
        plan.check()?;
        let quarters = self
            .quarters
            .as_ref()
            .ok_or_else(|| GpuError::Driver("a batch before the quarter lists".into()))?;
        let stream = &self.streams[slot];
        let words = plan.words.max(1) as usize;
        let joins = plan.join_count();
        let slots = plan.slots as usize;
        // SAFETY (the uninitialised buffers below): the kernels read no place they did not
        // write first. `nq_make` writes each join's glued words before reading them (up to its
        // count), the packed words at the places its class table gives, the class table's
        // `3 << k` starts and end (all `nq_join` reads of it), every tile slot of the join (a
        // tile, or empty) and the join's status; `nq_join` writes a sum for every slot, and
        // `nq_sum_joins` one for every join.
        let alloc32 = |len: usize| unsafe { stream.alloc::<u32>(len.max(1)) }.map_err(driver_error);
        let wide = self.board[4] != 0;
        let plan_slices = [
            stream.clone_htod(&plan.joins).map_err(driver_error)?,
            stream.clone_htod(&self.board).map_err(driver_error)?,
            // SAFETY: as for `alloc32`.
            unsafe { stream.alloc::<u64>(words) }.map_err(driver_error)?,
        ];
        // A narrow batch never has its high halves written or read: it gets one word.
        let made = [
            alloc32(words)?,
            alloc32(if wide { words } else { 1 })?,
            alloc32(2 * TABLE * joins)?,
            alloc32(TILE_RECORD * slots)?,
        ];
        let status = alloc32(STATUS_WORDS * joins)?;
        let top_count = plan.top_count();
        let tops = stream.clone_htod(&plan.tops).map_err(driver_error)?;
        // SAFETY: as for `alloc32`: `nq_glue_tops` writes each top's entries (up to its count)
        // and its count before `nq_make` reads them.
        let top_staging = unsafe { stream.alloc::<u64>((plan.top_places as usize).max(1)) }
            .map_err(driver_error)?;
        let top_counts = alloc32(top_count)?;
        // SAFETY: as for `alloc32`.
        let sums = unsafe { stream.alloc::<u64>(slots.max(1)) }.map_err(driver_error)?;
        // SAFETY: as for `alloc32`.
        let join_sums = unsafe { stream.alloc::<u64>(joins.max(1)) }.map_err(driver_error)?;
        let start = stream
            .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(driver_error)?;
        // Both making kernels start with the quarter lists and the tops: `nq_glue_tops` glues
        // the tops, `nq_make` reads them. A block per top or per join.
        let making = |function| {
            let mut launch = stream.launch_builder(function);
            for list in &quarters.slices {
                launch.arg(list);
            }
            launch.arg(&tops).arg(&top_staging).arg(&top_counts);
            launch
        };
        let blocks = |n: usize| LaunchConfig {
            grid_dim: (n as u32, 1, 1),
            block_dim: (make::BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        if top_count > 0 {
            let mut launch = making(&self.glue_tops);
            // SAFETY: the arguments match `nq_glue_tops`'s parameters in order and type: the
            // quarter lists (entries and 64-bit starts, left then right, as the plan's keys
            // were taken from), the plan's tops (one block each: `top_count` of them), a place
            // for each top's bound of entries (`Plan::add_task` gives each top the next ones;
            // the glue writes no more than its bound) and a count per top.
            unsafe { launch.launch(blocks(top_count)) }.map_err(driver_error)?;
        }
        if joins > 0 {
            let mut launch = making(&self.make);
            for input in &plan_slices {
                launch.arg(input);
            }
            for output in &made {
                launch.arg(output);
            }
            launch.arg(&status);
            // SAFETY: the arguments match `nq_make`'s parameters in order and type: the
            // quarter lists (entries and 64-bit starts, left then right, as the plan's keys
            // were taken from), the tops with their entries and counts just glued (each join's
            // top one of them, `plan.check`; it reads at most its count or bound), the plan's
            // join records (one block each: `joins` of them) and the board, then a place per
            // planned word for the glued words and for the packed words' low and high halves
            // (high only written for wide words, which get as many), two class tables per
            // join, a tile record per slot and a status per join. The plan's bounds are exact
            // upper bounds of what a join makes and the kernel writes no more (an overflow
            // goes to the status); indices fit 32 bits (`plan.check`).
            unsafe { launch.launch(blocks(joins)) }.map_err(driver_error)?;
        }
        let made_at = stream
            .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(driver_error)?;
        if slots > 0 {
            let mut launch = stream.launch_builder(&self.join);
            for input in &made {
                launch.arg(input);
            }
            let n_tiles = slots as u32;
            launch.arg(&n_tiles).arg(&sums);
            // As many blocks as the device holds at once, each taking tiles in turn.
            let blocks = (self.resident / BLOCK as usize).clamp(1, slots) as u32;
            let config = LaunchConfig {
                grid_dim: (blocks, 1, 1),
                block_dim: (BLOCK, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: the arguments match `nq_join`'s parameters in order and type: the packed
            // words' low and high halves, the class tables and the tiles just made (`slots` of
            // them, fewer than 2^31, `plan.check`), their number, and a sum per slot.
            // `nq_make` wrote every slot: a tile of 1 to TILE_WORDS words of one class within
            // the join's words, its query table within the join's tables, or an empty one,
            // which the kernel skips. (A join that overflowed its plan wrote only empty slots.)
            unsafe { launch.launch(config) }.map_err(driver_error)?;
        }
        if joins > 0 {
            let n_joins = joins as u32;
            let mut launch = stream.launch_builder(&self.sum);
            launch
                .arg(&plan_slices[0])
                .arg(&sums)
                .arg(&n_joins)
                .arg(&join_sums);
            let config = LaunchConfig::for_num_elems(n_joins);
            // SAFETY: the arguments match `nq_sum_joins`'s parameters in order and type: the
            // plan's join records (one thread each, `n_joins` of them; the launch's other
            // threads do nothing), whose tile slots lie within `sums`, one sum per slot, and a
            // sum per join.
            unsafe { launch.launch(config) }.map_err(driver_error)?;
        }
        let end = stream
            .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(driver_error)?;
        self.slots[slot] = Slot::Busy(Box::new(InFlight {
            joins,
            _slot_sums: sums,
            sums: join_sums,
            status,
            _plan: plan_slices,
            _tops: [tops, top_staging],
            _top_counts: top_counts,
            _made: made,
            events: (start, end),
            made_at,
        }));
        Ok(())
    }

    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        let batch = match std::mem::replace(&mut self.slots[slot], Slot::Free) {
            Slot::Busy(batch) => batch,
            Slot::Free => panic!("collect follows submit"),
        };
        let stream = &self.streams[slot];
        let status = stream.clone_dtoh(&batch.status).map_err(driver_error)?;
        let mut collected =
            cuda::collected(stream, &batch.sums, Some(&batch.events), Some(&self.origin))?;
        check_status(&status)?;
        collected.making = f64::from(
            batch
                .events
                .0
                .elapsed_ms(&batch.made_at)
                .map_err(driver_error)?,
        ) / 1e3;
        collected.counts.truncate(batch.joins);
        Ok(collected)
    }
}
