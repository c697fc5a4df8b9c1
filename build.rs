//! With the `cuda` feature, compiles the GPU kernel's source (`src/engine/device/gpu/kernel.cu`) with
//! the host C++ compiler, so that its per-thread search runs on the CPU in the tests (the GPU
//! build of the same file is made at run time, by NVRTC). Without the feature it does nothing.
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
    let source = "src/engine/device/gpu/kernel.cu";
    println!("cargo:rerun-if-changed={source}");
    let ubsan = std::env::var("NQUEENS_KERNEL_UBSAN").is_ok_and(|v| v == "1");
    let mut build = cc::Build::new();
    // The file is CUDA C++ by name; without `__CUDACC__` it is plain C++ for the host.
    build
        .cpp(true)
        .flag("-x")
        .flag("c++")
        .file(source)
        .opt_level(3);
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
