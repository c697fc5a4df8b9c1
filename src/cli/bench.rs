//! `nqueens bench`.

/// Arguments of `nqueens bench`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `nqueens bench`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`bench` is not built yet")
}
