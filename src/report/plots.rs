//! Plots of the report as hand-written SVG (no plotting dependency): the declaration-win
//! rate by year with the Max_Moves changes marked, the funnel, and the histogram of owned
//! points at the move limit.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use polars::prelude::*;

use super::columns::{MAX_MOVES, YEAR};
use super::{Plot, Report, tables};

const W: f64 = 720.0;
const H: f64 = 360.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;
const COLORS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

/// A minimal SVG document builder.
struct Svg(String);

impl Svg {
    fn new(title: &str) -> Svg {
        let mut s = String::new();
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
        );
        s.push('\n');
        let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
        let mut svg = Svg(s);
        svg.text(W / 2.0, 20.0, "middle", title, 14.0);
        svg
    }
    fn text(&mut self, x: f64, y: f64, anchor: &str, text: &str, size: f64) {
        let _ = writeln!(
            self.0,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" font-size="{size}">{}</text>"#,
            escape(text)
        );
    }
    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, dash: bool) {
        let dash = if dash {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        let _ = writeln!(
            self.0,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}"{dash}/>"#
        );
    }
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str) {
        let _ = writeln!(
            self.0,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}"/>"#
        );
    }
    fn polyline(&mut self, points: &[(f64, f64)], stroke: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.0,
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="2"/>"#,
            pts.join(" ")
        );
        for (x, y) in points {
            let _ = writeln!(
                self.0,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="{stroke}"/>"#
            );
        }
    }
    /// A y axis from 0 to `max` with `ticks` labelled steps.
    fn y_axis(&mut self, max: f64, ticks: usize, percent: bool) {
        self.line(LEFT, TOP, LEFT, H - BOTTOM, "black", false);
        self.line(LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM, "black", false);
        for i in 0..=ticks {
            let v = max * i as f64 / ticks as f64;
            let y = y_of(v, max);
            self.line(LEFT - 4.0, y, LEFT, y, "black", false);
            let label = if percent {
                format!("{:.0}%", v * 100.0)
            } else {
                format!("{v:.0}")
            };
            self.text(LEFT - 6.0, y + 4.0, "end", &label, 11.0);
        }
    }
    fn legend(&mut self, items: &[(&str, &str)]) {
        for (i, (label, color)) in items.iter().enumerate() {
            let x = LEFT + 10.0 + 190.0 * i as f64;
            self.rect(x, TOP - 12.0, 12.0, 12.0, color);
            self.text(x + 16.0, TOP - 2.0, "start", label, 11.0);
        }
    }
    fn finish(mut self) -> String {
        self.0.push_str("</svg>\n");
        self.0
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn y_of(v: f64, max: f64) -> f64 {
    let span = H - TOP - BOTTOM;
    H - BOTTOM - if max > 0.0 { v / max * span } else { 0.0 }
}

/// Every plot of the report.
pub fn all(report: &Report, games: &DataFrame) -> PolarsResult<Vec<Plot>> {
    let mut plots = Vec::new();
    if let Some(df) = report.table("strength_by_year") {
        let changes = max_moves_changes(games)?;
        plots.push(Plot {
            file: "decl_rate_by_year.svg",
            caption: "Declaration-win rate of mutual entering-king games by year, all games (raw) and strength-controlled (table 3a); dashed lines mark a change of the most common Max_Moves value read from the records".to_string(),
            svg: decl_rate_by_year(df, &changes)?,
        });
    }
    if let Some(df) = report.table("funnel") {
        plots.push(Plot {
            file: "funnel.svg",
            caption: "Funnel of table 4: share of sides of mutual games cut by the move limit owning >= 31 points, with >= 31 declaration points, and able to declare, per Max_Moves value".to_string(),
            svg: funnel(df)?,
        });
    }
    let sides = tables::cut_sides(tables::prepared(games)?)?
        .group_by([col("owned")])
        .agg([len().cast(DataType::Int64).alias("n")])
        .collect()?;
    plots.push(Plot {
        file: "owned_points.svg",
        caption: "Owned points of both sides in the final position of mutual entering-king games cut by the move limit (number of sides per value; 31 and 24 marked)".to_string(),
        svg: owned_histogram(&sides)?,
    });
    Ok(plots)
}

/// A change of the most common Max_Moves value: (year, previous value, new value).
pub type MaxMovesChange = (i64, Option<i64>, Option<i64>);

/// The most common Max_Moves value of each year (`None` = no line), and the years where
/// it differs from the previous year's: (year, previous value, new value).
pub fn max_moves_changes(games: &DataFrame) -> PolarsResult<Vec<MaxMovesChange>> {
    let counts = games
        .clone()
        .lazy()
        .with_columns(super::columns::typed())
        .filter(col(YEAR).is_not_null())
        .group_by([col(YEAR), col(MAX_MOVES)])
        .agg([len().cast(DataType::Int64).alias("n")])
        .collect()?;
    let years = counts.column(YEAR)?.i64()?.clone();
    let values = counts.column(MAX_MOVES)?.i64()?.clone();
    let ns = counts.column("n")?.i64()?.clone();
    // year -> (count, value) with ties broken by the smaller value (None first).
    let mut best: BTreeMap<i64, (i64, Option<i64>)> = BTreeMap::new();
    for i in 0..counts.height() {
        let (Some(y), Some(n)) = (years.get(i), ns.get(i)) else {
            continue;
        };
        let v = values.get(i);
        let e = best.entry(y).or_insert((n, v));
        if n > e.0 || (n == e.0 && v < e.1) {
            *e = (n, v);
        }
    }
    let mut changes = Vec::new();
    let mut prev: Option<Option<i64>> = None;
    for (y, (_, v)) in best {
        if let Some(p) = prev
            && p != v
        {
            changes.push((y, p, v));
        }
        prev = Some(v);
    }
    Ok(changes)
}

fn numeric_years(df: &DataFrame, key: &str) -> PolarsResult<Vec<(usize, i64)>> {
    let keys = df.column(key)?.str()?.clone();
    Ok((0..df.height())
        .filter_map(|i| {
            keys.get(i)
                .and_then(|k| k.parse::<i64>().ok())
                .map(|y| (i, y))
        })
        .collect())
}

fn decl_rate_by_year(df: &DataFrame, changes: &[MaxMovesChange]) -> PolarsResult<String> {
    let rows = numeric_years(df, "year")?;
    let raw = df.column("raw_decl_win_rate")?.f64()?.clone();
    let ctl = df.column("decl_win_rate")?.f64()?.clone();
    let mut svg = Svg::new("Declaration-win rate of mutual entering-king games");
    let max = 1.0;
    svg.y_axis(max, 5, true);
    if rows.is_empty() {
        svg.text(W / 2.0, H / 2.0, "middle", "no games with a year", 12.0);
        return Ok(svg.finish());
    }
    let (y0, y1) = (rows[0].1, rows[rows.len() - 1].1);
    let span = (y1 - y0).max(1) as f64;
    let x_of = |y: i64| LEFT + 20.0 + (y - y0) as f64 / span * (W - LEFT - RIGHT - 40.0);
    for &(_, y) in &rows {
        svg.text(x_of(y), H - BOTTOM + 16.0, "middle", &y.to_string(), 10.0);
    }
    for &(y, from, to) in changes {
        if y < y0 || y > y1 {
            continue;
        }
        let x = x_of(y)
            - if y > y0 {
                (x_of(y) - x_of(y - 1)) / 2.0
            } else {
                0.0
            };
        svg.line(x, TOP, x, H - BOTTOM, "#555", true);
        let name = |v: Option<i64>| v.map_or("unknown".to_string(), |v| v.to_string());
        svg.text(
            x + 3.0,
            TOP + 12.0,
            "start",
            &format!("Max_Moves {} → {}", name(from), name(to)),
            10.0,
        );
    }
    for (series, color) in [(&raw, COLORS[0]), (&ctl, COLORS[1])] {
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|&(i, y)| series.get(i).map(|v| (x_of(y), y_of(v, max))))
            .collect();
        svg.polyline(&pts, color);
    }
    svg.legend(&[
        ("all mutual games (raw)", COLORS[0]),
        ("strength-controlled", COLORS[1]),
    ]);
    svg.text(W / 2.0, H - 10.0, "middle", "year of the game", 11.0);
    Ok(svg.finish())
}

fn funnel(df: &DataFrame) -> PolarsResult<String> {
    let keys = df.column("max_moves")?.str()?.clone();
    let stages = ["owned31_share", "decl31_share", "declarable_share"];
    let labels = [
        "owned >= 31",
        "and declaration points >= 31",
        "and declarable",
    ];
    let series: Vec<Float64Chunked> = stages
        .iter()
        .map(|s| df.column(s).and_then(|c| c.f64().cloned()))
        .collect::<PolarsResult<_>>()?;
    let mut svg = Svg::new("Sides of mutual games cut by the move limit");
    let max = 1.0;
    svg.y_axis(max, 5, true);
    let n = df.height().max(1) as f64;
    let group_w = (W - LEFT - RIGHT) / n;
    let bar_w = group_w * 0.8 / stages.len() as f64;
    for i in 0..df.height() {
        let gx = LEFT + group_w * i as f64 + group_w * 0.1;
        for (j, s) in series.iter().enumerate() {
            if let Some(v) = s.get(i) {
                let y = y_of(v, max);
                svg.rect(
                    gx + bar_w * j as f64,
                    y,
                    bar_w * 0.9,
                    H - BOTTOM - y,
                    COLORS[j],
                );
                svg.text(
                    gx + bar_w * (j as f64 + 0.45),
                    y - 3.0,
                    "middle",
                    &format!("{:.1}%", v * 100.0),
                    9.0,
                );
            }
        }
        let label = format!("Max_Moves {}", keys.get(i).unwrap_or("?"));
        svg.text(
            gx + group_w * 0.4,
            H - BOTTOM + 16.0,
            "middle",
            &label,
            11.0,
        );
    }
    let legend: Vec<(&str, &str)> = labels.iter().copied().zip(COLORS).collect();
    svg.legend(&legend);
    Ok(svg.finish())
}

fn owned_histogram(counts: &DataFrame) -> PolarsResult<String> {
    let owned = counts.column("owned")?.i64()?.clone();
    let ns = counts.column("n")?.i64()?.clone();
    let mut bins = [0i64; 55];
    for i in 0..counts.height() {
        if let (Some(o), Some(n)) = (owned.get(i), ns.get(i))
            && (0..=54).contains(&o)
        {
            bins[o as usize] += n;
        }
    }
    let max = bins.iter().copied().max().unwrap_or(0).max(1) as f64;
    let mut svg = Svg::new("Owned points of each side at the move limit (mutual games)");
    svg.y_axis(max, 4, false);
    let bw = (W - LEFT - RIGHT) / 55.0;
    for (p, &n) in bins.iter().enumerate() {
        let x = LEFT + bw * p as f64;
        if n > 0 {
            let y = y_of(n as f64, max);
            svg.rect(x + 1.0, y, bw - 2.0, H - BOTTOM - y, COLORS[0]);
        }
        if p % 5 == 0 {
            svg.text(
                x + bw / 2.0,
                H - BOTTOM + 14.0,
                "middle",
                &p.to_string(),
                10.0,
            );
        }
    }
    for (p, label) in [(24, "24"), (31, "31")] {
        let x = LEFT + bw * p as f64;
        svg.line(x, TOP, x, H - BOTTOM, COLORS[1], true);
        svg.text(x + 2.0, TOP + 10.0, "start", label, 10.0);
    }
    svg.text(W / 2.0, H - 10.0, "middle", "owned points", 11.0);
    Ok(svg.finish())
}
