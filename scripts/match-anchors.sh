#!/usr/bin/env bash
# The full search against the outside anchors at equal measured time, the learned
# evaluation (the default) and the hand-made one (`LinearWeights=none`,
# `KingPieceWeights=none`) in the same run
# (reports/learn.md, reports/engine.md).
#
#   scripts/match-anchors.sh                       # both evaluations vs GPS Shogi LimitDepth 4
#   GPS_DEPTH=5 A_BYOYOMI=400 scripts/match-anchors.sh
#   ANCHOR=fs scripts/match-anchors.sh             # vs Fairy-Stockfish 11.1 at byoyomi 150, ours 80
#   ANCHOR=yo YANEURAOU=anchors/YaneuraOu-material scripts/match-anchors.sh
#                                                  # vs YaneuraOu MaterialLv1 (scripts/build-anchors.sh)
#   EVALS=learned scripts/match-anchors.sh         # the learned evaluation only
#   EVALS="learned nokp" scripts/match-anchors.sh  # ... and without the king-piece term
#   FIRST=9 scripts/match-anchors.sh               # the first 9 start positions only (18 games)
#
# Start positions: the real openings of fixtures/openings/real12.txt cut after 8 and after
# 12 plies (18 positions), both colours: 36 games a match. GPS Shogi does not keep to the
# byoyomi it is sent, so it is capped by depth; both are sent `A_BYOYOMI` ms a
# move; compare the `time_ms` means the referee prints (equal time: within 15%). The two
# matches run side by side, one core each. The referee is ../shared/bench/usi_match.py
# (cshogi), 27-point rule, 256 plies.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${OUT:-match-anchors-out}"
ANCHOR="${ANCHOR:-gps}"
GPS_DEPTH="${GPS_DEPTH:-4}"
A_BYOYOMI="${A_BYOYOMI:-200}"
EVALS="${EVALS:-learned hand}"
FIRST="${FIRST:-0}"
REFEREE="${REFEREE:-../shared/bench/usi_match.py}"
BIN="${BIN:-target/release/floodgate-scan}"
YANEURAOU="${YANEURAOU:-anchors/YaneuraOu-material}"
# Fairy-Stockfish thinks about 70 ms a move at byoyomi 150: ours gets this byoyomi for
# equal measured time (FS_A_BYOYOMI=150 for equal byoyomi).
FS_A_BYOYOMI="${FS_A_BYOYOMI:-80}"
mkdir -p "$OUT"

python3 - fixtures/openings/real12.txt "$OUT/openings18.txt" <<'EOF'
import sys
lines = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
out = []
for plies in (8, 12):
    for l in lines:
        s = " ".join(l[: 2 + plies])
        if s not in out:
            out.append(s)
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print(f"{len(out)} start positions")
EOF

date -u +"%Y-%m-%d %H:%M UTC"
uptime
for e in $EVALS; do
    case "$e" in
        learned) opt=() ;;
        hand) opt=(--a-opt LinearWeights=none --a-opt KingPieceWeights=none) ;;
        nokp) opt=(--a-opt KingPieceWeights=none) ;;
        *) opt=(--a-opt "LinearWeights=$e") ;;
    esac
    name="$(basename "$e" .txt)"
    case "$ANCHOR" in
        gps)
            python3 "$REFEREE" "$OUT/openings18.txt" --a "$BIN usi" --b /usr/games/gpsusi \
                --a-opt EnteringKingRule=CSARule27 "${opt[@]}" \
                --b-opt Thread=1 --b-opt BookDepth=0 --b-opt "LimitDepth=$GPS_DEPTH" \
                --byoyomi "$A_BYOYOMI" --max-plies 256 --first "$FIRST" \
                --json "$OUT/$name-gps$GPS_DEPTH.json" > "$OUT/$name-gps$GPS_DEPTH.log" 2>&1 &
            ;;
        fs)
            python3 "$REFEREE" "$OUT/openings18.txt" --a "$BIN usi" --b /usr/games/fairy-stockfish \
                --a-opt EnteringKingRule=CSARule27 "${opt[@]}" --b-opt Threads=1 \
                --byoyomi 150 --a-byoyomi "$FS_A_BYOYOMI" --max-plies 256 --first "$FIRST" \
                --json "$OUT/$name-fs.json" > "$OUT/$name-fs.log" 2>&1 &
            ;;
        yo)
            # YaneuraOu's options for a fair byoyomi match: no network reserve, no
            # rounding to whole seconds, no book (the header of build-yaneuraou.sh).
            python3 "$REFEREE" "$OUT/openings18.txt" --a "$BIN usi" --b "$YANEURAOU" \
                --a-opt EnteringKingRule=CSARule27 "${opt[@]}" \
                --b-opt Threads=1 --b-opt USI_Hash=64 --b-opt NetworkDelay=0 \
                --b-opt NetworkDelay2=0 --b-opt MinimumThinkingTime=1 \
                --b-opt RoundUpToFullSecond=false --b-opt USI_OwnBook=false \
                --b-opt BookFile=no_book --b-opt EnteringKingRule=CSARule27 \
                --byoyomi "$A_BYOYOMI" --max-plies 256 --first "$FIRST" \
                --json "$OUT/$name-yo.json" > "$OUT/$name-yo.log" 2>&1 &
            ;;
        *) echo "unknown ANCHOR $ANCHOR (gps, fs or yo)" >&2; exit 2 ;;
    esac
done
wait
for f in "$OUT"/*.log; do
    echo "== $f"
    sed -n '/^score\|summary\|time_ms\|A /,$p' "$f" | tail -n 15
done
