//! [`Placement`]: the column of the queen in each row.
//!
//! The one type for solutions, candidate solutions read from a file, and the output of every
//! algorithm. Columns are stored 0-based; every text form a person reads or writes is 1-based.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::Symmetry;

/// The column of the queen in each row of an `n` x `n` board (0-based, `cols[row]`).
///
/// A placement need not be a solution: [`Placement::verify`] says whether it is, and if not,
/// which two queens attack each other.
///
/// ```
/// use nqueens::Placement;
/// let p = Placement::from_one_based(&[2, 4, 1, 3]).unwrap();
/// assert_eq!(p.n(), 4);
/// assert_eq!(p.cols(), &[1, 3, 0, 2]);
/// assert!(p.verify().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    cols: Vec<u32>,
}

/// Why a placement is not a solution.
///
/// ```
/// use nqueens::{placement::Defect, Placement};
/// assert_eq!(Placement::new(vec![]).verify(), Err(Defect::Empty));
/// let err = Placement::new(vec![1, 3, 0, 4]).verify().unwrap_err();
/// assert_eq!(err, Defect::OutOfBoard { row: 3, col: 4, n: 4 });
/// assert_eq!(err.to_string(), "row 4: column 5 is outside a 4x4 board");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Defect {
    /// The board has no rows.
    #[error("the placement is empty")]
    Empty,
    /// A queen stands outside the board.
    #[error("row {row}: column {col} is outside a {n}x{n} board", row = .row + 1, col = .col + 1)]
    OutOfBoard {
        /// 0-based row of the queen.
        row: usize,
        /// 0-based column that is out of range.
        col: u32,
        /// Board size.
        n: usize,
    },
    /// Two queens attack each other.
    #[error("queens at (row {r1}, col {c1}) and (row {r2}, col {c2}) attack along {a} {line}",
        r1 = .first.0 + 1, c1 = .first.1 + 1, r2 = .second.0 + 1, c2 = .second.1 + 1,
        a = .line.article())]
    Attack {
        /// 0-based (row, column) of the earlier queen.
        first: (usize, u32),
        /// 0-based (row, column) of the later queen.
        second: (usize, u32),
        /// The line they share.
        line: Line,
    },
}

/// A line along which two queens can attack.
///
/// ```
/// use nqueens::{placement::{Defect, Line}, Placement};
/// let line = |cols: Vec<u32>| match Placement::new(cols).verify() {
///     Err(Defect::Attack { line, .. }) => line,
///     other => panic!("{other:?}"),
/// };
/// assert_eq!(line(vec![2, 0, 2]), Line::Column);
/// assert_eq!(line(vec![0, 1]), Line::Diagonal);
/// assert_eq!(line(vec![1, 0]).to_string(), "anti-diagonal");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// The same column.
    Column,
    /// The same `\` diagonal (row - col constant).
    Diagonal,
    /// The same `/` diagonal (row + col constant).
    AntiDiagonal,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Line::Column => "column",
            Line::Diagonal => "diagonal",
            Line::AntiDiagonal => "anti-diagonal",
        })
    }
}

impl Placement {
    /// A placement from 0-based columns, one per row. Nothing is checked: see [`verify`](Self::verify).
    ///
    /// ```
    /// let p = nqueens::Placement::new(vec![0, 0]);
    /// assert!(p.verify().is_err());
    /// ```
    pub fn new(cols: Vec<u32>) -> Self {
        Placement { cols }
    }

    /// A placement from 1-based columns as people write them; `None` if a column is 0.
    ///
    /// ```
    /// let p = nqueens::Placement::from_one_based(&[1, 5, 8, 6, 3, 7, 2, 4]).unwrap();
    /// assert_eq!(p.cols()[0], 0);
    /// assert!(nqueens::Placement::from_one_based(&[0, 1]).is_none());
    /// ```
    pub fn from_one_based(cols: &[u32]) -> Option<Self> {
        cols.iter()
            .map(|&c| c.checked_sub(1))
            .collect::<Option<Vec<_>>>()
            .map(Placement::new)
    }

    /// The board size: the number of rows.
    ///
    /// ```
    /// assert_eq!(nqueens::Placement::new(vec![1, 3, 0, 2]).n(), 4);
    /// ```
    pub fn n(&self) -> usize {
        self.cols.len()
    }

    /// The 0-based column of the queen in each row.
    ///
    /// ```
    /// assert_eq!(nqueens::Placement::new(vec![1, 3, 0, 2]).cols(), &[1, 3, 0, 2]);
    /// ```
    pub fn cols(&self) -> &[u32] {
        &self.cols
    }

    /// The columns, giving up the placement.
    ///
    /// ```
    /// assert_eq!(nqueens::Placement::new(vec![1, 3, 0, 2]).into_cols(), vec![1, 3, 0, 2]);
    /// ```
    pub fn into_cols(self) -> Vec<u32> {
        self.cols
    }

    /// `Ok` if this is a solution: every queen on the board and no two attacking.
    /// Otherwise the first defect met, scanning rows top to bottom.
    ///
    /// One bit per column and per diagonal (five bits per row in all), so that even a placement
    /// of 10^8 queens is checked in little memory beside its columns. Only when a conflict is
    /// found does a second scan of the earlier rows name the other queen.
    ///
    /// ```
    /// use nqueens::{Placement, placement::{Defect, Line}};
    /// let p = Placement::from_one_based(&[3, 1, 2]).unwrap();
    /// match p.verify() {
    ///     Err(Defect::Attack { first, second, line }) => {
    ///         assert_eq!((first, second, line), ((1, 0), (2, 1), Line::Diagonal));
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    ///
    /// # Errors
    /// The first [`Defect`] found: why the placement is not a solution.
    pub fn verify(&self) -> Result<(), Defect> {
        // A flag never set: the verdict always comes.
        self.verify_unless_stopped(&AtomicBool::new(false))
            .unwrap_or(Ok(()))
    }

    /// [`verify`](Self::verify), or `None` once `stop` is set: it is looked at every million
    /// rows, so that a placement of 10^9 queens stops within milliseconds too.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// let p = nqueens::Placement::new(vec![1, 3, 0, 2]);
    /// assert_eq!(p.verify_unless_stopped(&AtomicBool::new(false)), Some(Ok(())));
    /// assert_eq!(p.verify_unless_stopped(&AtomicBool::new(true)), None);
    /// ```
    pub fn verify_unless_stopped(&self, stop: &AtomicBool) -> Option<Result<(), Defect>> {
        const ROWS: usize = 1 << 20;
        let n = self.n();
        if n == 0 {
            return Some(Err(Defect::Empty));
        }
        let mut used = [Bits::new(n), Bits::new(2 * n - 1), Bits::new(2 * n - 1)];
        for (row, &col) in self.cols.iter().enumerate() {
            if row.is_multiple_of(ROWS) && stop.load(Ordering::Relaxed) {
                return None;
            }
            let c = col as usize;
            if c >= n {
                return Some(Err(Defect::OutOfBoard { row, col, n }));
            }
            for (bits, line) in used.iter_mut().zip(Line::ALL) {
                if bits.test_and_set(line.index(n, row, c)) {
                    let key = line.index(n, row, c);
                    // The bit only says "taken"; find who took it.
                    let other = (0..row)
                        .find(|&r| line.index(n, r, self.cols[r] as usize) == key)
                        .expect("a set bit was set by an earlier row");
                    return Some(Err(Defect::Attack {
                        first: (other, self.cols[other]),
                        second: (row, col),
                        line,
                    }));
                }
            }
        }
        Some(Ok(()))
    }

    /// `true` if this is a solution (see [`verify`](Self::verify)).
    ///
    /// ```
    /// assert!(nqueens::Placement::new(vec![1, 3, 0, 2]).is_solution());
    /// ```
    pub fn is_solution(&self) -> bool {
        self.verify().is_ok()
    }

    /// `true` if every column `0..n` holds exactly one queen (one per row is given by the type).
    ///
    /// Every solution is a permutation; only permutations can be rotated into placements, since
    /// a rotation turns columns into rows.
    ///
    /// ```
    /// use nqueens::Placement;
    /// assert!(Placement::new(vec![0, 1, 2]).is_permutation());
    /// assert!(!Placement::new(vec![0, 0, 2]).is_permutation());
    /// ```
    pub fn is_permutation(&self) -> bool {
        let n = self.n();
        let mut seen = Bits::new(n);
        self.cols
            .iter()
            .all(|&c| (c as usize) < n && !seen.test_and_set(c as usize))
    }

    /// The image of this placement under a board symmetry; `None` unless it is a permutation.
    ///
    /// ```
    /// use nqueens::{Placement, Symmetry};
    /// let p = Placement::from_one_based(&[2, 4, 1, 3]).unwrap();
    /// let m = p.transform(Symmetry::MirrorColumns).unwrap();
    /// assert_eq!(m, Placement::from_one_based(&[3, 1, 4, 2]).unwrap());
    /// ```
    pub fn transform(&self, sym: Symmetry) -> Option<Placement> {
        if !self.is_permutation() {
            return None;
        }
        let n = self.n();
        let mut out = vec![0; n];
        for (row, &col) in self.cols.iter().enumerate() {
            let (r, c) = sym.apply(n, row, col as usize);
            out[r] = c as u32;
        }
        Some(Placement::new(out))
    }

    /// The 8 images of this placement, in the order of [`Symmetry::ALL`]; `None` unless it is a
    /// permutation. Images may repeat when the placement is itself symmetric.
    ///
    /// ```
    /// let p = nqueens::Placement::from_one_based(&[2, 4, 1, 3]).unwrap();
    /// let images = p.images().unwrap();
    /// assert!(images.iter().all(|q| q.is_solution()));
    /// ```
    pub fn images(&self) -> Option<[Placement; 8]> {
        if !self.is_permutation() {
            return None;
        }
        Some(Symmetry::ALL.map(|s| self.transform(s).expect("checked to be a permutation")))
    }

    /// The canonical form: the smallest of the 8 images, comparing columns row by row
    /// (lexicographic order). Equivalent placements have the same canonical form; `None` unless
    /// this is a permutation.
    ///
    /// ```
    /// use nqueens::Placement;
    /// let a = Placement::from_one_based(&[3, 1, 4, 2]).unwrap();
    /// assert_eq!(a.canonical().unwrap(), Placement::from_one_based(&[2, 4, 1, 3]).unwrap());
    /// ```
    pub fn canonical(&self) -> Option<Placement> {
        self.images()
            .map(|im| im.into_iter().min().expect("8 images"))
    }

    /// `true` if this placement is its own canonical form (the representative of its class).
    ///
    /// ```
    /// use nqueens::Placement;
    /// assert!(Placement::from_one_based(&[2, 4, 1, 3]).unwrap().is_canonical());
    /// assert!(!Placement::from_one_based(&[3, 1, 4, 2]).unwrap().is_canonical());
    /// ```
    pub fn is_canonical(&self) -> bool {
        self.canonical().is_some_and(|c| &c == self)
    }

    /// The number of distinct images (1, 2, 4 or 8): the size of this placement's symmetry
    /// class. `None` unless it is a permutation.
    ///
    /// ```
    /// let p = nqueens::Placement::from_one_based(&[2, 4, 1, 3]).unwrap();
    /// assert_eq!(p.class_size(), Some(2)); // the 4-queens solution is symmetric under 90 degrees
    /// ```
    pub fn class_size(&self) -> Option<usize> {
        self.images().map(|mut im| {
            im.sort();
            1 + im.windows(2).filter(|w| w[0] != w[1]).count()
        })
    }
}

/// A fixed-size set of bits, for the column and diagonal checks of [`Placement::verify`].
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    /// Sets bit `i` and says whether it was already set.
    fn test_and_set(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let was = self.0[word] & bit != 0;
        self.0[word] |= bit;
        was
    }
}

impl Line {
    /// "a" or "an", whichever goes before the line's name.
    fn article(self) -> &'static str {
        match self {
            Line::AntiDiagonal => "an",
            _ => "a",
        }
    }

    const ALL: [Line; 3] = [Line::Column, Line::Diagonal, Line::AntiDiagonal];

    /// The index of the line of this kind through `(row, col)`, in `0..2n-1`.
    fn index(self, n: usize, row: usize, col: usize) -> usize {
        match self {
            Line::Column => col,
            Line::Diagonal => row + n - 1 - col,
            Line::AntiDiagonal => row + col,
        }
    }
}

impl From<Vec<u32>> for Placement {
    fn from(cols: Vec<u32>) -> Self {
        Placement::new(cols)
    }
}

/// The perm form: the 1-based column of each row, separated by spaces.
///
/// ```
/// let p = nqueens::Placement::new(vec![1, 3, 0, 2]);
/// assert_eq!(p.to_string(), "2 4 1 3");
/// ```
impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cols.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", c + 1)?;
        }
        Ok(())
    }
}

/// Why a text is not exactly one placement.
///
/// ```
/// let err = "".parse::<nqueens::Placement>().unwrap_err();
/// assert_eq!(err.to_string(), "no placement in the text");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(String);

/// Reads exactly one placement in any format [`crate::format::write`] produces.
///
/// ```
/// use nqueens::Placement;
/// let p: Placement = "2 4 1 3".parse().unwrap();
/// let q: Placement = ". Q . .\n. . . Q\nQ . . .\n. . Q .\n".parse().unwrap();
/// assert_eq!(p, q);
/// assert!("2 4 1 3\n3 1 4 2".parse::<Placement>().is_err());
/// ```
impl std::str::FromStr for Placement {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Placement, ParseError> {
        let mut records = crate::format::Reader::new(s.as_bytes());
        let first = records
            .next()
            .ok_or_else(|| ParseError("no placement in the text".into()))?
            .map_err(|e| ParseError(e.to_string()))?;
        match records.next() {
            None => Ok(first),
            Some(_) => Err(ParseError("more than one placement in the text".into())),
        }
    }
}
