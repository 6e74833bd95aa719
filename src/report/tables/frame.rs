//! The games table as every table reads it ([`prepared`]: the used columns typed, with
//! the derived columns of the side to move and of the first mutual entry's ply), and the
//! study periods ([`ERAS`]).

use polars::prelude::*;

use super::super::columns::*;

/// The games table with every used column typed and the derived side-to-move column.
pub fn prepared(games: &DataFrame) -> PolarsResult<LazyFrame> {
    let mut games = games.clone();
    let stm = side_to_move_column(&games)?;
    games.with_column(stm)?;
    let ply = mutual_ply_column(&games)?;
    games.with_column(ply)?;
    Ok(games.lazy().with_columns(typed()))
}

/// Name of the derived column: the ply after which both kings first stood in the enemy
/// camps (the SFEN move number of `mutual_sfen` less one); null without one.
pub(super) const MUTUAL_PLY: &str = "mutual_ply";

/// The first mutual entry's ply, from the move-number field of `mutual_sfen`.
fn mutual_ply_column(games: &DataFrame) -> PolarsResult<Column> {
    let sfen = games.column(MUTUAL_SFEN)?.cast(&DataType::String)?;
    let s = sfen.str()?;
    let v: Vec<Option<i64>> = (0..games.height())
        .map(|i| {
            s.get(i)
                .and_then(|x| x.split_whitespace().nth(3))
                .and_then(|n| n.parse::<i64>().ok())
                .map(|n| n - 1)
        })
        .collect();
    Ok(Column::new(MUTUAL_PLY.into(), v))
}

/// Name of the derived column: Black is to move in the final position.
pub(super) const BLACK_TO_MOVE: &str = "black_to_move_final";

/// Black to move in the final position: the side-to-move field of `final_sfen`, else
/// (no final position) Black after an even number of plies.
fn side_to_move_column(games: &DataFrame) -> PolarsResult<Column> {
    let sfen = games.column(FINAL_SFEN)?.cast(&DataType::String)?;
    let plies = games.column(PLIES)?.cast(&DataType::Int64)?;
    let (s, p) = (sfen.str()?, plies.i64()?);
    let v: Vec<Option<bool>> = (0..games.height())
        .map(
            |i| match s.get(i).and_then(|x| x.split_whitespace().nth(1)) {
                Some("b") => Some(true),
                Some("w") => Some(false),
                _ => p.get(i).map(|n| n % 2 == 0),
            },
        )
        .collect();
    Ok(Column::new(BLACK_TO_MOVE.into(), v))
}

/// The study periods of table 3b: label, first year, last year.
pub const ERAS: &[(&str, i64, i64)] = &[
    ("2008-2013", 2008, 2013),
    ("2014-2017", 2014, 2017),
    ("2018-2020", 2018, 2020),
    ("2021-2023", 2021, 2023),
    ("2024-2026", 2024, 2026),
];

/// The period of a game's year (table 3b's), null outside them.
pub(super) fn era_label() -> Expr {
    ERAS.iter()
        .rev()
        .fold(lit(NULL).cast(DataType::String), |acc, (label, a, b)| {
            when(col(YEAR).gt_eq(lit(*a)).and(col(YEAR).lt_eq(lit(*b))))
                .then(lit(*label))
                .otherwise(acc)
        })
}
