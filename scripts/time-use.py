#!/usr/bin/env python3
"""How the built-in engine spends a byoyomi (reports/engine.md): over the positions of a
file (SFENs in the first column, or `startpos moves ...`), each searched once with
`go btime 0 wtime 0 byoyomi MS`, prints the mean wall time to `bestmove` as a share of the
byoyomi, the mean time after the last completed iteration (the iteration the clock cut
off), and how often that cut iteration was wasted (the move played is the last completed
iteration's) or changed the move (its partial result was kept).

  python3 scripts/time-use.py fixtures/positions/aiiru_bench.tsv --byoyomi 150 --limit 100

Run it alone: the times are wall-clock.
"""
import argparse
import subprocess
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("positions")
    ap.add_argument("--byoyomi", type=int, default=150)
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--engine", default="target/release/floodgate-scan usi")
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    starts = []
    for line in open(a.positions):
        if line.startswith("#") or not line.strip():
            continue
        w = line.split("\t")[0].strip()
        starts.append(w if w.startswith("startpos") else "sfen " + w)
    starts = starts[: a.limit]
    p = subprocess.Popen(a.engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(word):
        out = []
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("engine ended")
            out.append(line.split())
            if line.startswith(word):
                return out

    send("usi")
    wait("usiok")
    for o in a.option:
        n, v = o.split("=", 1)
        send(f"setoption name {n} value {v}")
    send("isready")
    wait("readyok")
    walls, tails, wasted, changed, searched = [], [], 0, 0, 0
    for s in starts:
        send(f"position {s}")
        t = time.time()
        send(f"go btime 0 wtime 0 byoyomi {a.byoyomi}")
        lines = wait("bestmove")
        wall = (time.time() - t) * 1000
        iters = [w for w in lines if w[:1] == ["info"] and "pv" in w and "depth" in w]
        if not iters:
            continue  # no search (a declaration, a guard mate)
        searched += 1
        last = iters[-1]
        last_ms = int(last[last.index("time") + 1])
        first_pv = last[last.index("pv") + 1]
        best = lines[-1][1]
        walls.append(wall)
        tails.append(max(0.0, wall - last_ms))
        if best == first_pv:
            wasted += 1
        else:
            changed += 1
    send("quit")
    n = max(1, searched)
    print(f"{searched} searches at byoyomi {a.byoyomi} ms ({a.positions}, first {a.limit})")
    print(f"time to bestmove: mean {sum(walls)/n:.1f} ms = {100*sum(walls)/n/a.byoyomi:.1f}% of the byoyomi, "
          f"max {max(walls):.1f} ms")
    print(f"after the last completed iteration: mean {sum(tails)/n:.1f} ms "
          f"({100*sum(tails)/max(1e-9, sum(walls)):.1f}% of the time)")
    print(f"cut iteration: changed the move in {changed} ({100*changed/n:.1f}%), "
          f"left it as it was in {wasted} ({100*wasted/n:.1f}%)")


if __name__ == "__main__":
    main()
