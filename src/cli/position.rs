//! `floodgate-scan position`.
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct PositionArgs {}

pub fn run(_a: PositionArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("position: not built yet")
}
