//! `floodgate-scan tune`: the 24-point engine's weights tuned by SPSA self-play.
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};

use floodgate_scan::lab::tune;
use floodgate_scan::shogi::Position;

use super::play::{PlayArgs, load_positions, load_weights};

#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// Tuning positions (tune40.tsv format).
    #[arg(long)]
    pub positions: PathBuf,
    /// SPSA iterations.
    #[arg(long, default_value_t = 30)]
    pub iterations: u32,
    /// Starting weights (default: compiled-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Where to write the tuned weights.
    #[arg(long, short, default_value = "weights/tuned.txt")]
    pub out: PathBuf,
    /// Seed of the perturbations.
    #[arg(long, default_value_t = 20_260_829)]
    pub seed: u64,
    #[command(flatten)]
    pub play: PlayArgs,
}

pub fn run(a: TuneArgs) -> anyhow::Result<ExitCode> {
    a.play.pool()?;
    let (starts, _) = load_positions(&a.positions)?;
    let positions: Vec<Position> = starts.into_iter().map(|(_, p)| p).collect();
    if positions.is_empty() {
        bail!("{}: no positions", a.positions.display());
    }
    let start = load_weights(a.weights.as_deref())?;
    let settings = a.play.settings();
    let tuned = tune::spsa(
        &start,
        &positions,
        &settings,
        a.iterations,
        a.seed,
        &mut |it| {
            let v: Vec<String> = it
                .weights
                .values
                .iter()
                .map(|x| format!("{x:.2}"))
                .collect();
            eprintln!(
                "iter {:>3}  plus: +{} -{} ={}  weights [{}]",
                it.k,
                it.plus.wins,
                it.plus.losses,
                it.plus.draws,
                v.join(" ")
            );
        },
    );
    if let Some(dir) = a.out.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let comment = format!(
        "SPSA {} iterations, {} positions, {} per move, {} plies at most, rule {}",
        a.iterations,
        positions.len(),
        match a.play.depth {
            Some(d) => format!("depth {d}"),
            None => format!("{} nodes", a.play.nodes),
        },
        a.play.max_plies,
        a.play.rule
    );
    std::fs::write(&a.out, tuned.to_text(&comment))
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    println!("wrote {}", a.out.display());
    Ok(ExitCode::SUCCESS)
}
