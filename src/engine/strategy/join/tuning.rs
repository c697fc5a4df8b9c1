//! How the join uses a kernel: the choices that depend on what a CPU does fast rather than on
//! what it can do, chosen once at dispatch together with the kernel. The figures behind each
//! choice are in `docs/engine.md`.

use crate::engine::cpu::Isa;

/// The join's policy for one copy of its loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tuning {
    /// Gathering a word's bits is one instruction (`pext`): a sieve may then slice only the
    /// bits its cut rows leave, and gather them per query.
    pub gathers: bool,
    /// The kernel works out many classes at once: the sort stores them before it deals the
    /// words ([`super::sieve::Classes::sort`]).
    pub classifies: bool,
    /// A sieve of [`NARROW`](super::layout::NARROW) lanes costs about half one of
    /// [`WIDE`](super::layout::WIDE) lanes: a side that fits one narrow group is stored in one.
    pub narrow_halves: bool,
    /// Asking half a wide group costs about half of asking all of it: a query class that can
    /// meet only one half of a group is asked of that half.
    pub halves: bool,
}

impl Tuning {
    /// Plain Rust: a loop per bit to gather, so a query reads its chunks in place; half the
    /// lanes are half the steps.
    pub const PORTABLE: Tuning = Tuning {
        gathers: false,
        classifies: false,
        narrow_halves: false,
        halves: true,
    };
    /// AVX2: `pext`; a wide row is two registers, so a narrow sieve or a half group loads one.
    pub const AVX2: Tuning = Tuning {
        gathers: true,
        classifies: false,
        narrow_halves: true,
        halves: true,
    };
    /// AVX-512: `pext`, classes 8 words at a time; on CPUs that split 512-bit operations in two,
    /// a narrow sieve costs half a wide one.
    pub const AVX512: Tuning = Tuning {
        gathers: true,
        classifies: true,
        narrow_halves: true,
        halves: false,
    };

    /// The tuning of the copy `isa`.
    pub fn for_isa(isa: Isa) -> Tuning {
        match isa {
            Isa::Portable => Tuning::PORTABLE,
            Isa::Avx2 => Tuning::AVX2,
            Isa::Avx512 => Tuning::AVX512,
        }
    }
}
