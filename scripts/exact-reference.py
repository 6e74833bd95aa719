#!/usr/bin/env python3
"""Reference values of the report's exact tests (src/report/exact.rs), computed apart.

Boschloo's two-sided p-value comes from scipy (`scipy.stats.boschloo_exact`, twice the
smaller one-sided p-value). Chan and Zhang's 95% interval of p1 - p2 has no scipy
function; it is computed here by brute force, independently of the Rust code: every table
enumerated (no monotone region), the Miettinen-Nurminen statistic with the restricted
maximum-likelihood proportions found by numerical optimisation (not the closed form), the
nuisance proportion maximised on a grid of 4,001 points refined by a bounded optimiser, and
each bound found by bisection. Needs numpy and scipy; prints one line per table.

    python3 scripts/exact-reference.py
"""
import numpy as np
from scipy import optimize, stats

CASES = [(1, 1, 0, 4), (0, 1, 1, 4), (3, 10, 10, 10), (5, 8, 1, 9), (2, 8, 3, 9), (7, 24, 15, 20)]


def restricted_mle(x1, n1, x2, n2, d):
    lo, hi = max(0.0, -d), min(1.0, 1.0 - d)
    if hi - lo < 1e-15:
        return lo + d, lo

    def nll(p2):
        p1 = min(max(p2 + d, 1e-300), 1 - 1e-16)
        p2 = min(max(p2, 1e-300), 1 - 1e-16)
        return -(x1 * np.log(p1) + (n1 - x1) * np.log1p(-p1) + x2 * np.log(p2) + (n2 - x2) * np.log1p(-p2))

    r = optimize.minimize_scalar(nll, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13})
    p2 = r.x
    # The likelihood may be largest at an end of the range.
    for end in (lo, hi):
        if nll(end) < nll(p2):
            p2 = end
    return p2 + d, p2


def mn(x1, n1, x2, n2, d):
    r1, r2 = restricted_mle(x1, n1, x2, n2, d)
    n = n1 + n2
    var = (r1 * (1 - r1) / n1 + r2 * (1 - r2) / n2) * n / (n - 1)
    diff = x1 / n1 - x2 / n2 - d
    if var <= 1e-300:
        return 0.0 if abs(diff) < 1e-12 else np.sign(diff) * np.inf
    return diff / np.sqrt(var)


def greater_p(k1, n1, k2, n2, d):
    t_obs = mn(k1, n1, k2, n2, d)
    region = [(x1, x2) for x1 in range(n1 + 1) for x2 in range(n2 + 1)
              if mn(x1, n1, x2, n2, d) >= t_obs - 1e-7 * max(1.0, abs(t_obs))]
    x1s = np.array([r[0] for r in region])
    x2s = np.array([r[1] for r in region])
    lo, hi = max(0.0, -d), min(1.0, 1.0 - d)

    def prob(p2):
        p1 = min(max(p2 + d, 0.0), 1.0)
        return float(np.sum(stats.binom.pmf(x1s, n1, p1) * stats.binom.pmf(x2s, n2, p2)))

    grid = np.linspace(lo, hi, 4001)
    values = [prob(p) for p in grid]
    best = max(values)
    i = int(np.argmax(values))
    a, b = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    if b > a:
        r = optimize.minimize_scalar(lambda p: -prob(p), bounds=(a, b), method="bounded",
                                     options={"xatol": 1e-13})
        best = max(best, -r.fun)
    return best


def lower(k1, n1, k2, n2):
    if greater_p(k1, n1, k2, n2, -1.0) > 0.025:
        return -1.0
    lo, hi = -1.0, k1 / n1 - k2 / n2
    for _ in range(45):
        mid = (lo + hi) / 2
        if greater_p(k1, n1, k2, n2, mid) > 0.025:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


for k1, n1, k2, n2 in CASES:
    table = [[k1, k2], [n1 - k1, n2 - k2]]
    p = stats.boschloo_exact(table, alternative="two-sided", n=64).pvalue
    lo = lower(k1, n1, k2, n2)
    hi = -lower(k2, n2, k1, n1)
    print(f"{k1}/{n1} vs {k2}/{n2}: boschloo_p={p!r} chan_zhang=({lo!r}, {hi!r})")
