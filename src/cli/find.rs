//! `nqueens find`.

/// Arguments of `nqueens find`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `nqueens find`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`find` is not built yet")
}
