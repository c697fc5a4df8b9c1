//! The hardest proofs of uniqueness among generated region puzzles: for `COUNT` puzzles of
//! `N` x `N` (seed 1, one thread), each proved unique five times (`count` with a limit of
//! 2), the puzzle of the most nodes, its best time, and the mean of the best times. Used for
//! docs/regions.md's worst-case figures:
//!
//! ```text
//! cargo run --release --example region_worst -- N COUNT
//! ```
use std::time::Instant;

use nqueens::region::{Generator, Search};

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let (Some(Ok(n)), Some(Ok(count))) = (args.next(), args.next()) else {
        eprintln!("usage: region_worst N COUNT");
        std::process::exit(2);
    };
    let generator = match Generator::new(n as usize) {
        Ok(g) => g.seed(1).threads(1),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let (mut worst_nodes, mut worst_seconds, mut total) = (0, 0.0, 0.0);
    for i in 0..count {
        let puzzle = generator.puzzle(i).expect("a puzzle of a valid size");
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..5 {
            let started = Instant::now();
            let counted = Search::new(&puzzle.board)
                .limit(2)
                .count()
                .expect("not stopped");
            best = best.min(started.elapsed().as_secs_f64());
            nodes = counted.nodes;
            assert_eq!(counted.solutions, 1, "puzzle {i} is not unique");
        }
        total += best;
        if nodes > worst_nodes {
            (worst_nodes, worst_seconds) = (nodes, best);
        }
    }
    println!(
        "N = {n}, {count} puzzles: the hardest proof {worst_nodes} nodes, {:.3} ms; mean {:.3} ms",
        worst_seconds * 1e3,
        total / count as f64 * 1e3
    );
}
