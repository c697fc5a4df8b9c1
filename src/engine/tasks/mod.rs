//! The task list's bookkeeping: what names a list and its slices, what was finished, what a
//! task's tally can be, and how long a count takes.
//!
//! - [`list`]: the identity of a task list ([`list::Header`]) and its slices ([`list::Slice`]),
//!   which checkpoints and shards name;
//! - [`checkpoint`]: an append-only journal of finished tasks, to resume a stopped count;
//! - [`shard`]: the result of a slice counted apart, and the merge of many;
//! - [`bounds`]: what a task's tally can be, to check numbers read from files;
//! - [`estimate`]: how long a count will take, before it starts.

pub mod bounds;
pub mod checkpoint;
pub mod estimate;
pub mod list;
pub mod shard;
