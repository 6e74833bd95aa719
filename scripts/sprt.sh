#!/usr/bin/env bash
# Decide whether an engine change is kept: `floodgate-scan sprt` plays engine A (the
# change) against engine B (the reference) in game pairs from real openings, colours
# swapped, at fixed nodes, until the SPRT (elo0 = 0, elo1 = 10, alpha = beta = 0.05,
# pentanomial model over game pairs) accepts H1 (keep), accepts H0 (reject), or
# --max-games is reached. Both engines are this build; each is configured by USI options
# (NAME=VALUE, applied as `setoption` applies them), so any option can be tested.
#
#   scripts/sprt.sh --a-opt USI_Hash=1                      # A: 1 MB table, B: defaults
#   scripts/sprt.sh --a-opt Mode=decl24 --max-games 400     # any option, fewer games
#   scripts/sprt.sh --b-opt Weights=weights/tuned50.txt ... # options of B
#   scripts/sprt.sh --opt USI_Hash=16 --a-opt ...           # options of both
#   NODES=5000 JOBS=1 scripts/sprt.sh --a-opt ...           # nodes a move, threads
#   scripts/sprt.sh --no-stop --max-games 1000 --a-opt ...  # a fixed 1,000-game match
#
# Defaults: the 9 real openings of fixtures/openings/real12.txt, 8 random plies after
# each (seeded) so that 1,000+ games do not repeat, 2,000 nodes a move, the 27-point
# rule, 256 plies, at most 2,000 games. Extra arguments go to `floodgate-scan sprt` and
# override these. Results: the summary on standard output, every game in $OUT/sprt.json.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${OUT:-target/sprt-out}"
OPENINGS="${OPENINGS:-fixtures/openings/real12.txt}"
NODES="${NODES:-2000}"
JOBS="${JOBS:-$(nproc)}"
mkdir -p "$OUT"

cargo build --release --no-default-features
BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/floodgate-scan"

date -u +"%Y-%m-%d %H:%M UTC"
nice -n 10 "$BIN" sprt --positions "$OPENINGS" --nodes "$NODES" --jobs "$JOBS" \
    --random-plies 8 --seed 1 --rule CSARule27 --max-plies 256 --max-games 2000 \
    --elo0 0 --elo1 10 --alpha 0.05 --beta 0.05 --json "$OUT/sprt.json" "$@"
