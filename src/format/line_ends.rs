//! Line ends of every kind, read as one: `\n` (Unix), `\r\n` (Windows) and a lone `\r` (classic
//! Mac OS, and some exports). The readers of placements and of completion instances see each
//! line end as one `\n`, so a file with `\r` line ends reads as the lines it shows in an
//! editor, not as one long line.

use std::io::{self, BufRead, Read};

/// A [`BufRead`] that hands out its input with every line end as a single `\n`.
///
/// No copy is made: the input's own buffer is handed out up to the next `\r`, and a `\r` is
/// handed out as `"\n"` (the `\n` of a `\r\n` right after it is then dropped). Each byte is
/// looked at once, however the caller consumes.
pub(crate) struct LineEnds<R> {
    input: R,
    /// Bytes at the start of the input's buffer known to hold no `\r`.
    clean: usize,
    /// A `\r` is what [`fill_buf`](BufRead::fill_buf) handed out last, as `"\n"`.
    at_cr: bool,
    /// The last byte consumed was a `\r`: a `\n` right after it belongs to it.
    after_cr: bool,
}

impl<R: BufRead> LineEnds<R> {
    /// Reads `input` with its line ends made `\n`.
    pub(crate) fn new(input: R) -> Self {
        LineEnds {
            input,
            clean: 0,
            at_cr: false,
            after_cr: false,
        }
    }
}

impl<R: BufRead> BufRead for LineEnds<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.after_cr {
            let crlf = self.input.fill_buf()?.first() == Some(&b'\n');
            if crlf {
                self.input.consume(1);
            }
            self.after_cr = false;
        }
        if self.clean == 0 {
            let buf = self.input.fill_buf()?;
            if buf.first() == Some(&b'\r') {
                self.at_cr = true;
                return Ok(b"\n");
            }
            self.clean = memchr::memchr(b'\r', buf).unwrap_or(buf.len());
        }
        self.at_cr = false;
        let buf = self.input.fill_buf()?;
        Ok(&buf[..self.clean])
    }

    fn consume(&mut self, amount: usize) {
        if amount == 0 {
            return;
        }
        if self.at_cr {
            self.at_cr = false;
            self.after_cr = true;
            self.input.consume(1);
        } else {
            self.clean -= amount;
            self.input.consume(amount);
        }
    }
}

impl<R: BufRead> Read for LineEnds<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The input read through `LineEnds` over a buffer of `capacity` bytes, consumed `step`
    /// bytes at a time at most.
    fn through(text: &[u8], capacity: usize, step: usize) -> Vec<u8> {
        let mut r = LineEnds::new(io::BufReader::with_capacity(capacity, text));
        let mut out = Vec::new();
        loop {
            let buf = r.fill_buf().unwrap();
            if buf.is_empty() {
                return out;
            }
            let n = buf.len().min(step);
            out.extend_from_slice(&buf[..n]);
            r.consume(n);
        }
    }

    /// The obvious rewrite: `\r\n` and then a lone `\r` become `\n`.
    fn oracle(text: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < text.len() {
            if text[i] == b'\r' {
                out.push(b'\n');
                i += if text.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
            } else {
                out.push(text[i]);
                i += 1;
            }
        }
        out
    }

    proptest! {
        #[test]
        fn random_line_ends_read_as_the_oracle_says(
            text in proptest::collection::vec(
                proptest::sample::select(vec![b'\r', b'\n', b'7', b' ']), 0..64),
            capacity in 1usize..12,
            step in 1usize..6,
        ) {
            prop_assert_eq!(through(&text, capacity, step), oracle(&text));
        }
    }

    #[test]
    fn every_line_end_is_one_newline_across_any_buffer_and_step() {
        let samples: [&[u8]; 6] = [
            b"2 4 1 3\r3 1 4 2\r",
            b"2 4 1 3\r\n3 1 4 2\r\n",
            b"a\r\r\n\n\rb\r",
            b"\r\n\r\n\r",
            b"no line end at all",
            b"",
        ];
        for text in samples {
            for capacity in 1..=9 {
                for step in [1, 2, 3, usize::MAX] {
                    assert_eq!(
                        through(text, capacity, step),
                        oracle(text),
                        "{text:?} capacity {capacity} step {step}"
                    );
                }
            }
        }
    }
}
