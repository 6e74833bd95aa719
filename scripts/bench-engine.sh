#!/usr/bin/env bash
# The built-in engine's figures in one run (reports/engine.md): the bench signature and
# speed, the self-play replay of the study's 80 positions under the 24-point rule, the
# mate count of the aiiru_bench replays, and matches against GPS Shogi (Debian's
# `gpsshogi`) from the 80 study positions and from real openings.
#
#   scripts/bench-engine.sh                 # everything (the GPS Shogi matches take hours)
#   AIIRU_LIMIT=200 scripts/bench-engine.sh # a documented sample of the 1,000 replays
#   STUDY_FIRST=15 scripts/bench-engine.sh  # only the first 15 study positions vs GPS Shogi
#   SKIP_GPS=1 scripts/bench-engine.sh      # self-play figures only
#
# Results go to $OUT (default bench-engine-out/). The referee is ../shared/bench/usi_match.py
# (cshogi); GPS Shogi knows only the 27-point rule, so its matches are refereed under it.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${OUT:-bench-engine-out}"
AIIRU_LIMIT="${AIIRU_LIMIT:-1000}"
STUDY_FIRST="${STUDY_FIRST:-0}"
REFEREE="${REFEREE:-../shared/bench/usi_match.py}"
OPENINGS="${OPENINGS:-../shared/reference/openings-real12.txt}"
GPS="${GPS:-/usr/games/gpsusi}"
mkdir -p "$OUT"

if [ "${SKIP_GPS:-0}" != "1" ] && [ ! -x "$GPS" ]; then
    echo "== installing gpsshogi"
    apt-get install -y gpsshogi
fi

echo "== build"
cargo build --release --no-default-features
BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/floodgate-scan"
date -u +"%Y-%m-%d %H:%M UTC"
nproc | xargs echo "cores:"
uptime

echo "== bench (signature and nodes/s)"
/usr/bin/time -f "user %U s wall %e s" "$BIN" bench
/usr/bin/time -f "user %U s wall %e s" "$BIN" bench --mode decl24

cat fixtures/positions/tune40.tsv fixtures/positions/holdout40.tsv | grep -v '^#' > "$OUT/study80.tsv"

echo "== self-play replay, study's 80 positions, 24-point rule, 120 plies, 5,000 nodes a move"
/usr/bin/time -f "user %U s wall %e s" "$BIN" replay --positions "$OUT/study80.tsv" \
    --max-plies 120 --nodes 5000 -o "$OUT/replay80.csv" --summary "$OUT/replay80.json"
python3 - "$OUT/replay80.csv" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
n = won = 0
for r in rows:
    ob, ow = int(r["start_owned_black"]), int(r["start_owned_white"])
    side = "black" if ob >= 31 and ob > ow else "white" if ow >= 31 and ow > ob else None
    if side:
        n += 1
        won += r["winner"] == side
decl = [int(r["plies"]) for r in rows if r["ending"] == "declaration"]
print(f"side owning >= 31 at the start won {won}/{n}; "
      f"mates {sum(r['ending'] == 'mate' for r in rows)}; "
      f"declared draws {sum(r['ending'] == 'declared_draw' for r in rows)}; "
      f"ply limit {sum(r['ending'] == 'limit' for r in rows)}; "
      f"median plies to the declaration {statistics.median(decl) if decl else '-'}")
EOF

echo "== aiiru_bench replays (first $AIIRU_LIMIT), 200 plies, 5,000 nodes a move"
/usr/bin/time -f "user %U s wall %e s" "$BIN" replay --positions fixtures/positions/aiiru_bench.tsv \
    --limit "$AIIRU_LIMIT" --max-plies 200 --nodes 5000 \
    -o "$OUT/aiiru.csv" --summary "$OUT/aiiru.json"

if [ "${SKIP_GPS:-0}" = "1" ]; then
    exit 0
fi

echo "== against GPS Shogi from the study positions (both colours, 27-point rule, 200 ms, 120 plies)"
python3 "$REFEREE" "$OUT/study80.tsv" --a "$BIN usi" --b "$GPS" \
    --a-opt EnteringKingRule=CSARule27 --b-opt Thread=1 \
    --byoyomi 200 --max-plies 120 --first "$STUDY_FIRST" --json "$OUT/gps-study.json"

echo "== against GPS Shogi from the real openings (both colours, 27-point rule, 300 ms)"
# 9 openings x 2 colours = 18 games a round; three rounds give 54 games (>= 40).
for round in 1 2 3; do
    python3 "$REFEREE" "$OPENINGS" --a "$BIN usi" --b "$GPS" \
        --a-opt EnteringKingRule=CSARule27 --b-opt Thread=1 \
        --byoyomi 300 --max-plies 256 --json "$OUT/gps-openings-$round.json"
done
