#!/usr/bin/env bash
# Peak memory and wall time of scans of many archives, against 7zz decoding the same
# archives as many at a time: memory must stay flat however many archives are read.
#
#   scripts/bench-memory.sh [WORKDIR]        (default: target/bench-scan, shared with
#                                             bench-scan.sh: its corpus and yearly .7z files)
#
# Measured, at each --jobs of JOBS_LIST (default: "2 N", N the machine's cores):
#   small   SMALL small solid .7z files (the corpus cut into that many pieces), as one folder;
#   yearly  the 19 yearly .7z files, as one folder;
#   many7z  the 19 yearly .7z files named REPEAT times on the command line (default 93:
#           1,767 archives, 1.86 million games for the 20,000-game corpus);
#   manytar the corpus .tar named REPEAT times (the same games from REPEAT .tar inputs);
# and 7zz x -so over the same archives, JOBS at a time (xargs -P), largest first.
# Peak RSS from /usr/bin/time -v. Environment: GAMES (default 20000), SMALL (default 600),
# REPEAT (default 93), RUNS (default 1; walls and ratios are medians of the rounds),
# JOBS_LIST, ONLY (space-separated subset of: small yearly many7z manytar).
# Needs python3, 7zz (Debian package 7zip), GNU tar and /usr/bin/time. Run from the
# repository root.
set -euo pipefail

GAMES=${GAMES:-20000}
SMALL=${SMALL:-600}
REPEAT=${REPEAT:-93}
RUNS=${RUNS:-1}
JOBS_LIST=${JOBS_LIST:-"2 $(nproc)"}
ONLY=${ONLY:-"small yearly many7z manytar"}
WORK=${1:-target/bench-scan}
BENCH=../shared/bench
TARGET=${CARGO_TARGET_DIR:-target}

command -v 7zz >/dev/null || { echo "7zz missing: apt-get install -y 7zip" >&2; exit 2; }
cargo build --release --bin floodgate-scan >&2
BIN=$TARGET/release/floodgate-scan
mkdir -p "$WORK"
# Absolute: the archives are made from inside the corpus folder (7zz's list files).
WORK=$(cd "$WORK" && pwd)

# 1. The corpus, its .tar and the yearly .7z files (as bench-scan.sh makes them).
if [ ! -f "$WORK/corpus.$GAMES.done" ]; then
    rm -rf "$WORK/corpus" "$WORK"/corpus.* "$WORK/yearly" "$WORK/yearly.done" "$WORK/small"
    python3 "$BENCH/make_corpus.py" -n "$GAMES" -o "$WORK/corpus" -j 2
    tar --sort=name --mtime='2026-11-29 00:00:00Z' --owner=0 --group=0 --numeric-owner \
        -C "$WORK" -cf "$WORK/corpus.tar" corpus
    touch "$WORK/corpus.$GAMES.done"
fi
if [ ! -f "$WORK/yearly.done" ]; then
    rm -rf "$WORK/yearly"
    mkdir -p "$WORK/yearly"
    for y in $(ls "$WORK/corpus"); do
        ( cd "$WORK/corpus" && 7zz a -bd -bso0 -t7z -m0=lzma2 -mx=9 -ms=on \
            "../yearly/wdoor$y.7z" "$y" )
    done
    touch "$WORK/yearly.done"
fi
# SMALL solid .7z files of consecutive records (in path order).
if [ ! -f "$WORK/small.$SMALL.done" ]; then
    rm -rf "$WORK/small" "$WORK"/small.*.done
    mkdir -p "$WORK/small"
    ( cd "$WORK/corpus" && find . -name '*.csa' | sort > ../small.list )
    total=$(wc -l < "$WORK/small.list")
    per=$(( (total + SMALL - 1) / SMALL ))
    split -d -a 5 -l "$per" "$WORK/small.list" "$WORK/small/list."
    for l in "$WORK"/small/list.*; do
        n=${l##*.}
        ( cd "$WORK/corpus" && 7zz a -bd -bso0 -t7z -m0=lzma2 -mx=9 -ms=on \
            "../small/part$n.7z" @"$l" )
        rm "$l"
    done
    touch "$WORK/small.$SMALL.done"
fi
NSMALL=$(ls "$WORK"/small/*.7z | wc -l)

# The argument lists: the yearly files REPEAT times (largest first, as the scan schedules
# them), the .tar REPEAT times.
: > "$WORK/many7z.args"
for _ in $(seq "$REPEAT"); do ls -S "$WORK"/yearly/*.7z >> "$WORK/many7z.args"; done
: > "$WORK/manytar.args"
for _ in $(seq "$REPEAT"); do echo "$WORK/corpus.tar" >> "$WORK/manytar.args"; done

RAW="$WORK/memory.tsv"
: > "$RAW"
# timed ROUND NAME JOBS CMD...: one run, "ROUND NAME JOBS wall peak-RSS-KB CPU" appended.
timed() {
    local round=$1 name=$2 jobs=$3; shift 3
    /usr/bin/time -v -o "$WORK/time.out" "$@" > /dev/null
    local wall kb user sys
    wall=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$WORK/time.out" \
        | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/time.out")
    user=$(sed -n 's/.*User time (seconds): //p' "$WORK/time.out")
    sys=$(sed -n 's/.*System time (seconds): //p' "$WORK/time.out")
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$jobs" "$wall" "$kb" \
        "$(awk "BEGIN { print $user + $sys }")" >> "$RAW"
}
want() { case " $ONLY " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

cat "$WORK"/yearly/*.7z "$WORK"/small/*.7z "$WORK/corpus.tar" > /dev/null
for r in $(seq "$RUNS"); do
    for j in $JOBS_LIST; do
        echo "round $r of $RUNS, --jobs $j" >&2
        SCAN=("$BIN" scan -q --jobs "$j" -o "$WORK/out-mem")
        if want small; then
            timed "$r" scan_small "$j" "${SCAN[@]}" "$WORK/small"
            timed "$r" decode_small "$j" sh -c \
                "ls -S '$WORK'/small/*.7z | xargs -P $j -n 1 sh -c '7zz x -so \"\$0\" > /dev/null'"
        fi
        if want yearly; then
            timed "$r" scan_yearly "$j" "${SCAN[@]}" "$WORK/yearly"
            timed "$r" decode_yearly "$j" sh -c \
                "ls -S '$WORK'/yearly/*.7z | xargs -P $j -n 1 sh -c '7zz x -so \"\$0\" > /dev/null'"
        fi
        if want many7z; then
            mapfile -t ARGS < "$WORK/many7z.args"
            timed "$r" scan_many7z "$j" "${SCAN[@]}" "${ARGS[@]}"
            timed "$r" decode_many7z "$j" sh -c \
                "xargs -a '$WORK/many7z.args' -P $j -n 1 sh -c '7zz x -so \"\$0\" > /dev/null'"
        fi
        if want manytar; then
            mapfile -t ARGS < "$WORK/manytar.args"
            timed "$r" scan_manytar "$j" "${SCAN[@]}" "${ARGS[@]}"
        fi
    done
done
rm -rf "$WORK/out-mem"

python3 - "$RAW" "$GAMES" "$NSMALL" "$REPEAT" <<'PY'
import statistics, sys
from collections import defaultdict
raw, games, nsmall, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
walls, peak, cpus, by_round = defaultdict(list), defaultdict(int), defaultdict(list), defaultdict(dict)
for line in open(raw):
    r, name, jobs, wall, kb, cpu = line.rstrip("\n").split("\t")
    key = (name, jobs)
    walls[key].append(float(wall))
    cpus[key].append(float(cpu))
    peak[key] = max(peak[key], int(kb))
    by_round[(r, jobs)][name] = float(wall)
what = {
    "small": f"{nsmall} small .7z ({games} games)",
    "yearly": f"19 yearly .7z ({games} games)",
    "many7z": f"{19 * repeat} .7z: the yearly named {repeat} times ({games * repeat:,} games)",
    "manytar": f"{repeat} .tar: the corpus .tar named {repeat} times ({games * repeat:,} games)",
}
print("| input | --jobs | scan wall (s) | scan CPU (s) | scan peak RSS (MB) | 7zz wall (s) | 7zz peak RSS (MB) | wall ratio |")
print("|---|---|---|---|---|---|---|---|")
for (name, jobs) in sorted({k for k in walls if k[0].startswith("scan_")}, key=lambda k: (list(what).index(k[0][5:]), int(k[1]))):
    kind = name[5:]
    dec = ("decode_" + kind, jobs)
    ratios = sorted(w[name] / w["decode_" + kind] for (r, j), w in by_round.items()
                    if j == jobs and name in w and "decode_" + kind in w)
    ratio = f"{statistics.median(ratios):.2f}" + (f" ({ratios[0]:.2f}-{ratios[-1]:.2f})" if len(ratios) > 1 else "") if ratios else ""
    dwall = f"{statistics.median(walls[dec]):.2f}" if dec in walls else ""
    drss = f"{peak[dec] / 1024:.0f}" if dec in peak else ""
    print(f"| {what[kind]} | {jobs} | {statistics.median(walls[(name, jobs)]):.2f} | "
          f"{statistics.median(cpus[(name, jobs)]):.2f} | {peak[(name, jobs)] / 1024:.0f} | {dwall} | {drss} | {ratio} |")
load = open("/proc/loadavg").read().split()[:3]
print(f"\nload average at the end (1, 5, 15 min): {' '.join(load)}")
PY
