//! `floodgate-scan usi`, `bench`, `replay`, `tune`, `validate`.
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct UsiArgs {}
#[derive(Debug, clap::Args)]
pub struct BenchArgs {}
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {}
#[derive(Debug, clap::Args)]
pub struct TuneArgs {}
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {}

pub fn run_usi(_a: UsiArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("usi: not built yet")
}
pub fn run_bench(_a: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("bench: not built yet")
}
pub fn run_replay(_a: ReplayArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("replay: not built yet")
}
pub fn run_tune(_a: TuneArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("tune: not built yet")
}
pub fn run_validate(_a: ValidateArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("validate: not built yet")
}
