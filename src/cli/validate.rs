//! `floodgate-scan validate`: tuned weights played against others on held-out positions.
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use floodgate_scan::lab::tune;
use floodgate_scan::shogi::Position;

use super::play::{PlayArgs, load_positions, load_weights};

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// Held-out positions (holdout40.tsv format).
    #[arg(long)]
    pub positions: PathBuf,
    /// The tuned weights file.
    #[arg(long)]
    pub weights: PathBuf,
    /// The weights to play against (default: compiled-in weights).
    #[arg(long)]
    pub against: Option<PathBuf>,
    #[command(flatten)]
    pub play: PlayArgs,
}

pub fn run(a: ValidateArgs) -> anyhow::Result<ExitCode> {
    a.play.pool()?;
    let (starts, _) = load_positions(&a.positions)?;
    let positions: Vec<Position> = starts.into_iter().map(|(_, p)| p).collect();
    if positions.is_empty() {
        bail!("{}: no positions", a.positions.display());
    }
    let tuned = load_weights(Some(&a.weights))?;
    let base = load_weights(a.against.as_deref())?;
    let r = tune::play_match(&tuned, &base, &positions, &a.play.settings());
    let decisive = r.wins + r.losses;
    println!(
        "tuned vs {}: {}  decisive win rate {}",
        a.against
            .as_deref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "default".into()),
        r.describe(),
        if decisive > 0 {
            format!("{:.1}%", 100.0 * r.wins as f64 / decisive as f64)
        } else {
            "-".into()
        }
    );
    Ok(ExitCode::SUCCESS)
}
