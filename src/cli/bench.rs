//! `floodgate-scan bench`: a fixed set of positions searched, the node-count signature and
//! nodes per second printed.
use std::process::ExitCode;

use floodgate_scan::engine::bench;
use floodgate_scan::engine::search::Mode;

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Search depth of every position.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    pub depth: u32,
    /// `search` or `decl24`.
    #[arg(long, default_value = "search")]
    pub mode: Mode,
    /// Transposition table size per position, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

pub fn run(a: BenchArgs) -> anyhow::Result<ExitCode> {
    let r = bench::run(a.depth, a.mode, a.hash)?;
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
