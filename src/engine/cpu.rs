//! The CPU's instruction sets: the one place the engine asks the CPU what it can run.
//!
//! Both strategies compile their hot loops once per instruction set and pick a copy at run
//! time, so no `target-cpu=native` is needed. [`Isa`] names the copies; [`Isa::detect`] gives
//! the widest this CPU runs (asked once per process), [`Isa::available`] every copy it runs (for
//! tests and benchmarks), and [`Isa::chosen`] the one that counts: the widest, unless the
//! environment variable [`ISA_VARIABLE`] names a narrower one, for comparing the copies.
//!
//! The proofs [`Avx2`] and [`Avx512`] are values that exist only once the CPU has been checked
//! for their features, so a function compiled with those features (`#[target_feature]`) may
//! be called on the strength of holding one. The constraint solver of `crate::cp` holds an
//! [`Avx2`] too, to count its domains with [`Avx2::popcnt`].
//!
//! It also holds `prefetch`, the one cache hint of the hot loops (the join's list, the
//! min-conflicts search, the no-good watches): an instruction every x86-64 CPU has, so it
//! needs no proof.
//!
//! ```
//! use nqueens::engine::cpu::Isa;
//! let widest = Isa::detect();
//! assert_eq!(Isa::available().last(), Some(&widest));
//! assert_eq!(Isa::available()[0], Isa::Portable);
//! assert_eq!("avx2".parse::<Isa>().map(Isa::name), Ok("avx2"));
//! ```

use std::sync::OnceLock;

/// Asks the CPU to start bringing `value`'s cache line in, to be read or written a little
/// later: a hint, which changes nothing the program sees (nothing at all off x86-64). For
/// loops whose next reads land anywhere in memory larger than the caches.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub(crate) fn prefetch<T: ?Sized>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and never faults, whatever the
    // address (and `value` is a valid reference anyway). SSE, which has it, is part of every
    // x86-64 CPU.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast(),
        );
    }
}

/// The environment variable that forces a copy of the hot loops (`portable`, `avx2` or
/// `avx512`), for benchmarks that compare them; unset or empty, the widest the CPU runs counts.
/// A name the CPU cannot run, or no copy has, is an error from [`Isa::from_env`], which
/// [`crate::Counter::check`] reports.
pub const ISA_VARIABLE: &str = "NQUEENS_ISA";

/// A copy of the engine's hot loops, by the instruction set it is compiled for; ordered from
/// the narrowest to the widest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Isa {
    /// Plain Rust, any CPU.
    Portable,
    /// x86-64 with AVX2 (256-bit vectors), BMI1, BMI2 (`pext`) and `popcnt`.
    Avx2,
    /// x86-64 with AVX-512 (F, VL, VPOPCNTDQ and BITALG) and everything [`Isa::Avx2`] has.
    Avx512,
}

/// Why [`ISA_VARIABLE`] cannot be used.
///
/// ```
/// use nqueens::engine::cpu::{Isa, IsaError};
/// let err = "sse9".parse::<Isa>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"unknown instruction set "sse9" in NQUEENS_ISA; the engine has: portable, avx2, avx512"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IsaError {
    /// No copy of the loops has that name.
    #[error("unknown instruction set {0:?} in NQUEENS_ISA; the engine has: portable, avx2, avx512")]
    Unknown(String),
    /// The copy exists, but this CPU cannot run it.
    #[error("NQUEENS_ISA asks for {0}, which this CPU lacks; it runs: {1}")]
    Missing(&'static str, String),
}

impl Isa {
    /// Every copy, narrowest first.
    pub const ALL: [Isa; 3] = [Isa::Portable, Isa::Avx2, Isa::Avx512];

    /// The name used in [`ISA_VARIABLE`] and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// The widest copy this CPU runs, asked of the CPU once per process.
    pub fn detect() -> Isa {
        static WIDEST: OnceLock<Isa> = OnceLock::new();
        *WIDEST.get_or_init(|| {
            if Avx512::detect().is_some() {
                Isa::Avx512
            } else if Avx2::detect().is_some() {
                Isa::Avx2
            } else {
                Isa::Portable
            }
        })
    }

    /// Every copy this CPU runs, narrowest first: what tests compare and benchmarks time.
    pub fn available() -> Vec<Isa> {
        let widest = Isa::detect();
        Isa::ALL.into_iter().filter(|&isa| isa <= widest).collect()
    }

    /// The copy [`ISA_VARIABLE`] asks for, `None` if it is unset or empty.
    ///
    /// # Errors
    /// [`IsaError`] if the variable names no copy, or one this CPU cannot run.
    pub fn from_env() -> Result<Option<Isa>, IsaError> {
        let Some(value) = std::env::var_os(ISA_VARIABLE) else {
            return Ok(None);
        };
        let value = value.to_string_lossy();
        if value.is_empty() {
            return Ok(None);
        }
        let isa: Isa = value.parse()?;
        if isa > Isa::detect() {
            let runs: Vec<_> = Isa::available().into_iter().map(Isa::name).collect();
            return Err(IsaError::Missing(isa.name(), runs.join(", ")));
        }
        Ok(Some(isa))
    }

    /// The copy that counts: the one [`ISA_VARIABLE`] asks for, else the widest this CPU runs
    /// (a value [`Isa::from_env`] rejects counts as unset here; the entry points check it
    /// first). Read once per process.
    pub fn chosen() -> Isa {
        static CHOSEN: OnceLock<Isa> = OnceLock::new();
        *CHOSEN.get_or_init(|| Isa::from_env().ok().flatten().unwrap_or_else(Isa::detect))
    }
}

impl std::fmt::Display for Isa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Isa {
    type Err = IsaError;
    fn from_str(s: &str) -> Result<Isa, IsaError> {
        Isa::ALL
            .into_iter()
            .find(|isa| isa.name() == s)
            .ok_or_else(|| IsaError::Unknown(s.to_string()))
    }
}

/// Proof that the CPU has AVX2, BMI1, BMI2 and `popcnt`.
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

impl Avx2 {
    /// `Some` if the CPU has the features (asked once per process).
    pub fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        {
            static HAS: OnceLock<bool> = OnceLock::new();
            let has = *HAS.get_or_init(|| {
                std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("bmi2")
                    && std::is_x86_feature_detected!("popcnt")
            });
            has.then_some(Avx2(()))
        }
        #[cfg(not(target_arch = "x86_64"))]
        None
    }

    /// The proof for the copy `isa`, if it is at least AVX2 and this CPU has it.
    pub fn for_isa(isa: Isa) -> Option<Avx2> {
        if isa >= Isa::Avx2 {
            Avx2::detect()
        } else {
            None
        }
    }

    /// The set bits of `x`, by the `popcnt` instruction. Written as one instruction of
    /// inline assembly, it goes into any caller, which needs no `#[target_feature]`: code too
    /// large and too generic to compile twice (the constraint solver of `crate::cp`) still
    /// counts in one instruction where plain `count_ones` takes a dozen.
    ///
    /// ```
    /// use nqueens::engine::cpu::Avx2;
    /// if let Some(cpu) = Avx2::detect() {
    ///     assert_eq!(cpu.popcnt(0b1011 << 60), 3);
    ///     assert_eq!(cpu.popcnt(u64::MAX), 64);
    /// }
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn popcnt(self, x: u64) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            let ones: u64;
            // SAFETY: `self` proves the CPU has `popcnt`. The instruction reads and writes
            // two registers and the flags, nothing else.
            unsafe {
                std::arch::asm!(
                    "popcnt {ones}, {x}",
                    x = in(reg) x,
                    ones = lateout(reg) ones,
                    options(pure, nomem, nostack),
                );
            }
            ones as u32
        }
        #[cfg(not(target_arch = "x86_64"))]
        x.count_ones()
    }
}

/// Proof that the CPU has AVX-512 F, VL, VPOPCNTDQ and BITALG, and everything [`Avx2`] proves.
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

impl Avx512 {
    /// `Some` if the CPU has the features (asked once per process).
    pub fn detect() -> Option<Avx512> {
        #[cfg(target_arch = "x86_64")]
        {
            static HAS: OnceLock<bool> = OnceLock::new();
            let has = *HAS.get_or_init(|| {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512vpopcntdq")
                    && std::is_x86_feature_detected!("avx512bitalg")
                    && Avx2::detect().is_some()
            });
            has.then_some(Avx512(()))
        }
        #[cfg(not(target_arch = "x86_64"))]
        None
    }

    /// The proof for the copy `isa`, if it is AVX-512 and this CPU has it.
    pub fn for_isa(isa: Isa) -> Option<Avx512> {
        if isa >= Isa::Avx512 {
            Avx512::detect()
        } else {
            None
        }
    }

    /// What this proof also proves.
    pub fn avx2(self) -> Avx2 {
        Avx2(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_names_are_refused() {
        for isa in Isa::ALL {
            assert_eq!(isa.name().parse::<Isa>(), Ok(isa));
            assert_eq!(isa.to_string(), isa.name());
        }
        assert!(matches!("AVX2".parse::<Isa>(), Err(IsaError::Unknown(_))));
    }

    #[test]
    fn the_proofs_match_what_is_detected() {
        let widest = Isa::detect();
        assert_eq!(Avx2::detect().is_some(), widest >= Isa::Avx2);
        assert_eq!(Avx512::detect().is_some(), widest >= Isa::Avx512);
        for isa in Isa::ALL {
            assert_eq!(
                Avx2::for_isa(isa).is_some(),
                isa >= Isa::Avx2 && isa <= widest
            );
            assert_eq!(
                Avx512::for_isa(isa).is_some(),
                isa == Isa::Avx512 && isa <= widest
            );
        }
        assert!(Isa::available().windows(2).all(|w| w[0] < w[1]));
        assert!(Isa::chosen() <= widest);
    }
}
