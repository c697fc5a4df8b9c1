//! Compiles the GPU kernel with NVRTC (no driver, no GPU needed) and checks ptxas's report:
//! fails on register spills or on more registers than the launch configuration allows.
//! CI runs it for Hopper with NVRTC from the Python package index:
//!
//! ```text
//! cargo run --features cuda --example gpu_kernel -- sm_90 [CUBIN]
//! ```
//!
//! With a second argument it also writes the machine code there, to read with
//! `nvdisasm -c CUBIN` or `cuobjdump -sass CUBIN`. `NQUEENS_GPU_DEFINES` sets the kernel's
//! switches, as for a count.
use nqueens::engine::device::gpu::cuda::{self, Resources};

fn main() {
    let arch = std::env::args().nth(1).unwrap_or_else(|| "sm_90".into());
    // The largest items, so the most shared memory: the configuration that must fit; with the
    // switches of NQUEENS_GPU_DEFINES, if any.
    let remaining = nqueens::engine::device::gpu::MAX_REMAINING;
    let defines = std::env::var("NQUEENS_GPU_DEFINES").unwrap_or_default();
    let compiled = match cuda::tuning_defines(&defines, remaining)
        .and_then(|defines| cuda::compile(&arch, remaining, &defines, true))
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    print!("{}", compiled.log);
    let Some(r) = Resources::parse(&compiled.log) else {
        eprintln!("error: no resource report for nq_count in the compiler's log");
        std::process::exit(1);
    };
    println!(
        "nq_count for {arch}: {} registers (at most {}), {} bytes shared per block, {} bytes stack, {} bytes spilled; {} bytes of machine code",
        r.registers,
        cuda::MAX_REGISTERS,
        r.shared_bytes,
        r.stack_bytes,
        r.spill_bytes,
        compiled.cubin.len()
    );
    if let Some(path) = std::env::args().nth(2)
        && let Err(e) = std::fs::write(&path, &compiled.cubin)
    {
        eprintln!("error: cannot write {path}: {e}");
        std::process::exit(1);
    }
    if let Some(problem) = r.problem() {
        eprintln!("error: the kernel has {problem}");
        std::process::exit(1);
    }
}
