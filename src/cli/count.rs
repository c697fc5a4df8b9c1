//! `nqueens count`.

/// Arguments of `nqueens count`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `nqueens count`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`count` is not built yet")
}
