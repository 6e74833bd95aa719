//! The tables as data files for other tools: what pandas, pyarrow or R read without
//! cleaning.
//!
//! A table computed for reading (`report.md`, LaTeX) keeps its `all` total row and its
//! group keys as text. Its files do not: the total rows go to a file of their own
//! (`NAME_total`), the data rows keep one typed column per key (`year` and `max_moves` as
//! integers, a missing value as null), and the long form (`NAME_long`) has one row per
//! data row and rate with one column per key, the population (`controlled` or `raw`) in
//! its own column rather than as a `raw_` prefix of the measure, and the rate's count,
//! denominator and 95% interval. The long form of table 3e has a row per cell and one for
//! their difference, with its test.
//!
//! Parquet files carry their Arrow schema with plain (not view) strings, so pyarrow reads
//! the text columns as `large_string`, which its compute functions and pandas compare.

use polars::prelude::*;

use super::format::rate_parts;
use super::model::Table;
use super::tables::COMPARISON_CELLS;

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
    if table.spec.name == "era_comparison" {
        return comparison_long(&table.data);
    }
    let (df, _) = split_totals(&table.data)?;
    let keys = key_columns(&df);
    let rate_cols: Vec<(String, &str, &str)> = df
        .columns()
        .iter()
        .filter_map(|c| {
            let name = c.name().as_str();
            let (k, n) = rate_parts(name)?;
            let has = |s: &str| df.column(s).is_ok();
            (has(&format!("{name}_lo")) && has(k) && has(n)).then(|| (name.to_string(), k, n))
        })
        .collect();
    // A family with controlled and `raw_` columns gets a population column.
    let has_raw = rate_cols.iter().any(|(r, _, _)| r.starts_with("raw_"));
    let population = |rate: &str| -> Option<&'static str> {
        if !has_raw {
            None
        } else if rate.starts_with("raw_") {
            Some("raw")
        } else if rate_cols
            .iter()
            .any(|(r, _, _)| *r == format!("raw_{rate}"))
        {
            Some("controlled")
        } else {
            None
        }
    };
    let mut rows: Vec<IdxSize> = Vec::new();
    let (mut pops, mut measures) = (Vec::<Option<&str>>::new(), Vec::<String>::new());
    let (mut counts, mut ns) = (Vec::<Option<i64>>::new(), Vec::<Option<i64>>::new());
    let mut values: [Vec<Option<f64>>; 3] = Default::default();
    let int = |c: &str| -> PolarsResult<Int64Chunked> {
        Ok(df.column(c)?.cast(&DataType::Int64)?.i64()?.clone())
    };
    let float = |c: &str| -> PolarsResult<Float64Chunked> {
        Ok(df.column(c)?.cast(&DataType::Float64)?.f64()?.clone())
    };
    let mut columns = Vec::new();
    for (rate, k, n) in &rate_cols {
        columns.push((
            rate.as_str(),
            population(rate),
            int(k)?,
            int(n)?,
            [
                float(rate)?,
                float(&format!("{rate}_lo"))?,
                float(&format!("{rate}_hi"))?,
            ],
        ));
    }
    for i in 0..df.height() {
        for (rate, pop, k, n, v) in &columns {
            rows.push(i as IdxSize);
            pops.push(*pop);
            measures.push(rate.strip_prefix("raw_").unwrap_or(rate).to_string());
            counts.push(k.get(i));
            ns.push(n.get(i));
            for (out, col) in values.iter_mut().zip(v) {
                out.push(col.get(i));
            }
        }
    }
    let h = rows.len();
    let idx = IdxCa::from_vec("row".into(), rows);
    let mut out = vec![Column::new("table".into(), vec![table.spec.name; h])];
    for k in &keys {
        out.push(df.column(k)?.take(&idx)?);
    }
    if has_raw {
        out.push(Column::new("population".into(), pops));
    }
    let [rate, lo, hi] = values;
    out.extend([
        Column::new("measure".into(), measures),
        Column::new("count".into(), counts),
        Column::new("n".into(), ns),
        Column::new("rate".into(), rate),
        Column::new("lo".into(), lo),
        Column::new("hi".into(), hi),
    ]);
    DataFrame::new(h, out)
}

/// Table 3e in long form: for each comparison (`measure`, `population`, `role`), a row
/// per cell (`cell` `a` or `b`, with its `era` and `max_moves`, `count`, `n`, the rate as
/// `value` and its Wilson interval, the distinct `engines` and `pairs`, the interval
/// clustered by engine pair and the `design_effect`) and a row for the difference (`cell`
/// `a_minus_b`, the difference as `value`, its interval and its clustered interval, `test`,
/// `p`, `p_log10`, `holm_family`, `holm_p`).
fn comparison_long(df: &DataFrame) -> PolarsResult<DataFrame> {
    let text = |c: &str| -> PolarsResult<StringChunked> { Ok(df.column(c)?.str()?.clone()) };
    let int = |c: &str| -> PolarsResult<Int64Chunked> {
        Ok(df.column(c)?.cast(&DataType::Int64)?.i64()?.clone())
    };
    let float = |c: &str| -> PolarsResult<Float64Chunked> {
        Ok(df.column(c)?.cast(&DataType::Float64)?.f64()?.clone())
    };
    let (measure, population, role, test) = (
        text("measure")?,
        text("population")?,
        text("role")?,
        text("test")?,
    );
    let (family, a_n, a_k, b_n, b_k) = (
        int("holm_family")?,
        int("a_games")?,
        int("a_count")?,
        int("b_games")?,
        int("b_count")?,
    );
    let f = |c: &str| float(c);
    let (a, a_lo, a_hi, b, b_lo, b_hi) = (
        f("a_rate")?,
        f("a_rate_lo")?,
        f("a_rate_hi")?,
        f("b_rate")?,
        f("b_rate_lo")?,
        f("b_rate_hi")?,
    );
    let (a_cl, b_cl, d_cl) = (
        [
            f("a_rate_cl_lo")?,
            f("a_rate_cl_hi")?,
            f("a_design_effect")?,
        ],
        [
            f("b_rate_cl_lo")?,
            f("b_rate_cl_hi")?,
            f("b_design_effect")?,
        ],
        [f("rate_diff_cl_lo")?, f("rate_diff_cl_hi")?],
    );
    let (a_struct, b_struct) = (
        [int("a_engines")?, int("a_pairs")?],
        [int("b_engines")?, int("b_pairs")?],
    );
    let (d, d_lo, d_hi, p, p_log10, holm) = (
        f("rate_diff")?,
        f("rate_diff_lo")?,
        f("rate_diff_hi")?,
        f("test_p")?,
        f("test_p_log10")?,
        f("holm_p")?,
    );
    #[derive(Default)]
    struct Out {
        measure: Vec<Option<String>>,
        population: Vec<Option<String>>,
        role: Vec<Option<String>>,
        cell: Vec<&'static str>,
        era: Vec<Option<String>>,
        max_moves: Vec<Option<i64>>,
        count: Vec<Option<i64>>,
        n: Vec<Option<i64>>,
        value: Vec<Option<f64>>,
        lo: Vec<Option<f64>>,
        hi: Vec<Option<f64>>,
        engines: Vec<Option<i64>>,
        pairs: Vec<Option<i64>>,
        lo_clustered: Vec<Option<f64>>,
        hi_clustered: Vec<Option<f64>>,
        design_effect: Vec<Option<f64>>,
        test: Vec<Option<String>>,
        p: Vec<Option<f64>>,
        p_log10: Vec<Option<f64>>,
        family: Vec<Option<i64>>,
        holm: Vec<Option<f64>>,
    }
    let mut o = Out::default();
    let era = |i: usize| {
        let (_, first, last, mm) = COMPARISON_CELLS[i];
        (Some(format!("{first}-{last}")), Some(mm))
    };
    for i in 0..df.height() {
        let cells = [
            (
                "a",
                era(0),
                a_k.get(i),
                a_n.get(i),
                [a.get(i), a_lo.get(i), a_hi.get(i)],
            ),
            (
                "b",
                era(1),
                b_k.get(i),
                b_n.get(i),
                [b.get(i), b_lo.get(i), b_hi.get(i)],
            ),
            (
                "a_minus_b",
                (None, None),
                None,
                None,
                [d.get(i), d_lo.get(i), d_hi.get(i)],
            ),
        ];
        let clustered = [
            (
                [a_struct[0].get(i), a_struct[1].get(i)],
                [a_cl[0].get(i), a_cl[1].get(i), a_cl[2].get(i)],
            ),
            (
                [b_struct[0].get(i), b_struct[1].get(i)],
                [b_cl[0].get(i), b_cl[1].get(i), b_cl[2].get(i)],
            ),
            ([None, None], [d_cl[0].get(i), d_cl[1].get(i), None]),
        ];
        for ((cell, (e, mm), k, n, [v, lo, hi]), ([engines, pairs], [cl_lo, cl_hi, deff])) in
            cells.into_iter().zip(clustered)
        {
            let diff = cell == "a_minus_b";
            o.engines.push(engines);
            o.pairs.push(pairs);
            o.lo_clustered.push(cl_lo);
            o.hi_clustered.push(cl_hi);
            o.design_effect.push(deff);
            o.measure.push(measure.get(i).map(str::to_string));
            o.population.push(population.get(i).map(str::to_string));
            o.role.push(role.get(i).map(str::to_string));
            o.cell.push(cell);
            o.era.push(e);
            o.max_moves.push(mm);
            o.count.push(k);
            o.n.push(n);
            o.value.push(v);
            o.lo.push(lo);
            o.hi.push(hi);
            o.test
                .push(diff.then(|| test.get(i).map(str::to_string)).flatten());
            o.p.push(diff.then(|| p.get(i)).flatten());
            o.p_log10.push(diff.then(|| p_log10.get(i)).flatten());
            o.family.push(diff.then(|| family.get(i)).flatten());
            o.holm.push(diff.then(|| holm.get(i)).flatten());
        }
    }
    let h = o.cell.len();
    DataFrame::new(
        h,
        vec![
            Column::new("table".into(), vec!["era_comparison"; h]),
            Column::new("measure".into(), o.measure),
            Column::new("population".into(), o.population),
            Column::new("role".into(), o.role),
            Column::new("cell".into(), o.cell),
            Column::new("era".into(), o.era),
            Column::new("max_moves".into(), o.max_moves),
            Column::new("count".into(), o.count),
            Column::new("n".into(), o.n),
            Column::new("value".into(), o.value),
            Column::new("lo".into(), o.lo),
            Column::new("hi".into(), o.hi),
            Column::new("engines".into(), o.engines),
            Column::new("pairs".into(), o.pairs),
            Column::new("lo_clustered".into(), o.lo_clustered),
            Column::new("hi_clustered".into(), o.hi_clustered),
            Column::new("design_effect".into(), o.design_effect),
            Column::new("test".into(), o.test),
            Column::new("p".into(), o.p),
            Column::new("p_log10".into(), o.p_log10),
            Column::new("holm_family".into(), o.family),
            Column::new("holm_p".into(), o.holm),
        ],
    )
}

/// The `ARROW:schema` key-value pair of a Parquet file holding `df`, with strings as plain
/// `large_string` (polars writes the view type, which pyarrow reads as `string_view`).
pub fn arrow_schema_plain_strings(df: &DataFrame) -> (String, String) {
    let schema = df.schema().to_arrow(CompatLevel::oldest());
    let kv = polars_parquet::arrow::write::schema_to_metadata_key(&schema);
    (kv.key, kv.value.unwrap_or_default())
}
