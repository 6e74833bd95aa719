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

With `--escapes`, each game with a mate found goes on backwards from there: at every
earlier position where the loser was to move, `floodgate-scan position --escapes` asks a
df-pn search, after each legal move, for a mate by checks of the winner. The last such
position where some move escapes (or cannot be settled: counted as an escape) is where the
engine let the mate in, with the move it played there:

- `let in at ply j`: the loser had a move at ply j that escaped every mate by checks and
  played one that did not;
- `lost before its moves`: no position of the loser had such a move, back to the start
  (the mate was forced from the start, or by a quiet attack the checks-only search does
  not see: an upper bound on the engine's blame, never a lower one).

Usage:
    scripts/replay-mate-origin.py REPLAY.csv [--engine "floodgate-scan usi"] [--ms 300]
        [--escapes [--scan floodgate-scan] [--escape-nodes 300000]] [--forward EARLIER.json]
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


def escapes(scan, sfen, moves, nodes):
    """The moves of the side to move that escape (or are unsettled), by df-pn."""
    cmd = shlex.split(scan) + ["position", "--sfen", sfen, "--json", "--escapes",
                               "--escape-nodes", str(nodes)]
    if moves:
        cmd += ["--moves"] + moves
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    e = out["escapes"]
    return e["escape"] + e["unknown"]


def side_to_move(sfen):
    return sfen.split()[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table")
    ap.add_argument("--engine", default="floodgate-scan usi")
    ap.add_argument("--ms", type=int, default=300)
    ap.add_argument("--json")
    ap.add_argument("--escapes", action="store_true")
    ap.add_argument("--scan", default="floodgate-scan")
    ap.add_argument("--escape-nodes", type=int, default=300000)
    ap.add_argument("--forward", help="the --json of an earlier run: its first mate plies are taken, not searched again")
    a = ap.parse_args()

    with open(a.table, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["ending"] == "mate"]
    earlier = {}
    if a.forward:
        with open(a.forward) as f:
            earlier = {o["id"]: o for o in json.load(f)}
    eng = None if a.forward else Usi(a.engine)
    out = []
    for r in rows:
        moves = r["moves"].split()
        start = r["start_sfen"]
        first_mover = "black" if side_to_move(start) == "b" else "white"
        winner = r["winner"]
        found = None
        length = None
        for k in range(len(moves) if eng else 0):
            mover = first_mover if k % 2 == 0 else ("white" if first_mover == "black" else "black")
            if mover != winner:
                continue
            line = eng.mate(start, moves[:k], a.ms)
            if line is not None:
                found = k
                length = len(line)
                break
        if not eng:
            found, length = earlier[r["id"]]["first_mate_ply"], earlier[r["id"]]["mate_length"]
        if found is None:
            kind = "none found"
        elif found == 0:
            kind = "start"
        elif found == 1:
            kind = "first move"
        else:
            kind = "blunder"
        let_in = None
        if a.escapes and found is not None:
            kind = "lost before its moves"
            for j in range(found - 1, -1, -2):
                if escapes(a.scan, start, moves[:j], a.escape_nodes):
                    let_in = j
                    kind = "let in"
                    break
        out.append(
            {
                "id": r["id"],
                "plies": len(moves),
                "winner": winner,
                "better": r.get("better", ""),
                "first_mate_ply": found,
                "mate_length": length,
                "let_in_ply": let_in,
                "kind": kind,
            }
        )
        print(f"{r['id']}\t{len(moves)}\t{winner}\t{found}\t{length}\t{let_in}\t{kind}", flush=True)
    if eng:
        eng.close()
    c = Counter(o["kind"] for o in out)
    print(f"# {len(out)} mates: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    blunders = [o["first_mate_ply"] for o in out if o["kind"] == "blunder"]
    let_in = sorted(o["let_in_ply"] for o in out if o["kind"] == "let in")
    if let_in:
        print(f"# let in at ply: median {let_in[len(let_in) // 2]}, min {let_in[0]}, max {let_in[-1]}")
    if blunders:
        blunders.sort()
        print(f"# blunder ply: median {blunders[len(blunders) // 2]}, min {blunders[0]}, max {blunders[-1]}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
