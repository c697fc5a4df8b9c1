//! The exact solver: backtracking over bitmasks, one `u64` of open cells per row.
//!
//! A queen on `(r, c)` of region `g` closes column `c` in every row, every cell of `g`, all of
//! row `r`, and the three cells of rows `r - 1` and `r + 1` around `c` (no two queens touch,
//! and only neighbouring rows can touch since each row has one queen). The search picks a unit
//! still without a queen (a row, a column or a region, see [`Order`]) and tries each of its
//! open cells; a unit without an open cell is a dead end.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Board, MAX_N};

/// Which unit the search fills next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The row, column or region with the fewest open cells (ties: rows, then columns, then
    /// regions, lowest first; the first unit with one open cell, or none, at once). The default: it finds forced queens at once, and the proof of
    /// uniqueness of an 11 x 11 puzzle takes tens of nodes (docs/regions.md).
    #[default]
    Fewest,
    /// The rows from top to bottom: the plain backtracking, kept as the baseline.
    Rows,
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found.
    pub solutions: u64,
    /// `true` if the search stopped at its limit, so there may be more.
    pub limited: bool,
    /// Cells tried.
    pub nodes: u64,
}

/// The stop flag was raised before the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stopped before the search ended")]
pub struct Stopped;

/// A search of a board's solutions: those that keep its queens and avoid its crosses.
///
/// ```
/// use nqueens::region::{Board, Order, Search};
/// // Four regions, one per row: every placement of four queens, one per row and column,
/// // none touching, is a solution (2 4 1 3 and 3 1 4 2).
/// let board = Board::parse("AAAA\nBBBB\nCCCC\nDDDD\n").unwrap();
/// assert_eq!(Search::new(&board).count().unwrap().solutions, 2);
/// assert_eq!(Search::new(&board).order(Order::Rows).count().unwrap().solutions, 2);
/// let limited = Search::new(&board).limit(1).count().unwrap();
/// assert!(limited.limited && limited.solutions == 1);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Search<'a> {
    board: &'a Board,
    order: Order,
    limit: Option<u64>,
    stop: Option<&'a AtomicBool>,
    budget: u64,
}

impl<'a> Search<'a> {
    /// All the solutions of `board`, filling the unit with the fewest open cells first.
    pub fn new(board: &'a Board) -> Self {
        Search {
            board,
            order: Order::default(),
            limit: None,
            stop: None,
            budget: u64::MAX,
        }
    }

    /// Gives up with [`Stopped`] past `nodes` cells tried: for the generator, which drops a
    /// grid whose proof runs long rather than wait for it.
    pub(crate) fn budget(mut self, nodes: u64) -> Self {
        self.budget = nodes;
        self
    }

    /// Which unit to fill next.
    #[must_use]
    pub fn order(mut self, order: Order) -> Self {
        self.order = order;
        self
    }

    /// Stops after `limit` solutions (at least 1): a limit of 2 decides uniqueness.
    #[must_use]
    pub fn limit(mut self, limit: u64) -> Self {
        self.limit = Some(limit.max(1));
        self
    }

    /// Stops with [`Stopped`] once `flag` is set; it is looked at every few thousand nodes.
    #[must_use]
    pub fn stop_when(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// The number of solutions, up to the limit.
    ///
    /// # Errors
    /// [`Stopped`] if the stop flag was raised.
    pub fn count(&self) -> Result<Count, Stopped> {
        self.for_each(|_| {})
    }

    /// The first solution (columns by row, from 0), or `None` if there is none.
    ///
    /// # Errors
    /// [`Stopped`] if the stop flag was raised.
    pub fn first(&self) -> Result<Option<Vec<usize>>, Stopped> {
        let mut found = None;
        Search {
            limit: Some(1),
            ..*self
        }
        .for_each(|s| found = Some(s.to_vec()))?;
        Ok(found)
    }

    /// Calls `f` with each solution (columns by row, from 0), up to the limit.
    ///
    /// # Errors
    /// [`Stopped`] if the stop flag was raised; the solutions found until then were handed
    /// to `f`.
    pub fn for_each(&self, mut f: impl FnMut(&[usize])) -> Result<Count, Stopped> {
        let masks = Masks::new(self.board);
        let mut run = Run {
            masks: &masks,
            order: self.order,
            limit: self.limit.unwrap_or(u64::MAX),
            stop: self.stop,
            budget: self.budget,
            count: Count {
                solutions: 0,
                limited: false,
                nodes: 0,
            },
            columns: vec![usize::MAX; masks.n],
            f: &mut f,
        };
        let Some(state) = masks.start(self.board) else {
            return Ok(run.count);
        };
        for &(r, c) in self.board.queens() {
            run.columns[r] = c;
        }
        run.search(&state)?;
        Ok(run.count)
    }
}

/// The number of solutions, up to `limit`, of a grid given by its parts: the region of each
/// cell and the closed cells of each row, with a queen on `queen`. For the generator, whose
/// grids are half grown: a cell of no region yet is closed (and may carry any region number).
///
/// # Errors
/// [`Stopped`] if the stop flag was raised.
pub(crate) fn count_parts(
    n: usize,
    region: &[u8],
    closed: &[u64],
    queen: (usize, usize),
    limit: u64,
    budget: u64,
    stop: Option<&AtomicBool>,
) -> Result<u64, Stopped> {
    let masks = Masks::from_parts(n, region);
    let mut state = State {
        open: [0; MAX_N],
        rows: 0,
        cols: 0,
        regions: 0,
    };
    for (open, &closed) in state.open[..n].iter_mut().zip(closed) {
        *open = low(n) & !closed;
    }
    masks.place(&mut state, queen.0, queen.1);
    let mut run = Run {
        masks: &masks,
        order: Order::Fewest,
        limit,
        stop,
        budget,
        count: Count {
            solutions: 0,
            limited: false,
            nodes: 0,
        },
        columns: vec![usize::MAX; n],
        f: &mut |_: &[usize]| {},
    };
    run.search(&state)?;
    Ok(run.count.solutions)
}

/// The board as bitmasks: for each region, its cells row by row.
pub(crate) struct Masks {
    pub n: usize,
    /// `region_rows[g * n + r]`: the cells of region `g` in row `r`.
    pub region_rows: Vec<u64>,
    /// The region of each cell, row by row.
    pub region: Vec<u8>,
}

/// Where a search stands: the open cells of each row and the units with a queen.
#[derive(Clone, Copy)]
pub(crate) struct State {
    pub open: [u64; MAX_N],
    pub rows: u64,
    pub cols: u64,
    pub regions: u64,
}

impl Masks {
    pub fn new(board: &Board) -> Self {
        Self::from_parts(board.n, &board.region)
    }

    /// The masks of `n` x `n` cells whose regions are `region`, row by row.
    fn from_parts(n: usize, region: &[u8]) -> Self {
        let mut region_rows = vec![0u64; n * n];
        for (i, &g) in region.iter().enumerate() {
            region_rows[g as usize * n + i / n] |= 1 << (i % n);
        }
        Masks {
            n,
            region_rows,
            region: region.to_vec(),
        }
    }

    /// The state the board's marks leave, or `None` if its queens already break a rule.
    pub fn start(&self, board: &Board) -> Option<State> {
        let full = low(self.n);
        let mut state = State {
            open: [0; MAX_N],
            rows: 0,
            cols: 0,
            regions: 0,
        };
        state.open[..self.n].fill(full);
        for &(r, c) in &board.crosses {
            state.open[r] &= !(1 << c);
        }
        for &(r, c) in &board.queens {
            if state.open[r] & (1 << c) == 0 {
                return None;
            }
            self.place(&mut state, r, c);
        }
        Some(state)
    }

    /// Puts a queen on `(r, c)` and closes every cell it rules out.
    pub fn place(&self, state: &mut State, r: usize, c: usize) {
        let n = self.n;
        let g = self.region[r * n + c] as usize;
        let region = &self.region_rows[g * n..][..n];
        let col = !(1u64 << c);
        for (open, &cells) in state.open[..n].iter_mut().zip(region) {
            *open &= col & !cells;
        }
        state.open[r] = 0;
        // The three cells around column c, in the rows above and below.
        let around = !((0b111u64 << c) >> 1);
        if r > 0 {
            state.open[r - 1] &= around;
        }
        if r + 1 < n {
            state.open[r + 1] &= around;
        }
        state.rows |= 1 << r;
        state.cols |= 1 << c;
        state.regions |= 1 << g;
    }

    /// The open cells of column `c`, one bit per row.
    pub fn column(&self, state: &State, c: usize) -> u64 {
        (0..self.n).fold(0, |acc, r| acc | ((state.open[r] >> c) & 1) << r)
    }

    /// The open cells of region `g`, one bit per row: the rows where it has one.
    pub fn region_open<'s>(&'s self, state: &'s State, g: usize) -> impl Iterator<Item = u64> + 's {
        let region = &self.region_rows[g * self.n..][..self.n];
        state.open[..self.n]
            .iter()
            .zip(region)
            .map(|(&open, &cells)| open & cells)
    }
}

/// The unit a search fills next.
enum Unit {
    Row(usize),
    Col(usize),
    Region(usize),
    /// Some unit has no open cell left.
    Dead,
    /// Every row has its queen.
    Solved,
}

struct Run<'m, F> {
    masks: &'m Masks,
    order: Order,
    limit: u64,
    stop: Option<&'m AtomicBool>,
    budget: u64,
    count: Count,
    columns: Vec<usize>,
    f: &'m mut F,
}

/// Nodes between two looks at the stop flag.
const STOP_EVERY: u64 = 1 << 12;

impl<F: FnMut(&[usize])> Run<'_, F> {
    /// Searches below `state`; `Ok(true)` once the limit is reached.
    fn search(&mut self, state: &State) -> Result<bool, Stopped> {
        let n = self.masks.n;
        let unit = match self.order {
            Order::Fewest => fewest(self.masks, state),
            Order::Rows => match (!state.rows).trailing_zeros() as usize {
                r if r >= n => Unit::Solved,
                r if state.open[r] == 0 => Unit::Dead,
                r => Unit::Row(r),
            },
        };
        let cells: Vec<(usize, usize)> = match unit {
            Unit::Solved => {
                self.count.solutions += 1;
                (self.f)(&self.columns);
                if self.count.solutions >= self.limit {
                    self.count.limited = true;
                    return Ok(true);
                }
                return Ok(false);
            }
            Unit::Dead => return Ok(false),
            Unit::Row(r) => bits(state.open[r]).map(|c| (r, c)).collect(),
            Unit::Col(c) => bits(self.masks.column(state, c)).map(|r| (r, c)).collect(),
            Unit::Region(g) => self
                .masks
                .region_open(state, g)
                .enumerate()
                .flat_map(|(r, cells)| bits(cells).map(move |c| (r, c)))
                .collect(),
        };
        for (r, c) in cells {
            self.count.nodes += 1;
            if self.count.nodes > self.budget {
                return Err(Stopped);
            }
            if self.count.nodes.is_multiple_of(STOP_EVERY)
                && self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            {
                return Err(Stopped);
            }
            let mut next = *state;
            self.masks.place(&mut next, r, c);
            self.columns[r] = c;
            if self.search(&next)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The unit with the fewest open cells.
fn fewest(masks: &Masks, state: &State) -> Unit {
    let n = masks.n;
    if state.rows.count_ones() as usize == n {
        return Unit::Solved;
    }
    let mut best = (u32::MAX, Unit::Dead);
    // A unit with one open cell (or none) is taken at once: its queen is forced, and most
    // nodes have one, so counting every unit there would be wasted.
    for r in bits(!state.rows & low(n)) {
        let k = state.open[r].count_ones();
        if k <= 1 {
            return if k == 0 { Unit::Dead } else { Unit::Row(r) };
        }
        if k < best.0 {
            best = (k, Unit::Row(r));
        }
    }
    let mut col_counts = [0u32; MAX_N];
    for &open in &state.open[..n] {
        for c in bits(open) {
            col_counts[c] += 1;
        }
    }
    for c in bits(!state.cols & low(n)) {
        if col_counts[c] <= 1 {
            return if col_counts[c] == 0 {
                Unit::Dead
            } else {
                Unit::Col(c)
            };
        }
        if col_counts[c] < best.0 {
            best = (col_counts[c], Unit::Col(c));
        }
    }
    for g in bits(!state.regions & low(n)) {
        let k = masks.region_open(state, g).map(u64::count_ones).sum();
        if k <= 1 {
            return if k == 0 { Unit::Dead } else { Unit::Region(g) };
        }
        if k < best.0 {
            best = (k, Unit::Region(g));
        }
    }
    best.1
}

/// The low `n` bits.
pub(crate) fn low(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

/// The positions of the set bits, lowest first.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}
