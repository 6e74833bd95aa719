//! `report.md`: every table in Markdown under its caption, and the plots embedded.
//!
//! Cell formatting follows the column name: `*_share`, `*_rate`, `*_pass` and `*_diff`
//! columns and their interval bounds (`*_lo`, `*_hi`) are percentages with one decimal,
//! p-values (`*_p`) have three significant digits, other floats have one decimal, booleans
//! are `yes` or empty, and a missing value is `–`.

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
    let _ = writeln!(out, "{}\n", super::tables::population(c));
    out.push_str(
        "Definitions used throughout: a *declaration win* is a game whose server `'summary` reason is `kachi`; \
a *move-limit* game has reason `max_moves` or `max_moves_draw`; the *entering* class (`mutual`, one-sided, none) \
is that of the final position; *Max_Moves* is the `'Max_Moves` value read from each record (`unknown` when the \
record has no such line). Group keys: `unknown` = missing value, `all` = total row.\n\n",
    );
    if let Some(h) = headline(report) {
        out.push_str(&h);
    }
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
    for t in &report.extra {
        let _ = writeln!(out, "## {}\n\n{}\n", t.title, t.caption);
        let _ = writeln!(out, "Files: `{0}.csv`, `{0}.parquet`.\n", t.name);
        out.push_str(&table_markdown(&t.data));
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
    let name = name
        .strip_suffix("_lo")
        .or_else(|| name.strip_suffix("_hi"))
        .unwrap_or(name);
    name.ends_with("_share")
        || name.ends_with("_rate")
        || name.ends_with("_pass")
        || name.ends_with("_diff")
}

/// A p-value: three significant digits, in scientific notation below 0.001.
pub fn p_value(p: f64) -> String {
    if p == 0.0 {
        "0".to_string()
    } else if p < 0.001 {
        format!("{p:.2e}")
    } else {
        // The decimals of the value rounded to three significant digits (0.99996 -> 1.00).
        let rounded: f64 = format!("{p:.2e}").parse().unwrap_or(p);
        let decimals = (2 - rounded.log10().floor() as i32).max(0) as usize;
        format!("{rounded:.decimals$}")
    }
}

/// A difference of two rates in percentage points, signed.
fn points(df: &DataFrame, c: &str, i: usize) -> String {
    match df.column(c).ok().and_then(|c| c.f64().ok()?.get(i)) {
        Some(x) => format!("{:+.1}", x * 100.0),
        None => "–".to_string(),
    }
}

/// The headline comparison of table 3e in words (its `controlled` rows), or `None`
/// without that table.
pub fn headline(report: &Report) -> Option<String> {
    let df = report.table("era_comparison")?;
    let s = |c: &str, i: usize| {
        df.column(c)
            .ok()
            .and_then(|c| c.get(i).ok())
            .map(|v| cell(c, &v))
            .unwrap_or_else(|| "–".to_string())
    };
    let mut out = String::from("## Headline: the 256 era against the 512 era\n\n");
    let measures = df.column("measure").ok()?.str().ok()?.clone();
    let pops = df.column("population").ok()?.str().ok()?.clone();
    for i in 0..df.height() {
        if pops.get(i) != Some("controlled") {
            continue;
        }
        let what = match measures.get(i) {
            Some("decl_win_rate") => "Declaration-win rate",
            Some("move_limit_rate") => "Move-limit rate",
            _ => continue,
        };
        let _ = writeln!(
            out,
            "- {what} of strength-controlled mutual entering-king games: {} {}/{} = {} (95% CI {}–{}) against {} {}/{} = {} ({}–{}); \
difference {} percentage points (95% CI {} to {}), Fisher's exact test p = {}.",
            s("a_cell", i),
            s("a_count", i),
            s("a_games", i),
            s("a_rate", i),
            s("a_rate_lo", i),
            s("a_rate_hi", i),
            s("b_cell", i),
            s("b_count", i),
            s("b_games", i),
            s("b_rate", i),
            s("b_rate_lo", i),
            s("b_rate_hi", i),
            points(df, "rate_diff", i),
            points(df, "rate_diff_lo", i),
            points(df, "rate_diff_hi", i),
            s("fisher_p", i),
        );
    }
    out.push_str("\nSee table 3e for the raw (uncontrolled) rows and the definitions.\n\n");
    Some(out)
}

/// Format one cell for Markdown.
pub fn cell(name: &str, v: &AnyValue<'_>) -> String {
    match v {
        AnyValue::Null => "–".to_string(),
        AnyValue::Boolean(b) => if *b { "yes" } else { "" }.to_string(),
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        AnyValue::Float64(x) if is_percentage(name) => format!("{:.1}%", x * 100.0),
        AnyValue::Float64(x) if name.ends_with("_p") => p_value(*x),
        AnyValue::Float64(x) => format!("{x:.1}"),
        AnyValue::Float32(x) => format!("{x:.1}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_have_three_significant_digits() {
        assert_eq!(p_value(240.0 / 77_520.0), "0.00310");
        assert_eq!(p_value(34.0 / 70.0), "0.486");
        assert_eq!(p_value(1.0), "1.00");
        assert_eq!(p_value(0.999_999_999_999_999_7), "1.00");
        assert_eq!(p_value(0.001), "0.00100");
        assert_eq!(p_value(2.0 / 184_756.0), "1.08e-5");
        assert_eq!(p_value(0.0), "0");
    }

    #[test]
    fn interval_bounds_and_differences_are_percentages() {
        assert_eq!(
            cell("decl_win_rate_lo", &AnyValue::Float64(0.1078)),
            "10.8%"
        );
        assert_eq!(cell("rate_diff_hi", &AnyValue::Float64(-0.289)), "-28.9%");
        assert_eq!(cell("fisher_p", &AnyValue::Float64(0.5)), "0.500");
        assert_eq!(cell("threshold", &AnyValue::Float64(2550.0)), "2550.0");
    }
}
