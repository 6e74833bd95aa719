//! Paper tables and plots from the per-game table.
//!
//! `scan` writes one row per game (`games.parquet`, columns defined once in
//! [`crate::game::row`]). A study of entering-king endings needs a handful of derived
//! tables: yearly counts, endings by year and by the `'Max_Moves` read from each record,
//! strength-controlled declaration rates, the funnel of games the move limit cut off, a
//! counterfactual re-scoring of those games, and statistics of the positions where both
//! kings had entered. This module computes them with polars, each table defined once with
//! its caption ([`tables::TABLES`]), and writes them as CSV, Parquet, Markdown, SVG and PDF.

#![warn(missing_docs)]

pub mod columns;
pub mod exact;
pub mod export;
pub mod latex;
pub mod markdown;
pub mod pdf;
pub mod plots;
pub mod positions;
pub mod provenance;
pub mod replay;
pub mod stats;
pub mod tables;
pub mod tidy;

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

pub use tables::{TABLES, TableSpec};

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    // The cause is written into the message (and so not also a `source`, or error
    // chains would print it twice).
    /// A file could not be read or written.
    #[error("{path}: {cause}")]
    Io {
        /// The file or directory that could not be read or written.
        path: PathBuf,
        /// The operating system's error.
        cause: std::io::Error,
    },
    /// Polars failed while reading, computing or writing.
    #[error("{context}: {cause}")]
    Polars {
        /// What was being done: the path of the file read or written, `table NAME`,
        /// `plots`, or the `--game-name` filter.
        context: String,
        /// Polars' error.
        cause: PolarsError,
    },
    /// The games table lacks a column the report needs, or has it with another type.
    #[error("games table: column `{name}`: {problem}")]
    BadColumn {
        /// The column's name.
        name: String,
        /// What is wrong: `missing`, the type found instead of the one needed, or a name
        /// that is not a column of the per-game table.
        problem: String,
    },
    /// A table read back (a replay table) holds a word its column does not allow.
    #[error("{}:{line}: {cause}", path.display())]
    BadWord {
        /// The file read.
        path: PathBuf,
        /// Its 1-based line.
        line: u64,
        /// The word and the column's vocabulary.
        cause: crate::words::UnknownWord,
    },
    /// A configuration value is out of range.
    #[error("{0}")]
    Config(String),
    /// The output folder cannot be created or locked, or another run is writing it.
    #[error(transparent)]
    OutDir(#[from] crate::outdir::OutDirError),
}

impl ReportError {
    fn polars(context: impl Into<String>) -> impl FnOnce(PolarsError) -> ReportError {
        let context = context.into();
        move |cause| ReportError::Polars { context, cause }
    }
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReportError + '_ {
        move |cause| ReportError::Io {
            path: path.to_path_buf(),
            cause,
        }
    }
}

/// Which ratings define a year's strength threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RatingPool {
    /// Both pre-game ratings of every rated game of the year (a player counted once per
    /// game they played).
    #[default]
    Year,
    /// Both pre-game ratings of the year's mutual entering-king games only (the reference
    /// study's definition, to reproduce it).
    Entering,
    /// Every rated player of the year counted once (by login name), at the mean of their
    /// pre-game ratings in that year's games.
    Players,
}

impl RatingPool {
    /// The name used on the command line and in captions.
    pub fn name(self) -> &'static str {
        match self {
            RatingPool::Year => "year",
            RatingPool::Entering => "entering",
            RatingPool::Players => "players",
        }
    }
}

/// Settings of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportConfig {
    /// Strength threshold percentile (0-100) of the year's rating pool.
    pub percentile: f64,
    /// Which ratings make the pool.
    pub pool: RatingPool,
    /// Strength-controlled rows with fewer games than this are flagged.
    pub min_games: u32,
    /// Only the games whose `game_name` matches this regular expression (every table and
    /// every rating pool); `None`: every game.
    pub game_name: Option<String>,
    /// Also write each table as a booktabs LaTeX file (`NAME.tex`).
    pub latex: bool,
    /// Also write `strength_per_game.parquet`: every game's year threshold, `mutual` and
    /// `strong` flags.
    pub per_game: bool,
}

impl Default for ReportConfig {
    fn default() -> Self {
        ReportConfig {
            percentile: 75.0,
            pool: RatingPool::Year,
            min_games: 10,
            game_name: None,
            latex: false,
            per_game: false,
        }
    }
}

impl ReportConfig {
    fn validate(&self) -> Result<(), ReportError> {
        if !(0.0..=100.0).contains(&self.percentile) || self.percentile.is_nan() {
            return Err(ReportError::Config(format!(
                "percentile must be between 0 and 100, got {}",
                self.percentile
            )));
        }
        self.game_name_regex()?;
        Ok(())
    }

    fn game_name_regex(&self) -> Result<Option<regex::Regex>, ReportError> {
        self.game_name
            .as_deref()
            .map(regex::Regex::new)
            .transpose()
            .map_err(|e| ReportError::Config(format!("--game-name: {e}")))
    }
}

/// The games whose `game_name` matches the configured expression (all games without one).
pub fn select_games(games: &DataFrame, config: &ReportConfig) -> Result<DataFrame, ReportError> {
    let Some(re) = config.game_name_regex()? else {
        return Ok(games.clone());
    };
    let names = games
        .column(columns::GAME_NAME)
        .and_then(|c| c.cast(&DataType::String))
        .map_err(ReportError::polars("game_name"))?;
    let names = names.str().map_err(ReportError::polars("game_name"))?;
    let mask: BooleanChunked = (0..names.len())
        .map(|i| Some(names.get(i).is_some_and(|n| re.is_match(n))))
        .collect();
    games
        .filter(&mask)
        .map_err(ReportError::polars("--game-name filter"))
}

/// One computed table with its definition.
#[derive(Debug, Clone)]
pub struct Table {
    /// The table's definition in [`TABLES`]: number, name, title, caption.
    pub spec: &'static TableSpec,
    /// The computed rows.
    pub data: DataFrame,
}

/// One plot, as an SVG document and as a PDF file drawn the same way.
#[derive(Debug, Clone)]
pub struct Plot {
    /// File name of the SVG (`*.svg`).
    pub file: &'static str,
    /// What it shows (used as alt text and caption).
    pub caption: String,
    /// The whole SVG document.
    pub svg: String,
    /// The whole PDF file (one page of the figure's size in points).
    pub pdf: Vec<u8>,
}

impl Plot {
    /// File name of the PDF: the SVG's stem with `.pdf`.
    pub fn pdf_file(&self) -> String {
        let stem = self.file.strip_suffix(".svg").unwrap_or(self.file);
        format!("{stem}.pdf")
    }
}

/// A computed report: tables in registry order, plots, and free-text notes.
#[derive(Debug, Clone)]
pub struct Report {
    /// The settings the report was computed with.
    pub config: ReportConfig,
    /// Every table of [`TABLES`], in that order.
    pub tables: Vec<Table>,
    /// The plots (declaration rate by year, the funnel, owned points), in the order
    /// `report.md` shows them.
    pub plots: Vec<Plot>,
    /// Extra lines for `report.md` (e.g. the count of unreadable entries).
    pub notes: Vec<String>,
    /// The input's summary as key-value pairs (games in the table, games selected, years),
    /// written to `report.json` (numbers as numbers) and every Parquet file's metadata.
    pub input: Vec<(String, serde_json::Value)>,
    /// The files read, the scan's inputs, the command line (see [`provenance`]).
    pub provenance: provenance::Provenance,
    /// Every game's strength threshold and strong flag, when [`ReportConfig::per_game`].
    pub per_game: Option<DataFrame>,
    /// Tables from replays of the cut games (`report --replay`), after the others.
    pub extra: Vec<replay::ExtraTable>,
}

impl Report {
    /// The table with this registry name.
    pub fn table(&self, name: &str) -> Option<&DataFrame> {
        self.tables
            .iter()
            .find(|t| t.spec.name == name)
            .map(|t| &t.data)
    }
}

/// Read a `games.parquet` written by `scan`, checking the columns the report uses.
pub fn read_games(path: &Path) -> Result<DataFrame, ReportError> {
    let file = File::open(path).map_err(ReportError::io(path))?;
    let df = ParquetReader::new(file)
        .finish()
        .map_err(ReportError::polars(format!("{}", path.display())))?;
    columns::check(&df)?;
    Ok(df)
}

/// Compute every table and plot from a games table.
pub fn build(games: &DataFrame, config: &ReportConfig) -> Result<Report, ReportError> {
    config.validate()?;
    columns::check(games)?;
    let games = &select_games(games, config)?;
    let mut out = Vec::new();
    for spec in TABLES {
        let data = tables::compute(spec, games, config)
            .map_err(ReportError::polars(format!("table {}", spec.name)))?;
        out.push(Table { spec, data });
    }
    let years = games
        .column(columns::YEAR)
        .and_then(|c| c.cast(&DataType::Int64))
        .map_err(ReportError::polars("year"))?;
    let years = years.i64().map_err(ReportError::polars("year"))?;
    let (first, last) = (years.min(), years.max());
    let per_game = if config.per_game {
        Some(tables::per_game_strength(games, config).map_err(ReportError::polars("per-game"))?)
    } else {
        None
    };
    let mut report = Report {
        config: config.clone(),
        tables: out,
        plots: Vec::new(),
        notes: Vec::new(),
        input: vec![
            ("games_selected".to_string(), games.height().into()),
            ("first_year".to_string(), first.into()),
            ("last_year".to_string(), last.into()),
        ],
        provenance: provenance::Provenance::default(),
        per_game,
        extra: Vec::new(),
    };
    report.plots = plots::all(&report, games).map_err(ReportError::polars("plots"))?;
    Ok(report)
}

/// Write every table as `NAME.csv` and `NAME.parquet` (with the report's settings, the
/// tool's version and the input's summary as Parquet key-value metadata), its rates in tidy
/// long form as `NAME_long.csv` and `NAME_long.parquet`, with [`ReportConfig::latex`] as
/// `NAME.tex`, each plot as SVG and PDF, `report.json` and `report.md`, into `dir` (created if
/// needed): all or nothing, `report.md` last (see [`crate::outdir`]); on an error the
/// folder's earlier files are left as they were.
pub fn write(report: &Report, dir: &Path) -> Result<(), ReportError> {
    use std::io::Write as _;
    let out = crate::outdir::OutDir::open(dir)?;
    let files = std::cell::RefCell::new(Vec::<String>::new());
    let create = |name: &str| {
        let path = dir.join(name);
        files.borrow_mut().push(name.to_string());
        out.create(name)
            .map_err(|cause| ReportError::Io { path, cause })
    };
    let kv: Vec<(String, String)> = export::metadata(report)
        .into_iter()
        .map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            (format!("floodgate_scan.{k}"), text)
        })
        .collect();
    // Every Parquet file: the report's metadata, the table's name and caption, and the
    // Arrow schema with plain strings.
    let parquet = |name: &str, df: &mut DataFrame, table: &str, caption: &str| {
        let mut meta = kv.clone();
        meta.push(("floodgate_scan.table".to_string(), table.to_string()));
        if !caption.is_empty() {
            meta.push(("floodgate_scan.caption".to_string(), caption.to_string()));
        }
        meta.push(tidy::arrow_schema_plain_strings(df));
        ParquetWriter::new(create(name)?)
            .with_key_value_metadata(Some(KeyValueMetadata::from_static(meta)))
            .finish(df)
            .map_err(ReportError::polars(dir.join(name).display().to_string()))?;
        Ok::<(), ReportError>(())
    };
    let write_table = |stem: &str, df: &mut DataFrame, caption: &str| {
        let csv = format!("{stem}.csv");
        let f = create(&csv)?;
        CsvWriter::new(f)
            .finish(df)
            .map_err(ReportError::polars(dir.join(&csv).display().to_string()))?;
        parquet(&format!("{stem}.parquet"), df, stem, caption)
    };
    for table in &report.tables {
        let caption = table.spec.caption_for(&report.config);
        let name = table.spec.name;
        let (mut data, totals) = tidy::split_totals(&table.data)
            .map_err(ReportError::polars(format!("table {name} (files)")))?;
        write_table(name, &mut data, &caption)?;
        if let Some(mut totals) = totals {
            write_table(&format!("{name}_total"), &mut totals, "")?;
        }
        let mut long =
            tidy::long(table).map_err(ReportError::polars(format!("table {name} (long form)")))?;
        if long.height() > 0 {
            write_table(&format!("{name}_long"), &mut long, "")?;
        }
        if report.config.latex {
            let tex = format!("{name}.tex");
            let text = latex::table_tex(table, &caption)
                .map_err(ReportError::polars(format!("table {name} (LaTeX)")))?;
            create(&tex)?
                .write_all(text.as_bytes())
                .map_err(ReportError::io(&dir.join(&tex)))?;
        }
    }
    if report.config.latex {
        create("tables.tex")?
            .write_all(latex::document(report).as_bytes())
            .map_err(ReportError::io(&dir.join("tables.tex")))?;
    }
    if let Some(per_game) = &report.per_game {
        parquet(
            "strength_per_game.parquet",
            &mut per_game.clone(),
            "strength_per_game",
            "",
        )?;
    }
    for table in &report.extra {
        let mut df = table.data.clone();
        let name = format!("{}.csv", table.name);
        CsvWriter::new(create(&name)?)
            .finish(&mut df)
            .map_err(ReportError::polars(dir.join(&name).display().to_string()))?;
        parquet(&format!("{}.parquet", table.name), &mut df, &table.name, "")?;
    }
    for plot in &report.plots {
        create(plot.file)?
            .write_all(plot.svg.as_bytes())
            .map_err(ReportError::io(&dir.join(plot.file)))?;
        let pdf = plot.pdf_file();
        create(&pdf)?
            .write_all(&plot.pdf)
            .map_err(ReportError::io(&dir.join(&pdf)))?;
    }
    let listed = files.borrow().clone();
    create("report.json")?
        .write_all(export::report_json(report, &listed).as_bytes())
        .map_err(ReportError::io(&dir.join("report.json")))?;
    create("report.md")?
        .write_all(markdown::render(report).as_bytes())
        .map_err(ReportError::io(&dir.join("report.md")))?;
    // Outputs of an earlier run with other options that this run does not make.
    let mut obsolete: Vec<String> = Vec::new();
    if !report.config.latex {
        obsolete.extend(report.tables.iter().map(|t| format!("{}.tex", t.spec.name)));
        obsolete.push("tables.tex".to_string());
    }
    if report.per_game.is_none() {
        obsolete.push("strength_per_game.parquet".to_string());
    }
    let obsolete: Vec<&str> = obsolete.iter().map(String::as_str).collect();
    out.commit(&obsolete)?;
    Ok(())
}

/// Count the data lines of the `errors.csv` beside a `games.parquet` (entries that could
/// not be read as a game), if that file exists.
pub fn count_unreadable_entries(games_path: &Path) -> Result<Option<u64>, ReportError> {
    let Some(dir) = games_path.parent() else {
        return Ok(None);
    };
    let path = dir.join("errors.csv");
    if !path.exists() {
        return Ok(None);
    }
    let mut reader = csv::Reader::from_path(&path).map_err(|e| ReportError::Io {
        path: path.clone(),
        cause: std::io::Error::other(e),
    })?;
    let mut n = 0;
    for rec in reader.records() {
        rec.map_err(|e| ReportError::Io {
            path: path.clone(),
            cause: std::io::Error::other(e),
        })?;
        n += 1;
    }
    Ok(Some(n))
}
