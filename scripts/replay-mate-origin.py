#!/usr/bin/env python3
"""Where did the mated side of a replay lose its king?

For every game of a `floodgate-scan replay` table that ended in mate, ask the built-in mate
solver (`go mate MS` over USI) at each position along the game where the winner is to move,
from the start, for a forced mate by checks. The first such position tells when the game
was lost:

- `start`: the winner to move at ply 0 could mate: the position was lost before the
  engine played a move in it;
- `first move`: the loser moved first and the winner could mate after that move (the
  loser's first move allowed it, or nothing could stop it);
- `blunder at ply k`: no mate was found before ply k and one is found at ply k: the loser's
  move k-1 allowed it (within the solver's budget: a mate it cannot prove at MS
  milliseconds counts as none);
- `none found`: the solver proves no mate before the last move (mates longer than it can
  prove, or not by checks all the way).

Usage:
    scripts/replay-mate-origin.py REPLAY.csv [--engine "floodgate-scan usi"] [--ms 300]
        [--json out.json]
"""
import argparse
import csv
import json
import shlex
import subprocess
import sys
from collections import Counter


class Usi:
    def __init__(self, cmd):
        self.p = subprocess.Popen(
            shlex.split(cmd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("usi")
        self.wait_for("usiok")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.strip()
            if line.startswith(prefix):
                return line

    def mate(self, sfen, moves, ms):
        pos = f"position sfen {sfen}"
        if moves:
            pos += " moves " + " ".join(moves)
        self.send(pos)
        self.send(f"go mate {ms}")
        line = self.wait_for("checkmate")
        words = line.split()[1:]
        if not words or words[0] in ("nomate", "timeout", "notimplemented"):
            return None
        return words

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def side_to_move(sfen):
    return sfen.split()[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table")
    ap.add_argument("--engine", default="floodgate-scan usi")
    ap.add_argument("--ms", type=int, default=300)
    ap.add_argument("--json")
    a = ap.parse_args()

    with open(a.table, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["ending"] == "mate"]
    eng = Usi(a.engine)
    out = []
    for r in rows:
        moves = r["moves"].split()
        start = r["start_sfen"]
        first_mover = "black" if side_to_move(start) == "b" else "white"
        winner = r["winner"]
        found = None
        length = None
        for k in range(len(moves)):
            mover = first_mover if k % 2 == 0 else ("white" if first_mover == "black" else "black")
            if mover != winner:
                continue
            line = eng.mate(start, moves[:k], a.ms)
            if line is not None:
                found = k
                length = len(line)
                break
        if found is None:
            kind = "none found"
        elif found == 0:
            kind = "start"
        elif found == 1:
            kind = "first move"
        else:
            kind = "blunder"
        out.append(
            {
                "id": r["id"],
                "plies": len(moves),
                "winner": winner,
                "better": r.get("better", ""),
                "first_mate_ply": found,
                "mate_length": length,
                "kind": kind,
            }
        )
        print(f"{r['id']}\t{len(moves)}\t{winner}\t{found}\t{length}\t{kind}", flush=True)
    eng.close()
    c = Counter(o["kind"] for o in out)
    print(f"# {len(out)} mates: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    blunders = [o["first_mate_ply"] for o in out if o["kind"] == "blunder"]
    if blunders:
        blunders.sort()
        print(f"# blunder ply: median {blunders[len(blunders) // 2]}, min {blunders[0]}, max {blunders[-1]}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
