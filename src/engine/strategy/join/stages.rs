//! Where a join's time goes, stage by stage: the measurement behind its tuning.

use std::time::{Duration, Instant};

/// Time and work of the join's stages, summed over the tasks counted with
/// [`JoinTasks::with_stage_times`](super::JoinTasks::with_stage_times) (CPU time of all threads,
/// measured as wall time per thread, so it adds up to about `threads` times the elapsed time).
///
/// ```
/// use nqueens::engine::{strategy::join::JoinTasks, TaskSet};
/// let tasks = JoinTasks::new(12).unwrap().with_stage_times();
/// let total: u128 = (0..tasks.len()).map(|i| tasks.count(i).total).sum();
/// assert_eq!(total, 14200);
/// let stages = tasks.stage_times();
/// assert!(stages.words > 0 && stages.pairs >= stages.words);
/// assert!(stages.sum() > std::time::Duration::ZERO);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageTimes {
    /// Listing the half-boards of each join from the quarter lists.
    pub listing: Duration,
    /// Choosing the cut bits and sorting both sides into classes.
    pub sorting: Duration,
    /// Building the sieves: transposing the stored words, ANDing rows ahead of time.
    pub building: Duration,
    /// The sieve's query loop: counting disjoint pairs.
    pub counting: Duration,
    /// Words listed: both halves of every join whose halves are held whole (one listed chunk
    /// by chunk, past [`CHUNK`](super::CHUNK) words, is not counted here).
    pub words: u64,
    /// Words stored in sieves (those free of the long diagonals).
    pub stored: u64,
    /// Pairs tested: every query times the stored words of every group it met.
    pub pairs: u64,
}

impl StageTimes {
    /// The four stages' times together.
    pub fn sum(&self) -> Duration {
        self.listing + self.sorting + self.building + self.counting
    }
}

impl std::ops::AddAssign for StageTimes {
    fn add_assign(&mut self, other: StageTimes) {
        self.listing += other.listing;
        self.sorting += other.sorting;
        self.building += other.building;
        self.counting += other.counting;
        self.words += other.words;
        self.stored += other.stored;
        self.pairs += other.pairs;
    }
}

/// A stage of the join, for [`Clock::lap`].
#[derive(Clone, Copy, Debug)]
pub(super) enum Stage {
    Listing,
    Sorting,
    Building,
    Counting,
}

/// Where the join reports its stages: a stopwatch when timed, nothing at all otherwise.
pub(super) trait Clock {
    /// Starts timing a task.
    fn start(&mut self);
    /// Charges the time since the last lap (or start) to `stage`.
    fn lap(&mut self, stage: Stage);
    /// Notes `words` words listed.
    fn words(&mut self, words: u64);
    /// Notes the words stored and the pairs tested by a sieve (`(stored, pairs)`).
    fn work(&mut self, work: (u64, u64));
}

/// The production clock: no state, no reads of the time; every call compiles to nothing.
pub(super) struct NoClock;

impl Clock for NoClock {
    #[inline(always)]
    fn start(&mut self) {}
    #[inline(always)]
    fn lap(&mut self, _: Stage) {}
    #[inline(always)]
    fn words(&mut self, _: u64) {}
    #[inline(always)]
    fn work(&mut self, _: (u64, u64)) {}
}

/// A stopwatch that charges the time since its last lap to a stage.
#[derive(Default)]
pub(super) struct StageClock {
    last: Option<Instant>,
    /// What was measured.
    pub times: StageTimes,
}

impl Clock for StageClock {
    fn start(&mut self) {
        self.last = Some(Instant::now());
    }

    #[inline(always)]
    fn lap(&mut self, stage: Stage) {
        let now = Instant::now();
        let spent = now - self.last.unwrap_or(now);
        let t = &mut self.times;
        *match stage {
            Stage::Listing => &mut t.listing,
            Stage::Sorting => &mut t.sorting,
            Stage::Building => &mut t.building,
            Stage::Counting => &mut t.counting,
        } += spent;
        self.last = Some(now);
    }

    fn words(&mut self, words: u64) {
        self.times.words += words;
    }

    fn work(&mut self, (stored, pairs): (u64, u64)) {
        self.times.stored += stored;
        self.times.pairs += pairs;
    }
}
