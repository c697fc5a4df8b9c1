//! Where a join's time goes, stage by stage: the measurement behind its tuning.

use std::time::{Duration, Instant};

/// Time and work of the join's stages, summed over the tasks counted with
/// [`JoinTasks::with_stage_times`](super::JoinTasks::with_stage_times) (CPU time of all threads,
/// measured as wall time per thread, so it adds up to about `threads` times the elapsed time).
///
/// ```
/// use nqueens::engine::{join::JoinTasks, TaskSet};
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

/// A stopwatch that charges the time since its last lap to a stage; it reads the clock only
/// when on, so an untimed count pays one predictable branch per stage.
#[derive(Default)]
pub(super) struct Clock {
    last: Option<Instant>,
    /// What was measured since the last [`Clock::take`].
    pub times: StageTimes,
}

impl Clock {
    /// Starts timing if `on`, else stops it.
    pub fn start(&mut self, on: bool) {
        self.last = on.then(Instant::now);
    }

    /// Charges the time since the last lap (or start) to `stage`.
    #[inline(always)]
    pub fn lap(&mut self, stage: Stage) {
        if let Some(last) = self.last {
            let now = Instant::now();
            let spent = now - last;
            let t = &mut self.times;
            *match stage {
                Stage::Listing => &mut t.listing,
                Stage::Sorting => &mut t.sorting,
                Stage::Building => &mut t.building,
                Stage::Counting => &mut t.counting,
            } += spent;
            self.last = Some(now);
        }
    }

    /// Whether the clock is running.
    pub fn on(&self) -> bool {
        self.last.is_some()
    }

    /// The times measured so far, leaving zeros.
    pub fn take(&mut self) -> StageTimes {
        std::mem::take(&mut self.times)
    }
}
