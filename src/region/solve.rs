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
        let n = masks.n;
        let mut open = [0; MAX_N];
        open[..n].fill(low(n));
        for &(r, c) in self.board.crosses() {
            open[r] &= !(1 << c);
        }
        let mut run = Run::new(&masks, &open[..n], self.order, &mut f);
        run.limit = self.limit.unwrap_or(u64::MAX);
        run.stop = self.stop;
        run.budget = self.budget;
        for &(r, c) in self.board.queens() {
            if run.open[r] & (1 << c) == 0 || !run.place(0, r, c) {
                return Ok(run.count);
            }
            run.columns[r] = c;
        }
        run.search(0)?;
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
    let open: Vec<u64> = closed.iter().map(|&c| low(n) & !c).collect();
    let mut f = |_: &[usize]| {};
    let mut run = Run::new(&masks, &open, Order::Fewest, &mut f);
    run.limit = limit;
    run.stop = stop;
    run.budget = budget;
    if run.place(0, queen.0, queen.1) {
        run.search(0)?;
    }
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
}

/// The open-cell count of a unit that has its queen: never the fewest.
const DONE: u16 = u16::MAX;

/// A search in progress. Each depth (queens placed by the search) has its own copy of the
/// open cells of each row and the number of open cells of each unit, so that going back is
/// free; the counts are kept up to date cell by cell as cells close, since counting every
/// unit again at each node was most of the time.
struct Run<'m, F> {
    masks: &'m Masks,
    order: Order,
    limit: u64,
    stop: Option<&'m AtomicBool>,
    budget: u64,
    count: Count,
    columns: Vec<usize>,
    f: &'m mut F,
    /// `open[d * n + r]`: the open cells of row `r` at depth `d`.
    open: Vec<u64>,
    /// `left[d * 3n + u]`: the open cells of unit `u` at depth `d` (rows, then columns, then
    /// regions), or [`DONE`].
    left: Vec<u16>,
    /// Queens on the grid at depth 0.
    placed: usize,
}

/// Nodes between two looks at the stop flag.
const STOP_EVERY: u64 = 1 << 12;

impl<'m, F: FnMut(&[usize])> Run<'m, F> {
    /// A search from the open cells `open` of each row, no queen placed.
    fn new(masks: &'m Masks, open: &[u64], order: Order, f: &'m mut F) -> Self {
        let n = masks.n;
        let mut run = Run {
            masks,
            order,
            limit: u64::MAX,
            stop: None,
            budget: u64::MAX,
            count: Count {
                solutions: 0,
                limited: false,
                nodes: 0,
            },
            columns: vec![usize::MAX; n],
            f,
            open: vec![0; (n + 1) * n],
            left: vec![0; (n + 1) * 3 * n],
            placed: 0,
        };
        run.open[..n].copy_from_slice(open);
        for (r, &cells) in open.iter().enumerate() {
            run.left[r] = cells.count_ones() as u16;
            for c in bits(cells) {
                run.left[n + c] += 1;
                run.left[2 * n + masks.region[r * n + c] as usize] += 1;
            }
        }
        run
    }

    /// Puts a queen on the open cell `(r, c)` at depth `d`, in place, and closes every cell it
    /// rules out; `false` if that leaves some unit without a queen and without an open cell.
    fn place(&mut self, d: usize, r: usize, c: usize) -> bool {
        let n = self.masks.n;
        let region = &self.masks.region;
        let g = region[r * n + c] as usize;
        let cells = &self.masks.region_rows[g * n..][..n];
        let open = &mut self.open[d * n..][..n];
        let left = &mut self.left[d * 3 * n..][..3 * n];
        // The three cells around column c, in the rows above and below.
        let around = (0b111u64 << c) >> 1;
        for (i, (o, &in_region)) in open.iter_mut().zip(cells).enumerate() {
            let mut close = (1 << c) | in_region;
            if i == r {
                close = u64::MAX;
            } else if i + 1 == r || i == r + 1 {
                close |= around;
            }
            let gone = *o & close;
            if gone != 0 {
                *o &= !gone;
                left[i] -= gone.count_ones() as u16;
                for col in bits(gone) {
                    left[n + col] -= 1;
                    left[2 * n + region[i * n + col] as usize] -= 1;
                }
            }
        }
        left[r] = DONE;
        left[n + c] = DONE;
        left[2 * n + g] = DONE;
        self.placed += usize::from(d == 0);
        !left.contains(&0)
    }

    /// Searches below depth `d`; `Ok(true)` once the limit is reached.
    fn search(&mut self, d: usize) -> Result<bool, Stopped> {
        let n = self.masks.n;
        if self.placed + d == n {
            self.count.solutions += 1;
            (self.f)(&self.columns);
            if self.count.solutions >= self.limit {
                self.count.limited = true;
                return Ok(true);
            }
            return Ok(false);
        }
        let left = &self.left[d * 3 * n..][..3 * n];
        let unit = match self.order {
            // The first unit with the fewest open cells: a forced queen at once.
            Order::Fewest => {
                let mut best = 0;
                for (u, &k) in left.iter().enumerate() {
                    if k < left[best] {
                        best = u;
                    }
                }
                best
            }
            Order::Rows => left[..n]
                .iter()
                .position(|&k| k != DONE)
                .expect("a row without its queen"),
        };
        // The unit's cells, one row at a time: its open cells in each row.
        for r in 0..n {
            let open = self.open[d * n + r];
            let cells = match unit {
                u if u < n => open & if u == r { u64::MAX } else { 0 },
                u if u < 2 * n => open & (1 << (u - n)),
                u => open & self.masks.region_rows[(u - 2 * n) * n + r],
            };
            for c in bits(cells) {
                self.count.nodes += 1;
                if self.count.nodes > self.budget {
                    return Err(Stopped);
                }
                if self.count.nodes.is_multiple_of(STOP_EVERY)
                    && self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                {
                    return Err(Stopped);
                }
                let (from, to) = self.open.split_at_mut((d + 1) * n);
                to[..n].copy_from_slice(&from[d * n..]);
                let (from, to) = self.left.split_at_mut((d + 1) * 3 * n);
                to[..3 * n].copy_from_slice(&from[d * 3 * n..]);
                if !self.place(d + 1, r, c) {
                    continue;
                }
                self.columns[r] = c;
                if self.search(d + 1)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
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
