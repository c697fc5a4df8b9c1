use nqueens::engine::symmetric::{count, Turn};
use std::time::Instant;
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(16);
    for turn in [Turn::Half, Turn::Quarter] {
        let t = Instant::now();
        let c = count(n, turn);
        println!("{turn:?} {c} {:.3}s", t.elapsed().as_secs_f64());
    }
}
