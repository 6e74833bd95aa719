//! Table 5: the cut mutual games judged by other rules (27-point, 24-point, impasse), as
//! if the game had been adjudicated in its final position. The verdicts are the scan's
//! columns (`rule27_final`, `rule24_final`, `impasse24_final`), decided by the core; this
//! table only counts them.

use polars::prelude::*;

use super::super::columns::*;
use super::super::config::ReportConfig;
use super::super::stats::with_intervals;
use super::cut::cut_mutual_games;
use super::expr::*;
use crate::game::words::RuleVerdict;

/// The rules of table 5: the `rule` cell and the column holding its verdict.
const RULES: [(&str, &str); 3] = [
    ("27-point", RULE27_FINAL),
    ("24-point", RULE24_FINAL),
    ("impasse", IMPASSE24_FINAL),
];

/// The counted columns of one rule, in the table's order.
const COUNTS: [&str; 6] = [
    "games",
    "black_win",
    "white_win",
    "decisive",
    "draw",
    "unchanged",
];

pub(super) fn counterfactual(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let cut = cut_mutual_games(lf);
    let mut out: Option<DataFrame> = None;
    for (rule, column) in RULES {
        let df = one_rule(cut.clone(), rule, column)?;
        out = Some(match out {
            None => df,
            Some(acc) => acc.vstack(&df)?,
        });
    }
    Ok(out.unwrap_or_default())
}

/// The rows of one rule: its verdicts counted per `Max_Moves` and in all.
fn one_rule(cut: LazyFrame, rule: &str, column: &str) -> PolarsResult<DataFrame> {
    let is = |v: RuleVerdict| is_one_of(column, &[v]);
    let aggs = vec![
        games_count(),
        count_if(is(RuleVerdict::Black)).alias("black_win"),
        count_if(is(RuleVerdict::White)).alias("white_win"),
        count_if(is(RuleVerdict::Draw)).alias("draw"),
        count_if(
            is_one_of(
                column,
                &[RuleVerdict::Black, RuleVerdict::White, RuleVerdict::Draw],
            )
            .not(),
        )
        .alias("unchanged"),
    ];
    let finish = vec![(col("black_win") + col("white_win")).alias("decisive")];
    let df = keyed(cut, col(MAX_MOVES), "max_moves", aggs, finish, &COUNTS)?
        .lazy()
        .with_columns([
            lit(rule).alias("rule"),
            ratio("decisive", "games", "decisive_share"),
        ])
        .select([
            col("max_moves"),
            col("rule"),
            col("games"),
            col("black_win"),
            col("white_win"),
            col("draw"),
            col("unchanged"),
            col("decisive"),
            col("decisive_share"),
        ])
        .collect()?;
    with_intervals(df, &[("decisive", "games", "decisive_share")])
}
