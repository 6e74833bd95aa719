#!/usr/bin/env bash
# The referee's figures (reports/replay-usi.md): GPS Shogi (Debian's `gpsshogi`) and the
# built-in engine replaying the bundled fixtures' cut mutual games and the study's 80
# positions under the 24-point rule; every ending named, no engine process left behind,
# the referee's share of the wall time, and how often the two engines agree.
#
#   scripts/bench-replay-usi.sh               # everything (GPS Shogi on 80 positions: ~1 h on 2 busy cores)
#   SKIP_STUDY=1 scripts/bench-replay-usi.sh  # the bundled fixtures only
#   JOBS=4 scripts/bench-replay-usi.sh        # GPS Shogi games side by side
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${OUT:-bench-replay-usi-out}"
GPS="${GPS:-/usr/games/gpsusi}"
JOBS="${JOBS:-2}"
mkdir -p "$OUT"
[ -x "$GPS" ] || { echo "no GPS Shogi at $GPS (apt-get install -y gpsshogi)"; exit 1; }

cargo build --release
BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/floodgate-scan"
date -u +"%Y-%m-%d %H:%M UTC"
nproc | xargs echo "cores:"
uptime
GPS_ARGS=(--usi "$GPS" --usi-opt Thread=1 --usi-opt LimitDepth=4 --byoyomi 100 --auto-declare --max-plies 120)

gps_left() { pgrep -x gpsusi | wc -l; }
BEFORE=$(gps_left)

echo "== the bundled fixtures: scan, then the cut mutual games replayed by both engines"
"$BIN" scan -o "$OUT/fixtures" -q
"$BIN" replay --games "$OUT/fixtures/games.parquet" --nodes 5000 --max-plies 120 \
    -o "$OUT/fixtures/builtin.csv" --summary "$OUT/fixtures/builtin.json"
/usr/bin/time -f "wall %e s user %U s" "$BIN" replay --games "$OUT/fixtures/games.parquet" \
    "${GPS_ARGS[@]}" --jobs "$JOBS" -o "$OUT/fixtures/gps.csv" --summary "$OUT/fixtures/gps.json"
"$BIN" report "$OUT/fixtures/games.parquet" -o "$OUT/fixtures/report" \
    --replay "$OUT/fixtures/builtin.csv" --replay "$OUT/fixtures/gps.csv"

if [ "${SKIP_STUDY:-0}" != "1" ]; then
    cat fixtures/positions/tune40.tsv fixtures/positions/holdout40.tsv | grep -v '^#' > "$OUT/study80.tsv"
    echo "== the study's 80 positions, the built-in engine (5,000 nodes a move)"
    /usr/bin/time -f "wall %e s user %U s" "$BIN" replay --positions "$OUT/study80.tsv" \
        --nodes 5000 --max-plies 120 -o "$OUT/builtin80.csv" --summary "$OUT/builtin80.json"
    echo "== the study's 80 positions, GPS Shogi (LimitDepth 4, the referee declaring), $JOBS games side by side"
    /usr/bin/time -f "wall %e s user %U s" "$BIN" replay --positions "$OUT/study80.tsv" \
        "${GPS_ARGS[@]}" --jobs "$JOBS" -o "$OUT/gps80.csv" --summary "$OUT/gps80.json"
    echo "== agreement on the 80 positions (the ending classes of report --replay)"
    python3 - "$OUT/builtin80.csv" "$OUT/gps80.csv" <<'EOF'
import csv, math, sys
def cls(r):
    e, by = r["ending"], r["declared_by"]
    if e == "declaration":
        return "declared_" + by
    return {"declared_draw": "declared_draw", "mate": "mate", "resign": "resign",
            "repetition": "repetition", "perpetual_check": "repetition", "limit": "limit"}.get(e, "other")
def wilson(k, n, z=1.959963984540054):
    p = k / n; d = 1 + z * z / n; c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0, c - h), min(1, c + h)
a = {r["id"]: r for r in csv.DictReader(open(sys.argv[1]))}
b = {r["id"]: r for r in csv.DictReader(open(sys.argv[2]))}
C = ["declared_black", "declared_white", "declared_draw", "mate", "resign", "repetition", "limit", "other"]
ids = [i for i in a if i in b]
x = {(p, q): 0 for p in C for q in C}
same = win = 0
for i in ids:
    p, q = cls(a[i]), cls(b[i]); x[p, q] += 1
    same += p == q; win += a[i]["winner"] == b[i]["winner"]
print("| built-in \\ GPS Shogi | " + " | ".join(C) + " | total |")
print("|---" * (len(C) + 2) + "|")
for p in C:
    print(f"| {p} | " + " | ".join(str(x[p, q]) for q in C) + f" | {sum(x[p, q] for q in C)} |")
print("| total | " + " | ".join(str(sum(x[p, q] for p in C)) for q in C) + f" | {len(ids)} |")
n = len(ids)
for name, k in (("same ending", same), ("same winner", win)):
    lo, hi = wilson(k, n)
    print(f"{name}: {k}/{n} = {100*k/n:.1f}% (95% Wilson {100*lo:.1f}-{100*hi:.1f}%)")
for f in sys.argv[1:]:
    rows = list(csv.DictReader(open(f)))
    ends = {}
    for r in rows:
        ends[r["ending"]] = ends.get(r["ending"], 0) + 1
    print(f, dict(sorted(ends.items())), "referee declarations:", sum(r["declarer"] == "referee" for r in rows))
EOF
fi

AFTER=$(gps_left)
echo "gpsusi processes before $BEFORE, after $AFTER (none of this run's left behind when equal)"
