#!/usr/bin/env python3
"""Find tactical test positions for the prunings' tests (fixtures/positions/tactics.tsv).

A position is kept when one move wins: every legal move is scored by the built-in engine
with every pruning off and its mate guard off (`go depth DEPTH` on the position after the
move, the score negated), and the best move beats the second best by at least GAP
centipawns, without being a mate (the mates have their own test). Candidates: the SFENs of
the first column of the given files (aiiru_bench.tsv, or the start positions of lost games
written by usi_match.py --json, one SFEN a line), the side to move not in check.

  python3 scripts/make-tactics.py fixtures/positions/aiiru_bench.tsv --want 12 > tactics.tsv

Needs cshogi (legal moves) and the release build (target/release/floodgate-scan).
"""
import argparse
import subprocess
import sys

import cshogi

SWITCHES = ["Razoring", "ReverseFutility", "NullMove", "ProbCut", "InternalIterativeReduction",
            "SingularExtension", "LateMoveReductions", "MoveCountPruning", "Futility",
            "SeePruning", "HistoryPruning", "CheckExtension"]


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("usi")
        self.wait("usiok")
        for s in SWITCHES + ["RootGuard"]:
            self.send(f"setoption name {s} value false")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine ended")
            lines.append(line.strip())
            if line.startswith(word):
                return lines

    def score(self, sfen, move, depth):
        self.send(f"position sfen {sfen} moves {move}")
        self.send(f"go depth {depth}")
        score = None
        for line in self.wait("bestmove"):
            w = line.split()
            if "score" in w:
                i = w.index("score")
                kind, v = w[i + 1], int(w[i + 2])
                score = v if kind == "cp" else (30000 - abs(v)) * (1 if v > 0 else -1)
        if score is None:  # no search: a declaration or no move
            return 0
        return -score


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--gap", type=int, default=400)
    ap.add_argument("--want", type=int, default=12)
    ap.add_argument("--engine", default="target/release/floodgate-scan usi")
    a = ap.parse_args()
    eng = Engine(a.engine.split())
    print(f"# tactical positions: one move beats the next best by >= {a.gap} cp (every move "
          f"searched to depth {a.depth} with every pruning and the mate guard off); "
          f"scripts/make-tactics.py {' '.join(a.files)} --depth {a.depth} --gap {a.gap}")
    print("# sfen\tbest move\tbest cp\tsecond cp")
    found = 0
    for f in a.files:
        for line in open(f):
            if line.startswith("#") or not line.strip():
                continue
            sfen = line.split("\t")[0].strip()
            b = cshogi.Board(sfen)
            if b.is_check():
                continue
            scores = sorted(((eng.score(sfen, cshogi.move_to_usi(m), a.depth), cshogi.move_to_usi(m))
                             for m in b.legal_moves), reverse=True)
            if len(scores) < 2:
                continue
            (s1, m1), (s2, _) = scores[0], scores[1]
            if abs(s1) < 20000 and s1 - s2 >= a.gap and abs(s2) < 20000:
                print(f"{sfen}\t{m1}\t{s1}\t{s2}", flush=True)
                found += 1
                if found >= a.want:
                    return


if __name__ == "__main__":
    main()
