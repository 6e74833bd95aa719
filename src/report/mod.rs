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
