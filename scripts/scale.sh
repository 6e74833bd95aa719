#!/usr/bin/env bash
# Flat memory over the size of the whole archive: a tar stream of GAMES records (default
# 1,870,000, about the size of the floodgate archive) made by repeating the benchmark corpus
# with fresh game ids, piped through `floodgate-scan scan -`. Reports wall time, games/s
# and peak memory of the scan.
#
#   scripts/scale.sh [WORKDIR]      (default: target/bench-scan; run bench-scan.sh first,
#                                    or this script makes the 20,000-game corpus itself)
set -euo pipefail

GAMES=${GAMES:-1870000}
JOBS=${JOBS:-2}
FEATURES=${FEATURES:-}
WORK=${1:-target/bench-scan}
TARGET=${CARGO_TARGET_DIR:-target}

cargo build --release $FEATURES --bin floodgate-scan >&2
BIN=$TARGET/release/floodgate-scan
if [ ! -d "$WORK/corpus" ]; then
    mkdir -p "$WORK"
    python3 ../shared/bench/make_corpus.py -n 20000 -o "$WORK/corpus" -j 2
fi

# The stream: repetition r renames event `wdoor` to `w<r>` in the file name and in $EVENT,
# so every game id is new; entries are `r<r>/<year>/<id>.csa`.
stream() {
    python3 - "$WORK/corpus" "$GAMES" <<'PY'
import io, os, sys, tarfile
root, total = sys.argv[1], int(sys.argv[2])
files = []
for year in sorted(os.listdir(root)):
    for name in sorted(os.listdir(os.path.join(root, year))):
        with open(os.path.join(root, year, name), "rb") as f:
            files.append((year, name, f.read()))
out = tarfile.open(fileobj=sys.stdout.buffer, mode="w|", format=tarfile.USTAR_FORMAT)
n = r = 0
while n < total:
    ev = f"w{r:03d}".encode()
    for year, name, data in files:
        if n >= total:
            break
        info = tarfile.TarInfo(f"r{r:03d}/{year}/{name.replace('wdoor', ev.decode(), 1)}")
        body = data.replace(b"$EVENT:wdoor", b"$EVENT:" + ev, 1)
        info.size = len(body)
        out.addfile(info, io.BytesIO(body))
        n += 1
    r += 1
out.close()
PY
}

START=$(date +%s.%N)
stream | /usr/bin/time -f '%e %M' -o "$WORK/scale.time" "$BIN" scan -q --jobs "$JOBS" -o "$WORK/scale-out" -
END=$(date +%s.%N)
read -r wall kb < "$WORK/scale.time"
rows=$(($(wc -l < "$WORK/scale-out/games.csv") - 1))
python3 - "$wall" "$kb" "$rows" "$GAMES" "$START" "$END" <<'PY'
import sys
wall, kb, rows, games, start, end = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
print(f"games streamed: {games:,}; table rows written: {rows:,}")
print(f"scan wall: {wall:.1f} s ({games / wall:,.0f} games/s; the Python tar writer feeding it may be the limit)")
print(f"pipeline wall (stream + scan): {end - start:.1f} s")
print(f"scan peak RSS: {kb / 1024:.0f} MB")
PY
