//! `floodgate-scan perft`.
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct PerftArgs {}

pub fn run(_a: PerftArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("perft: not built yet")
}
