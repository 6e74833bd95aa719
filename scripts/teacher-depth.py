#!/usr/bin/env python3
"""The teacher's label quality against its cost, by search depth.

Scores a sample of positions with GPS Shogi (`gpsusi`, Thread 1, BookDepth 0) at each
`LimitDepth` given, and prints per depth the time a position takes and the agreement of
its scores with the deepest depth's (Pearson r and mean absolute difference, mate scores
and scores beyond --cap left out), and with the games' results (the share of positions
whose score's sign agrees with the result, decided games only).

With --bands, it also prints, by the size of the reference's score, the agreement with
the reference of each depth, of the file's own label (`score`, the teacher that labelled
it) and of our engine at each `--ours` go command (`floodgate-scan usi` by default,
`--ours-program`): whether a model falls short of its label or the label of a deeper
search (reports/learn.md, "Where the gap to the teacher is").

Positions come from `floodgate-scan learn dump FILE` (tab-separated, with a header: sfen,
score, mate, result, ...), e.g.

    floodgate-scan learn dump labels.bin --every 50 > sample.tsv
    scripts/teacher-depth.py sample.tsv --depths 2 3 4 --limit 300
    scripts/teacher-depth.py sample.tsv --depths 3 4 --limit 1500 \
        --ours "go depth 1" --ours "go nodes 4000" --bands 300 1000 3000
"""
import argparse
import math
import subprocess
import sys
import time


def engine(program, depth, options=None):
    p = subprocess.Popen(program.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(word):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("the engine ended")
            lines.append(line)
            if line.split()[:1] == [word]:
                return lines

    send("usi")
    wait("usiok")
    if options is None:
        options = ("Thread value 1", "BookDepth value 0", f"LimitDepth value {depth}")
    for o in options:
        send("setoption name " + o)
    send("isready")
    wait("readyok")
    send("usinewgame")
    return p, send, wait


def score_of(lines):
    for line in reversed(lines):
        t = line.split()
        if "score" in t:
            i = t.index("score")
            if t[i + 1] == "cp":
                return float(t[i + 2]), False
            if t[i + 1] == "mate":
                return (30000.0 if not t[i + 2].startswith("-") else -30000.0), True
    best = lines[-1].split()[1] if lines else ""
    if best in ("resign", "win"):
        return (-30000.0 if best == "resign" else 30000.0), True
    return None, False


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sample", help="output of `floodgate-scan learn dump`")
    ap.add_argument("--depths", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--cap", type=float, default=3000.0)
    ap.add_argument("--program", default="gpsusi")
    ap.add_argument("--ours", action="append", default=[], metavar="GO",
                    help="a go command for our engine, e.g. 'go depth 1' (repeatable)")
    ap.add_argument("--ours-program", default="floodgate-scan usi")
    ap.add_argument("--rule", default="CSARule27", help="our engine's EnteringKingRule")
    ap.add_argument("--bands", type=float, nargs="*", default=[],
                    help="upper bounds of the reference's score bands, e.g. 300 1000 3000")
    a = ap.parse_args()
    rows = []
    with open(a.sample) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            cells = dict(zip(header, line.rstrip("\n").split("\t")))
            label = (float(cells["score"]), cells.get("mate", "0") != "0")
            rows.append((cells["sfen"], float(cells["result"]), label))
            if len(rows) >= a.limit:
                break
    depths = sorted(set(a.depths))
    scores, ms = {}, {}
    for d in depths:
        p, send, wait = engine(a.program, d)
        out = []
        t0 = time.time()
        for sfen, _, _ in rows:
            send("position sfen " + sfen)
            send("go byoyomi 60000")
            out.append(score_of(wait("bestmove")))
        ms[d] = 1000 * (time.time() - t0) / max(1, len(rows))
        send("quit")
        p.wait(timeout=10)
        scores[d] = out
        print(f"depth {d}: {ms[d]:.1f} ms a position", file=sys.stderr)
    ref = depths[-1]
    print(f"{len(rows)} positions; reference: LimitDepth {ref}")
    print("| LimitDepth | ms a position | positions an hour a core | r with the reference"
          " | mean abs. difference | sign agrees with the result |")
    print("|---|---|---|---|---|---|")
    for d in depths:
        pairs = [(x[0], y[0]) for x, y in zip(scores[d], scores[ref])
                 if x[0] is not None and y[0] is not None and not x[1] and not y[1]
                 and abs(x[0]) < a.cap and abs(y[0]) < a.cap]
        r = pearson([x for x, _ in pairs], [y for _, y in pairs])
        mad = sum(abs(x - y) for x, y in pairs) / max(1, len(pairs))
        decided = [(s[0], res) for s, (_, res, _) in zip(scores[d], rows)
                   if s[0] is not None and res != 0.5 and s[0] != 0]
        agree = sum((s > 0) == (res == 1.0) for s, res in decided) / max(1, len(decided))
        print(f"| {d} | {ms[d]:.1f} | {3600000 / ms[d]:,.0f} | {r:.3f} | {mad:.0f} | {agree:.3f} |")
    if not a.bands:
        return
    others = {f"LimitDepth {d}": scores[d] for d in depths if d != ref}
    others["the label"] = [label for _, _, label in rows]
    for go in a.ours:
        p, send, wait = engine(a.ours_program, None,
                               (f"EnteringKingRule value {a.rule}",))
        out = []
        for sfen, _, _ in rows:
            send("position sfen " + sfen)
            send(go)
            out.append(score_of(wait("bestmove")))
        send("quit")
        p.wait(timeout=10)
        others[f"ours, {go}"] = out
    print()
    print("Agreement with the reference by the size of its score (r / mean abs. difference,"
          f" scores clipped to +-{a.cap:.0f}, mates left out):")
    print("| band | positions | " + " | ".join(others) + " |")
    print("|---|---|" + "---|" * len(others))
    clip = lambda v: max(-a.cap, min(a.cap, v))  # noqa: E731
    lows = [0.0] + list(a.bands[:-1])
    for lo, hi in zip(lows, a.bands):
        idx = [i for i, (v, mate) in enumerate(scores[ref])
               if v is not None and not mate and lo <= abs(v) < hi
               and all(o[i][0] is not None and not o[i][1] for o in others.values())]
        cells = []
        for o in others.values():
            xs = [clip(o[i][0]) for i in idx]
            ys = [clip(scores[ref][i][0]) for i in idx]
            mad = sum(abs(x - y) for x, y in zip(xs, ys)) / max(1, len(idx))
            cells.append(f"{pearson(xs, ys):.3f} / {mad:.0f}")
        print(f"| {lo:.0f} to {hi:.0f} | {len(idx)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
