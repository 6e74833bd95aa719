//! A computed report: its tables, plots, notes, input summary and provenance, the types
//! the writers (Markdown, LaTeX, the data files, the figures) read.

use polars::prelude::DataFrame;

use super::config::ReportConfig;
use super::provenance;
use super::replay;
use super::tables::TableSpec;

/// One computed table with its definition.
#[derive(Debug, Clone)]
pub struct Table {
    /// The table's definition in [`super::tables::TABLES`]: number, name, title, caption.
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
    /// Every table of [`super::tables::TABLES`], in that order.
    pub tables: Vec<Table>,
    /// The plots (declaration rate by year, the funnel, owned points), in the order
    /// `report.md` shows them.
    pub plots: Vec<Plot>,
    /// Extra lines for `report.md` (e.g. the count of unreadable entries).
    pub notes: Vec<String>,
    /// The input's summary as key-value pairs (games in the table, games selected, years),
    /// written to `report.json` (numbers as numbers) and every Parquet file's metadata.
    pub input: Vec<(String, serde_json::Value)>,
    /// The files read, the scan's inputs, the command line (see [`super::provenance`]).
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
