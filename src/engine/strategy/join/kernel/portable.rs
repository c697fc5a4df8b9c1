//! The kernel for any CPU: `pext` in software, the lanes as plain arrays.

use super::Kernel;

/// Any CPU: the trait's plain-Rust steps, with `pext` one step per bit of the mask.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine::strategy::join) struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn gather(self, x: u64, mask: u64) -> u64 {
        let (mut out, mut m, mut bit) = (0, mask, 0);
        while m != 0 {
            let low = m & m.wrapping_neg();
            out |= u64::from(x & low != 0) << bit;
            bit += 1;
            m ^= low;
        }
        out
    }
}
