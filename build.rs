//! With the `cuda` feature, compiles the GPU kernels' sources (`src/engine/device/gpu/kernel.cu`,
//! the backtracking search, and `src/engine/device/gpu/join.cu`, the join's pair count) with the
//! host C++ compiler, so that they run on the CPU in the tests (the GPU build of the same files
//! is made at run time, by NVRTC). Without the feature it does nothing.
//!
//! `NQUEENS_KERNEL_UBSAN=1` builds it with UndefinedBehaviorSanitizer: a shift by 32 or more,
//! which x86 and the GPU answer differently, then stops the test that makes it.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "cuda")]
    host_kernel();
}

#[cfg(feature = "cuda")]
fn host_kernel() {
    println!("cargo:rerun-if-env-changed=NQUEENS_KERNEL_UBSAN");
    let ubsan = std::env::var("NQUEENS_KERNEL_UBSAN").is_ok_and(|v| v == "1");
    let mut build = cc::Build::new();
    // The files are CUDA C++ by name; without `__CUDACC__` they are plain C++ for the host.
    build.cpp(true).flag("-x").flag("c++").opt_level(3);
    for source in [
        "src/engine/device/gpu/kernel.cu",
        "src/engine/device/gpu/join.cu",
    ] {
        println!("cargo:rerun-if-changed={source}");
        build.file(source);
    }
    build
        .flag_if_supported("-Wall")
        .flag_if_supported("-Wextra");
    if ubsan {
        build
            .flag("-fsanitize=undefined")
            .flag("-fno-sanitize-recover=undefined");
    }
    build.compile("nqueens_kernel_host");
    if ubsan {
        println!("cargo:rustc-link-lib=ubsan");
    }
}
