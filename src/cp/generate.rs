//! Hard instances: blocked boards as CSPLib problem 80 generates them, seeded.
//!
//! Gent, Jefferson and Nightingale (JAIR 2017) block squares of an empty board at random, but
//! never the last free squares of a row or a column. Past a certain share of blocked squares
//! (about 87.5% for N = 60, more for larger boards) almost no board has a completion; near that
//! *phase transition* half do, and proving "none" for the rest is the hard part for any solver.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::Instance;

/// The largest board [`blocked_board`] draws: it shuffles all `n * n` squares.
pub const GENERATE_MAX_N: usize = 4096;

/// A board of size `n` with `m` blocked squares, drawn as CSPLib problem 80 describes: walk the
/// squares in a random order (from `seed`) and block each one while its row and its column both
/// keep more than `mininfile` free squares, until `m` are blocked or the walk ends. The same
/// arguments always give the same board.
///
/// # Panics
/// If `n` is 0 or larger than [`GENERATE_MAX_N`].
///
/// ```
/// use nqueens::cp::{Options, Solver, blocked_board};
/// let inst = blocked_board(20, 200, 1, 7);
/// assert_eq!(inst.blocked().count(), 200);
/// assert_eq!(inst, blocked_board(20, 200, 1, 7));
/// let (found, _) = Solver::new(&inst, Options::default()).find();
/// assert!(found.is_none_or(|p| inst.admits(&p)));
/// ```
pub fn blocked_board(n: usize, m: usize, mininfile: usize, seed: u64) -> Instance {
    assert!(
        (1..=GENERATE_MAX_N).contains(&n),
        "generated boards have 1 to {GENERATE_MAX_N} rows, not {n}"
    );
    let mut squares: Vec<u32> = (0..(n * n) as u32).collect();
    squares.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let (mut row_free, mut col_free) = (vec![n; n], vec![n; n]);
    let mut inst = Instance::new(n);
    let mut blocked = 0;
    for s in squares {
        if blocked == m {
            break;
        }
        let (r, c) = (s as usize / n, s as usize % n);
        if row_free[r] > mininfile && col_free[c] > mininfile {
            inst.block(r, c).expect("a square of an empty board");
            blocked += 1;
            row_free[r] -= 1;
            col_free[c] -= 1;
        }
    }
    inst
}
