//! The columns of the per-game table the report reads, by name, with the polars type
//! each must have. The names and kinds come from [`crate::game::row::COLUMNS`]; a test
//! checks every name here against that single definition.

use polars::prelude::*;

use super::error::ReportError;
use crate::game::row::{COLUMN_COUNT, COLUMNS, Cell, ColumnKind, GameRow};

/// `game_name`: the time-control part of the game id (`floodgate-300-10F`); see
/// [`GameRow::game_name`].
pub const GAME_NAME: &str = "game_name";
/// `year`: the year the game started; see [`GameRow::year`].
pub const YEAR: &str = "year";
/// `black`: Black's login name (`N+`); see [`GameRow::black`].
pub const BLACK: &str = "black";
/// `white`: White's login name (`N-`); see [`GameRow::white`].
pub const WHITE: &str = "white";
/// `black_rate`: Black's pre-game rating; see [`GameRow::black_rate`].
pub const BLACK_RATE: &str = "black_rate";
/// `white_rate`: White's pre-game rating; see [`GameRow::white_rate`].
pub const WHITE_RATE: &str = "white_rate";
/// `max_moves`: the record's `'Max_Moves` (0: no limit; null: no such line); see
/// [`GameRow::max_moves`].
pub const MAX_MOVES: &str = "max_moves";
/// `plies`: the number of move lines replayed; see [`GameRow::plies`].
pub const PLIES: &str = "plies";
/// `summary_reason`: the reason of the server's `'summary` (`toryo`, `kachi`, `max_moves`,
/// ...); see [`GameRow::summary_reason`].
pub const SUMMARY_REASON: &str = "summary_reason";
/// `status`: `ok`, or what is wrong with the record (`illegal_move`, `truncated`,
/// `no_summary`, ...); see [`GameRow::status`].
pub const STATUS: &str = "status";
/// `illegal_ply`: the first ply (1-based) whose move is illegal, null when none is; see
/// [`GameRow::illegal_ply`].
pub const ILLEGAL_PLY: &str = "illegal_ply";
/// `final_board`: the replayed final position against the trailer (`match`, `prelast`,
/// ...); see [`GameRow::final_board`].
pub const FINAL_BOARD: &str = "final_board";
/// `owned_black`: Black's owned points in the final position (board and hand); see
/// [`GameRow::owned_black`].
pub const OWNED_BLACK: &str = "owned_black";
/// `owned_white`: White's owned points in the final position (board and hand); see
/// [`GameRow::owned_white`].
pub const OWNED_WHITE: &str = "owned_white";
/// `decl_black`: Black's declaration points in the final position (enemy camp and hand);
/// see [`GameRow::decl_black`].
pub const DECL_BLACK: &str = "decl_black";
/// `decl_white`: White's declaration points in the final position (enemy camp and hand);
/// see [`GameRow::decl_white`].
pub const DECL_WHITE: &str = "decl_white";
/// `zone_black`: Black's non-king pieces in the enemy camp in the final position; see
/// [`GameRow::zone_black`].
pub const ZONE_BLACK: &str = "zone_black";
/// `zone_white`: White's non-king pieces in the enemy camp in the final position; see
/// [`GameRow::zone_white`].
pub const ZONE_WHITE: &str = "zone_white";
/// `king_in_camp_black`: Black's king on ranks 1-3 in the final position; see
/// [`GameRow::king_in_camp_black`].
pub const KING_IN_CAMP_BLACK: &str = "king_in_camp_black";
/// `king_in_camp_white`: White's king on ranks 7-9 in the final position; see
/// [`GameRow::king_in_camp_white`].
pub const KING_IN_CAMP_WHITE: &str = "king_in_camp_white";
/// `in_check_final`: the side to move is in check in the final position; see
/// [`GameRow::in_check_final`].
pub const IN_CHECK_FINAL: &str = "in_check_final";
/// `entering`: which kings have entered in the final position (`mutual`, `black_only`,
/// `white_only`, `none`); see [`GameRow::entering`].
pub const ENTERING: &str = "entering";
/// `rule27_final`: what a 27-point declaration would decide in the final position
/// (`black`, `white`, `none`); see [`GameRow::rule27_final`].
pub const RULE27_FINAL: &str = "rule27_final";
/// `rule24_final`: what a 24-point declaration would decide in the final position
/// (`black`, `white`, `draw`, `none`); see [`GameRow::rule24_final`].
pub const RULE24_FINAL: &str = "rule24_final";
/// `impasse24_final`: what a 24-point impasse adjudication would decide in the final
/// position (`black`, `white`, `draw`, `none`); see [`GameRow::impasse24_final`].
pub const IMPASSE24_FINAL: &str = "impasse24_final";
/// `mutual_sfen`: the SFEN of the first position with both kings in the enemy camp; see
/// [`GameRow::mutual_sfen`].
pub const MUTUAL_SFEN: &str = "mutual_sfen";
/// `judge_agrees`: the judge's verdict agrees with the summary (null: nothing to compare);
/// see [`GameRow::judge_agrees`].
pub const JUDGE_AGREES: &str = "judge_agrees";
/// `final_sfen`: the SFEN of the replayed final position; see [`GameRow::final_sfen`].
pub const FINAL_SFEN: &str = "final_sfen";

/// Every column the report reads.
pub const USED: &[&str] = &[
    GAME_NAME,
    YEAR,
    BLACK,
    WHITE,
    BLACK_RATE,
    WHITE_RATE,
    MAX_MOVES,
    PLIES,
    SUMMARY_REASON,
    STATUS,
    ILLEGAL_PLY,
    FINAL_BOARD,
    OWNED_BLACK,
    OWNED_WHITE,
    DECL_BLACK,
    DECL_WHITE,
    ZONE_BLACK,
    ZONE_WHITE,
    KING_IN_CAMP_BLACK,
    KING_IN_CAMP_WHITE,
    IN_CHECK_FINAL,
    ENTERING,
    RULE27_FINAL,
    RULE24_FINAL,
    IMPASSE24_FINAL,
    MUTUAL_SFEN,
    JUDGE_AGREES,
    FINAL_SFEN,
];

/// The polars type a column of this kind has in `games.parquet`.
pub fn dtype(kind: ColumnKind) -> DataType {
    match kind {
        ColumnKind::Str | ColumnKind::OptStr => DataType::String,
        ColumnKind::Int | ColumnKind::OptInt => DataType::Int64,
        ColumnKind::OptFloat => DataType::Float64,
        ColumnKind::Bool | ColumnKind::OptBool => DataType::Boolean,
    }
}

/// The kind of a column of the per-game table, by name.
pub fn kind(name: &str) -> Option<ColumnKind> {
    COLUMNS.iter().find(|c| c.name == name).map(|c| c.kind)
}

/// Check that `df` has every used column with its table type.
pub fn check(df: &DataFrame) -> Result<(), ReportError> {
    for &name in USED {
        let want = kind(name)
            .map(dtype)
            .ok_or_else(|| ReportError::BadColumn {
                name: name.to_string(),
                problem: "not a column of the per-game table".to_string(),
            })?;
        let got = df.column(name).map_err(|_| ReportError::BadColumn {
            name: name.to_string(),
            problem: "missing".to_string(),
        })?;
        // A column with no value at all may be stored untyped; anything else must match.
        if got.dtype() != &want && got.dtype() != &DataType::Null {
            return Err(ReportError::BadColumn {
                name: name.to_string(),
                problem: format!("type {} instead of {}", got.dtype(), want),
            });
        }
    }
    Ok(())
}

/// Expressions that give every used column its table type (for all-null columns).
pub fn typed() -> Vec<Expr> {
    USED.iter()
        .filter_map(|&name| kind(name).map(|k| col(name).cast(dtype(k))))
        .collect()
}

/// A games table in memory, with the same columns and types as `games.parquet`.
pub fn frame_from_rows(rows: &[GameRow]) -> PolarsResult<DataFrame> {
    let cells: Vec<[Cell<'_>; COLUMN_COUNT]> = rows.iter().map(GameRow::cells).collect();
    let mut columns = Vec::with_capacity(COLUMNS.len());
    for (j, c) in COLUMNS.iter().enumerate() {
        let name = PlSmallStr::from_static(c.name);
        let column = match c.kind {
            ColumnKind::Str | ColumnKind::OptStr => {
                let v: Vec<Option<&str>> = cells
                    .iter()
                    .map(|r| match r[j] {
                        Cell::Str(s) => s,
                        _ => None,
                    })
                    .collect();
                Column::new(name, v)
            }
            ColumnKind::Int | ColumnKind::OptInt => {
                let v: Vec<Option<i64>> = cells
                    .iter()
                    .map(|r| match r[j] {
                        Cell::Int(x) => x,
                        _ => None,
                    })
                    .collect();
                Column::new(name, v)
            }
            ColumnKind::OptFloat => {
                let v: Vec<Option<f64>> = cells
                    .iter()
                    .map(|r| match r[j] {
                        Cell::Float(x) => x,
                        _ => None,
                    })
                    .collect();
                Column::new(name, v)
            }
            ColumnKind::Bool | ColumnKind::OptBool => {
                let v: Vec<Option<bool>> = cells
                    .iter()
                    .map(|r| match r[j] {
                        Cell::Bool(x) => x,
                        _ => None,
                    })
                    .collect();
                Column::new(name, v)
            }
        };
        columns.push(column);
    }
    DataFrame::new(rows.len(), columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_used_column_is_in_the_table_definition() {
        for name in USED {
            assert!(kind(name).is_some(), "{name} is not in game::row::COLUMNS");
        }
    }
}
