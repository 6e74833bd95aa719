#!/usr/bin/env python3
"""Judge the games of a `usi_match.py --json` file by an outside engine.

For every game and every ply in --plies that the game reached, the position is sent to
a judge (GPS Shogi at LimitDepth 4 by default, the labeller of `learn gen`) and its score
is read from the `info ... score cp|mate` lines, turned to the point of view of engine A.
Prints, per ply, the games judged, the mean and median score for A and how many of them
A is ahead in; with several files, one block each, so that two builds' games against the
same opponent can be compared where both lose every game (reports/learn.md).

    scripts/judge-games.py learned-gps4.json hand-gps4.json --plies 20,30,40,50
"""
import argparse
import json
import statistics
import subprocess
import sys

MATE = 30000


class Judge:
    def __init__(self, command, options):
        self.p = subprocess.Popen(command.split(), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")
        self.send("usinewgame")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        for line in self.p.stdout:
            line = line.strip()
            lines.append(line)
            if line.split(" ")[0] == token:
                return lines
        raise RuntimeError(f"judge exited before {token}")

    def score(self, sfen, moves, go):
        text = f"position sfen {sfen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(text)
        self.send(go)
        score = None
        for line in self.wait("bestmove"):
            w = line.split()
            if w[:1] == ["info"] and "score" in w:
                i = w.index("score")
                if w[i + 1] == "cp":
                    score = int(w[i + 2])
                elif w[i + 1] == "mate":
                    m = w[i + 2]
                    score = -MATE if m.startswith("-") else MATE
        return score

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--plies", default="20,30,40,50")
    ap.add_argument("--judge", default="/usr/games/gpsusi")
    ap.add_argument("--judge-opt", action="append",
                    default=["Thread=1", "LimitDepth=4", "BookDepth=0"])
    ap.add_argument("--go", default="go byoyomi 20000")
    a = ap.parse_args()
    plies = [int(x) for x in a.plies.split(",")]
    opts = [tuple(o.split("=", 1)) for o in a.judge_opt]
    judge = Judge(a.judge, opts)
    try:
        for f in a.files:
            games = json.load(open(f))["games"]
            print(f"== {f}: {len(games)} games")
            print("ply  judged  mean(A)  median(A)  A ahead")
            for ply in plies:
                scores = []
                for g in games:
                    moves = g["moves"]
                    if len(moves) < ply:
                        continue
                    s = judge.score(g["sfen"], moves[:ply], a.go)
                    if s is None:
                        continue
                    # The score is for the side to move after `ply` moves from the start.
                    black_to_move = (g["sfen"].split()[1] == "b") == (ply % 2 == 0)
                    s_black = s if black_to_move else -s
                    scores.append(s_black if g["a_black"] else -s_black)
                if scores:
                    clipped = [max(-3000, min(3000, s)) for s in scores]
                    print(f"{ply:>3}  {len(scores):>6}  {statistics.mean(clipped):>7.0f}  "
                          f"{statistics.median(scores):>9.0f}  {sum(s > 0 for s in scores):>7}")
            sys.stdout.flush()
    finally:
        judge.close()


if __name__ == "__main__":
    main()
