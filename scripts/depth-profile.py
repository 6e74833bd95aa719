#!/usr/bin/env python3
"""Nodes and time to each depth, side by side for USI engines (reports/engine.md).

For every start position, each engine gets a new game, the position and `go depth MAX`;
the `info depth D ... nodes N ... time T` lines of the completed iterations give the
nodes and milliseconds to reach depth D. Printed per engine: the totals over the positions
at each depth from MIN to MAX, the whole search's wall time, and the effective branching
factor between MIN and MAX, (nodes(MAX) / nodes(MIN)) ** (1 / (MAX - MIN)).

  python3 scripts/depth-profile.py --positions fixtures/openings/real12.txt --cut 12 \\
      --engine 'ours=target/release/floodgate-scan usi' \\
      --engine 'yo=anchors/YaneuraOu-material' --yo-options yo

Start positions: lines `startpos moves ...` (cut after CUT plies) or SFENs (first
column). Run it alone: the times are wall-clock.
"""
import argparse
import subprocess
import time

YO = ["Threads=1", "USI_Hash=64", "NetworkDelay=0", "NetworkDelay2=0", "MinimumThinkingTime=1",
      "RoundUpToFullSecond=false", "USI_OwnBook=false", "BookFile=no_book",
      "EnteringKingRule=CSARule27", "PvInterval=0"]


def positions(path, cut):
    out = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        w = line.split()
        if w[0] == "startpos":
            moves = w[2:2 + cut] if len(w) > 2 else []
            out.append("startpos" + (" moves " + " ".join(moves) if moves else ""))
        else:
            out.append("sfen " + line.split("\t")[0].strip())
    return out


def run(cmd, options, starts, max_depth):
    p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(word):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit(f"{cmd}: ended")
            lines.append(line.split())
            if line.startswith(word):
                return lines

    send("usi")
    wait("usiok")
    for o in options:
        n, v = o.split("=", 1)
        send(f"setoption name {n} value {v}")
    per_depth = {}
    wall = 0.0
    for s in starts:
        send("usinewgame")
        send("isready")
        wait("readyok")
        send(f"position {s}")
        t = time.time()
        send(f"go depth {max_depth}")
        lines = wait("bestmove")
        wall += time.time() - t
        seen = {}
        for w in lines:
            if w and w[0] == "info" and "depth" in w and "nodes" in w and "time" in w \
                    and "lowerbound" not in w and "upperbound" not in w:
                d = int(w[w.index("depth") + 1])
                seen[d] = (int(w[w.index("nodes") + 1]), int(w[w.index("time") + 1]))
        for d, v in seen.items():
            per_depth.setdefault(d, []).append(v)
    send("quit")
    p.wait()
    return per_depth, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", required=True)
    ap.add_argument("--cut", type=int, default=12)
    ap.add_argument("--min-depth", type=int, default=8)
    ap.add_argument("--max-depth", type=int, default=14)
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND")
    ap.add_argument("--yo-options", action="append", default=[],
                    help="engine NAME that gets YaneuraOu's fair-match options")
    ap.add_argument("--option", action="append", default=[], help="NAME:OPT=VALUE")
    a = ap.parse_args()
    starts = positions(a.positions, a.cut)
    print(f"{len(starts)} positions from {a.positions} (cut at {a.cut} plies), go depth {a.max_depth}")
    for e in a.engine:
        name, cmd = e.split("=", 1)
        opts = (YO if name in a.yo_options else []) + \
            [o.split(":", 1)[1] for o in a.option if o.split(":", 1)[0] == name]
        per_depth, wall = run(cmd, opts, starts, a.max_depth)
        print(f"\n== {name}: {cmd} {' '.join(opts)}")
        print("depth  positions  nodes        time_ms")
        for d in range(a.min_depth, a.max_depth + 1):
            v = per_depth.get(d, [])
            print(f"{d:5}  {len(v):9}  {sum(x[0] for x in v):11}  {sum(x[1] for x in v):8}")
        lo, hi = per_depth.get(a.min_depth, []), per_depth.get(a.max_depth, [])
        if lo and hi and len(lo) == len(hi) and sum(x[0] for x in lo) > 0:
            ebf = (sum(x[0] for x in hi) / sum(x[0] for x in lo)) ** (1 / (a.max_depth - a.min_depth))
            print(f"effective branching factor {a.min_depth}-{a.max_depth}: {ebf:.2f}")
        print(f"wall time of the {len(starts)} searches: {wall:.2f} s")


if __name__ == "__main__":
    main()
