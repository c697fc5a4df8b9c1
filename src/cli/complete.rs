//! `nqueens complete`.

/// Arguments of `nqueens complete`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `nqueens complete`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`complete` is not built yet")
}
