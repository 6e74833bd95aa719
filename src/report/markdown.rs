//! `report.md`: every table in Markdown under its caption, and the plots embedded.
//!
//! Cell formatting follows the column name: `*_share`, `*_rate` and `*_pass` columns are
//! percentages with one decimal, other floats have one decimal, booleans are `yes` or
//! empty, and a missing value is `–`.

use std::fmt::Write as _;

use polars::prelude::*;

use super::Report;

/// Render the whole report.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let c = &report.config;
    out.push_str("# Entering-king report\n\n");
    let _ = writeln!(
        out,
        "Settings: strength threshold = {}th percentile of the `{}` rating pool; rows with fewer than {} controlled games flagged.\n",
        c.percentile,
        c.pool.name(),
        c.min_games
    );
    out.push_str(
        "Definitions used throughout: a *declaration win* is a game whose server `'summary` reason is `kachi`; \
a *move-limit* game has reason `max_moves` or `max_moves_draw`; the *entering* class (`mutual`, one-sided, none) \
is that of the final position; *Max_Moves* is the `'Max_Moves` value read from each record (`unknown` when the \
record has no such line). Group keys: `unknown` = missing value, `all` = total row.\n\n",
    );
    for note in &report.notes {
        let _ = writeln!(out, "{note}\n");
    }
    for table in &report.tables {
        let s = table.spec;
        let _ = writeln!(out, "## Table {}. {}\n", s.number, s.title);
        let _ = writeln!(out, "{}\n", s.caption_for(c));
        let _ = writeln!(out, "Files: `{0}.csv`, `{0}.parquet`.\n", s.name);
        out.push_str(&table_markdown(&table.data));
        out.push('\n');
    }
    if !report.plots.is_empty() {
        out.push_str("## Plots\n\n");
        for p in &report.plots {
            let _ = writeln!(out, "![{}]({})\n\n{}\n", p.caption, p.file, p.caption);
        }
    }
    out
}

/// One DataFrame as a Markdown table.
pub fn table_markdown(df: &DataFrame) -> String {
    let mut out = String::new();
    let cols = df.columns();
    out.push('|');
    for c in cols {
        let _ = write!(out, " {} |", c.name());
    }
    out.push_str("\n|");
    for c in cols {
        let numeric = c.dtype().is_primitive_numeric();
        out.push_str(if numeric { "---:|" } else { "---|" });
    }
    out.push('\n');
    for i in 0..df.height() {
        out.push('|');
        for c in cols {
            let v = c.get(i).unwrap_or(AnyValue::Null);
            let _ = write!(out, " {} |", cell(c.name(), &v));
        }
        out.push('\n');
    }
    out
}

fn is_percentage(name: &str) -> bool {
    name.ends_with("_share") || name.ends_with("_rate") || name.ends_with("_pass")
}

/// Format one cell for Markdown.
pub fn cell(name: &str, v: &AnyValue<'_>) -> String {
    match v {
        AnyValue::Null => "–".to_string(),
        AnyValue::Boolean(b) => if *b { "yes" } else { "" }.to_string(),
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        AnyValue::Float64(x) if is_percentage(name) => format!("{:.1}%", x * 100.0),
        AnyValue::Float64(x) => format!("{x:.1}"),
        AnyValue::Float32(x) => format!("{x:.1}"),
        other => other.to_string(),
    }
}
