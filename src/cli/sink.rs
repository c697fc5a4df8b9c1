//! Streaming placements to the output, shared by `solve` and `complete --all`.
//!
//! Placements are written as they are found, up to an optional limit. A reader that goes away
//! (`nqueens solve 14 | head`) is not an error: it has what it wanted, so the search just stops.

use std::io::{self, Write};
use std::ops::ControlFlow;

use anyhow::Context;
use nqueens::Placement;
use nqueens::format::{self, Format};

/// Writes placements in one format and remembers how many went out.
pub struct Sink<W: Write> {
    out: W,
    format: Format,
    limit: u64,
    written: u64,
    /// Set only when a placement beyond the limit turns up, so a limit that happens to equal
    /// the number of placements is not reported as a cut.
    cut: bool,
    failure: Option<io::Error>,
}

/// What a sink wrote, once the reader has had all it asked for.
pub struct Written {
    /// Placements written.
    pub count: u64,
    /// `true` if more placements existed beyond the limit.
    pub cut: bool,
}

impl<W: Write> Sink<W> {
    /// A sink writing to `out` in `format`, at most `limit` placements.
    pub fn new(out: W, format: Format, limit: Option<u64>) -> Self {
        Sink {
            out,
            format,
            limit: limit.unwrap_or(u64::MAX),
            written: 0,
            cut: false,
            failure: None,
        }
    }

    /// Writes `p`; breaks once the limit is passed or the output fails, to stop the search.
    pub fn emit(&mut self, p: &Placement) -> ControlFlow<()> {
        if self.written == self.limit {
            self.cut = true;
            return ControlFlow::Break(());
        }
        match format::write(&mut self.out, p, self.format) {
            Ok(()) => {
                self.written += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                self.failure = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    /// Flushes the output. `Ok(None)` if the reader went away before the end.
    pub fn finish(mut self) -> anyhow::Result<Option<Written>> {
        let flushed = match self.failure.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        };
        match flushed {
            Ok(()) => Ok(Some(Written {
                count: self.written,
                cut: self.cut,
            })),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(None),
            Err(e) => Err(e).context("cannot write the output"),
        }
    }
}
