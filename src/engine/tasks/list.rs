//! The identity of a task list and its slices: what checkpoints, shards and results name, so
//! that work on one list is never mixed with another's.

use std::fmt;
use std::str::FromStr;

use crate::engine::{Strategy, TaskSet};

/// The identity of a task list, or of a slice of it: what a checkpoint or a shard's result
/// belongs to. Resuming, or merging, requires every field to match.
///
/// ```
/// use nqueens::engine::{strategy::task_list, tasks::list::{Header, Slice}, Strategy};
/// let h = Header::new(task_list(8, Strategy::Backtrack).unwrap().as_ref(), Slice::ALL);
/// assert_eq!((h.n, h.strategy, h.slice), (8, Strategy::Backtrack, Slice::ALL));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Board size.
    pub n: usize,
    /// Strategy of the task list.
    pub strategy: Strategy,
    /// Version of the task list.
    pub version: u32,
    /// Number of tasks in the whole list.
    pub tasks: usize,
    /// The slice of the list being counted.
    pub slice: Slice,
}

impl Header {
    /// The header for counting `slice` of `tasks` (example on [`Header`]).
    pub fn new(tasks: &dyn TaskSet, slice: Slice) -> Header {
        Header {
            n: tasks.n(),
            strategy: tasks.strategy(),
            version: tasks.version(),
            tasks: tasks.len(),
            slice,
        }
    }
}

/// Slice `index` of `count` of a task list (`1 <= index <= count`).
///
/// ```
/// use nqueens::engine::tasks::list::Slice;
/// let s: Slice = "2/3".parse().unwrap();
/// assert_eq!(s.indices(7).collect::<Vec<_>>(), vec![1, 4]);
/// assert_eq!(s.to_string(), "2/3");
/// // No more shards than `merge` takes back.
/// assert!("1/16777216".parse::<Slice>().is_ok() && "1/16777217".parse::<Slice>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slice {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl Slice {
    /// The whole list.
    pub const ALL: Slice = Slice { index: 1, count: 1 };

    /// `true` if task `task` belongs to this slice.
    ///
    /// ```
    /// use nqueens::engine::tasks::list::Slice;
    /// let s = Slice { index: 2, count: 3 };
    /// assert!(s.contains(4) && !s.contains(5));
    /// assert!(Slice::ALL.contains(5));
    /// ```
    pub fn contains(&self, task: usize) -> bool {
        task % self.count == self.index - 1
    }

    /// The task indices of this slice of a list of `len` tasks.
    ///
    /// ```
    /// use nqueens::engine::tasks::list::Slice;
    /// assert_eq!(Slice { index: 1, count: 2 }.indices(5).collect::<Vec<_>>(), [0, 2, 4]);
    /// ```
    pub fn indices(&self, len: usize) -> impl Iterator<Item = usize> + use<> {
        (self.index - 1..len).step_by(self.count)
    }
}

impl fmt::Display for Slice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Slice {
    type Err = String;

    fn from_str(s: &str) -> Result<Slice, String> {
        let bad = || format!("{s:?} is not a shard (expected I/K with 1 <= I <= K, e.g. 3/8)");
        let (i, k) = s.split_once('/').ok_or_else(bad)?;
        let index = i.trim().parse().map_err(|_| bad())?;
        let count = k.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        // What `merge` takes back: a shard of more is never counted.
        let most = super::shard::MAX_SHARDS;
        if count > most {
            return Err(format!("{s:?}: a count splits into at most {most} shards"));
        }
        Ok(Slice { index, count })
    }
}
