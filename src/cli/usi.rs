//! `floodgate-scan usi`: the built-in engine speaking USI on standard input and output.
use std::process::ExitCode;

use floodgate_scan::engine::usi;

#[derive(Debug, clap::Args)]
pub struct UsiArgs {}

pub fn run(_a: UsiArgs) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    usi::run(std::io::BufReader::new(stdin), std::io::stdout());
    Ok(ExitCode::SUCCESS)
}
