//! `floodgate-scan bench`: a fixed set of positions searched, the node-count signature and
//! nodes per second printed.
use std::process::ExitCode;

use floodgate_scan::engine::bench;
use floodgate_scan::engine::search::Mode;
use floodgate_scan::engine::usi::Options;

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Search depth of every position [default: 12 in the full search, 10 in the
    /// 24-point mode].
    #[arg(long)]
    pub depth: Option<u32>,
    /// `search` or `decl24`.
    #[arg(long, default_value = "search")]
    pub mode: Mode,
    /// Transposition table size per position, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// An engine option as `NAME=VALUE` (the USI `setoption` names, e.g. `Threats=false`),
    /// repeatable: to measure what an option changes.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

pub fn run(a: BenchArgs) -> anyhow::Result<ExitCode> {
    let mut options = Options::default();
    for o in &a.options {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--option {o}: expected NAME=VALUE"))?;
        options
            .set(name.trim(), value)
            .map_err(|e| anyhow::anyhow!("--option {o}: {e}"))?;
    }
    let mut config = options.config();
    config.mode = a.mode;
    let depth = a.depth.unwrap_or(match a.mode {
        Mode::Search => bench::DEFAULT_DEPTH,
        Mode::Decl24 => bench::DEFAULT_DEPTH_DECL24,
    });
    let r = bench::run_with(depth, config, a.hash)?;
    println!(
        "positions {} depth {} mode {} nodes {} time_ms {} nps {}",
        r.positions,
        r.depth,
        a.mode,
        r.nodes,
        r.time.as_millis(),
        r.nps()
    );
    println!("signature {}", r.nodes);
    Ok(ExitCode::SUCCESS)
}
