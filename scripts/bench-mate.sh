#!/usr/bin/env bash
# Speed of the mate solvers: `go mate` over the 1,001 entering-king positions of
# fixtures/positions/aiiru_bench.tsv (each with a time limit), through the USI engine, and
# the 24-point bench (its root guard runs the bounded mate search at every root).
#
#   scripts/bench-mate.sh                  # MATE_MS=300 per position
#   MATE_MS=1000 LIMIT=200 scripts/bench-mate.sh
#   BIN=path/to/floodgate-scan scripts/bench-mate.sh   # an already built binary
#
# Prints the answers (mate, nomate, timeout), the wall time of all the `go mate` calls and
# of those answered before their limit, the CPU time of 20,000,000 attack nodes of `go mate`
# (a position it cannot settle: the user time is the solver's), and the 24-point bench's time.
set -euo pipefail
cd "$(dirname "$0")/.."

MATE_MS="${MATE_MS:-300}"
LIMIT="${LIMIT:-0}"
if [ -z "${BIN:-}" ]; then
    cargo build --release --no-default-features
    BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/floodgate-scan"
fi
date -u +"%Y-%m-%d %H:%M UTC"
nproc | xargs echo "cores:"
uptime

echo "== go mate $MATE_MS over fixtures/positions/aiiru_bench.tsv"
python3 - "$BIN" "$MATE_MS" "$LIMIT" <<'PY'
import subprocess, sys, time
binary, ms, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
sfens = [l.split("\t")[0] for l in open("fixtures/positions/aiiru_bench.tsv", encoding="utf-8")
         if l.strip() and not l.startswith("#")]
if limit:
    sfens = sfens[:limit]
p = subprocess.Popen([binary, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()
def wait(prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("engine ended")
        if line.startswith(prefix):
            return line.strip()
send("usi"); wait("usiok")
send("isready"); wait("readyok")
counts = {"mate": 0, "nomate": 0, "timeout": 0}
total = answered = 0.0
plies = 0
lines = []
for s in sfens:
    send("position sfen " + s)
    t = time.perf_counter()
    send("go mate " + ms)
    ans = wait("checkmate")
    dt = time.perf_counter() - t
    total += dt
    words = ans.split()[1:]
    kind = words[0] if words[0] in ("nomate", "timeout") else "mate"
    counts[kind] += 1
    if kind != "timeout":
        answered += dt
    if kind == "mate":
        plies += len(words)
    lines.append(ans)
send("quit")
p.wait()
print(f"{len(sfens)} positions: {counts['mate']} mate ({plies} plies in all), "
      f"{counts['nomate']} nomate, {counts['timeout']} timeout")
print(f"wall: all {total:.2f} s; answered before the limit {answered:.2f} s")
import hashlib
print("answers digest:", hashlib.sha256("\n".join(l for l in lines if not l.endswith("timeout")).encode()).hexdigest()[:16])
PY

echo "== go mate infinite on a position without a proof: 20,000,000 attack nodes (the node limit)"
( printf 'usi\nisready\nposition sfen 4k4/9/9/9/9/9/9/9/4K4 b 2G2S2N2L 1\ngo mate infinite\n'
  sleep "${NODES_WAIT:-60}"; echo quit ) | /usr/bin/time -f "user %U s" "$BIN" usi | grep checkmate

echo "== bench --mode decl24 (the root guard at every root)"
/usr/bin/time -f "user %U s wall %e s" "$BIN" bench --mode decl24
