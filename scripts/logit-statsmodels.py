#!/usr/bin/env python3
"""Table 9 (the logistic regressions) against statsmodels.

Rebuilds the model's data from a games table the way the report does (the ever-mutual
cohort with both ratings, Max_Moves 256 or 512 and a time control in the game name; the
covariates constant in the data left out), fits

    GLM(y, X, family=Binomial()).fit(cov_type="cluster", cov_kwds={"groups": pair})

and compares the coefficients and the clustered standard errors with the report's
`regression.csv`. Not part of the test suite (it needs statsmodels, pandas and pyarrow:
`pip install statsmodels pandas pyarrow`).

Usage: scripts/logit-statsmodels.py GAMES.parquet REGRESSION.csv [TOLERANCE]
With no arguments: scans the bundled fixtures and makes their report in a temporary
folder (with the debug build, `cargo build` first), and compares those.
"""

import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd
import statsmodels.api as sm

TERMS = [
    "rating_diff_100",
    "mean_rating_100",
    "year_2016",
    "max_moves_512",
    "log2_main_time_600",
    "fischer",
]
REPLAYED = {"ok", "illegal_move", "no_summary"}


def time_control(name):
    if not isinstance(name, str):
        return None
    fields = name.split("-")
    if len(fields) < 3:
        return None
    try:
        main = float(fields[1])
    except ValueError:
        return None
    if not main > 0:
        return None
    return main, fields[2].endswith("F")


def design(games):
    rows = []
    for g in games.itertuples(index=False):
        if g.status not in REPLAYED or not isinstance(g.mutual_sfen, str):
            continue
        if pd.isna(g.black_rate) or pd.isna(g.white_rate) or pd.isna(g.year):
            continue
        if g.max_moves not in (256, 512):
            continue
        tc = time_control(g.game_name)
        if tc is None:
            continue
        main, fischer = tc
        b, w = float(g.black_rate), float(g.white_rate)
        names = sorted([g.black or "", g.white or ""])
        rows.append(
            {
                "rating_diff_100": abs(b - w) / 100.0,
                "mean_rating_100": ((b + w) / 2.0 - 2000.0) / 100.0,
                "year_2016": float(g.year) - 2016.0,
                "max_moves_512": 1.0 if g.max_moves == 512 else 0.0,
                "log2_main_time_600": math.log2(main / 600.0),
                "fischer": 1.0 if fischer else 0.0,
                "declaration_win": 1.0 if g.summary_reason == "kachi" else 0.0,
                "move_limit": 1.0 if g.summary_reason in ("max_moves", "max_moves_draw") else 0.0,
                "pair": "\t".join(names),
            }
        )
    return pd.DataFrame(rows)


def main():
    args = sys.argv[1:]
    tolerance = float(args[2]) if len(args) > 2 else 1e-6
    tmp = None
    if len(args) < 2:
        tmp = tempfile.mkdtemp()
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        binary = os.path.join(root, "target", "debug", "floodgate-scan")
        subprocess.run([binary, "scan", "--quiet", "-o", "scan"], cwd=tmp, check=True)
        subprocess.run([binary, "report", "scan/games.parquet", "-o", "report"], cwd=tmp, check=True)
        args = [os.path.join(tmp, "scan", "games.parquet"), os.path.join(tmp, "report", "regression.csv")]
    games = pd.read_parquet(args[0])
    ours = pd.read_csv(args[1])
    d = design(games)
    kept = [t for t in TERMS if d[t].nunique() > 1]
    x = sm.add_constant(d[kept], has_constant="add")
    groups = pd.factorize(d["pair"])[0]
    worst = 0.0
    for outcome in ["declaration_win", "move_limit"]:
        fit = sm.GLM(d[outcome], x, family=sm.families.Binomial()).fit(
            cov_type="cluster", cov_kwds={"groups": groups}
        )
        mine = ours[ours["outcome"] == outcome].set_index("term")
        for term, name in zip(["const"] + kept, ["intercept"] + kept):
            b, se = fit.params[term], fit.bse[term]
            rb, rse = mine.loc[name, "coef"], mine.loc[name, "se_clustered"]
            diff = max(abs(b - rb), abs(se - rse))
            worst = max(worst, diff)
            print(f"{outcome:16} {name:20} coef {b: .10f} vs {rb: .10f}   se {se:.10f} vs {rse:.10f}   |diff| {diff:.2e}")
    print(f"games {len(d)}, pairs {len(set(groups))}, largest difference {worst:.2e} (tolerance {tolerance:g})")
    if tmp:
        subprocess.run(["rm", "-rf", tmp])
    sys.exit(0 if worst <= tolerance else 1)


if __name__ == "__main__":
    main()
