#!/usr/bin/env bash
# Throughput and memory of `floodgate-scan scan` against its anchors, all measured in one
# run on the same machine: cshogi's full pass (parse + legal replay + final-board check) on
# the same folder with 1 and 2 processes, and decompression alone (7zz x -so, gzip -dc).
# The .7z is measured twice: one solid block (as the yearly archives are made), and blocks
# of 32 MB (-ms=32m), whose blocks the scan decodes side by side. The download as a
# researcher has it, one solid .7z a year in one folder, is scanned as that folder and
# compared with 7zz decoding the same files JOBS at a time (xargs -P).
#
#   scripts/bench-scan.sh [WORKDIR]        (default: target/bench-scan)
#
# Environment: GAMES (default 20000), RUNS (rounds of every measurement; default 3),
# JOBS (scan --jobs, default 2), ONLY (yearly: only the folder of yearly .7z files against
# its decoders), FEATURES (extra cargo flags, e.g. --no-default-features to
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
# The yearly download: one solid .7z a year, as wdoor<YEAR>.7z, in one folder.
if [ ! -f "$WORK/yearly.done" ]; then
    rm -rf "$WORK/yearly"
    mkdir -p "$WORK/yearly"
    for y in $(ls "$WORK/corpus"); do
        ( cd "$WORK/corpus" && 7zz a -bd -bso0 -t7z -m0=lzma2 -mx=9 -ms=on \
            "../yearly/wdoor$y.7z" "$y" )
    done
    touch "$WORK/yearly.done"
fi
YEARS=$(ls "$WORK/yearly" | wc -l)
BLOCKS=$(7zz l -slt "$WORK/corpus.blocks.7z" | sed -n 's/^Blocks = //p')
# The records' bytes alone (`du -sb` would add the folders' own sizes).
BYTES=$(find "$WORK/corpus" -type f -name '*.csa' -printf '%s\n' | awk '{ s += $1 } END { print s }')

# 2. Timings, in rounds: each round runs every measurement once, a scan right before the
# anchor it is compared with, so that a drift of the machine's speed (on a shared host, 10-30%
# over minutes) falls on both sides of a ratio alike. Walls are medians over the rounds; each
# ratio is the median of the ratios of the same round, with their range.
RAW="$WORK/results.tsv"
: > "$RAW"
# timed ROUND NAME CMD...: one run, "ROUND NAME wall peak-RSS-KB CPU" appended to $RAW.
timed() {
    local round=$1 name=$2; shift 2
    /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" "$@" > /dev/null
    read -r wall kb user sys < "$WORK/time.out"
    printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$wall" "$kb" \
        "$(awk "BEGIN { print $user + $sys }")" >> "$RAW"
}
SCAN=("$BIN" scan -q --jobs "$JOBS" -o "$WORK/out")

# Warm the page cache first: every timing below is warm-cache, like cshogi_scan.py's.
find "$WORK/corpus" -type f -exec cat {} + > /dev/null; cat "$WORK"/corpus.* > /dev/null
cat "$WORK"/yearly/*.7z > /dev/null
# The yearly files decoded JOBS at a time, the largest first (as the scan schedules them).
DECODE_YEARLY="ls -S '$WORK'/yearly/*.7z | xargs -P $JOBS -I{} sh -c '7zz x -so {} > /dev/null'"
for r in $(seq "$RUNS"); do
    echo "round $r of $RUNS" >&2
    # The folder of yearly archives, scan and decoders side by side, CPU time kept too.
    timed "$r" scan_yearly        "${SCAN[@]}" "$WORK/yearly"
    timed "$r" decode_yearly      sh -c "$DECODE_YEARLY"
    [ "${ONLY:-}" = yearly ] && continue
    timed "$r" scan_folder        "${SCAN[@]}" "$WORK/corpus"
    timed "$r" scan_folder_1job   "$BIN" scan -q --jobs 1 -o "$WORK/out1" "$WORK/corpus"
    timed "$r" scan_tar           "${SCAN[@]}" "$WORK/corpus.tar"
    timed "$r" scan_tar_1job      "$BIN" scan -q --jobs 1 -o "$WORK/out1" "$WORK/corpus.tar"
    timed "$r" scan_stdin_tar     sh -c "'$BIN' scan -q --jobs $JOBS -o '$WORK/out' - < '$WORK/corpus.tar'"
    timed "$r" read_tar           sh -c "cat '$WORK/corpus.tar' > /dev/null"
    # cshogi's full pass, 1 process then 2 (its own timing of the pass, without its import
    # and folder listing).
    python3 "$BENCH/cshogi_scan.py" --repeat 1 --procs 2 --passes full \
        --json "$WORK/cshogi.json" "$WORK/corpus" > "$WORK/cshogi.out" 2>&1
    grep -i "warning" "$WORK/cshogi.out" >&2 || true
    python3 - "$WORK/cshogi.json" "$r" >> "$RAW" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["passes"]
for key, name in (("full_1p", "cshogi_1p"), ("full_2p", "cshogi_2p")):
    print(f"{sys.argv[2]}\t{name}\t{p[key]['median_s']}\t0\t0")
PY
    timed "$r" scan_tar_gz        "${SCAN[@]}" "$WORK/corpus.tar.gz"
    timed "$r" decode_gzip        sh -c "gzip -dc '$WORK/corpus.tar.gz' > /dev/null"
    timed "$r" scan_7z            "${SCAN[@]}" "$WORK/corpus.7z"
    timed "$r" decode_7z          sh -c "7zz x -so '$WORK/corpus.7z' > /dev/null"
    timed "$r" scan_7z_blocks     "${SCAN[@]}" "$WORK/corpus.blocks.7z"
    timed "$r" decode_7z_blocks   sh -c "7zz x -so '$WORK/corpus.blocks.7z' > /dev/null"
done

# 3. Medians and ratios.
python3 - "$RAW" "$GAMES" "$BYTES" "$JOBS" "$BLOCKS" "$YEARS" <<'PY'
import statistics, sys
from collections import defaultdict
raw, games, nbytes, jobs, blocks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
years = sys.argv[6]
walls, peak, by_round = defaultdict(list), defaultdict(int), defaultdict(dict)
cpus, cpu_round = defaultdict(list), defaultdict(dict)
for line in open(raw):
    r, name, wall, kb, cpu_s = line.split("\t")
    walls[name].append(float(wall))
    cpus[name].append(float(cpu_s))
    cpu_round[r][name] = float(cpu_s)
    peak[name] = max(peak[name], int(kb))
    by_round[r][name] = float(wall)
rounds = len(by_round)
med = {n: statistics.median(w) for n, w in walls.items()}
cpu = {n: statistics.median(c) for n, c in cpus.items()}
print(f"corpus: {games} games, {nbytes / 1e6:.1f} MB of records; scan --jobs {jobs}; "
      f"{rounds} rounds\n")
print("| measurement | wall (s, median) | games/s | peak RSS (MB) |")
print("|---|---|---|---|")
for name in walls:
    gps = f"{games / med[name]:,.0f}" if name.startswith(("scan", "cshogi")) else ""
    rss = f"{peak[name] / 1024:.0f}" if peak[name] else ""
    print(f"| {name} | {med[name]:.2f} | {gps} | {rss} |")

def paired(num, den):
    """Median and range of num / den over the rounds (num, den: functions of a round)."""
    v = sorted(num(w) / den(w) for w in by_round.values())
    return f"{statistics.median(v):.2f} (rounds {v[0]:.2f}-{v[-1]:.2f})"

speed = lambda scan, anchor: paired(lambda w: w[anchor], lambda w: w[scan])
slow = lambda scan, anchor: paired(lambda w: w[scan], lambda w: w[anchor])
print()
print("Ratios, median over the rounds of each round's own ratio (and their range):")
print()
print(f"- folder of {years} yearly .7z, wall / 7zz decoding them {jobs} at a time: "
      f"{slow('scan_yearly', 'decode_yearly')} (target <= 1.10)")
v = sorted(w["scan_yearly"] / w["decode_yearly"] for w in cpu_round.values())
print(f"- the same, CPU time (user+sys): {cpu['scan_yearly']:.2f} s against {cpu['decode_yearly']:.2f} s "
      f"(median); ratio {statistics.median(v):.2f} (rounds {v[0]:.2f}-{v[-1]:.2f})")
load = open("/proc/loadavg").read().split()[:3] if __import__("os").path.exists("/proc/loadavg") else ["?"]
print(f"- load average at the end (1, 5, 15 min): {' '.join(load)}")
if "cshogi_2p" not in med:
    sys.exit(0)
print(f"- folder games/s / cshogi 2 processes: {speed('scan_folder', 'cshogi_2p')} (target >= 10)")
print(f"- .tar games/s / cshogi 2 processes: {speed('scan_tar', 'cshogi_2p')} (target >= 10)")
print(f"- folder, 1 job / cshogi 1 process: {speed('scan_folder_1job', 'cshogi_1p')}")
print(f"- .tar, 1 job / cshogi 1 process: {speed('scan_tar_1job', 'cshogi_1p')}")
print(f"- .7z wall / 7zz decode alone: {slow('scan_7z', 'decode_7z')} (target <= 1.15)")
print(f"- .7z of {blocks} blocks, wall / 7zz decode alone: {slow('scan_7z_blocks', 'decode_7z_blocks')}")
print(f"- .tar.gz wall / gzip -dc alone: {slow('scan_tar_gz', 'decode_gzip')} (target <= 1.15)")
budget = med["cshogi_2p"] / 10
print(f"- the 10x target's wall for this corpus: {budget:.3f} s on {jobs} cores "
      f"({budget * int(jobs) * 1e6 / games:.1f} us of CPU a game, input included; "
      f"the phases below give each part's share)")
top = max(v for n, v in peak.items() if n.startswith("scan")) / 1024
print(f"- peak RSS of any scan: {top:.0f} MB (target < 300 MB)")
PY

# 4. Where a scan's CPU time goes, stage by stage (`scan --timings`: read, decode, analyse,
# order, format, write; CPU seconds over all the threads of a stage, and the cores that is
# over the scan's wall), one scan of each container: the serial share of the pipeline is
# the ordered writer's ("order"), every other stage runs on several threads.
echo
echo "Stage CPU times, --jobs $JOBS (scan --timings):"
for input in corpus.tar corpus.7z yearly; do
    [ "${ONLY:-}" = yearly ] && [ "$input" != yearly ] && continue
    echo
    echo "$input:"
    "${SCAN[@]}" --timings "$WORK/$input" 2>&1 >/dev/null | sed 's/^/    /'
done

# 5. The output stage alone (rows already analysed, fed in order): rows a second, against
# the rate the workers make them.
if [ "${ONLY:-}" != yearly ]; then
    echo
    echo "The output stage alone (cargo bench --bench scan_output):"
    FORMATTERS=$JOBS cargo bench -q $FEATURES --bench scan_output -- "$WORK/corpus.tar" 2>/dev/null
fi

# 6. Where the CPU time of one game goes (one thread): the records taken out of the folder
# and out of the .tar, then each phase of the analysis on records in memory, and the floors
# of reading and of replay (the least those two phases could cost).
if [ "${PHASES:-1}" != 0 ] && [ "${ONLY:-}" != yearly ]; then
    for input in corpus corpus.tar; do
        echo
        echo "$input:"
        cargo bench -q $FEATURES --bench scan_phases -- "$WORK/$input" 2>/dev/null
    done
fi
