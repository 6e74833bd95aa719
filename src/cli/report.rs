//! `floodgate-scan report`: the paper tables and plots from a scan's `games.parquet`.
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where `scan` writes by default, and so where `report` looks by default.
#[cfg(feature = "report")]
const DEFAULT_SCAN_DIR: &str = "floodgate-scan-out";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PoolArg {
    /// Both ratings of every rated game of the year (a player counted once per game).
    Year,
    /// Both ratings of the year's mutual entering-king games only (the reference study).
    Entering,
    /// Every rated player of the year once, at the mean of their pre-game ratings that year.
    Players,
}

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The games.parquet written by `scan` [default: floodgate-scan-out/games.parquet].
    pub games: Option<PathBuf>,
    /// Output folder [default: a `report` folder beside the games table].
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    /// Strength threshold: this percentile (0-100) of the year's rating pool.
    #[arg(long, default_value_t = 75.0)]
    pub percentile: f64,
    /// Which ratings make a year's pool for the strength threshold.
    #[arg(long, value_enum, default_value_t = PoolArg::Year)]
    pub pool: PoolArg,
    /// Flag strength-controlled rows with fewer games than this.
    #[arg(long, default_value_t = 10)]
    pub min_games: u32,
    /// Only games whose game name (the time-control part of the id, e.g.
    /// `floodgate-300-10F`) matches this regular expression, in every table and every
    /// rating pool [default: every game].
    #[arg(long, value_name = "REGEX")]
    pub game_name: Option<String>,
    /// Also write each table as a booktabs LaTeX file (NAME.tex).
    #[arg(long)]
    pub latex: bool,
    /// Also write strength_per_game.parquet: each game's threshold, mutual and strong flags.
    #[arg(long)]
    pub per_game: bool,
    /// A table written by `replay --games` (repeatable, one per engine): adds how each
    /// replay ended the cut mutual games, and for two replays how often they agree.
    #[arg(long, value_name = "REPLAY_CSV")]
    pub replay: Vec<PathBuf>,
}

/// The games table and output folder `report` uses for these arguments.
#[cfg(feature = "report")]
fn paths(a: &ReportArgs) -> (PathBuf, PathBuf) {
    let games = a
        .games
        .clone()
        .unwrap_or_else(|| Path::new(DEFAULT_SCAN_DIR).join("games.parquet"));
    let out = a.out.clone().unwrap_or_else(|| {
        games
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join("report")
    });
    (games, out)
}

#[cfg(feature = "report")]
mod imp {
    use super::*;
    use anyhow::Context as _;
    use floodgate_scan::report::{self, RatingPool, ReportConfig};

    pub fn run(a: ReportArgs) -> anyhow::Result<ExitCode> {
        let (games, out) = paths(&a);
        let config = ReportConfig {
            percentile: a.percentile,
            pool: match a.pool {
                PoolArg::Year => RatingPool::Year,
                PoolArg::Entering => RatingPool::Entering,
                PoolArg::Players => RatingPool::Players,
            },
            min_games: a.min_games,
            game_name: a.game_name.clone(),
            latex: a.latex,
            per_game: a.per_game,
        };
        make(&games, &out, &config, &a.replay)?;
        Ok(ExitCode::SUCCESS)
    }

    pub fn make(
        games: &Path,
        out: &Path,
        config: &ReportConfig,
        replays: &[PathBuf],
    ) -> anyhow::Result<()> {
        if !games.exists() {
            anyhow::bail!(
                "{}: no such games table (run `floodgate-scan scan` first, or name a games.parquet)",
                games.display()
            );
        }
        let df = report::read_games(games)?;
        let mut rep = report::build(&df, config)?;
        let used = report::select_games(&df, config)?.height();
        rep.input
            .insert(0, ("games_in_table".to_string(), df.height().into()));
        if let Some(name) = games.file_name() {
            rep.input.insert(
                0,
                (
                    "input".to_string(),
                    name.to_string_lossy().to_string().into(),
                ),
            );
        }
        let mut command_line = vec!["floodgate-scan".to_string()];
        command_line.extend(std::env::args().skip(1));
        rep.provenance.command_line = command_line;
        rep.provenance
            .files
            .push(report::provenance::file_record("games", games)?);
        let beside = |name: &str| games.parent().map(|d| d.join(name)).filter(|p| p.exists());
        if let Some(summary) = beside("summary.json") {
            rep.provenance
                .files
                .push(report::provenance::file_record("summary", &summary)?);
            rep.provenance.scan_inputs = report::provenance::scan_inputs(&summary)?;
        }
        if let Some(errors) = beside("errors.csv") {
            rep.provenance
                .files
                .push(report::provenance::file_record("errors", &errors)?);
        }
        for r in replays {
            rep.provenance
                .files
                .push(report::provenance::file_record("replay", r)?);
        }
        if let Some(n) = report::count_unreadable_entries(games)? {
            rep.notes.push(format!(
                "Unreadable entries (listed in `errors.csv` beside the games table, no year known): {n}."
            ));
            rep.input.push(("unreadable_entries".to_string(), n.into()));
        }
        if !replays.is_empty() {
            let rs = report::replay::read_replays(replays)?;
            let selected = report::select_games(&df, config)?;
            let (extra, notes) = report::replay::tables(&selected, &rs)?;
            rep.extra = extra;
            rep.notes.extend(notes);
        }
        report::write(&rep, out).context("cannot write the report")?;
        let selected = if used == df.height() {
            String::new()
        } else {
            format!(" ({used} with a matching game name)")
        };
        println!(
            "report: {} games{selected} -> {} tables, {} plots, {}",
            df.height(),
            rep.tables.len(),
            rep.plots.len(),
            out.join("report.md").display()
        );
        Ok(())
    }
}

#[cfg(not(feature = "report"))]
mod imp {
    use super::*;

    pub fn run(_a: ReportArgs) -> anyhow::Result<ExitCode> {
        anyhow::bail!(
            "report: this build has no `report` feature (polars); rebuild with default features"
        )
    }
}

/// Make the report of a scan's output folder (`OUTDIR/games.parquet` -> `OUTDIR/report`)
/// with the default settings; `scan --report` calls this.
pub fn run_after_scan(outdir: &Path) -> anyhow::Result<()> {
    #[cfg(feature = "report")]
    {
        imp::make(
            &outdir.join("games.parquet"),
            &outdir.join("report"),
            &floodgate_scan::report::ReportConfig::default(),
            &[],
        )
    }
    #[cfg(not(feature = "report"))]
    {
        let _ = outdir;
        anyhow::bail!("--report: this build has no `report` feature (polars)")
    }
}

pub fn run(a: ReportArgs) -> anyhow::Result<ExitCode> {
    imp::run(a)
}
