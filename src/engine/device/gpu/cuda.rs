//! The GPU itself, through `cudarc`: the driver and NVRTC are loaded at run time.
//!
//! `cudarc` panics when it cannot load a library, and the release build aborts on a panic, so
//! [`available`] checks for both libraries (`is_culib_present`) before any CUDA call, and every
//! entry point here goes through it. The kernel is compiled when a count starts, by NVRTC, for
//! the GPU's own architecture (machine code, no PTX left for the driver to compile), and kept
//! on disk for the next count ([`super::kernel_cache`]).

use std::sync::{Arc, OnceLock};

use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use cudarc::driver::{
    CudaContext, CudaEvent, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::{Ptx, result as nvrtc, sys as nvrtc_sys};

use super::{Backend, Collected, GpuError, kernel_cache};

/// The kernel's source, compiled by NVRTC at run time (and by the host compiler for the tests).
pub const SOURCE: &str = include_str!("kernel.cu");

/// Threads per block, as the kernel is compiled (`NQ_BLOCK`).
pub const BLOCK: u32 = 128;

/// Blocks per multiprocessor the kernel is compiled to allow (`NQ_MIN_BLOCKS`): with its
/// shared-memory stacks this is what fits, so the compiler may use up to
/// `65536 / (BLOCK * MIN_BLOCKS)` registers per thread, and no more.
pub const MIN_BLOCKS: u32 = 8;

/// The most registers per thread the launch configuration allows.
///
/// ```
/// assert_eq!(nqueens::engine::device::gpu::cuda::MAX_REGISTERS, 64);
/// ```
pub const MAX_REGISTERS: u32 = 65536 / (BLOCK * MIN_BLOCKS);

/// `Ok` if a GPU can count here: the driver and NVRTC load and the driver sees a device.
/// Checked once per process; the answer says which of them is missing.
///
/// # Errors
/// [`GpuError`] saying what is missing: the driver, NVRTC or a device.
pub fn available() -> Result<(), GpuError> {
    static ANSWER: OnceLock<Result<(), GpuError>> = OnceLock::new();
    ANSWER
        .get_or_init(|| {
            libraries()?;
            match CudaContext::device_count() {
                Ok(0) => Err(GpuError::NoDevice("it counts 0 devices".into())),
                Ok(_) => Ok(()),
                Err(e) => Err(GpuError::NoDevice(e.to_string())),
            }
        })
        .clone()
}

/// `Ok` if the driver library and NVRTC can be loaded (no device needed).
fn libraries() -> Result<(), GpuError> {
    // SAFETY: these only try to load the libraries by name (dlopen); no CUDA call is made.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(GpuError::NoDriver);
    }
    // SAFETY: as above.
    if !unsafe { nvrtc_sys::is_culib_present() } {
        return Err(GpuError::NoNvrtc);
    }
    Ok(())
}

/// The first GPU's context, opened once per process: a count asks first whether the GPU can
/// hold it and then counts, and every context the driver makes afresh costs a few tenths of a
/// second.
///
/// # Errors
/// [`GpuError`] if no GPU can count here, or the driver cannot open it.
pub(super) fn first_gpu() -> Result<Arc<CudaContext>, GpuError> {
    static CONTEXT: OnceLock<Result<Arc<CudaContext>, GpuError>> = OnceLock::new();
    available()?;
    CONTEXT
        .get_or_init(|| CudaContext::new(0).map_err(driver_error))
        .clone()
}

/// The kernel compiled for one architecture, with the compiler's report.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// Machine code (a cubin) for the architecture asked for.
    pub cubin: Vec<u8>,
    /// What NVRTC and ptxas said: registers, shared memory, stack frame and spills when
    /// `verbose`.
    pub log: String,
}

/// The kernel's switches from `NQUEENS_GPU_DEFINES`, for measuring a change to `kernel.cu`
/// behind a `#define` on a GPU without rebuilding (docs/gpu.md): space-separated
/// `-DNQ_NAME=NUMBER`. `NQ_REMAINING` may only make the stacks larger than items of
/// `remaining` free rows need; `NQ_BLOCK` is the host's launch shape, not a switch.
///
/// ```
/// use nqueens::engine::device::gpu::cuda::tuning_defines;
/// assert_eq!(tuning_defines("-DNQ_MIN_BLOCKS=6  -DNQ_REMAINING=15", 12).unwrap().len(), 2);
/// assert!(tuning_defines("-DNQ_BLOCK=256", 12).is_err());
/// assert!(tuning_defines("-DNQ_REMAINING=10", 12).is_err());
/// assert!(tuning_defines("--use_fast_math", 12).is_err());
/// ```
///
/// # Errors
/// [`GpuError::Compile`] for a switch that is not `-DNQ_NAME=NUMBER`, or a value the launch
/// cannot take.
pub fn tuning_defines(text: &str, remaining: usize) -> Result<Vec<String>, GpuError> {
    let bad = |why: String| GpuError::Compile(format!("NQUEENS_GPU_DEFINES: {why}"));
    text.split_whitespace()
        .map(|token| {
            let (name, value) = switch(token, "NQ_")
                .ok_or_else(|| bad(format!("{token:?} is not -DNQ_NAME=NUMBER")))?;
            if name == "BLOCK" {
                return Err(bad(format!(
                    "NQ_BLOCK is fixed at the launch's {BLOCK} threads"
                )));
            }
            if name == "REMAINING" && !(remaining..=super::MAX_REMAINING).contains(&value) {
                return Err(bad(format!(
                    "NQ_REMAINING must be from {remaining} (the items' free rows) to {}",
                    super::MAX_REMAINING
                )));
            }
            Ok(token.to_string())
        })
        .collect()
}

/// `token` read as a kernel's switch, `-D{prefix}NAME=NUMBER` (NAME in capitals and `_`): the
/// NAME and the NUMBER.
pub(super) fn switch<'a>(token: &'a str, prefix: &str) -> Option<(&'a str, usize)> {
    let (name, value) = token
        .strip_prefix("-D")?
        .strip_prefix(prefix)?
        .split_once('=')?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') {
        return None;
    }
    Some((name, value.parse().ok()?))
}

/// Compiles [`SOURCE`] for `arch` (`"sm_90"` for Hopper) and items of at most `remaining` free
/// rows (which sizes the stacks in shared memory) with NVRTC, with `defines` from
/// [`tuning_defines`]; `verbose` asks ptxas for its resource report. Needs NVRTC only, no
/// driver and no GPU.
///
/// # Errors
/// [`GpuError`] if NVRTC is missing or the kernel does not compile.
pub fn compile(
    arch: &str,
    remaining: usize,
    defines: &[String],
    verbose: bool,
) -> Result<Compiled, GpuError> {
    let mut options = vec![
        format!("-DNQ_BLOCK={BLOCK}"),
        format!("-DNQ_MIN_BLOCKS={MIN_BLOCKS}"),
    ];
    if !defines.iter().any(|d| d.starts_with("-DNQ_REMAINING=")) {
        options.push(format!(
            "-DNQ_REMAINING={}",
            remaining.min(super::MAX_REMAINING)
        ));
    }
    options.extend_from_slice(defines);
    compile_source(SOURCE, c"nqueens_kernel.cu", arch, options, verbose)
}

/// Compiles `source` (called `name` in the compiler's messages) for `arch` with NVRTC and
/// `options` (`verbose`: with ptxas's resource report). Needs NVRTC only, no driver and no
/// GPU. `NQUEENS_GPU_LINEINFO=1` adds the source's line numbers to the machine code (the code
/// itself is unchanged), for a profiler to say which lines the warps wait on.
pub(super) fn compile_source(
    source: &str,
    name: &std::ffi::CStr,
    arch: &str,
    mut options: Vec<String>,
    verbose: bool,
) -> Result<Compiled, GpuError> {
    options.insert(0, format!("--gpu-architecture={arch}"));
    if std::env::var_os("NQUEENS_GPU_LINEINFO").is_some_and(|v| v == "1") {
        options.push("--generate-line-info".into());
    }
    // Compiled before on this machine: kept (a report is asked of a fresh compile only).
    let kept = (!verbose)
        .then(kernel_cache::dir)
        .flatten()
        .map(|dir| kernel_cache::file(&dir, source, &options));
    if let Some(cubin) = kept.as_deref().and_then(kernel_cache::read) {
        return Ok(Compiled {
            cubin,
            log: String::new(),
        });
    }
    // Compiling needs NVRTC only, not the driver.
    // SAFETY: this only tries to load the library by name (dlopen); no CUDA call is made.
    if !unsafe { nvrtc_sys::is_culib_present() } {
        return Err(GpuError::NoNvrtc);
    }
    let mut source = source.to_owned();
    if verbose {
        options.push("--ptxas-options=-v".into());
        // NVRTC 13 keeps what ptxas made, across processes, and gives no report for code it
        // assembled before, even when a define differs (seen on H100 and H200 machines): an
        // empty kernel of its own makes each report's code new.
        let fresh = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        source.push_str(&format!(
            "\nextern \"C\" __global__ void nq_report_{}_{fresh}(void) {{}}\n",
            std::process::id()
        ));
    }
    let source = std::ffi::CString::new(source).expect("the kernel source has no NUL");
    let program = nvrtc::create_program(&source, Some(name)).map_err(compile_error)?;
    // SAFETY: `program` was just created and is destroyed once, below; `source` and `name`
    // outlive it.
    let compiled = unsafe { nvrtc::compile_program(program, &options) };
    // SAFETY: as above.
    let log = unsafe { nvrtc::get_program_log(program) }
        .map(|raw| {
            let bytes: Vec<u8> = raw
                .iter()
                .take_while(|&&c| c != 0)
                .map(|&c| c as u8)
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .unwrap_or_default();
    let cubin = compiled
        .map_err(|e| GpuError::Compile(format!("{e:?}: {log}")))
        .and_then(|()| {
            let mut size = 0usize;
            // SAFETY: the program compiled; the buffer is given the size NVRTC reports.
            unsafe {
                nvrtc_sys::nvrtcGetCUBINSize(program, &mut size)
                    .result()
                    .map_err(compile_error)?;
                let mut cubin = vec![0u8; size];
                nvrtc_sys::nvrtcGetCUBIN(program, cubin.as_mut_ptr().cast())
                    .result()
                    .map_err(compile_error)?;
                Ok(cubin)
            }
        });
    // SAFETY: `program` is destroyed once, after its last use.
    let _ = unsafe { nvrtc::destroy_program(program) };
    let cubin = cubin?;
    if let Some(path) = &kept {
        kernel_cache::keep(path, &cubin);
    }
    Ok(Compiled { cubin, log })
}

fn compile_error(e: nvrtc::NvrtcError) -> GpuError {
    GpuError::Compile(format!("{e:?}"))
}

pub(super) fn driver_error(e: cudarc::driver::DriverError) -> GpuError {
    GpuError::Driver(e.to_string())
}

/// What a slot holds.
enum Slot {
    /// Nothing submitted.
    Free,
    /// A batch without items: nothing to launch.
    Empty,
    /// A batch on the device.
    Busy(InFlight),
}

/// One batch on the device.
struct InFlight {
    counts: CudaSlice<u64>,
    // Kept until the kernel is done with them.
    _items: CudaSlice<u32>,
    _next: CudaSlice<u32>,
    events: Option<(CudaEvent, CudaEvent)>,
}

/// The first GPU as a [`Backend`]: two streams, one per slot.
pub struct Cuda {
    context: Arc<CudaContext>,
    streams: [Arc<CudaStream>; 2],
    function: CudaFunction,
    frames: Option<CudaSlice<u64>>,
    // Recorded when the frames are loaded: batches' spans are measured from it.
    origin: Option<CudaEvent>,
    grid: u32,
    slots: [Slot; 2],
}

impl Cuda {
    /// Opens the first GPU and compiles the kernel for it, for items of at most `remaining`
    /// free rows.
    ///
    /// # Errors
    /// [`GpuError`] if no GPU can count here, or the kernel does not compile or load.
    pub fn new(remaining: usize) -> Result<Cuda, GpuError> {
        let context = first_gpu()?;
        let (major, minor) = context.compute_capability().map_err(driver_error)?;
        let defines = tuning_defines(
            &std::env::var("NQUEENS_GPU_DEFINES").unwrap_or_default(),
            remaining,
        )?;
        let compiled = compile(&format!("sm_{major}{minor}"), remaining, &defines, false)?;
        let module = context
            .load_module(Ptx::from_binary(compiled.cubin))
            .map_err(driver_error)?;
        let function = module.load_function("nq_count").map_err(driver_error)?;
        let sms = context
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(driver_error)? as u32;
        let per_sm = function
            .occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)
            .map_err(driver_error)?
            .max(1);
        let streams = [
            context.new_stream().map_err(driver_error)?,
            context.new_stream().map_err(driver_error)?,
        ];
        Ok(Cuda {
            context,
            streams,
            function,
            frames: None,
            origin: None,
            grid: sms * per_sm,
            slots: [Slot::Free, Slot::Free],
        })
    }

    /// The device's name, as the driver gives it.
    pub fn name(&self) -> String {
        self.context
            .name()
            .unwrap_or_else(|_| "an NVIDIA GPU".into())
    }
}

impl Backend for Cuda {
    fn load_frames(&mut self, frames: &[u64]) -> Result<(), GpuError> {
        let copy = self.streams[0].clone_htod(frames).map_err(driver_error)?;
        // The other stream's kernels read the frames too: wait for the copy once.
        self.streams[0].synchronize().map_err(driver_error)?;
        self.frames = Some(copy);
        let origin = self.streams[0]
            .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(driver_error)?;
        self.origin = Some(origin);
        Ok(())
    }

    fn width(&self) -> usize {
        (self.grid * BLOCK) as usize
    }

    fn submit(&mut self, slot: usize, items: &[u32]) -> Result<(), GpuError> {
        let n = items.len() / super::ITEM_WORDS;
        if n == 0 {
            self.slots[slot] = Slot::Empty;
            return Ok(());
        }
        let too_large = || GpuError::Driver(format!("a batch of {n} items is too large"));
        let n32 = u32::try_from(n).map_err(|_| too_large())?;
        let stream = &self.streams[slot];
        let frames = self
            .frames
            .as_ref()
            .expect("frames are loaded before a batch");
        let items_dev = stream.clone_htod(items).map_err(driver_error)?;
        let counts = stream.alloc_zeros::<u64>(n).map_err(driver_error)?;
        let next = stream.alloc_zeros::<u32>(1).map_err(driver_error)?;
        let config = LaunchConfig {
            grid_dim: (self.grid.min(n32.div_ceil(BLOCK)), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut launch = stream.launch_builder(&self.function);
        launch
            .arg(&items_dev)
            .arg(&n32)
            .arg(frames)
            .arg(&counts)
            .arg(&next)
            .record_kernel_launch(CUevent_flags::CU_EVENT_DEFAULT);
        // SAFETY: the arguments match `nq_count`'s parameters in order and type: the items
        // (`n32` whole items), their number, the frame table that every item's frame index
        // points into (items and table are made from the same task list), one count per item,
        // and the shared counter, zeroed. The kernel reads and writes nothing else.
        let events = unsafe { launch.launch(config) }.map_err(driver_error)?;
        self.slots[slot] = Slot::Busy(InFlight {
            counts,
            _items: items_dev,
            _next: next,
            events,
        });
        Ok(())
    }

    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        let batch = match std::mem::replace(&mut self.slots[slot], Slot::Free) {
            Slot::Busy(batch) => batch,
            Slot::Empty => return Ok(Collected::default()),
            Slot::Free => panic!("collect follows submit"),
        };
        collected(
            &self.streams[slot],
            &batch.counts,
            batch.events.as_ref(),
            self.origin.as_ref(),
        )
    }
}

/// Waits for a launch on `stream` and reads its `counts` back, with when it ran (seconds from
/// `origin`, from its two `events`; zero without them).
///
/// # Errors
/// [`GpuError::Driver`] if the device fails.
pub(super) fn collected(
    stream: &Arc<CudaStream>,
    counts: &CudaSlice<u64>,
    events: Option<&(CudaEvent, CudaEvent)>,
    origin: Option<&CudaEvent>,
) -> Result<Collected, GpuError> {
    let counts = stream.clone_dtoh(counts).map_err(driver_error)?;
    stream.synchronize().map_err(driver_error)?;
    let span = match (events, origin) {
        (Some((start, end)), Some(origin)) => {
            let at = |e: &CudaEvent| -> Result<f64, GpuError> {
                Ok(f64::from(origin.elapsed_ms(e).map_err(driver_error)?) / 1e3)
            };
            (at(start)?, at(end)?)
        }
        _ => (0.0, 0.0),
    };
    Ok(Collected {
        counts,
        span,
        making: 0.0,
    })
}

/// What ptxas reports of the kernel's resources (from a [`compile`] with `verbose`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Registers per thread.
    pub registers: u32,
    /// Bytes of static shared memory per block.
    pub shared_bytes: u32,
    /// Bytes of stack frame per thread (local memory the code asked for).
    pub stack_bytes: u32,
    /// Bytes stored and loaded to local memory because registers ran out.
    pub spill_bytes: u32,
}

impl Resources {
    /// Reads the report of the `nq_count` kernel from a ptxas log; `None` if it has none.
    ///
    /// ```
    /// use nqueens::engine::device::gpu::cuda::Resources;
    /// let log = "ptxas info    : Compiling entry function 'nq_count' for 'sm_90'\n\
    ///            ptxas info    : Function properties for nq_count\n\
    ///                0 bytes stack frame, 0 bytes spill stores, 4 bytes spill loads\n\
    ///            ptxas info    : Used 40 registers, used 0 barriers, 24576 bytes smem, 400 bytes cmem[0]\n";
    /// let r = Resources::parse(log).unwrap();
    /// assert_eq!((r.registers, r.shared_bytes, r.stack_bytes, r.spill_bytes), (40, 24576, 0, 4));
    /// ```
    pub fn parse(log: &str) -> Option<Resources> {
        Resources::parse_kernel(log, "nq_count")
    }

    /// Reads the report of the kernel called `kernel` from a ptxas log; `None` if it has none.
    pub fn parse_kernel(log: &str, kernel: &str) -> Option<Resources> {
        let entry = log.find(&format!("entry function '{kernel}'"))?;
        let log = &log[entry..];
        let number_before = |line: &str, unit: &str| -> Option<u32> {
            let end = line.find(unit)?;
            line[..end].split_whitespace().last()?.parse().ok()
        };
        let mut r = Resources::default();
        let mut seen = false;
        for line in log.lines() {
            if line.contains("stack frame") {
                r.stack_bytes = number_before(line, "bytes stack frame")?;
                r.spill_bytes = number_before(line, "bytes spill stores")?
                    + number_before(line, "bytes spill loads")?;
            }
            if line.contains("Used") && line.contains("registers") {
                r.registers = number_before(line, "registers")?;
                r.shared_bytes = number_before(line, "bytes smem").unwrap_or(0);
                seen = true;
                break;
            }
        }
        seen.then_some(r)
    }

    /// Why this kernel would run worse than its launch configuration plans, if it would:
    /// spills, or more registers than [`MAX_REGISTERS`].
    ///
    /// ```
    /// use nqueens::engine::device::gpu::cuda::Resources;
    /// let fine = Resources { registers: 40, ..Default::default() };
    /// assert_eq!(fine.problem(), None);
    /// let spills = Resources { registers: 64, spill_bytes: 8, ..Default::default() };
    /// assert!(spills.problem().unwrap().contains("spill"));
    /// ```
    pub fn problem(&self) -> Option<String> {
        self.problem_for(MAX_REGISTERS, BLOCK, MIN_BLOCKS)
    }

    /// Why a kernel launched in blocks of `block` threads, `min_blocks` of them per
    /// multiprocessor (so at most `max_registers` registers a thread), would run worse than
    /// planned, if it would: spills, or more registers than that.
    pub fn problem_for(&self, max_registers: u32, block: u32, min_blocks: u32) -> Option<String> {
        if self.spill_bytes > 0 {
            Some(format!("{} bytes of register spills", self.spill_bytes))
        } else if self.registers > max_registers {
            Some(format!(
                "{} registers per thread, more than the {max_registers} that {min_blocks} blocks of {block} threads per multiprocessor allow",
                self.registers
            ))
        } else {
            None
        }
    }
}
