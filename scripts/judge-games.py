#!/usr/bin/env python3
"""Judge the games of a `usi_match.py --json` file by an outside engine.

For every game and every ply in --plies that the game reached, the position is sent to
a judge (GPS Shogi at LimitDepth 4 by default, the labeller of `learn gen`) and its score
is read from the `info ... score cp|mate` lines, turned to the point of view of engine A.
Prints, per ply, the games judged, the mean and median score for A and how many of them
A is ahead in; with several files, one block each, so that two builds' games against the
same opponent can be compared where both lose every game (reports/learn.md).

    scripts/judge-games.py learned-gps4.json hand-gps4.json --plies 20,30,40,50

With --trajectory, every position where A is to move is judged (until a mate score), and
the games are summed up by their winner: the mean score at each ply of --plies, in A's
lost games the ply where A first stands below -500, and the steps from one of A's moves
to the next (plies 16 to 70, within 800 of equality) by the score A lost, so that a game
lost by one blunder can be told from one lost by many small mistakes (reports/learn.md).

    scripts/judge-games.py a.json b.json --trajectory --judge-opt LimitDepth=3 \
        --plies 14,20,30,40,60,80
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


def a_score(g, ply, s):
    """A judge's score `s` of the position after `ply` moves, from A's side."""
    black_to_move = (g["sfen"].split()[1] == "b") == (ply % 2 == 0)
    s_black = s if black_to_move else -s
    return s_black if g["a_black"] else -s_black


def trajectories(judge, files, plies, go):
    clip = lambda v: max(-3000, min(3000, v))  # noqa: E731
    games = []
    for f in files:
        for g in json.load(open(f))["games"]:
            a_first = (g["sfen"].split()[1] == "b") == g["a_black"]
            traj = []
            for ply in range(0 if a_first else 1, len(g["moves"]) + 1, 2):
                s = judge.score(g["sfen"], g["moves"][:ply], go)
                if s is None:
                    continue
                traj.append((ply, clip(a_score(g, ply, s))))
                if abs(s) >= MATE:
                    break
            games.append((g["winner"], traj))
            print(f"judged {len(games)} games", file=sys.stderr)
    print(f"{len(games)} games: {sum(w == 'A' for w, _ in games)} won by A, "
          f"{sum(w == 'B' for w, _ in games)} won by B")
    print("| ply | " + " | ".join(str(p) for p in plies) + " |")
    print("|---|" + "---|" * len(plies))
    for who, name in (("B", "A's lost games, mean"), ("A", "A's won games, mean")):
        cells = []
        for ply in plies:
            at = [next((s for p, s in reversed(t) if p <= ply), None)
                  for w, t in games if w == who and t and t[-1][0] >= ply]
            at = [s for s in at if s is not None]
            cells.append(f"{statistics.mean(at):+.0f} ({len(at)})" if at else "-")
        print(f"| {name} | " + " | ".join(cells) + " |")
    first = sorted(next(p for p, s in t if s < -500) for w, t in games
                   if w == "B" and any(s < -500 for _, s in t))
    if first:
        q = len(first) // 4
        print(f"A's lost games first below -500 at ply {statistics.median(first):.0f} "
              f"(median of {len(first)}; quartiles {first[q]} and {first[3 * q]})")
    bins = [(-1e9, 0, "gained"), (0, 50, "lost < 50"), (50, 100, "50-100"),
            (100, 200, "100-200"), (200, 400, "200-400"), (400, 1e9, "400 and more")]
    counts = [0] * len(bins)
    sums = [0] * len(bins)
    for _, t in games:
        for (p1, s1), (_, s2) in zip(t, t[1:]):
            if 16 <= p1 <= 70 and abs(s1) < 800:
                d = s1 - s2
                i = next(i for i, (lo, hi, _) in enumerate(bins) if lo <= d < hi)
                counts[i] += 1
                sums[i] += d
    n = max(1, sum(counts))
    print("| step (A's loss, plies 16-70, within 800) | steps | share | sum |")
    print("|---|---|---|---|")
    for (_, _, name), c, t in zip(bins, counts, sums):
        print(f"| {name} | {c} | {c / n:.3f} | {t:+.0f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--plies", default="20,30,40,50")
    ap.add_argument("--judge", default="/usr/games/gpsusi")
    ap.add_argument("--judge-opt", action="append",
                    default=["Thread=1", "LimitDepth=4", "BookDepth=0"])
    ap.add_argument("--go", default="go byoyomi 20000")
    ap.add_argument("--trajectory", action="store_true",
                    help="judge every position where A is to move; sum up by the winner")
    a = ap.parse_args()
    plies = [int(x) for x in a.plies.split(",")]
    opts = [tuple(o.split("=", 1)) for o in a.judge_opt]
    judge = Judge(a.judge, opts)
    if a.trajectory:
        try:
            trajectories(judge, a.files, plies, a.go)
        finally:
            judge.close()
        return
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
