//! Threads: how many cores this process may use, and the one way a pool of threads is made.

use std::collections::VecDeque;
use std::sync::OnceLock;

use rayon::prelude::*;

/// The cores this process may use, asked once: on Linux the question reads the cgroup's files,
/// which costs more than a small count.
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |p| p.get()))
}

/// A pool of `threads` threads, at least one and at most one per core: more threads than cores
/// only add switching (and a number from a user must not start a million threads).
pub(crate) fn pool(threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.clamp(1, cores()))
        .build()
}

/// What makes item `index` of a numbered run on its own (a generator of puzzles): the same
/// item for the same number, whatever else was made, so a run reads the same on any number of
/// threads.
pub(crate) trait Numbered: Sync {
    /// What is made.
    type Item: Send;
    /// Why it could not be.
    type Error: Send;
    /// Makes item `index`.
    fn make(&self, index: u64) -> Result<Self::Item, Self::Error>;
}

/// Items per thread in one batch: enough that a slow item rarely leaves threads idle for long,
/// few enough that the first items come out soon.
const BATCH_PER_THREAD: u64 = 4;

/// Items `0..count` of a [`Numbered`] maker, made on a pool a batch at a time and handed out in
/// their order; after an error the run ends.
pub(crate) struct InOrder<M: Numbered> {
    maker: M,
    /// The number of the next item to make.
    next: u64,
    count: u64,
    /// Made, not yet handed out.
    ready: VecDeque<Result<M::Item, M::Error>>,
    pool: Option<rayon::ThreadPool>,
    failed: bool,
}

impl<M: Numbered> InOrder<M> {
    /// Items `0..count` of `maker` on `threads` threads.
    pub(crate) fn new(maker: M, count: u64, threads: usize) -> Self {
        // A pool of one is the calling thread: no pool at all.
        let pool = (threads > 1).then(|| self::pool(threads).ok()).flatten();
        InOrder {
            maker,
            next: 0,
            count,
            ready: VecDeque::new(),
            pool,
            failed: false,
        }
    }
}

impl<M: Numbered> Iterator for InOrder<M> {
    type Item = Result<M::Item, M::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        if self.ready.is_empty() && self.next < self.count {
            let maker = &self.maker;
            match &self.pool {
                None => self.ready.push_back(maker.make(self.next)),
                Some(pool) => {
                    let batch = BATCH_PER_THREAD * pool.current_num_threads() as u64;
                    let (start, end) = (self.next, self.count.min(self.next + batch));
                    let made: Vec<_> = pool.install(|| {
                        (start..end)
                            .into_par_iter()
                            .map(|i| maker.make(i))
                            .collect()
                    });
                    self.ready.extend(made);
                }
            }
            self.next += self.ready.len() as u64;
        }
        let item = self.ready.pop_front()?;
        self.failed = item.is_err();
        Some(item)
    }
}
