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

mod config;
mod error;
pub mod format;
mod model;

pub mod columns;
pub mod exact;
pub mod export;
pub mod html;
pub mod latex;
pub mod logit;
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
use std::path::Path;

use polars::prelude::*;

pub use config::{RatingPool, ReportConfig};
pub use error::ReportError;
pub use model::{Plot, Report, Table};
pub use tables::{TABLES, TableSpec};

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
/// `NAME.tex`, each plot as SVG and PDF, `index.html` (the whole report on one page),
/// `report.json` and `report.md`, into `dir` (created if
/// needed): all or nothing, `report.md` last (see [`crate::outdir`]); on an error the
/// folder's earlier files are left as they were.
pub fn write(report: &Report, dir: &Path) -> Result<(), ReportError> {
    let w = Files::open(report, dir)?;
    for table in &report.tables {
        w.table(table, &report.config)?;
    }
    if report.config.latex {
        w.bytes("tables.tex", latex::document(report).as_bytes())?;
    }
    if let Some(per_game) = &report.per_game {
        w.parquet(
            "strength_per_game.parquet",
            &mut per_game.clone(),
            "strength_per_game",
            "",
        )?;
    }
    for table in &report.extra {
        let mut df = table.data.clone();
        w.csv(&format!("{}.csv", table.name), &mut df)?;
        w.parquet(&format!("{}.parquet", table.name), &mut df, &table.name, "")?;
    }
    for plot in &report.plots {
        w.bytes(plot.file, plot.svg.as_bytes())?;
        w.bytes(&plot.pdf_file(), &plot.pdf)?;
    }
    w.bytes("index.html", html::render(report).as_bytes())?;
    let listed = w.files.borrow().clone();
    w.bytes(
        "report.json",
        export::report_json(report, &listed).as_bytes(),
    )?;
    w.bytes("report.md", markdown::render(report).as_bytes())?;
    let obsolete = obsolete_files(report);
    let obsolete: Vec<&str> = obsolete.iter().map(String::as_str).collect();
    w.out.commit(&obsolete)?;
    Ok(())
}

/// Outputs of an earlier run with other options that this run does not make.
fn obsolete_files(report: &Report) -> Vec<String> {
    let mut obsolete: Vec<String> = Vec::new();
    if !report.config.latex {
        obsolete.extend(report.tables.iter().map(|t| format!("{}.tex", t.spec.name)));
        obsolete.push("tables.tex".to_string());
    }
    if report.per_game.is_none() {
        obsolete.push("strength_per_game.parquet".to_string());
    }
    obsolete
}

/// The report's output folder while it is written: the files made so far (for
/// `report.json`) and the metadata every Parquet file carries.
struct Files<'a> {
    out: crate::outdir::OutDir,
    dir: &'a Path,
    files: std::cell::RefCell<Vec<String>>,
    /// The report's metadata as Parquet key-value pairs.
    kv: Vec<(String, String)>,
}

impl<'a> Files<'a> {
    fn open(report: &Report, dir: &'a Path) -> Result<Files<'a>, ReportError> {
        let kv = export::metadata(report)
            .into_iter()
            .map(|(k, v)| {
                let text = match v {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                (format!("floodgate_scan.{k}"), text)
            })
            .collect();
        Ok(Files {
            out: crate::outdir::OutDir::open(dir)?,
            dir,
            files: Default::default(),
            kv,
        })
    }

    fn create(&self, name: &str) -> Result<crate::outdir::OutFile, ReportError> {
        self.files.borrow_mut().push(name.to_string());
        self.out
            .create(name)
            .map_err(ReportError::io(&self.dir.join(name)))
    }

    fn bytes(&self, name: &str, bytes: &[u8]) -> Result<(), ReportError> {
        use std::io::Write as _;
        self.create(name)?
            .write_all(bytes)
            .map_err(ReportError::io(&self.dir.join(name)))
    }

    fn csv(&self, name: &str, df: &mut DataFrame) -> Result<(), ReportError> {
        CsvWriter::new(self.create(name)?)
            .finish(df)
            .map_err(ReportError::polars(
                self.dir.join(name).display().to_string(),
            ))
    }

    /// A Parquet file: the report's metadata, the table's name and caption, and the Arrow
    /// schema with plain strings.
    fn parquet(
        &self,
        name: &str,
        df: &mut DataFrame,
        table: &str,
        caption: &str,
    ) -> Result<(), ReportError> {
        let mut meta = self.kv.clone();
        meta.push(("floodgate_scan.table".to_string(), table.to_string()));
        if !caption.is_empty() {
            meta.push(("floodgate_scan.caption".to_string(), caption.to_string()));
        }
        meta.push(tidy::arrow_schema_plain_strings(df));
        ParquetWriter::new(self.create(name)?)
            .with_key_value_metadata(Some(KeyValueMetadata::from_static(meta)))
            .finish(df)
            .map_err(ReportError::polars(
                self.dir.join(name).display().to_string(),
            ))?;
        Ok(())
    }

    /// `STEM.csv` and `STEM.parquet`.
    fn csv_and_parquet(
        &self,
        stem: &str,
        df: &mut DataFrame,
        caption: &str,
    ) -> Result<(), ReportError> {
        self.csv(&format!("{stem}.csv"), df)?;
        self.parquet(&format!("{stem}.parquet"), df, stem, caption)
    }

    /// One table's files: its rows, its total row, its long form and its LaTeX.
    fn table(&self, table: &Table, config: &ReportConfig) -> Result<(), ReportError> {
        let caption = table.spec.caption_for(config);
        let name = table.spec.name;
        let (mut data, totals) = tidy::split_totals(&table.data)
            .map_err(ReportError::polars(format!("table {name} (files)")))?;
        self.csv_and_parquet(name, &mut data, &caption)?;
        if let Some(mut totals) = totals {
            self.csv_and_parquet(&format!("{name}_total"), &mut totals, "")?;
        }
        let mut long =
            tidy::long(table).map_err(ReportError::polars(format!("table {name} (long form)")))?;
        if long.height() > 0 {
            self.csv_and_parquet(&format!("{name}_long"), &mut long, "")?;
        }
        if config.latex {
            let text = latex::table_tex(table, &caption)
                .map_err(ReportError::polars(format!("table {name} (LaTeX)")))?;
            self.bytes(&format!("{name}.tex"), text.as_bytes())?;
        }
        Ok(())
    }
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
