//! How a table's cells are written, for every writer (Markdown, LaTeX, the tidy data
//! files): the words of percentages, differences, p-values and booleans, which columns a
//! table shows, and which counts a rate is made of.

use polars::prelude::*;

use super::model::Table;

fn is_percentage(name: &str) -> bool {
    let name = name
        .strip_suffix("_lo")
        .or_else(|| name.strip_suffix("_hi"))
        .unwrap_or(name);
    name.ends_with("_share") || name.ends_with("_rate") || name.ends_with("_pass")
}

fn is_difference(name: &str) -> bool {
    name.strip_suffix("_lo")
        .or_else(|| name.strip_suffix("_hi"))
        .unwrap_or(name)
        .ends_with("_diff")
}

/// A proportion as a percentage with `decimals` decimals; a value strictly between 0 and 1
/// that would round to 0 or 100 prints as `<0.1%` or `>99.9%` (for one decimal), so that a
/// single mismatch never reads as 100%.
pub fn percentage(x: f64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", x * 100.0);
    let step = 10f64.powi(-(decimals as i32));
    if x > 0.0 && x < 1.0 {
        if text.parse::<f64>().ok() == Some(100.0) {
            return format!(">{:.decimals$}%", 100.0 - step);
        }
        if text.parse::<f64>().ok() == Some(0.0) {
            return format!("<{step:.decimals$}%");
        }
    }
    format!("{text}%")
}

/// A p-value: three significant digits, in scientific notation below 0.001. A p-value
/// too small for an `f64` is printed from its base-10 logarithm by [`p_value_log10`];
/// here (without one) an exact 0 is printed as `< 1e-300`.
pub fn p_value(p: f64) -> String {
    if p == 0.0 {
        "< 1e-300".to_string()
    } else if p < 0.001 {
        format!("{p:.2e}")
    } else {
        // The decimals of the value rounded to three significant digits (0.99996 -> 1.00).
        let rounded: f64 = format!("{p:.2e}").parse().unwrap_or(p);
        let decimals = (2 - rounded.log10().floor() as i32).max(0) as usize;
        format!("{rounded:.decimals$}")
    }
}

/// A p-value given by its base-10 logarithm: as [`p_value`] down to 1e-300, below it as
/// mantissa and exponent computed from the logarithm (`1.07e-427`), never as 0.
pub fn p_value_log10(l: f64) -> String {
    if l == f64::NEG_INFINITY {
        return "0".to_string();
    }
    if l >= -300.0 {
        return p_value(10f64.powf(l));
    }
    let mut e = l.floor();
    let mut m = 10f64.powf(l - e);
    if format!("{m:.2}") == "10.00" {
        m = 1.0;
        e += 1.0;
    }
    format!("{m:.2}e{e:.0}")
}

/// Format one cell for Markdown.
pub fn cell(name: &str, v: &AnyValue<'_>) -> String {
    match v {
        AnyValue::Null => "–".to_string(),
        AnyValue::Boolean(b) => if *b { "yes" } else { "" }.to_string(),
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        AnyValue::Float64(x) if is_percentage(name) && name.contains("match_rate") => {
            percentage(*x, 2)
        }
        AnyValue::Float64(x) if is_percentage(name) => percentage(*x, 1),
        AnyValue::Float64(x) if is_difference(name) => format!("{:+.1} pp", x * 100.0),
        AnyValue::Float64(x) if name.ends_with("_p") => p_value(*x),
        AnyValue::Float64(x) => format!("{x:.1}"),
        AnyValue::Float32(x) => format!("{x:.1}"),
        other => other.to_string(),
    }
}

/// The columns a table shows in `report.md` and LaTeX: its spec's main measures (those
/// the table has), or every column. A rate's interval bounds and a p-value's logarithm
/// are shown with it, never as columns of their own.
pub fn shown_columns(table: &Table) -> Vec<String> {
    let df = &table.data;
    if !table.spec.shown.is_empty() {
        return table
            .spec
            .shown
            .iter()
            .filter(|c| df.column(c).is_ok())
            .map(|c| c.to_string())
            .collect();
    }
    own_columns(df)
}

/// The columns of `df` less those shown with another: a rate's interval bounds
/// (`X_lo`, `X_hi` beside `X`) and a p-value's logarithm (`X_log10` beside `X`).
pub fn own_columns(df: &DataFrame) -> Vec<String> {
    let has = |n: &str| df.column(n).is_ok();
    df.columns()
        .iter()
        .map(|c| c.name().as_str())
        .filter(|name| {
            let base = name
                .strip_suffix("_lo")
                .or_else(|| name.strip_suffix("_hi"));
            !base.is_some_and(|b| has(b) && has(&format!("{b}_lo")) && has(&format!("{b}_hi")))
                && !name.strip_suffix("_log10").is_some_and(has)
        })
        .map(str::to_string)
        .collect()
}

/// The count and denominator of a rate column with a Wilson interval (`NAME_lo`,
/// `NAME_hi`): every `(count, denominator, rate)` given to
/// [`super::stats::with_intervals`] and the cells of table 3e. `None` for a column that is
/// not such a rate.
pub fn rate_parts(rate: &str) -> Option<(&'static str, &'static str)> {
    Some(match rate {
        "not_replayed_share" => ("not_replayed", "games"),
        "board_match_rate" => ("board_matched", "board_compared"),
        "entering_board_match_rate" => ("entering_board_matched", "entering_board_compared"),
        "valid_decl_share" => ("valid_decl", "games"),
        "invalid_decl_share" => ("invalid_decl", "games"),
        "move_limit_share" => ("move_limit", "games"),
        "decl_win_rate" => ("decl_wins", "games"),
        "move_limit_rate" => ("move_limit", "games"),
        "low_side_share" => ("low_side", "move_limit"),
        "raw_decl_win_rate" => ("raw_decl_wins", "raw_games"),
        "raw_move_limit_rate" => ("raw_move_limit", "raw_games"),
        "raw_low_side_share" => ("raw_low_side", "raw_move_limit"),
        "pool_at_or_above_share" => ("pool_at_or_above", "pool_ratings"),
        "a_rate" => ("a_count", "a_games"),
        "b_rate" => ("b_count", "b_games"),
        "owned_over27_share" => ("owned_over27", "games"),
        "owned31_share" => ("owned31", "games"),
        "decl31_share" => ("decl31", "games"),
        "decl31_pass" => ("decl31", "owned31"),
        "decl31_zone10_share" => ("decl31_zone10", "games"),
        "decl31_zone10_pass" => ("decl31_zone10", "decl31"),
        "declarable_board_share" => ("declarable_board", "games"),
        "declarable_board_pass" => ("declarable_board", "decl31_zone10"),
        "declarable_share" => ("declarable", "games"),
        "declarable_pass" => ("declarable", "declarable_board"),
        "zone10_share" => ("zone10", "games"),
        "decisive_share" => ("decisive", "games"),
        "declaration_share" => ("declaration", "games"),
        "invalid_declaration_share" => ("invalid_declaration", "games"),
        "resignation_share" => ("resignation", "games"),
        "repetition_share" => ("repetition", "games"),
        "time_share" => ("time", "games"),
        "other_share" => ("other", "games"),
        "incidence_share" => ("ended", "games"),
        "ever_mutual_decl_rate" => ("decl_wins", "ever_mutual"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_have_three_significant_digits() {
        assert_eq!(p_value(240.0 / 77_520.0), "0.00310");
        assert_eq!(p_value(34.0 / 70.0), "0.486");
        assert_eq!(p_value(1.0), "1.00");
        assert_eq!(p_value(0.999_999_999_999_999_7), "1.00");
        assert_eq!(p_value(0.001), "0.00100");
        assert_eq!(p_value(2.0 / 184_756.0), "1.08e-5");
        assert_eq!(p_value(0.0), "< 1e-300");
    }

    #[test]
    fn p_values_below_the_smallest_double_print_from_their_logarithm() {
        assert_eq!(p_value_log10(-426.972_515_645_656_2), "1.07e-427");
        assert_eq!(p_value_log10((0.5f64).log10()), "0.500");
        assert_eq!(p_value_log10(-4.0), "1.00e-4");
        // 9.996e-401 rounds up to the next power of ten.
        assert_eq!(p_value_log10(-400.0002), "1.00e-400");
        assert_eq!(p_value_log10(f64::NEG_INFINITY), "0");
    }

    #[test]
    fn interval_bounds_and_differences_are_percentages() {
        assert_eq!(
            cell("decl_win_rate_lo", &AnyValue::Float64(0.1078)),
            "10.8%"
        );
        assert_eq!(cell("rate_diff_hi", &AnyValue::Float64(-0.289)), "-28.9 pp");
        assert_eq!(cell("rate_diff", &AnyValue::Float64(0.5)), "+50.0 pp");
        // 1 mismatch in 2,000 is not 100.0%, 1 match in 2,000 is not 0.0%.
        assert_eq!(
            cell("valid_decl_share", &AnyValue::Float64(0.9995)),
            ">99.9%"
        );
        assert_eq!(
            cell("valid_decl_share", &AnyValue::Float64(0.0004)),
            "<0.1%"
        );
        assert_eq!(cell("valid_decl_share", &AnyValue::Float64(1.0)), "100.0%");
        assert_eq!(percentage(0.9975, 2), "99.75%");
        assert_eq!(cell("fisher_p", &AnyValue::Float64(0.5)), "0.500");
        assert_eq!(cell("threshold", &AnyValue::Float64(2550.0)), "2550.0");
    }
}
