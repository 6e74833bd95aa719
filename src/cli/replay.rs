//! `floodgate-scan replay`: the mutual entering-king games the move limit cut off (or the
//! positions of a file) continued by the engine, a table and a summary written.
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use floodgate_scan::engine::endings::{self, StartPosition};
use floodgate_scan::engine::search::{Config, Mode};
use floodgate_scan::outdir::OutDir;
use floodgate_scan::shogi::Position;

use super::play::{PlayArgs, Starts, file_name, load_weights};

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

pub fn run(a: ReplayArgs) -> anyhow::Result<ExitCode> {
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
            let (starts, bad) = endings::read_positions(&text, &file_name(p));
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
        ..Config::default()
    };
    let settings = a.play.settings();
    let pb = progress_bar(starts.len());
    let rows = endings::replay(&starts, &config, &settings, &|| pb.inc(1));
    pb.finish_and_clear();
    // The table and the summary all or nothing: under temporary names until both are
    // complete (see floodgate_scan::outdir), the summary put into place last.
    let (out_dir, out_name) = split_file(&a.out)?;
    let dir = OutDir::open(&out_dir)?;
    let write_err = |p: &Path| format!("cannot write {}", p.display());
    let mut w = csv::Writer::from_writer(dir.create(&out_name).with_context(|| write_err(&a.out))?);
    for r in &rows {
        w.serialize(r).with_context(|| write_err(&a.out))?;
    }
    w.flush().with_context(|| write_err(&a.out))?;
    drop(w);
    let s = endings::summarize(&rows);
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
