//! The expressions every table family is made of (the populations and endings the
//! captions name), and [`Family`]: a family's counted columns and its one list of rates,
//! from which the aggregations, the rate columns, their intervals and the column order
//! are all made.

use polars::prelude::*;

use super::super::columns::*;
use super::super::stats::with_intervals;
use super::frame::{BLACK_TO_MOVE, MUTUAL_PLY};
use crate::game::words::Selection;
use crate::game::{Entering, ServerReason, Status};

/// `name` equals the word of one of `values` (null is false).
pub(super) fn is_one_of<W: Copy + Into<&'static str>>(name: &str, values: &[W]) -> Expr {
    values.iter().fold(lit(false), |acc, &v| {
        acc.or(col(name).eq(lit(v.into())).fill_null(lit(false)))
    })
}

/// The games a [`Selection`] of the game step takes: its status, entering class and
/// summary reason each one of its words (a null selects nothing), the same test as
/// [`Selection::matches`].
pub(super) fn selection(s: &Selection) -> Expr {
    is_one_of(STATUS, s.status)
        .and(is_one_of(ENTERING, s.entering))
        .and(is_one_of(SUMMARY_REASON, s.reason))
}

/// Number of rows where `cond` holds (null counts as false).
pub(super) fn count_if(cond: Expr) -> Expr {
    cond.fill_null(lit(false)).cast(DataType::Int64).sum()
}

/// `num / den` as a float, null when `den` is 0.
pub(super) fn ratio(num: &str, den: &str, name: &str) -> Expr {
    when(col(den).gt(lit(0i64)))
        .then(col(num).cast(DataType::Float64) / col(den).cast(DataType::Float64))
        .otherwise(lit(NULL).cast(DataType::Float64))
        .alias(name)
}

pub(super) fn games_count() -> Expr {
    len().cast(DataType::Int64).alias("games")
}

pub(super) fn declaration_win() -> Expr {
    is_one_of(SUMMARY_REASON, &[ServerReason::Kachi])
}

pub(super) fn move_limit() -> Expr {
    is_one_of(SUMMARY_REASON, &ServerReason::MOVE_LIMIT)
}

/// The record was replayed to its end (`status` `ok`, `illegal_move` or `no_summary`), so
/// its final position is the game's: only such a game has an entering class; a game not
/// replayed to its end is counted apart (table 1's `not_replayed`), never by the last
/// position reached.
pub(super) fn replayed() -> Expr {
    is_one_of(STATUS, &Status::REPLAYED)
}

pub(super) fn mutual() -> Expr {
    is_one_of(ENTERING, &[Entering::Mutual]).and(replayed())
}

/// A game of the ever-mutual cohort: replayed to its end, with a first mutual entry
/// (`mutual_sfen`), whatever its final position.
pub(super) fn ever_mutual() -> Expr {
    replayed().and(col(MUTUAL_PLY).is_not_null())
}

/// A one-sided entering-king game: exactly one king in the enemy camp at the end.
pub(super) fn one_sided() -> Expr {
    is_one_of(ENTERING, &Entering::ONE_SIDED).and(replayed())
}

/// An entering-king game: the final position is mutual or one-sided.
pub(super) fn entering_king() -> Expr {
    is_one_of(ENTERING, &Entering::ENTERING_KING).and(replayed())
}

/// Black is to move in the final position.
pub(super) fn black_to_move() -> Expr {
    col(BLACK_TO_MOVE).fill_null(lit(false))
}

/// Group by `key` (sorted, nulls last as `unknown`), add an `all` row, then add the
/// `finish` columns and order the columns as `order` (after the key).
pub(super) fn keyed(
    lf: LazyFrame,
    key: Expr,
    key_name: &str,
    aggs: Vec<Expr>,
    finish: Vec<Expr>,
    order: &[&str],
) -> PolarsResult<DataFrame> {
    let groups = lf
        .clone()
        .group_by([key.alias(key_name)])
        .agg(aggs.clone())
        .sort(
            [key_name],
            SortMultipleOptions::default().with_nulls_last(true),
        )
        .with_column(
            col(key_name)
                .cast(DataType::String)
                .fill_null(lit("unknown")),
        );
    let mut total = vec![lit("all").alias(key_name)];
    total.extend(aggs);
    let total = lf.select(total);
    let mut select = vec![col(key_name)];
    select.extend(order.iter().map(|c| col(*c)));
    concat([groups, total], UnionArgs::default())?
        .with_columns(finish)
        .select(select)
        .collect()
}

/// A rate column: `count / of`, named `name` (null where `of` is 0); with `interval`, followed
/// by its 95% Wilson score interval (`NAME_lo`, `NAME_hi`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Rate {
    pub count: String,
    pub of: String,
    pub name: String,
    pub interval: bool,
}

impl Rate {
    /// A rate with its interval.
    pub fn new(count: &str, of: &str, name: &str) -> Rate {
        Rate {
            count: count.into(),
            of: of.into(),
            name: name.into(),
            interval: true,
        }
    }

    /// A rate without an interval.
    pub fn bare(count: &str, of: &str, name: &str) -> Rate {
        Rate {
            interval: false,
            ..Rate::new(count, of, name)
        }
    }

    /// The rate's expression.
    pub fn expr(&self) -> Expr {
        ratio(&self.count, &self.of, &self.name)
    }
}

/// The columns of a table family: the aggregated columns in order (counts, and any other
/// aggregate), and the rates. Each aggregated column is followed by the rates it is the
/// count of, in the order of `rates`.
pub(super) struct Family {
    pub columns: Vec<(String, Expr)>,
    pub rates: Vec<Rate>,
}

impl Family {
    /// The aggregations, each named.
    pub fn aggs(&self) -> Vec<Expr> {
        self.columns
            .iter()
            .map(|(n, e)| e.clone().alias(n.as_str()))
            .collect()
    }

    /// The rate columns, computed after the aggregation.
    pub fn finish(&self) -> Vec<Expr> {
        self.rates.iter().map(Rate::expr).collect()
    }

    /// The names of the aggregated columns.
    pub fn names(&self) -> Vec<&str> {
        self.columns.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The column order: each aggregated column, then its rates.
    pub fn order(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for (n, _) in &self.columns {
            out.push(n.as_str());
            out.extend(
                self.rates
                    .iter()
                    .filter(|r| r.count == *n)
                    .map(|r| r.name.as_str()),
            );
        }
        out
    }

    /// (count, denominator, rate) of the rates with an interval.
    pub fn intervals(&self) -> Vec<(&str, &str, &str)> {
        self.rates
            .iter()
            .filter(|r| r.interval)
            .map(|r| (r.count.as_str(), r.of.as_str(), r.name.as_str()))
            .collect()
    }

    /// Add the intervals of the rates that have one.
    pub fn with_intervals(&self, df: DataFrame) -> PolarsResult<DataFrame> {
        with_intervals(df, &self.intervals())
    }

    /// [`keyed`] by `key` with this family's columns, then the intervals.
    pub fn keyed(&self, lf: LazyFrame, key: Expr, key_name: &str) -> PolarsResult<DataFrame> {
        let df = keyed(lf, key, key_name, self.aggs(), self.finish(), &self.order())?;
        self.with_intervals(df)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family() -> Family {
        Family {
            columns: vec![
                ("games".into(), games_count()),
                ("a".into(), count_if(col("x").gt(lit(1i64)))),
                ("b".into(), count_if(col("x").gt(lit(2i64)))),
            ],
            rates: vec![
                Rate::new("a", "games", "a_share"),
                Rate::bare("b", "games", "b_share"),
                Rate::new("b", "a", "b_pass"),
            ],
        }
    }

    #[test]
    fn a_family_orders_each_count_before_its_rates() {
        let f = family();
        assert_eq!(f.names(), ["games", "a", "b"]);
        assert_eq!(
            f.order(),
            ["games", "a", "a_share", "b", "b_share", "b_pass"]
        );
        assert_eq!(
            f.intervals(),
            [("a", "games", "a_share"), ("b", "a", "b_pass")]
        );
    }

    #[test]
    fn a_family_table_has_its_counts_rates_and_intervals() {
        let df = df!("k" => [1i64, 1, 2], "x" => [1i64, 2, 3]).unwrap();
        let t = family().keyed(df.lazy(), col("k"), "key").unwrap();
        let names: Vec<&str> = t.get_column_names().iter().map(|n| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "key",
                "games",
                "a",
                "a_share",
                "a_share_lo",
                "a_share_hi",
                "b",
                "b_share",
                "b_pass",
                "b_pass_lo",
                "b_pass_hi"
            ]
        );
        let key: Vec<Option<&str>> = t.column("key").unwrap().str().unwrap().iter().collect();
        assert_eq!(key, [Some("1"), Some("2"), Some("all")]);
        let a: Vec<Option<i64>> = t.column("a").unwrap().i64().unwrap().iter().collect();
        assert_eq!(a, [Some(1), Some(1), Some(2)]);
        let pass: Vec<Option<f64>> = t.column("b_pass").unwrap().f64().unwrap().iter().collect();
        assert_eq!(pass, [Some(0.0), Some(1.0), Some(0.5)]);
    }
}
