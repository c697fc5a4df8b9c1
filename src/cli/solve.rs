//! `nqueens solve`.

/// Arguments of `nqueens solve`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `nqueens solve`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`solve` is not built yet")
}
