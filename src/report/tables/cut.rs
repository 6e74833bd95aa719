//! The cut mutual games (mutual entering-king games the move limit ended) and table 4,
//! their funnel towards a 24-point declaration; the rule facts the tables 4 and 5 test,
//! as column literals.

use polars::prelude::*;

use super::super::columns::*;
use super::super::config::ReportConfig;
use super::expr::*;
use crate::game::words::CUT_MUTUAL;
use crate::shogi::{
    DECLARATION_ZONE_PIECES, RULE24_DRAW_POINTS, RULE24_LAST_MOVE as RULE24_LAST_MOVE_NUMBER,
    RULE24_WIN_POINTS, TOTAL_OWNED_POINTS,
};

/// Mutual entering-king games ended by the move limit: the game step's [`CUT_MUTUAL`]
/// selection, as an expression.
pub fn cut_mutual_games(lf: LazyFrame) -> LazyFrame {
    lf.filter(selection(&CUT_MUTUAL))
}

/// The 24-point rule's move-number clause: the SFEN move number is at most this.
pub const RULE24_LAST_MOVE: i64 = RULE24_LAST_MOVE_NUMBER as i64;

/// Declaration points that win under the 24-point rule (either side).
pub const RULE24_WIN: i64 = RULE24_WIN_POINTS as i64;

/// Own non-king pieces in the enemy camp a declaration needs.
pub const ZONE_PIECES: i64 = DECLARATION_ZONE_PIECES as i64;

/// Owned points for a 24-point draw (and in an impasse under the 24-point rule).
pub const RULE24_DRAW: i64 = RULE24_DRAW_POINTS as i64;

/// Owned points of both sides together in a game with every piece (the core's
/// [`TOTAL_OWNED_POINTS`]): so at most one side owns more than half.
pub const TOTAL_POINTS: i64 = TOTAL_OWNED_POINTS as i64;

/// One row per cut mutual game (see [`cut_mutual_games`]), its *leading side*: the side
/// owning more points (Black on a 27-27 tie, which passes no stage). Columns `max_moves`,
/// `owned`, `decl`, `zone`, `king_in_camp`, `in_check`, `move_number` of that side, and
/// `zone10_any` (either side has 10 or more pieces in the enemy camp).
pub fn cut_games(lf: LazyFrame) -> LazyFrame {
    let black_leads = col(OWNED_BLACK)
        .fill_null(lit(0i64))
        .gt_eq(col(OWNED_WHITE).fill_null(lit(0i64)));
    let pick = |b: &str, w: &str| when(black_leads.clone()).then(col(b)).otherwise(col(w));
    let in_check = when(black_leads.clone())
        .then(col(IN_CHECK_FINAL).and(black_to_move()))
        .otherwise(col(IN_CHECK_FINAL).and(black_to_move().not()));
    cut_mutual_games(lf).select([
        col(MAX_MOVES),
        pick(OWNED_BLACK, OWNED_WHITE).alias("owned"),
        pick(DECL_BLACK, DECL_WHITE).alias("decl"),
        pick(ZONE_BLACK, ZONE_WHITE).alias("zone"),
        pick(KING_IN_CAMP_BLACK, KING_IN_CAMP_WHITE).alias("king_in_camp"),
        in_check.alias("in_check"),
        (col(PLIES) + lit(1i64)).alias("move_number"),
        col(ZONE_BLACK)
            .gt_eq(lit(ZONE_PIECES))
            .or(col(ZONE_WHITE).gt_eq(lit(ZONE_PIECES)))
            .fill_null(lit(false))
            .alias("zone10_any"),
    ])
}

/// The columns of table 4: each stage of the funnel counted, with its share of the games
/// and its pass rate from the previous stage.
fn funnel_family() -> Family {
    let half = TOTAL_POINTS / 2;
    let owned31 = col("owned").gt_eq(lit(RULE24_WIN));
    let decl31 = owned31.clone().and(col("decl").gt_eq(lit(RULE24_WIN)));
    let zone10 = decl31.clone().and(col("zone").gt_eq(lit(ZONE_PIECES)));
    let board = zone10
        .clone()
        .and(col("king_in_camp"))
        .and(col("in_check").not());
    let declarable = board
        .clone()
        .and(col("move_number").lt_eq(lit(RULE24_LAST_MOVE)));
    let stranded = owned31.clone().and(col("decl").lt(lit(RULE24_WIN)));
    let columns = vec![
        ("games", games_count()),
        ("owned_over27", count_if(col("owned").gt(lit(half)))),
        ("owned31", count_if(owned31)),
        ("decl31", count_if(decl31)),
        ("decl31_zone10", count_if(zone10)),
        ("declarable_board", count_if(board)),
        ("declarable", count_if(declarable)),
        ("zone10", count_if(col("zone10_any"))),
        (
            "stranded_median",
            (col("owned") - col("decl")).filter(stranded).median(),
        ),
    ];
    // Shares of `games`; `*_pass` of the previous stage.
    let rates = vec![
        Rate::new("owned_over27", "games", "owned_over27_share"),
        Rate::new("owned31", "games", "owned31_share"),
        Rate::new("decl31", "games", "decl31_share"),
        Rate::new("decl31", "owned31", "decl31_pass"),
        Rate::new("decl31_zone10", "games", "decl31_zone10_share"),
        Rate::new("decl31_zone10", "decl31", "decl31_zone10_pass"),
        Rate::new("declarable_board", "games", "declarable_board_share"),
        Rate::new("declarable_board", "decl31_zone10", "declarable_board_pass"),
        Rate::new("declarable", "games", "declarable_share"),
        Rate::new("declarable", "declarable_board", "declarable_pass"),
        Rate::new("zone10", "games", "zone10_share"),
    ];
    Family {
        columns: columns
            .into_iter()
            .map(|(n, e)| (n.to_string(), e))
            .collect(),
        rates,
    }
}

pub(super) fn funnel(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    funnel_family().keyed(cut_games(lf), col(MAX_MOVES), "max_moves")
}
