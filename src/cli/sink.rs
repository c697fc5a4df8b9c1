//! Streaming placements to the output, shared by `solve` and `complete --all`.
//!
//! Placements are written as they are found, up to an optional limit. A reader that goes away
//! (`nqueens solve 14 | head`) is not an error: it has what it wanted, so the search just stops.
//! The one exception is `--format svg`: a gallery is one SVG document whose size depends on how
//! many boards it holds, so its placements are gathered first (at most [`GALLERY_MAX`] without
//! a limit) and written when the search is over.

use std::io::{self, Write};
use std::ops::ControlFlow;

use anyhow::Context;
use nqueens::Placement;
use nqueens::format::{self, Format};

use super::bad_input;

/// The most boards one SVG gallery holds without a limit: all 14,200 solutions of 12, a file of
/// a few MB; more is refused.
const GALLERY_MAX: u64 = 20_000;

/// Writes placements in one format and remembers how many went out.
pub struct Sink<W: Write> {
    out: W,
    n: usize,
    format: Format,
    /// The placements of an SVG gallery, gathered until the end.
    gallery: Vec<Placement>,
    /// `true` if the limit is the gallery's own, not the caller's.
    gallery_cap: bool,
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
    /// A sink writing placements of `n` queens to `out` in `format`, at most `limit` of them.
    pub fn new(out: W, n: usize, format: Format, limit: Option<u64>) -> Self {
        let gallery_cap = format == Format::Svg && limit.is_none();
        Sink {
            out,
            n,
            format,
            gallery: Vec::new(),
            gallery_cap,
            limit: limit.unwrap_or(if gallery_cap { GALLERY_MAX } else { u64::MAX }),
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
        if self.format == Format::Svg {
            self.gallery.push(p.clone());
            self.written += 1;
            return ControlFlow::Continue(());
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
        if self.format == Format::Svg {
            if self.cut && self.gallery_cap {
                return Err(bad_input(format!(
                    "more than {GALLERY_MAX} boards for one SVG gallery: write them as perm \
                     lines or JSON, or draw fewer (solve --limit K)"
                )));
            }
            let written = format::svg::write_gallery(&mut self.out, self.n, &self.gallery);
            self.failure = written.err();
        }
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
