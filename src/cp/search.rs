//! Search: choose a row, try its squares one by one, propagate, back up on failure.
//!
//! - **Variable order, first fail**: the unassigned row with the fewest squares left, because
//!   it is the most likely to fail and failing early prunes the most. Ties go to the row closest
//!   to the centre (centre queens attack the most squares), then to a seeded random key. From
//!   65 to 128 columns with blocked squares the plain search first takes, of the tied rows, the
//!   one of most reach: whose squares see the most open squares ([`reach`](super::reach)).
//! - **Columns too** (boards with blocked squares): when a free column can be taken by fewer
//!   rows than the chosen row has squares, branch on that column instead: which row gets its
//!   queen. Blocked squares make columns as uneven as rows: on boards of 60 near the phase
//!   transition this alone takes 2 to 4.6 times fewer nodes to prove "no completion", and 3.4
//!   to 52 times fewer with the bounded restarts below (`docs/completion.md`).
//! - **Value order, middle out**: squares nearest the centre column first (rows nearest the
//!   centre row, for a column).
//! - **Explicit stack**: one [`Decision`] per decision holds the line, how far its squares have been
//!   tried, and the trail mark to undo to. No recursion, so depth is bounded only by `n`.
//! - **Restarts** (finding one completion only): after a growing number of failures (the Luby
//!   sequence: 1 1 2 1 1 2 4 ...) the search starts over with new random tie-breaking and a
//!   random value order. A run that went wrong early is abandoned instead of explored to the
//!   end. After `RESTART_RUNS` runs the last one goes to the end in the first run's order,
//!   so an instance without completion is proved so at little more than the cost of one run.
//!   The states of the first decisions whose subtrees failed are kept across the runs
//!   ([`failed`](super::failed)), so that a later run does not search them again.

use std::cmp::Reverse;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::domain::{Bits, Bits64, Bits128, Board, General, NONE, Word};
use super::failed::FailedStates;
use super::instance::Instance;
use super::learn::Learner;
use super::probe::{Probe, prober};
use super::reach::Reach;
use super::stats::Stats;
use crate::Placement;
use crate::memory::OutOfMemory;
use crate::observe::{Observer, Reason, Step, attack};

/// Limits and choices of a search.
///
/// ```
/// use std::time::Duration;
/// let options = nqueens::cp::Options {
///     node_limit: Some(1_000_000),
///     time_limit: Some(Duration::from_secs(10)),
///     ..Default::default()
/// };
/// assert_eq!(options.seed, 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Stop after this many nodes (decisions).
    pub node_limit: Option<u64>,
    /// Stop after this much time.
    pub time_limit: Option<Duration>,
    /// Seed of the random tie-breaking: the same seed gives the same search.
    pub seed: u64,
    /// Restart with new tie-breaking when a search to find one completion drags on.
    pub restarts: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            node_limit: None,
            time_limit: None,
            seed: 0,
            restarts: true,
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every completion was seen: a count or a "no completion" is proved.
    Exhausted,
    /// The caller asked to stop (for example after the first completion).
    Stopped,
    /// The node limit was reached first.
    NodeLimit,
    /// The time limit was reached first.
    TimeLimit,
    /// The flag of [`Solver::stop_when`] was set first.
    Interrupted,
}

/// Failures allowed in the first run before a restart; later runs get Luby multiples.
///
/// Measured (failures summed over instances): without restarts an empty board of 208 gets stuck;
/// with them every empty board from 4 to 400 takes at most about 1,100 failures (random value
/// order after each restart; 8,000 when only ties were reshuffled). Near the phase transition of
/// blocked boards, where most of the effort is proving "no completion", a base of 1024 needs 2.5
/// times fewer failures than 64.
const RESTART_BASE: u64 = 1024;

/// Runs with a failure budget before the last one, which goes to the end: 15 Luby runs spend
/// 32 budgets (about 33,000 failures) in all.
///
/// Measured on blocked boards of 60 near the phase transition (bench/blocked_gen.py, 3150 and
/// 3180 blocked): unbounded Luby restarts made proofs of "no completion" 5 to 12 times longer
/// than one run to the end (the Luby sums grow by a logarithmic factor, and shuffled
/// tie-breaking gives larger trees), while on the boards with a completion they saved no time
/// overall (28.8 s against 30.8 s over 11 boards). A bound of 63 runs cost the easiest proofs
/// about 200,000 failures (3180 blocked, seed 0: 370,277 nodes against 107,954 with 15).
/// Empty boards finish within the first two runs (at most about 1,100 failures, see above), so
/// the bound never touches them.
const RESTART_RUNS: u64 = 15;

/// Boards this wide or wider learn no-goods and probe in turns by default (with blocked
/// squares, to find one completion).
const LEARN_FROM: usize = 100;

/// Boards from this width to `LEARN_FIRST_FROM` search with probing alone by default, for
/// `PROBE_FIRST_NODES`, then learn and probe in turns, where their packed board holds them
/// (docs/completion.md, "Probing on the packed board" and "Two walks on one tree"): at 80
/// probing proves "none" in half the time of the plain search or less, and decides the easy
/// boards fastest alone; the turns find completions that probing alone misses. Below, the
/// plain search is kept (the boards of up to 64 columns were not measured to gain).
const PROBE_FROM: usize = 65;

/// How long a `PROBE_FROM` board searches with probing alone, in nodes (about 0.4 s at 80
/// columns near the transition).
const PROBE_FIRST_NODES: u64 = 50_000;

/// A turn of `Mode::Turns`: learning's in nodes (about 5 ms at 100 columns), probing's in
/// units of `probe::work` (about 60 ms), so that probing, which proves "none" several times
/// faster and whose two walks find most completions, has twelve parts of the time in
/// thirteen, and learning, which finds other completions, the rest (docs/completion.md, "Two
/// walks on one tree"). Each round the turns grow by a quarter.
const TURN_LEARN: u64 = 500;
const TURN_PROBE: u64 = 240_000;

/// Boards from this width to `LEARN_FROM` learn first, for `LEARN_FIRST_NODES`, then search
/// plainly: learning decides most of their boards sooner, but misses completions the plain
/// search finds (docs/completion.md).
const LEARN_FIRST_FROM: usize = 90;

/// How long the learning of a `LEARN_FIRST_FROM` board goes on, in nodes.
const LEARN_FIRST_NODES: u64 = 250_000;

/// The flag of a solver that nothing stops.
static NEVER: AtomicBool = AtomicBool::new(false);

/// How often (in nodes) the clock and the stop flag are read on boards of up to 128 columns:
/// often enough to stop on time, rarely enough to cost nothing.
const CLOCK_EVERY: u64 = 1024;

/// The mask that tells the nodes at which the clock and the stop flag are read on a board of
/// `n` columns (`nodes & mask == 0`). Past 128 columns a node costs time in proportion to
/// the board (about a tenth of a microsecond a row on the counter board, so 3 ms at 32,768):
/// there the interval shrinks with `n`, to keep about ten milliseconds between two reads,
/// down to every node.
pub(super) fn clock_mask(n: usize) -> u64 {
    let every = ((1u64 << 17) / n.max(1) as u64).clamp(1, CLOCK_EVERY);
    // A power of two, so that a mask replaces a division in the search loop.
    (1 << every.ilog2()) - 1
}

/// One decision on the stack: a row, the index of the next square to try in the middle-out
/// order, and the trail mark before its queen.
struct Decision {
    /// The row, or with `column` set the column, whose square is being chosen.
    line: u32,
    column: bool,
    next: u32,
    mark: usize,
    /// Where the node's state starts among the failed states' open ones, if it is kept.
    state: Option<u32>,
}

/// Why one run of the search loop ended.
enum End {
    Done(Status),
    Restart,
}

/// A propagation solver for one instance.
///
/// Boards up to 64 wide use one machine word per domain, up to 128 a double word; larger ones
/// use counters of domain sizes and column supports. All run the same search.
///
/// ```
/// use nqueens::cp::{Instance, Options, Solver, Status};
/// let mut inst = Instance::new(8);
/// inst.fix(0, 0).unwrap();
/// let mut solver = Solver::new(&inst, Options::default());
/// let (found, status) = solver.find();
/// assert_eq!(status, Status::Stopped);
/// assert!(inst.admits(&found.unwrap()));
/// assert_eq!(solver.count(), (4, Status::Exhausted));
/// ```
pub struct Solver<'s> {
    search: Box<dyn Engine>,
    stop: &'s AtomicBool,
}

/// The search over either board, behind one object so that [`Solver`] needs no type parameter.
trait Engine {
    fn find(&mut self, stop: &AtomicBool) -> (Option<Placement>, Status);
    fn each(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        stop: &AtomicBool,
    ) -> Status;
    fn observe(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        obs: &mut dyn Observer,
        stop: &AtomicBool,
    ) -> Status;
    fn stats(&self) -> &Stats;
    /// Turns no-good learning on or off for later calls of `find`; boards without it ignore it.
    fn set_learning(&mut self, _on: bool) {}
    /// Turns the search with probing on or off for later calls of `find`; boards without it
    /// ignore it.
    fn set_probing(&mut self, _on: bool) {}
    /// The no-goods learned so far, each a list of `(row, column)`.
    #[cfg(test)]
    fn nogoods(&self) -> Vec<Vec<(usize, usize)>> {
        Vec::new()
    }
    /// How many queens minimisation took out of no-goods so far.
    #[cfg(test)]
    fn minimised(&self) -> u64 {
        0
    }
    /// How many nodes the plain search cut by a failed state so far.
    #[cfg(test)]
    fn failed_cuts(&self) -> u64;
}

/// The search on a word board, with no-good learning (`learn.rs`) for `find`: counting and
/// listing every completion keep the plain search.
struct Learning<W: Word> {
    search: Search<Bits<W>>,
    /// Made on the first search that learns: its tables are `n * 128` entries, too many to
    /// build for every small solver that never learns.
    learner: Option<Learner>,
    /// The instance, for the learner and the search with probing.
    instance: Instance,
    /// Made on the first search with probing, if the packed board holds the instance; `None`
    /// inside if it does not.
    prober: Option<Option<Box<dyn Probe>>>,
    mode: Mode,
    /// How long the first stage of `Mode::LearnFirst` or `Mode::ProbeFirst` goes on, in
    /// nodes.
    first_nodes: u64,
}

/// Which search [`Learning`] runs to find one completion.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Plain,
    Learn,
    /// Learning for a while, then the plain search.
    LearnFirst,
    /// The search with probing on the packed board (`probe.rs`), or the plain search where
    /// the packed board does not hold the instance.
    Probe,
    /// Learning and probing in turns, each going on from where it was (learning as on a
    /// restart), until one decides; learning alone where the packed board does not hold the
    /// instance.
    Turns,
    /// The search with probing alone for `first_nodes`, then `Turns`.
    ProbeFirst,
}

impl<W: Word> Learning<W> {
    fn new(board: Bits<W>, instance: &Instance, options: Options) -> Self {
        let search = Search::new(board, instance, options);
        // Measured (docs/completion.md): at 60 learning takes more time than the plain
        // search; at 80 and 90 it misses completions the plain search finds alone, and
        // probing proves "none" in half the time of the plain search or less; at 100 and 128
        // probing proves "none" four to five times faster than learning, which finds
        // completions that probing misses: there they take turns. At 80 probing alone
        // decides the easy boards first, then the two take turns ("Two walks on one tree").
        let mode = match instance.n() {
            _ if !search.dual => Mode::Plain,
            n if n >= LEARN_FROM => Mode::Turns,
            n if n >= LEARN_FIRST_FROM => Mode::LearnFirst,
            n if n >= PROBE_FROM => Mode::ProbeFirst,
            _ => Mode::Plain,
        };
        Learning {
            mode,
            first_nodes: match mode {
                Mode::ProbeFirst => PROBE_FIRST_NODES,
                _ => LEARN_FIRST_NODES,
            },
            learner: None,
            instance: instance.clone(),
            prober: None,
            search,
        }
    }

    fn learn(&mut self, stop: &AtomicBool) -> (Option<Placement>, Status) {
        let (n, instance) = (self.search.dom.n(), &self.instance);
        let learner = self
            .learner
            .get_or_insert_with(|| Learner::new(n, instance.blocked()));
        self.search.find_learning(learner, stop)
    }

    fn probe(&mut self, stop: &AtomicBool) -> (Option<Placement>, Status) {
        let Learning {
            prober,
            instance,
            search,
            ..
        } = self;
        match made(prober, instance, search) {
            Some(prober) => prober.find(&search.options, &mut search.stats, stop),
            None => search.find(stop),
        }
    }

    /// Learning and probing in turns (`Mode::Turns`), within the caller's limits.
    fn turns(&mut self, stop: &AtomicBool) -> (Option<Placement>, Status) {
        let options = self.search.options;
        if made(&mut self.prober, &self.instance, &self.search).is_none() {
            return self.learn(stop);
        }
        let started = Instant::now();
        let deadline = options.time_limit.and_then(|t| started.checked_add(t));
        let cap = options.node_limit.map(|l| self.search.stats.nodes + l);
        // Turns grow by a quarter each time: a short proof is decided within the first few,
        // and learning's longer runs are not cut at every turn later on.
        let mut scale: u64 = 4;
        let result = loop {
            let (turn_learn, turn_probe) = (TURN_LEARN * scale / 4, TURN_PROBE * scale / 4);
            scale = (scale + scale / 4).min(1 << 20);
            let left = cap.map(|c| c.saturating_sub(self.search.stats.nodes));
            self.search.options.node_limit = Some(left.map_or(turn_learn, |l| l.min(turn_learn)));
            self.search.options.time_limit =
                deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let learned = self.learn(stop);
            if learned.1 != Status::NodeLimit || left.is_some_and(|l| l <= turn_learn) {
                break learned;
            }
            let prober = made(&mut self.prober, &self.instance, &self.search).expect("made above");
            let stats = &mut self.search.stats;
            let probed = prober.resume(turn_probe, cap, deadline, stats, stop);
            if probed.1 != Status::NodeLimit || cap.is_some_and(|c| stats.nodes >= c) {
                break probed;
            }
        };
        self.search.options = options;
        result
    }

    /// The search with probing alone for `first_nodes`, then learning and probing in turns
    /// (from the root again), within what is left of the caller's limits.
    fn probe_first(&mut self, stop: &AtomicBool) -> (Option<Placement>, Status) {
        self.stages(stop, Self::probe, Self::turns)
    }

    /// Learning for `first_nodes`, then the plain search as it would have run alone
    /// (same tie-breaking), within what is left of the caller's limits.
    fn learn_first(&mut self, stop: &AtomicBool) -> (Option<Placement>, Status) {
        let ties = (self.search.key.clone(), self.search.rng.clone());
        self.stages(stop, Self::learn, |learning, stop| {
            (learning.search.key, learning.search.rng) = ties;
            learning.search.find(stop)
        })
    }

    /// `first` for `first_nodes` (or less, within the caller's node limit), then, if that
    /// did not decide, `then` within what is left of the caller's limits.
    fn stages(
        &mut self,
        stop: &AtomicBool,
        first: impl FnOnce(&mut Self, &AtomicBool) -> (Option<Placement>, Status),
        then: impl FnOnce(&mut Self, &AtomicBool) -> (Option<Placement>, Status),
    ) -> (Option<Placement>, Status) {
        let started = Instant::now();
        let options = self.search.options;
        let nodes = self.search.stats.nodes;
        let budget = options
            .node_limit
            .map_or(self.first_nodes, |l| l.min(self.first_nodes));
        self.search.options.node_limit = Some(budget);
        let early = first(self, stop);
        self.search.options = options;
        if early.1 != Status::NodeLimit || options.node_limit == Some(budget) {
            return early;
        }
        let used = self.search.stats.nodes - nodes;
        self.search.options.node_limit = options.node_limit.map(|l| l.saturating_sub(used));
        self.search.options.time_limit = options
            .time_limit
            .map(|t| t.saturating_sub(started.elapsed()));
        let late = then(self, stop);
        self.search.options = options;
        late
    }
}

/// The search with probing of [`Learning`], made on first use: `None` where the board has no
/// blocked squares (it is far from any transition, and restarts of the plain search find its
/// completions at once) or the packed board does not hold it.
fn made<'a, W: Word>(
    slot: &'a mut Option<Option<Box<dyn Probe>>>,
    instance: &Instance,
    search: &Search<Bits<W>>,
) -> Option<&'a mut (dyn Probe + 'static)> {
    slot.get_or_insert_with(|| {
        search
            .dual
            .then(|| prober(instance, &search.options))
            .flatten()
    })
    .as_deref_mut()
}

impl<W: Word> Engine for Learning<W> {
    fn find(&mut self, stop: &AtomicBool) -> (Option<Placement>, Status) {
        match self.mode {
            Mode::Plain => self.search.find(stop),
            Mode::Learn => self.learn(stop),
            Mode::LearnFirst => self.learn_first(stop),
            Mode::Probe => self.probe(stop),
            Mode::Turns => self.turns(stop),
            Mode::ProbeFirst => self.probe_first(stop),
        }
    }

    fn each(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        stop: &AtomicBool,
    ) -> Status {
        self.search.each(visit, stop)
    }

    fn observe(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        obs: &mut dyn Observer,
        stop: &AtomicBool,
    ) -> Status {
        self.search.observe(visit, obs, stop)
    }

    fn stats(&self) -> &Stats {
        self.search.stats()
    }

    fn set_learning(&mut self, on: bool) {
        self.mode = if on { Mode::Learn } else { Mode::Plain };
    }

    fn set_probing(&mut self, on: bool) {
        self.mode = if on { Mode::Probe } else { Mode::Plain };
    }

    #[cfg(test)]
    fn nogoods(&self) -> Vec<Vec<(usize, usize)>> {
        self.learner
            .as_ref()
            .map_or_else(Vec::new, Learner::nogoods)
    }

    #[cfg(test)]
    fn minimised(&self) -> u64 {
        self.learner.as_ref().map_or(0, |l| l.dropped)
    }

    #[cfg(test)]
    fn failed_cuts(&self) -> u64 {
        self.search.failed_cuts()
    }
}

impl<'s> Solver<'s> {
    /// A solver for `instance`, with the given queens placed and propagated.
    ///
    /// # Panics
    /// If the board does not fit in memory; [`Solver::try_new`] returns an error instead.
    ///
    /// ```
    /// let solver = nqueens::cp::Solver::new(&nqueens::cp::Instance::new(8), Default::default());
    /// assert_eq!(solver.stats().nodes, 0);
    /// ```
    pub fn new(instance: &Instance, options: Options) -> Self {
        Self::try_new(instance, options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Solver::new`], or the error if the board does not fit in memory: a board with blocked
    /// squares keeps a bit per square, 128 MiB for the largest.
    ///
    /// ```
    /// use nqueens::cp::{Instance, Solver};
    /// let mut inst = Instance::new(100);
    /// inst.block(0, 0).unwrap();
    /// assert!(Solver::try_new(&inst, Default::default()).is_ok());
    /// ```
    ///
    /// # Errors
    /// [`OutOfMemory`] if the solver's board and trail cannot be allocated.
    pub fn try_new(instance: &Instance, options: Options) -> Result<Self, OutOfMemory> {
        let n = instance.n();
        let blocked = instance.blocked().map(|(r, c)| (r as u32, c as u32));
        let search: Box<dyn Engine> = if n <= Bits64::MAX_N {
            Box::new(Learning::new(Bits64::new(n, blocked), instance, options))
        } else if n <= Bits128::MAX_N {
            Box::new(Learning::new(Bits128::new(n, blocked), instance, options))
        } else {
            Box::new(Search::new(General::new(n, blocked)?, instance, options))
        };
        Ok(Solver {
            search,
            stop: &NEVER,
        })
    }

    /// Ends every later search once `flag` is set, within 1024 nodes, with
    /// [`Status::Interrupted`].
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use nqueens::cp::{Instance, Solver, Status};
    /// let stop = AtomicBool::new(true);
    /// let mut solver = Solver::new(&Instance::new(20), Default::default()).stop_when(&stop);
    /// assert_eq!(solver.count().1, Status::Interrupted);
    /// ```
    #[must_use]
    pub fn stop_when(mut self, flag: &'s AtomicBool) -> Solver<'s> {
        self.stop = flag;
        self
    }

    /// Turns no-good learning on or off for [`find`](Self::find). By default boards of 100
    /// to 128 with blocked squares learn and probe in turns (see [`probing`](Self::probing)),
    /// where proving that no completion exists is the hard part; boards of 90 to 99 learn for
    /// a while, then search without learning (this turns learning alone on, or off, for
    /// good); counting and listing never learn, nor do boards wider than 128.
    ///
    /// ```
    /// use nqueens::cp::{Instance, Solver};
    /// let inst = Instance::parse("4\nx 1 2\nx 1 3\n").unwrap();
    /// let mut learning = Solver::new(&inst, Default::default());
    /// let mut plain = Solver::new(&inst, Default::default()).learning(false);
    /// assert_eq!(learning.find().0.is_some(), plain.find().0.is_some());
    /// ```
    #[must_use]
    pub fn learning(mut self, on: bool) -> Self {
        self.search.set_learning(on);
        self
    }

    /// Turns the search with probing on or off for [`find`](Self::find): on the boards of up
    /// to 128 columns with blocked squares whose free squares fit the packed board (about
    /// 1,900 at 128 columns), every square of a row or column of two gets a trial queen at
    /// every node, and the squares that fail are taken off. It is on by default from 65 to
    /// 89 columns, and takes turns with learning from 100 to 128. Off, the plain search
    /// runs.
    ///
    /// ```
    /// use nqueens::cp::{Instance, Solver};
    /// let inst = Instance::parse("6\nx 1 2\nx 2 4\nx 3 6\n").unwrap();
    /// let mut probing = Solver::new(&inst, Default::default()).probing(true);
    /// let mut plain = Solver::new(&inst, Default::default()).probing(false);
    /// let found = probing.find().0;
    /// assert_eq!(found.is_some(), plain.find().0.is_some());
    /// assert!(found.is_none_or(|p| inst.admits(&p)));
    /// ```
    #[must_use]
    pub fn probing(mut self, on: bool) -> Self {
        self.search.set_probing(on);
        self
    }

    /// The statistics so far, summed over every search this solver ran.
    ///
    /// ```
    /// let mut solver = nqueens::cp::Solver::new(&nqueens::cp::Instance::new(4), Default::default());
    /// solver.count();
    /// assert_eq!(solver.stats().solutions, 2);
    /// ```
    pub fn stats(&self) -> &Stats {
        self.search.stats()
    }

    /// Finds one completion, restarting with new tie-breaking if [`Options::restarts`] is set.
    /// `(Some(p), Stopped)` when found, `(None, Exhausted)` when there is none.
    ///
    /// ```
    /// let mut solver = nqueens::cp::Solver::new(&nqueens::cp::Instance::new(3), Default::default());
    /// assert_eq!(solver.find(), (None, nqueens::cp::Status::Exhausted));
    /// ```
    pub fn find(&mut self) -> (Option<Placement>, Status) {
        self.search.find(self.stop)
    }

    /// Calls `visit` with every completion, in search order, until it breaks.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// let mut solver = nqueens::cp::Solver::new(&nqueens::cp::Instance::new(5), Default::default());
    /// let mut all = Vec::new();
    /// solver.for_each(|p| { all.push(p.clone()); ControlFlow::Continue(()) });
    /// assert_eq!(all.len(), 10);
    /// ```
    pub fn for_each(&mut self, mut visit: impl FnMut(&Placement) -> ControlFlow<()>) -> Status {
        self.search
            .each(&mut |cols| visit(&Placement::new(cols.to_vec())), self.stop)
    }

    /// [`for_each`](Self::for_each), reporting every step of the search to `obs`: decisions
    /// and forced queens placed, squares the domains no longer hold, failed propagations,
    /// queens taken off on backing up. `Break` from `obs` stops the search.
    ///
    /// ```
    /// use nqueens::observe::Work;
    /// let mut solver = nqueens::cp::Solver::new(&nqueens::cp::Instance::new(6), Default::default());
    /// let mut work = Work::default();
    /// solver.observe(|_| std::ops::ControlFlow::Continue(()), &mut work);
    /// assert_eq!(work.solutions, 4);
    /// assert_eq!(work.nodes, solver.stats().nodes + solver.stats().propagations);
    /// ```
    pub fn observe(
        &mut self,
        mut visit: impl FnMut(&Placement) -> ControlFlow<()>,
        obs: &mut dyn Observer,
    ) -> Status {
        self.search.observe(
            &mut |cols| visit(&Placement::new(cols.to_vec())),
            obs,
            self.stop,
        )
    }

    /// Counts the completions.
    ///
    /// ```
    /// let mut solver = nqueens::cp::Solver::new(&nqueens::cp::Instance::new(8), Default::default());
    /// assert_eq!(solver.count(), (92, nqueens::cp::Status::Exhausted));
    /// ```
    pub fn count(&mut self) -> (u64, Status) {
        let mut count = 0;
        let status = self.search.each(
            &mut |_| {
                count += 1;
                ControlFlow::Continue(())
            },
            self.stop,
        );
        (count, status)
    }
}

#[cfg(test)]
impl Solver<'_> {
    /// A solver on the counter board even for small `n`, so tests can hold the two boards to
    /// each other.
    pub(crate) fn with_general_board(instance: &Instance, options: Options) -> Self {
        let blocked = instance.blocked().map(|(r, c)| (r as u32, c as u32));
        let board = General::new(instance.n(), blocked).unwrap();
        Solver {
            search: Box::new(Search::new(board, instance, options)),
            stop: &NEVER,
        }
    }

    /// The no-goods learned so far.
    pub(crate) fn nogoods(&self) -> Vec<Vec<(usize, usize)>> {
        self.search.nogoods()
    }

    /// How many queens minimisation took out of the no-goods so far.
    pub(crate) fn minimised(&self) -> u64 {
        self.search.minimised()
    }

    /// How many nodes the plain search cut by a failed state so far.
    pub(crate) fn failed_cuts(&self) -> u64 {
        self.search.failed_cuts()
    }

    /// A solver that learns for `nodes` nodes, then searches plainly, whatever the width.
    pub(crate) fn with_learn_first(instance: &Instance, options: Options, nodes: u64) -> Self {
        let n = instance.n();
        assert!(n <= Bits64::MAX_N && instance.blocked().next().is_some());
        let blocked = instance.blocked().map(|(r, c)| (r as u32, c as u32));
        let mut l = Learning::new(Bits64::new(n, blocked), instance, options);
        (l.mode, l.first_nodes) = (Mode::LearnFirst, nodes);
        Solver {
            search: Box::new(l),
            stop: &NEVER,
        }
    }

    /// A learning solver whose no-good store is cut back at every restart past `cap`
    /// no-goods, so that small boards go through the cuts too.
    pub(crate) fn with_nogood_cap(instance: &Instance, options: Options, cap: usize) -> Self {
        let n = instance.n();
        let blocked = instance.blocked().map(|(r, c)| (r as u32, c as u32));
        let mut search: Box<dyn Engine> = if n <= Bits64::MAX_N {
            let mut l = Learning::new(Bits64::new(n, blocked), instance, options);
            let mut learner = Learner::new(n, instance.blocked());
            learner.set_cap(cap);
            l.learner = Some(learner);
            Box::new(l)
        } else {
            let mut l = Learning::new(Bits128::new(n, blocked), instance, options);
            let mut learner = Learner::new(n, instance.blocked());
            learner.set_cap(cap);
            l.learner = Some(learner);
            Box::new(l)
        };
        search.set_learning(true);
        Solver {
            search,
            stop: &NEVER,
        }
    }

    /// A solver on the double-word board even for small `n`, to hold it to the others.
    pub(crate) fn with_board128(instance: &Instance, options: Options) -> Self {
        let blocked = instance.blocked().map(|(r, c)| (r as u32, c as u32));
        Solver {
            search: Box::new(Learning::new(
                Bits128::new(instance.n(), blocked),
                instance,
                options,
            )),
            stop: &NEVER,
        }
    }
}

/// The search state over one board.
pub(crate) struct Search<B> {
    pub(super) dom: B,
    /// `false` when the given queens and blocked squares already leave no completion.
    pub(super) root_ok: bool,
    /// Trail mark after the given queens and root propagation: every search starts here.
    pub(super) root: usize,
    /// Columns in middle-out order.
    pub(super) values: Vec<u32>,
    /// The index of each column in `values`, set when a run starts.
    pub(super) rank: Vec<u32>,
    /// Tie-breaking key of each row (smaller is chosen first).
    pub(super) key: Vec<u64>,
    /// Branch on columns too. Blocked squares break the symmetry between rows and columns, so
    /// a column can have fewer candidate rows than any row has squares; on free boards the
    /// scan of the columns would cost without choosing differently.
    pub(super) dual: bool,
    /// Ties between rows broken by reach, on the boards where that was measured to pay.
    reach: Option<Reach>,
    decisions: Vec<Decision>,
    pub(super) options: Options,
    rng: ChaCha8Rng,
    pub(super) stats: Stats,
    /// Where the current call must stop: a node count and a moment, from the options.
    pub(super) node_cap: Option<u64>,
    pub(super) deadline: Option<Instant>,
    /// The nodes at which the clock and the stop flag are read: see [`clock_mask`].
    pub(super) clock_mask: u64,
    /// The failed states of the searches for one completion with restarts, on the boards
    /// that describe their state.
    failed: Option<FailedStates>,
}

impl<B: Board> Engine for Search<B> {
    fn find(&mut self, stop: &AtomicBool) -> (Option<Placement>, Status) {
        self.begin();
        let mut found = None;
        let mut visit = |cols: &[u32]| {
            found = Some(Placement::new(cols.to_vec()));
            ControlFlow::Break(())
        };
        let status = if self.options.restarts {
            let first = (self.key.clone(), self.values.clone());
            let mut run = 1;
            loop {
                let budget = (run <= RESTART_RUNS).then(|| RESTART_BASE * luby(run));
                match self.run(&mut visit, budget, &mut (), stop, true) {
                    End::Done(status) => break status,
                    End::Restart => {
                        run += 1;
                        self.stats.restarts += 1;
                        if run > RESTART_RUNS {
                            // The last run goes to the end, in the first run's order.
                            (self.key, self.values) = first.clone();
                        } else {
                            self.shuffle_ties();
                            // Tie-breaking alone barely changes the tree (only rows equally
                            // far from the centre tie); a random value order makes each run a
                            // new one.
                            self.values.shuffle(&mut self.rng);
                        }
                    }
                }
            }
        } else {
            self.run_to_end(&mut visit, &mut (), stop)
        };
        (found, status)
    }

    fn each(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        stop: &AtomicBool,
    ) -> Status {
        self.begin();
        self.run_to_end(visit, &mut (), stop)
    }

    fn observe(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        obs: &mut dyn Observer,
        stop: &AtomicBool,
    ) -> Status {
        self.begin();
        self.run_to_end(visit, &mut { obs }, stop)
    }

    fn stats(&self) -> &Stats {
        &self.stats
    }

    #[cfg(test)]
    fn failed_cuts(&self) -> u64 {
        self.failed.as_ref().map_or(0, |f| f.cuts)
    }
}

impl<B: Board> Search<B> {
    /// A search on `dom` (empty but for blocked squares), with the given queens placed and
    /// propagated.
    fn new(mut dom: B, instance: &Instance, options: Options) -> Self {
        let n = instance.n();
        let started = Instant::now();
        let mut stats = Stats::default();
        // An instance is valid by construction: its queens attack no other and stand on no
        // blocked square, so each given square is still available when its turn comes.
        for (r, c) in instance.fixed() {
            dom.place(r, c);
        }
        let root_ok = dom.propagate(&mut stats);
        let mut values: Vec<u32> = (0..n as u32).collect();
        values.sort_by_key(|&c| (2 * c as i64 - (n as i64 - 1)).abs());
        let mut search = Search {
            root: dom.mark(),
            dom,
            root_ok,
            rank: vec![0; values.len()],
            values,
            key: Vec::new(),
            dual: instance.blocked().next().is_some(),
            reach: Reach::of_instance(instance),
            decisions: Vec::new(),
            options,
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            stats,
            node_cap: None,
            deadline: None,
            clock_mask: clock_mask(n),
            failed: (options.restarts && B::STATES).then(FailedStates::default),
        };
        search.shuffle_ties();
        search.stats.time = started.elapsed();
        search
    }

    /// Starts the limits of [`Options`] counting from now.
    pub(super) fn begin(&mut self) {
        self.node_cap = self.options.node_limit.map(|l| self.stats.nodes + l);
        // A deadline too far away to represent is no deadline.
        self.deadline = self
            .options
            .time_limit
            .and_then(|t| Instant::now().checked_add(t));
    }

    fn run_to_end(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        obs: &mut impl Observer,
        stop: &AtomicBool,
    ) -> Status {
        match self.run(visit, None, obs, stop, false) {
            End::Done(status) => status,
            End::Restart => unreachable!("no failure budget, no restart"),
        }
    }

    /// Sets `rank` from `values`, which a run does not change.
    pub(super) fn rank_values(&mut self) {
        for (k, &v) in self.values.iter().enumerate() {
            self.rank[v as usize] = k as u32;
        }
    }

    /// New random tie-breaking keys: centre distance first, random bits below it.
    pub(super) fn shuffle_ties(&mut self) {
        let n = self.dom.n() as u64;
        let rng = &mut self.rng;
        self.key = (0..n)
            .map(|r| (2 * r).abs_diff(n - 1) << 32 | rng.r#gen::<u32>() as u64)
            .collect();
    }

    /// The line to branch on, `(index, is_column)`, or `None` if every row has its queen: the
    /// unassigned row with the smallest domain (ties by reach where [`Reach`] applies, then
    /// by key), unless a free column can be taken by fewer rows than that (only with blocked
    /// squares: see `dual`).
    pub(super) fn choose_line(&self) -> Option<(usize, bool)> {
        let row = match &self.reach {
            Some(reach) => self.smallest_row_by_reach(reach)?,
            None => self.smallest_row(|r| self.key[r])?,
        };
        Some(self.or_weaker_column(row))
    }

    /// [`choose_line`](Self::choose_line) with ties between rows of the smallest domain
    /// broken by `rank`, smallest first.
    pub(super) fn choose_line_by<K: Ord>(
        &self,
        rank: impl Fn(usize) -> K,
    ) -> Option<(usize, bool)> {
        Some(self.or_weaker_column(self.smallest_row(rank)?))
    }

    /// The unassigned row of the smallest domain, ties broken by `rank`.
    fn smallest_row<K: Ord>(&self, rank: impl Fn(usize) -> K) -> Option<usize> {
        self.dom
            .unassigned()
            .iter()
            .map(|&r| r as usize)
            .min_by_key(|&r| (self.dom.size(r), rank(r)))
    }

    /// [`smallest_row`](Self::smallest_row) with ties broken by reach, then by key. The
    /// smallest size first, then the reach only of the rows of that size: a reach costs a
    /// load a square, a size one `popcnt`, and most rows are larger.
    fn smallest_row_by_reach(&self, reach: &Reach) -> Option<usize> {
        let rows = self.dom.unassigned();
        let least = rows.iter().map(|&r| self.dom.size(r as usize)).min()?;
        rows.iter()
            .map(|&r| r as usize)
            .filter(|&r| self.dom.size(r) == least)
            .min_by_key(|&r| (Reverse(reach.row(&self.dom, r)), self.key[r]))
    }

    /// `(row, false)`, or `(column, true)` if a free column can be taken by fewer rows than
    /// `row` has squares (only with blocked squares: see `dual`).
    fn or_weaker_column(&self, row: usize) -> (usize, bool) {
        // Propagation leaves every free column two rows or more, so a row of two is never beaten.
        if self.dual
            && self.dom.size(row) > 2
            && let Some((c, support)) = self.dom.weakest_column()
            && support < self.dom.size(row)
        {
            return (c, true);
        }
        (row, false)
    }

    /// One run of the search loop, from the root. `failure_budget` ends it with a restart;
    /// `keep_failed` keeps failed states across runs, for a search for one completion only
    /// (in a count, a subtree that ends is not one without completions).
    fn run(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        failure_budget: Option<u64>,
        obs: &mut impl Observer,
        stop: &AtomicBool,
        keep_failed: bool,
    ) -> End {
        let started = Instant::now();
        // Lent to the run, which also borrows the rest of the search.
        let mut failed = self.failed.take();
        let lent = failed.as_mut().filter(|_| keep_failed);
        let end = self.run_inner(visit, failure_budget, obs, stop, lent);
        self.failed = failed;
        self.stats.time += started.elapsed();
        end
    }

    fn run_inner<O: Observer>(
        &mut self,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        failure_budget: Option<u64>,
        obs: &mut O,
        stop: &AtomicBool,
        mut failed: Option<&mut FailedStates>,
    ) -> End {
        // What the observer was last told the board holds, to report only what changes.
        let mut told = Vec::new();
        self.dom.undo_to(self.root);
        self.decisions.clear();
        self.rank_values();
        if let Some(failed) = failed.as_deref_mut() {
            failed.start_run();
        }
        if obs.active() {
            told = Vec::with_capacity(self.dom.n());
            if report_queens(obs, &mut told, self.dom.queens(), None).is_break() {
                return End::Done(Status::Stopped);
            }
        }
        if !self.root_ok {
            return End::Done(Status::Exhausted);
        }
        let failure_limit = failure_budget.map(|b| self.stats.failures + b);
        let (node_cap, deadline) = (self.node_cap, self.deadline);
        loop {
            // Here the board is consistent: every propagation of the queens so far succeeded.
            match self.choose_line() {
                None => {
                    self.stats.solutions += 1;
                    let cols = self.dom.queens();
                    let step = Step::Solution { cols, image: false };
                    if obs.step(step).is_break() || visit(cols).is_break() {
                        return End::Done(Status::Stopped);
                    }
                }
                Some((line, column)) => {
                    let depth = self.decisions.len();
                    self.decisions.push(Decision {
                        line: line as u32,
                        column,
                        next: 0,
                        mark: self.dom.mark(),
                        state: failed.as_deref_mut().and_then(|f| f.open(&self.dom, depth)),
                    });
                }
            }
            // Try the next square of the deepest row that has one left, backing up as needed.
            loop {
                let Some(decision) = self.decisions.last_mut() else {
                    return End::Done(Status::Exhausted);
                };
                self.dom.undo_to(decision.mark);
                let (line, column) = (decision.line as usize, decision.column);
                let tried = decision.next as usize;
                // Column branches come only with blocked squares, which the traces of the
                // ladder (empty boards) never meet: only a row's scan is told square by square.
                if obs.active()
                    && !column
                    && self.report_scan(obs, &mut told, line, tried).is_break()
                {
                    return End::Done(Status::Stopped);
                }
                let decision = self.decisions.last_mut().expect("the decision just read");
                let dom = &self.dom;
                // The square at value `v` of the line: a column of the row, or a row of the
                // column (which must still be without a queen).
                let square = |v: u32| {
                    if column {
                        (v as usize, line)
                    } else {
                        (line, v as usize)
                    }
                };
                let next = if column {
                    self.values[tried..]
                        .iter()
                        .position(|&r| {
                            dom.available(r as usize, line) && dom.queens()[r as usize] == NONE
                        })
                        .map(|offset| tried + offset)
                } else {
                    dom.first_in_order(line, &self.values, &self.rank, tried)
                };
                let Some(next) = next else {
                    // Every square failed: so does any node of this state, in any later run.
                    let done = self.decisions.pop().expect("the decision just read");
                    if let (Some(failed), Some(state)) = (failed.as_deref_mut(), done.state) {
                        failed.fail(state);
                    }
                    continue;
                };
                decision.next = (next + 1) as u32;
                if node_cap.is_some_and(|cap| self.stats.nodes >= cap) {
                    return End::Done(Status::NodeLimit);
                }
                if self.stats.nodes & self.clock_mask == 0 {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return End::Done(Status::TimeLimit);
                    }
                    if stop.load(Ordering::Relaxed) {
                        return End::Done(Status::Interrupted);
                    }
                }
                if failure_limit.is_some_and(|limit| self.stats.failures >= limit) {
                    return End::Restart;
                }
                self.stats.nodes += 1;
                self.stats.column_branches += u64::from(column);
                let (r, c) = square(self.values[next]);
                self.dom.place(r, c);
                let depth = self.decisions.len();
                let consistent = self.dom.propagate(&mut self.stats)
                    && !failed
                        .as_deref_mut()
                        .is_some_and(|f| f.failed(&self.dom, depth));
                if obs.active() {
                    let told_all = report_queens(obs, &mut told, self.dom.queens(), Some(r));
                    if told_all.is_break()
                        || (!consistent && obs.step(Step::DeadEnd { row: None }).is_break())
                    {
                        return End::Done(Status::Stopped);
                    }
                }
                if consistent {
                    break;
                }
                self.stats.failures += 1;
            }
        }
    }

    /// Reports, for the observer only, the queens taken off since it was last told, then the
    /// scan for `row`'s next square from the `tried`-th in value order: the squares the domain
    /// no longer holds are rejected (with the line of the queen that took them), and each
    /// square looked at is one check.
    fn report_scan(
        &self,
        obs: &mut impl Observer,
        told: &mut Vec<(usize, u32)>,
        row: usize,
        tried: usize,
    ) -> ControlFlow<()> {
        let queens = self.dom.queens();
        report_queens(obs, told, queens, None)?;
        for &c in &self.values[tried..] {
            let col = c as usize;
            obs.checks(1);
            if self.dom.available(row, col) {
                return ControlFlow::Continue(());
            }
            let reason = attack(queens, row, col).unwrap_or(Reason::Propagation);
            obs.step(Step::Reject { row, col, reason })?;
        }
        ControlFlow::Continue(())
    }
}

/// Tells `obs` how the board changed from `told` (the queens it was told of, in the order they
/// were placed) to `queens` and updates `told`: queens taken off, the last placed first (undoing
/// a decision removes the queens placed since, so they are the end of `told`), then the queen of
/// the `decided` row, then those propagation forced.
fn report_queens(
    obs: &mut impl Observer,
    told: &mut Vec<(usize, u32)>,
    queens: &[u32],
    decided: Option<usize>,
) -> ControlFlow<()> {
    if let Some(first) = told.iter().position(|&(row, col)| queens[row] != col) {
        for &(row, col) in told[first..].iter().rev() {
            obs.step(Step::Remove {
                row,
                col: col as usize,
            })?;
        }
        told.truncate(first);
    }
    let forced = (0..queens.len()).filter(|&r| Some(r) != decided);
    for row in decided.into_iter().chain(forced) {
        if queens[row] != NONE && told.iter().all(|&(r, _)| r != row) {
            told.push((row, queens[row]));
            obs.step(Step::Place {
                row,
                col: queens[row] as usize,
                forced: Some(row) != decided,
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// The Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..., `i` from 1: restart budgets that waste
/// at most a logarithmic factor against the best fixed budget.
pub(super) fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::HashSet;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::{Bits128, Board, Instance, Options, Search, clock_mask, luby};
    use crate::cp::blocked_board;

    /// What [`Reach`](super::Reach) should give, square by square: the open squares of the
    /// column and both diagonals of each available square of row `r`, itself on each.
    fn reach_by_hand(blocked: &HashSet<(usize, usize)>, dom: &impl Board, r: usize) -> u32 {
        let n = dom.n() as i64;
        let open = |r2: i64, c2: i64| {
            (0..n).contains(&c2) && !blocked.contains(&(r2 as usize, c2 as usize))
        };
        let r = r as i64;
        let mut sum = 0;
        for c in (0..n).filter(|&c| dom.available(r as usize, c as usize)) {
            for r2 in 0..n {
                let columns = [c, c + r2 - r, c + r - r2];
                sum += columns.iter().filter(|&&c2| open(r2, c2)).count() as u32;
            }
        }
        sum
    }

    #[test]
    fn ties_go_to_the_row_of_most_reach_from_65_to_128_columns() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut checked, mut by_reach) = (0, 0);
        for _ in 0..12 {
            let n = rng.gen_range(65..=128);
            let inst = blocked_board(n, n * n * rng.gen_range(80..=92) / 100, 1, rng.r#gen());
            let mut search = Search::new(
                Bits128::new(n, inst.blocked().map(|(r, c)| (r as u32, c as u32))),
                &inst,
                Options::default(),
            );
            if !search.root_ok {
                continue;
            }
            let blocked: HashSet<(usize, usize)> = inst.blocked().collect();
            let reach = search
                .reach
                .as_ref()
                .expect("blocked squares, 65 to 128 columns");
            // The row choice at each step of one descent: a queen on the first square of the
            // chosen row (or of the chosen column), propagated, until a failure or a solution.
            loop {
                let dom = &search.dom;
                let rows: Vec<usize> = dom.unassigned().iter().map(|&r| r as usize).collect();
                for &r in &rows {
                    assert_eq!(reach.row(dom, r), reach_by_hand(&blocked, dom, r), "{inst}");
                }
                let Some(least) = rows.iter().map(|&r| dom.size(r)).min() else {
                    break;
                };
                let tied = || rows.iter().copied().filter(|&r| dom.size(r) == least);
                let best = tied()
                    .max_by_key(|&r| (reach_by_hand(&blocked, dom, r), Reverse(search.key[r])))
                    .expect("a row");
                let by_key = tied().min_by_key(|&r| search.key[r]).expect("a row");
                let (r, c) = match search.choose_line() {
                    Some((line, false)) => {
                        assert_eq!(line, best, "{inst}");
                        by_reach += usize::from(best != by_key);
                        let c = (0..n).find(|&c| dom.available(line, c)).expect("a square");
                        (line, c)
                    }
                    // A column that fewer rows can take than the smallest row has squares.
                    Some((c, true)) => {
                        let support = rows.iter().filter(|&&r| dom.available(r, c)).count();
                        assert!(support < least as usize, "{inst}");
                        let r = rows
                            .iter()
                            .copied()
                            .find(|&r| dom.available(r, c))
                            .expect("a row");
                        (r, c)
                    }
                    None => unreachable!("rows are left"),
                };
                checked += 1;
                search.dom.place(r, c);
                if !search.dom.propagate(&mut search.stats) {
                    break;
                }
            }
        }
        assert!(checked >= 50, "{checked} choices checked");
        // Reach decided, not the key alone, somewhere: the test would see a search without it.
        assert!(
            by_reach >= 3,
            "{by_reach} choices where reach took another row than the key"
        );
    }

    #[test]
    fn reach_only_from_65_to_128_columns_with_blocked_squares() {
        for (n, block, expected) in [
            (64, true, false),
            (65, true, true),
            (128, true, true),
            (129, true, false),
            (100, false, false),
        ] {
            let mut inst = Instance::new(n);
            if block {
                inst.block(1, 2).unwrap();
            }
            assert_eq!(
                super::Reach::of_instance(&inst).is_some(),
                expected,
                "{n} {block}"
            );
        }
    }

    #[test]
    fn the_clock_is_read_more_often_on_wider_boards() {
        let masks: Vec<u64> = [1, 8, 128, 129, 1000, 20_000, 1 << 17, 1 << 20]
            .iter()
            .map(|&n| clock_mask(n))
            .collect();
        assert_eq!(masks, [1023, 1023, 1023, 511, 127, 3, 0, 0]);
        for n in 1..5000 {
            let m = clock_mask(n);
            assert!((m + 1).is_power_of_two());
            assert!(m >= clock_mask(n + 1));
        }
    }

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
