//! Exact unconditional inference for a difference of two proportions, for the comparisons
//! whose cells are too small for the score test's normal approximation.
//!
//! - The test is Boschloo's: the statistic is Fisher's one-sided conditional p-value, and
//!   the p-value is the largest probability, over the common success probability `pi`
//!   under the null hypothesis, of a pair of binomial samples at least as extreme. The
//!   two-sided p-value is twice the smaller one-sided one, capped at 1 (as scipy's
//!   `boschloo_exact`, so that a reader can reproduce it).
//! - The 95% interval of `p1 - p2` is Chan and Zhang's: the two one-sided exact
//!   unconditional tests of `p1 - p2 = d` (each at 2.5%) on the Miettinen-Nurminen score
//!   statistic, inverted; a bound is the `d` where the one-sided p-value, maximised over
//!   the nuisance proportion, crosses 2.5%.
//!
//! Both maximise a probability over a nuisance parameter: on a grid of 101 points,
//! refined by golden-section search around the three best. The rejection regions are
//! monotone (Barnard's convexity: Fisher's tail and the score statistic rise with the
//! first count and fall with the second), which keeps each probability a sum of one
//! binomial tail per count of the first sample: linear, not quadratic, in the games.
//!
//! The two need not agree at the 5% boundary (Boschloo's test is not the one the interval
//! inverts); they are the pair exact methods offer, and the report says which it prints.

use super::stats::{ln_choose, ln_sum_exp, mn_statistic};

/// The largest total of games (`n1 + n2`) for which the exact test and interval are
/// computed; above it, a comparison that would need them has no test.
pub const EXACT_MAX_GAMES: u64 = 5_000;

/// The smallest expected count of the 2x2 table under equal proportions below which a
/// comparison is tested exactly (the textbook rule for the chi-square approximation).
pub const MIN_EXPECTED: f64 = 5.0;

/// Points of the grid over a nuisance proportion.
const GRID: usize = 100;

/// The smallest of the four expected counts of the table `[[k1, n1 - k1], [k2, n2 - k2]]`
/// under equal proportions (row total times column total over the grand total); `None`
/// when either `n` is 0 or a count exceeds its `n`.
pub fn min_expected(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<f64> {
    if n1 == 0 || n2 == 0 || k1 > n1 || k2 > n2 {
        return None;
    }
    let n = (n1 + n2) as f64;
    let (k, f) = ((k1 + k2) as f64, (n1 + n2 - k1 - k2) as f64);
    let smaller = (n1.min(n2)) as f64;
    Some(smaller * k.min(f) / n)
}

/// Boschloo's exact unconditional test and Chan and Zhang's exact interval of a difference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactComparison {
    /// Natural log of Boschloo's two-sided p-value.
    pub ln_p: f64,
    /// Lower bound of the 95% Chan-Zhang interval of `k1/n1 - k2/n2`.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

/// Both exact results; `None` when either `n` is 0, a count exceeds its `n`, or the
/// games exceed [`EXACT_MAX_GAMES`].
pub fn exact_comparison(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<ExactComparison> {
    let ln_p = boschloo_ln(k1, n1, k2, n2)?;
    let (lo, hi) = chan_zhang(k1, n1, k2, n2)?;
    Some(ExactComparison { ln_p, lo, hi })
}

fn valid(k1: u64, n1: u64, k2: u64, n2: u64) -> bool {
    n1 > 0 && n2 > 0 && k1 <= n1 && k2 <= n2 && n1 + n2 <= EXACT_MAX_GAMES
}

/// `ln` of the binomial probability of `s` successes in `n` trials at `p` (0 and 1
/// included).
fn ln_binomial(n: u64, s: u64, p: f64) -> f64 {
    let a = if s == 0 { 0.0 } else { s as f64 * p.ln() };
    let b = if s == n {
        0.0
    } else {
        (n - s) as f64 * (-p).ln_1p()
    };
    ln_choose(n, s) + a + b
}

/// `ln(exp(a) + exp(b))`.
fn ln_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// The largest value of `f` on `[a, b]`: the best of a grid, refined by golden-section
/// search between the neighbours of its three best points.
fn maximise(f: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    if b <= a {
        return f(a);
    }
    let x = |i: usize| a + (b - a) * i as f64 / GRID as f64;
    let values: Vec<f64> = (0..=GRID).map(|i| f(x(i))).collect();
    let mut order: Vec<usize> = (0..=GRID).collect();
    order.sort_by(|&i, &j| values[j].total_cmp(&values[i]));
    let mut best = values[order[0]];
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for &i in order.iter().take(3) {
        let (mut lo, mut hi) = (x(i.saturating_sub(1)), x((i + 1).min(GRID)));
        let mut c = hi - phi * (hi - lo);
        let mut d = lo + phi * (hi - lo);
        let (mut fc, mut fd) = (f(c), f(d));
        for _ in 0..60 {
            if fc > fd {
                hi = d;
                (d, fd) = (c, fc);
                c = hi - phi * (hi - lo);
                fc = f(c);
            } else {
                lo = c;
                (c, fc) = (d, fd);
                d = lo + phi * (hi - lo);
                fd = f(d);
            }
        }
        best = best.max(fc).max(fd);
    }
    best
}

/// Natural log of Boschloo's one-sided p-value for `k1/n1 > k2/n2`: the statistic of a
/// table is Fisher's conditional `P(X1 >= x1 | x1 + x2)`; the p-value is the largest
/// probability, over a common proportion, of the tables whose statistic is at most the
/// observed one (within a relative 1e-13, as scipy).
fn boschloo_greater_ln(k1: u64, n1: u64, k2: u64, n2: u64) -> f64 {
    let n = n1 + n2;
    // For each total s: ln P(X1 >= x | s), from the largest x down, while it stays at or
    // below the cutoff; the region's tail of that total is the last such value.
    let tails = |s: u64, cutoff: f64, stop: u64| -> f64 {
        let (lo, hi) = (s.saturating_sub(n2), s.min(n1));
        let ln_all = ln_choose(n, s);
        let (mut acc, mut kept) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for x in (lo.max(stop)..=hi).rev() {
            acc = ln_add(acc, ln_choose(n1, x) + ln_choose(n2, s - x) - ln_all);
            if acc > cutoff {
                break;
            }
            kept = acc;
        }
        kept
    };
    let observed = tails(k1 + k2, f64::INFINITY, k1);
    let cutoff = observed + 1e-13f64.ln_1p();
    let region: Vec<(u64, f64)> = (0..=n)
        .map(|s| (s, tails(s, cutoff, 0)))
        .filter(|&(_, t)| t > f64::NEG_INFINITY)
        .collect();
    let ln_prob = |pi: f64| ln_sum_exp(region.iter().map(move |&(s, t)| ln_binomial(n, s, pi) + t));
    maximise(ln_prob, 0.0, 1.0).min(0.0)
}

/// Natural log of Boschloo's two-sided p-value of `k1/n1 = k2/n2`: twice the smaller
/// one-sided p-value, at most 1. `None` as [`exact_comparison`].
pub fn boschloo_ln(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<f64> {
    if !valid(k1, n1, k2, n2) {
        return None;
    }
    let greater = boschloo_greater_ln(k1, n1, k2, n2);
    let less = boschloo_greater_ln(k2, n2, k1, n1);
    Some((std::f64::consts::LN_2 + greater.min(less)).min(0.0))
}

/// The exact one-sided p-value of `p1 - p2 = d` against `p1 - p2 > d`: the largest
/// probability, over `p2` (with `p1 = p2 + d` in [0, 1]), of the tables whose score
/// statistic at `d` is at least the observed one.
fn score_greater_p(k1: u64, n1: u64, k2: u64, n2: u64, d: f64) -> f64 {
    let t = |x1: u64, x2: u64| mn_statistic(x1, n1, x2, n2, d);
    let observed = t(k1, k2);
    let floor = observed - 1e-10 * observed.abs().max(1.0);
    // below[x1]: how many x2 from 0 up have a statistic at or above the observed one (the
    // statistic falls as x2 rises and rises with x1, so this count never falls).
    let mut below = Vec::with_capacity(n1 as usize + 1);
    let mut c = 0u64;
    for x1 in 0..=n1 {
        while c <= n2 && t(x1, c) >= floor {
            c += 1;
        }
        below.push(c as usize);
    }
    let prob = |p2: f64| {
        let p1 = (p2 + d).clamp(0.0, 1.0);
        let mut cdf = Vec::with_capacity(n2 as usize + 2);
        let mut acc = 0.0;
        cdf.push(0.0);
        for x2 in 0..=n2 {
            acc += ln_binomial(n2, x2, p2).exp();
            cdf.push(acc);
        }
        (0..=n1)
            .map(|x1| ln_binomial(n1, x1, p1).exp() * cdf[below[x1 as usize]])
            .sum::<f64>()
    };
    maximise(prob, (-d).max(0.0), (1.0 - d).min(1.0)).min(1.0)
}

/// The lower bound of Chan and Zhang's interval: the smallest `d` the one-sided test
/// against larger differences does not reject at 2.5% (bisection between -1 and the
/// observed difference).
fn chan_zhang_lower(k1: u64, n1: u64, k2: u64, n2: u64) -> f64 {
    let target = 0.025;
    if score_greater_p(k1, n1, k2, n2, -1.0) > target {
        return -1.0;
    }
    let (mut lo, mut hi) = (-1.0, k1 as f64 / n1 as f64 - k2 as f64 / n2 as f64);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if score_greater_p(k1, n1, k2, n2, mid) > target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Chan and Zhang's exact 95% interval of `k1/n1 - k2/n2`. `None` as
/// [`exact_comparison`].
pub fn chan_zhang(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<(f64, f64)> {
    if !valid(k1, n1, k2, n2) {
        return None;
    }
    let lo = chan_zhang_lower(k1, n1, k2, n2);
    let hi = -chan_zhang_lower(k2, n2, k1, n1);
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The region of [`score_greater_p`] found by enumerating every table, without the
    /// monotonicity it relies on.
    fn brute_greater_p(k1: u64, n1: u64, k2: u64, n2: u64, d: f64) -> f64 {
        let observed = mn_statistic(k1, n1, k2, n2, d);
        let floor = observed - 1e-10 * observed.abs().max(1.0);
        let prob = |p2: f64| {
            let p1 = (p2 + d).clamp(0.0, 1.0);
            let mut total = 0.0;
            for x1 in 0..=n1 {
                for x2 in 0..=n2 {
                    if mn_statistic(x1, n1, x2, n2, d) >= floor {
                        total += (ln_binomial(n1, x1, p1) + ln_binomial(n2, x2, p2)).exp();
                    }
                }
            }
            total
        };
        maximise(prob, (-d).max(0.0), (1.0 - d).min(1.0))
    }

    #[test]
    fn the_monotone_region_is_the_enumerated_one() {
        for (n1, n2) in [(1, 4), (3, 5), (6, 6), (8, 3)] {
            for k1 in 0..=n1 {
                for k2 in 0..=n2 {
                    for d in [-0.9, -0.5, -0.1, 0.0, 0.2, 0.6] {
                        let a = score_greater_p(k1, n1, k2, n2, d);
                        let b = brute_greater_p(k1, n1, k2, n2, d);
                        assert!((a - b).abs() < 1e-12, "{k1}/{n1} {k2}/{n2} d={d}: {a} {b}");
                    }
                }
            }
        }
    }

    #[test]
    fn boschloo_by_hand() {
        // 1/1 against 0/4: the only table at least as extreme as the observed one toward
        // p1 > p2 is itself (Fisher's P = 1/5; the next, 1/1 against 1/4, has 2/5), of
        // probability pi (1 - pi)^4, largest at pi = 1/5: 4^4 / 5^5 = 0.08192. Twice it:
        // 0.16384.
        let p = boschloo_ln(1, 1, 0, 4).unwrap().exp();
        assert!((p - 0.16384).abs() < 1e-10, "{p}");
        // Equal proportions: p = 1.
        assert_eq!(boschloo_ln(2, 4, 2, 4), Some(0.0));
        assert_eq!(boschloo_ln(1, 0, 0, 4), None);
        assert_eq!(boschloo_ln(1, 2, 0, EXACT_MAX_GAMES), None);
    }

    #[test]
    fn chan_zhang_by_hand() {
        // 1/1 against 0/4, lower bound: only the observed table is as extreme at any d
        // below the observed 1 with n1 = 1; its probability (p2 + d)(1 - p2)^4 is largest
        // at p2 = (1 - 4d)/5, where it is 4^4 (1 + d)^5 / 5^5; = 0.025 at
        // d = (0.025 / 0.08192)^(1/5) - 1. The upper bound is 1 (nothing is more extreme
        // the other way).
        let (lo, hi) = chan_zhang(1, 1, 0, 4).unwrap();
        let want = (0.025f64 / 0.08192).powf(0.2) - 1.0;
        assert!((lo - want).abs() < 1e-9, "{lo} {want}");
        assert!((hi - 1.0).abs() < 1e-12, "{hi}");
    }

    #[test]
    fn boschloo_and_chan_zhang_match_an_independent_computation() {
        // (k1, n1, k2, n2, Boschloo's two-sided p, Chan-Zhang lower, upper) from
        // scripts/exact-reference.py: scipy's boschloo_exact, and a brute-force interval
        // (every table enumerated, the restricted MLE by numerical optimisation, a
        // 4,001-point nuisance grid).
        let cases = [
            (1, 1, 0, 4, 0.163_84, -0.211_303_319_399_775_1, 1.0),
            (
                0,
                1,
                1,
                4,
                1.0,
                -0.838_544_222_914_333,
                0.831_995_949_398_28,
            ),
            (
                3,
                10,
                10,
                10,
                0.000_872_809_837_397_771_5,
                -0.933_260_488_822_266_4,
                -0.311_374_120_422_122_76,
            ),
            (
                5,
                8,
                1,
                9,
                0.037_089_943_571_277_456,
                0.029_714_298_331_554_23,
                0.846_906_976_534_546_3,
            ),
            (
                2,
                8,
                3,
                9,
                0.832_888_123_729_454_6,
                -0.522_490_107_596_23,
                0.378_265_280_877_013_05,
            ),
            (
                7,
                24,
                15,
                20,
                0.002_633_243_935_098_311,
                -0.694_008_816_685_801_2,
                -0.142_951_637_722_502_38,
            ),
        ];
        for (k1, n1, k2, n2, p, lo, hi) in cases {
            let got = exact_comparison(k1, n1, k2, n2).unwrap();
            let what = format!("{k1}/{n1} vs {k2}/{n2}: {got:?}");
            assert!((got.ln_p.exp() - p).abs() < 1e-6 * p.max(1e-3), "{what}");
            assert!((got.lo - lo).abs() < 1e-6, "{what}");
            assert!((got.hi - hi).abs() < 1e-6, "{what}");
        }
    }

    #[test]
    fn expected_counts() {
        // [[1, 0], [0, 4]]: margins 1 and 4 events and failures, groups 1 and 4: the
        // smallest expected count is 1 x 1 / 5.
        assert_eq!(min_expected(1, 1, 0, 4), Some(0.2));
        assert_eq!(min_expected(10, 20, 10, 20), Some(10.0));
        assert_eq!(min_expected(0, 0, 1, 2), None);
    }
}
