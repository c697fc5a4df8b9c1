//! Fuzzing every reader on stable Rust: random bytes and mutations of valid records go to the
//! placement reader (perm, board, JSON, SVG, puzzle), completion instances, checkpoint journals and shard
//! result files. Each must return an error or a valid result, never panic, and never allocate
//! more than a bound set by the size of its input, which a counting allocator checks.
//!
//! A short campaign runs with the tests; `NQ_FUZZ_CASES=1000000 cargo test --release --test
//! fuzz_readers` runs a long one (that many cases per reader).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

use nqueens::Placement;
use nqueens::cp::Instance;
use nqueens::engine::tasks::checkpoint::{Header, Journal};
use nqueens::engine::tasks::shard::{ShardResult, Slice, merge};
use nqueens::engine::{Strategy as Engine, Tally, strategy::task_list as tasks};
use nqueens::format::{self, Format, Reader};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Counts the bytes live on each thread, and their peak.
struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grew(by: usize) {
    // `try_with`: allocations while a thread is being torn down are not counted.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + by;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn shrank(by: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(by)));
}

// SAFETY: every call is passed to the system allocator unchanged; only sizes are recorded, in
// thread-local cells that need no allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout contract is the system allocator's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller guarantees for `GlobalAlloc::realloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Old and new blocks may both be live while the bytes are copied.
            grew(new_size);
            shrank(layout.size());
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result with the peak of the bytes it had allocated at once.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let out = f();
    (out, PEAK.with(Cell::get) - start)
}

fn config() -> Config {
    let cases = std::env::var("NQ_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        // A failure prints its minimal input; none is written into the source tree.
        failure_persistence: None,
        ..Config::default()
    }
}

/// Pieces that make readers take their rarer paths: sizes at and past the limits, the tokens
/// that start and end records, numbers that do not fit.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "4294967295",
    "4294967296",
    "99999999999999999999999",
    "-1",
    "1e308",
    "NaN",
    "\n",
    "\n\n",
    "\r\n",
    " ",
    "\t",
    ",",
    "#",
    "Q",
    ".",
    "x",
    "q",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ":",
    "\"n\":",
    "\"columns\":",
    "<",
    ">",
    "</svg>",
    "<svg ",
    "<use href=\"#queen\" x=\"0\" y=\"0\"/>",
    "viewBox=\"0 0 99999999999 99999999999\"",
    "viewBox=\"0 0 4000000000 4000000000\"",
    "32768",
    "32769",
    "nqueens-checkpoint 1 ",
    " crc=",
    "\"seconds\": ",
    "\"shards\": 16777216",
    "\u{e9}",
    "\u{0}",
];

/// One change to a valid record.
#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, bit: u8 },
    Insert { at: usize, byte: u8 },
    Token { at: usize, token: usize },
    Delete { at: usize, len: usize },
    Repeat { at: usize, len: usize, times: usize },
    Truncate { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        (at, 0..8u8).prop_map(|(at, bit)| Mutation::Flip { at, bit }),
        (at, any::<u8>()).prop_map(|(at, byte)| Mutation::Insert { at, byte }),
        (at, 0..TOKENS.len()).prop_map(|(at, token)| Mutation::Token { at, token }),
        (at, 1..64usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (at, 1..64usize, 2..64usize).prop_map(|(at, len, times)| Mutation::Repeat {
            at,
            len,
            times
        }),
        at.prop_map(|at| Mutation::Truncate { at }),
    ]
}

fn apply(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let pos = |at: usize| at % (bytes.len() + 1);
        match *m {
            Mutation::Flip { at, bit } => {
                if !bytes.is_empty() {
                    let i = at % bytes.len();
                    bytes[i] ^= 1 << bit;
                }
            }
            Mutation::Insert { at, byte } => {
                let i = pos(at);
                bytes.insert(i, byte);
            }
            Mutation::Token { at, token } => {
                let i = pos(at);
                bytes.splice(i..i, TOKENS[token].bytes());
            }
            Mutation::Delete { at, len } => {
                let i = pos(at);
                let end = (i + len).min(bytes.len());
                bytes.drain(i..end);
            }
            Mutation::Repeat { at, len, times } => {
                let i = pos(at);
                let end = (i + len).min(bytes.len());
                let piece = bytes[i..end].to_vec();
                for _ in 1..times {
                    bytes.splice(end..end, piece.iter().copied());
                }
            }
            Mutation::Truncate { at } => {
                let i = pos(at);
                bytes.truncate(i);
            }
        }
    }
    bytes
}

/// Random bytes, or one of `seeds` changed a few times.
fn input(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let mutated = (
        proptest::sample::select(seeds),
        proptest::collection::vec(mutation(), 1..6),
    )
        .prop_map(|(seed, ms)| apply(seed, &ms));
    prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..512),
        3 => mutated,
    ]
}

fn placements() -> Vec<Placement> {
    [
        vec![0],
        vec![1, 3, 0, 2],
        vec![0, 4, 7, 5, 2, 6, 1, 3],
        vec![0, 2, 1],
    ]
    .into_iter()
    .map(Placement::new)
    .collect()
}

fn placement_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for format in [Format::Perm, Format::Board, Format::Json, Format::Svg] {
        let mut all = Vec::new();
        for p in placements() {
            let mut one = Vec::new();
            format::write(&mut one, &p, format).unwrap();
            all.extend_from_slice(&one);
            seeds.push(one);
        }
        seeds.push(all);
    }
    // Puzzles as `nqueens puzzle` writes them: clues, drawing and solution line.
    let mut all = Vec::new();
    for (n, blocked) in [(5, false), (8, true), (10, true)] {
        let generator = nqueens::puzzle::Generator::new(n)
            .unwrap()
            .seed(7)
            .blocked(blocked)
            .threads(1);
        let mut one = Vec::new();
        nqueens::puzzle::write_board(&mut one, &generator.puzzle(0).unwrap(), 1).unwrap();
        all.extend_from_slice(&one);
        seeds.push(one);
    }
    seeds.push(all);
    with_other_line_ends(seeds)
}

/// `seeds` and each of them again with `\r` and with `\r\n` line ends, and in UTF-16: the
/// readers take every line end as one and refuse UTF-16 in words of their own.
fn with_other_line_ends(seeds: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let mut all = seeds.clone();
    for seed in seeds {
        for end in [&b"\r"[..], b"\r\n"] {
            all.push(seed.iter().fold(Vec::new(), |mut out, &b| {
                if b == b'\n' {
                    out.extend_from_slice(end);
                } else {
                    out.push(b);
                }
                out
            }));
        }
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(seed.iter().flat_map(|&b| [b, 0]));
        all.push(utf16);
    }
    all
}

/// Bytes a reader may hold at once for an input of `len` bytes: a fixed part for buffers and
/// small tables, and a few times the input for what it holds (columns are 4 bytes for each
/// 2 bytes of text at least, twice that while a vector grows).
fn bound(fixed: usize, per_byte: usize, len: usize) -> usize {
    fixed + per_byte * len
}

/// What a record read from any format must be: at least one queen, and the placement its text
/// says (written as a perm line, it reads back the same).
fn check_placement(p: &Placement) -> Result<(), TestCaseError> {
    prop_assert!(p.n() >= 1);
    // Written as a perm line and read back, it is the same placement.
    let back: Placement = p.to_string().parse().unwrap();
    prop_assert_eq!(&back, p);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn placement_reader(bytes in input(placement_seeds())) {
        // One record at a time, as `verify` reads: what is held is the record being read.
        let (checked, peak) = peak_of(|| {
            for r in Reader::new(&bytes[..]) {
                match r {
                    Ok(p) => check_placement(&p)?,
                    Err(e) => prop_assert!(e.to_string().starts_with("line ")),
                }
            }
            for p in Reader::new(&bytes[..]).max_n(4).flatten() {
                prop_assert!(p.n() <= 4);
            }
            Ok(())
        });
        checked?;
        prop_assert!(peak <= bound(16 << 10, 16, bytes.len()), "peak {peak} for {} bytes", bytes.len());
    }

    #[test]
    fn completion_instances(bytes in input(instance_seeds())) {
        let (parsed, peak) = peak_of(|| Instance::read(&bytes[..]));
        // An instance of n rows takes about 20 n bytes of tables, n up to what the input's
        // first line says (at most 32768 in 5 bytes).
        prop_assert!(peak <= bound(1 << 20, 64, bytes.len()), "peak {peak} for {} bytes", bytes.len());
        match parsed {
            Ok(inst) => {
                prop_assert!(inst.n() >= 1 && inst.n() <= nqueens::cp::MAX_N);
                let again = Instance::parse(&inst.to_string()).unwrap();
                prop_assert_eq!(again, inst);
            }
            Err(e) => prop_assert!(e.line >= 1),
        }
    }

    #[test]
    fn checkpoint_journals(bytes in input(journal_seeds())) {
        let dir = scratch();
        let path = dir.path().join("run.ckpt");
        std::fs::write(&path, &bytes).unwrap();
        let set = tasks(8, Engine::Backtrack).unwrap();
        let header = Header::new(set.as_ref(), Slice::ALL);
        let (opened, peak) = peak_of(|| Journal::open(&path, &header).map(|(_, done)| done));
        prop_assert!(peak <= bound(64 << 10, 16, bytes.len()), "peak {peak} for {} bytes", bytes.len());
        if let Ok(done) = opened {
            // Every record kept is a task of the list with its true count.
            for (&i, &tally) in &done {
                prop_assert!(i < set.len());
                prop_assert_eq!(tally, set.count(i));
            }
        }
    }

    #[test]
    fn shard_files(bytes in input(shard_seeds())) {
        let (read, peak) = peak_of(|| ShardResult::read(&bytes[..]));
        prop_assert!(peak <= bound(16 << 10, 16, bytes.len()), "peak {peak} for {} bytes", bytes.len());
        // Merging builds the task list of the file's N to check it against: memory set by N
        // (80 MB at most, for N = 32), not by the file, so not under the bound.
        let read = read.map(|r| {
            let merged = merge(&[("s".to_string(), r.clone())]);
            (r, merged)
        });
        if let Ok((r, Ok(tally))) = read {
            prop_assert_eq!(tally, r.tally());
            prop_assert!(r.seconds.is_finite() && r.seconds >= 0.0);
            prop_assert_eq!(r.shards, 1);
        }
    }
}

fn instance_seeds() -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = [
        "8\nq 1 1\nx 2 3   # no queen here\nq 3 5\n",
        "# a comment\n4\n1 2\nx 3 3\n",
        "Q . . .\n. . x .\n. . . .\n. . . .\n",
        ".Q..\n....\n..x.\n....\n",
        "2 4 1 3\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    seeds = with_other_line_ends(seeds);
    seeds.extend(placement_seeds());
    seeds
}

/// A directory for a case's files, in memory where the system has one: journals are flushed to
/// disk, which a disk makes slow.
fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        tempfile::tempdir_in(shm).unwrap()
    } else {
        tempfile::tempdir().unwrap()
    }
}

fn journal_seeds() -> Vec<Vec<u8>> {
    let set = tasks(8, Engine::Backtrack).unwrap();
    let dir = scratch();
    let mut seeds = Vec::new();
    for (k, slice) in [Slice::ALL, Slice { index: 2, count: 3 }]
        .into_iter()
        .enumerate()
    {
        let path = dir.path().join(format!("{k}.ckpt"));
        let (journal, _) = Journal::open(&path, &Header::new(set.as_ref(), slice)).unwrap();
        for i in slice.indices(set.len()).take(5) {
            journal.record(i, set.count(i)).unwrap();
        }
        drop(journal);
        seeds.push(std::fs::read(&path).unwrap());
    }
    seeds
}

fn shard_seeds() -> Vec<Vec<u8>> {
    let set = tasks(8, Engine::Backtrack).unwrap();
    [Slice::ALL, Slice { index: 1, count: 2 }]
        .into_iter()
        .map(|slice| {
            let tally: Tally = slice.indices(set.len()).map(|t| set.count(t)).sum();
            let list = Header::new(set.as_ref(), slice);
            let r = ShardResult::new(&list, tally, 1.5, "host".into());
            serde_json::to_vec_pretty(&r).unwrap()
        })
        .collect()
}
