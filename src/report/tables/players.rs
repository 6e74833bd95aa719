//! Tables 8a-8e, who played: the engines and engine pairs with the most games, with their
//! games of the ever-mutual cohort (table 7a's: a first mutual entry, whatever the final
//! position) and how many of those ended in a declaration win; the distinct engines of
//! each year; and the headline comparison (table 3j's primary row, on the games ever
//! mutual) by time control and across rating pools and percentiles.

use polars::prelude::*;

use super::super::columns::*;
use super::super::config::{RatingPool, ReportConfig};
use super::super::stats::with_intervals;
use super::expr::*;
use super::strength::{COMPARISON_CELLS, primary_comparison};

/// Rows of tables 8a and 8b: the engines (pairs) with the most games.
pub const TOP_ENGINES: u32 = 20;

/// Rows of table 8d: the time controls with the most games.
pub const TOP_TIME_CONTROLS: u32 = 8;

/// The percentiles of table 8e.
pub const SENSITIVITY_PERCENTILES: [f64; 3] = [50.0, 75.0, 90.0];

/// The counts of tables 8a and 8b per `key`: games, ever-mutual games, their declaration
/// wins and its rate with the Wilson interval, the `TOP_ENGINES` keys with the most
/// games (ties by name).
fn by_player(lf: LazyFrame, key: &str) -> PolarsResult<DataFrame> {
    let df = lf
        .filter(col(key).is_not_null())
        .group_by([col(key)])
        .agg([
            games_count(),
            count_if(ever_mutual()).alias("ever_mutual"),
            count_if(ever_mutual().and(declaration_win())).alias("decl_wins"),
        ])
        .sort(
            ["games", key],
            SortMultipleOptions::default().with_order_descending_multi([true, false]),
        )
        .limit(TOP_ENGINES)
        .with_column(ratio("decl_wins", "ever_mutual", "ever_mutual_decl_rate"))
        .collect()?;
    with_intervals(df, &[("decl_wins", "ever_mutual", "ever_mutual_decl_rate")])
}

/// Table 8a: each engine's games (as Black or as White).
pub(super) fn engines(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let side = |name: &str| {
        lf.clone()
            .with_column(col(name).cast(DataType::String).alias("engine"))
    };
    let both = concat([side(BLACK), side(WHITE)], UnionArgs::default())?;
    by_player(both, "engine")
}

/// Table 8b: each unordered pair of engines' games (`A – B`, the names in sorting
/// order; no pair without both names).
pub(super) fn engine_pairs(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let mut df = lf.collect()?;
    let b = df.column(BLACK)?.cast(&DataType::String)?;
    let w = df.column(WHITE)?.cast(&DataType::String)?;
    let (b, w) = (b.str()?, w.str()?);
    let pairs: Vec<Option<String>> = (0..df.height())
        .map(|i| match (b.get(i), w.get(i)) {
            (Some(x), Some(y)) if x <= y => Some(format!("{x} – {y}")),
            (Some(x), Some(y)) => Some(format!("{y} – {x}")),
            _ => None,
        })
        .collect();
    df.with_column(Column::new("pair".into(), pairs))?;
    by_player(df.lazy(), "pair")
}

/// Table 8c: the distinct engines that played each year, and the games.
pub(super) fn engines_by_year(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let side = |name: &str| {
        lf.clone().select([
            col(YEAR).cast(DataType::Int64),
            col(name).cast(DataType::String).alias("engine"),
        ])
    };
    let names = concat([side(BLACK), side(WHITE)], UnionArgs::default())?
        .filter(col("engine").is_not_null())
        .group_by([col(YEAR)])
        .agg([col("engine")
            .n_unique()
            .cast(DataType::Int64)
            .alias("engines")]);
    lf.group_by([col(YEAR).cast(DataType::Int64)])
        .agg([games_count()])
        .join(
            names,
            [col(YEAR)],
            [col(YEAR)],
            JoinArgs::new(JoinType::Left),
        )
        .with_columns([
            col("engines").fill_null(lit(0i64)),
            col(YEAR).cast(DataType::String).fill_null(lit("unknown")),
        ])
        .select([col(YEAR), col("games"), col("engines")])
        .sort([YEAR], SortMultipleOptions::default())
        .collect()
}

/// The columns of the headline comparison kept in tables 8d and 8e.
const HEADLINE: [&str; 15] = [
    "a_games",
    "a_count",
    "a_rate",
    "a_rate_lo",
    "a_rate_hi",
    "b_games",
    "b_count",
    "b_rate",
    "b_rate_lo",
    "b_rate_hi",
    "rate_diff",
    "rate_diff_lo",
    "rate_diff_hi",
    "test",
    "test_p",
];

/// Table 3j's primary row (the controlled declaration-win rate, cell A against cell B)
/// of `lf` under `config`, its [`HEADLINE`] columns after the key columns `keys`.
fn headline_row(
    lf: LazyFrame,
    config: &ReportConfig,
    keys: &[(&str, String)],
) -> PolarsResult<DataFrame> {
    let df = primary_comparison(lf, config)?;
    let mut select: Vec<Expr> = keys.iter().map(|(k, v)| lit(v.clone()).alias(*k)).collect();
    select.extend(HEADLINE.iter().map(|c| col(*c)));
    df.lazy()
        .filter(col("role").eq(lit("primary")))
        .select(select)
        .collect()
}

/// Whether either cell of table 3j has a game ever mutual: without one there is no
/// headline to recompute (tables 8d and 8e are then empty).
fn cells_have_games(lf: &LazyFrame) -> PolarsResult<bool> {
    let in_cells = COMPARISON_CELLS
        .iter()
        .fold(lit(false), |acc, (_, first, last, mm)| {
            acc.or(col(YEAR)
                .gt_eq(lit(*first))
                .and(col(YEAR).lt_eq(lit(*last)))
                .and(col(MAX_MOVES).eq(lit(*mm))))
        });
    let df = lf
        .clone()
        .select([count_if(in_cells.and(ever_mutual())).alias("n")])
        .collect()?;
    Ok(df.column("n")?.i64()?.get(0).unwrap_or(0) > 0)
}

/// Tables 8d and 8e without rows: their key columns and [`HEADLINE`]'s, typed.
fn no_headline(keys: &[&str]) -> PolarsResult<DataFrame> {
    let mut columns: Vec<Column> = keys
        .iter()
        .map(|k| Column::new_empty((*k).into(), &DataType::String))
        .collect();
    for c in HEADLINE {
        let dtype = match c {
            "a_games" | "a_count" | "b_games" | "b_count" => DataType::Int64,
            "test" => DataType::String,
            _ => DataType::Float64,
        };
        columns.push(Column::new_empty(c.into(), &dtype));
    }
    DataFrame::new(0, columns)
}

fn stack(frames: Vec<DataFrame>) -> PolarsResult<DataFrame> {
    let mut out: Option<DataFrame> = None;
    for df in frames {
        out = Some(match out {
            None => df,
            Some(acc) => acc.vstack(&df)?,
        });
    }
    Ok(out.unwrap_or_default())
}

/// Table 8d: the headline within each time control (the game name), each with its own
/// rating pool (as `--game-name` would), for the time controls with the most games.
pub(super) fn headline_by_time_control(
    lf: LazyFrame,
    config: &ReportConfig,
) -> PolarsResult<DataFrame> {
    if !cells_have_games(&lf)? {
        return no_headline(&["game_name"]);
    }
    let names = lf
        .clone()
        .filter(col(GAME_NAME).is_not_null())
        .group_by([col(GAME_NAME).cast(DataType::String)])
        .agg([games_count()])
        .sort(
            ["games", GAME_NAME],
            SortMultipleOptions::default().with_order_descending_multi([true, false]),
        )
        .limit(TOP_TIME_CONTROLS)
        .collect()?;
    let names = names.column(GAME_NAME)?.str()?.clone();
    let mut frames = Vec::new();
    for name in (0..names.len()).filter_map(|i| names.get(i)) {
        let games = lf
            .clone()
            .filter(col(GAME_NAME).cast(DataType::String).eq(lit(name)));
        frames.push(headline_row(
            games,
            config,
            &[("game_name", name.to_string())],
        )?);
    }
    if frames.is_empty() {
        return no_headline(&["game_name"]);
    }
    stack(frames)
}

/// Table 8e: the headline under every rating pool and the percentiles
/// [`SENSITIVITY_PERCENTILES`].
pub(super) fn headline_sensitivity(
    lf: LazyFrame,
    config: &ReportConfig,
) -> PolarsResult<DataFrame> {
    if !cells_have_games(&lf)? {
        return no_headline(&["pool", "percentile"]);
    }
    let mut frames = Vec::new();
    for pool in [RatingPool::Year, RatingPool::Entering, RatingPool::Players] {
        for percentile in SENSITIVITY_PERCENTILES {
            let c = ReportConfig {
                pool,
                percentile,
                ..config.clone()
            };
            let keys = [
                ("pool", pool.name().to_string()),
                ("percentile", format!("{percentile:.0}")),
            ];
            frames.push(headline_row(lf.clone(), &c, &keys)?);
        }
    }
    stack(frames)
}
