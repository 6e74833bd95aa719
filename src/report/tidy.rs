//! The tables as data files for other tools: what pandas, pyarrow or R read without
//! cleaning.
//!
//! A table computed for reading (`report.md`, LaTeX) keeps its `all` total row and its
//! group keys as text. Its files do not: the total rows go to a file of their own
//! (`NAME_total`), the data rows keep one typed column per key (`year` and `max_moves` as
//! integers, a missing value as null), and the long form (`NAME_long`) has one row per
//! data row and rate with one column per key, the population (`controlled` or `raw`) in
//! its own column rather than as a `raw_` prefix of the measure, and the rate's count,
//! denominator and 95% interval. The long form of tables 3e and 3j has a row per cell and one for
//! their difference, with its test.
//!
//! Parquet files carry their Arrow schema with plain (not view) strings, so pyarrow reads
//! the text columns as `large_string`, which its compute functions and pandas compare.

use polars::prelude::*;

use super::format::rate_parts;
use super::model::Table;
use super::tables::{COMPARISON_CELLS, COMPARISON_TABLES};

/// The key value of a total row.
pub const TOTAL: &str = "all";

/// Key columns whose values are numbers, written as integers (`unknown` as null).
const NUMERIC_KEYS: [&str; 3] = ["year", "max_moves", "plies"];

/// The text columns of a table that identify its rows (the group keys), in order.
fn key_columns(df: &DataFrame) -> Vec<String> {
    df.columns()
        .iter()
        .filter(|c| {
            matches!(c.dtype(), DataType::String) || NUMERIC_KEYS.contains(&c.name().as_str())
        })
        .map(|c| c.name().to_string())
        .collect()
}

/// The table's data rows with typed keys, and its total rows (those with a key `all`)
/// without the key columns that read `all`; `None` when it has none.
pub fn split_totals(df: &DataFrame) -> PolarsResult<(DataFrame, Option<DataFrame>)> {
    let keys = key_columns(df);
    let mut total = BooleanChunked::full("total".into(), false, df.height());
    let mut total_keys = Vec::new();
    for k in &keys {
        let Ok(text) = df.column(k)?.str() else {
            continue;
        };
        let is_total = text.equal(TOTAL).fill_null_with_values(false)?;
        if is_total.any() {
            total_keys.push(k.clone());
        }
        total = &total | &is_total;
    }
    let mut data = df.filter(&!&total)?;
    for k in NUMERIC_KEYS {
        if let Ok(c) = data.column(k)
            && c.dtype() == &DataType::String
        {
            let typed = c.cast(&DataType::Int64)?;
            data.with_column(typed)?;
        }
    }
    let totals = if total.any() {
        Some(df.filter(&total)?.drop_many(&total_keys))
    } else {
        None
    };
    Ok((data, totals))
}

/// The table's rates in long form (see the module notes); empty when it has no rate with
/// an interval.
pub fn long(table: &Table) -> PolarsResult<DataFrame> {
    if COMPARISON_TABLES.contains(&table.spec.name) {
        return comparison_long(&table.data, table.spec.name);
    }
    let (df, _) = split_totals(&table.data)?;
    let rates = rate_columns(&df);
    // A family with controlled and `raw_` columns gets a population column.
    let has_raw = rates.iter().any(|(r, _, _)| r.starts_with("raw_"));
    let g = gather_rates(&df, &rates, has_raw)?;
    let h = g.rows.len();
    let idx = IdxCa::from_vec("row".into(), g.rows);
    let mut out = vec![Column::new("table".into(), vec![table.spec.name; h])];
    for k in &key_columns(&df) {
        out.push(df.column(k)?.take(&idx)?);
    }
    if has_raw {
        out.push(Column::new("population".into(), g.populations));
    }
    let [rate, lo, hi] = g.values;
    out.extend([
        Column::new("measure".into(), g.measures),
        Column::new("count".into(), g.counts),
        Column::new("n".into(), g.ns),
        Column::new("rate".into(), rate),
        Column::new("lo".into(), lo),
        Column::new("hi".into(), hi),
    ]);
    DataFrame::new(h, out)
}

/// The rate columns of `df` that have an interval and whose count and denominator are
/// columns too: (rate, count, denominator).
fn rate_columns(df: &DataFrame) -> Vec<(String, &'static str, &'static str)> {
    df.columns()
        .iter()
        .filter_map(|c| {
            let name = c.name().as_str();
            let (k, n) = rate_parts(name)?;
            let has = |s: &str| df.column(s).is_ok();
            (has(&format!("{name}_lo")) && has(k) && has(n)).then(|| (name.to_string(), k, n))
        })
        .collect()
}

/// The population of a rate in a family with `raw_` columns: `raw` for those, `controlled`
/// for a rate that has a `raw_` twin, else none.
fn population_of(
    rate: &str,
    rates: &[(String, &str, &str)],
    has_raw: bool,
) -> Option<&'static str> {
    if !has_raw {
        None
    } else if rate.starts_with("raw_") {
        Some("raw")
    } else if rates.iter().any(|(r, _, _)| *r == format!("raw_{rate}")) {
        Some("controlled")
    } else {
        None
    }
}

/// The long rows of a table: one per row and rate, with the row it came from.
#[derive(Default)]
struct LongRates {
    rows: Vec<IdxSize>,
    populations: Vec<Option<&'static str>>,
    measures: Vec<String>,
    counts: Vec<Option<i64>>,
    ns: Vec<Option<i64>>,
    /// The rate and its interval's bounds.
    values: [Vec<Option<f64>>; 3],
}

fn gather_rates(
    df: &DataFrame,
    rates: &[(String, &'static str, &'static str)],
    has_raw: bool,
) -> PolarsResult<LongRates> {
    let int = |c: &str| -> PolarsResult<Int64Chunked> {
        Ok(df.column(c)?.cast(&DataType::Int64)?.i64()?.clone())
    };
    let float = |c: &str| -> PolarsResult<Float64Chunked> {
        Ok(df.column(c)?.cast(&DataType::Float64)?.f64()?.clone())
    };
    let mut columns = Vec::new();
    for (rate, k, n) in rates {
        columns.push((
            rate.as_str(),
            population_of(rate, rates, has_raw),
            int(k)?,
            int(n)?,
            [
                float(rate)?,
                float(&format!("{rate}_lo"))?,
                float(&format!("{rate}_hi"))?,
            ],
        ));
    }
    let mut g = LongRates::default();
    for i in 0..df.height() {
        for (rate, pop, k, n, v) in &columns {
            g.rows.push(i as IdxSize);
            g.populations.push(*pop);
            g.measures
                .push(rate.strip_prefix("raw_").unwrap_or(rate).to_string());
            g.counts.push(k.get(i));
            g.ns.push(n.get(i));
            for (out, col) in g.values.iter_mut().zip(v) {
                out.push(col.get(i));
            }
        }
    }
    Ok(g)
}

/// The long columns of table 3e after `cell`, `era` and `max_moves`, with their types.
const COMPARISON_LONG: [(&str, LongKind); 15] = [
    ("count", LongKind::Int),
    ("n", LongKind::Int),
    ("value", LongKind::Float),
    ("lo", LongKind::Float),
    ("hi", LongKind::Float),
    ("engines", LongKind::Int),
    ("pairs", LongKind::Int),
    ("lo_clustered", LongKind::Float),
    ("hi_clustered", LongKind::Float),
    ("design_effect", LongKind::Float),
    ("test", LongKind::Text),
    ("p", LongKind::Float),
    ("p_log10", LongKind::Float),
    ("holm_family", LongKind::Int),
    ("holm_p", LongKind::Float),
];

#[derive(Clone, Copy)]
enum LongKind {
    Int,
    Float,
    Text,
}

/// Per long row of a comparison, in order: the `cell`, and the wide column each of
/// [`COMPARISON_LONG`] is read from (`None`: null).
const COMPARISON_SOURCES: [(&str, [Option<&str>; 15]); 3] = [
    (
        "a",
        [
            Some("a_count"),
            Some("a_games"),
            Some("a_rate"),
            Some("a_rate_lo"),
            Some("a_rate_hi"),
            Some("a_engines"),
            Some("a_pairs"),
            Some("a_rate_cl_lo"),
            Some("a_rate_cl_hi"),
            Some("a_design_effect"),
            None,
            None,
            None,
            None,
            None,
        ],
    ),
    (
        "b",
        [
            Some("b_count"),
            Some("b_games"),
            Some("b_rate"),
            Some("b_rate_lo"),
            Some("b_rate_hi"),
            Some("b_engines"),
            Some("b_pairs"),
            Some("b_rate_cl_lo"),
            Some("b_rate_cl_hi"),
            Some("b_design_effect"),
            None,
            None,
            None,
            None,
            None,
        ],
    ),
    (
        "a_minus_b",
        [
            None,
            None,
            Some("rate_diff"),
            Some("rate_diff_lo"),
            Some("rate_diff_hi"),
            None,
            None,
            Some("rate_diff_cl_lo"),
            Some("rate_diff_cl_hi"),
            None,
            Some("test"),
            Some("test_p"),
            Some("test_p_log10"),
            Some("holm_family"),
            Some("holm_p"),
        ],
    ),
];

/// Table 3e (or 3j, named `table`) in long form: for each comparison (`measure`, `population`, `role`), a row
/// per cell (`cell` `a` or `b`, with its `era` and `max_moves`, `count`, `n`, the rate as
/// `value` and its Wilson interval, the distinct `engines` and `pairs`, the interval
/// clustered by engine pair and the `design_effect`) and a row for the difference (`cell`
/// `a_minus_b`, the difference as `value`, its interval and its clustered interval, `test`,
/// `p`, `p_log10`, `holm_family`, `holm_p`).
fn comparison_long(df: &DataFrame, table: &str) -> PolarsResult<DataFrame> {
    let mut out: Option<DataFrame> = None;
    for (order, (cell, sources)) in COMPARISON_SOURCES.iter().enumerate() {
        let (era, max_moves) = match COMPARISON_CELLS.get(order) {
            Some((_, first, last, mm)) => (
                lit(format!("{first}-{last}")),
                lit(*mm).cast(DataType::Int64),
            ),
            None => (
                lit(NULL).cast(DataType::String),
                lit(NULL).cast(DataType::Int64),
            ),
        };
        let mut select = vec![
            col("_row"),
            lit(order as i64).cast(DataType::Int64).alias("_cell"),
            lit(table).alias("table"),
            col("measure"),
            col("population"),
            col("role"),
            lit(*cell).alias("cell"),
            era.alias("era"),
            max_moves.alias("max_moves"),
        ];
        for ((name, kind), source) in COMPARISON_LONG.iter().zip(sources) {
            let dtype = match kind {
                LongKind::Int => DataType::Int64,
                LongKind::Float => DataType::Float64,
                LongKind::Text => DataType::String,
            };
            let value = source.map_or(lit(NULL), col);
            select.push(value.cast(dtype).alias(*name));
        }
        let part = df
            .clone()
            .lazy()
            .with_row_index("_row", None)
            .select(select)
            .collect()?;
        out = Some(match out {
            None => part,
            Some(acc) => acc.vstack(&part)?,
        });
    }
    let Some(all) = out else {
        return Ok(DataFrame::empty());
    };
    Ok(all
        .lazy()
        .sort(["_row", "_cell"], SortMultipleOptions::default())
        .collect()?
        .drop_many(["_row", "_cell"]))
}

/// The `ARROW:schema` key-value pair of a Parquet file holding `df`, with strings as plain
/// `large_string` (polars writes the view type, which pyarrow reads as `string_view`).
pub fn arrow_schema_plain_strings(df: &DataFrame) -> (String, String) {
    let schema = df.schema().to_arrow(CompatLevel::oldest());
    let kv = polars_parquet::arrow::write::schema_to_metadata_key(&schema);
    (kv.key, kv.value.unwrap_or_default())
}
