#!/usr/bin/env bash
# Does each pruning of the full search earn its place at fixed time? For every switch
# named (default: all of them), `floodgate-scan sprt` plays the defaults (A) against the
# defaults with that one switch off (B) at MOVETIME ms a move (a pruning changes the
# speed of the search, so the test is at fixed time, not fixed nodes), from the 9 real
# openings with 8 random plies, both colours, until the SPRT (elo0 0, elo1 10, alpha =
# beta = 0.05, pentanomial) decides or MAX_GAMES are played. H1 accepted: the pruning
# is worth at least its keep.
#
#   scripts/sprt-prunings.sh                          # every switch, 40 ms, 300 games each
#   scripts/sprt-prunings.sh ProbCut Razoring         # the ones named
#   MOVETIME=80 MAX_GAMES=600 scripts/sprt-prunings.sh NullMove
#
# Two games run at once, one a core: run it on an otherwise idle machine (fixed time is
# measured time). Each summary is printed as it ends; every game in $OUT/<switch>.json.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${OUT:-target/sprt-prunings}"
OPENINGS="${OPENINGS:-fixtures/openings/real12.txt}"
MOVETIME="${MOVETIME:-40}"
MAX_GAMES="${MAX_GAMES:-300}"
JOBS="${JOBS:-2}"
mkdir -p "$OUT"

if [ -z "${BIN:-}" ]; then
    cargo build --release --no-default-features
    BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/floodgate-scan"
fi

switches=("$@")
if [ ${#switches[@]} -eq 0 ]; then
    switches=(LateMoveReductions NullMove MoveCountPruning ReverseFutility ProbCut
        InternalIterativeReduction Razoring HistoryPruning SeePruning Futility)
fi

for s in "${switches[@]}"; do
    echo "== $s=false as B, $(date -u +"%Y-%m-%d %H:%M UTC")"
    "$BIN" sprt --positions "$OPENINGS" --movetime "$MOVETIME" --jobs "$JOBS" \
        --random-plies 8 --seed 1 --rule CSARule27 --max-plies 256 --max-games "$MAX_GAMES" \
        --elo0 0 --elo1 10 --alpha 0.05 --beta 0.05 --b-opt "$s=false" \
        --json "$OUT/$s.json"
done
