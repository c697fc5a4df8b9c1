//! `puzzles`: the library's generator of puzzles with one completion.

use nqueens::puzzle::{Difficulty, Generator, Puzzles};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::convert::{board_size, natural, positive, value_error};

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

/// The iterator of `puzzles(n, ...)`: the library's generator, one batch of puzzles made per
/// `__next__` that finds none ready, without the GIL.
#[pyclass(module = "nqueens._nqueens")]
pub(crate) struct PuzzleIter {
    puzzles: Puzzles<'static>,
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
        let mut generator = Generator::new(board_size(n)?).map_err(value_error)?;
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
        Ok(PuzzleIter {
            puzzles: generator.puzzles(count),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> PyResult<Option<PuzzleTuple>> {
        let puzzles = &mut slf.puzzles;
        let next = py.detach(move || puzzles.next());
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
