//! Compiles every GPU kernel with NVRTC (no driver, no GPU needed) and checks ptxas's report:
//! fails on register spills or on more registers than each kernel's launch configuration
//! allows. CI runs it for Hopper with NVRTC from the Python package index:
//!
//! ```text
//! cargo run --features cuda --example gpu_kernel -- sm_90 [CUBIN]
//! ```
//!
//! The kernels: `nq_count` (the backtracking search, at its largest items), `nq_join` (the
//! join's pair count, for each layout of the boards the GPU counts with the join: 6 chunks of
//! 32-bit words at N = 18 to 21, 7 at N = 22 and 23, wider words from N = 24) and `nq_make`
//! (the join's words made from the quarter lists). With a second argument it also writes the
//! machine code there, to read with `nvdisasm -c` or `cuobjdump -sass`: the backtracking
//! kernel to `CUBIN`, the join's to `CUBIN.join<chunks>[w]`, the making one to `CUBIN.make`. `NQUEENS_GPU_DEFINES` sets the backtracking kernel's
//! switches, `NQUEENS_GPU_JOIN_DEFINES` the count kernel's and `NQUEENS_GPU_MAKE_DEFINES` the
//! making kernels', as for a count.
use nqueens::engine::device::gpu::cuda::{self, Resources};
use nqueens::engine::device::gpu::{cuda_join, join::Layout, make};
use nqueens::engine::strategy::join::{JoinTasks, MAX_N};

fn main() {
    let arch = std::env::args().nth(1).unwrap_or_else(|| "sm_90".into());
    let cubin_path = std::env::args().nth(2);
    let mut failed = false;
    // The largest items, so the most shared memory: the configuration that must fit; with the
    // switches of NQUEENS_GPU_DEFINES, if any.
    let remaining = nqueens::engine::device::gpu::MAX_REMAINING;
    let defines = std::env::var("NQUEENS_GPU_DEFINES").unwrap_or_default();
    let compiled = compiled_or_exit(
        "nq_count",
        cuda::tuning_defines(&defines, remaining)
            .and_then(|defines| cuda::compile(&arch, remaining, &defines, true)),
    );
    failed |= report(
        "nq_count",
        &arch,
        &compiled,
        cubin_path.clone(),
        (cuda::MAX_REGISTERS, cuda::BLOCK, cuda::MIN_BLOCKS),
    );
    let (join_defines, make_defines) = cuda_join::defines_from_env().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let join_blocks = cuda_join::min_blocks(&join_defines, "NQJ_", cuda_join::MIN_BLOCKS);
    let mut layouts: Vec<(usize, bool)> = (nqueens::engine::device::GPU_JOIN_FROM..=MAX_N)
        .filter_map(|n| JoinTasks::new(n).ok())
        .map(|tasks| Layout::of(&tasks))
        .map(|layout| (layout.chunks, layout.wide))
        .collect();
    layouts.dedup();
    for (chunks, wide) in layouts {
        let name = format!("{chunks}{}", if wide { "w" } else { "" });
        let compiled = compiled_or_exit(
            "nq_join",
            cuda_join::compile(&arch, chunks, wide, &join_defines, true),
        );
        failed |= report(
            "nq_join",
            &arch,
            &compiled,
            cubin_path.as_ref().map(|p| format!("{p}.join{name}")),
            (
                65536 / (cuda_join::BLOCK * join_blocks),
                cuda_join::BLOCK,
                join_blocks,
            ),
        );
    }
    // One module holds the making's kernels: compiled once, its one report read for each.
    let make_blocks = cuda_join::min_blocks(&make_defines, "NQM_", make::MIN_BLOCKS);
    let making = compiled_or_exit(
        "nq_make",
        cuda_join::compile_make(&arch, &make_defines, true),
    );
    failed |= report("nq_glue_tops", &arch, &making, None, (255, make::BLOCK, 1));
    failed |= report(
        "nq_make",
        &arch,
        &making,
        cubin_path.as_ref().map(|p| format!("{p}.make")),
        (
            65536 / (make::BLOCK * make_blocks),
            make::BLOCK,
            make_blocks,
        ),
    );
    if failed {
        std::process::exit(1);
    }
}

/// A module compiled, its log printed; exits with 2 if it did not compile.
fn compiled_or_exit(
    kernel: &str,
    compiled: Result<cuda::Compiled, nqueens::engine::device::GpuError>,
) -> cuda::Compiled {
    match compiled {
        Ok(c) => {
            print!("{}", c.log);
            c
        }
        Err(e) => {
            eprintln!("error: {kernel}: {e}");
            std::process::exit(2);
        }
    }
}

/// Prints one kernel's report from its module's log and writes its machine code to `cubin` if
/// asked; `true` if it failed: no report, or a problem in it.
fn report(
    kernel: &str,
    arch: &str,
    compiled: &cuda::Compiled,
    cubin: Option<String>,
    (max_registers, block, min_blocks): (u32, u32, u32),
) -> bool {
    let Some(r) = Resources::parse_kernel(&compiled.log, kernel) else {
        eprintln!("error: no resource report for {kernel} in the compiler's log");
        return true;
    };
    println!(
        "{kernel} for {arch}: {} registers (at most {max_registers}), {} bytes shared per block, {} bytes stack, {} bytes spilled; {} bytes of machine code",
        r.registers,
        r.shared_bytes,
        r.stack_bytes,
        r.spill_bytes,
        compiled.cubin.len()
    );
    if let Some(path) = cubin
        && let Err(e) = std::fs::write(&path, &compiled.cubin)
    {
        eprintln!("error: cannot write {path}: {e}");
        return true;
    }
    if let Some(problem) = r.problem_for(max_registers, block, min_blocks) {
        eprintln!("error: {kernel} has {problem}");
        return true;
    }
    false
}
