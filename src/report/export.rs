//! Forms of the report's tables for a paper and for other tools: each table as a booktabs
//! LaTeX file (`report --latex`), and the report's settings, the tool's version and the
//! input's summary as `report.json` and as key-value metadata of every Parquet file (the
//! data files themselves are shaped in [`super::tidy`]).

use std::fmt::Write as _;

use polars::prelude::*;

use super::markdown::{p_value_log10, percentage};
use super::{Report, Table};

/// The count and denominator of a rate column with a Wilson interval (`NAME_lo`,
/// `NAME_hi`): every `(count, denominator, rate)` given to
/// [`super::stats::with_intervals`] and the cells of table 3e. `None` for a column that is
/// not such a rate.
pub fn rate_parts(rate: &str) -> Option<(&'static str, &'static str)> {
    Some(match rate {
        "not_replayed_share" => ("not_replayed", "games"),
        "board_match_rate" => ("board_matched", "board_compared"),
        "entering_board_match_rate" => ("entering_board_matched", "entering_board_compared"),
        "valid_decl_share" => ("valid_decl", "games"),
        "invalid_decl_share" => ("invalid_decl", "games"),
        "move_limit_share" => ("move_limit", "games"),
        "decl_win_rate" => ("decl_wins", "games"),
        "move_limit_rate" => ("move_limit", "games"),
        "low_side_share" => ("low_side", "move_limit"),
        "raw_decl_win_rate" => ("raw_decl_wins", "raw_games"),
        "raw_move_limit_rate" => ("raw_move_limit", "raw_games"),
        "raw_low_side_share" => ("raw_low_side", "raw_move_limit"),
        "pool_at_or_above_share" => ("pool_at_or_above", "pool_ratings"),
        "a_rate" => ("a_count", "a_games"),
        "b_rate" => ("b_count", "b_games"),
        "owned_over27_share" => ("owned_over27", "games"),
        "owned31_share" => ("owned31", "games"),
        "decl31_share" => ("decl31", "games"),
        "decl31_pass" => ("decl31", "owned31"),
        "decl31_zone10_share" => ("decl31_zone10", "games"),
        "decl31_zone10_pass" => ("decl31_zone10", "decl31"),
        "declarable_board_share" => ("declarable_board", "games"),
        "declarable_board_pass" => ("declarable_board", "decl31_zone10"),
        "declarable_share" => ("declarable", "games"),
        "declarable_pass" => ("declarable", "declarable_board"),
        "zone10_share" => ("zone10", "games"),
        "decisive_share" => ("decisive", "games"),
        _ => return None,
    })
}

/// Escape text for LaTeX (outside math mode).
pub fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '–' => out.push_str("--"),
            '`' => {}
            '≥' => out.push_str("$\\geq$"),
            '×' => out.push_str("$\\times$"),
            _ => out.push(ch),
        }
    }
    out
}

/// One shown column of the LaTeX table: its header and how to print a row.
enum LatexCol {
    /// A plain cell (text, count, float, boolean), formatted as in `report.md`.
    Plain(String),
    /// A rate with its interval in one cell, in percent: `12.3 [4.5, 30.1]`.
    Rate(String),
    /// A difference with its interval, in percentage points: `+5.0 [-2.1, +12.0]`.
    Diff(String),
    /// A p-value printed from its base-10 logarithm.
    P(String),
}

fn latex_columns(df: &DataFrame) -> Vec<LatexCol> {
    let has = |n: &str| df.column(n).is_ok();
    let mut cols = Vec::new();
    for c in df.columns() {
        let name = c.name().as_str();
        let base = name
            .strip_suffix("_lo")
            .or_else(|| name.strip_suffix("_hi"));
        if base.is_some_and(|b| has(&format!("{b}_lo")) && has(&format!("{b}_hi")) && has(b)) {
            continue;
        }
        if name.strip_suffix("_log10").is_some_and(has) {
            continue;
        }
        let interval = has(&format!("{name}_lo")) && has(&format!("{name}_hi"));
        cols.push(if interval && name.ends_with("_diff") {
            LatexCol::Diff(name.to_string())
        } else if interval {
            LatexCol::Rate(name.to_string())
        } else if name.ends_with("_p") && has(&format!("{name}_log10")) {
            LatexCol::P(name.to_string())
        } else {
            LatexCol::Plain(name.to_string())
        });
    }
    cols
}

/// The table as a booktabs LaTeX `table` environment: a rate and its 95% interval in one
/// cell (percent), differences in percentage points, p-values formatted, the `all` total
/// row under its own rule.
pub fn latex(table: &Table, caption: &str) -> PolarsResult<String> {
    let df = &table.data;
    let cols = latex_columns(df);
    let f64_at = |c: &str, i: usize| -> Option<f64> {
        df.column(c)
            .ok()?
            .cast(&DataType::Float64)
            .ok()?
            .f64()
            .ok()?
            .get(i)
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "% Table {}: {} (booktabs; written by floodgate-scan report --latex)",
        table.spec.number,
        latex_escape(table.spec.title)
    );
    s.push_str("\\begin{table}\n\\centering\n\\small\n");
    let _ = writeln!(
        s,
        "\\caption{{Table {}. {}. {}}}",
        table.spec.number,
        latex_escape(table.spec.title),
        latex_escape(caption)
    );
    let _ = writeln!(s, "\\label{{tab:{}}}", table.spec.name.replace('_', "-"));
    let align: String = cols
        .iter()
        .map(|c| match c {
            LatexCol::Plain(n) => match df.column(n).map(|c| c.dtype().clone()) {
                Ok(DataType::String) | Ok(DataType::Boolean) => 'l',
                _ => 'r',
            },
            _ => 'r',
        })
        .collect();
    let _ = writeln!(s, "\\begin{{tabular}}{{{align}}}\n\\toprule");
    let headers: Vec<String> = cols
        .iter()
        .map(|c| match c {
            LatexCol::Plain(n) => latex_escape(n),
            LatexCol::Rate(n) => format!("{} (\\%, 95\\% CI)", latex_escape(n)),
            LatexCol::Diff(n) => format!("{} (pp, 95\\% CI)", latex_escape(n)),
            LatexCol::P(n) => latex_escape(n),
        })
        .collect();
    let _ = writeln!(s, "{} \\\\\n\\midrule", headers.join(" & "));
    let first_key = df.columns().first().and_then(|c| c.str().ok().cloned());
    for i in 0..df.height() {
        if first_key.as_ref().and_then(|k| k.get(i)) == Some("all") && i > 0 {
            s.push_str("\\midrule\n");
        }
        let cells: Vec<String> = cols
            .iter()
            .map(|c| match c {
                LatexCol::Plain(n) => {
                    let v = df
                        .column(n)
                        .ok()
                        .and_then(|c| c.get(i).ok())
                        .unwrap_or(AnyValue::Null);
                    let text = super::markdown::cell(n, &v);
                    latex_escape(&text)
                }
                LatexCol::Rate(n) => match (
                    f64_at(n, i),
                    f64_at(&format!("{n}_lo"), i),
                    f64_at(&format!("{n}_hi"), i),
                ) {
                    (Some(r), Some(l), Some(h)) => {
                        let p = |x: f64| percentage(x, 1).trim_end_matches('%').to_string();
                        latex_escape(&format!("{} [{}, {}]", p(r), p(l), p(h)))
                    }
                    (Some(r), _, _) => latex_escape(percentage(r, 1).trim_end_matches('%')),
                    _ => "--".to_string(),
                },
                LatexCol::Diff(n) => match (
                    f64_at(n, i),
                    f64_at(&format!("{n}_lo"), i),
                    f64_at(&format!("{n}_hi"), i),
                ) {
                    (Some(d), Some(l), Some(h)) => format!(
                        "${:+.1}$ [${:+.1}$, ${:+.1}$]",
                        d * 100.0,
                        l * 100.0,
                        h * 100.0
                    ),
                    _ => "--".to_string(),
                },
                LatexCol::P(n) => match f64_at(&format!("{n}_log10"), i) {
                    Some(l) => {
                        let text = p_value_log10(l);
                        match text.split_once('e') {
                            Some((m, e)) => {
                                format!("${m} \\times 10^{{{}}}$", e.trim_start_matches('+'))
                            }
                            None => text,
                        }
                    }
                    None => "--".to_string(),
                },
            })
            .collect();
        let _ = writeln!(s, "{} \\\\", cells.join(" & "));
    }
    s.push_str("\\bottomrule\n\\end{tabular}\n\\end{table}\n");
    Ok(s)
}

/// The settings, the tool's version and the input's summary as key-value pairs (also in
/// every Parquet file's metadata, under these keys with a `floodgate_scan.` prefix).
pub fn metadata(report: &Report) -> Vec<(String, String)> {
    let c = &report.config;
    let mut kv = vec![
        ("tool".to_string(), "floodgate-scan".to_string()),
        ("version".to_string(), env!("CARGO_PKG_VERSION").to_string()),
        ("percentile".to_string(), c.percentile.to_string()),
        ("pool".to_string(), c.pool.name().to_string()),
        ("min_games".to_string(), c.min_games.to_string()),
        (
            "game_name".to_string(),
            c.game_name.clone().unwrap_or_default(),
        ),
    ];
    kv.extend(report.input.iter().cloned());
    kv
}

/// `report.json`: the metadata pairs, and the tables and plots written.
pub fn report_json(report: &Report, files: &[String]) -> String {
    let mut obj = serde_json::Map::new();
    for (k, v) in metadata(report) {
        obj.insert(k, v.into());
    }
    let tables: Vec<serde_json::Value> = report
        .tables
        .iter()
        .map(|t| {
            serde_json::json!({
                "number": t.spec.number,
                "name": t.spec.name,
                "title": t.spec.title,
                "rows": t.data.height(),
                "caption": t.spec.caption_for(&report.config),
            })
        })
        .collect();
    obj.insert("tables".into(), tables.into());
    obj.insert(
        "files".into(),
        files
            .iter()
            .map(|f| f.as_str().into())
            .collect::<Vec<serde_json::Value>>()
            .into(),
    );
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(obj))
        .unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    text
}
