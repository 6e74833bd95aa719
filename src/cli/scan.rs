//! `floodgate-scan scan`.
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct ScanArgs {}

pub fn run(_a: ScanArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("scan: not built yet")
}
