//! `report.md`: every table in Markdown under its caption, and the plots embedded.
//!
//! Cell formatting follows the column name: `*_share`, `*_rate` and `*_pass` columns and
//! their interval bounds (`*_lo`, `*_hi`) are percentages with one decimal (a rate above 0
//! or below 100% never prints as 0.0% or 100.0%), `*_diff` columns and their bounds are
//! signed differences in percentage points (`pp`), match rates (`*match_rate`) have two
//! decimals, p-values (`*_p`) have three significant digits (printed from `*_p_log10` where
//! there is one), other floats have one decimal, booleans are `yes` or empty, and a missing
//! value is `–`.

use std::fmt::Write as _;

use polars::prelude::*;

use super::format::{cell, p_value_log10, percentage};
use super::model::Report;

/// Render the whole report.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let c = &report.config;
    out.push_str("# Entering-king report\n\n");
    let _ = writeln!(
        out,
        "Settings: strength threshold = {} percentile of the `{}` rating pool; rows with fewer than {} controlled games flagged.\n",
        super::tables::ordinal(c.percentile),
        c.pool.name(),
        c.min_games
    );
    let _ = writeln!(out, "{}\n", super::tables::population(c));
    let _ = writeln!(out, "{}\n", report.provenance.paragraph());
    out.push_str(
        "Definitions used throughout: a *declaration win* is a game whose server `'summary` reason is `kachi`; \
a *move-limit* game has reason `max_moves` or `max_moves_draw`; the *entering* class (`mutual`, one-sided, none) \
is that of the final position of a game replayed to its end (a game that was not is counted apart, table 1); \
*Max_Moves* is the `'Max_Moves` value read from each record (`unknown` when the record has no such line, `0` for \
`'Max_Moves:0`, no limit). Differences of rates are in percentage points (`pp`). Group keys: `unknown` = missing \
value, `all` = total row.\n\n",
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
        let long = if super::tidy::long(table).is_ok_and(|t| t.height() > 0) {
            format!(", long form `{}_long.csv`", s.name)
        } else {
            String::new()
        };
        let total = if super::tidy::split_totals(&table.data).is_ok_and(|(_, t)| t.is_some()) {
            format!(", total row `{}_total.csv`", s.name)
        } else {
            String::new()
        };
        let tex = if c.latex {
            format!(", `{}.tex`", s.name)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "Files: `{0}.csv`, `{0}.parquet`{total}{long}{tex}.\n",
            s.name
        );
        out.push_str(&columns_markdown(
            &table.data,
            &super::format::shown_columns(table),
        ));
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
            let _ = writeln!(
                out,
                "![{}]({})\n\n{}\n\nFiles: `{}`, `{}`.\n",
                p.caption,
                p.file,
                p.caption,
                p.file,
                p.pdf_file()
            );
        }
    }
    out
}

/// One DataFrame as a Markdown table, every column shown (see [`columns_markdown`]).
pub fn table_markdown(df: &DataFrame) -> String {
    columns_markdown(df, &super::format::own_columns(df))
}

/// The columns `cols` of a DataFrame as a Markdown table: a rate with its 95% interval
/// in one cell (`30.0% [10.8, 60.3]`), a p-value printed from its `NAME_log10` column
/// where there is one (so that a p-value below the smallest `f64` is printed, not 0).
pub fn columns_markdown(df: &DataFrame, cols: &[String]) -> String {
    let mut out = String::new();
    let cols: Vec<&Column> = cols.iter().filter_map(|c| df.column(c).ok()).collect();
    out.push('|');
    for c in &cols {
        let _ = write!(out, " {} |", c.name());
    }
    out.push_str("\n|");
    for c in &cols {
        let numeric = c.dtype().is_primitive_numeric();
        out.push_str(if numeric { "---:|" } else { "---|" });
    }
    out.push('\n');
    for i in 0..df.height() {
        out.push('|');
        for c in &cols {
            let _ = write!(out, " {} |", cell_text(df, c, i));
        }
        out.push('\n');
    }
    out
}

/// Row `i` of column `c` of `df` as the report's tables print it: a rate with its 95%
/// interval in one cell, a p-value from its `NAME_log10` column where there is one.
pub fn cell_text(df: &DataFrame, c: &Column, i: usize) -> String {
    let float = |name: &str| df.column(name).ok().and_then(|l| l.f64().ok()?.get(i));
    let name = c.name().as_str();
    let log10 = float(&format!("{name}_log10"));
    let bounds = (float(&format!("{name}_lo")), float(&format!("{name}_hi")));
    match (log10, bounds) {
        (Some(l), _) if name.ends_with("_p") => p_value_log10(l),
        (_, (Some(lo), Some(hi))) => {
            let v = c.get(i).unwrap_or(AnyValue::Null);
            let bound = |x: f64| {
                cell(name, &AnyValue::Float64(x))
                    .trim_end_matches('%')
                    .trim_end_matches(" pp")
                    .to_string()
            };
            format!("{} [{}, {}]", cell(name, &v), bound(lo), bound(hi))
        }
        _ => cell(name, &c.get(i).unwrap_or(AnyValue::Null)),
    }
}

/// A difference of two rates in percentage points, signed.
fn points(df: &DataFrame, c: &str, i: usize) -> String {
    match df.column(c).ok().and_then(|c| c.f64().ok()?.get(i)) {
        Some(x) => format!("{:+.1}", x * 100.0),
        None => "–".to_string(),
    }
}

/// The headline comparison in words: table 3j's `controlled` rows (the games ever mutual,
/// a cohort fixed before the outcome), then table 3e's (the final position), or `None`
/// without either table.
pub fn headline(report: &Report) -> Option<String> {
    let ever = report.table("era_comparison_ever_mutual");
    let last = report.table("era_comparison");
    let (df, number) = match (ever, last) {
        (Some(df), _) => (df, "3j"),
        (None, Some(df)) => (df, "3e"),
        (None, None) => return None,
    };
    let c = &report.config;
    let mut out =
        String::from("## Headline: the 256 era against the 512 era, games ever mutual\n\n");
    let _ = writeln!(
        out,
        "The games compared are those ever mutual (table 3j): every game replayed to its end that had both kings in the enemy \
camps at some ply (`mutual_sfen`), whatever its final position. This cohort is fixed at the first mutual entry, before the outcome; \
the games mutual in their final position (table 3e, below) are selected on it, for the move limit changes how a game ends. Strength \
control is a restriction, not an adjustment: the controlled rates count only the games in which both players' pre-game ratings are \
at or above their year's {} percentile of the `{}` rating pool ({}; table 3a lists each year's threshold, pool size, share of the \
pool at or above it and ties). {}\n",
        super::tables::ordinal(c.percentile),
        c.pool.name(),
        super::tables::pool_sentence(c.pool),
        super::tables::pool_difference(c.pool),
    );
    let cohort = if number == "3j" {
        "games ever mutual"
    } else {
        "mutual entering-king games"
    };
    out.push_str(&comparison_lines(df, c.min_games, "", cohort)?);
    if let (Some(_), Some(df)) = (ever, last) {
        out.push_str(
            "\nOn the final position (table 3e), the games mutual at their end only, which the limit's effect on the ending selects:\n\n",
        );
        out.push_str(&comparison_lines(
            df,
            c.min_games,
            "Final position, ",
            "mutual entering-king games",
        )?);
    }
    let family = df
        .column("holm_family")
        .ok()?
        .i64()
        .ok()?
        .max()
        .unwrap_or(0);
    let _ = writeln!(out, "\n{}", inference_note(c.min_games, family, number));
    Some(out)
}

/// One bullet per `controlled` row of a comparison table (3e or 3j): `prefix` before its
/// role, `games` naming its cohort.
fn comparison_lines(df: &DataFrame, min_games: u32, prefix: &str, games: &str) -> Option<String> {
    let t = Cells(df);
    let measures = df.column("measure").ok()?.str().ok()?.clone();
    let pops = df.column("population").ok()?.str().ok()?.clone();
    let roles = df.column("role").ok()?.str().ok()?.clone();
    let few = df.column("few_games").ok()?.bool().ok()?.clone();
    let mut out = String::new();
    for i in 0..df.height() {
        if pops.get(i) != Some("controlled") {
            continue;
        }
        let what = match measures.get(i) {
            Some("decl_win_rate") => "declaration-win rate",
            Some("move_limit_rate") => "move-limit rate",
            _ => continue,
        };
        let primary = roles.get(i) == Some("primary");
        let role = match (prefix.is_empty(), primary) {
            (true, true) => "Primary",
            (true, false) => "Secondary",
            (false, true) => "primary",
            (false, false) => "secondary",
        };
        let flag = if few.get(i) == Some(true) {
            format!(" **Few games** (a cell has fewer than {min_games}): descriptive only.")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "- {prefix}{role} — {what} of strength-controlled {games}: {} against {}; {}.{flag}",
            t.side("a", i),
            t.side("b", i),
            t.test(i, primary),
        );
    }
    Some(out)
}

/// The cells of table 3e (3j) as the headline prints them.
struct Cells<'a>(&'a DataFrame);

impl Cells<'_> {
    /// Column `c` of row `i` formatted as in the tables (`–` when missing).
    fn text(&self, c: &str, i: usize) -> String {
        self.0
            .column(c)
            .ok()
            .and_then(|c| c.get(i).ok())
            .map(|v| cell(c, &v))
            .unwrap_or_else(|| "–".to_string())
    }

    fn int(&self, c: &str, i: usize) -> i64 {
        self.0
            .column(c)
            .ok()
            .and_then(|c| c.i64().ok()?.get(i))
            .unwrap_or(0)
    }

    fn float(&self, c: &str, i: usize) -> Option<f64> {
        self.0.column(c).ok().and_then(|c| c.f64().ok()?.get(i))
    }

    /// One cell (`a` or `b`) of comparison `i`: its rate with the interval, the engines
    /// and pairs it rests on and the interval clustered by engine pair.
    fn side(&self, p: &str, i: usize) -> String {
        let (k, n) = (
            self.int(&format!("{p}_count"), i),
            self.int(&format!("{p}_games"), i),
        );
        if n == 0 {
            return format!("{} no controlled game", self.text(&format!("{p}_cell"), i));
        }
        let clustered = match (
            self.float(&format!("{p}_rate_cl_lo"), i),
            self.float(&format!("{p}_rate_cl_hi"), i),
        ) {
            (Some(lo), Some(hi)) => format!(
                "; clustered by engine pair {}–{}, design effect {}",
                percentage(lo, 1),
                percentage(hi, 1),
                self.float(&format!("{p}_design_effect"), i)
                    .map_or("–".to_string(), |d| format!("{d:.2}")),
            ),
            _ => "; no clustered interval (fewer than two pairs)".to_string(),
        };
        format!(
            "{} {k}/{n} = {} (95% CI {}–{}; {} engines, {} pairs{clustered})",
            self.text(&format!("{p}_cell"), i),
            self.text(&format!("{p}_rate"), i),
            self.text(&format!("{p}_rate_lo"), i),
            self.text(&format!("{p}_rate_hi"), i),
            self.int(&format!("{p}_engines"), i),
            self.int(&format!("{p}_pairs"), i),
        )
    }

    /// The test of comparison `i`: the difference with its interval and p (Holm-adjusted
    /// too for a secondary one), or why there is none.
    fn test(&self, i: usize, primary: bool) -> String {
        let Some(l) = self.float("test_p_log10", i) else {
            return if self.int("a_games", i) == 0 || self.int("b_games", i) == 0 {
                "no test (a cell without games)".to_string()
            } else {
                format!(
                    "no test (a small cell of more than {} games, too many for the exact methods)",
                    super::exact::EXACT_MAX_GAMES
                )
            };
        };
        let adjusted = match self.float("holm_p_log10", i) {
            Some(h) if !primary => format!(", Holm-adjusted p = {}", p_value_log10(h)),
            _ => String::new(),
        };
        let method = self
            .0
            .column("test")
            .ok()
            .and_then(|c| c.str().ok()?.get(i));
        let (interval, name) = if method == Some(super::tables::TEST_EXACT) {
            ("exact Chan-Zhang CI", "Boschloo's exact test")
        } else {
            ("score CI", "score test")
        };
        format!(
            "difference {} percentage points (95% {interval} {} to {}), {name} p = {}{adjusted}",
            points(self.0, "rate_diff", i),
            points(self.0, "rate_diff_lo", i),
            points(self.0, "rate_diff_hi", i),
            p_value_log10(l),
        )
    }
}

/// The paragraph after the headline's comparisons: the inference rule fixed in advance.
fn inference_note(min_games: u32, family: i64, table: &str) -> String {
    format!(
        "The inference of each comparison follows a rule fixed in advance: where a cell has fewer than {min_games} games or the 2x2 table an \
expected count below 5, Boschloo's exact unconditional test with Chan and Zhang's exact interval (the asymptotic test is not printed for \
such a cell); elsewhere the Miettinen-Nurminen score test with the score interval that inverts it (the interval excludes 0 exactly when \
p < 0.05). The controlled declaration-win rate is the primary comparison; the family of secondary comparisons, fixed in advance, has {family} \
members (this move-limit rate and the two raw rows of table {table}), with Holm's adjustment over all {family} (a comparison that cannot be tested \
stays in the family, untested). The intervals of the rates and tests are over games; the same engines play many games, so each \
cell also gives the engines and engine pairs it rests on and the interval clustered by engine pair with its design effect (the \
clustered variance over the binomial one): where the design effect is well above 1, read the clustered interval. See table {table} for the \
raw (uncontrolled) rows and the definitions.\n"
    )
}
