//! `floodgate-scan usi`, `bench`, `replay`, `tune`, `validate`: the engine subcommands.
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use crate::engine::bench;
use crate::engine::decl24::Weights;
use crate::engine::play::GameSettings;
use crate::engine::replay::{self, StartPosition};
use crate::engine::search::{Config, Mode};
use crate::engine::time::Limits;
use crate::engine::tune;
use crate::engine::usi;
use crate::outdir::OutDir;
use crate::shogi::{EnteringKingRule, Position};

#[derive(Debug, clap::Args)]
pub struct UsiArgs {}

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
    fn settings(&self) -> GameSettings {
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

    fn pool(&self) -> anyhow::Result<()> {
        if let Some(j) = self.jobs {
            // Fails only if a pool was already built in this process: harmless.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(j.max(1))
                .build_global();
        }
        Ok(())
    }
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The scan's per-game table (games.parquet with the `report` feature, or games.csv):
    /// every mutual entering-king game the move limit cut off is continued from its final
    /// position.
    #[arg(long, conflicts_with = "positions")]
    pub games: Option<PathBuf>,
    /// A positions file (SFEN in the first tab-separated column, `#` comments).
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// Replay only the first N positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// `search` or `decl24`.
    #[arg(long, default_value = "decl24")]
    pub mode: Mode,
    /// Weights file of the 24-point engine (default: compiled-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Output table (CSV).
    #[arg(long, short, default_value = "replay.csv")]
    pub out: PathBuf,
    /// Also write the summary as JSON here.
    #[arg(long)]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub play: PlayArgs,
}

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

pub fn run_usi(_a: UsiArgs) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    usi::run(std::io::BufReader::new(stdin), std::io::stdout());
    Ok(ExitCode::SUCCESS)
}

pub fn run_bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    let r = bench::run(a.depth, a.mode, a.hash).map_err(anyhow::Error::msg)?;
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

fn load_weights(path: Option<&Path>) -> anyhow::Result<Weights> {
    match path {
        None => Ok(Weights::default()),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read weights {}", p.display()))?;
            Weights::parse(&text).with_context(|| format!("weights {}", p.display()))
        }
    }
}

fn load_positions(path: &Path) -> anyhow::Result<(Vec<(StartPosition, Position)>, usize)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read positions {}", path.display()))?;
    let (ok, bad) = replay::read_positions(&text, &file_name(path));
    for b in &bad {
        eprintln!("floodgate-scan: warning: {b}");
    }
    Ok((ok, bad.len()))
}

/// The folder and file name of an output file.
fn split_file(path: &Path) -> anyhow::Result<(PathBuf, String)> {
    let name = path
        .file_name()
        .with_context(|| format!("{}: not a file name", path.display()))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name.to_string_lossy().into_owned()))
}

/// Do two folder paths name the same folder (once both exist)?
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Refuse a start-position file or games table with unreadable positions before hours of
/// replay, naming the file and the first bad lines or games.
fn refuse_bad(path: &Path, bad: &[String]) -> anyhow::Result<()> {
    if bad.is_empty() {
        return Ok(());
    }
    let shown: Vec<&str> = bad.iter().take(3).map(String::as_str).collect();
    let more = match bad.len() - shown.len() {
        0 => String::new(),
        n => format!(" (and {n} more)"),
    };
    bail!(
        "{}: {} unreadable start position{}: {}{more}; nothing replayed",
        path.display(),
        bad.len(),
        if bad.len() == 1 { "" } else { "s" },
        shown.join("; ")
    )
}

/// Start positions to play from: each with its id and SFEN, and the position itself.
type Starts = Vec<(StartPosition, Position)>;

/// Start positions from a scan's games table: mutual entering-king games the move limit
/// cut off, continued from their final position.
fn load_games(path: &Path) -> anyhow::Result<(Starts, Vec<String>)> {
    let rows: Vec<(String, String)> = if path.extension().is_some_and(|e| e == "csv") {
        games_from_csv(path)?
    } else {
        games_from_parquet(path)?
    };
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for (id, sfen) in rows {
        match Position::from_sfen(&sfen) {
            Ok(p) => out.push((StartPosition { id, sfen }, p)),
            Err(e) => bad.push(format!("game {id}: bad final_sfen: {e}")),
        }
    }
    Ok((out, bad))
}

fn is_cut_mutual(entering: &str, reason: &str) -> bool {
    entering == "mutual" && matches!(reason, "max_moves" | "max_moves_draw")
}

fn games_from_csv(path: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let mut rdr =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let headers = rdr.headers()?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{}: no column `{name}`", path.display()))
    };
    let (gi, ei, ri, si) = (
        col("game_id")?,
        col("entering")?,
        col("summary_reason")?,
        col("final_sfen")?,
    );
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.with_context(|| format!("{}", path.display()))?;
        let get = |i: usize| rec.get(i).unwrap_or("");
        if is_cut_mutual(get(ei), get(ri)) && !get(si).is_empty() {
            out.push((get(gi).to_string(), get(si).to_string()));
        }
    }
    Ok(out)
}

#[cfg(feature = "report")]
fn games_from_parquet(path: &Path) -> anyhow::Result<Vec<(String, String)>> {
    use polars::prelude::{ParquetReader, SerReader};
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let df = ParquetReader::new(file)
        .finish()
        .with_context(|| format!("cannot read {}", path.display()))?;
    let text = |name: &str| -> anyhow::Result<Vec<Option<String>>> {
        let c = df
            .column(name)
            .with_context(|| format!("no column `{name}`"))?;
        let s = c
            .str()
            .with_context(|| format!("column `{name}` is not text"))?;
        Ok(s.iter().map(|v| v.map(str::to_string)).collect())
    };
    let ids = text("game_id")?;
    let entering = text("entering")?;
    let reasons = text("summary_reason")?;
    let sfens = text("final_sfen")?;
    let mut out = Vec::new();
    for i in 0..ids.len() {
        let e = entering[i].as_deref().unwrap_or("");
        let r = reasons[i].as_deref().unwrap_or("");
        if let Some(s) = &sfens[i]
            && is_cut_mutual(e, r)
        {
            out.push((ids[i].clone().unwrap_or_default(), s.clone()));
        }
    }
    Ok(out)
}

#[cfg(not(feature = "report"))]
fn games_from_parquet(path: &Path) -> anyhow::Result<Vec<(String, String)>> {
    bail!(
        "{}: reading Parquet needs the `report` feature; pass the games.csv table instead",
        path.display()
    )
}

fn progress_bar(n: usize) -> ProgressBar {
    let pb = ProgressBar::new(n as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games ({eta})")
    {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

pub fn run_replay(a: ReplayArgs) -> anyhow::Result<ExitCode> {
    a.play.pool()?;
    let mut starts = match (&a.games, &a.positions) {
        (Some(g), None) => {
            let (starts, bad) = load_games(g)?;
            refuse_bad(g, &bad)?;
            starts
        }
        (None, Some(p)) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read positions {}", p.display()))?;
            let (starts, bad) = replay::read_positions(&text, &file_name(p));
            refuse_bad(p, &bad)?;
            starts
        }
        _ => bail!("replay needs --games or --positions"),
    };
    if let Some(n) = a.limit {
        starts.truncate(n);
    }
    let config = Config {
        rule: a.play.rule,
        max_moves_to_draw: 0,
        mode: a.mode,
        weights: load_weights(a.weights.as_deref())?,
    };
    let settings = a.play.settings();
    let pb = progress_bar(starts.len());
    let rows = replay::replay(&starts, &config, &settings, &|| pb.inc(1));
    pb.finish_and_clear();
    // The table and the summary all or nothing: under temporary names until both are
    // complete (see crate::outdir), the summary put into place last.
    let (out_dir, out_name) = split_file(&a.out)?;
    let dir = OutDir::open(&out_dir)?;
    let write_err = |p: &Path| format!("cannot write {}", p.display());
    let mut w = csv::Writer::from_writer(dir.create(&out_name).with_context(|| write_err(&a.out))?);
    for r in &rows {
        w.serialize(r).with_context(|| write_err(&a.out))?;
    }
    w.flush().with_context(|| write_err(&a.out))?;
    drop(w);
    let s = replay::summarize(&rows);
    let fmt = |x: Option<f64>| x.map(|v| format!("{v:.1}")).unwrap_or_else(|| "-".into());
    println!(
        "positions {}  declared {} ({:.1}%: black {}, white {})  declared draw {}  mate {}  repetition {}  limit {}",
        s.positions,
        s.declarations,
        100.0 * s.declaration_share,
        s.declarations_black,
        s.declarations_white,
        s.declared_draws,
        s.mates,
        s.repetitions,
        s.limits
    );
    if s.past_move_500 > 0 {
        println!(
            "{} positions past move 500 not played: the {} rule allows no declaration after move 500",
            s.past_move_500, a.play.rule
        );
    }
    println!(
        "median plies to 10 pieces {}  to the declaration {}  better side won {}/{} (lost {})",
        fmt(s.median_plies_to_ten),
        fmt(s.median_plies_to_declaration),
        s.better_side_won,
        s.with_better_side,
        s.better_side_lost
    );
    // A summary in another folder has that folder's own lock and temporaries.
    let mut other = None;
    if let Some(p) = &a.summary {
        let (sum_dir, sum_name) = split_file(p)?;
        let text = serde_json::to_string_pretty(&s)? + "\n";
        let target = if same_folder(&sum_dir, &out_dir) {
            &dir
        } else {
            other.insert(OutDir::open(&sum_dir)?)
        };
        target
            .create(&sum_name)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .with_context(|| write_err(p))?;
    }
    dir.commit(&[])?;
    if let Some(o) = other {
        o.commit(&[])?;
    }
    eprintln!("wrote {} rows to {}", rows.len(), a.out.display());
    Ok(ExitCode::SUCCESS)
}

pub fn run_tune(a: TuneArgs) -> anyhow::Result<ExitCode> {
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

pub fn run_validate(a: ValidateArgs) -> anyhow::Result<ExitCode> {
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
