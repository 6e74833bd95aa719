//! Tables 7a and 7b: the games that were ever mutual, followed from the first ply at which
//! both kings stood in the enemy camps (`mutual_sfen`) to their end, whatever the final
//! position. `'Max_Moves` changes how such games end (a game mutual at ply 249 and
//! declared one-sided at ply 400 under a 512 limit would have been a mutual move-limit
//! game under 256), so a comparison of limits on the final position selects on the
//! outcome; this cohort is fixed before it.

use polars::prelude::*;

use super::super::columns::*;
use super::super::stats::with_intervals;
use super::expr::*;
use super::frame::{MUTUAL_PLY, era_label};
use crate::game::ServerReason;

/// The endings a game of the cohort can have, in the order of the tables: name and the
/// condition on the server's `'summary` reason.
fn endings() -> Vec<(&'static str, Expr)> {
    let named = [
        ("declaration", declaration_win()),
        (
            "invalid_declaration",
            is_one_of(SUMMARY_REASON, &[ServerReason::IllegalKachi]),
        ),
        ("move_limit", move_limit()),
        (
            "resignation",
            is_one_of(SUMMARY_REASON, &[ServerReason::Toryo]),
        ),
        (
            "repetition",
            is_one_of(SUMMARY_REASON, &ServerReason::REPETITION),
        ),
        ("time", is_one_of(SUMMARY_REASON, &[ServerReason::TimeUp])),
    ];
    let known = named
        .iter()
        .fold(lit(false), |acc, (_, e)| acc.or(e.clone()));
    let mut out: Vec<(&'static str, Expr)> = named.into_iter().collect();
    out.push(("other", known.not()));
    out
}

/// The cohort: games replayed to their end with a first mutual entry, with `era` and
/// `plies_after_entry` (plies from the first mutual entry to the end).
fn cohort(lf: LazyFrame) -> LazyFrame {
    lf.filter(ever_mutual())
        .with_columns([
            era_label().alias("era"),
            (col(PLIES).cast(DataType::Int64) - col(MUTUAL_PLY)).alias("plies_after_entry"),
            col(MAX_MOVES)
                .cast(DataType::String)
                .fill_null(lit("unknown"))
                .alias("max_moves_key"),
        ])
        .filter(col("era").is_not_null())
}

/// Table 7a: the cohort by period and `'Max_Moves`, how each game ended and how many plies
/// after its first mutual entry.
pub(super) fn cohort_endings(
    lf: LazyFrame,
    _: &super::super::config::ReportConfig,
) -> PolarsResult<DataFrame> {
    let ends = endings();
    let mut aggs = vec![games_count(), count_if(mutual()).alias("final_mutual")];
    for (name, cond) in &ends {
        aggs.push(count_if(cond.clone()).alias(*name));
    }
    aggs.push(
        col("plies_after_entry")
            .cast(DataType::Float64)
            .median()
            .alias("plies_after_entry_median"),
    );
    let mut shares = Vec::new();
    let mut order: Vec<Expr> = vec![
        col("era"),
        col("max_moves_key").alias("max_moves"),
        col("games"),
        col("final_mutual"),
    ];
    for (name, _) in &ends {
        let share = format!("{name}_share");
        shares.push(ratio(name, "games", &share));
        order.push(col(*name));
        order.push(col(share.as_str()));
    }
    order.push(col("plies_after_entry_median"));
    let df = cohort(lf)
        .group_by([col("era"), col(MAX_MOVES), col("max_moves_key")])
        .agg(aggs)
        .sort(
            ["era", MAX_MOVES],
            SortMultipleOptions::default().with_nulls_last(true),
        )
        .with_columns(shares)
        .select(order)
        .collect()?;
    let rates: Vec<(String, String)> = ends
        .iter()
        .map(|(name, _)| (name.to_string(), format!("{name}_share")))
        .collect();
    let triples: Vec<(&str, &str, &str)> = rates
        .iter()
        .map(|(n, s)| (n.as_str(), "games", s.as_str()))
        .collect();
    with_intervals(df, &triples)
}

/// The plies after the first mutual entry at which table 7b counts.
pub const INCIDENCE_PLIES: [i64; 6] = [50, 100, 200, 300, 400, 500];

/// Table 7b: the cumulative incidence of each ending by plies since the first mutual entry,
/// by period and `'Max_Moves`: the share of the cohort's games that had ended that way
/// within `plies` plies. Every game of the cohort has ended (no censoring), so the
/// competing-risks cumulative incidence is this empirical share, and at each `plies` the
/// endings' incidences and the games still going add up to 1.
pub(super) fn cohort_incidence(
    lf: LazyFrame,
    _: &super::super::config::ReportConfig,
) -> PolarsResult<DataFrame> {
    let ends = endings();
    let mut aggs = vec![games_count()];
    for (name, cond) in &ends {
        for t in INCIDENCE_PLIES {
            aggs.push(
                count_if(cond.clone().and(col("plies_after_entry").lt_eq(lit(t))))
                    .alias(format!("{name}@{t}")),
            );
        }
    }
    let wide = cohort(lf)
        .group_by([col("era"), col(MAX_MOVES), col("max_moves_key")])
        .agg(aggs)
        .sort(
            ["era", MAX_MOVES],
            SortMultipleOptions::default().with_nulls_last(true),
        )
        .collect()?;
    // One row per cell, ending and number of plies.
    let (eras, mms) = (
        wide.column("era")?.str()?.clone(),
        wide.column("max_moves_key")?.str()?.clone(),
    );
    let games = wide.column("games")?.i64()?.clone();
    let (mut e, mut m, mut end, mut plies, mut n, mut k) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for i in 0..wide.height() {
        for (name, _) in &ends {
            for t in INCIDENCE_PLIES {
                e.push(eras.get(i).map(str::to_string));
                m.push(mms.get(i).map(str::to_string));
                end.push(*name);
                plies.push(t);
                n.push(games.get(i));
                k.push(wide.column(&format!("{name}@{t}"))?.i64()?.get(i));
            }
        }
    }
    let h = e.len();
    let df = DataFrame::new(
        h,
        vec![
            Column::new("era".into(), e),
            Column::new("max_moves".into(), m),
            Column::new("ending".into(), end),
            Column::new("plies".into(), plies),
            Column::new("games".into(), n),
            Column::new("ended".into(), k),
        ],
    )?
    .lazy()
    .with_column(ratio("ended", "games", "incidence_share"))
    .collect()?;
    with_intervals(df, &[("ended", "games", "incidence_share")])
}
