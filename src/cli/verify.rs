//! `nqueens verify`.

/// Arguments of `nqueens verify`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `nqueens verify`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`verify` is not built yet")
}
