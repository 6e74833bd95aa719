//! Uncertainty of the report's rates: the 95% Wilson score interval of a proportion, the
//! score test of a difference of two proportions with the interval that inverts it
//! (Miettinen and Nurminen's), Fisher's exact test of a 2x2 table, and Holm's adjustment
//! of several p-values.
//!
//! Wilson's interval stays inside [0, 1] and is defined at a count of zero or of all (where
//! the normal approximation collapses to a zero-width interval).
//!
//! One inference for a difference: the Miettinen-Nurminen score statistic is computed at
//! every hypothesised difference `d`, the 95% interval is the set of `d` it does not reject
//! at the 5% level, and the test of "no difference" is the same statistic at `d = 0`. The
//! interval therefore excludes 0 exactly when the test's p-value is below 0.05: the two can
//! never disagree.
//!
//! p-values at an archive's scale (millions of games) are far below the smallest `f64`
//! (about 1e-308); they are computed and carried as natural logarithms (`ln_p`), with the
//! log factorials from Stirling's series (exact to rounding) rather than a running sum
//! of logarithms, whose error grows with the count.

use std::sync::OnceLock;

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

/// Below this, `ln n!` is read from a table summed once; from it on, Stirling's series.
const LN_FACT_TABLE: usize = 256;

/// `ln(n!)`, exact to a few units of rounding at any `n`: a table for small `n`, and above
/// it Stirling's series `n ln n - n + ln(2 pi n) / 2 + 1/(12n) - 1/(360n^3) + 1/(1260n^5)
/// - 1/(1680n^7)`, whose truncation error at `n >= 256` is below 1e-22.
pub fn ln_factorial(n: u64) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(LN_FACT_TABLE);
        let mut acc = 0.0f64;
        t.push(0.0);
        for i in 1..LN_FACT_TABLE {
            acc += (i as f64).ln();
            t.push(acc);
        }
        t
    });
    if (n as usize) < LN_FACT_TABLE {
        return table[n as usize];
    }
    let x = n as f64;
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    let series = inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 * (1.0 / 1260.0 - inv2 / 1680.0)));
    x * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + series
}

/// `ln C(n, r)` for `r <= n`.
pub(crate) fn ln_choose(n: u64, r: u64) -> f64 {
    ln_factorial(n) - ln_factorial(r) - ln_factorial(n - r)
}

/// `ln(sum(exp(x)))` of the values, without overflow or underflow; `-inf` for none.
pub(crate) fn ln_sum_exp(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let m = xs.clone().fold(f64::NEG_INFINITY, f64::max);
    if m == f64::NEG_INFINITY {
        return m;
    }
    m + xs.map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// The natural log of the two-sided p-value of Fisher's exact test of the 2x2 table
/// `[[k1, n1 - k1], [k2, n2 - k2]]`: the total probability, under the hypergeometric law
/// with the table's margins, of every table no more probable than the one observed (with
/// a relative tolerance of 1e-7, as R's `fisher.test`), summed in logs. `None` when either
/// `n` is 0.
pub fn fisher_exact_ln(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<f64> {
    if n1 == 0 || n2 == 0 || k1 > n1 || k2 > n2 {
        return None;
    }
    let k = k1 + k2;
    let ln_all = ln_choose(n1 + n2, k);
    let ln_p = move |x: u64| ln_choose(n1, x) + ln_choose(n2, k - x) - ln_all;
    let observed = ln_p(k1);
    let cutoff = observed + (1.0f64 + 1e-7).ln();
    let (lo, hi) = (k.saturating_sub(n2), k.min(n1));
    let terms = (lo..=hi).map(ln_p).filter(move |&l| l <= cutoff);
    Some(ln_sum_exp(terms).min(0.0))
}

/// Fisher's exact test's two-sided p-value (see [`fisher_exact_ln`]); 0 when it is below
/// the smallest `f64`.
pub fn fisher_exact(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<f64> {
    fisher_exact_ln(k1, n1, k2, n2).map(f64::exp)
}

/// `ln(erfc(x))` for `x >= 0`: the power series of erf below 2, Lentz's continued fraction
/// of erfc from 2 on (in logs, so that `erfc(40) ~ 1e-697` is not 0).
pub fn ln_erfc(x: f64) -> f64 {
    let x = x.max(0.0);
    if x < 2.0 {
        // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1)).
        let (mut term, mut sum, x2) = (x, x, x * x);
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        let erf = 2.0 / std::f64::consts::PI.sqrt() * sum;
        return (1.0 - erf).ln();
    }
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))).
    let tiny = 1e-300;
    let mut f = x;
    let (mut c, mut d) = (x, 0.0f64);
    for n in 1..500 {
        let a = n as f64 / 2.0;
        d = x + a * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = x + a / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    -x * x - 0.5 * std::f64::consts::PI.ln() - f.ln()
}

/// The Miettinen-Nurminen score statistic of `p1 - p2 = delta`: the observed difference
/// minus `delta`, over its standard error at the maximum-likelihood proportions
/// restricted to that difference, times `sqrt((N - 1) / N)`. Positive when the observed
/// difference is above `delta`; infinite where that standard error is 0.
pub(crate) fn mn_statistic(k1: u64, n1: u64, k2: u64, n2: u64, delta: f64) -> f64 {
    let (x1, x2) = (n1 as f64, n2 as f64);
    let (p1, p2) = (k1 as f64 / x1, k2 as f64 / x2);
    let d = p1 - p2 - delta;
    let (r1, r2) = restricted_mle(p1, x1, p2, x2, delta);
    let n = x1 + x2;
    let var = (r1 * (1.0 - r1) / x1 + r2 * (1.0 - r2) / x2) * n / (n - 1.0);
    if var <= 0.0 {
        return if d.abs() < 1e-15 {
            0.0
        } else {
            d.signum() * f64::INFINITY
        };
    }
    d / var.sqrt()
}

/// The maximum-likelihood proportions `(r1, r2)` with `r1 - r2 = delta` (Farrington and
/// Manning's closed form, the root of a cubic).
fn restricted_mle(p1: f64, n1: f64, p2: f64, n2: f64, delta: f64) -> (f64, f64) {
    let theta = n2 / n1;
    let a = 1.0 + theta;
    let b = -(1.0 + theta + p1 + theta * p2 + delta * (theta + 2.0));
    let c = delta * delta + delta * (2.0 * p1 + theta + 1.0) + p1 + theta * p2;
    let d = -p1 * delta * (1.0 + delta);
    let v = b.powi(3) / (27.0 * a.powi(3)) - b * c / (6.0 * a * a) + d / (2.0 * a);
    let s = (b * b / (9.0 * a * a) - c / (3.0 * a)).max(0.0).sqrt();
    let u = if v < 0.0 { -s } else { s };
    let r1 = if u == 0.0 {
        -b / (3.0 * a)
    } else {
        let w = (std::f64::consts::PI + (v / u.powi(3)).clamp(-1.0, 1.0).acos()) / 3.0;
        2.0 * u * w.cos() - b / (3.0 * a)
    };
    let r1 = r1.clamp(delta.max(0.0), (1.0 + delta).min(1.0));
    (r1, r1 - delta)
}

/// The score test of `k1/n1 = k2/n2` and its 95% interval of `k1/n1 - k2/n2`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreTest {
    /// The Miettinen-Nurminen statistic at difference 0 (the pooled score statistic times
    /// `sqrt((N - 1) / N)`).
    pub z: f64,
    /// Natural log of the two-sided p-value `erfc(|z| / sqrt 2)`.
    pub ln_p: f64,
    /// Lower bound of the 95% interval of the difference: every `d` the test does not reject.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

/// The Miettinen-Nurminen score test and interval (see the module notes), `None` when
/// either `n` is 0.
pub fn score_test(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<ScoreTest> {
    if n1 == 0 || n2 == 0 || k1 > n1 || k2 > n2 {
        return None;
    }
    let z = mn_statistic(k1, n1, k2, n2, 0.0);
    let ln_p = if z.is_finite() {
        ln_erfc(z.abs() / std::f64::consts::SQRT_2).min(0.0)
    } else {
        f64::NEG_INFINITY
    };
    let observed = k1 as f64 / n1 as f64 - k2 as f64 / n2 as f64;
    let stat = |delta: f64| mn_statistic(k1, n1, k2, n2, delta);
    // The statistic falls as delta rises: bisect for stat = +Z95 below the observed
    // difference and stat = -Z95 above it.
    let bisect = |mut lo: f64, mut hi: f64, target: f64| {
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if stat(mid) > target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    };
    let lo = if stat(-1.0) <= Z95 {
        -1.0
    } else {
        bisect(-1.0, observed, Z95)
    };
    let hi = if stat(1.0) >= -Z95 {
        1.0
    } else {
        bisect(observed, 1.0, -Z95)
    };
    Some(ScoreTest { z, ln_p, lo, hi })
}

/// Holm's step-down adjustment of natural-log p-values (in the same order): the `i`-th
/// smallest of `m` is multiplied by `m - i` (counting from 0), each kept at least as large
/// as the one before it, and capped at 1.
pub fn holm_ln(ln_ps: &[f64]) -> Vec<f64> {
    let m = ln_ps.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| ln_ps[a].total_cmp(&ln_ps[b]));
    let mut out = vec![0.0; m];
    let mut running = f64::NEG_INFINITY;
    for (rank, &i) in order.iter().enumerate() {
        let adj = (ln_ps[i] + ((m - rank) as f64).ln()).min(0.0);
        running = running.max(adj);
        out[i] = running;
    }
    out
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

/// A proportion whose trials come in clusters (the games of one engine pair), with its
/// cluster-robust (sandwich) standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusteredRate {
    /// The proportion over all trials.
    pub rate: f64,
    /// Its standard error clustered by the clusters: `sqrt(G / (G - 1) * sum_c (k_c - p
    /// n_c)^2) / N`, the sandwich estimator of a mean with the small-sample factor.
    pub se: f64,
    /// The 95% interval `rate -/+ 1.96 se`, kept inside [0, 1].
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// The design effect: the clustered variance over the binomial `p (1 - p) / N`
    /// (1 for independent trials; `None` where the binomial variance is 0).
    pub design_effect: Option<f64>,
    /// The number of clusters.
    pub clusters: usize,
}

/// The clustered proportion of `(trials, successes)` per cluster; `None` with fewer than
/// two clusters (no variance between clusters to estimate) or no trial.
pub fn clustered_rate(clusters: &[(u64, u64)]) -> Option<ClusteredRate> {
    let g = clusters.len();
    let n: u64 = clusters.iter().map(|c| c.0).sum();
    let k: u64 = clusters.iter().map(|c| c.1).sum();
    if g < 2 || n == 0 {
        return None;
    }
    let p = k as f64 / n as f64;
    let ss: f64 = clusters
        .iter()
        .map(|&(nc, kc)| (kc as f64 - p * nc as f64).powi(2))
        .sum();
    let var = ss * g as f64 / (g as f64 - 1.0) / (n as f64 * n as f64);
    let se = var.sqrt();
    let binomial = p * (1.0 - p) / n as f64;
    Some(ClusteredRate {
        rate: p,
        se,
        lo: (p - Z95 * se).max(0.0),
        hi: (p + Z95 * se).min(1.0),
        design_effect: (binomial > 0.0).then(|| var / binomial),
        clusters: g,
    })
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

    // Reference values below were computed with mpmath at 60 digits (loggamma, erfc) and
    // with exact integer arithmetic (Fisher's sums of binomial products).

    #[test]
    fn log_factorials_hold_at_the_archive_scale() {
        // ln(1,870,000!) = 25135517.748776610887...: a running sum of logs is off by
        // about 6e-7 here, more than Fisher's 1e-7 tie tolerance.
        assert!(close(ln_factorial(1_870_000), 25_135_517.748_776_61, 2e-8));
        assert!(close(ln_factorial(256), 1_167.257_278_562_880_2, 1e-10));
        assert!(close(
            ln_factorial(255),
            1_167.257_278_562_880_2 - 256f64.ln(),
            1e-10
        ));
        assert!(close(ln_factorial(1000), 5_912.128_178_488_163, 1e-9));
        assert_eq!(ln_factorial(0), 0.0);
        assert_eq!(ln_factorial(1), 0.0);
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
        // 5/8 against 1/9: log10 p = -1.3029995885268857 (exact sums).
        let l = fisher_exact_ln(5, 8, 1, 9).unwrap() / std::f64::consts::LN_10;
        assert!(close(l, -1.302_999_588_526_885_7, 1e-12), "{l}");
    }

    #[test]
    fn fisher_below_the_smallest_double_is_kept_in_logs() {
        // 1,610/2,500 against 183/2,500: log10 p = -426.97251564565621 (exact sums); the
        // p-value itself is 0 as an f64.
        let l = fisher_exact_ln(1610, 2500, 183, 2500).unwrap() / std::f64::consts::LN_10;
        assert!(close(l, -426.972_515_645_656_2, 1e-9), "{l}");
        assert_eq!(fisher_exact(1610, 2500, 183, 2500), Some(0.0));
    }

    #[test]
    fn ln_erfc_matches_high_precision_values() {
        for (x, want) in [
            (0.5, -0.735_011_129_837_084_4),
            (1.9, -4.932_345_862_780_269),
            (2.0, -5.364_941_264_616_638),
            (2.5, -7.806_815_272_727_264),
            (3.0, -10.720_363_041_981_113),
            (5.0, -27.200_889_545_537_434),
            (29.0, -844.940_254_422_147_3),
        ] {
            let got = ln_erfc(x);
            assert!(close(got, want, 1e-11 * want.abs().max(1.0)), "{x}: {got}");
        }
    }

    /// (k1, n1, k2, n2, z, log10 p, lo, hi): the restricted MLE found by golden-section
    /// search in mpmath, erfc in mpmath, the bounds by bisection.
    #[allow(clippy::type_complexity)]
    const SCORE_REFERENCE: [(u64, u64, u64, u64, f64, f64, f64, f64); 7] = [
        (
            1610,
            2500,
            183,
            2500,
            42.075_173_621_062_08,
            -386.142_485_513_264_1,
            0.549_115_854_586_29,
            0.591_842_960_303_086,
        ),
        (
            5,
            8,
            1,
            9,
            2.146_957_756_786_94,
            -1.497_618_704_374_277_6,
            0.046_733_311_536_813_2,
            0.804_757_931_225_082,
        ),
        (
            1,
            1,
            0,
            4,
            2.0,
            -1.341_986_084_476_956,
            0.020_218_327_090_805_4,
            1.0,
        ),
        (
            0,
            1,
            1,
            4,
            -0.5,
            -0.209_661_993_601_259_6,
            -0.734_082_227_836_957,
            0.687_423_660_250_855,
        ),
        (
            2,
            8,
            3,
            9,
            -0.365_148_371_670_110_7,
            -0.145_693_560_538_367_9,
            -0.485_351_983_471_813,
            0.357_108_446_527_439,
        ),
        (
            3,
            10,
            3,
            10,
            0.0,
            0.0,
            -0.393_110_036_670_33,
            0.393_110_036_670_33,
        ),
        (
            0,
            10,
            10,
            10,
            -4.358_898_943_540_674,
            -4.883_663_098_262_605,
            -1.0,
            -0.663_641_551_894_767,
        ),
    ];

    #[test]
    fn score_test_and_its_interval_match_a_high_precision_reference() {
        for (k1, n1, k2, n2, z, lp, lo, hi) in SCORE_REFERENCE {
            let t = score_test(k1, n1, k2, n2).unwrap();
            let what = format!("{k1}/{n1} vs {k2}/{n2}: {t:?}");
            assert!(close(t.z, z, 1e-9 * z.abs().max(1.0)), "{what}");
            assert!(
                close(
                    t.ln_p / std::f64::consts::LN_10,
                    lp,
                    1e-9 * lp.abs().max(1.0)
                ),
                "{what}"
            );
            assert!(close(t.lo, lo, 1e-9), "{what}");
            assert!(close(t.hi, hi, 1e-9), "{what}");
        }
        assert_eq!(score_test(1, 0, 1, 2), None);
    }

    #[test]
    fn the_interval_excludes_zero_exactly_when_p_is_below_five_percent() {
        for n1 in 1..=12u64 {
            for n2 in 1..=12u64 {
                for k1 in 0..=n1 {
                    for k2 in 0..=n2 {
                        let t = score_test(k1, n1, k2, n2).unwrap();
                        let significant = t.ln_p < 0.05f64.ln();
                        let excludes = t.lo > 0.0 || t.hi < 0.0;
                        // Away from the 5% boundary itself, where bisection decides.
                        if (t.ln_p - 0.05f64.ln()).abs() > 1e-9 {
                            assert_eq!(significant, excludes, "{k1}/{n1} vs {k2}/{n2}: {t:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn clustered_rate_by_hand() {
        // Two pairs of four games, one winning all, one none: p = 0.5; residual sums +2 and
        // -2; variance 2 / 1 x 8 / 64 = 0.25 (se 0.5) against the binomial 0.25 / 8: a
        // design effect of 8. The interval 0.5 -/+ 0.98 is kept inside [0, 1].
        let c = clustered_rate(&[(4, 4), (4, 0)]).unwrap();
        assert!(
            close(c.rate, 0.5, 1e-15) && close(c.se, 0.5, 1e-15),
            "{c:?}"
        );
        assert!(close(c.design_effect.unwrap(), 8.0, 1e-12), "{c:?}");
        assert_eq!((c.lo, c.hi, c.clusters), (0.0, 1.0, 2));
        // Eight pairs of one game each, four wins: independent trials. Variance
        // 8/7 x 8 x 0.25 / 64 = 1/28 against 1/32: the design effect is G / (G - 1) = 8/7.
        let one: Vec<(u64, u64)> = (0..8).map(|i| (1, u64::from(i < 4))).collect();
        let c = clustered_rate(&one).unwrap();
        assert!(close(c.se, (1.0f64 / 28.0).sqrt(), 1e-15), "{c:?}");
        assert!(close(c.design_effect.unwrap(), 8.0 / 7.0, 1e-12), "{c:?}");
        assert!(close(c.lo, 0.5 - Z95 * (1.0f64 / 28.0).sqrt(), 1e-15));
        // No rate with one cluster; no design effect where every game is a win.
        assert_eq!(clustered_rate(&[(5, 2)]), None);
        assert_eq!(
            clustered_rate(&[(2, 2), (3, 3)]).unwrap().design_effect,
            None
        );
        assert_eq!(clustered_rate(&[]), None);
    }

    #[test]
    fn holm_by_hand() {
        // p = 0.01, 0.04, 0.03: sorted 0.01 * 3 = 0.03, 0.03 * 2 = 0.06, 0.04 * 1 = 0.04 ->
        // kept at 0.06 (monotone).
        let ln: Vec<f64> = [0.01f64, 0.04, 0.03].iter().map(|p| p.ln()).collect();
        let adj: Vec<f64> = holm_ln(&ln).into_iter().map(f64::exp).collect();
        assert!(close(adj[0], 0.03, 1e-12) && close(adj[1], 0.06, 1e-12));
        assert!(close(adj[2], 0.06, 1e-12), "{adj:?}");
        // Capped at 1.
        assert_eq!(holm_ln(&[0.6f64.ln(), 0.7f64.ln()]), vec![0.0, 0.0]);
    }
}
