//! `puzzles`: the library's generator of puzzles with one completion.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::puzzle::{Difficulty, Generator, Puzzles};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::convert::{board_size, natural, one_thread, positive, value_error};
use crate::interrupt::interruptible;

/// One puzzle as a tuple: `(n, givens, blocked, solution, difficulty, (guesses, depth,
/// failures, propagations))`, squares and columns 0-based.
type PuzzleTuple = (
    usize,
    Vec<(usize, usize)>,
    Vec<(usize, usize)>,
    Vec<u32>,
    &'static str,
    (u64, u32, u64, u64),
);

/// What a user calls a [`PuzzleIter`], in the message for two threads at once.
const PUZZLES: &str = "a puzzles() iterator";

/// The iterator of `puzzles(n, ...)`: the library's generator, one batch of puzzles made per
/// `__next__` that finds none ready, without the GIL, on another thread while the calling
/// thread looks at Python's signals ([`interruptible`]): Ctrl-C raises the generator's stop
/// flag, which it looks at between two proofs of uniqueness.
#[pyclass(module = "nqueens._nqueens")]
pub(crate) struct PuzzleIter {
    /// `None` once Ctrl-C has stopped the run: the batch it cut short is not made again.
    puzzles: Option<Puzzles<'static>>,
    stop: &'static AtomicBool,
    /// A board below [`WATCHED_FROM`] rows: its puzzles are made on the calling thread.
    small: bool,
}

/// From this size up a batch of puzzles is made on another thread while the calling one looks
/// at Ctrl-C. Below it a puzzle takes well under a second (33 µs for N = 8), and starting a
/// thread per `__next__` made 3,000 puzzles of N = 8 take ten times as long: Python looks at
/// Ctrl-C between two calls.
const WATCHED_FROM: usize = 16;

/// The stop flags of the iterators gone. The generator keeps its flag by a `'static`
/// reference (a `PuzzleIter` cannot lend it one of its own fields), so each flag is allocated
/// once and used again by a later iterator: as many as iterators were ever alive at once.
static FLAGS: Mutex<Vec<&'static AtomicBool>> = Mutex::new(Vec::new());

fn flag() -> &'static AtomicBool {
    let used = FLAGS.lock().unwrap_or_else(|e| e.into_inner()).pop();
    used.unwrap_or_else(|| Box::leak(Box::new(AtomicBool::new(false))))
}

impl Drop for PuzzleIter {
    fn drop(&mut self) {
        // The generator first: nothing looks at the flag after it.
        self.puzzles = None;
        self.stop.store(false, Ordering::Relaxed);
        FLAGS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(self.stop);
    }
}

#[pymethods]
impl PuzzleIter {
    #[new]
    #[pyo3(signature = (n, *, count=None, seed=None, blocked=false, minimal=false, difficulty=None, threads=None))]
    fn new(
        n: &Bound<'_, PyAny>,
        count: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        blocked: bool,
        minimal: bool,
        difficulty: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let n = board_size(n)?;
        let mut generator = Generator::new(n).map_err(value_error)?;
        let count = count.map(|c| natural(c, "count")).transpose()?.unwrap_or(1);
        let difficulty = difficulty
            .map(str::parse::<Difficulty>)
            .transpose()
            .map_err(value_error)?;
        generator = generator
            .seed(seed.map(|s| natural(s, "seed")).transpose()?.unwrap_or(0))
            .blocked(blocked)
            .minimal(minimal)
            .difficulty(difficulty);
        if let Some(threads) = threads {
            let t = positive(threads, "threads")?;
            generator = generator.threads(usize::try_from(t).unwrap_or(usize::MAX));
        }
        let stop = flag();
        Ok(PuzzleIter {
            puzzles: Some(generator.stop_when(stop).puzzles(count)),
            stop,
            small: n < WATCHED_FROM,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<Option<PuzzleTuple>> {
        let mut this = one_thread(slf, PUZZLES)?;
        let (stop, small) = (this.stop, this.small);
        let Some(puzzles) = this.puzzles.as_mut() else {
            return Ok(None);
        };
        let (next, interrupted) = if small {
            (py.detach(|| puzzles.next()), None)
        } else {
            interruptible(py, stop, || puzzles.next(), || Ok(()))
        };
        if let Some(e) = interrupted {
            this.puzzles = None;
            return Err(e);
        }
        let Some(made) = next else {
            return Ok(None);
        };
        let puzzle = made.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let inst = puzzle.instance();
        let m = puzzle.measures();
        Ok(Some((
            inst.n(),
            inst.fixed().collect(),
            inst.blocked().collect(),
            puzzle.solution().cols().to_vec(),
            puzzle.difficulty().name(),
            (m.guesses, m.depth, m.failures, m.propagations),
        )))
    }
}
