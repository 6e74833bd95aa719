//! `floodgate-scan usi-standin` (hidden): a scripted USI engine for the referee's tests
//! (see `floodgate_scan::referee::standin`).
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use floodgate_scan::referee::standin;

#[derive(Debug, clap::Args)]
pub struct StandinArgs {
    /// The steps answering each `go`, comma-separated, repeated when they run out.
    #[arg(long, default_value = "first")]
    pub script: String,
    /// The `id name`.
    #[arg(long, default_value = "standin")]
    pub name: String,
    /// Append this process's id to this file at start.
    #[arg(long)]
    pub pidfile: Option<PathBuf>,
}

pub fn run(a: StandinArgs) -> anyhow::Result<ExitCode> {
    let script = standin::parse_script(&a.script).map_err(anyhow::Error::msg)?;
    if let Some(p) = &a.pidfile {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)?;
        // One write of the whole line: engines started together append to the same
        // file, and `writeln!` may split the number and its newline into two writes.
        f.write_all(format!("{}\n", std::process::id()).as_bytes())?;
    }
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    standin::run(&a.name, &script, stdin, stdout)?;
    Ok(ExitCode::SUCCESS)
}
