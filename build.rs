//! With the `cuda` feature, compiles the GPU kernels' sources (`src/engine/device/gpu/kernel.cu`,
//! the backtracking search, `src/engine/device/gpu/join.cu`, the join's pair count, and
//! `src/engine/device/gpu/make.cu`, the join's words made from the quarter lists) with the
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
    // The files are CUDA C++ by name; without `__CUDACC__` they are plain C++ for the host.
    let build = |lib: &str, source: &str, defines: &[(&str, &str)]| {
        println!("cargo:rerun-if-changed={source}");
        let mut build = cc::Build::new();
        build
            .cpp(true)
            .flag("-x")
            .flag("c++")
            .opt_level(3)
            .file(source);
        for (name, value) in defines {
            build.define(name, *value);
        }
        build
            .flag_if_supported("-Wall")
            .flag_if_supported("-Wextra");
        if ubsan {
            build
                .flag("-fsanitize=undefined")
                .flag("-fno-sanitize-recover=undefined");
        }
        build.compile(lib);
    };
    build(
        "nqueens_kernel_host",
        "src/engine/device/gpu/kernel.cu",
        &[],
    );
    // The join's kernel twice, as counts compile it: 32-bit words (N up to 23), and words
    // with a high half, with chunks enough for every board the join counts.
    build(
        "nqueens_join_narrow",
        "src/engine/device/gpu/join.cu",
        &[
            ("NQJ_WIDE", "0"),
            ("NQJ_CHUNKS", "7"),
            ("NQJ_HOST_NAME", "nq_join_host_narrow"),
        ],
    );
    build(
        "nqueens_join_wide",
        "src/engine/device/gpu/join.cu",
        &[
            ("NQJ_WIDE", "1"),
            ("NQJ_CHUNKS", "10"),
            ("NQJ_HOST_NAME", "nq_join_host_wide"),
        ],
    );
    // Both again with the switch that lists each tile's classes once (NQJ_CLASS_LIST, for
    // timing on a GPU), so that the tests check it counts the same.
    build(
        "nqueens_join_narrow_listed",
        "src/engine/device/gpu/join.cu",
        &[
            ("NQJ_WIDE", "0"),
            ("NQJ_CHUNKS", "7"),
            ("NQJ_CLASS_LIST", "1"),
            ("NQJ_HOST_NAME", "nq_join_host_narrow_listed"),
        ],
    );
    build(
        "nqueens_join_wide_listed",
        "src/engine/device/gpu/join.cu",
        &[
            ("NQJ_WIDE", "1"),
            ("NQJ_CHUNKS", "10"),
            ("NQJ_CLASS_LIST", "1"),
            ("NQJ_HOST_NAME", "nq_join_host_wide_listed"),
        ],
    );
    // The join's words made from the quarter lists: one copy, the word width is an argument.
    build("nqueens_make_host", "src/engine/device/gpu/make.cu", &[]);
    // Again with the switch that claims a warp's places a class at a time (NQM_CLASS_CLAIM),
    // its entry points suffixed, so that the tests check it makes the same words.
    build(
        "nqueens_make_host_claim",
        "src/engine/device/gpu/make.cu",
        &[("NQM_CLASS_CLAIM", "1"), ("NQM_HOST_SUFFIX", "_claim")],
    );
    if ubsan {
        println!("cargo:rustc-link-lib=ubsan");
    }
}
