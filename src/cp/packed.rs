//! The packed board: the free squares of a blocked board as one short string of bits, so that
//! a queen is placed with a few word operations and every line is checked at once.
//!
//! Near the phase transition of CSPLib problem 80 nine squares in ten are blocked: a board of
//! 100 has about 650 free squares. Numbered row by row they fit in a dozen machine words, and
//! a row is a *segment* of consecutive bits. Numbered column by column they fit in another
//! dozen, where a column is a segment. A queen takes the squares it attacks off both strings
//! with one precomputed mask each (`W` words of `and not`), and an earlier position is kept by
//! copying the strings (there is no trail to undo).
//!
//! Each segment is followed by a *guard* bit, always zero in the board, and three constants
//! mark the layout: the bits of every segment (`k`), the lowest bit of each (`low`) and the
//! guards (`guard`). Then for all lines at once, with carries that stop at the guards:
//!
//! - `x + k` carries into a segment's guard exactly when the segment has a bit set: the
//!   guards of `(x + k) & guard` are the lines that are not empty;
//! - `x & ((x | guard) - low)` clears the lowest bit of every segment (an empty segment
//!   borrows from its own guard and stays empty), so applied before the test above it finds
//!   the lines of two squares or more, and applied twice those of three or more.
//!
//! That is propagation's whole sweep (a line of no square fails, a line of one places its
//! queen) in a few passes over `W` words, and it finds the rows and columns of two squares
//! that probing tries (`probe.rs`).

use super::instance::Instance;

/// A string of `W * 64` bits.
pub(super) type Bits<const W: usize> = [u64; W];

#[inline(always)]
fn add<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    let mut out = [0; W];
    let mut carry = false;
    for i in 0..W {
        let (s, c1) = a[i].overflowing_add(b[i]);
        let (s, c2) = s.overflowing_add(u64::from(carry));
        out[i] = s;
        carry = c1 | c2;
    }
    out
}

#[inline(always)]
fn sub<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    let mut out = [0; W];
    let mut borrow = false;
    for i in 0..W {
        let (s, b1) = a[i].overflowing_sub(b[i]);
        let (s, b2) = s.overflowing_sub(u64::from(borrow));
        out[i] = s;
        borrow = b1 | b2;
    }
    out
}

#[inline(always)]
pub(super) fn and<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline(always)]
pub(super) fn and_not<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    std::array::from_fn(|i| a[i] & !b[i])
}

#[inline(always)]
pub(super) fn test<const W: usize>(x: &Bits<W>, b: usize) -> bool {
    x[b >> 6] >> (b & 63) & 1 != 0
}

#[inline(always)]
fn set<const W: usize>(x: &mut Bits<W>, b: usize) {
    x[b >> 6] |= 1 << (b & 63);
}

#[inline(always)]
fn clear<const W: usize>(x: &mut Bits<W>, b: usize) {
    x[b >> 6] &= !(1 << (b & 63));
}

/// Calls `f` with each set bit of `x`, lowest first, while it returns `true`; `false` if it
/// stopped.
pub(super) fn each<const W: usize>(x: &Bits<W>, mut f: impl FnMut(usize) -> bool) -> bool {
    for (i, &word) in x.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            let b = i * 64 + w.trailing_zeros() as usize;
            w &= w - 1;
            if !f(b) {
                return false;
            }
        }
    }
    true
}

/// One family of lines (the rows, or the columns) as segments of a bit string.
pub(super) struct Layout<const W: usize> {
    /// Every segment's bits.
    k: Bits<W>,
    /// The lowest bit of every segment that has one.
    low: Bits<W>,
    /// The guard bit after every segment.
    pub(super) guard: Bits<W>,
    /// Where each line's segment starts, and its length.
    start: Vec<u16>,
    len: Vec<u16>,
    /// The line of each guard bit.
    line: Vec<u8>,
    /// The square (an index into [`Packed::square`]) of each segment bit.
    square: Vec<u16>,
}

impl<const W: usize> Layout<W> {
    /// `lines[i]` lists the squares of line `i` in order; `None` if they do not fit in `W`
    /// words with their guards.
    fn new(lines: &[Vec<u16>]) -> Option<Self> {
        let bits: usize = lines.iter().map(|l| l.len() + 1).sum();
        if bits > W * 64 {
            return None;
        }
        let mut layout = Layout {
            k: [0; W],
            low: [0; W],
            guard: [0; W],
            start: Vec::with_capacity(lines.len()),
            len: Vec::with_capacity(lines.len()),
            line: vec![0; bits],
            square: vec![0; bits],
        };
        let mut b = 0;
        for (i, squares) in lines.iter().enumerate() {
            layout.start.push(b as u16);
            layout.len.push(squares.len() as u16);
            if !squares.is_empty() {
                set(&mut layout.low, b);
            }
            for &s in squares {
                set(&mut layout.k, b);
                layout.square[b] = s;
                b += 1;
            }
            set(&mut layout.guard, b);
            layout.line[b] = i as u8;
            b += 1;
        }
        Some(layout)
    }

    /// Whether every line of `x` has a bit set.
    #[inline(always)]
    fn none_empty(&self, x: &Bits<W>) -> bool {
        let seen = self.not_empty(x);
        // Folded, not compared word by word: `!=` on arrays calls `memcmp`.
        seen.iter()
            .zip(&self.guard)
            .fold(0, |acc, (a, g)| acc | (a ^ g))
            == 0
    }

    /// The guards of the lines of `x` with a bit set.
    #[inline(always)]
    pub(super) fn not_empty(&self, x: &Bits<W>) -> Bits<W> {
        and(&add(x, &self.k), &self.guard)
    }

    /// `x` with the lowest bit of every segment cleared.
    #[inline(always)]
    pub(super) fn without_lowest(&self, x: &Bits<W>) -> Bits<W> {
        let with_guards: Bits<W> = std::array::from_fn(|i| x[i] | self.guard[i]);
        and(x, &sub(&with_guards, &self.low))
    }

    /// The guards of the lines of `x` with exactly `k` bits set (`k` at least 1).
    pub(super) fn exactly(&self, x: &Bits<W>, k: usize) -> Bits<W> {
        let mut x = *x;
        for _ in 1..k {
            x = self.without_lowest(&x);
        }
        and_not(
            &self.not_empty(&x),
            &self.not_empty(&self.without_lowest(&x)),
        )
    }

    /// The line whose guard is bit `g`.
    pub(super) fn line_of(&self, g: usize) -> usize {
        usize::from(self.line[g])
    }

    /// The guard bit of line `i`.
    pub(super) fn guard_of(&self, i: usize) -> usize {
        usize::from(self.start[i] + self.len[i])
    }

    /// The square of segment bit `b`.
    pub(super) fn square_at(&self, b: usize) -> usize {
        usize::from(self.square[b])
    }

    /// The segment bits of line `i` set in `x`, lowest first.
    pub(super) fn bits_of<'a>(
        &self,
        x: &'a Bits<W>,
        i: usize,
    ) -> impl Iterator<Item = usize> + use<'a, W> {
        let start = usize::from(self.start[i]);
        let end = start + usize::from(self.len[i]);
        (start..end).filter(move |&b| test(x, b))
    }

    /// How many bits of line `i` are set in `x`.
    pub(super) fn count(&self, x: &Bits<W>, i: usize) -> u32 {
        let mut b = usize::from(self.start[i]);
        let end = b + usize::from(self.len[i]);
        let mut n = 0;
        while b < end {
            let room = (64 - (b & 63)).min(end - b);
            let mask = if room == 64 { !0 } else { (1 << room) - 1 };
            n += (x[b >> 6] >> (b & 63) & mask).count_ones();
            b += room;
        }
        n
    }

    /// The lowest bit of line `i` set in `x`.
    fn first(&self, x: &Bits<W>, i: usize) -> Option<usize> {
        let mut b = usize::from(self.start[i]);
        let end = b + usize::from(self.len[i]);
        while b < end {
            let room = (64 - (b & 63)).min(end - b);
            let w = x[b >> 6] >> (b & 63);
            let t = w.trailing_zeros() as usize;
            if t < room {
                return Some(b + t);
            }
            b += room;
        }
        None
    }
}

/// A position: the squares still open in both layouts, and the lines that have their queen.
#[derive(Clone)]
pub(super) struct Position<const W: usize> {
    /// Open squares, row layout: a placed queen's row keeps its queen's bit alone.
    pub(super) rows: Bits<W>,
    /// Open squares, column layout.
    pub(super) cols: Bits<W>,
    /// Guards of the rows with a queen (row layout), and of the columns (column layout).
    pub(super) rows_done: Bits<W>,
    pub(super) cols_done: Bits<W>,
    /// Queens placed.
    pub(super) queens: usize,
}

/// The fixed tables of one instance's packed board.
pub(super) struct Packed<const W: usize> {
    pub(super) n: usize,
    pub(super) rows: Layout<W>,
    pub(super) cols: Layout<W>,
    /// Each free square's `(row, column)`, in row-major order.
    pub(super) square: Vec<(u8, u8)>,
    /// Each square's bit in the row layout and in the column layout.
    row_bit: Vec<u16>,
    col_bit: Vec<u16>,
    /// The squares each square attacks (not itself), in the row layout and in the column
    /// layout: placing a queen is one `and not` of each.
    attacks_rows: Vec<Bits<W>>,
    attacks_cols: Vec<Bits<W>>,
}

impl<const W: usize> Packed<W> {
    /// The packed board of `instance` (at most 128 columns), or `None` if its free squares
    /// and guards do not fit in `W` words.
    pub(super) fn new(instance: &Instance) -> Option<Self> {
        let n = instance.n();
        debug_assert!(n <= 128, "rows and columns are bytes");
        let mut free = vec![true; n * n];
        for (r, c) in instance.blocked() {
            free[r * n + c] = false;
        }
        let count = free.iter().filter(|&&f| f).count();
        if count + n > W * 64 {
            return None;
        }
        let mut index = vec![u16::MAX; n * n];
        let mut square = Vec::with_capacity(count);
        for r in 0..n {
            for c in 0..n {
                if free[r * n + c] {
                    index[r * n + c] = square.len() as u16;
                    square.push((r as u8, c as u8));
                }
            }
        }
        let line = |f: &dyn Fn(usize) -> usize| -> Vec<u16> {
            (0..n)
                .map(f)
                .filter(|&i| index[i] != u16::MAX)
                .map(|i| index[i])
                .collect()
        };
        let row_lines: Vec<Vec<u16>> = (0..n).map(|r| line(&|c| r * n + c)).collect();
        let col_lines: Vec<Vec<u16>> = (0..n).map(|c| line(&|r| r * n + c)).collect();
        let rows = Layout::new(&row_lines)?;
        let cols = Layout::new(&col_lines)?;
        let mut row_bit = vec![0; count];
        let mut col_bit = vec![0; count];
        for (lines, layout, bit) in [
            (&row_lines, &rows, &mut row_bit),
            (&col_lines, &cols, &mut col_bit),
        ] {
            for (i, squares) in lines.iter().enumerate() {
                for (k, &s) in squares.iter().enumerate() {
                    bit[usize::from(s)] = layout.start[i] + k as u16;
                }
            }
        }
        // The squares of each diagonal, to build the attacks line by line.
        let mut diag = vec![Vec::new(); 2 * n];
        let mut anti = vec![Vec::new(); 2 * n];
        for (s, &(r, c)) in square.iter().enumerate() {
            let (r, c) = (usize::from(r), usize::from(c));
            diag[c + n - 1 - r].push(s as u16);
            anti[r + c].push(s as u16);
        }
        let mut attacks_rows = vec![[0; W]; count];
        let mut attacks_cols = vec![[0; W]; count];
        for (s, &(r, c)) in square.iter().enumerate() {
            let (r, c) = (usize::from(r), usize::from(c));
            let lines = [
                &row_lines[r],
                &col_lines[c],
                &diag[c + n - 1 - r],
                &anti[r + c],
            ];
            for &t in lines.into_iter().flatten() {
                let t = usize::from(t);
                if t != s {
                    set(&mut attacks_rows[s], usize::from(row_bit[t]));
                    set(&mut attacks_cols[s], usize::from(col_bit[t]));
                }
            }
        }
        Some(Packed {
            n,
            rows,
            cols,
            square,
            row_bit,
            col_bit,
            attacks_rows,
            attacks_cols,
        })
    }

    /// The position with every free square open and no queen.
    pub(super) fn empty(&self) -> Position<W> {
        Position {
            rows: self.rows.k,
            cols: self.cols.k,
            rows_done: [0; W],
            cols_done: [0; W],
            queens: 0,
        }
    }

    /// The square at row `r`, column `c`, if it is free.
    pub(super) fn square_of(&self, r: usize, c: usize) -> Option<usize> {
        let b = self
            .rows
            .bits_of(&self.rows.k, r)
            .find(|&b| usize::from(self.square[self.rows.square_at(b)].1) == c)?;
        Some(self.rows.square_at(b))
    }

    /// Whether square `s` is open in `p`.
    pub(super) fn open(&self, p: &Position<W>, s: usize) -> bool {
        test(&p.rows, usize::from(self.row_bit[s]))
    }

    /// Puts a queen on square `s` of a row and a column without one; `false` if `s` is not
    /// open.
    pub(super) fn place(&self, p: &mut Position<W>, s: usize) -> bool {
        if !self.open(p, s) {
            return false;
        }
        p.rows = and_not(&p.rows, &self.attacks_rows[s]);
        p.cols = and_not(&p.cols, &self.attacks_cols[s]);
        let (r, c) = self.square[s];
        set(&mut p.rows_done, self.rows.guard_of(usize::from(r)));
        set(&mut p.cols_done, self.cols.guard_of(usize::from(c)));
        p.queens += 1;
        true
    }

    /// Takes square `s` off (it holds no queen).
    pub(super) fn remove(&self, p: &mut Position<W>, s: usize) {
        clear(&mut p.rows, usize::from(self.row_bit[s]));
        clear(&mut p.cols, usize::from(self.col_bit[s]));
    }

    /// Forward checking to a fixpoint: fails on a row or column with no square, and places
    /// the queen of every row or column left with one square. `forced` counts those queens.
    pub(super) fn propagate(&self, p: &mut Position<W>, forced: &mut u64) -> bool {
        loop {
            if !self.rows.none_empty(&p.rows) || !self.cols.none_empty(&p.cols) {
                return false;
            }
            // Lines of one square, without their queen yet.
            let two = self.rows.not_empty(&self.rows.without_lowest(&p.rows));
            let single_rows = and_not(&and_not(&self.rows.guard, &two), &p.rows_done);
            let two = self.cols.not_empty(&self.cols.without_lowest(&p.cols));
            let single_cols = and_not(&and_not(&self.cols.guard, &two), &p.cols_done);
            let any = single_rows
                .iter()
                .zip(&single_cols)
                .fold(0, |acc, (a, b)| acc | a | b);
            if any == 0 {
                return true;
            }
            // Each queen placed may empty a line found single above, or give it its queen:
            // the position is read again for each.
            let ok = each(&single_rows, |g| {
                self.place_single(p, &self.rows, g, true, forced)
            }) && each(&single_cols, |g| {
                self.place_single(p, &self.cols, g, false, forced)
            });
            if !ok {
                return false;
            }
        }
    }

    /// Places the queen of the line of guard `g` of `layout` (the rows if `rows`), which had
    /// one square; `false` if it has none now.
    fn place_single(
        &self,
        p: &mut Position<W>,
        layout: &Layout<W>,
        g: usize,
        rows: bool,
        forced: &mut u64,
    ) -> bool {
        let (open, done) = if rows {
            (&p.rows, &p.rows_done)
        } else {
            (&p.cols, &p.cols_done)
        };
        if test(done, g) {
            return true;
        }
        match layout.first(open, layout.line_of(g)) {
            Some(b) => {
                *forced += 1;
                self.place(p, layout.square_at(b))
            }
            None => false,
        }
    }

    /// The guards of the open rows (row layout) or columns (column layout) with exactly `k`
    /// squares (`k` at least 1).
    pub(super) fn lines_of(&self, p: &Position<W>, rows: bool, k: usize) -> Bits<W> {
        let (layout, open, done) = if rows {
            (&self.rows, &p.rows, &p.rows_done)
        } else {
            (&self.cols, &p.cols, &p.cols_done)
        };
        and_not(&layout.exactly(open, k), done)
    }

    /// How many squares of `p` are open, a placed queen's own square among them.
    pub(super) fn open_count(&self, p: &Position<W>) -> u32 {
        p.rows.iter().map(|w| w.count_ones()).sum()
    }

    /// The queens of a position with every row placed, as the column of each row.
    pub(super) fn columns(&self, p: &Position<W>) -> Vec<u32> {
        (0..self.n)
            .map(|r| {
                let b = self
                    .rows
                    .first(&p.rows, r)
                    .expect("every row has its queen");
                u32::from(self.square[self.rows.square_at(b)].1)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Segments of the given lengths, and random bits in them.
    fn lines_and_bits(max_bits: usize) -> impl Strategy<Value = (Vec<usize>, Vec<Vec<bool>>)> {
        prop::collection::vec(0usize..=130, 1..=12)
            .prop_filter("fits", move |lens| {
                lens.iter().map(|l| l + 1).sum::<usize>() <= max_bits
            })
            .prop_flat_map(|lens| {
                let bits = lens
                    .iter()
                    .map(|&l| prop::collection::vec(any::<bool>(), l))
                    .collect::<Vec<_>>();
                (Just(lens), bits)
            })
    }

    proptest! {
        /// The guards' arithmetic against each segment counted one bit at a time.
        #[test]
        fn the_guards_arithmetic_counts_every_segment((lens, bits) in lines_and_bits(16 * 64)) {
            let mut next = 0u16;
            let lines: Vec<Vec<u16>> = lens
                .iter()
                .map(|&l| (0..l).map(|_| { next += 1; next - 1 }).collect())
                .collect();
            let layout = Layout::<16>::new(&lines).unwrap();
            let mut x = [0; 16];
            for (i, line) in bits.iter().enumerate() {
                for (k, &on) in line.iter().enumerate() {
                    if on {
                        set(&mut x, usize::from(layout.start[i]) + k);
                    }
                }
            }
            let once = layout.not_empty(&x);
            let twice = layout.not_empty(&layout.without_lowest(&x));
            let thrice = layout.not_empty(&layout.without_lowest(&layout.without_lowest(&x)));
            for (i, line) in bits.iter().enumerate() {
                let count = line.iter().filter(|&&b| b).count();
                let g = layout.guard_of(i);
                prop_assert_eq!(layout.line_of(g), i);
                prop_assert_eq!(layout.count(&x, i) as usize, count);
                prop_assert_eq!(test(&once, g), count >= 1);
                prop_assert_eq!(test(&twice, g), count >= 2);
                prop_assert_eq!(test(&thrice, g), count >= 3);
                for k in 1..=4 {
                    prop_assert_eq!(test(&layout.exactly(&x, k), g), count == k);
                }
                prop_assert_eq!(layout.bits_of(&x, i).count(), count);
                let first = line.iter().position(|&b| b).map(|k| usize::from(layout.start[i]) + k);
                prop_assert_eq!(layout.first(&x, i), first);
            }
            // Only guards come out, and the bits themselves are left as they were.
            prop_assert_eq!(and_not(&once, &layout.guard), [0; 16]);
        }
    }

    #[test]
    fn a_queen_takes_exactly_the_squares_it_attacks() {
        let inst = super::super::blocked_board(12, 80, 1, 5);
        let board = Packed::<8>::new(&inst).unwrap();
        for s in 0..board.square.len() {
            let mut p = board.empty();
            assert!(board.place(&mut p, s));
            let (r, c) = board.square[s];
            for t in 0..board.square.len() {
                let (r2, c2) = board.square[t];
                let attacked = t != s && (r == r2 || c == c2 || r.abs_diff(r2) == c.abs_diff(c2));
                assert_eq!(board.open(&p, t), !attacked, "{s} {t}");
                assert_eq!(test(&p.cols, usize::from(board.col_bit[t])), !attacked);
            }
        }
    }
}
