//! `floodgate-scan replay`: the mutual entering-king games the move limit cut off (or the
//! positions of a file) continued by the engine, a table and a summary written.
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use std::time::Duration;

use floodgate_scan::engine::search::{Config, Mode};
use floodgate_scan::game::words::is_cut_mutual;
use floodgate_scan::lab::endings::{
    self, RefereeRunError, ReplayRow, RowLabels, RunTimes, StartPosition,
};
use floodgate_scan::outdir::OutDir;
use floodgate_scan::referee::usi::GoLimit;
use floodgate_scan::referee::{AutoDeclare, EngineSpec, RefereeSettings};
use floodgate_scan::shogi::Position;

use super::play::{PlayArgs, Starts, file_name, load_weights};

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ReplayArgs {
    #[command(subcommand)]
    pub command: Option<ReplayCommand>,
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
    /// Play only share K of N (`K/N`, K from 1): the positions whose place in the list,
    /// counted from 0, leaves K-1 divided by N. `replay merge` joins the N tables.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// `search` or `decl24` (the built-in engine).
    #[arg(long, default_value = "decl24")]
    pub mode: Mode,
    /// Weights file of the 24-point engine (default: compiled-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Learned weights of the built-in engine: in `search` mode the full search's
    /// evaluation (the `LinearWeights` option: `builtin`, the default, `none` for the
    /// hand-made evaluation alone, or a file from `learn fit`); in `decl24` mode a
    /// correction of the 24-point evaluation from `learn fit --decl24` (the
    /// `LinearWeights24` option; default none).
    #[arg(long, value_name = "WEIGHTS")]
    pub linear_weights: Option<String>,
    /// The king-relative piece evaluation of the built-in engine's full search (the
    /// `KingPieceWeights` option: `builtin`, the default, `none`, or a file from `learn
    /// king-fit`); the 24-point mode does not use it.
    #[arg(long, value_name = "WEIGHTS")]
    pub king_piece_weights: Option<String>,
    /// An outside USI engine for both sides instead of the built-in one (its command line,
    /// split at spaces; one process a side).
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["black_usi", "white_usi"])]
    pub usi: Option<String>,
    /// Black's outside USI engine (a match: with --white-usi).
    #[arg(long, value_name = "COMMAND", requires = "white_usi")]
    pub black_usi: Option<String>,
    /// White's outside USI engine (with --black-usi).
    #[arg(long, value_name = "COMMAND", requires = "black_usi")]
    pub white_usi: Option<String>,
    /// A USI option for the outside engines, `NAME=VALUE` (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub usi_opt: Vec<String>,
    /// A USI option for Black's engine only (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub black_usi_opt: Vec<String>,
    /// A USI option for White's engine only (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub white_usi_opt: Vec<String>,
    /// Outside engines think this many milliseconds a move (`go btime 0 wtime 0 byoyomi
    /// MS`); without it they get `go depth` (--depth) or `go nodes` (--nodes).
    #[arg(long, value_name = "MS")]
    pub byoyomi: Option<u64>,
    /// An outside engine that has not answered after this many milliseconds (any answer:
    /// the handshake or a move) is killed and loses the game (`timeout`)
    /// [default: 30000, plus --byoyomi].
    #[arg(long, value_name = "MS")]
    pub move_timeout_ms: Option<u64>,
    /// The referee declares for the side to move at the first moment its declaration would
    /// win (`win`, the default) or win or draw (`draw`) under the rule.
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "win", value_name = "WHEN")]
    pub auto_declare: Option<AutoDeclareArg>,
    /// Leave the time columns empty (tables of the same games then compare byte for byte).
    #[arg(long)]
    pub no_times: bool,
    /// Output table (CSV).
    #[arg(long, short, default_value = "replay.csv")]
    pub out: PathBuf,
    /// Also write the summary as JSON here.
    #[arg(long)]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub play: PlayArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AutoDeclareArg {
    /// A declaration that wins.
    Win,
    /// A declaration that wins or draws.
    Draw,
}

#[derive(Debug, clap::Subcommand)]
pub enum ReplayCommand {
    /// Join the tables of `replay --shard K/N` runs into the table (and summary) one run
    /// would have written.
    Merge(MergeArgs),
}

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shards' tables, in any order.
    #[arg(required = true)]
    pub tables: Vec<PathBuf>,
    /// Output table (CSV).
    #[arg(long, short, default_value = "replay.csv")]
    pub out: PathBuf,
    /// Also write the summary as JSON here.
    #[arg(long)]
    pub summary: Option<PathBuf>,
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
    let (gi, sti, ei, ri, si) = (
        col("game_id")?,
        col("status")?,
        col("entering")?,
        col("summary_reason")?,
        col("final_sfen")?,
    );
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.with_context(|| format!("{}", path.display()))?;
        let get = |i: usize| rec.get(i).unwrap_or("");
        // The CSV table has no null: an empty reason is no summary.
        let reason = Some(get(ri)).filter(|r| !r.is_empty());
        if is_cut_mutual(get(sti), get(ei), reason) && !get(si).is_empty() {
            out.push((get(gi).to_string(), get(si).to_string()));
        }
    }
    Ok(out)
}

/// The cut mutual games of a Parquet games table, selected by the report's own expression
/// ([`floodgate_scan::report::tables::cut_mutual_games`]).
#[cfg(feature = "report")]
fn games_from_parquet(path: &Path) -> anyhow::Result<Vec<(String, String)>> {
    use floodgate_scan::report::tables::cut_mutual_games;
    use polars::prelude::{IntoLazy, ParquetReader, SerReader, col};
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let df = ParquetReader::new(file)
        .finish()
        .with_context(|| format!("cannot read {}", path.display()))?;
    let df = cut_mutual_games(df.lazy())
        .select([col("game_id"), col("final_sfen")])
        .collect()
        .with_context(|| format!("{}: selecting the cut mutual games", path.display()))?;
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
    let sfens = text("final_sfen")?;
    let mut out = Vec::new();
    for (id, sfen) in ids.into_iter().zip(sfens) {
        if let Some(s) = sfen {
            out.push((id.unwrap_or_default(), s));
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

/// `K/N` of `--shard`.
fn parse_shard(s: &str) -> anyhow::Result<(usize, usize)> {
    let bad = || anyhow::anyhow!("--shard `{s}`: expected K/N with 1 <= K <= N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The default configuration with `--linear-weights` applied as the USI option of
/// `mode` (`LinearWeights` or `LinearWeights24`), so that a file is checked as the engine
/// checks it.
/// `--king-piece-weights` as the option `KingPieceWeights`.
fn linear_config(
    mode: Mode,
    value: Option<&str>,
    king_piece: Option<&str>,
) -> anyhow::Result<Config> {
    let mut o = floodgate_scan::engine::usi::Options::default();
    if let Some(v) = value {
        let name = match mode {
            Mode::Search => "LinearWeights",
            Mode::Decl24 => "LinearWeights24",
        };
        o.set(name, v)
            .map_err(|e| anyhow::anyhow!("--linear-weights: {e}"))?;
    }
    if let Some(v) = king_piece {
        o.set("KingPieceWeights", v)
            .map_err(|e| anyhow::anyhow!("--king-piece-weights: {e}"))?;
    }
    let c = o.config();
    Ok(Config {
        linear: c.linear,
        linear24: c.linear24,
        king_piece: c.king_piece,
        ..Config::default()
    })
}

/// `NAME=VALUE` pairs.
fn parse_options(opts: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    opts.iter()
        .map(|o| {
            o.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .filter(|(n, _)| !n.is_empty())
                .with_context(|| format!("--usi-opt `{o}`: expected NAME=VALUE"))
        })
        .collect()
}

fn stop_requested() -> bool {
    floodgate_scan::interrupt::received().is_some()
}

pub fn run(a: ReplayArgs) -> anyhow::Result<ExitCode> {
    if let Some(ReplayCommand::Merge(m)) = a.command {
        return merge(m);
    }
    a.play.pool()?;
    let starts = select(&a, load_starts(&a)?)?;
    // The output folder is locked before the games: a second run into it is refused at once.
    let (out_dir, _) = split_file(&a.out)?;
    let dir = OutDir::open(&out_dir)?;
    let pb = progress_bar(starts.len());
    let rows = match outside_commands(&a) {
        None => {
            let rows = replay_builtin(&a, &starts, &|| pb.inc(1))?;
            pb.finish_and_clear();
            rows
        }
        Some(commands) => {
            floodgate_scan::interrupt::install();
            let started = std::time::Instant::now();
            let jobs = a.play.jobs.unwrap_or(1).max(1);
            let result = endings::replay_referee(
                &starts,
                &engine_specs(&a, &commands)?,
                &referee_settings(&a),
                jobs,
                !a.no_times,
                Some(stop_requested),
                &|| pb.inc(1),
            );
            pb.finish_and_clear();
            match result {
                Ok((rows, times)) => {
                    print_times(&times, jobs, started.elapsed().as_secs_f64());
                    rows
                }
                Err(RefereeRunError::Interrupted) => {
                    let i = floodgate_scan::interrupt::received().unwrap_or(
                        floodgate_scan::interrupt::Interrupted(floodgate_scan::interrupt::SIGINT),
                    );
                    drop(dir);
                    eprintln!(
                        "floodgate-scan: {i}: every engine ended; nothing written, {} keeps its earlier table",
                        a.out.display()
                    );
                    return Ok(ExitCode::from(i.exit_code()));
                }
                Err(e) => return Err(e.into()),
            }
        }
    };
    write_outputs(dir, &a.out, a.summary.as_deref(), &rows)?;
    Ok(ExitCode::SUCCESS)
}

/// The start positions of `--games` or `--positions` (a file with bad lines is refused).
fn load_starts(a: &ReplayArgs) -> anyhow::Result<Starts> {
    match (&a.games, &a.positions) {
        (Some(g), None) => {
            let (starts, bad) = load_games(g)?;
            refuse_bad(g, &bad)?;
            Ok(starts)
        }
        (None, Some(p)) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read positions {}", p.display()))?;
            let name = file_name(p);
            let (starts, bad) = endings::read_positions(&text, &name);
            let bad: Vec<String> = bad
                .iter()
                .map(|b| format!("{name}:{}: {}", b.line, b.error))
                .collect();
            refuse_bad(p, &bad)?;
            Ok(starts)
        }
        _ => bail!("replay needs --games or --positions"),
    }
}

/// The positions this run plays (`--limit`, then `--shard`), each with its place in the
/// whole list.
fn select(a: &ReplayArgs, starts: Starts) -> anyhow::Result<Vec<(usize, StartPosition, Position)>> {
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    let take = a.limit.unwrap_or(usize::MAX);
    Ok(starts
        .into_iter()
        .take(take)
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|(k, n)| i % n == k - 1))
        .map(|(i, (s, p))| (i, s, p))
        .collect())
}

/// Black's and White's outside engine commands, if any.
fn outside_commands(a: &ReplayArgs) -> Option<[String; 2]> {
    match (&a.usi, &a.black_usi, &a.white_usi) {
        (Some(u), _, _) => Some([u.clone(), u.clone()]),
        (None, Some(b), Some(w)) => Some([b.clone(), w.clone()]),
        _ => None,
    }
}

/// Replay with the built-in engine on both sides.
fn replay_builtin(
    a: &ReplayArgs,
    starts: &[(usize, StartPosition, Position)],
    on_done: &(dyn Fn() + Sync),
) -> anyhow::Result<Vec<ReplayRow>> {
    let config = Config {
        rule: a.play.rule,
        max_moves_to_draw: 0,
        mode: a.mode,
        weights: load_weights(a.weights.as_deref())?,
        ..linear_config(
            a.mode,
            a.linear_weights.as_deref(),
            a.king_piece_weights.as_deref(),
        )?
    };
    let name = format!("floodgate-scan {}", mode_name(a.mode));
    let labels = RowLabels {
        names: [name.clone(), name],
        times: !a.no_times,
    };
    Ok(endings::replay(
        starts,
        &config,
        &a.play.settings(),
        &labels,
        on_done,
    ))
}

/// How each outside engine is started and thinks (Black's, White's).
fn engine_specs(a: &ReplayArgs, commands: &[String; 2]) -> anyhow::Result<[EngineSpec; 2]> {
    let common = parse_options(&a.usi_opt)?;
    let sides = [
        parse_options(&a.black_usi_opt)?,
        parse_options(&a.white_usi_opt)?,
    ];
    let limit = match (a.byoyomi, a.play.depth) {
        (Some(ms), _) => GoLimit::Byoyomi(ms),
        (None, Some(d)) => GoLimit::Depth(d),
        (None, None) => GoLimit::Nodes(a.play.nodes),
    };
    let timeout =
        Duration::from_millis(a.move_timeout_ms.unwrap_or(30_000 + a.byoyomi.unwrap_or(0)));
    let spec = |i: usize| EngineSpec {
        command: commands[i].clone(),
        options: common.iter().chain(&sides[i]).cloned().collect(),
        limit: limit.clone(),
        timeout,
    };
    Ok([spec(0), spec(1)])
}

/// How the referee judges the outside engines' games.
fn referee_settings(a: &ReplayArgs) -> RefereeSettings {
    RefereeSettings {
        rule: a.play.rule,
        max_plies: a.play.max_plies,
        auto_declare: match a.auto_declare {
            None => AutoDeclare::Off,
            Some(AutoDeclareArg::Win) => AutoDeclare::Win,
            Some(AutoDeclareArg::Draw) => AutoDeclare::Draw,
        },
    }
}

/// Where the time of a refereed run went: the engines' thinking, their start-up, and the
/// rest of the workers' time (the referee's overhead).
fn print_times(times: &RunTimes, jobs: usize, wall: f64) {
    let (think, busy) = (times.think.as_secs_f64(), times.busy.as_secs_f64());
    let startup = times.startup.as_secs_f64();
    let rest = (busy - think - startup).max(0.0);
    let pct = |x: f64| if busy > 0.0 { 100.0 * x / busy } else { 0.0 };
    eprintln!(
        "time: {wall:.1} s wall, {jobs} job{}; of the workers' {busy:.1} s the engines thought {think:.1} s ({:.1}%), \
         started and readied {startup:.1} s ({:.1}%); referee overhead {rest:.1} s ({:.2}%)",
        if jobs == 1 { "" } else { "s" },
        pct(think),
        pct(startup),
        pct(rest)
    );
}

fn mode_name(m: Mode) -> &'static str {
    match m {
        Mode::Search => "search",
        Mode::Decl24 => "decl24",
    }
}

/// Print the summary, and write the table and the summary (all or nothing, the summary
/// last).
fn write_outputs(
    dir: OutDir,
    out: &Path,
    summary: Option<&Path>,
    rows: &[ReplayRow],
) -> anyhow::Result<()> {
    let (out_dir, out_name) = split_file(out)?;
    let write_err = |p: &Path| format!("cannot write {}", p.display());
    let mut w = csv::Writer::from_writer(dir.create(&out_name).with_context(|| write_err(out))?);
    for r in rows {
        w.serialize(r).with_context(|| write_err(out))?;
    }
    w.flush().with_context(|| write_err(out))?;
    drop(w);
    let s = endings::summarize(rows);
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
            "{} positions past move 500 not played: a 24-point rule allows no declaration after move 500",
            s.past_move_500
        );
    }
    let failures = s.illegal + s.timeouts + s.engine_crashes;
    if s.resigns + failures + s.referee_declarations > 0 {
        println!(
            "resigned {}  illegal {}  timeout {}  engine crash {}  declared by the referee {}",
            s.resigns, s.illegal, s.timeouts, s.engine_crashes, s.referee_declarations
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
    if s.ms_per_move_black.is_some() || s.ms_per_move_white.is_some() {
        println!(
            "black {} ({} ms a move)  white {} ({} ms a move)",
            s.engine_black,
            fmt(s.ms_per_move_black),
            s.engine_white,
            fmt(s.ms_per_move_white)
        );
    }
    // A summary in another folder has that folder's own lock and temporaries.
    let mut other = None;
    if let Some(p) = summary {
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
    eprintln!("wrote {} rows to {}", rows.len(), out.display());
    Ok(())
}

/// `replay merge`: the shards' rows in the order of their `index`, which must run from 0
/// without a gap or a repeat.
fn merge(m: MergeArgs) -> anyhow::Result<ExitCode> {
    let mut rows: Vec<ReplayRow> = Vec::new();
    for t in &m.tables {
        let mut rdr =
            csv::Reader::from_path(t).with_context(|| format!("cannot read {}", t.display()))?;
        for (line, r) in rdr.deserialize::<ReplayRow>().enumerate() {
            rows.push(r.with_context(|| format!("{}: row {}", t.display(), line + 1))?);
        }
    }
    rows.sort_by_key(|r| r.index);
    for (i, r) in rows.iter().enumerate() {
        if r.index != i {
            bail!(
                "the shards do not make one run: {} (a shard missing, or one given twice)",
                if r.index > i {
                    format!("no row for position {i}")
                } else {
                    format!("position {} twice", r.index)
                }
            );
        }
    }
    let (out_dir, _) = split_file(&m.out)?;
    let dir = OutDir::open(&out_dir)?;
    write_outputs(dir, &m.out, m.summary.as_deref(), &rows)?;
    Ok(ExitCode::SUCCESS)
}
