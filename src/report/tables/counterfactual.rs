//! Table 5: the cut mutual games judged by other rules (27-point, 24-point, impasse), as
//! if the game had been adjudicated in its final position.

use polars::prelude::*;

use super::super::ReportConfig;
use super::super::columns::*;
use super::super::stats::with_intervals;
use super::cut::{
    RULE24_DRAW, RULE24_LAST_MOVE, RULE24_WIN, ZONE_PIECES, cut_mutual_games, rule27_win,
};
use super::expr::*;
use crate::shogi::Color;

/// Whether one side may declare with at least `points` declaration points in the final
/// position.
fn can_declare(black: bool, min_points: i64) -> Expr {
    let (d, z, k) = if black {
        (DECL_BLACK, ZONE_BLACK, KING_IN_CAMP_BLACK)
    } else {
        (DECL_WHITE, ZONE_WHITE, KING_IN_CAMP_WHITE)
    };
    let to_move = if black {
        black_to_move()
    } else {
        black_to_move().not()
    };
    let in_check = col(IN_CHECK_FINAL).and(to_move);
    col(k)
        .and(in_check.not())
        .and(col(z).gt_eq(lit(ZONE_PIECES)))
        .and(col(d).gt_eq(lit(min_points)))
}

pub(super) fn counterfactual(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let cut = cut_mutual_games(lf);
    let within_500 = (col(PLIES) + lit(1i64)).lt_eq(lit(RULE24_LAST_MOVE));
    let impasse_ok = col(IN_CHECK_FINAL).not();
    let ob = || col(OWNED_BLACK).gt_eq(lit(RULE24_DRAW));
    let ow = || col(OWNED_WHITE).gt_eq(lit(RULE24_DRAW));
    // (rule, black wins, white wins, draw)
    let rules: Vec<(&str, Expr, Expr, Expr)> = vec![
        (
            "27-point",
            can_declare(true, rule27_win(Color::Black)),
            can_declare(false, rule27_win(Color::White)),
            lit(false),
        ),
        (
            "24-point",
            can_declare(true, RULE24_WIN).and(within_500.clone()),
            can_declare(false, RULE24_WIN).and(within_500.clone()),
            can_declare(true, RULE24_DRAW)
                .or(can_declare(false, RULE24_DRAW))
                .and(within_500)
                .and(can_declare(true, RULE24_WIN).not())
                .and(can_declare(false, RULE24_WIN).not()),
        ),
        (
            "impasse",
            impasse_ok.clone().and(ob()).and(ow().not()),
            impasse_ok.clone().and(ow()).and(ob().not()),
            impasse_ok.and(ob()).and(ow()),
        ),
    ];
    let mut out: Option<DataFrame> = None;
    for (rule, bw, ww, draw) in rules {
        let lf = cut.clone().with_columns([
            bw.fill_null(lit(false)).alias("bw"),
            ww.fill_null(lit(false)).alias("ww"),
            draw.fill_null(lit(false)).alias("dr"),
        ]);
        let aggs = vec![
            games_count(),
            count_if(col("bw")).alias("black_win"),
            count_if(col("ww")).alias("white_win"),
            count_if(col("dr")).alias("draw"),
            count_if(col("bw").or(col("ww")).or(col("dr")).not()).alias("unchanged"),
        ];
        let finish = vec![(col("black_win") + col("white_win")).alias("decisive")];
        let df = keyed(
            lf,
            col(MAX_MOVES),
            "max_moves",
            aggs,
            finish,
            &[
                "games",
                "black_win",
                "white_win",
                "decisive",
                "draw",
                "unchanged",
            ],
        )?
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
        let df = with_intervals(df, &[("decisive", "games", "decisive_share")])?;
        out = Some(match out {
            None => df,
            Some(acc) => acc.vstack(&df)?,
        });
    }
    Ok(out.unwrap_or_default())
}
