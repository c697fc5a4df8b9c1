//! Streaming output of huge placements, column by column, without building a [`Placement`].
//!
//! A solution for 10^8 queens is about 900 MB of text, so the cost per queen matters: `write!`
//! with `{}` goes through the formatting machinery for every number. [`ColumnWriter`] instead
//! turns each column into digits two at a time from a 200-byte table and copies them into its
//! own 64 KiB buffer, which goes to the underlying writer in large blocks. The text is exactly
//! what [`format::write`] writes: for `perm` the 1-based columns separated by spaces, for
//! `json` the same with commas inside `{"n":N,"columns":[...]}`, each ending with a newline.

use std::io::{self, Write};

use crate::Placement;
use crate::format::{self, Format};

/// Room for one number: a 1-based `u32` column has at most 10 digits, plus its separator.
const MAX_ITEM: usize = 11;
const CAPACITY: usize = 1 << 16;

/// "00" to "99": one table look-up writes two digits.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes one placement as a line of 1-based columns, one column at a time, in constant memory.
///
/// ```
/// use nqueens::large::ColumnWriter;
/// let mut w = ColumnWriter::perm(Vec::new());
/// for col in [1, 3, 0, 2] {
///     w.push(col).unwrap();
/// }
/// assert_eq!(w.finish().unwrap(), b"2 4 1 3\n");
/// ```
pub struct ColumnWriter<W: Write> {
    out: W,
    buf: Box<[u8; CAPACITY]>,
    len: usize,
    empty: bool,
    separator: u8,
    end: &'static [u8],
}

impl<W: Write> ColumnWriter<W> {
    /// A writer of one `perm` line onto `out`.
    ///
    /// ```
    /// let w = nqueens::large::ColumnWriter::perm(std::io::sink());
    /// w.finish().unwrap();
    /// ```
    pub fn perm(out: W) -> Self {
        Self::new(out, b' ', b"\n")
    }

    /// A writer of one `json` line for `n` queens onto `out`.
    ///
    /// ```
    /// let mut w = nqueens::large::ColumnWriter::json(Vec::new(), 1).unwrap();
    /// w.push(0).unwrap();
    /// assert_eq!(w.finish().unwrap(), b"{\"n\":1,\"columns\":[1]}\n");
    /// ```
    ///
    /// # Errors
    /// What writing the start fails with.
    pub fn json(out: W, n: usize) -> io::Result<Self> {
        let mut writer = Self::new(out, b',', b"]}\n");
        let head = format!("{{\"n\":{n},\"columns\":[");
        writer.buf[..head.len()].copy_from_slice(head.as_bytes());
        writer.len = head.len();
        Ok(writer)
    }

    fn new(out: W, separator: u8, end: &'static [u8]) -> Self {
        ColumnWriter {
            out,
            buf: Box::new([0; CAPACITY]),
            len: 0,
            empty: true,
            separator,
            end,
        }
    }

    /// Appends the queen of the next row, given by its 0-based column (written 1-based).
    ///
    /// ```
    /// let mut w = nqueens::large::ColumnWriter::perm(Vec::new());
    /// w.push(4_294_967_294).unwrap();
    /// assert_eq!(w.finish().unwrap(), b"4294967295\n");
    /// ```
    ///
    /// # Errors
    /// What writing fails with.
    #[inline]
    pub fn push(&mut self, col: u32) -> io::Result<()> {
        if self.len > CAPACITY - MAX_ITEM {
            self.flush_buf()?;
        }
        if !self.empty {
            self.buf[self.len] = self.separator;
            self.len += 1;
        }
        self.empty = false;
        // Digits are produced from the right into a scratch array, then copied in one go.
        let mut digits = [0u8; 20];
        let mut pos = digits.len();
        let mut v = u64::from(col) + 1;
        while v >= 100 {
            let pair = (v % 100) as usize * 2;
            v /= 100;
            pos -= 2;
            digits[pos..pos + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        }
        if v >= 10 {
            let pair = v as usize * 2;
            pos -= 2;
            digits[pos..pos + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        } else {
            pos -= 1;
            digits[pos] = b'0' + v as u8;
        }
        let count = digits.len() - pos;
        self.buf[self.len..self.len + count].copy_from_slice(&digits[pos..]);
        self.len += count;
        Ok(())
    }

    /// Ends the line, flushes everything and gives back the underlying writer.
    ///
    /// ```
    /// let w = nqueens::large::ColumnWriter::perm(Vec::new());
    /// assert_eq!(w.finish().unwrap(), b"\n");
    /// ```
    ///
    /// # Errors
    /// What writing the end fails with.
    pub fn finish(mut self) -> io::Result<W> {
        self.flush_buf()?;
        self.out.write_all(self.end)?;
        self.out.flush()?;
        Ok(self.out)
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf[..self.len])?;
        self.len = 0;
        Ok(())
    }
}

/// Writes the `n` 0-based columns `cols` in `format`, exactly as [`format::write`] would write
/// their placement. `perm` and `json` stream in constant memory; `board` and `svg` draw the
/// whole board, so they collect the columns first and are meant for small `n`.
///
/// ```
/// use nqueens::format::Format;
/// let mut out = Vec::new();
/// nqueens::large::write_streamed(&mut out, 8, [0, 4, 7, 5, 2, 6, 1, 3], Format::Perm).unwrap();
/// assert_eq!(out, b"1 5 8 6 3 7 2 4\n");
/// ```
///
/// # Errors
/// What writing fails with.
pub fn write_streamed(
    mut out: impl Write,
    n: usize,
    cols: impl IntoIterator<Item = u32>,
    format: Format,
) -> io::Result<()> {
    let mut writer = match format {
        Format::Perm => ColumnWriter::perm(out),
        Format::Json => ColumnWriter::json(out, n)?,
        Format::Board | Format::Svg => {
            let placement = Placement::new(cols.into_iter().collect());
            return format::write(&mut out, &placement, format);
        }
    };
    for col in cols {
        writer.push(col)?;
    }
    writer.finish().map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_format_module_across_buffer_boundaries() {
        let cols: Vec<u32> = (0..50_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761) % 1_000_000_007)
            .chain([0, 8, 9, 98, 99, 998, 999, u32::MAX - 1])
            .collect();
        let board = crate::large::construct(12).unwrap().into_cols();
        let cases = [
            (&cols, Format::Perm),
            (&cols, Format::Json),
            (&board, Format::Board),
            (&board, Format::Svg),
        ];
        for (cols, format) in cases {
            let mut ours = Vec::new();
            write_streamed(&mut ours, cols.len(), cols.iter().copied(), format).unwrap();
            let mut theirs = Vec::new();
            format::write(&mut theirs, &Placement::new(cols.clone()), format).unwrap();
            assert!(ours == theirs, "{format:?}");
        }
    }
}
