//! `nqueens merge`.

/// Arguments of `nqueens merge`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `nqueens merge`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`merge` is not built yet")
}
