//! `nqueens.regions`: queens with regions (the daily "Queens" game), the library's
//! [`nqueens::region`]: a board read from its text or JSON form, solved, counted, listed,
//! checked, rated and drawn, and puzzles generated.
//!
//! The listing and the generator run on a thread of their own that hands its results over
//! through a bounded channel, so that Python takes them one at a time (memory stays bounded)
//! and Ctrl-C stops them: [`interruptible`] waits for the next one and raises the stop flag
//! they heed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};

use nqueens::region::{
    Board, Broken, Difficulty, GenerateError, Generator, MAX_N, Puzzle, Rating, RegionError,
    Search, Step, hint, html, rate, svg, verify,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::convert::{board_size, natural, positive, squares, type_name, value_error};
use crate::interrupt::interruptible;

/// A cell, 0-based: `(row, col)`.
type Cell = (usize, usize);

/// A step of the rating solver: `(rule, queens, crosses, reason)`.
type StepTuple = (&'static str, Vec<Cell>, Vec<Cell>, String);

/// A rating: `(difficulty, steps, queens, stuck)`.
type RatingTuple = (&'static str, Vec<StepTuple>, Vec<Cell>, Option<String>);

/// A generated puzzle: `(board, solution, rating)`.
type PuzzleTuple = (RegionBoard, Vec<usize>, RatingTuple);

/// A region board (the library's [`Board`]): regions, queens and crosses.
#[pyclass(frozen, module = "nqueens._nqueens")]
pub(crate) struct RegionBoard {
    board: Board,
}

#[pymethods]
impl RegionBoard {
    /// The board `source` gives: a text or JSON form (`str`), or its rows (an iterable of
    /// `str`), with more queens and crosses, `(row, col)` from 0.
    #[new]
    #[pyo3(signature = (source, *, queens=None, crosses=None))]
    fn new(
        source: &Bound<'_, PyAny>,
        queens: Option<&Bound<'_, PyAny>>,
        crosses: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut board = if let Ok(text) = source.cast::<PyString>() {
            Board::parse(&text.to_cow()?).map_err(value_error)?
        } else {
            let mut rows = Vec::new();
            for row in source.try_iter().map_err(|_| not_rows(source))? {
                // An endless iterator is refused at the first row past the largest grid.
                if rows.len() == MAX_N {
                    return Err(value_error(RegionError::TooLarge { n: MAX_N + 1 }));
                }
                let row = row?;
                let text = row.cast::<PyString>().map_err(|_| not_rows(&row))?;
                rows.push(text.to_cow()?.into_owned());
            }
            let json = serde_json::json!({ "regions": rows }).to_string();
            Board::parse(&json).map_err(value_error)?
        };
        let n = board.n();
        for (marks, queen, what) in [(queens, true, "queens"), (crosses, false, "crosses")] {
            let Some(marks) = marks else { continue };
            for cell in squares(marks, n, what)? {
                board.mark(cell, queen).map_err(value_error)?;
            }
        }
        Ok(RegionBoard { board })
    }

    #[getter]
    fn n(&self) -> usize {
        self.board.n()
    }

    /// The region of each cell, row by row, numbered from 0 in the order they first appear.
    fn regions(&self) -> Vec<usize> {
        self.board.regions().collect()
    }

    /// The letter of each region.
    fn labels(&self) -> String {
        (0..self.board.n()).map(|g| self.board.label(g)).collect()
    }

    fn queens(&self) -> Vec<Cell> {
        self.board.queens().to_vec()
    }

    fn crosses(&self) -> Vec<Cell> {
        self.board.crosses().to_vec()
    }

    fn text(&self) -> String {
        self.board.to_text()
    }

    fn json(&self) -> String {
        self.board.to_json()
    }

    fn svg(&self) -> String {
        svg::draw(&self.board)
    }

    fn terminal(&self) -> String {
        svg::terminal(&self.board)
    }

    fn page(&self) -> String {
        html::page(&self.board)
    }

    /// The first solution's columns, or `None`.
    fn first(&self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        let stop = AtomicBool::new(false);
        let search = Search::new(&self.board).stop_when(&stop);
        let (found, interrupted) = interruptible(py, &stop, || search.first(), || Ok(()));
        match interrupted {
            Some(e) => Err(e),
            None => Ok(found.unwrap_or(None)),
        }
    }

    /// The number of solutions, up to `limit`, and whether the limit stopped the count.
    #[pyo3(signature = (limit=None))]
    fn count(&self, py: Python<'_>, limit: Option<&Bound<'_, PyAny>>) -> PyResult<(u64, bool)> {
        let stop = AtomicBool::new(false);
        let mut search = Search::new(&self.board).stop_when(&stop);
        if let Some(limit) = limit {
            search = search.limit(positive(limit, "limit")?);
        }
        let (counted, interrupted) = interruptible(py, &stop, || search.count(), || Ok(()));
        if let Some(e) = interrupted {
            return Err(e);
        }
        let counted = counted.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok((counted.solutions, counted.limited))
    }

    /// The rule `queens` (`(row, col)` pairs from 0) break, as `(kind, message)`, or `None`.
    fn defect(&self, queens: &Bound<'_, PyAny>) -> PyResult<Option<(&'static str, String)>> {
        let n = self.board.n();
        let mut cells = Vec::new();
        for cell in queens.try_iter().map_err(|_| not_pairs(queens, "queens"))? {
            if cells.len() == n * n {
                return Err(PyValueError::new_err(format!(
                    "more than {} queens for a {n} x {n} grid",
                    n * n
                )));
            }
            let cell = cell?;
            let (r, c): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
                cell.extract().map_err(|_| not_pairs(&cell, "queens"))?;
            let index = |v: &Bound<'_, PyAny>, what| -> PyResult<usize> {
                let v = natural(v, what)?;
                Ok(usize::try_from(v).unwrap_or(usize::MAX))
            };
            cells.push((index(&r, "a row")?, index(&c, "a column")?));
        }
        Ok(verify(&self.board, &cells).err().map(|broken| {
            let kind = match broken {
                Broken::OffGrid { .. } => "off-grid",
                Broken::Row { .. } => "row",
                Broken::Column { .. } => "column",
                Broken::Region { .. } => "region",
                Broken::Touching { .. } => "touching",
                Broken::Missing { .. } => "missing",
            };
            (kind, broken.to_string())
        }))
    }

    /// The rating solver's run from the board's marks.
    fn rate(&self, py: Python<'_>) -> RatingTuple {
        let board = &self.board;
        rating_tuple(py.detach(|| rate(board)))
    }

    /// The next deduction from the board's marks, or why there is none (`(None, None)`:
    /// solved).
    fn hint(&self, py: Python<'_>) -> (Option<StepTuple>, Option<String>) {
        let board = &self.board;
        match py.detach(|| hint(board)) {
            Ok(step) => (step.map(step_tuple), None),
            Err(why) => (None, Some(why)),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<RegionBoard>()
            .is_ok_and(|o| o.get().board == self.board)
    }
}

fn not_rows(obj: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "a board is its text or JSON form (a str) or its rows (str), not {}",
        type_name(obj)
    ))
}

fn not_pairs(obj: &Bound<'_, PyAny>, what: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "{what} must be (row, column) pairs, not {}",
        type_name(obj)
    ))
}

fn step_tuple(step: Step) -> StepTuple {
    (step.rule.name(), step.queens, step.crosses, step.reason)
}

fn rating_tuple(rating: Rating) -> RatingTuple {
    (
        rating.difficulty.name(),
        rating.steps.into_iter().map(step_tuple).collect(),
        rating.queens,
        rating.stuck,
    )
}

/// What a thread of its own hands over one at a time, until it ends or `stop` is raised (by
/// Ctrl-C, or when Python drops the iterator).
struct Feed<T> {
    items: Mutex<Receiver<T>>,
    stop: Arc<AtomicBool>,
}

impl<T: Send + 'static> Feed<T> {
    /// Runs `make` on a thread of its own with the stop flag and a function that hands an item
    /// over (`false` once no one takes them); at most `ahead` items wait.
    fn start(
        ahead: usize,
        make: impl FnOnce(&AtomicBool, &dyn Fn(T) -> bool) + Send + 'static,
    ) -> Self {
        let (tx, rx) = sync_channel(ahead);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        std::thread::spawn(move || make(&flag, &|item| tx.send(item).is_ok()));
        Feed {
            items: Mutex::new(rx),
            stop,
        }
    }

    /// The next item, `None` at the end; Ctrl-C stops the thread and raises.
    fn next(&self, py: Python<'_>) -> PyResult<Option<T>> {
        let items = &self.items;
        let (item, interrupted) = interruptible(
            py,
            &self.stop,
            || items.lock().unwrap_or_else(|e| e.into_inner()).recv().ok(),
            || Ok(()),
        );
        match interrupted {
            Some(e) => Err(e),
            None => Ok(item),
        }
    }
}

impl<T> Drop for Feed<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The solutions of a board, as `solutions()` lists them: columns, one solution at a time.
#[pyclass(module = "nqueens._nqueens")]
pub(crate) struct RegionSolutionIter {
    feed: Feed<Vec<usize>>,
}

#[pymethods]
impl RegionSolutionIter {
    #[new]
    #[pyo3(signature = (board, *, limit=None))]
    fn new(board: &Bound<'_, RegionBoard>, limit: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let limit = limit.map(|l| positive(l, "limit")).transpose()?;
        let board = board.get().board.clone();
        let feed = Feed::start(256, move |stop, hand| {
            let mut search = Search::new(&board).stop_when(stop);
            if let Some(limit) = limit {
                search = search.limit(limit);
            }
            // Stopped (by Ctrl-C or a dropped iterator): the list simply ends.
            let _ = search.for_each(|columns| {
                if !hand(columns.to_vec()) {
                    stop.store(true, Ordering::Relaxed);
                }
            });
        });
        Ok(RegionSolutionIter { feed })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        self.feed.next(py)
    }
}

/// Generated puzzles, in order, one at a time.
#[pyclass(module = "nqueens._nqueens")]
pub(crate) struct RegionPuzzleIter {
    feed: Feed<Result<Puzzle, GenerateError>>,
}

#[pymethods]
impl RegionPuzzleIter {
    #[new]
    #[pyo3(signature = (n, *, count=None, seed=None, difficulty=None, threads=None))]
    fn new(
        n: &Bound<'_, PyAny>,
        count: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        difficulty: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut generator = Generator::new(board_size(n)?).map_err(value_error)?;
        let count = count.map(|c| natural(c, "count")).transpose()?.unwrap_or(1);
        let seed = seed.map(|s| natural(s, "seed")).transpose()?.unwrap_or(0);
        let difficulty = difficulty.map(difficulty_of).transpose()?;
        generator = generator.seed(seed).difficulty(difficulty);
        if let Some(threads) = threads {
            let t = positive(threads, "threads")?;
            generator = generator.threads(usize::try_from(t).unwrap_or(usize::MAX));
        }
        let feed = Feed::start(1, move |stop, hand| {
            for puzzle in generator.stop_when(stop).puzzles(count) {
                if !hand(puzzle) {
                    break;
                }
            }
        });
        Ok(RegionPuzzleIter { feed })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PuzzleTuple>> {
        let Some(made) = self.feed.next(py)? else {
            return Ok(None);
        };
        let puzzle = made.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(Some((
            RegionBoard {
                board: puzzle.board,
            },
            puzzle.solution,
            rating_tuple(puzzle.rating),
        )))
    }
}

/// A difficulty by its name.
fn difficulty_of(obj: &Bound<'_, PyAny>) -> PyResult<Difficulty> {
    let all = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::NeedsGuessing,
    ];
    let name = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("difficulty must be a str, not {}", type_name(obj)))
    })?;
    let name = name.to_cow()?;
    all.into_iter().find(|d| d.name() == name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "difficulty must be easy, medium, hard or needs-guessing, not {name:?}"
        ))
    })
}

/// Registers the classes of `nqueens.regions` in the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RegionBoard>()?;
    m.add_class::<RegionSolutionIter>()?;
    m.add_class::<RegionPuzzleIter>()?;
    Ok(())
}
