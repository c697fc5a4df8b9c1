//! The GPU kernel compiled for the CPU: the same per-thread search, called through C.
//!
//! The build script compiles `kernel.cu` with the host C++ compiler (no `__CUDACC__`, so the
//! `__global__` wrapper is left out and two plain entry points are compiled instead). The tests
//! check it against the CPU engine task by task, and [`Host`] stands in for the device so that
//! the batching and bookkeeping of [`super::count_tasks`] are tested without a GPU.

use rayon::prelude::*;

use super::{Backend, Collected, FRAME_WORDS, GpuError, ITEM_WORDS};
use crate::engine::strategy::backtrack::constellation::{Frame, Start};

unsafe extern "C" {
    fn nq_host_count_item(
        frame: *const u64,
        levels: u32,
        level: u32,
        cols: u32,
        left: u32,
        right: u32,
    ) -> u64;
    fn nq_host_count(items: *const u32, n_items: u32, frames: *const u64, counts: *mut u64);
}

/// The completions of `start` in `frame`, counted by the kernel's per-thread search on the CPU.
///
/// ```
/// use nqueens::engine::strategy::backtrack::{constellation::{constellations, Frame, Start}, kernel};
/// use nqueens::engine::device::gpu::host;
/// let frame = Frame::new(10, &constellations(10)[3]);
/// assert_eq!(host::count(&frame, Start::default()), kernel::count(&frame, Start::default()));
/// ```
pub fn count(frame: &Frame, start: Start) -> u64 {
    let words = super::frame_words(frame);
    assert!(start.level <= frame.levels && frame.levels <= FRAME_WORDS);
    // SAFETY: `words` holds FRAME_WORDS words, every level the search reads (below `levels`,
    // at most 32); the host entry point keeps a stack of 32 levels, enough for any frame.
    unsafe {
        nq_host_count_item(
            words.as_ptr(),
            frame.levels as u32,
            start.level as u32,
            start.cols,
            start.left,
            start.right,
        )
    }
}

/// The kernel on the CPU as a [`Backend`]: `submit` keeps the items, `collect` counts them on
/// the current rayon pool, in chunks, each in the kernel's order.
#[derive(Debug, Default)]
pub struct Host {
    frames: Vec<u64>,
    slots: [Vec<u32>; 2],
    origin: Option<std::time::Instant>,
}

impl Backend for Host {
    fn load_frames(&mut self, frames: &[u64]) -> Result<(), GpuError> {
        self.frames = frames.to_vec();
        self.origin = Some(std::time::Instant::now());
        Ok(())
    }

    fn submit(&mut self, slot: usize, items: &[u32]) -> Result<(), GpuError> {
        self.slots[slot] = items.to_vec();
        Ok(())
    }

    fn collect(&mut self, slot: usize) -> Result<Collected, GpuError> {
        let origin = self.origin.expect("frames are loaded before a batch");
        let started = origin.elapsed().as_secs_f64();
        let items = std::mem::take(&mut self.slots[slot]);
        let mut counts = vec![0u64; items.len() / ITEM_WORDS];
        const CHUNK: usize = 64;
        let frame_count = self.frames.len() / FRAME_WORDS;
        counts
            .par_chunks_mut(CHUNK)
            .zip(items.par_chunks(CHUNK * ITEM_WORDS))
            .for_each(|(out, items)| {
                for item in items.chunks(ITEM_WORDS) {
                    let (level, levels) = (item[1] & 0xff, item[1] >> 8);
                    assert!((item[0] as usize) < frame_count && level <= levels && levels <= 32);
                }
                // SAFETY: `items` holds `out.len()` whole items, each naming a frame of
                // `self.frames` with a level no deeper than its frame's 32 levels (asserted
                // above); `out` has room for one count per item.
                unsafe {
                    nq_host_count(
                        items.as_ptr(),
                        out.len() as u32,
                        self.frames.as_ptr(),
                        out.as_mut_ptr(),
                    )
                }
            });
        let span = (started, origin.elapsed().as_secs_f64());
        Ok(Collected {
            counts,
            span,
            making: 0.0,
        })
    }
}
