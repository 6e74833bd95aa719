//! Plots of the report, drawn with `plotters` into SVG: the declaration-win rate by year
//! with the Max_Moves changes marked, the funnel, and the histogram of owned points at the
//! move limit. Rates are drawn with their 95% Wilson intervals as error bars; axes have
//! round ticks; legends sit in a strip below the chart, never on the data. The size
//! (480 x 360 px, text drawn at 14.5 px and titles at 17 px) is meant for a paper column
//! of about 3.3 inches (240 pt): scaled to it, the text is 7.3 pt and the titles 8.5 pt.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use polars::prelude::*;

use super::columns::{MAX_MOVES, YEAR};
use super::{Plot, Report, tables};

const W: u32 = 480;
const H: u32 = 360;
/// Height of the legend strip below each chart.
const LEGEND_H: u32 = 60;
const FONT: &str = "sans-serif";
const COLORS: [RGBColor; 4] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
];
const GREY: RGBColor = RGBColor(0x66, 0x66, 0x66);

/// A plotting failure, as a polars error (the report's error type for computations).
fn plot_err<E: std::fmt::Debug>(e: E) -> PolarsError {
    polars_err!(ComputeError: "plot: {e:?}")
}

/// Every plot of the report.
pub fn all(report: &Report, games: &DataFrame) -> PolarsResult<Vec<Plot>> {
    let mut plots = Vec::new();
    if let Some(df) = report.table("strength_by_year") {
        let changes = max_moves_changes(games)?;
        let name = |v: Option<i64>| v.map_or("unknown".to_string(), |v| v.to_string());
        let listed: Vec<String> = changes
            .iter()
            .map(|&(y, from, to)| format!("{y}: {} → {}", name(from), name(to)))
            .collect();
        let marks = if listed.is_empty() {
            String::new()
        } else {
            format!(
                "; grey lines mark a change of the most common Max_Moves value read from the records ({})",
                listed.join(", ")
            )
        };
        plots.push(Plot {
            file: "decl_rate_by_year.svg",
            caption: format!(
                "Declaration-win rate of mutual entering-king games by year, all games (raw) and strength-controlled (table 3a), with 95% Wilson intervals{marks}"
            ),
            svg: decl_rate_by_year(df, &changes)?,
        });
    }
    if let Some(df) = report.table("funnel") {
        plots.push(Plot {
            file: "funnel.svg",
            caption: "Funnel of table 4: share of mutual games cut by the move limit whose leading side owns >= 31 points, has >= 31 declaration points, has also >= 10 pieces in the enemy camp, and meets every condition of the 24-point rule (king in camp, not in check, move <= 500), per Max_Moves value, with 95% Wilson intervals".to_string(),
            svg: funnel(df)?,
        });
    }
    let sides = tables::cut_sides(tables::prepared(games)?)?
        .group_by([col("owned")])
        .agg([len().cast(DataType::Int64).alias("n")])
        .collect()?;
    plots.push(Plot {
        file: "owned_points.svg",
        caption: "Owned points of both sides in the final position of mutual entering-king games cut by the move limit (number of sides per value; 24 and 31 marked)".to_string(),
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

/// One legend entry: a colour, whether it is drawn as a line (else a filled square), and
/// its text.
type LegendItem = (RGBColor, bool, String);

/// Draw legend entries left to right in `area`, wrapping to a second row.
fn legend(area: &DrawingArea<SVGBackend<'_>, Shift>, items: &[LegendItem]) -> PolarsResult<()> {
    let font = (FONT, 18).into_font().color(&BLACK);
    let (w, _) = area.dim_in_pixel();
    let (mut x, mut y) = (12i32, 8i32);
    for (color, line, text) in items {
        // About 8.5 px a character at 18 px (drawn at 14.5 px), a little wider than most.
        let width = 28 + (text.chars().count() as f64 * 8.5) as i32;
        if x > 12 && x + width > w as i32 {
            x = 12;
            y += 24;
        }
        if *line {
            area.draw(&PathElement::new(
                vec![(x, y + 8), (x + 18, y + 8)],
                color.stroke_width(3),
            ))
            .map_err(plot_err)?;
        } else {
            area.draw(&Rectangle::new(
                [(x + 3, y + 2), (x + 15, y + 14)],
                color.filled(),
            ))
            .map_err(plot_err)?;
        }
        area.draw(&Text::new(text.clone(), (x + 24, y), font.clone()))
            .map_err(plot_err)?;
        x += width + 16;
    }
    Ok(())
}

/// The rate, its interval and the row's key, for the rows whose key is a year.
struct Points {
    x: Vec<f64>,
    y: Vec<Option<f64>>,
    lo: Vec<Option<f64>>,
    hi: Vec<Option<f64>>,
}

fn series(df: &DataFrame, rows: &[(usize, i64)], rate: &str) -> PolarsResult<Points> {
    let get = |c: &str| -> PolarsResult<Float64Chunked> { Ok(df.column(c)?.f64()?.clone()) };
    let (v, lo, hi) = (
        get(rate)?,
        get(&format!("{rate}_lo"))?,
        get(&format!("{rate}_hi"))?,
    );
    Ok(Points {
        x: rows.iter().map(|&(_, y)| y as f64).collect(),
        y: rows.iter().map(|&(i, _)| v.get(i)).collect(),
        lo: rows.iter().map(|&(i, _)| lo.get(i)).collect(),
        hi: rows.iter().map(|&(i, _)| hi.get(i)).collect(),
    })
}

fn percent(v: &f64) -> String {
    format!("{:.0}%", v * 100.0)
}

fn decl_rate_by_year(df: &DataFrame, changes: &[MaxMovesChange]) -> PolarsResult<String> {
    let keys = df.column("year")?.str()?.clone();
    let rows: Vec<(usize, i64)> = (0..df.height())
        .filter_map(|i| keys.get(i).and_then(|k| k.parse().ok()).map(|y| (i, y)))
        .collect();
    let (y0, y1) = match (rows.first(), rows.last()) {
        (Some(a), Some(b)) => (a.1, b.1),
        _ => (2008, 2026),
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (top, bottom) = root.split_vertically(H - LEGEND_H);
        let mut chart = ChartBuilder::on(&top)
            .caption("Declaration-win rate, mutual games", (FONT, 21))
            .margin(10)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d((y0 as f64 - 0.6)..(y1 as f64 + 0.6), 0.0..1.0)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(8)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_labels(6)
            .y_label_formatter(&percent)
            .x_desc("year of the game")
            .y_desc("declaration wins")
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 18))
            .draw()
            .map_err(plot_err)?;
        for &(year, _, _) in changes {
            if year < y0 || year > y1 {
                continue;
            }
            let x = year as f64 - 0.5;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, 0.0), (x, 1.0)],
                    GREY.stroke_width(2),
                )))
                .map_err(plot_err)?;
        }
        // The two series side by side, a fifth of a year apart, so their bars do not overlap.
        for (k, (rate, color)) in [
            ("raw_decl_win_rate", COLORS[0]),
            ("decl_win_rate", COLORS[1]),
        ]
        .into_iter()
        .enumerate()
        {
            let p = series(df, &rows, rate)?;
            let shift = if k == 0 { -0.1 } else { 0.1 };
            let pts: Vec<(f64, f64)> =
                p.x.iter()
                    .zip(&p.y)
                    .filter_map(|(&x, y)| y.map(|y| (x + shift, y)))
                    .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(plot_err)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(plot_err)?;
            chart
                .draw_series((0..p.x.len()).filter_map(|i| {
                    let (y, lo, hi) = (p.y[i]?, p.lo[i]?, p.hi[i]?);
                    Some(ErrorBar::new_vertical(
                        p.x[i] + shift,
                        lo,
                        y,
                        hi,
                        color.stroke_width(1),
                        6,
                    ))
                }))
                .map_err(plot_err)?;
        }
        let mut items: Vec<LegendItem> = vec![
            (COLORS[0], true, "all (raw)".to_string()),
            (COLORS[1], true, "strength-controlled".to_string()),
        ];
        if changes.iter().any(|c| (y0..=y1).contains(&c.0)) {
            items.push((GREY, true, "Max_Moves changes".to_string()));
        }
        legend(&bottom, &items)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

fn funnel(df: &DataFrame) -> PolarsResult<String> {
    // Per Max_Moves only: the `all` row pools regimes with different move clauses.
    let mask = df.column("max_moves")?.str()?.not_equal("all");
    let df = &df.filter(&mask)?;
    let keys = df.column("max_moves")?.str()?.clone();
    let stages = [
        ("owned31_share", "owned >= 31"),
        ("decl31_share", "and decl. points >= 31"),
        ("decl31_zone10_share", "and 10 in the zone"),
        ("declarable_share", "and every condition"),
    ];
    let n = df.height();
    let labels: Vec<String> = (0..n)
        .map(|i| match keys.get(i) {
            Some("all") => "all".to_string(),
            Some(k) => format!("Max_Moves {k}"),
            // (written under each group of bars)
            None => "?".to_string(),
        })
        .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (top, bottom) = root.split_vertically(H - LEGEND_H);
        let mut chart = ChartBuilder::on(&top)
            .caption("Mutual games at the move limit", (FONT, 21))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..n.max(1) as f64, 0.0..1.0)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(0)
            .y_labels(6)
            .y_label_formatter(&percent)
            .y_desc("share of games")
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 18))
            .draw()
            .map_err(plot_err)?;
        // One label under each group of bars, centred.
        let label_font = (FONT, 18)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top));
        for (i, label) in labels.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
            top.draw(&Text::new(label.clone(), (px, py + 8), label_font.clone()))
                .map_err(plot_err)?;
        }
        let bw = 0.8 / stages.len() as f64;
        for (j, (stage, _)) in stages.iter().enumerate() {
            let v = df.column(stage)?.f64()?.clone();
            let lo = df.column(&format!("{stage}_lo"))?.f64()?.clone();
            let hi = df.column(&format!("{stage}_hi"))?.f64()?.clone();
            let color = COLORS[j];
            for i in 0..n {
                let Some(y) = v.get(i) else { continue };
                let x0 = i as f64 + 0.1 + bw * j as f64;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x0 + 0.01, 0.0), (x0 + bw - 0.01, y)],
                        color.filled(),
                    )))
                    .map_err(plot_err)?;
                if let (Some(l), Some(h)) = (lo.get(i), hi.get(i)) {
                    chart
                        .draw_series(std::iter::once(ErrorBar::new_vertical(
                            x0 + bw / 2.0,
                            l,
                            y,
                            h,
                            BLACK.stroke_width(1),
                            6,
                        )))
                        .map_err(plot_err)?;
                }
            }
        }
        let items: Vec<LegendItem> = stages
            .iter()
            .enumerate()
            .map(|(j, (_, label))| (COLORS[j], false, label.to_string()))
            .collect();
        legend(&bottom, &items)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
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
    let max = bins.iter().copied().max().unwrap_or(0).max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (top, bottom) = root.split_vertically(H - LEGEND_H);
        let mut chart = ChartBuilder::on(&top)
            .caption("Owned points at the move limit (mutual games)", (FONT, 21))
            .margin(10)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..54.5, 0i64..(max + max / 10 + 1))
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(12)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_labels(6)
            .x_desc("owned points")
            .y_desc("sides")
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 18))
            .draw()
            .map_err(plot_err)?;
        chart
            .draw_series(
                bins.iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(p, &n)| {
                        let x = p as f64;
                        Rectangle::new([(x - 0.4, 0), (x + 0.4, n)], COLORS[0].filled())
                    }),
            )
            .map_err(plot_err)?;
        let top_y = max + max / 10 + 1;
        for (p, color) in [(24.0, COLORS[1]), (31.0, COLORS[2])] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(p - 0.5, 0), (p - 0.5, top_y)],
                    color.stroke_width(2),
                )))
                .map_err(plot_err)?;
        }
        legend(
            &bottom,
            &[
                (COLORS[0], false, "sides".to_string()),
                (COLORS[1], true, "24 (impasse, 24-point draw)".to_string()),
                (COLORS[2], true, "31 (24-point win)".to_string()),
            ],
        )?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}
