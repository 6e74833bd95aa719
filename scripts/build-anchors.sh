#!/usr/bin/env bash
# The outside engines the full search is measured against (reports/engine.md), from the
# user's own copies; nothing of theirs is committed here.
#
#   scripts/build-anchors.sh YANEURAOU_GIT_DIR [OUT_DIR]
#
# - GPS Shogi and Fairy-Stockfish 11.1: Debian's packages `gpsshogi` (`/usr/games/gpsusi`)
#   and `fairy-stockfish`, installed when missing (apt-get, as root).
# - YaneuraOu MaterialLv1 (YaneuraOu's search with material as its only evaluation):
#   built from YANEURAOU_GIT_DIR, a clone of the public repository yaneurao/YaneuraOu
#   (GPL-3: built and run as an opponent only), by ../shared/bench/build-yaneuraou.sh
#   into OUT_DIR (default `anchors/`, ignored by git) as `YaneuraOu-material`.
# - cshogi, which the match referee (../shared/bench/usi_match.py) needs: pip.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: scripts/build-anchors.sh YANEURAOU_GIT_DIR [OUT_DIR]}
out=${2:-anchors}
for pkg in gpsshogi fairy-stockfish; do
    dpkg -s "$pkg" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq "$pkg"; }
done
python3 -c 'import cshogi' 2>/dev/null || python3 -m pip install --quiet cshogi
bash ../shared/bench/build-yaneuraou.sh "$src" "$out" 1
echo "anchors: /usr/games/gpsusi /usr/games/fairy-stockfish $out/YaneuraOu-material"
