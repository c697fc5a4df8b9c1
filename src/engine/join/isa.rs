//! Proofs that the CPU has the instructions a compiled copy of the join's hot loops uses.
//!
//! A value of these types exists only once the running CPU has been checked for the features,
//! so a function that takes one may be compiled with them (`#[target_feature]`) and called on
//! the strength of the value alone.

/// AVX2 (256-bit vectors), BMI2 (`pext`) and `popcnt`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx2(());

impl Avx2 {
    /// `Some` if the CPU has the features.
    pub fn detect() -> Option<Avx2> {
        (std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt"))
        .then_some(Avx2(()))
    }
}

/// AVX-512 on 512- and 256-bit registers (VL), with a per-lane bit count (`vpopcntq`) and
/// bit shuffles (`vpshufbitqmb`, BITALG), together with everything [`Avx2`] proves.
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx512(());

impl Avx512 {
    /// `Some` if the CPU has the features.
    pub fn detect() -> Option<Avx512> {
        (std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
            && std::is_x86_feature_detected!("avx512bitalg")
            && Avx2::detect().is_some())
        .then_some(Avx512(()))
    }
}
