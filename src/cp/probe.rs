//! Search with probing, on the packed board (`packed.rs`): for the hard blocked boards of up
//! to 128 columns, where proving that no completion exists is most of the work.
//!
//! At every node, after propagation, each square of each row and column left with two
//! squares gets a trial queen: if propagation then fails, the square is taken off for the
//! whole subtree (failed-literal probing). Near the phase transition most branches die deep
//! in the tree, a few queens after a line was cut down to two squares, so these trials cut
//! the failures three to eight times. On the board of `search.rs` a trial cost what a node
//! costs, and probing did not pay; on the packed board a trial is a copy of a few words, one
//! `and not` per layout and the guards' arithmetic, a few times cheaper than a node there
//! (`docs/completion.md`, "Probing on the packed board").
//!
//! The trials also choose the line to branch on, as a look-ahead SAT solver (march) chooses
//! its variable: of the lines of two squares, the one whose two trial queens took off the
//! most squares, by their product (when no line has two, the lines of three are probed and
//! chosen from in the same way; with none of those either, the smallest row, or a column with
//! fewer squares than every row, as in `search.rs`). A line whose every branch shrinks the
//! board a lot has the smallest subtrees below it: this halves the nodes of a proof. A
//! square that fails is taken off before its sibling is tried, with propagation. There is no
//! trail: a child is a copy of its parent's position.
//!
//! The last search is two walks on one tree ([`Split`]), one trying first the squares whose
//! trial took off least, the other middle-out, in turns: a walk whose part is done takes over
//! an untried square of the other's shallowest node. The parts never overlap, so a proof
//! costs what one walk costs, and a completion one order reaches late the other may reach
//! early.

use std::cmp::Reverse;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::instance::Instance;
use super::packed::{Bits, Packed, Position, each, test};
use super::search::{Options, Status, luby};
use super::stats::Stats;
use crate::Placement;

/// How often (in nodes) the clock and the stop flag are read: a node with its trials takes
/// a few microseconds, so about a millisecond between two reads.
const CLOCK_EVERY: u64 = 256;

/// Failures allowed in the first run before a restart; later runs get Luby multiples, up to
/// `RESTART_RUNS` runs, and the last run goes to the end.
const RESTART_BASE: u64 = 256;
const RESTART_RUNS: u64 = 15;

/// A turn of one walk of a [`Split`], in units of [`work`] at 12 words: about 10 ms.
const SPLIT_TURN: u64 = 40_000;

/// The work the first walk of [`Probe::find`]'s last search does alone before the second
/// joins (about a second at 12 words): a completion that the first order reaches soon is
/// reached as soon as before.
const FIND_ALONE: u64 = 4_000_000;

/// The search with probing of one instance, whatever the width of its packed board.
pub(super) trait Probe {
    /// Looks for one completion, within `options`' limits (counted from now) and `stop`,
    /// adding its work to `stats`.
    fn find(
        &mut self,
        options: &Options,
        stats: &mut Stats,
        stop: &AtomicBool,
    ) -> (Option<Placement>, Status);

    /// Goes on with one search without restarts (two walks on its tree, middle-out first),
    /// kept between calls (started on the first), for up to `work` more units of [`work`],
    /// until the node count `node_cap`, `deadline` or `stop`: [`Status::NodeLimit`] when the
    /// work or the nodes are spent, and the search can go on. The search starts again after
    /// it ends.
    fn resume(
        &mut self,
        work: u64,
        node_cap: Option<u64>,
        deadline: Option<Instant>,
        stats: &mut Stats,
        stop: &AtomicBool,
    ) -> (Option<Placement>, Status);
}

/// The probing search of `instance` (at most 128 columns) on the narrowest packed board
/// that holds it, or `None` if its free squares are too many (over 2,048 with the guards:
/// such boards are far below the phase transition, and easy).
pub(super) fn prober(instance: &Instance, options: &Options) -> Option<Box<dyn Probe>> {
    fn boxed<const W: usize>(instance: &Instance, options: &Options) -> Option<Box<dyn Probe>> {
        Prober::<W>::new(instance, options).map(|p| Box::new(p) as Box<dyn Probe>)
    }
    boxed::<4>(instance, options)
        .or_else(|| boxed::<8>(instance, options))
        .or_else(|| boxed::<12>(instance, options))
        .or_else(|| boxed::<16>(instance, options))
        .or_else(|| boxed::<24>(instance, options))
        .or_else(|| boxed::<32>(instance, options))
}

struct Prober<const W: usize> {
    board: Packed<W>,
    /// The position after the given queens and propagation; `None` if that failed.
    root: Option<Position<W>>,
    /// Tie-breaking between rows of the same size, smaller first: set by each run.
    key: Vec<u64>,
    rng: ChaCha8Rng,
    /// The search of [`Probe::resume`], between its calls.
    split: Option<Split<W>>,
    /// A turn of one walk of a [`Split`], in units of [`work`] at 12 words.
    turn: u64,
    look: Lookahead,
}

/// What the trials of the current node found, to choose its branching line.
struct Lookahead {
    /// A count of nodes probed: the current node's number.
    node: u64,
    /// The size of the lines probed at the current node: 2, or 3 when no line had two; 0
    /// when no line had three either.
    size: usize,
    /// Per square, its last trial that held: the node's number, and how many squares its
    /// queen and propagation took off.
    taken: Vec<(u64, u32)>,
}

impl<const W: usize> Prober<W> {
    fn new(instance: &Instance, options: &Options) -> Option<Self> {
        let board = Packed::<W>::new(instance)?;
        let mut root = board.empty();
        let mut forced = 0;
        let ok = instance.fixed().all(|(r, c)| {
            board
                .square_of(r, c)
                .is_some_and(|s| board.place(&mut root, s))
        }) && board.propagate(&mut root, &mut forced);
        Some(Prober {
            key: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            root: ok.then_some(root),
            split: None,
            turn: SPLIT_TURN,
            look: Lookahead {
                node: 0,
                size: 0,
                taken: vec![(0, 0); board.square.len()],
            },
            board,
        })
    }
}

impl<const W: usize> Probe for Prober<W> {
    fn find(
        &mut self,
        options: &Options,
        stats: &mut Stats,
        stop: &AtomicBool,
    ) -> (Option<Placement>, Status) {
        let started = Instant::now();
        let Some(root) = self.root.clone() else {
            return (None, Status::Exhausted);
        };
        let node_cap = options.node_limit.map(|l| stats.nodes + l);
        let deadline = options.time_limit.and_then(|t| started.checked_add(t));
        // Every call starts in the same order; so does its last search.
        let first = centre_keys(self.board.n, |_| 0);
        self.key.clone_from(&first);
        let mut salt = 0;
        for number in (1..=RESTART_RUNS).filter(|_| options.restarts) {
            let run = Run {
                board: &self.board,
                key: &self.key,
                salt,
                restart_at: Some(stats.failures + RESTART_BASE * luby(number)),
                stats: &mut *stats,
                node_cap,
                work_cap: None,
                deadline,
                stop,
                found: None,
                look: &mut self.look,
                least_first: true,
            };
            if let Some((found, status)) = run.outcome(&mut Walk::new(root.clone(), true)) {
                return finish(stats, started, found, status);
            }
            stats.restarts += 1;
            let rng = &mut self.rng;
            self.key = centre_keys(self.key.len(), |_| rng.r#gen::<u32>());
            salt = rng.r#gen::<u64>() | 1;
        }
        // The last search goes to the end, in the first run's order: two walks on its tree,
        // least taken first and middle-out.
        self.key.clone_from(&first);
        let mut split = Split::new(root, true, FIND_ALONE);
        let (found, status) = self.go_on(&mut split, u64::MAX, node_cap, deadline, stats, stop);
        finish(stats, started, found, status)
    }

    fn resume(
        &mut self,
        work: u64,
        node_cap: Option<u64>,
        deadline: Option<Instant>,
        stats: &mut Stats,
        stop: &AtomicBool,
    ) -> (Option<Placement>, Status) {
        let started = Instant::now();
        let Some(root) = &self.root else {
            return (None, Status::Exhausted);
        };
        let mut split = match self.split.take() {
            Some(split) => split,
            None => {
                self.key = centre_keys(self.board.n, |_| 0);
                // In turns with learning, middle-out first decided more boards at 100 and
                // 128 than least taken first (docs/completion.md, "Two walks on one tree").
                Split::new(root.clone(), false, 0)
            }
        };
        let (found, status) = self.go_on(&mut split, work, node_cap, deadline, stats, stop);
        if status == Status::NodeLimit {
            self.split = Some(split);
        }
        finish(stats, started, found, status)
    }
}

impl<const W: usize> Prober<W> {
    /// Goes on with `split` for up to `work` more units of [`work`] (scaled by the board's
    /// words: a trial and a node cost about in proportion to them), until the node count
    /// `node_cap`, `deadline` or `stop`. Its walks take turns of `self.turn` units; a walk
    /// whose part of the tree is done takes over part of the other's. The turns are counted
    /// in the split's own work, so the same split walks the same nodes however its calls cut
    /// it.
    fn go_on(
        &mut self,
        split: &mut Split<W>,
        work: u64,
        node_cap: Option<u64>,
        deadline: Option<Instant>,
        stats: &mut Stats,
        stop: &AtomicBool,
    ) -> (Option<Vec<u32>>, Status) {
        let scaled = |units: u64| (units.saturating_mul(12) / W as u64).max(1);
        let (end, turn) = (
            self::work(stats).saturating_add(scaled(work)),
            scaled(self.turn),
        );
        loop {
            if split.spent >= split.turn_end {
                if split.spent >= scaled(split.alone) || split.turn == 1 {
                    split.turn ^= 1;
                }
                split.turn_end = split.spent.saturating_add(turn);
            }
            let now = self::work(stats);
            if now >= end || node_cap.is_some_and(|cap| stats.nodes >= cap) {
                return (None, Status::NodeLimit);
            }
            let [first, second] = &mut split.walks;
            let (walk, other) = if split.turn == 0 {
                (first, second)
            } else {
                (second, first)
            };
            if walk.idle() {
                match steal(&self.board, other, walk.least_first) {
                    Some(frame) => {
                        walk.stack.push(frame);
                        walk.next = Step::Advance;
                        split.steals += 1;
                    }
                    None if other.idle() => return (None, Status::Exhausted),
                    None => {
                        // Nothing to take yet: the other walk has the rest of this turn.
                        split.turn_end = split.spent;
                        continue;
                    }
                }
            }
            let run = Run {
                board: &self.board,
                key: &self.key,
                salt: 0,
                restart_at: None,
                node_cap,
                work_cap: Some(now.saturating_add(split.turn_end - split.spent).min(end)),
                stats: &mut *stats,
                deadline,
                stop,
                found: None,
                look: &mut self.look,
                least_first: walk.least_first,
            };
            let (found, status) = run.outcome(walk).expect("no failure budget, no restart");
            split.spent += self::work(stats) - now;
            match status {
                // A turn or the call's work is spent, or this walk's part is done: the loop
                // tells which.
                Status::NodeLimit | Status::Exhausted => {}
                _ => return (found, status),
            }
        }
    }
}

/// Takes over, from the shallowest frame of `from` with an untried square, the one that a
/// walk in the order `least_first` would try first there, as a frame of its own: the square
/// is taken off `from`'s position (without propagation, which its next failure brings), so
/// that the two parts of the tree do not overlap. `None` if every frame of `from` has tried
/// all its squares.
fn steal<const W: usize>(
    board: &Packed<W>,
    from: &mut Walk<W>,
    least_first: bool,
) -> Option<Frame<W>> {
    from.stack.iter_mut().find_map(|frame| {
        let (layout, done) = if frame.rows {
            (&board.rows, &frame.position.rows_done)
        } else {
            (&board.cols, &frame.position.cols_done)
        };
        if test(done, layout.guard_of(frame.line)) {
            // Propagation placed this line's queen: the frame is about to be searched as a
            // new node, whole.
            return None;
        }
        let rank = |k: usize| {
            let taken = if least_first { frame.taken[k] } else { 0 };
            (taken, middle_out(board, frame.squares[k], frame.rows))
        };
        let k = (frame.next..frame.squares.len())
            .filter(|&k| board.open(&frame.position, frame.squares[k]))
            .min_by_key(|&k| rank(k))?;
        let s = frame.squares.remove(k);
        let taken = frame.taken.remove(k);
        let position = frame.position.clone();
        board.remove(&mut frame.position, s);
        Some(Frame {
            position,
            line: frame.line,
            rows: frame.rows,
            squares: vec![s],
            taken: vec![taken],
            next: 0,
            stolen: true,
        })
    })
}

/// Two walks on the tree of one search, taking turns (`Prober::go_on`): each searches its own
/// part, in its own order of squares, and the parts never overlap, so a proof that no
/// completion exists costs what one walk costs, while a completion that one order of
/// squares reaches late may be reached early by the other (docs/completion.md, "Two walks
/// on one tree").
struct Split<const W: usize> {
    walks: [Walk<W>; 2],
    /// The walk whose turn it is.
    turn: usize,
    /// The work done by both walks so far, and the count at which this turn ends.
    spent: u64,
    turn_end: u64,
    /// The work the first walk does alone before the second joins.
    alone: u64,
    /// Parts of the tree taken over so far.
    steals: u64,
}

impl<const W: usize> Split<W> {
    /// The first walk starts at `root`, least taken first if `least_first`, and the second,
    /// in the other order, takes its first part from the first.
    fn new(root: Position<W>, least_first: bool, alone: u64) -> Self {
        let second = Walk {
            stack: Vec::new(),
            next: Step::Advance,
            least_first: !least_first,
        };
        Split {
            walks: [Walk::new(root, least_first), second],
            // The first turn ends at once and passes to the first walk.
            turn: 1,
            spent: 0,
            turn_end: 0,
            alone,
            steals: 0,
        }
    }
}

/// Counts a search's solution and time in `stats`, and returns its answer.
fn finish(
    stats: &mut Stats,
    started: Instant,
    found: Option<Vec<u32>>,
    status: Status,
) -> (Option<Placement>, Status) {
    stats.solutions += u64::from(found.is_some());
    stats.time += started.elapsed();
    (found.map(Placement::new), status)
}

/// The work of a search with probing so far, in units of about a quarter of a microsecond
/// on a packed board of 12 words, as at 100 columns near the transition (a trial queen is
/// one, a node four; [`Probe::resume`] scales its budget by the board's words): a budget of
/// work shares the time with another search as a clock would, and the same budget always
/// ends at the same node.
pub(super) fn work(stats: &Stats) -> u64 {
    stats.probes + 4 * stats.nodes
}

/// The middle-out rank of square `s` on its row (`rows`) or column: its distance to the
/// centre of the line, then its place on it.
fn middle_out<const W: usize>(board: &Packed<W>, s: usize, rows: bool) -> (usize, usize) {
    let (r, c) = board.square[s];
    let v = usize::from(if rows { c } else { r });
    ((2 * v).abs_diff(board.n - 1), v)
}

/// Tie-breaking keys of `n` rows: distance to the centre first (a row near the centre sees the
/// most squares), then `low` of each row.
fn centre_keys(n: usize, mut low: impl FnMut(usize) -> u32) -> Vec<u64> {
    (0..n)
        .map(|r| ((2 * r).abs_diff(n - 1) as u64) << 32 | u64::from(low(r)))
        .collect()
}

/// A depth-first search in progress: its frames from the root down, what to do next, and
/// its order of squares (least taken first, or middle-out).
struct Walk<const W: usize> {
    stack: Vec<Frame<W>>,
    next: Step<W>,
    least_first: bool,
}

impl<const W: usize> Walk<W> {
    fn new(root: Position<W>, least_first: bool) -> Self {
        Walk {
            stack: Vec::new(),
            next: Step::Enter(root),
            least_first,
        }
    }

    /// Whether its part of the tree is done: nothing left to search.
    fn idle(&self) -> bool {
        self.stack.is_empty() && !matches!(self.next, Step::Enter(_))
    }
}

/// One node being searched: its position, the line it branches on, and that line's squares
/// (`next` is the index of the next one to try).
struct Frame<const W: usize> {
    position: Position<W>,
    line: usize,
    rows: bool,
    squares: Vec<usize>,
    /// What each square's trial took off at this node ([`Run::taken`]).
    taken: Vec<u32>,
    next: usize,
    /// Taken over from another walk ([`steal`]): its one square is this walk's part, and the
    /// rest of the line the other walk's.
    stolen: bool,
}

/// The next move of a [`Walk`].
enum Step<const W: usize> {
    /// Search below this propagated position, a child of the top frame (or the root).
    Enter(Position<W>),
    /// The top frame's last square has no completion, or none but those found already.
    Failed,
    /// Try the top frame's next square.
    Advance,
}

/// Why a subtree's search ended early.
enum End {
    Found,
    Restart,
    Stop(Status),
}

/// One run of the search, from the root: the board, the limits and the counters.
struct Run<'a, const W: usize> {
    board: &'a Packed<W>,
    key: &'a [u64],
    /// Rotates each line's order of squares, from the first restart on (0: no rotation).
    salt: u64,
    stats: &'a mut Stats,
    /// The failure count that ends this run with a restart.
    restart_at: Option<u64>,
    node_cap: Option<u64>,
    /// The [`work`] that ends this call, resumable.
    work_cap: Option<u64>,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    found: Option<Vec<u32>>,
    look: &'a mut Lookahead,
    /// Squares whose trial took off least first (ties middle-out), rather than middle-out.
    least_first: bool,
}

impl<const W: usize> Run<'_, W> {
    /// [`walk`](Self::walk) as an answer: the completion found and how the search ended, or
    /// `None` for a restart.
    fn outcome(mut self, walk: &mut Walk<W>) -> Option<(Option<Vec<u32>>, Status)> {
        match self.walk(walk) {
            ControlFlow::Break(End::Found) => Some((self.found.take(), Status::Stopped)),
            ControlFlow::Break(End::Stop(status)) => Some((None, status)),
            ControlFlow::Continue(()) => Some((None, Status::Exhausted)),
            ControlFlow::Break(End::Restart) => None,
        }
    }

    /// Goes on with `walk` until it ends: `Continue` if no completion extends its root. A
    /// limit or the stop flag leaves `walk` where it can go on from.
    fn walk(&mut self, walk: &mut Walk<W>) -> ControlFlow<End> {
        let board = self.board;
        loop {
            match std::mem::replace(&mut walk.next, Step::Advance) {
                Step::Enter(mut p) => {
                    if p.queens < board.n && !self.probe(&mut p) {
                        walk.next = Step::Failed;
                        self.fail()?;
                        continue;
                    }
                    let Some((line, rows)) = self.choose(&p) else {
                        // A walk that goes on after a completion goes on past it.
                        walk.next = Step::Failed;
                        self.found = Some(board.columns(&p));
                        return ControlFlow::Break(End::Found);
                    };
                    let squares = self.order(&p, line, rows);
                    let taken = squares.iter().map(|&s| self.taken(s)).collect();
                    walk.stack.push(Frame {
                        position: p,
                        line,
                        rows,
                        squares,
                        taken,
                        next: 0,
                        stolen: false,
                    });
                }
                Step::Failed => {
                    // No completion (not found already) has a queen on the square last tried
                    // here: off it goes, for the siblings too.
                    let Some(top) = walk.stack.last_mut() else {
                        return ControlFlow::Continue(());
                    };
                    if top.stolen {
                        walk.stack.pop();
                        walk.next = Step::Failed;
                        continue;
                    }
                    board.remove(&mut top.position, top.squares[top.next - 1]);
                    if !board.propagate(&mut top.position, &mut self.stats.propagations) {
                        walk.stack.pop();
                        walk.next = Step::Failed;
                    }
                }
                Step::Advance => {
                    if let ControlFlow::Break(end) = self.check_limits() {
                        walk.next = Step::Advance;
                        return ControlFlow::Break(end);
                    }
                    let top = walk.stack.last_mut().expect("a frame to advance");
                    let (layout, done) = if top.rows {
                        (&board.rows, &top.position.rows_done)
                    } else {
                        (&board.cols, &top.position.cols_done)
                    };
                    if test(done, layout.guard_of(top.line)) {
                        // Propagation after the last failure placed this line's queen: the
                        // position is searched as a new node.
                        let frame = walk.stack.pop().expect("the top frame");
                        walk.next = Step::Enter(frame.position);
                        continue;
                    }
                    let Some(k) = (top.next..top.squares.len())
                        .find(|&k| board.open(&top.position, top.squares[k]))
                    else {
                        walk.stack.pop();
                        walk.next = Step::Failed;
                        continue;
                    };
                    top.next = k + 1;
                    self.stats.nodes += 1;
                    self.stats.column_branches += u64::from(!top.rows);
                    let mut child = top.position.clone();
                    if board.place(&mut child, top.squares[k])
                        && board.propagate(&mut child, &mut self.stats.propagations)
                    {
                        walk.next = Step::Enter(child);
                    } else {
                        walk.next = Step::Failed;
                        self.fail()?;
                    }
                }
            }
        }
    }

    /// The open squares of `line` in `p`, in the order to try them: middle-out, as the plain
    /// search (a queen near the centre leaves the most room to the others when it is right,
    /// and a completion is found sooner); with `least_first`, those whose trial at this node
    /// took off fewest squares first (the most room left, as a look-ahead SAT solver picks a
    /// branch), ties middle-out. Turned by the run's salt.
    fn order(&self, p: &Position<W>, line: usize, rows: bool) -> Vec<usize> {
        let (layout, open) = if rows {
            (&self.board.rows, &p.rows)
        } else {
            (&self.board.cols, &p.cols)
        };
        let mut squares: Vec<usize> = layout
            .bits_of(open, line)
            .map(|b| layout.square_at(b))
            .collect();
        squares.sort_by_key(|&s| middle_out(self.board, s, rows));
        if self.least_first {
            squares.sort_by_key(|&s| self.taken(s));
        }
        if self.salt != 0 {
            let turn = self.salt.wrapping_mul(line as u64 + 1) >> 32;
            let len = squares.len();
            squares.rotate_left(turn as usize % len);
        }
        squares
    }

    /// What the trial of square `s` at this node took off; `u32::MAX` (last) for a square
    /// without a trial at this node (a line above three).
    fn taken(&self, s: usize) -> u32 {
        match self.look.taken[s] {
            (node, taken) if node == self.look.node => taken,
            _ => u32::MAX,
        }
    }

    /// Counts a failure; a restart if the run's budget is spent.
    fn fail(&mut self) -> ControlFlow<End> {
        self.stats.failures += 1;
        if self.restart_at.is_some_and(|at| self.stats.failures >= at) {
            return ControlFlow::Break(End::Restart);
        }
        ControlFlow::Continue(())
    }

    /// Before a node: the node limit, and every `CLOCK_EVERY` nodes the clock and the flag.
    fn check_limits(&self) -> ControlFlow<End> {
        let nodes = self.stats.nodes;
        if self.node_cap.is_some_and(|cap| nodes >= cap)
            || self.work_cap.is_some_and(|cap| work(self.stats) >= cap)
        {
            return ControlFlow::Break(End::Stop(Status::NodeLimit));
        }
        if nodes.is_multiple_of(CLOCK_EVERY) {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return ControlFlow::Break(End::Stop(Status::TimeLimit));
            }
            if self.stop.load(Ordering::Relaxed) {
                return ControlFlow::Break(End::Stop(Status::Interrupted));
            }
        }
        ControlFlow::Continue(())
    }

    /// Tries a queen on each square of each open line of two squares (of three, if no line
    /// has two), with propagation, and takes off every square whose trial fails; `false` if
    /// `p` fails then. What each trial that holds takes off is kept in `self.look`.
    fn probe(&mut self, p: &mut Position<W>) -> bool {
        self.look.node += 1;
        self.look.size = 0;
        for size in [2, 3] {
            let mut any = false;
            for rows in [true, false] {
                let lines = self.board.lines_of(p, rows, size);
                any |= lines.iter().any(|&w| w != 0);
                if !each(&lines, |g| self.probe_line(p, rows, g)) {
                    return false;
                }
            }
            if any {
                self.look.size = size;
                break;
            }
        }
        true
    }

    /// Probes the squares of the line of guard `g` (a row if `rows`, else a column).
    fn probe_line(&mut self, p: &mut Position<W>, rows: bool, g: usize) -> bool {
        let board = self.board;
        let layout = if rows { &board.rows } else { &board.cols };
        let open = if rows { p.rows } else { p.cols };
        let line = layout.line_of(g);
        // The open squares of `p`, counted again only when a failed trial changes `p`.
        let mut before = board.open_count(p);
        for b in layout.bits_of(&open, line) {
            let done = if rows { &p.rows_done } else { &p.cols_done };
            let s = layout.square_at(b);
            if test(done, g) || !board.open(p, s) {
                continue;
            }
            self.stats.probes += 1;
            let mut trial = p.clone();
            let mut forced = 0;
            if board.place(&mut trial, s) && board.propagate(&mut trial, &mut forced) {
                let taken = before - board.open_count(&trial);
                self.look.taken[s] = (self.look.node, taken);
            } else {
                board.remove(p, s);
                if !board.propagate(p, &mut self.stats.propagations) {
                    return false;
                }
                before = board.open_count(p);
            }
        }
        true
    }

    /// The line to branch on, `(index, is_row)`: by look-ahead among the lines probed, else
    /// the open row with fewest squares (ties by key), or a column with fewer than that;
    /// `None` when every row has its queen.
    fn choose(&self, p: &Position<W>) -> Option<(usize, bool)> {
        let board = self.board;
        if p.queens == board.n {
            return None;
        }
        if let Some(line) = self.look_ahead(p) {
            return Some(line);
        }
        let mut best: Option<(u32, u64, usize)> = None;
        let open: Bits<W> = std::array::from_fn(|i| board.rows.guard[i] & !p.rows_done[i]);
        each(&open, |g| {
            let r = board.rows.line_of(g);
            let size = board.rows.count(&p.rows, r);
            if best.is_none_or(|(s, k, _)| (size, self.key[r]) < (s, k)) {
                best = Some((size, self.key[r], r));
            }
            true
        });
        let (size, _, row) = best.expect("a row without its queen");
        let open: Bits<W> = std::array::from_fn(|i| board.cols.guard[i] & !p.cols_done[i]);
        let mut column: Option<(u32, usize)> = None;
        each(&open, |g| {
            let c = board.cols.line_of(g);
            let support = board.cols.count(&p.cols, c);
            if support < size && column.is_none_or(|(s, _)| support < s) {
                column = Some((support, c));
            }
            true
        });
        Some(column.map_or((row, true), |(_, c)| (c, false)))
    }

    /// The line of the size probed at this node (or of two, where a failed trial cut a line
    /// of three) whose trials took off the most squares: the product of what each square's
    /// trial took off, then their sum, then rows before columns and the row's key. A square
    /// whose trial was not made at this node counts as taking nothing. `None` if no line was
    /// probed.
    fn look_ahead(&self, p: &Position<W>) -> Option<(usize, bool)> {
        let board = self.board;
        let look = &*self.look;
        let mut best: Option<(u64, Reverse<u64>, usize, bool)> = None;
        for size in [2, look.size] {
            if size == 0 || best.is_some() {
                break;
            }
            for rows in [true, false] {
                let (layout, open) = if rows {
                    (&board.rows, &p.rows)
                } else {
                    (&board.cols, &p.cols)
                };
                each(&board.lines_of(p, rows, size), |g| {
                    let line = layout.line_of(g);
                    let (mut product, mut sum) = (1u64, 0u64);
                    for b in layout.bits_of(open, line) {
                        let (node, taken) = look.taken[layout.square_at(b)];
                        let taken = if node == look.node {
                            u64::from(taken)
                        } else {
                            0
                        };
                        product = product.saturating_mul(taken);
                        sum += taken;
                    }
                    let score = product.saturating_mul(1024).saturating_add(sum);
                    let key = Reverse(if rows { self.key[line] } else { u64::MAX });
                    if best.is_none_or(|(s, k, _, _)| (score, key) > (s, k)) {
                        best = Some((score, key, line, rows));
                    }
                    true
                });
            }
        }
        best.map(|(_, _, line, rows)| (line, rows))
    }
}

/// Every completion of `instance`, as the two walks of a [`Split`] find them one after
/// another (the walks go on after each), with turns of `turn` units, the second walk joining
/// after `alone`; and how many parts of the tree were taken over. For the tests.
#[cfg(test)]
pub(super) fn split_completions(
    instance: &Instance,
    least_first: bool,
    alone: u64,
    turn: u64,
) -> (Vec<Vec<u32>>, u64) {
    let options = Options {
        restarts: false,
        ..Options::default()
    };
    let mut prober = Prober::<8>::new(instance, &options).expect("a small board");
    let Some(root) = prober.root.clone() else {
        return (Vec::new(), 0);
    };
    prober.turn = turn;
    prober.key = centre_keys(instance.n(), |_| 0);
    let mut split = Split::new(root, least_first, alone);
    let (mut stats, never) = (Stats::default(), AtomicBool::new(false));
    let mut found = Vec::new();
    loop {
        match prober.go_on(&mut split, u64::MAX, None, None, &mut stats, &never) {
            (Some(columns), _) => found.push(columns),
            (None, Status::Exhausted) => return (found, split.steals),
            (None, status) => panic!("{status:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The squares a trial queen on `s` takes off `p`, with propagation, made here again.
    fn taken<const W: usize>(board: &Packed<W>, p: &Position<W>, s: usize) -> u64 {
        let mut trial = p.clone();
        assert!(board.place(&mut trial, s) && board.propagate(&mut trial, &mut 0));
        u64::from(board.open_count(p) - board.open_count(&trial))
    }

    /// The score of a line as `look_ahead` defines it, from trials made here on a copy of `p`.
    fn score<const W: usize>(board: &Packed<W>, p: &Position<W>, squares: &[usize]) -> u64 {
        let taken = squares.iter().map(|&s| taken(board, p, s));
        1024 * taken.clone().product::<u64>() + taken.sum::<u64>()
    }

    #[test]
    fn look_ahead_chooses_a_line_whose_trials_take_the_most() {
        // Positions a few random queens deep on boards near the transition, where probing
        // took nothing off (so every trial saw the position checked here): the line chosen
        // scores highest among the open lines of the size probed, each counted square by
        // square, and its squares come least taken first.
        let mut rng = ChaCha8Rng::seed_from_u64(18);
        let never = AtomicBool::new(false);
        let (mut checked, mut threes) = (0, 0);
        for _ in 0..400 {
            let n = rng.gen_range(16..=40);
            let inst = super::super::blocked_board(
                n,
                n * n * rng.gen_range(72..=86) / 100,
                1,
                rng.r#gen(),
            );
            let options = Options::default();
            let Some(mut prober) = Prober::<8>::new(&inst, &options) else {
                continue;
            };
            let Some(mut p) = prober.root.clone() else {
                continue;
            };
            let board = &prober.board;
            for _ in 0..rng.gen_range(0..4) {
                // An open square of a row without its queen (a queen keeps its own square).
                let open: Vec<usize> = (0..board.square.len())
                    .filter(|&s| {
                        let row = usize::from(board.square[s].0);
                        board.open(&p, s) && !test(&p.rows_done, board.rows.guard_of(row))
                    })
                    .collect();
                if open.is_empty() {
                    break;
                }
                let mut child = p.clone();
                let s = open[rng.gen_range(0..open.len())];
                if board.place(&mut child, s) && board.propagate(&mut child, &mut 0) {
                    p = child;
                }
            }
            let mut stats = Stats::default();
            let mut run = Run {
                board,
                key: &centre_keys(n, |_| 0),
                salt: 0,
                stats: &mut stats,
                restart_at: None,
                node_cap: None,
                work_cap: None,
                deadline: None,
                stop: &never,
                found: None,
                look: &mut prober.look,
                least_first: true,
            };
            let before = p.clone();
            if !run.probe(&mut p) || p.rows != before.rows || run.look.size == 0 {
                continue;
            }
            let size = run.look.size;
            threes += usize::from(size == 3);
            // The open lines of `size` squares, found square by square.
            let mut best = 0;
            for rows in [true, false] {
                for line in 0..n {
                    let squares: Vec<usize> = (0..board.square.len())
                        .filter(|&s| {
                            let (r, c) = board.square[s];
                            usize::from(if rows { r } else { c }) == line && board.open(&p, s)
                        })
                        .collect();
                    let layout = if rows { &board.rows } else { &board.cols };
                    let done = if rows { &p.rows_done } else { &p.cols_done };
                    if squares.len() == size && !test(done, layout.guard_of(line)) {
                        best = best.max(score(board, &p, &squares));
                    }
                }
            }
            let (line, rows) = run.look_ahead(&p).expect("a line of the size probed");
            let layout = if rows { &board.rows } else { &board.cols };
            let open = if rows { &p.rows } else { &p.cols };
            let squares: Vec<usize> = layout
                .bits_of(open, line)
                .map(|b| layout.square_at(b))
                .collect();
            assert_eq!(squares.len(), size, "{inst}");
            assert_eq!(score(board, &p, &squares), best, "{inst}");
            let order: Vec<u64> = run
                .order(&p, line, rows)
                .iter()
                .map(|&s| taken(board, &p, s))
                .collect();
            assert!(order.is_sorted(), "{inst}: {order:?}");
            checked += 1;
        }
        assert!(checked >= 100 && threes >= 10, "{checked} {threes}");
    }
}
