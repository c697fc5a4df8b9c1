//! Streaming output of huge placements in the `perm` format, without building a [`Placement`].
//!
//! A solution for 10^8 queens is about 900 MB of text, so the cost per queen matters: `write!`
//! with `{}` goes through the formatting machinery for every number. [`PermWriter`] instead
//! turns each column into digits two at a time from a 200-byte table and copies them into its
//! own 64 KiB buffer, which goes to the underlying writer in large blocks. The text is exactly
//! what [`crate::format::write`] writes for [`Format::Perm`](crate::format::Format::Perm):
//! 1-based columns separated by single spaces, then a newline.
//!
//! [`Placement`]: crate::Placement

use std::io::{self, Write};

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

/// Writes one placement in the `perm` format, one column at a time, in constant memory.
///
/// ```
/// use nqueens::large::PermWriter;
/// let mut w = PermWriter::new(Vec::new());
/// for col in [1, 3, 0, 2] {
///     w.push(col).unwrap();
/// }
/// assert_eq!(w.finish().unwrap(), b"2 4 1 3\n");
/// ```
pub struct PermWriter<W: Write> {
    out: W,
    buf: Box<[u8; CAPACITY]>,
    len: usize,
    empty: bool,
}

impl<W: Write> PermWriter<W> {
    /// A writer for one placement onto `out`.
    ///
    /// ```
    /// let w = nqueens::large::PermWriter::new(std::io::sink());
    /// w.finish().unwrap();
    /// ```
    pub fn new(out: W) -> Self {
        PermWriter {
            out,
            buf: Box::new([0; CAPACITY]),
            len: 0,
            empty: true,
        }
    }

    /// Appends the queen of the next row, given by its 0-based column (written 1-based).
    ///
    /// ```
    /// let mut w = nqueens::large::PermWriter::new(Vec::new());
    /// w.push(4_294_967_294).unwrap();
    /// assert_eq!(w.finish().unwrap(), b"4294967295\n");
    /// ```
    #[inline]
    pub fn push(&mut self, col: u32) -> io::Result<()> {
        if self.len > CAPACITY - MAX_ITEM {
            self.flush_buf()?;
        }
        if !self.empty {
            self.buf[self.len] = b' ';
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
    /// let w = nqueens::large::PermWriter::new(Vec::new());
    /// assert_eq!(w.finish().unwrap(), b"\n");
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        if self.len == CAPACITY {
            self.flush_buf()?;
        }
        self.buf[self.len] = b'\n';
        self.len += 1;
        self.flush_buf()?;
        self.out.flush()?;
        Ok(self.out)
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf[..self.len])?;
        self.len = 0;
        Ok(())
    }
}

/// Writes the 0-based columns `cols` as one `perm` line (see [`PermWriter`]).
///
/// ```
/// let mut out = Vec::new();
/// nqueens::large::write_perm(&mut out, [0, 4, 7, 5, 2, 6, 1, 3]).unwrap();
/// assert_eq!(out, b"1 5 8 6 3 7 2 4\n");
/// ```
pub fn write_perm(out: impl Write, cols: impl IntoIterator<Item = u32>) -> io::Result<()> {
    let mut writer = PermWriter::new(out);
    for col in cols {
        writer.push(col)?;
    }
    writer.finish().map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_display_across_buffer_boundaries() {
        let cols: Vec<u32> = (0..50_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761) % 1_000_000_007)
            .chain([0, 8, 9, 98, 99, 998, 999, u32::MAX - 1])
            .collect();
        let mut out = Vec::new();
        write_perm(&mut out, cols.iter().copied()).unwrap();
        let expected: Vec<String> = cols
            .iter()
            .map(|&c| (u64::from(c) + 1).to_string())
            .collect();
        assert_eq!(String::from_utf8(out).unwrap(), expected.join(" ") + "\n");
    }
}
