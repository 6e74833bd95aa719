//! `floodgate-scan report` and `floodgate-scan positions`.
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct ReportArgs {}

#[derive(Debug, clap::Args)]
pub struct PositionsArgs {}

pub fn run(_a: ReportArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("report: not built yet")
}

pub fn run_positions(_a: PositionsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("positions: not built yet")
}
