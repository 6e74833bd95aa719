#!/usr/bin/env bash
# Throughput and memory of `floodgate-scan scan` against its anchors, all measured in one
# run on the same machine: cshogi's full pass (parse + legal replay + final-board check) on
# the same folder with 1 and 2 processes, and decompression alone (7zz x -so, gzip -dc).
# The .7z is measured twice: one solid block (as the yearly archives are made), and blocks
# of 32 MB (-ms=32m), whose blocks the scan decodes side by side.
#
#   scripts/bench-scan.sh [WORKDIR]        (default: target/bench-scan)
#
# Environment: GAMES (default 20000), RUNS (timed runs per measurement, median; default 3),
# JOBS (scan --jobs, default 2), FEATURES (extra cargo flags, e.g. --no-default-features to
# time the CSV-only build), PHASES (default 1; 0 leaves out the per-phase CPU figures, whose
# benchmark build of the default features takes several minutes). Needs python3 (cshogi is
# installed if missing), 7zz (Debian package 7zip), GNU tar, gzip and /usr/bin/time. Run
# from the repository root.
set -euo pipefail

GAMES=${GAMES:-20000}
RUNS=${RUNS:-3}
JOBS=${JOBS:-2}
FEATURES=${FEATURES:-}
WORK=${1:-target/bench-scan}
BENCH=../shared/bench
TARGET=${CARGO_TARGET_DIR:-target}

python3 -c 'import cshogi' 2>/dev/null || pip install cshogi
command -v 7zz >/dev/null || { echo "7zz missing: apt-get install -y 7zip" >&2; exit 2; }
cargo build --release $FEATURES --bin floodgate-scan >&2
BIN=$TARGET/release/floodgate-scan
mkdir -p "$WORK"

# 1. The corpus and its containers (kept between runs: same bytes for the same GAMES).
if [ ! -f "$WORK/corpus.$GAMES.done" ]; then
    rm -rf "$WORK/corpus" "$WORK"/corpus.*
    python3 "$BENCH/make_corpus.py" -n "$GAMES" -o "$WORK/corpus" -j 2
    tar --sort=name --mtime='2026-11-29 00:00:00Z' --owner=0 --group=0 --numeric-owner \
        -C "$WORK" -cf "$WORK/corpus.tar" corpus
    gzip -6 -k -n "$WORK/corpus.tar"
    ( cd "$WORK" && 7zz a -bd -bso0 -t7z -m0=lzma2 -mx=9 -ms=on corpus.7z corpus )
    touch "$WORK/corpus.$GAMES.done"
fi
if [ ! -f "$WORK/corpus.blocks.7z" ]; then
    ( cd "$WORK" && 7zz a -bd -bso0 -t7z -m0=lzma2 -mx=9 -ms=32m corpus.blocks.7z corpus )
fi
BLOCKS=$(7zz l -slt "$WORK/corpus.blocks.7z" | sed -n 's/^Blocks = //p')
BYTES=$(du -sb "$WORK/corpus" | cut -f1)

# 2. Timings. measure NAME CMD...: median wall time and peak RSS over RUNS runs.
RESULTS="$WORK/results.tsv"
: > "$RESULTS"
measure() {
    local name=$1; shift
    local walls=() rss=0
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f '%e %M' -o "$WORK/time.out" "$@" > /dev/null
        read -r wall kb < "$WORK/time.out"
        walls+=("$wall")
        [ "$kb" -gt "$rss" ] && rss=$kb
    done
    local med
    med=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '%s\t%s\t%s\n' "$name" "$med" "$rss" | tee -a "$RESULTS" >&2
}
SCAN=("$BIN" scan -q --jobs "$JOBS" -o "$WORK/out")

# Warm the page cache first: every timing below is warm-cache, like cshogi_scan.py's.
find "$WORK/corpus" -type f -exec cat {} + > /dev/null; cat "$WORK"/corpus.* > /dev/null
measure scan_folder        "${SCAN[@]}" "$WORK/corpus"
measure scan_folder_1job   "$BIN" scan -q --jobs 1 -o "$WORK/out1" "$WORK/corpus"
measure scan_tar           "${SCAN[@]}" "$WORK/corpus.tar"
measure scan_tar_1job      "$BIN" scan -q --jobs 1 -o "$WORK/out1" "$WORK/corpus.tar"
measure scan_tar_gz        "${SCAN[@]}" "$WORK/corpus.tar.gz"
measure scan_7z            "${SCAN[@]}" "$WORK/corpus.7z"
measure scan_7z_blocks     "${SCAN[@]}" "$WORK/corpus.blocks.7z"
measure scan_stdin_tar     sh -c "'$BIN' scan -q --jobs $JOBS -o '$WORK/out' - < '$WORK/corpus.tar'"
measure decode_7z          sh -c "7zz x -so '$WORK/corpus.7z' > /dev/null"
measure decode_7z_blocks   sh -c "7zz x -so '$WORK/corpus.blocks.7z' > /dev/null"
measure decode_gzip        sh -c "gzip -dc '$WORK/corpus.tar.gz' > /dev/null"
measure read_tar           sh -c "cat '$WORK/corpus.tar' > /dev/null"

python3 "$BENCH/cshogi_scan.py" --repeat "$RUNS" --procs 2 --passes full \
    --json "$WORK/cshogi.json" "$WORK/corpus" >&2

# 3. Ratios.
python3 - "$RESULTS" "$WORK/cshogi.json" "$GAMES" "$BYTES" "$JOBS" "$BLOCKS" <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, kb = line.split("\t")
    rows[name] = (float(wall), int(kb))
cs = json.load(open(sys.argv[2]))["passes"]
games, nbytes, jobs, blocks = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
c1, c2 = cs["full_1p"]["games_per_s"], cs["full_2p"]["games_per_s"]
print(f"corpus: {games} games, {nbytes / 1e6:.1f} MB of records; scan --jobs {jobs}\n")
print("| measurement | wall (s, median) | games/s | peak RSS (MB) |")
print("|---|---|---|---|")
for name, (wall, kb) in rows.items():
    gps = f"{games / wall:,.0f}" if name.startswith("scan") else ""
    print(f"| {name} | {wall:.2f} | {gps} | {kb / 1024:.0f} |")
print(f"| cshogi full, 1 process | {games / c1:.2f} | {c1:,.0f} | |")
print(f"| cshogi full, 2 processes | {games / c2:.2f} | {c2:,.0f} | |")
g = lambda n: games / rows[n][0]
print()
print(f"- folder vs cshogi (2 processes): {g('scan_folder') / c2:.1f}x (target >= 10x)")
print(f"- .tar vs cshogi (2 processes): {g('scan_tar') / c2:.1f}x (target >= 10x)")
print(f"- folder, 1 job vs cshogi (1 process): {g('scan_folder_1job') / c1:.1f}x")
print(f"- .tar, 1 job vs cshogi (1 process): {g('scan_tar_1job') / c1:.1f}x")
print(f"- .7z wall / 7zz decode alone: {rows['scan_7z'][0] / rows['decode_7z'][0]:.2f} (target <= 1.15)")
print(f"- .7z of {blocks} blocks, wall / 7zz decode alone: {rows['scan_7z_blocks'][0] / rows['decode_7z_blocks'][0]:.2f}")
print(f"- .tar.gz wall / gzip -dc alone: {rows['scan_tar_gz'][0] / rows['decode_gzip'][0]:.2f} (target <= 1.15)")
budget = games / (10 * c2)
print(f"- the 10x target's wall for this corpus: {budget:.3f} s on {jobs} cores "
      f"({budget * int(jobs) * 1e6 / games:.1f} us of CPU a game, input included; "
      f"the phases below give each part's share)")
peak = max(kb for n, (w, kb) in rows.items() if n.startswith("scan")) / 1024
print(f"- peak RSS of any scan: {peak:.0f} MB (target < 300 MB)")
PY

# 4. Where the CPU time of one game goes (one thread): the records taken out of the folder
# and out of the .tar, then each phase of the analysis on records in memory, and the floors
# of reading and of replay (the least those two phases could cost).
if [ "${PHASES:-1}" != 0 ]; then
    for input in corpus corpus.tar; do
        echo
        echo "$input:"
        cargo bench -q $FEATURES --bench scan_phases -- "$WORK/$input" 2>/dev/null
    done
fi
