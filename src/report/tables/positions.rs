//! Tables 6a-6c: the positions where both kings first stood in the enemy camp
//! (`mutual_sfen`): pieces and moves, per side, and the shortfall to a declaration.

use polars::prelude::*;

use super::super::columns::*;
use super::super::config::ReportConfig;
use super::super::positions;

/// The counts of every parseable `mutual_sfen` (positions that do not parse are left out).
fn mutual_counts(lf: LazyFrame) -> PolarsResult<Vec<positions::PositionCounts>> {
    use rayon::prelude::*;
    let df = lf
        .filter(col(MUTUAL_SFEN).is_not_null())
        .select([col(MUTUAL_SFEN)])
        .collect()?;
    let ca = df.column(MUTUAL_SFEN)?.str()?;
    let sfens: Vec<&str> = (0..ca.len()).filter_map(|i| ca.get(i)).collect();
    Ok(sfens
        .par_iter()
        .filter_map(|s| crate::shogi::Position::from_sfen(s).ok())
        .map(|p| positions::counts(&p))
        .collect())
}

pub(super) fn mutual_positions(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let (p, _) = positions::frames(&mutual_counts(lf)?)?;
    positions::summary(&p)
}

pub(super) fn mutual_position_sides(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let (_, s) = positions::frames(&mutual_counts(lf)?)?;
    positions::sides_summary(&s)
}

pub(super) fn mutual_shortfall(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let (_, s) = positions::frames(&mutual_counts(lf)?)?;
    positions::shortfall_distribution(&s)
}
