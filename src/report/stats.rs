//! Uncertainty of the report's rates: the 95% Wilson score interval of a proportion, the
//! Newcombe (hybrid score) interval of a difference of two proportions, and Fisher's exact
//! test of a 2x2 table.
//!
//! Wilson's interval stays inside [0, 1] and is defined at a count of zero or of all (where
//! the normal approximation collapses to a zero-width interval); Newcombe's interval of a
//! difference is built from the two Wilson intervals and keeps those properties.

use polars::prelude::*;

/// The standard normal quantile of 0.975: a 95% two-sided interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval of `k` successes in `n` trials, `None` when `n` is 0.
pub fn wilson(k: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 || k > n {
        return None;
    }
    let (k, n) = (k as f64, n as f64);
    let z2 = Z95 * Z95;
    let p = k / n;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At k = 0 and k = n the bounds are exactly 0 and 1; rounding must not move them.
    let lo = if k == 0.0 {
        0.0
    } else {
        (center - half).max(0.0)
    };
    let hi = if k == n {
        1.0
    } else {
        (center + half).min(1.0)
    };
    Some((lo, hi))
}

/// Newcombe's hybrid score interval (his method 10) of `k1/n1 - k2/n2`, from the two
/// Wilson intervals; `None` when either `n` is 0.
pub fn newcombe_difference(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<(f64, f64)> {
    let (l1, u1) = wilson(k1, n1)?;
    let (l2, u2) = wilson(k2, n2)?;
    let p1 = k1 as f64 / n1 as f64;
    let p2 = k2 as f64 / n2 as f64;
    let d = p1 - p2;
    let lo = d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt();
    let hi = d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt();
    Some((lo.max(-1.0), hi.min(1.0)))
}

/// The two-sided p-value of Fisher's exact test of the 2x2 table
/// `[[k1, n1 - k1], [k2, n2 - k2]]`: the total probability, under the hypergeometric law
/// with the table's margins, of every table no more probable than the one observed (with
/// a relative tolerance of 1e-7, as R's `fisher.test`). `None` when either `n` is 0.
pub fn fisher_exact(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<f64> {
    if n1 == 0 || n2 == 0 || k1 > n1 || k2 > n2 {
        return None;
    }
    let total = (n1 + n2) as usize;
    // ln(i!) for i = 0..=total.
    let mut ln_fact = Vec::with_capacity(total + 1);
    ln_fact.push(0.0f64);
    for i in 1..=total {
        ln_fact.push(ln_fact[i - 1] + (i as f64).ln());
    }
    let ln_choose =
        |n: u64, r: u64| ln_fact[n as usize] - ln_fact[r as usize] - ln_fact[(n - r) as usize];
    let k = k1 + k2;
    let ln_all = ln_choose(n1 + n2, k);
    let ln_p = |x: u64| ln_choose(n1, x) + ln_choose(n2, k - x) - ln_all;
    let observed = ln_p(k1);
    let lo = k.saturating_sub(n2);
    let hi = k.min(n1);
    let cutoff = observed + (1.0f64 + 1e-7).ln();
    let p: f64 = (lo..=hi)
        .map(ln_p)
        .filter(|&l| l <= cutoff)
        .map(f64::exp)
        .sum();
    Some(p.min(1.0))
}

/// Insert `NAME_lo` and `NAME_hi` (the 95% Wilson interval of `num / den`) right after
/// the column `NAME` of `df`, for each `(num, den, NAME)`. The count columns must be in
/// `df`; a row whose `den` is 0 or missing gets no interval.
pub fn with_intervals(mut df: DataFrame, rates: &[(&str, &str, &str)]) -> PolarsResult<DataFrame> {
    for &(num, den, name) in rates {
        let k = df.column(num)?.cast(&DataType::Int64)?;
        let n = df.column(den)?.cast(&DataType::Int64)?;
        let (k, n) = (k.i64()?, n.i64()?);
        let (lo, hi): (Vec<Option<f64>>, Vec<Option<f64>>) = (0..df.height())
            .map(|i| match (k.get(i), n.get(i)) {
                (Some(k), Some(n)) if k >= 0 && n >= 0 => match wilson(k as u64, n as u64) {
                    Some((l, h)) => (Some(l), Some(h)),
                    None => (None, None),
                },
                _ => (None, None),
            })
            .unzip();
        let at = df
            .get_column_index(name)
            .ok_or_else(|| polars_err!(ColumnNotFound: "{name}"))?;
        df.insert_column(at + 1, Column::new(format!("{name}_lo").into(), lo))?;
        df.insert_column(at + 2, Column::new(format!("{name}_hi").into(), hi))?;
    }
    Ok(df)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn wilson_by_hand() {
        // 3 of 10: p = 0.3, z^2 = 3.841459; centre (0.3 + 0.192073) / 1.384146 = 0.355507,
        // half-width 1.959964 / 1.384146 * sqrt(0.021 + 0.0096037) = 0.247715.
        let (lo, hi) = wilson(3, 10).unwrap();
        assert!(close(lo, 0.107791, 1e-5), "{lo}");
        assert!(close(hi, 0.603222, 1e-5), "{hi}");
        // 0 of 10: [0, z^2 / (n + z^2)] = [0, 3.841459 / 13.841459].
        let (lo, hi) = wilson(0, 10).unwrap();
        assert_eq!(lo, 0.0);
        assert!(close(hi, 3.841459 / 13.841459, 1e-6), "{hi}");
        // 10 of 10: [n / (n + z^2), 1].
        let (lo, hi) = wilson(10, 10).unwrap();
        assert!(close(lo, 10.0 / 13.841459, 1e-6), "{lo}");
        assert_eq!(hi, 1.0);
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn fisher_by_hand() {
        // The tea-tasting table [[3, 1], [1, 3]]: P(x) = C(4,x) C(4,4-x) / C(8,4) = 1, 16,
        // 36, 16, 1 over 70; the tables no more probable than P(3) = 16/70 sum to 34/70.
        assert!(close(fisher_exact(3, 4, 1, 4).unwrap(), 34.0 / 70.0, 1e-12));
        // 0 of 10 against 10 of 10: the two extreme tables, 2 / C(20, 10) = 2 / 184756.
        assert!(close(
            fisher_exact(0, 10, 10, 10).unwrap(),
            2.0 / 184_756.0,
            1e-15
        ));
        // Equal proportions: p = 1.
        assert!(close(fisher_exact(5, 10, 5, 10).unwrap(), 1.0, 1e-12));
        assert_eq!(fisher_exact(0, 0, 1, 2), None);
    }

    #[test]
    fn newcombe_by_hand() {
        // 0/10 - 10/10 = -1: lower -1 - sqrt(0 + 0) = -1, upper -1 + sqrt(2 * 0.277533^2).
        let (lo, hi) = newcombe_difference(0, 10, 10, 10).unwrap();
        assert!(close(lo, -1.0, 1e-12), "{lo}");
        assert!(close(hi, -1.0 + (2.0f64).sqrt() * 0.277533, 1e-5), "{hi}");
        // 3/10 - 3/10 = 0: symmetric, half-width sqrt((0.3 - 0.107791)^2 + (0.603222 - 0.3)^2).
        let (lo, hi) = newcombe_difference(3, 10, 3, 10).unwrap();
        let w = ((0.3f64 - 0.107791).powi(2) + (0.603222f64 - 0.3).powi(2)).sqrt();
        assert!(close(lo, -w, 1e-5) && close(hi, w, 1e-5), "{lo} {hi}");
        assert_eq!(newcombe_difference(1, 0, 1, 2), None);
    }
}
