//! Learning from failures on the word boards: no-goods over queen placements, found by
//! conflict analysis, kept across restarts.
//!
//! Every fact the propagation derives has a reason made of queens, because the model has only
//! one kind of literal, "row `r` has its queen on column `c`":
//!
//! - a square is unavailable because of a queen on its column or one of its diagonals, because
//!   it is blocked (no reason needed), or because a no-good removed it (the no-good's other
//!   queens);
//! - a forced queen is a *singleton* (every other square of its row unavailable) or a *hidden
//!   single* (every other row has its queen elsewhere or cannot take the column);
//! - a failure is a row with no square, a column no row can take, or a no-good whose queens
//!   are all placed.
//!
//! Reasons are not stored: the trail gives each queen its place in time, and the reason of a
//! forced queen is rebuilt when a conflict needs it, from the queens placed before it (the
//! earliest attacker of each square). Conflict analysis replaces the queens of the current
//! level by their reasons, last placed first, until one is left (the first unique implication
//! point): the queens left can never stand together. That no-good is watched on two of its
//! queens; when all but one are placed, the last one's square is removed. After a conflict the
//! search jumps back to the second-latest level of the no-good, where it removes the square of
//! the unique queen, and goes on from there: there is no list of squares still to try, the
//! no-goods make the search complete.
//!
//! A queen of the no-good that the others force (its reason, followed back through forced
//! queens, ends in queens of the no-good) is taken out of it: minimisation.
//!
//! No-goods survive restarts, so a restart loses no proof; the search restarts on the Luby
//! sequence without bound and saves each row's last column (phase saving) to try it first.
//! Every queen a conflict's analysis looks at bumps its row's activity, and among the rows of
//! the smallest domain the most active is chosen, so the search keeps to the rows of recent
//! conflicts.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::domain::{Bits, Board, NONE, Word};
use super::search::{Search, Status, luby};
use crate::Placement;
use crate::engine::cpu::prefetch;

/// Failures of the first run before a restart; later runs get Luby multiples
/// (`docs/completion.md`: 32 against 128 and 512).
const RESTART_BASE: u64 = 32;

/// Learned no-goods kept at a restart before the longest half are dropped; the bound grows
/// by a tenth each time it is reached, so memory grows slowly and a proof is never lost for
/// good (the Luby runs grow without bound). The fewer no-goods each queen wakes, the faster
/// a failure, and the failures hardly change with the bound (`docs/completion.md`).
const FIRST_CAP: usize = 5_000;

/// A literal, "row `r` has its queen on column `c`", as `r << SHIFT | c`: shifts, not
/// divisions, in the watch loop. Sixteen bits hold it, so the no-goods take half the cache
/// that `u32` took: past a megabyte of them, reading a watched no-good missed the cache.
type Lit = u16;

/// Bits of the column in a [`Lit`]: enough for 128 columns.
const SHIFT: u16 = 7;

/// How many watch entries ahead the watch loop fetches a no-good (`docs/completion.md`).
const AHEAD: usize = 4;

/// "No time": later than every queen of the trail.
const NOW: usize = usize::MAX;

/// No queen on a line, in the owner tables of conflict analysis.
const NOBODY: u32 = u32::MAX;

/// What minimisation knows of a queen: not looked at, implied by the no-good's other queens,
/// or not.
const UNKNOWN: u8 = 0;
const IMPLIED: u8 = 1;
const NEEDED: u8 = 2;

/// How fast row activity fades: each conflict's bump is this much larger than the last.
const DECAY: f64 = 0.95;

/// A failure, where conflict analysis starts.
enum Conflict {
    /// The board's propagation failed: a row or a column is left empty.
    Board,
    /// Every queen of this no-good is placed.
    Nogood(u32),
}

/// The learning state of one board: no-goods, their watches, removed squares and the levels.
pub(crate) struct Learner {
    n: usize,
    /// Blocked squares of the instance, a flag per literal: the board does not tell them
    /// from removed squares.
    blocked: Vec<bool>,
    /// The squares not blocked, by row and by column: reasons are only needed for them.
    open_in_row: Vec<Vec<u32>>,
    open_in_col: Vec<Vec<u32>>,
    /// The no-goods of two queens or more, one after another in one array: each is its
    /// length, then its queens, and is named by where it starts. A watch reaches its queens
    /// in one step, with no list of no-goods between.
    arena: Vec<Lit>,
    /// How many no-goods the arena holds.
    stored: usize,
    /// No-goods of one queen: their square is removed at the root of every search.
    units: Vec<Lit>,
    /// The no-goods watching each literal: those whose first two literals include it.
    /// Each entry also holds a *blocker*, another queen of the no-good: when its row has a
    /// queen elsewhere the no-good is satisfied, found without reading it (most are).
    watches: Vec<Vec<(u32, Lit)>>,
    /// Removed squares, in order: the removal trail.
    removed: Vec<Lit>,
    /// Whether each square is removed now.
    gone: Vec<bool>,
    /// For a removed square: how many queens were placed when it was removed, and the no-good
    /// that removed it (`NOBODY` for a unit).
    why: Vec<(u32, u32)>,
    /// Per decision level from 1: the trail marks (queens, removals) before its decision.
    levels: Vec<(usize, usize)>,
    /// The next queen of the trail whose watches have not been looked at.
    qhead: usize,
    /// Each row's last column, tried first when the row is chosen again.
    phase: Vec<u32>,
    /// Each row's share in recent conflicts: among the rows of the smallest domain the most
    /// active is chosen. Bumps grow by `1 / DECAY` a conflict, so old ones fade.
    activity: Vec<f64>,
    bump: f64,
    cap: usize,
    /// The Luby run the search is in, and the failures in it so far.
    luby: (u64, u64),
    // Scratch of conflict analysis, kept to avoid allocating per conflict.
    index: Vec<u32>,
    level: Vec<u32>,
    owner_col: Vec<u32>,
    owner_diag: Vec<u32>,
    owner_anti: Vec<u32>,
    seen: Vec<bool>,
    reason: Vec<u32>,
    /// Per trail index, what minimisation found: `KEPT` not yet known, `IMPLIED` by the
    /// no-good's queens, `NEEDED` not; `touched` lists the indices to reset.
    implied: Vec<u8>,
    touched: Vec<u32>,
    scratch: Vec<u32>,
    /// Queens minimisation took out of no-goods, for the tests.
    #[cfg(test)]
    pub(crate) dropped: u64,
}

impl Learner {
    pub(crate) fn new(n: usize, blocked: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let mut grid = vec![vec![false; n]; n];
        for (r, c) in blocked {
            grid[r][c] = true;
        }
        let open_in_row = (0..n)
            .map(|r| (0..n).filter(|&c| !grid[r][c]).map(|c| c as u32).collect())
            .collect();
        let open_in_col = (0..n)
            .map(|c| (0..n).filter(|&r| !grid[r][c]).map(|r| r as u32).collect())
            .collect();
        let mut flags = vec![false; n << SHIFT];
        for (r, row) in grid.iter().enumerate() {
            for (c, &b) in row.iter().enumerate() {
                flags[r << SHIFT | c] = b;
            }
        }
        Learner {
            n,
            blocked: flags,
            open_in_row,
            open_in_col,
            arena: Vec::new(),
            stored: 0,
            units: Vec::new(),
            watches: vec![Vec::new(); n << SHIFT],
            removed: Vec::new(),
            gone: vec![false; n << SHIFT],
            why: vec![(0, NOBODY); n << SHIFT],
            levels: Vec::new(),
            qhead: 0,
            phase: vec![NONE; n],
            activity: vec![0.0; n],
            bump: 1.0,
            cap: FIRST_CAP,
            luby: (1, 0),
            index: vec![NOBODY; n],
            level: vec![0; n],
            owner_col: vec![NOBODY; n],
            owner_diag: vec![NOBODY; 2 * n],
            owner_anti: vec![NOBODY; 2 * n],
            seen: vec![false; n],
            reason: Vec::new(),
            implied: vec![UNKNOWN; n],
            touched: Vec::new(),
            scratch: Vec::new(),
            #[cfg(test)]
            dropped: 0,
        }
    }

    /// The learned no-goods of more than one queen, each a list of `(row, column)`.
    #[cfg(test)]
    pub(crate) fn nogoods(&self) -> Vec<Vec<(usize, usize)>> {
        let units = self.units.iter().map(std::slice::from_ref);
        starts(&self.arena)
            .into_iter()
            .map(|g| queens_at(&self.arena, g))
            .chain(units)
            .map(|g| g.iter().map(|&l| self.square(l)).collect())
            .collect()
    }

    #[cfg(test)]
    pub(crate) fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
    }

    fn square(&self, l: Lit) -> (usize, usize) {
        ((l >> SHIFT) as usize, (l & ((1 << SHIFT) - 1)) as usize)
    }

    fn lit(&self, r: usize, c: usize) -> Lit {
        (r << SHIFT | c) as Lit
    }

    /// The queens of the no-good that starts at `g` in the arena.
    fn nogood(&self, g: u32) -> &[Lit] {
        queens_at(&self.arena, g as usize)
    }

    /// Puts a no-good in the arena and watches its first two queens; returns its name.
    fn store(&mut self, lits: &[Lit]) -> u32 {
        let g = self.arena.len() as u32;
        self.arena.push(lits.len() as Lit);
        self.arena.extend_from_slice(lits);
        self.stored += 1;
        self.watches[lits[0] as usize].push((g, lits[1]));
        self.watches[lits[1] as usize].push((g, lits[0]));
        g
    }
}

impl<W: Word> Search<Bits<W>> {
    /// Finds one completion with no-good learning: `(Some(p), Stopped)` when found,
    /// `(None, Exhausted)` when there is none. The board is back at its root afterwards, and
    /// the no-goods are kept for the next call.
    pub(crate) fn find_learning(
        &mut self,
        learner: &mut Learner,
        stop: &AtomicBool,
    ) -> (Option<Placement>, Status) {
        self.begin();
        let started = Instant::now();
        let found = if self.root_ok {
            self.learn_loop(learner, stop)
        } else {
            (None, Status::Exhausted)
        };
        // Back to the root, squares restored, so that any later search starts clean.
        // Queens first: a square is put back in a row without a queen.
        backtrack(&mut self.dom, learner, 0);
        self.dom.undo_to(self.root);
        undo_removals(&mut self.dom, learner, 0);
        learner.qhead = 0;
        self.stats.time += started.elapsed();
        found
    }

    fn learn_loop(
        &mut self,
        learner: &mut Learner,
        stop: &AtomicBool,
    ) -> (Option<Placement>, Status) {
        self.dom.undo_to(self.root);
        self.rank_values();
        learner.qhead = 0;
        for i in 0..learner.units.len() {
            let (r, c) = learner.square(learner.units[i]);
            if self.dom.queens()[r] == c as u32 {
                return (None, Status::Exhausted);
            }
            if self.dom.queens()[r] == NONE && self.dom.available(r, c) {
                remove(&mut self.dom, learner, r, c, NOBODY);
            }
        }
        let (node_cap, deadline) = (self.node_cap, self.deadline);
        // The Luby sequence goes on from the last call: a search in turns (`Mode::Turns`)
        // gets its longer runs too.
        let (mut run, mut conflicts) = learner.luby;
        let result = loop {
            match self.propagate_learning(learner) {
                Err(conflict) => {
                    self.stats.failures += 1;
                    conflicts += 1;
                    if learner.levels.is_empty() {
                        break (None, Status::Exhausted);
                    }
                    let (lits, back) = analyze(&self.dom, learner, conflict);
                    backtrack(&mut self.dom, learner, back);
                    self.stats.nogoods += 1;
                    let (r, c) = learner.square(lits[0]);
                    let g = if lits.len() == 1 {
                        learner.units.push(lits[0]);
                        NOBODY
                    } else {
                        learner.store(&lits)
                    };
                    remove(&mut self.dom, learner, r, c, g);
                }
                Ok(()) => {
                    if self.options.restarts && conflicts >= RESTART_BASE * luby(run) {
                        conflicts = 0;
                        run += 1;
                        self.stats.restarts += 1;
                        backtrack(&mut self.dom, learner, 0);
                        reduce(learner);
                        self.shuffle_ties();
                        continue;
                    }
                    let key = &self.key;
                    let activity = &learner.activity;
                    // Higher activity first: the bits of a non-negative float order like it.
                    let Some((line, column)) =
                        self.choose_line_by(|r| (u64::MAX - activity[r].to_bits(), key[r]))
                    else {
                        self.stats.solutions += 1;
                        break (
                            Some(Placement::new(self.dom.queens().to_vec())),
                            Status::Stopped,
                        );
                    };
                    if node_cap.is_some_and(|cap| self.stats.nodes >= cap) {
                        break (None, Status::NodeLimit);
                    }
                    if self.stats.nodes & self.clock_mask == 0 {
                        if deadline.is_some_and(|d| Instant::now() >= d) {
                            break (None, Status::TimeLimit);
                        }
                        if stop.load(Ordering::Relaxed) {
                            break (None, Status::Interrupted);
                        }
                    }
                    let (r, c) = if column {
                        let queens = self.dom.queens();
                        let r = self
                            .values
                            .iter()
                            .map(|&v| v as usize)
                            .find(|&r| queens[r] == NONE && self.dom.available(r, line))
                            .expect("propagation leaves every free column a row");
                        (r, line)
                    } else {
                        let saved = learner.phase[line];
                        let c = if saved != NONE && self.dom.available(line, saved as usize) {
                            saved as usize
                        } else {
                            let k = self
                                .dom
                                .first_in_order(line, &self.values, &self.rank, 0)
                                .expect("propagation leaves every row a square");
                            self.values[k] as usize
                        };
                        (line, c)
                    };
                    self.stats.nodes += 1;
                    self.stats.column_branches += u64::from(column);
                    learner
                        .levels
                        .push((self.dom.mark(), learner.removed.len()));
                    self.dom.place(r, c);
                }
            }
        };
        learner.luby = (run, conflicts);
        result
    }

    /// The board's rules and the no-goods, to a fixpoint.
    fn propagate_learning(&mut self, learner: &mut Learner) -> Result<(), Conflict> {
        loop {
            if !self.dom.propagate(&mut self.stats) {
                return Err(Conflict::Board);
            }
            let before = learner.removed.len();
            while learner.qhead < self.dom.placed().len() {
                let r = self.dom.placed()[learner.qhead] as usize;
                learner.qhead += 1;
                let c = self.dom.queens()[r] as usize;
                watch(&mut self.dom, learner, learner.lit(r, c))?;
            }
            if learner.removed.len() == before {
                return Ok(());
            }
        }
    }
}

/// Looks at the no-goods watching `placed`, a queen just placed: each finds another queen not
/// placed to watch, or removes the square of its last one, or fails when all are placed.
fn watch<W: Word>(dom: &mut Bits<W>, learner: &mut Learner, placed: Lit) -> Result<(), Conflict> {
    const COL: Lit = (1 << SHIFT) - 1;
    let mut list = std::mem::take(&mut learner.watches[placed as usize]);
    let mut keep = 0;
    let mut result = Ok(());
    let mut i = 0;
    // Satisfied: the row of literal `l` has its queen on another column.
    let satisfied = |queens: &[u32], l: Lit| {
        let q = queens[(l >> SHIFT) as usize];
        q != NONE && q != u32::from(l & COL)
    };
    while i < list.len() {
        let (g, blocker) = list[i];
        // A no-good whose blocker is not satisfied is read, and past a few thousand no-goods
        // the store outgrows the caches: fetching every entry's no-good a few entries ahead
        // overlaps the misses, and costs less than looking at the blocker first would save.
        if let Some(&(ahead, _)) = list.get(i + AHEAD)
            && let Some(length) = learner.arena.get(ahead as usize)
        {
            prefetch(length);
        }
        i += 1;
        if satisfied(dom.queens(), blocker) {
            list[keep] = (g, blocker);
            keep += 1;
            continue;
        }
        let start = g as usize + 1;
        let len = learner.arena[start - 1] as usize;
        let lits = &mut learner.arena[start..start + len];
        if lits[0] == placed {
            lits.swap(0, 1);
        }
        let other = lits[0];
        if satisfied(dom.queens(), other) {
            list[keep] = (g, other);
            keep += 1;
            continue;
        }
        let queens = dom.queens();
        let free = (2..lits.len())
            .find(|&k| queens[(lits[k] >> SHIFT) as usize] != u32::from(lits[k] & COL));
        if let Some(k) = free {
            lits.swap(1, k);
            learner.watches[lits[1] as usize].push((g, other));
            continue;
        }
        list[keep] = (g, other);
        keep += 1;
        let (ro, co) = ((other >> SHIFT) as usize, (other & COL) as usize);
        if queens[ro] != NONE {
            // Every queen of the no-good is placed.
            result = Err(Conflict::Nogood(g));
            while i < list.len() {
                list[keep] = list[i];
                keep += 1;
                i += 1;
            }
            break;
        }
        if dom.available(ro, co) {
            remove(dom, learner, ro, co, g);
        }
    }
    list.truncate(keep);
    learner.watches[placed as usize] = list;
    result
}

fn remove<W: Word>(dom: &mut Bits<W>, learner: &mut Learner, r: usize, c: usize, g: u32) {
    dom.remove_square(r, c);
    let l = learner.lit(r, c);
    learner.why[l as usize] = (dom.placed().len() as u32, g);
    learner.gone[l as usize] = true;
    learner.removed.push(l);
}

fn undo_removals<W: Word>(dom: &mut Bits<W>, learner: &mut Learner, mark: usize) {
    while learner.removed.len() > mark {
        let l = learner.removed.pop().expect("above the mark");
        let (r, c) = learner.square(l);
        dom.restore_square(r, c);
        learner.gone[l as usize] = false;
    }
}

/// Undoes every decision above `level`, with the queens and removals that followed, saving
/// each row's column.
fn backtrack<W: Word>(dom: &mut Bits<W>, learner: &mut Learner, level: usize) {
    if learner.levels.len() <= level {
        return;
    }
    let (queens, removals) = learner.levels[level];
    for &r in &dom.placed()[queens..] {
        learner.phase[r as usize] = dom.queens()[r as usize];
    }
    dom.undo_to(queens);
    undo_removals(dom, learner, removals);
    learner.levels.truncate(level);
    learner.qhead = learner.qhead.min(queens);
}

/// Where each no-good of `arena` starts, in order.
fn starts(arena: &[Lit]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut g = 0;
    while g < arena.len() {
        starts.push(g);
        g += 1 + arena[g] as usize;
    }
    starts
}

/// The queens of the no-good that starts at `g` in `arena` (its length, then its queens).
fn queens_at(arena: &[Lit], g: usize) -> &[Lit] {
    &arena[g + 1..=g + arena[g] as usize]
}

/// Drops the longer half of the learned no-goods when there are more than the cap. Called at
/// the root only, where no removal still needs its no-good as a reason.
fn reduce(learner: &mut Learner) {
    if learner.stored <= learner.cap {
        return;
    }
    learner.cap += learner.cap / 10;
    let arena = std::mem::take(&mut learner.arena);
    let starts = starts(&arena);
    let mut lengths: Vec<Lit> = starts.iter().map(|&g| arena[g]).collect();
    let half = lengths.len() / 2;
    let (_, &mut limit, _) = lengths.select_nth_unstable(half);
    for list in &mut learner.watches {
        list.clear();
    }
    learner.stored = 0;
    let mut kept = 0;
    for g in starts {
        let len = arena[g];
        if len < limit || (len == limit && kept < half) {
            kept += 1;
            learner.store(queens_at(&arena, g));
        }
    }
    // Removals at the root keep a reason that may be gone: they never enter a no-good.
}

/// The first-unique-implication-point no-good of `conflict`, its unique queen first and the
/// latest of the others second, and the level to jump back to.
fn analyze<W: Word>(dom: &Bits<W>, learner: &mut Learner, conflict: Conflict) -> (Vec<Lit>, usize) {
    let n = learner.n;
    let placed = dom.placed();
    let queens = dom.queens();
    // The trail's order: index and level of each queen, owners of each line.
    learner.owner_col.fill(NOBODY);
    learner.owner_diag.fill(NOBODY);
    learner.owner_anti.fill(NOBODY);
    let root = learner.levels[0].0;
    let mut lvl = 0;
    for (j, &r) in placed.iter().enumerate() {
        while lvl < learner.levels.len() && learner.levels[lvl].0 <= j {
            lvl += 1;
        }
        let (r, c) = (r as usize, queens[r as usize] as usize);
        learner.index[r] = j as u32;
        learner.level[j] = lvl as u32;
        learner.owner_col[c] = j as u32;
        learner.owner_diag[c + n - 1 - r] = j as u32;
        learner.owner_anti[r + c] = j as u32;
    }
    let current = learner.levels.len() as u32;

    // The conflict's queens, by trail index.
    let mut reason = std::mem::take(&mut learner.reason);
    reason.clear();
    match conflict {
        Conflict::Nogood(g) => {
            for &l in learner.nogood(g) {
                reason.push(learner.index[(l >> SHIFT) as usize]);
            }
        }
        Conflict::Board => {
            let empty_row = dom
                .unassigned()
                .iter()
                .map(|&r| r as usize)
                .find(|&r| dom.domain(r) == W::ZERO);
            if let Some(r) = empty_row {
                for &c in &learner.open_in_row[r] {
                    explain_square(learner, &mut reason, r, c as usize, NOW, root);
                }
            } else {
                let mut once = W::ZERO;
                for &r in dom.unassigned() {
                    once |= dom.domain(r as usize);
                }
                let dead = dom.free_columns() & !once;
                debug_assert!(dead != W::ZERO, "a failed board has an empty row or column");
                let c = dead.trailing_zeros() as usize;
                column_reason(dom, learner, &mut reason, c, NONE as usize, NOW, root);
            }
        }
    }

    // Resolve the current level's queens, latest first, until one is left.
    let mut count = 0;
    let mut nogood = vec![0];
    let add = |j: u32, learner: &mut Learner, count: &mut u32, nogood: &mut Vec<Lit>| {
        let j = j as usize;
        if learner.seen[j] || learner.level[j] == 0 {
            return;
        }
        learner.seen[j] = true;
        let row = placed[j] as usize;
        learner.activity[row] += learner.bump;
        if learner.level[j] == current {
            *count += 1;
        } else {
            let r = placed[j] as usize;
            nogood.push(learner.lit(r, queens[r] as usize));
        }
    };
    for &j in &reason {
        add(j, learner, &mut count, &mut nogood);
    }
    let mut j = placed.len();
    let uip = loop {
        j -= 1;
        if !learner.seen[j] {
            continue;
        }
        if count == 1 {
            break j;
        }
        learner.seen[j] = false;
        count -= 1;
        reason.clear();
        explain_queen(dom, learner, &mut reason, j, root);
        for &k in &reason {
            add(k, learner, &mut count, &mut nogood);
        }
    };
    let r = placed[uip] as usize;
    nogood[0] = learner.lit(r, queens[r] as usize);
    minimise(dom, learner, &mut nogood, root);
    learner.bump /= DECAY;
    if learner.bump > 1e100 {
        for a in &mut learner.activity {
            *a *= 1e-100;
        }
        learner.bump *= 1e-100;
    }
    // Clear the marks, and put the latest of the others second, to watch it.
    learner.seen[uip] = false;
    let mut back = 0;
    for k in 1..nogood.len() {
        let j = learner.index[(nogood[k] >> SHIFT) as usize] as usize;
        learner.seen[j] = false;
        let l = learner.level[j] as usize;
        if l > back {
            back = l;
            nogood.swap(1, k);
        }
    }
    learner.reason = reason;
    (nogood, back)
}

/// Takes out of `nogood` (all of whose queens are `seen`) every queen but the first that the
/// others force: a forced queen whose reason, followed back through forced queens, ends in
/// queens of the no-good or of the root. Such a queen adds nothing to the no-good (the others
/// place it), and a shorter no-good removes squares sooner and wakes fewer watches. The marks
/// of the queens taken out stay set: they are still implied, so they may explain others.
fn minimise<W: Word>(dom: &Bits<W>, learner: &mut Learner, nogood: &mut Vec<Lit>, root: usize) {
    // Levels of the no-good, one bit per level modulo 64: a queen of a level without one of
    // the no-good's queens needs that level's decision (almost always), so it stops the
    // search there without computing its reason.
    let mut levels = 0u64;
    for &l in &nogood[1..] {
        let j = learner.index[(l >> SHIFT) as usize] as usize;
        levels |= 1 << (learner.level[j] & 63);
    }
    let mut k = 1;
    let mut dropped = Vec::new();
    while k < nogood.len() {
        let j = learner.index[(nogood[k] >> SHIFT) as usize] as usize;
        if implied(dom, learner, j, levels, root) {
            nogood.swap_remove(k);
            dropped.push(j);
        } else {
            k += 1;
        }
    }
    #[cfg(test)]
    {
        learner.dropped += dropped.len() as u64;
    }
    for j in dropped {
        learner.seen[j] = false;
    }
    for &j in &learner.touched {
        learner.implied[j as usize] = UNKNOWN;
    }
    learner.touched.clear();
}

/// Whether the queen of trail index `j` is forced by queens that are `seen` or placed at the
/// root, directly or through forced queens that are.
fn implied<W: Word>(
    dom: &Bits<W>,
    learner: &mut Learner,
    j: usize,
    levels: u64,
    root: usize,
) -> bool {
    let level = learner.level[j] as usize;
    if j == learner.levels[level - 1].0 {
        // A decision: nothing forced it.
        return false;
    }
    // The reason goes on the shared scratch, above those of the calls below this one.
    let mut scratch = std::mem::take(&mut learner.scratch);
    let start = scratch.len();
    explain_queen(dom, learner, &mut scratch, j, root);
    let end = scratch.len();
    learner.scratch = scratch;
    let mut ok = true;
    for i in start..end {
        let k = learner.scratch[i] as usize;
        if learner.level[k] == 0 || learner.seen[k] {
            continue;
        }
        ok = match learner.implied[k] {
            IMPLIED => true,
            NEEDED => false,
            _ => {
                levels & 1 << (learner.level[k] & 63) != 0 && implied(dom, learner, k, levels, root)
            }
        };
        if !ok {
            break;
        }
    }
    learner.scratch.truncate(start);
    learner.implied[j] = if ok { IMPLIED } else { NEEDED };
    learner.touched.push(j as u32);
    ok
}

/// Adds to `out` the queens that make square `(r, c)` unavailable before the queen of trail
/// index `before` was placed: the earliest queen on its column or diagonals, or the no-good
/// that removed it. Nothing for a blocked square, or a square removed at the root. `false`
/// if the square was available then.
fn explain_square(
    learner: &Learner,
    out: &mut Vec<u32>,
    r: usize,
    c: usize,
    before: usize,
    root: usize,
) -> bool {
    let n = learner.n;
    // With `NOW` as `NOBODY`, a line without a queen is never earlier, and every queen is.
    let before32 = before.min(NOBODY as usize) as u32;
    let early = |j: u32| if j < before32 { j } else { NOBODY };
    let attacker = early(learner.owner_col[c])
        .min(early(learner.owner_diag[c + n - 1 - r]))
        .min(early(learner.owner_anti[r + c]));
    if attacker != NOBODY {
        out.push(attacker);
        return true;
    }
    let l = learner.lit(r, c) as usize;
    if learner.blocked[l] {
        return true;
    }
    let (at, g) = learner.why[l];
    if (at as usize) > before || !learner.gone[l] {
        return false;
    }
    if g != NOBODY && (at as usize) > root {
        for &m in learner.nogood(g) {
            if m as usize != l {
                out.push(learner.index[(m >> SHIFT) as usize]);
            }
        }
    }
    true
}

/// Adds to `out` the queens that leave column `c` to row `keep` alone (or to no row, with
/// `keep` not a row) before trail index `before`: each other row's queen if placed earlier,
/// else why it cannot take `c`.
fn column_reason<W: Word>(
    dom: &Bits<W>,
    learner: &Learner,
    out: &mut Vec<u32>,
    c: usize,
    keep: usize,
    before: usize,
    root: usize,
) -> bool {
    let queens = dom.queens();
    for &r in &learner.open_in_col[c] {
        let r = r as usize;
        if r == keep {
            continue;
        }
        // A blocked square needs no reason; a queen of the row placed earlier is one reason,
        // an attacker another, and the earlier of the two is taken.
        let j = learner.index[r] as usize;
        let own = queens[r] != NONE && j < before;
        let start = out.len();
        if explain_square(learner, out, r, c, before, root) {
            if own && out.len() == start + 1 && (out[start] as usize) > j {
                out[start] = j as u32;
            } else if own && out.len() > start + 1 {
                out.truncate(start);
                out.push(j as u32);
            }
        } else if own {
            out.push(j as u32);
        } else {
            return false;
        }
    }
    true
}

/// Adds to `out` the queens that forced the queen of trail index `j`: as a singleton if every
/// other square of its row was unavailable before it, else as a hidden single of its column.
fn explain_queen<W: Word>(
    dom: &Bits<W>,
    learner: &Learner,
    out: &mut Vec<u32>,
    j: usize,
    root: usize,
) {
    let r = dom.placed()[j] as usize;
    let c = dom.queens()[r] as usize;
    let start = out.len();
    let singleton = learner.open_in_row[r]
        .iter()
        .all(|&d| d as usize == c || explain_square(learner, out, r, d as usize, j, root));
    if singleton {
        return;
    }
    out.truncate(start);
    let hidden = column_reason(dom, learner, out, c, r, j, root);
    debug_assert!(hidden, "a forced queen is a singleton or a hidden single");
}
