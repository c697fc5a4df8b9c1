//! The join kernel (`join.cu`) on the GPU, through `cudarc`: compiled by NVRTC when a count
//! starts, for the GPU's own architecture and the count's [`Layout`].

use std::sync::Arc;

use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use cudarc::driver::{
    CudaContext, CudaEvent, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;

use super::cuda::{self, Compiled, driver_error};
use super::join::{GROUPS, JoinBackend, JoinBatch, Layout};
use super::{Collected, GpuError};

/// The join kernel's source, compiled by NVRTC at run time (and by the host compiler for the
/// tests).
pub const SOURCE: &str = include_str!("join.cu");

/// Threads per block (`NQJ_BLOCK`): eight warps share a tile's table.
pub const BLOCK: u32 = 256;

/// Blocks per multiprocessor the kernel is compiled to allow (`NQJ_MIN_BLOCKS`): with 8
/// chunks a tile's table takes 32 KB of the 228 KB of shared memory an H100 multiprocessor
/// has, so 6 or 7 blocks fit; asking for 4 leaves the compiler 64 registers a thread.
pub const MIN_BLOCKS: u32 = 4;

/// The most registers per thread the launch configuration allows.
///
/// ```
/// assert_eq!(nqueens::engine::device::gpu::cuda_join::MAX_REGISTERS, 64);
/// ```
pub const MAX_REGISTERS: u32 = 65536 / (BLOCK * MIN_BLOCKS);

/// Bytes of words and tiles at which a batch stops taking tasks: 1 GiB. The group of tasks
/// added last may take it past that, about to twice as much (groups double as a batch grows).
pub const MAX_BATCH_BYTES: usize = 1 << 30;

/// Device memory reserved for two batches in flight, each up to twice [`MAX_BATCH_BYTES`],
/// with a margin for the module and the streams: what [`CudaJoin::new`] asks to be free. A
/// batch larger still (one task of more than 2 GiB of words, past N = 26) fails to allocate:
/// one error line, the tasks reported before it exact.
///
/// ```
/// let bytes = nqueens::engine::device::gpu::cuda_join::device_bytes();
/// assert!(bytes > 4 << 30 && bytes < 5 << 30);
/// ```
pub fn device_bytes() -> u64 {
    2 * 2 * MAX_BATCH_BYTES as u64 + (256 << 20)
}

/// Compiles [`SOURCE`] for `arch` (`"sm_90"` for Hopper) with `chunks` chunks of 5 bits and
/// 32-bit words or not (`wide`), as a count's [`Layout`] says; `verbose` asks ptxas for its
/// resource report. Needs NVRTC only, no driver and no GPU.
///
/// # Errors
/// [`GpuError::NoNvrtc`] without NVRTC, [`GpuError::Compile`] if it does not compile.
pub fn compile(arch: &str, chunks: usize, wide: bool, verbose: bool) -> Result<Compiled, GpuError> {
    let options = vec![
        format!("-DNQJ_BLOCK={BLOCK}"),
        format!("-DNQJ_MIN_BLOCKS={MIN_BLOCKS}"),
        format!("-DNQJ_GROUPS={GROUPS}"),
        format!("-DNQJ_CHUNKS={chunks}"),
        format!("-DNQJ_WIDE={}", u8::from(wide)),
    ];
    cuda::compile_source(SOURCE, c"nqueens_join.cu", arch, options, verbose)
}

/// What a slot holds.
enum Slot {
    Free,
    /// A batch without tiles: nothing to launch.
    Empty,
    Busy(Box<InFlight>),
}

/// One batch on the device.
struct InFlight {
    sums: CudaSlice<u64>,
    // Kept until the kernel is done with them: words (low and high halves), class tables,
    // tiles.
    _inputs: [CudaSlice<u32>; 4],
    events: Option<(CudaEvent, CudaEvent)>,
}

/// The first GPU as a [`JoinBackend`]: two streams, one per slot.
pub struct CudaJoin {
    context: Arc<CudaContext>,
    streams: [Arc<CudaStream>; 2],
    function: CudaFunction,
    origin: CudaEvent,
    resident: usize,
    slots: [Slot; 2],
}

impl CudaJoin {
    /// Opens the first GPU, checks that two batches fit its free memory, and compiles the
    /// kernel for it and the count's `layout`.
    ///
    /// # Errors
    /// [`GpuError`]: no driver, NVRTC or device; too little free memory
    /// ([`GpuError::Driver`], before any work); the kernel not compiling.
    pub fn new(layout: Layout) -> Result<CudaJoin, GpuError> {
        cuda::available()?;
        let context = CudaContext::new(0).map_err(driver_error)?;
        let (free, _) = context.mem_get_info().map_err(driver_error)?;
        if (free as u64) < device_bytes() {
            return Err(GpuError::Driver(format!(
                "the GPU has {} MiB free; the join's batches need {} MiB",
                free >> 20,
                device_bytes() >> 20
            )));
        }
        let (major, minor) = context.compute_capability().map_err(driver_error)?;
        let arch = format!("sm_{major}{minor}");
        let compiled = compile(&arch, layout.chunks, layout.wide, false)?;
        let module = context
            .load_module(Ptx::from_binary(compiled.cubin))
            .map_err(driver_error)?;
        let function = module.load_function("nq_join").map_err(driver_error)?;
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
            function,
            origin,
            resident: sms * per_sm * BLOCK as usize,
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
    fn submit(&mut self, slot: usize, batch: &JoinBatch) -> Result<(), GpuError> {
        let tiles = batch.tile_count();
        if tiles == 0 {
            self.slots[slot] = Slot::Empty;
            return Ok(());
        }
        // What the kernel's reads rely on: every tile within the words, and no larger than
        // its table.
        batch.check()?;
        let grid = u32::try_from(tiles)
            .ok()
            .filter(|&g| g < 1 << 31)
            .ok_or_else(|| GpuError::Driver(format!("a batch of {tiles} tiles is too large")))?;
        let stream = &self.streams[slot];
        let upload = |v: &[u32]| stream.clone_htod(v).map_err(driver_error);
        // A narrow kernel never reads the high halves: it is given one word.
        let high = if batch.wide {
            &batch.high[..]
        } else {
            &[0u32][..]
        };
        let inputs = [
            upload(&batch.low)?,
            upload(high)?,
            upload(&batch.starts)?,
            upload(&batch.tiles)?,
        ];
        let sums = stream.alloc_zeros::<u64>(tiles).map_err(driver_error)?;
        let config = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut launch = stream.launch_builder(&self.function);
        for input in &inputs {
            launch.arg(input);
        }
        launch
            .arg(&sums)
            .record_kernel_launch(CUevent_flags::CU_EVENT_DEFAULT);
        // SAFETY: the arguments match `nq_join`'s parameters in order and type: the words'
        // low and high halves (the high ones only read by a wide kernel, which a wide batch
        // gets, as long as the low ones), the class tables, the tiles (one block each: `grid`
        // of them; each stores 1 to TILE_WORDS words within the words, and its class table
        // lies within the tables and runs in order within the words, checked above), and one
        // sum per tile. The kernel reads and writes nothing else; its table is static shared
        // memory of the size it was compiled for.
        let events = unsafe { launch.launch(config) }.map_err(driver_error)?;
        self.slots[slot] = Slot::Busy(Box::new(InFlight {
            sums,
            _inputs: inputs,
            events,
        }));
        Ok(())
    }

    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        let batch = match std::mem::replace(&mut self.slots[slot], Slot::Free) {
            Slot::Busy(batch) => batch,
            Slot::Empty => return Ok(Collected::default()),
            Slot::Free => panic!("collect follows submit"),
        };
        cuda::collected(
            &self.streams[slot],
            &batch.sums,
            batch.events.as_ref(),
            Some(&self.origin),
        )
    }
}
