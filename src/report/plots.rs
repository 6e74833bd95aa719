//! Plots of the report, drawn with `plotters` into SVG: the declaration-win rate by year
//! with the Max_Moves changes marked, the funnel, the owned points at the move limit, the
//! comparison of the two eras (the headline, on the games ever mutual, and on the final
//! position), and the cumulative incidence of the endings after the first mutual entry. Rates are drawn with their 95% Wilson intervals
//! as error bars; the vertical axis runs a little past 0% and 100% so that marks and bars
//! there stay inside the frame; a bar of height 0 is drawn as a thick line at 0; two series
//! differ by marker (circle, triangle) as well as colour; lines join consecutive years only;
//! `n` is written under each group. Axes have round ticks; legends sit in a strip below the
//! chart, never on the data. The size (480 x 360 px, text drawn at 14.5 px and titles at
//! 17 px) is meant for a paper column of about 3.3 inches (240 pt): scaled to it, the text
//! is 7.3 pt and the titles 8.5 pt. Each figure is drawn once, generically over the
//! backend, into SVG and into PDF (the report's own backend, [`super::pdf`]: a 480 x 360 pt
//! page, text in Helvetica, no fonts needed to write it).

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::coord::types::{RangedCoordf64, RangedCoordi64};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use polars::prelude::*;

use super::columns::{MAX_MOVES, YEAR};

/// Owned points of both sides together (the core's total), the histogram's range.
const TOTAL: i64 = crate::shogi::TOTAL_OWNED_POINTS as i64;
use super::model::{Plot, Report};
use super::pdf::PdfBackend;
use super::tables;
use plotters::element::DashedPathElement;
use plotters::series::DashedLineSeries;

const W: u32 = 480;
const H: u32 = 360;
/// Height of the legend strip below each chart.
const LEGEND_H: u32 = 60;
const FONT: &str = "sans-serif";
/// The series' colours, told apart in greyscale too: their lightness (luma, 0-255) is 43,
/// 162, 97 and 215, at least 50 apart; the series of a figure also differ by marker.
const COLORS: [RGBColor; 4] = [
    RGBColor(0x08, 0x30, 0x6b),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x21, 0x71, 0xb5),
    RGBColor(0xc6, 0xdb, 0xef),
];
const GREY: RGBColor = RGBColor(0x66, 0x66, 0x66);
/// The vertical axis of a rate runs from -Y_PAD to 1 + Y_PAD.
const Y_PAD: f64 = 0.04;

/// A plotting failure, as a polars error (the report's error type for computations).
fn plot_err<E: std::fmt::Debug>(e: E) -> PolarsError {
    polars_err!(ComputeError: "plot: {e:?}")
}

/// A figure, drawn the same way into any backend.
trait Figure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> PolarsResult<()>;
}

/// A figure as an SVG document and as a PDF file, from the same drawing.
fn render(figure: &impl Figure) -> PolarsResult<(String, Vec<u8>)> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        figure.draw(&root)?;
        root.present().map_err(plot_err)?;
    }
    let mut pdf = Vec::new();
    {
        let root = PdfBackend::with_buffer(&mut pdf, (W, H)).into_drawing_area();
        figure.draw(&root)?;
        root.present().map_err(plot_err)?;
    }
    Ok((svg, pdf))
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
                "; grey lines, labelled with the old and the new value, mark a change of the move limit, the most common Max_Moves value read from a year's records, years without the line skipped ({})",
                listed.join(", ")
            )
        };
        let (svg, pdf) = render(&DeclRate {
            df,
            changes: &changes,
        })?;
        plots.push(Plot {
            file: "decl_rate_by_year.svg",
            caption: format!(
                "Declaration-win rate of mutual entering-king games by year, all games (raw, circles) and strength-controlled (table 3a, triangles), with 95% Wilson intervals; lines join consecutive years with data only and never cross a change of the move limit; the number of games of each point is written above its year (raw in the upper row, controlled in the lower, in the series' colour){marks}"
            ),
            svg,
            pdf,
        });
    }
    if let Some(df) = report.table("funnel") {
        let (svg, pdf) = render(&Funnel(df))?;
        plots.push(Plot {
            file: "funnel.svg",
            caption: "Funnel of table 4: share of mutual games cut by the move limit whose leading side owns >= 31 points, has >= 31 declaration points, has also >= 10 pieces in the enemy camp, and meets every condition of the 24-point rule (king in camp, not in check, move <= 500), per Max_Moves value (the regimes are not pooled; n = games), with 95% Wilson intervals; a bar at 0 is a thick line".to_string(),
            svg,
            pdf,
        });
    }
    let cut = tables::cut_games(tables::prepared(games)?)
        .with_column(
            col("king_in_camp")
                .and(col("in_check").not())
                .and(col("zone").gt_eq(lit(tables::ZONE_PIECES)))
                .and(col("move_number").lt_eq(lit(tables::RULE24_LAST_MOVE)))
                .fill_null(lit(false))
                .alias("conditions"),
        )
        .group_by([col("owned"), col("conditions")])
        .agg([len().cast(DataType::Int64).alias("n")])
        .collect()?;
    let (svg, pdf) = render(&OwnedHistogram(&cut))?;
    plots.push(Plot {
        file: "owned_points.svg",
        caption: format!("Owned points of the leading side (the side owning more; the other owns {TOTAL} minus it, so the histogram of both sides is this one mirrored at {})", TOTAL / 2) + " in the final position of mutual entering-king games cut by the move limit, one per game; stacked by whether the 24-point rule's other conditions hold for that side (king in the enemy camp, not in check, >= 10 pieces there, move <= 500); a line at 31 owned points, the 24-point rule's win threshold, which the rule counts in declaration points (owning 31 is needed, not enough); at 27-30 both sides own 24 or more",
        svg,
        pdf,
    });
    if let Some(df) = report.table("era_comparison_ever_mutual") {
        let (svg, pdf) = render(&EraComparison(df))?;
        plots.push(Plot {
            file: "era_comparison_ever_mutual.svg",
            caption: "The headline comparison of table 3j: declaration-win and move-limit rates of the strength-controlled games ever mutual (a first mutual entry, whatever the final position), Max_Moves 256 in 2021-2023 against Max_Moves 512 in 2024-2026, with 95% Wilson intervals and the number of games".to_string(),
            svg,
            pdf,
        });
    }
    if let Some(df) = report.table("era_comparison") {
        let (svg, pdf) = render(&EraComparison(df))?;
        plots.push(Plot {
            file: "era_comparison.svg",
            caption: "The comparison of table 3e, on the final position: declaration-win and move-limit rates of the strength-controlled games mutual at their end, Max_Moves 256 in 2021-2023 against Max_Moves 512 in 2024-2026, with 95% Wilson intervals and the number of games".to_string(),
            svg,
            pdf,
        });
    }
    if let Some(df) = report.table("cohort_incidence") {
        let (svg, pdf) = render(&CohortIncidence(df))?;
        plots.push(Plot {
            file: "cohort_incidence.svg",
            caption: format!("The cumulative incidence of table 7b: the share of the games ever mutual that had ended by a declaration win (left) and at the move limit (right) within a number of plies of their first mutual entry, one line per period and Max_Moves (in the legend, 2021-23, 256 is the games of 2021-2023 whose record reads Max_Moves 256; the {INCIDENCE_CELLS} cells with the most games, the others are in table 7b), told apart by marker, line style and lightness, with 95% Wilson intervals; every game has ended (no censoring), so each line's n, in the legend, is its number of games at every point"),
            svg,
            pdf,
        });
    }
    Ok(plots)
}

/// A change of the most common Max_Moves value: (year, previous value, new value).
pub type MaxMovesChange = (i64, Option<i64>, Option<i64>);

/// The most common Max_Moves value of each year, and the years where it differs from the
/// previous year's: (year, previous value, new value). Years whose most common value is
/// unknown (no `'Max_Moves` line) are skipped, so only real changes of the limit are
/// listed.
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
        if v.is_none() {
            continue;
        }
        if let Some(p) = prev
            && p != v
        {
            changes.push((y, p, v));
        }
        prev = Some(v);
    }
    Ok(changes)
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Mark {
    Line,
    Square,
    LineCircle,
    LineTriangle,
    /// Series `k` of the cumulative-incidence figure (see [`series_marker`]).
    Cell(usize),
}

/// One legend entry: a colour, its mark, and its text.
type LegendItem = (RGBColor, Mark, String);

/// Draw legend entries left to right in `area`, wrapping to a second row.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[LegendItem],
) -> PolarsResult<()> {
    let font = (FONT, 18).into_font().color(&BLACK);
    let (w, _) = area.dim_in_pixel();
    let (mut x, mut y) = (12i32, 8i32);
    for (color, mark, text) in items {
        // About 8.5 px a character at 18 px (drawn at 14.5 px), a little wider than most.
        let width = 28 + (text.chars().count() as f64 * 8.5) as i32;
        if x > 12 && x + width > w as i32 {
            x = 12;
            y += 24;
        }
        if matches!(mark, Mark::Square) {
            area.draw(&Rectangle::new(
                [(x + 3, y + 2), (x + 15, y + 14)],
                color.filled(),
            ))
            .map_err(plot_err)?;
        } else if let Mark::Cell(k) = mark {
            area.draw(&DashedPathElement::new(
                vec![(x, y + 8), (x + 18, y + 8)],
                dash(*k).0,
                dash(*k).1,
                color.stroke_width(2),
            ))
            .map_err(plot_err)?;
            series_marker(area, *k, (x + 9, y + 8), *color)?;
        } else {
            area.draw(&PathElement::new(
                vec![(x, y + 8), (x + 18, y + 8)],
                color.stroke_width(3),
            ))
            .map_err(plot_err)?;
        }
        match mark {
            Mark::LineCircle => area
                .draw(&Circle::new((x + 9, y + 8), 4, color.filled()))
                .map_err(plot_err)?,
            Mark::LineTriangle => area
                .draw(&TriangleMarker::new((x + 9, y + 8), 6, color.filled()))
                .map_err(plot_err)?,
            _ => {}
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

/// The runs of consecutive years with a value: a line never crosses a year without data,
/// nor a change of the move limit (a run starts again at each year of `breaks`).
fn runs(x: &[f64], y: &[Option<f64>], shift: f64, breaks: &[i64]) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut prev: Option<f64> = None;
    for (&x, y) in x.iter().zip(y) {
        match y {
            Some(y) => {
                let change = breaks.iter().any(|&b| b as f64 == x);
                if prev.is_some_and(|p| x - p == 1.0) && !change {
                    if let Some(run) = out.last_mut() {
                        run.push((x + shift, *y));
                    }
                } else {
                    out.push(vec![(x + shift, *y)]);
                }
                prev = Some(x);
            }
            None => prev = None,
        }
    }
    out
}

fn percent(v: &f64) -> String {
    format!("{:.0}%", v * 100.0)
}

/// Tick labels of a rate axis: only 0% to 100%.
fn percent_tick(v: &f64) -> String {
    if *v < -1e-9 || *v > 1.0 + 1e-9 {
        String::new()
    } else {
        percent(&v.abs())
    }
}

/// The declaration-win rate by year, raw and strength-controlled, with the Max_Moves
/// changes marked.
struct DeclRate<'a> {
    df: &'a DataFrame,
    changes: &'a [MaxMovesChange],
}

/// A chart with a numeric x and y axis.
type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

impl Figure for DeclRate<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> PolarsResult<()> {
        let (df, changes) = (self.df, self.changes);
        let keys = df.column("year")?.str()?.clone();
        let rows: Vec<(usize, i64)> = (0..df.height())
            .filter_map(|i| keys.get(i).and_then(|k| k.parse().ok()).map(|y| (i, y)))
            .collect();
        let (y0, y1) = match (rows.first(), rows.last()) {
            (Some(a), Some(b)) => (a.1, b.1),
            _ => (2008, 2026),
        };
        root.fill(&WHITE).map_err(plot_err)?;
        let (top, bottom) = root.split_vertically(H - LEGEND_H);
        // No title: the caption goes in the paper.
        let mut chart = ChartBuilder::on(&top)
            .margin(10)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(
                (y0 as f64 - 0.6)..(y1 as f64 + 0.6),
                -Y_PAD..(1.0 + 4.5 * Y_PAD),
            )
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(8)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_labels(6)
            .y_label_formatter(&percent_tick)
            .x_desc("year of the game")
            .y_desc("declaration wins")
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 18))
            .draw()
            .map_err(plot_err)?;
        draw_limit_changes(&mut chart, &top, changes, (y0, y1))?;
        draw_game_counts(&chart, &top, df, &rows)?;
        let breaks: Vec<i64> = changes.iter().map(|c| c.0).collect();
        draw_rate_series(&mut chart, df, &rows, &breaks)?;
        let mut items: Vec<LegendItem> = vec![
            (COLORS[0], Mark::LineCircle, "all (raw)".to_string()),
            (
                COLORS[1],
                Mark::LineTriangle,
                "strength-controlled".to_string(),
            ),
        ];
        if changes.iter().any(|c| (y0..=y1).contains(&c.0)) {
            items.push((GREY, Mark::Line, "Max_Moves change".to_string()));
        }
        legend(&bottom, &items)?;
        Ok(())
    }
}

/// Each change of the limit within the years shown: a line between the two years,
/// labelled with the values along it, on its left, reading upwards.
fn draw_limit_changes<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    top: &DrawingArea<DB, Shift>,
    changes: &[MaxMovesChange],
    (y0, y1): (i64, i64),
) -> PolarsResult<()> {
    let change_font = (FONT, 12)
        .into_font()
        .transform(FontTransform::Rotate270)
        .color(&GREY)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    for &(year, from, to) in changes {
        if year < y0 || year > y1 {
            continue;
        }
        let x = year as f64 - 0.5;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x, -Y_PAD), (x, 1.0 + Y_PAD)],
                GREY.stroke_width(2),
            )))
            .map_err(plot_err)?;
        let name = |v: Option<i64>| v.map_or("?".to_string(), |v| v.to_string());
        let (px, py) = chart.backend_coord(&(x, 0.5));
        top.draw(&Text::new(
            format!("Max_Moves {}→{}", name(from), name(to)),
            (px - 2, py),
            change_font.clone(),
        ))
        .map_err(plot_err)?;
    }
    Ok(())
}

/// n at every point: the games of each series and year, in the series' colour, in two
/// rows along the top of the frame (raw above, controlled below).
fn draw_game_counts<DB: DrawingBackend>(
    chart: &Chart<'_, DB>,
    top: &DrawingArea<DB, Shift>,
    df: &DataFrame,
    rows: &[(usize, i64)],
) -> PolarsResult<()> {
    let raw_n = df.column("raw_games")?.cast(&DataType::Int64)?;
    let controlled_n = df.column("games")?.cast(&DataType::Int64)?;
    for (row, (ns, color)) in [(raw_n.i64()?, COLORS[0]), (controlled_n.i64()?, COLORS[1])]
        .into_iter()
        .enumerate()
    {
        let n_font = (FONT, 12)
            .into_font()
            .color(&color)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let level = 1.0 + (3.3 - 1.5 * row as f64) * Y_PAD;
        for &(i, year) in rows {
            if let Some(n) = ns.get(i).filter(|&n| n > 0) {
                let (px, py) = chart.backend_coord(&(year as f64, level));
                top.draw(&Text::new(n.to_string(), (px, py), n_font.clone()))
                    .map_err(plot_err)?;
            }
        }
    }
    Ok(())
}

/// The two series side by side, a fifth of a year apart so that their bars do not
/// overlap: lines broken at gaps and at the limit's changes (`breaks`), markers (circles
/// raw, triangles controlled) and error bars.
fn draw_rate_series<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    df: &DataFrame,
    rows: &[(usize, i64)],
    breaks: &[i64],
) -> PolarsResult<()> {
    for (k, (rate, color)) in [
        ("raw_decl_win_rate", COLORS[0]),
        ("decl_win_rate", COLORS[1]),
    ]
    .into_iter()
    .enumerate()
    {
        let p = series(df, rows, rate)?;
        let shift = if k == 0 { -0.1 } else { 0.1 };
        for run in runs(&p.x, &p.y, shift, breaks)
            .into_iter()
            .filter(|r| r.len() > 1)
        {
            chart
                .draw_series(LineSeries::new(run, color.stroke_width(2)))
                .map_err(plot_err)?;
        }
        let pts: Vec<(f64, f64)> =
            p.x.iter()
                .zip(&p.y)
                .filter_map(|(&x, y)| y.map(|y| (x + shift, y)))
                .collect();
        if k == 0 {
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(plot_err)?;
        } else {
            chart
                .draw_series(
                    pts.iter()
                        .map(|&p| TriangleMarker::new(p, 6, color.filled())),
                )
                .map_err(plot_err)?;
        }
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
    Ok(())
}

/// One bar: the rate, the low and the high bound of its interval.
type Bar = (Option<f64>, Option<f64>, Option<f64>);

/// Grouped bars with error bars: `groups` (label under the group, per bar: value, low,
/// high), one colour per bar position. A bar of height 0 is a thick line at 0.
fn grouped_bars<DB: DrawingBackend>(
    top: &DrawingArea<DB, Shift>,
    title: &str,
    y_desc: &str,
    groups: &[(String, Vec<Bar>)],
) -> PolarsResult<()> {
    let n = groups.len();
    let per = groups.iter().map(|g| g.1.len()).max().unwrap_or(1).max(1);
    // No title (`_title` is the figure's subject, said by its caption in the paper).
    let _ = title;
    let mut chart = ChartBuilder::on(top)
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..n.max(1) as f64, -Y_PAD..(1.0 + Y_PAD))
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .x_labels(0)
        .y_labels(6)
        .y_label_formatter(&percent_tick)
        .y_desc(y_desc)
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 18))
        .draw()
        .map_err(plot_err)?;
    // One label under each group of bars, centred.
    let label_font = (FONT, 18)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, (label, _)) in groups.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64 + 0.5, -Y_PAD));
        top.draw(&Text::new(label.clone(), (px, py + 8), label_font.clone()))
            .map_err(plot_err)?;
    }
    let bw = 0.8 / per as f64;
    for (i, (_, bars)) in groups.iter().enumerate() {
        for (j, &(v, lo, hi)) in bars.iter().enumerate() {
            let Some(y) = v else { continue };
            let color = COLORS[j % COLORS.len()];
            let x0 = i as f64 + 0.1 + bw * j as f64;
            if y > 0.0 {
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x0 + 0.01, 0.0), (x0 + bw - 0.01, y)],
                        color.filled(),
                    )))
                    .map_err(plot_err)?;
            } else {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x0 + 0.01, 0.0), (x0 + bw - 0.01, 0.0)],
                        color.stroke_width(4),
                    )))
                    .map_err(plot_err)?;
            }
            if let (Some(l), Some(h)) = (lo, hi) {
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
    Ok(())
}

/// The funnel of table 4, per Max_Moves value.
struct Funnel<'a>(&'a DataFrame);

impl Figure for Funnel<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> PolarsResult<()> {
        let df = self.0;
        // Per Max_Moves only: the `all` row pools regimes with different move clauses.
        let mask = df.column("max_moves")?.str()?.not_equal("all");
        let df = &df.filter(&mask)?;
        let keys = df.column("max_moves")?.str()?.clone();
        let games = df.column("games")?.cast(&DataType::Int64)?;
        let games = games.i64()?;
        let stages = [
            ("owned31_share", "owned ≥ 31"),
            ("decl31_share", "and decl. points ≥ 31"),
            ("decl31_zone10_share", "and 10 in the zone"),
            ("declarable_share", "and every condition"),
        ];
        let get = |c: &str| -> PolarsResult<Float64Chunked> { Ok(df.column(c)?.f64()?.clone()) };
        let mut groups = Vec::new();
        for i in 0..df.height() {
            let label = format!(
                "Max_Moves {} (n = {})",
                keys.get(i).unwrap_or("?"),
                games.get(i).unwrap_or(0)
            );
            let mut bars = Vec::new();
            for (stage, _) in stages {
                bars.push((
                    get(stage)?.get(i),
                    get(&format!("{stage}_lo"))?.get(i),
                    get(&format!("{stage}_hi"))?.get(i),
                ));
            }
            groups.push((label, bars));
        }
        root.fill(&WHITE).map_err(plot_err)?;
        let (top, bottom) = root.split_vertically(H - LEGEND_H);
        grouped_bars(
            &top,
            "Mutual games at the move limit",
            "share of games",
            &groups,
        )?;
        let items: Vec<LegendItem> = stages
            .iter()
            .enumerate()
            .map(|(j, (_, label))| (COLORS[j], Mark::Square, label.to_string()))
            .collect();
        legend(&bottom, &items)?;
        Ok(())
    }
}

/// The headline comparison of table 3e.
struct EraComparison<'a>(&'a DataFrame);

impl Figure for EraComparison<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> PolarsResult<()> {
        let df = self.0;
        let pops = df.column("population")?.str()?.clone();
        let measures = df.column("measure")?.str()?.clone();
        let f = |c: &str| -> PolarsResult<Float64Chunked> { Ok(df.column(c)?.f64()?.clone()) };
        let i64s = |c: &str| -> PolarsResult<Int64Chunked> { Ok(df.column(c)?.i64()?.clone()) };
        let (na, nb) = (i64s("a_games")?, i64s("b_games")?);
        let mut groups = Vec::new();
        let (mut n_a, mut n_b) = (0, 0);
        for i in 0..df.height() {
            if pops.get(i) != Some("controlled") {
                continue;
            }
            let label = match measures.get(i) {
                Some("decl_win_rate") => "declaration win",
                Some("move_limit_rate") => "move limit",
                _ => continue,
            };
            n_a = na.get(i).unwrap_or(0);
            n_b = nb.get(i).unwrap_or(0);
            let bar = |p: &str| -> PolarsResult<Bar> {
                Ok((
                    f(&format!("{p}_rate"))?.get(i),
                    f(&format!("{p}_rate_lo"))?.get(i),
                    f(&format!("{p}_rate_hi"))?.get(i),
                ))
            };
            groups.push((label.to_string(), vec![bar("a")?, bar("b")?]));
        }
        root.fill(&WHITE).map_err(plot_err)?;
        let (top, bottom) = root.split_vertically(H - LEGEND_H);
        grouped_bars(
            &top,
            "Strength-controlled mutual games",
            "share of games",
            &groups,
        )?;
        legend(
            &bottom,
            &[
                (
                    COLORS[0],
                    Mark::Square,
                    format!("Max_Moves 256, 2021-2023 (n = {n_a})"),
                ),
                (
                    COLORS[1],
                    Mark::Square,
                    format!("Max_Moves 512, 2024-2026 (n = {n_b})"),
                ),
            ],
        )?;
        Ok(())
    }
}

/// The histogram of the leading side's owned points in the cut mutual games (counts per
/// owned value and whether the other conditions hold).
struct OwnedHistogram<'a>(&'a DataFrame);

impl Figure for OwnedHistogram<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> PolarsResult<()> {
        let bins = owned_bins(self.0)?;
        let total: i64 = bins.iter().map(|b| b.0 + b.1).sum();
        let max = bins.iter().map(|b| b.0 + b.1).max().unwrap_or(0).max(1);
        root.fill(&WHITE).map_err(plot_err)?;
        let (top, bottom) = root.split_vertically(H - LEGEND_H);
        let top_y = max + max / 10 + 1;
        let mut chart = ChartBuilder::on(&top)
            .margin(10)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d((TOTAL / 2) as f64 - 0.5..TOTAL as f64 + 0.5, 0i64..top_y)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(8)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_labels(6)
            // A tick at the top of the frame is not labelled: its label would touch the title.
            .y_label_formatter(&|v| {
                if *v == top_y {
                    String::new()
                } else {
                    v.to_string()
                }
            })
            .x_desc(format!("owned points (the other side: {TOTAL} minus)"))
            .y_desc(format!("games (n = {total})"))
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 18))
            .draw()
            .map_err(plot_err)?;
        draw_owned_bars(&mut chart, &bins, top_y)?;
        legend(
            &bottom,
            &[
                (COLORS[0], Mark::Square, "conditions hold".to_string()),
                (COLORS[3], Mark::Square, "a condition fails".to_string()),
                (
                    COLORS[2],
                    Mark::Line,
                    "31 owned (a win needs 31 decl. points)".to_string(),
                ),
            ],
        )?;
        Ok(())
    }
}

/// Per owned value of the leading side (0 to the total): (games where the other
/// conditions hold, games where one fails).
fn owned_bins(counts: &DataFrame) -> PolarsResult<Vec<(i64, i64)>> {
    let owned = counts.column("owned")?.i64()?.clone();
    let cond = counts.column("conditions")?.bool()?.clone();
    let ns = counts.column("n")?.i64()?.clone();
    let mut bins = vec![(0i64, 0i64); TOTAL as usize + 1];
    for i in 0..counts.height() {
        if let (Some(o), Some(n)) = (owned.get(i), ns.get(i))
            && (0..=TOTAL).contains(&o)
        {
            if cond.get(i) == Some(true) {
                bins[o as usize].0 += n;
            } else {
                bins[o as usize].1 += n;
            }
        }
    }
    Ok(bins)
}

/// The stacked bars of the owned-points histogram and the line at the 24-point rule's win
/// threshold.
fn draw_owned_bars<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordi64>>,
    bins: &[(i64, i64)],
    top_y: i64,
) -> PolarsResult<()> {
    chart
        .draw_series(
            bins.iter()
                .enumerate()
                .filter(|(_, b)| b.0 > 0)
                .map(|(p, b)| {
                    let x = p as f64;
                    Rectangle::new([(x - 0.4, 0), (x + 0.4, b.0)], COLORS[0].filled())
                }),
        )
        .map_err(plot_err)?;
    chart
        .draw_series(
            bins.iter()
                .enumerate()
                .filter(|(_, b)| b.1 > 0)
                .map(|(p, b)| {
                    let x = p as f64;
                    Rectangle::new([(x - 0.4, b.0), (x + 0.4, b.0 + b.1)], COLORS[3].filled())
                }),
        )
        .map_err(plot_err)?;
    // 31 owned points: the 24-point rule's win threshold, which it counts in declaration
    // points (pieces in the zone and in hand), not owned points: owning 31 is needed,
    // not enough (below it both sides own 24 or more).
    let win = tables::RULE24_WIN as f64;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(win - 0.5, 0), (win - 0.5, top_y)],
            COLORS[2].stroke_width(2),
        )))
        .map_err(plot_err)?;
    Ok(())
}

/// The cells the cumulative-incidence figure draws, at most (greyscale tells four apart).
pub const INCIDENCE_CELLS: usize = 4;

/// The endings of the cumulative-incidence figure: table 7b's name and the axis label.
const INCIDENCE_ENDINGS: [(&str, &str); 2] = [
    ("declaration", "ended by declaration"),
    ("move_limit", "ended at the move limit"),
];

/// The dash (length, gap) of series `k`: solid for even `k` (one dash with no gap),
/// dashed for odd.
fn dash(k: usize) -> (u32, u32) {
    if k.is_multiple_of(2) {
        (1000, 0)
    } else {
        (7, 4)
    }
}

/// Marker `k` (circle, triangle, square, cross) at `p` on `area`.
fn series_marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    k: usize,
    p: CT::From,
    color: RGBColor,
) -> PolarsResult<()>
where
    CT::From: Clone + 'static,
{
    let at = EmptyElement::at(p);
    let r = match k % 4 {
        0 => area.draw(&(at + Circle::new((0, 0), 4, color.filled()))),
        1 => area.draw(&(at + TriangleMarker::new((0, 0), 6, color.filled()))),
        2 => area.draw(&(at + Rectangle::new([(-4, -4), (4, 4)], color.filled()))),
        _ => area.draw(&(at + Cross::new((0, 0), 5, color.stroke_width(2)))),
    };
    r.map_err(plot_err)
}

/// One line of the cumulative-incidence figure: its legend and its points (plies, share,
/// low, high) for each of [`INCIDENCE_ENDINGS`].
struct IncidenceCell {
    label: String,
    games: i64,
    points: [Vec<(f64, f64, f64, f64)>; 2],
}

/// The cells of table 7b, the [`INCIDENCE_CELLS`] with the most games (ties in the
/// table's order), in the table's order.
fn incidence_cells(df: &DataFrame) -> PolarsResult<Vec<IncidenceCell>> {
    let (era, mm) = (df.column("era")?.str()?, df.column("max_moves")?.str()?);
    let ending = df.column("ending")?.str()?;
    let plies = df.column("plies")?.i64()?;
    let games = df.column("games")?.i64()?;
    let f = |c: &str| -> PolarsResult<Float64Chunked> { Ok(df.column(c)?.f64()?.clone()) };
    let (v, lo, hi) = (
        f("incidence_share")?,
        f("incidence_share_lo")?,
        f("incidence_share_hi")?,
    );
    let mut cells: Vec<IncidenceCell> = Vec::new();
    for i in 0..df.height() {
        // `2014-2017` as `2014-17`: two legend entries a row.
        let period = era.get(i).unwrap_or("?");
        let short = match period.split_once('-') {
            Some((a, b)) if b.len() == 4 && b.is_ascii() => format!("{a}-{}", &b[2..]),
            _ => period.to_string(),
        };
        let label = format!("{short}, {}", mm.get(i).unwrap_or("?"));
        if cells.last().is_none_or(|c| c.label != label) {
            cells.push(IncidenceCell {
                label,
                games: games.get(i).unwrap_or(0),
                points: [Vec::new(), Vec::new()],
            });
        }
        let j = INCIDENCE_ENDINGS
            .iter()
            .position(|(e, _)| Some(*e) == ending.get(i));
        if let (Some(j), Some(cell)) = (j, cells.last_mut())
            && let (Some(x), Some(y), Some(l), Some(h)) =
                (plies.get(i), v.get(i), lo.get(i), hi.get(i))
        {
            cell.points[j].push((x as f64, y, l, h));
        }
    }
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(cells[i].games));
    order.truncate(INCIDENCE_CELLS);
    order.sort_unstable();
    let mut kept: Vec<Option<IncidenceCell>> = cells.into_iter().map(Some).collect();
    Ok(order.into_iter().filter_map(|i| kept[i].take()).collect())
}

/// The cumulative incidence of the endings after the first mutual entry (table 7b): a
/// panel per ending of [`INCIDENCE_ENDINGS`], a line per cell.
struct CohortIncidence<'a>(&'a DataFrame);

impl Figure for CohortIncidence<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> PolarsResult<()> {
        let cells = incidence_cells(self.0)?;
        root.fill(&WHITE).map_err(plot_err)?;
        let (top, bottom) = root.split_vertically(H - LEGEND_H);
        let (left, right) = top.split_horizontally(W / 2);
        for (j, panel) in [left, right].iter().enumerate() {
            incidence_panel(panel, &cells, j)?;
        }
        let items: Vec<LegendItem> = cells
            .iter()
            .enumerate()
            .map(|(k, c)| {
                (
                    COLORS[k % COLORS.len()],
                    Mark::Cell(k),
                    format!("{} (n = {})", c.label, c.games),
                )
            })
            .collect();
        legend(&bottom, &items)?;
        Ok(())
    }
}

/// One panel of the cumulative-incidence figure: ending `j` of every cell against plies
/// since the first mutual entry, a line, a marker and an error bar a point; the series
/// a few plies apart so that their bars do not overlap.
fn incidence_panel<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    cells: &[IncidenceCell],
    j: usize,
) -> PolarsResult<()> {
    let last = tables::INCIDENCE_PLIES.last().copied().unwrap_or(500) as f64;
    let mut chart = ChartBuilder::on(panel)
        .margin(10)
        .x_label_area_size(44)
        .y_label_area_size(66)
        .build_cartesian_2d(0.0..last + 40.0, -Y_PAD..(1.0 + Y_PAD))
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .x_labels(4)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_labels(6)
        .y_label_formatter(&percent_tick)
        .x_desc("plies since entry")
        .y_desc(INCIDENCE_ENDINGS[j].1)
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 18))
        .draw()
        .map_err(plot_err)?;
    for (k, cell) in cells.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let shift = (k as f64 - (cells.len() as f64 - 1.0) / 2.0) * 6.0;
        let pts: Vec<(f64, f64)> = cell.points[j].iter().map(|p| (p.0 + shift, p.1)).collect();
        let (d, gap) = dash(k);
        chart
            .draw_series(DashedLineSeries::new(
                pts.clone(),
                d,
                gap,
                color.stroke_width(2),
            ))
            .map_err(plot_err)?;
        chart
            .draw_series(cell.points[j].iter().map(|&(x, y, lo, hi)| {
                ErrorBar::new_vertical(x + shift, lo, y, hi, color.stroke_width(1), 6)
            }))
            .map_err(plot_err)?;
        for p in pts {
            series_marker(chart.plotting_area(), k, p, color)?;
        }
    }
    Ok(())
}
