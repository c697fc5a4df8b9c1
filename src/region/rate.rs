//! Solving as a person does: only the deductions players use, each a [`Rule`], tried from the
//! simplest, and a rating from the hardest one a puzzle needed.
//!
//! Every rule only crosses out cells no solution can use and only places queens every solution
//! has, so on a puzzle with one solution the rater never places a wrong queen; where the rules
//! run out before the grid is full, the puzzle needs guessing (or a deduction longer than these).

use std::fmt;

use super::solve::{Masks, bits, low};
use super::{Board, Cell, MAX_N, Search, verify};

/// A deduction players use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// The cells a queen rules out are crossed out: its row, its column, its region and the
    /// eight cells around it.
    Around,
    /// A row, column or region with one open cell left gets its queen there.
    LastCell,
    /// A region whose open cells lie in one row (or column) takes that row's queen: the row's
    /// other cells are crossed out; likewise a row (or column) whose open cells lie in one
    /// region takes that region's queen.
    Confined,
    /// k regions whose open cells lie in k rows (or columns) take those rows' queens, and k
    /// rows (or columns) whose open cells lie in k regions take those regions' queens, for k
    /// from 2 to 4.
    Pigeonhole,
    /// A cell whose queen would leave some row, column or region without an open cell is
    /// crossed out.
    WouldEmpty,
}

impl Rule {
    /// Every rule, simplest first: the order the rater tries them in.
    pub const ALL: [Rule; 5] = [
        Rule::Around,
        Rule::LastCell,
        Rule::Confined,
        Rule::Pigeonhole,
        Rule::WouldEmpty,
    ];

    /// The rule's name in the output: `around`, `last-cell`, `confined`, `pigeonhole`,
    /// `would-empty`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Around => "around",
            Rule::LastCell => "last-cell",
            Rule::Confined => "confined",
            Rule::Pigeonhole => "pigeonhole",
            Rule::WouldEmpty => "would-empty",
        }
    }

    /// The difficulty of a puzzle that needs this rule.
    pub fn difficulty(self) -> Difficulty {
        match self {
            Rule::Around | Rule::LastCell => Difficulty::Easy,
            Rule::Confined => Difficulty::Medium,
            Rule::Pigeonhole | Rule::WouldEmpty => Difficulty::Hard,
        }
    }
}

/// How hard a puzzle is for a person: the hardest rule it needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Difficulty {
    /// Queens where a row, column or region has one cell left, and crossing out around them.
    Easy,
    /// Also a region confined to one row or column (or the other way round).
    Medium,
    /// Also k regions confined to k rows or columns, or a cell whose queen would empty a unit.
    Hard,
    /// The rules run out before the grid is full.
    NeedsGuessing,
}

impl Difficulty {
    /// The name in the output: `easy`, `medium`, `hard`, `needs-guessing`.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::NeedsGuessing => "needs-guessing",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One deduction: the rule, the queens it places, the cells it crosses out and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    /// The rule used.
    pub rule: Rule,
    /// Queens placed (from 0).
    pub queens: Vec<Cell>,
    /// Cells crossed out (from 0).
    pub crosses: Vec<Cell>,
    /// The reason, in words (rows and columns from 1).
    pub reason: String,
}

/// What the rater made of a board.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rating {
    /// The deductions, in order.
    pub steps: Vec<Step>,
    /// The hardest rule needed, or [`Difficulty::NeedsGuessing`].
    pub difficulty: Difficulty,
    /// Every queen on the grid at the end: the board's and the rater's.
    pub queens: Vec<Cell>,
    /// Why the rater stopped short of a full grid: no rule applies, or the board's marks leave
    /// no solution. `None` when solved.
    pub stuck: Option<String>,
}

impl Rating {
    /// How many steps used each rule, in the order of [`Rule::ALL`].
    pub fn uses(&self) -> [(Rule, usize); 5] {
        Rule::ALL.map(|rule| (rule, self.steps.iter().filter(|s| s.rule == rule).count()))
    }
}

/// Solves `board` from its marks with the rules only, and rates it.
///
/// ```
/// use nqueens::region::{Board, Difficulty, Rule, Search, rate};
/// let board = Board::parse("AAAB\nCABB\nCCBD\nCCDD\n").unwrap();
/// let rating = rate(&board);
/// assert_eq!(rating.stuck, None);
/// let solution = Search::new(&board).first().unwrap().unwrap();
/// assert_eq!(rating.queens, board.with_solution(&solution).queens());
/// assert!(rating.difficulty <= Difficulty::Hard);
/// ```
pub fn rate(board: &Board) -> Rating {
    let mut rater = Rater::new(board);
    let mut steps = Vec::new();
    let stuck = loop {
        match rater.next_step() {
            Next::Step(step) => {
                rater.apply(&step);
                steps.push(step);
            }
            Next::Solved => break None,
            Next::Stuck(why) => break Some(why),
        }
    };
    let difficulty = if stuck.is_some() {
        Difficulty::NeedsGuessing
    } else {
        steps
            .iter()
            .map(|s| s.rule.difficulty())
            .max()
            .unwrap_or(Difficulty::Easy)
    };
    let mut queens = rater.queens;
    queens.sort_unstable();
    Rating {
        steps,
        difficulty,
        queens,
        stuck,
    }
}

/// The next deduction from the board's marks: a hint. `Ok(None)` when the grid is solved;
/// `Err` with the reason when the marks leave no solution (the exact solver decides that
/// first, so a wrong cross is caught before the rules build on it) or no rule applies.
///
/// ```
/// use nqueens::region::{Board, Rule, hint};
/// let board = Board::parse("AAAB\nCABB\nCCBD\nCCDD\nq 1 2\n").unwrap();
/// let step = hint(&board).unwrap().unwrap();
/// assert_eq!(step.rule, Rule::Around);
/// ```
///
/// # Errors
/// The reason the rules give no next step, in words.
pub fn hint(board: &Board) -> Result<Option<Step>, String> {
    if Search::new(board)
        .first()
        .expect("no stop flag, no stop")
        .is_none()
    {
        return Err("the queens and crosses on the board leave no solution".into());
    }
    match Rater::new(board).next_step() {
        Next::Step(step) => Ok(Some(step)),
        Next::Solved => Ok(None),
        Next::Stuck(why) => Err(why),
    }
}

enum Next {
    Step(Step),
    Solved,
    Stuck(String),
}

/// A kind of unit: each holds exactly one queen.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Row,
    Col,
    Region,
}

struct Rater<'b> {
    board: &'b Board,
    masks: Masks,
    n: usize,
    /// Cells neither crossed out nor holding a queen, one `u64` per row.
    open: [u64; MAX_N],
    queens: Vec<Cell>,
    /// The board's queens already break a rule.
    broken: Option<String>,
}

impl<'b> Rater<'b> {
    fn new(board: &'b Board) -> Self {
        let n = board.n();
        let mut open = [0; MAX_N];
        open[..n].fill(low(n));
        for &(r, c) in board.crosses().iter().chain(board.queens()) {
            open[r] &= !(1 << c);
        }
        let broken = match verify(board, board.queens()) {
            Ok(()) | Err(super::Broken::Missing { .. }) => None,
            Err(e) => Some(format!("the queens on the board break a rule: {e}")),
        };
        Rater {
            board,
            masks: Masks::new(board),
            n,
            open,
            queens: board.queens().to_vec(),
            broken,
        }
    }

    fn apply(&mut self, step: &Step) {
        for &(r, c) in step.crosses.iter().chain(&step.queens) {
            self.open[r] &= !(1 << c);
        }
        self.queens.extend_from_slice(&step.queens);
    }

    fn next_step(&self) -> Next {
        if let Some(why) = &self.broken {
            return Next::Stuck(why.clone());
        }
        if self.queens.len() == self.n {
            return Next::Solved;
        }
        if let Some(step) = self.around() {
            return Next::Step(step);
        }
        for kind in [Kind::Row, Kind::Col, Kind::Region] {
            for i in self.free(kind) {
                if self.grid(kind, i).iter().all(|&m| m == 0) {
                    return Next::Stuck(format!(
                        "{} has no open cell left: the marks leave no solution",
                        self.name(kind, i)
                    ));
                }
            }
        }
        let rules = [
            Self::last_cell,
            Self::confined,
            Self::pigeonhole,
            Self::would_empty,
        ];
        for rule in rules {
            if let Some(step) = rule(self) {
                return Next::Step(step);
            }
        }
        Next::Stuck("no rule applies: the puzzle needs a guess from here".into())
    }

    /// The units of a kind without a queen.
    fn free(&self, kind: Kind) -> Vec<usize> {
        (0..self.n)
            .filter(|&i| {
                !self.queens.iter().any(|&(r, c)| match kind {
                    Kind::Row => r == i,
                    Kind::Col => c == i,
                    Kind::Region => self.board.region((r, c)) == i,
                })
            })
            .collect()
    }

    /// All the cells of a unit, one `u64` per row.
    fn unit(&self, kind: Kind, i: usize) -> [u64; MAX_N] {
        let mut grid = [0; MAX_N];
        match kind {
            Kind::Row => grid[i] = low(self.n),
            Kind::Col => grid[..self.n].fill(1 << i),
            Kind::Region => {
                grid[..self.n].copy_from_slice(&self.masks.region_rows[i * self.n..][..self.n]);
            }
        }
        grid
    }

    /// The open cells of a unit.
    fn grid(&self, kind: Kind, i: usize) -> [u64; MAX_N] {
        let mut grid = self.unit(kind, i);
        for (g, &o) in grid.iter_mut().zip(&self.open[..self.n]) {
            *g &= o;
        }
        grid
    }

    fn name(&self, kind: Kind, i: usize) -> String {
        match kind {
            Kind::Row => format!("row {}", i + 1),
            Kind::Col => format!("column {}", i + 1),
            Kind::Region => format!("region {}", self.board.label(i)),
        }
    }

    /// The cells a queen on `(r, c)` rules out, whether open or not.
    fn ruled_out(&self, (r, c): Cell) -> [u64; MAX_N] {
        let n = self.n;
        let mut grid = [0; MAX_N];
        let g = self.board.region((r, c));
        for (i, cells) in grid[..n].iter_mut().enumerate() {
            *cells = (1 << c) | self.masks.region_rows[g * n + i];
        }
        grid[r] = low(n);
        let around = ((0b111u64 << c) >> 1) & low(n);
        if r > 0 {
            grid[r - 1] |= around;
        }
        if r + 1 < n {
            grid[r + 1] |= around;
        }
        grid[r] &= !(1 << c);
        grid
    }

    fn around(&self) -> Option<Step> {
        for &queen in &self.queens {
            let ruled = self.ruled_out(queen);
            let crosses = self.cells_of(&ruled);
            if !crosses.is_empty() {
                return Some(Step {
                    rule: Rule::Around,
                    queens: Vec::new(),
                    crosses,
                    reason: format!(
                        "the queen at row {} column {} rules out its row, column, region and \
                         the cells around it",
                        queen.0 + 1,
                        queen.1 + 1
                    ),
                });
            }
        }
        None
    }

    /// The open cells of a grid of cells.
    fn cells_of(&self, grid: &[u64; MAX_N]) -> Vec<Cell> {
        (0..self.n)
            .flat_map(|r| bits(grid[r] & self.open[r]).map(move |c| (r, c)))
            .collect()
    }

    fn last_cell(&self) -> Option<Step> {
        for kind in [Kind::Region, Kind::Row, Kind::Col] {
            for i in self.free(kind) {
                let cells = self.cells_of(&self.grid(kind, i));
                if let [cell] = cells[..] {
                    return Some(Step {
                        rule: Rule::LastCell,
                        queens: vec![cell],
                        crosses: Vec::new(),
                        reason: format!(
                            "{} has one open cell left: row {} column {}",
                            self.name(kind, i),
                            cell.0 + 1,
                            cell.1 + 1
                        ),
                    });
                }
            }
        }
        None
    }

    fn confined(&self) -> Option<Step> {
        self.confinement(1, 1, Rule::Confined)
    }

    fn pigeonhole(&self) -> Option<Step> {
        self.confinement(2, MAX_GROUP, Rule::Pigeonhole)
    }

    /// k units of one kind whose open cells lie in k units of another kind, for k in
    /// `smallest..=largest`: those k units' queens are the others' queens, so the others'
    /// cells outside the first k units are crossed out.
    fn confinement(&self, smallest: usize, largest: usize, rule: Rule) -> Option<Step> {
        let pairs = [
            (Kind::Region, Kind::Row),
            (Kind::Region, Kind::Col),
            (Kind::Row, Kind::Region),
            (Kind::Col, Kind::Region),
        ];
        for k in smallest..=largest {
            for (a_kind, b_kind) in pairs {
                let a_free = self.free(a_kind);
                let b_free = self.free(b_kind);
                if k * 2 > a_free.len() {
                    continue;
                }
                // Which units of the other kind each unit's open cells lie in, as bits over
                // `b_free`.
                let b_grids: Vec<[u64; MAX_N]> =
                    b_free.iter().map(|&b| self.unit(b_kind, b)).collect();
                let spans: Vec<u64> = a_free
                    .iter()
                    .map(|&a| {
                        let grid = self.grid(a_kind, a);
                        b_grids.iter().enumerate().fold(0, |acc, (j, bg)| {
                            let meets = (0..self.n).any(|r| grid[r] & bg[r] != 0);
                            acc | (u64::from(meets) << j)
                        })
                    })
                    .collect();
                let mut chosen = Vec::new();
                if let Some(step) = self.groups(
                    (a_kind, &a_free, &spans),
                    (b_kind, &b_free, &b_grids),
                    k,
                    0,
                    0,
                    &mut chosen,
                    rule,
                ) {
                    return Some(step);
                }
            }
        }
        None
    }

    /// Groups of `k` units of `a` (from index `from`, `chosen` so far, spanning `span`) that
    /// span `k` units of `b`, and the step the first useful one gives.
    #[allow(clippy::too_many_arguments)]
    fn groups(
        &self,
        a: (Kind, &[usize], &[u64]),
        b: (Kind, &[usize], &[[u64; MAX_N]]),
        k: usize,
        from: usize,
        span: u64,
        chosen: &mut Vec<usize>,
        rule: Rule,
    ) -> Option<Step> {
        if chosen.len() == k {
            if span.count_ones() as usize != k {
                return None;
            }
            let mut inside = [0u64; MAX_N];
            for &j in chosen.iter() {
                let grid = self.unit(a.0, a.1[j]);
                for r in 0..self.n {
                    inside[r] |= grid[r];
                }
            }
            let mut outside = [0u64; MAX_N];
            for j in bits(span) {
                for r in 0..self.n {
                    outside[r] |= b.2[j][r] & !inside[r];
                }
            }
            let crosses = self.cells_of(&outside);
            if crosses.is_empty() {
                return None;
            }
            let names = |kind, units: Vec<usize>| {
                if let [one] = units[..] {
                    return self.name(kind, one);
                }
                let ids: Vec<String> = units
                    .into_iter()
                    .map(|i| match kind {
                        Kind::Region => self.board.label(i).to_string(),
                        Kind::Row | Kind::Col => (i + 1).to_string(),
                    })
                    .collect();
                let plural = match kind {
                    Kind::Row => "rows",
                    Kind::Col => "columns",
                    Kind::Region => "regions",
                };
                format!("{plural} {}", ids.join(", "))
            };
            let a_names = names(a.0, chosen.iter().map(|&j| a.1[j]).collect());
            let b_names = names(b.0, bits(span).map(|j| b.1[j]).collect());
            let reason = if k == 1 {
                format!(
                    "the open cells of {a_names} lie in {b_names} only: the queen of \
                     {b_names} is the queen of {a_names}, so its other cells are crossed out"
                )
            } else {
                format!(
                    "the open cells of {a_names} lie in {b_names} only: their queens are the \
                     queens of {b_names}, so the other cells there are crossed out"
                )
            };
            return Some(Step {
                rule,
                queens: Vec::new(),
                crosses,
                reason,
            });
        }
        for j in from..a.1.len() {
            let wider = span | a.2[j];
            if wider.count_ones() as usize > k {
                continue;
            }
            chosen.push(j);
            let step = self.groups(a, b, k, j + 1, wider, chosen, rule);
            chosen.pop();
            if step.is_some() {
                return step;
            }
        }
        None
    }

    fn would_empty(&self) -> Option<Step> {
        let units: Vec<(Kind, usize, [u64; MAX_N])> = [Kind::Row, Kind::Col, Kind::Region]
            .into_iter()
            .flat_map(|kind| {
                self.free(kind)
                    .into_iter()
                    .map(move |i| (kind, i, self.grid(kind, i)))
            })
            .collect();
        for r in 0..self.n {
            for c in bits(self.open[r]) {
                let ruled = self.ruled_out((r, c));
                for (kind, i, grid) in &units {
                    // The units of the cell itself get their queen from it.
                    if grid[r] & (1 << c) != 0 {
                        continue;
                    }
                    if (0..self.n).all(|row| grid[row] & !ruled[row] == 0) {
                        return Some(Step {
                            rule: Rule::WouldEmpty,
                            queens: Vec::new(),
                            crosses: vec![(r, c)],
                            reason: format!(
                                "a queen at row {} column {} would leave {} no open cell",
                                r + 1,
                                c + 1,
                                self.name(*kind, *i)
                            ),
                        });
                    }
                }
            }
        }
        None
    }
}

/// The largest group the pigeonhole rule looks at: players rarely see more than three, and
/// the groups to try grow as the binomial coefficients.
const MAX_GROUP: usize = 4;
