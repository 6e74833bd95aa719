//! `floodgate-scan perft`: count the leaves of the legal move tree from a position, and
//! with `--divide` the count below each legal move.
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use floodgate_scan::shogi::{Position, perft, perft_bulk, perft_divide};

#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Start from this SFEN position (default: the even-game start position).
    #[arg(long)]
    pub sfen: Option<String>,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each legal move (USI order).
    #[arg(long)]
    pub divide: bool,
    /// Count the last ply from the legal list instead of playing every leaf.
    #[arg(long)]
    pub bulk: bool,
}

pub fn run(a: PerftArgs) -> anyhow::Result<ExitCode> {
    let mut pos = match &a.sfen {
        Some(s) => Position::from_sfen(s).with_context(|| format!("--sfen `{s}`"))?,
        None => Position::startpos(),
    };
    let start = Instant::now();
    let total = if a.divide {
        let mut rows = perft_divide(&mut pos, a.depth.max(1));
        rows.sort_by_key(|(m, _)| m.to_usi());
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else if a.bulk {
        perft_bulk(&mut pos, a.depth)
    } else {
        perft(&mut pos, a.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{total}");
    eprintln!(
        "perft {} in {:.3} s ({:.2} M nodes/s)",
        a.depth,
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(ExitCode::SUCCESS)
}
