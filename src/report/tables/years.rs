//! Table 1: games by year (replayed or not, entering classes, final boards, points, the
//! judge).

use polars::prelude::*;

use super::super::columns::*;
use super::super::config::ReportConfig;
use super::expr::*;
use crate::game::{Entering, FinalBoard};
use crate::shogi::TOTAL_OWNED_POINTS;

/// The columns of table 1.
fn family() -> Family {
    let replayed = replayed();
    let has_final = col(FINAL_SFEN).is_not_null();
    let board = |outcomes: &[FinalBoard]| is_one_of(FINAL_BOARD, outcomes);
    let columns = vec![
        ("games", games_count()),
        ("not_replayed", count_if(replayed.clone().not())),
        ("illegal_move", count_if(col(ILLEGAL_PLY).is_not_null())),
        ("mutual", count_if(mutual())),
        ("one_sided", count_if(one_sided())),
        (
            "no_entering",
            count_if(is_one_of(ENTERING, &[Entering::Neither]).and(replayed)),
        ),
        ("board_compared", count_if(board(&FinalBoard::COMPARED))),
        ("board_matched", count_if(board(&FinalBoard::AGREED))),
        (
            "entering_board_compared",
            count_if(entering_king().and(board(&FinalBoard::COMPARED))),
        ),
        (
            "entering_board_matched",
            count_if(entering_king().and(board(&FinalBoard::AGREED))),
        ),
        ("points_checked", count_if(has_final.clone())),
        (
            "points_violations",
            count_if(has_final.and(
                (col(OWNED_BLACK) + col(OWNED_WHITE)).neq(lit(i64::from(TOTAL_OWNED_POINTS))),
            )),
        ),
        ("judged", count_if(col(JUDGE_AGREES).is_not_null())),
        (
            "judge_disagreements",
            count_if(col(JUDGE_AGREES).eq(lit(false))),
        ),
    ];
    Family {
        columns: columns
            .into_iter()
            .map(|(n, e)| (n.to_string(), e))
            .collect(),
        rates: vec![
            Rate::bare("not_replayed", "games", "not_replayed_share"),
            Rate::bare("mutual", "games", "mutual_share"),
            Rate::bare("one_sided", "games", "one_sided_share"),
            Rate::bare("no_entering", "games", "no_entering_share"),
            Rate::new("board_matched", "board_compared", "board_match_rate"),
            Rate::new(
                "entering_board_matched",
                "entering_board_compared",
                "entering_board_match_rate",
            ),
        ],
    }
}

pub(super) fn years(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    family().keyed(lf, col(YEAR), "year")
}
