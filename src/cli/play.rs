//! What the self-play subcommands (`replay`, `tune`, `validate`) share: the game options,
//! the weights and positions files.
use std::path::Path;

use anyhow::Context;

use floodgate_scan::engine::eval::eval24::Weights;
use floodgate_scan::engine::time::Limits;
use floodgate_scan::lab::endings::{self, StartPosition};
use floodgate_scan::lab::play::GameSettings;
use floodgate_scan::shogi::{EnteringKingRule, Position};

/// Options shared by the self-play subcommands.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Entering-king rule of the games (NoEnteringKing, CSARule24, CSARule24H, CSARule27,
    /// CSARule27H, TryRule).
    #[arg(long, default_value = "CSARule24")]
    pub rule: EnteringKingRule,
    /// Most plies played from each start position.
    #[arg(long, default_value_t = 200)]
    pub max_plies: u32,
    /// Nodes per move (reproducible games).
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Depth per move instead of nodes.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Transposition table per player, in MB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

impl PlayArgs {
    /// The settings of every game these options describe.
    pub fn settings(&self) -> GameSettings {
        GameSettings {
            rule: self.rule,
            max_plies: self.max_plies,
            per_move: match self.depth {
                Some(d) => Limits::depth(d),
                None => Limits::nodes(self.nodes),
            },
            hash_mb: self.hash,
        }
    }

    /// Size the thread pool the games are played on (`--jobs`).
    pub fn pool(&self) -> anyhow::Result<()> {
        if let Some(j) = self.jobs {
            // Fails only if a pool was already built in this process: harmless.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(j.max(1))
                .build_global();
        }
        Ok(())
    }
}

/// Start positions to play from: each with its id and SFEN, and the position itself.
pub type Starts = Vec<(StartPosition, Position)>;

/// The weights file at `path`, or the compiled-in weights.
pub fn load_weights(path: Option<&Path>) -> anyhow::Result<Weights> {
    match path {
        None => Ok(Weights::default()),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read weights {}", p.display()))?;
            Weights::parse(&text).with_context(|| format!("weights {}", p.display()))
        }
    }
}

/// The start positions of a positions file (bad lines warned about), and how many lines
/// were bad.
pub fn load_positions(path: &Path) -> anyhow::Result<(Starts, usize)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read positions {}", path.display()))?;
    let name = file_name(path);
    let (ok, bad) = endings::read_positions(&text, &name);
    for b in &bad {
        eprintln!("floodgate-scan: warning: {name}:{}: {}", b.line, b.error);
    }
    Ok((ok, bad.len()))
}

/// The last component of `path`, for messages.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
