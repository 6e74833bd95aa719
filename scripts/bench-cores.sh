#!/usr/bin/env bash
# How the scan and cshogi use the cores: wall time and CPU time (user + system, all threads)
# of one process alone and of two processes started together, each over the whole corpus.
# A program whose two processes side by side take no more CPU a game than one alone gains
# nothing from the machine being shared; its best rate on N cores is N / (CPU a game).
#
#   scripts/bench-cores.sh WORKDIR      (a WORKDIR made by scripts/bench-scan.sh)
#
# Environment: RUNS (rounds, default 5; medians), FEATURES (extra cargo flags, as for
# bench-scan.sh). The measurements of a round run one after another, round after round, so
# that a drift of the machine's speed falls on all of them alike. Needs python3 with cshogi,
# GNU tar and /usr/bin/time. Run from the repository root.
set -euo pipefail

WORK=${1:?usage: scripts/bench-cores.sh WORKDIR (made by scripts/bench-scan.sh)}
RUNS=${RUNS:-5}
FEATURES=${FEATURES:-}
BENCH=../shared/bench
TARGET=${CARGO_TARGET_DIR:-target}
[ -f "$WORK/corpus.tar" ] || { echo "$WORK/corpus.tar missing: run scripts/bench-scan.sh $WORK first" >&2; exit 2; }

cargo build --release $FEATURES --bin floodgate-scan >&2
BIN=$TARGET/release/floodgate-scan
GAMES=$(find "$WORK/corpus" -name '*.csa' | wc -l)
RAW="$WORK/cores.tsv"
: > "$RAW"
cat "$WORK/corpus.tar" > /dev/null
find "$WORK/corpus" -type f -exec cat {} + > /dev/null

# timed NAME OUT CMD...: write "NAME wall user system" for one run of CMD into OUT. For
# cshogi (a --json FILE last in CMD), the wall time is that of its full pass as it reports
# it: the script also lists the folder and samples the machine's load for a second before
# and after, off the clock. Its CPU time is the whole process's (the listing and the import
# of cshogi included, a few tenths of a second).
timed() {
    local name=$1 out=$2; shift 2
    /usr/bin/time -f "$name %e %U %S" -o "$out" "$@" > /dev/null 2>&1
    if [ "${*: -2:1}" = --json ]; then
        local wall
        wall=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["passes"]["full_1p"]["median_s"])' "${*: -1}")
        read -r n _ user sys_ < "$out"
        echo "$n $wall $user $sys_" > "$out"
    fi
}
# pair NAME CMD_A -- CMD_B: both started together, one line per process.
pair() {
    local name=$1; shift
    local a=() b=()
    while [ "$1" != "--" ]; do a+=("$1"); shift; done
    shift
    b=("$@")
    timed "$name" "$WORK/time.a" "${a[@]}" &
    timed "$name" "$WORK/time.b" "${b[@]}"
    wait
    cat "$WORK/time.a" "$WORK/time.b" >> "$RAW"
}
one() {
    local name=$1; shift
    timed "$name" "$WORK/time.a" "$@"
    cat "$WORK/time.a" >> "$RAW"
}

CSHOGI=(python3 "$BENCH/cshogi_scan.py" --repeat 1 --procs 1 --passes full)
for _ in $(seq "$RUNS"); do
    one  scan_tar_1job  "$BIN" scan -q --jobs 1 -o "$WORK/cores-a" "$WORK/corpus.tar"
    one  scan_tar_2jobs "$BIN" scan -q --jobs 2 -o "$WORK/cores-a" "$WORK/corpus.tar"
    pair scan_tar_1job_x2 "$BIN" scan -q --jobs 1 -o "$WORK/cores-a" "$WORK/corpus.tar" \
        -- "$BIN" scan -q --jobs 1 -o "$WORK/cores-b" "$WORK/corpus.tar"
    one  scan_folder_1job  "$BIN" scan -q --jobs 1 -o "$WORK/cores-a" "$WORK/corpus"
    one  scan_folder_2jobs "$BIN" scan -q --jobs 2 -o "$WORK/cores-a" "$WORK/corpus"
    one  cshogi_1p      "${CSHOGI[@]}" "$WORK/corpus" --json "$WORK/cores-a.json"
    pair cshogi_1p_x2   "${CSHOGI[@]}" "$WORK/corpus" --json "$WORK/cores-a.json" \
        -- "${CSHOGI[@]}" "$WORK/corpus" --json "$WORK/cores-b.json"
done

python3 - "$RAW" "$GAMES" <<'PY'
import statistics, sys
from collections import defaultdict
raw, games = sys.argv[1], int(sys.argv[2])
runs = defaultdict(list)
for line in open(raw):
    name, wall, user, sys_ = line.split()
    runs[name].append((float(wall), float(user) + float(sys_)))
print(f"{games:,} games a process; medians of {len(runs['scan_tar_1job'])} rounds")
print()
print("| measurement | processes | wall (s) | CPU a process (s) | CPU a game (us) | CPUs busy | games/s, all processes |")
print("|---|---|---|---|---|---|---|")
for name, label, procs in [
    ("scan_tar_1job", "scan `.tar`, `--jobs 1`", 1),
    ("scan_tar_2jobs", "scan `.tar`, `--jobs 2`", 1),
    ("scan_tar_1job_x2", "scan `.tar`, `--jobs 1`, two at once", 2),
    ("scan_folder_1job", "scan folder, `--jobs 1`", 1),
    ("scan_folder_2jobs", "scan folder, `--jobs 2`", 1),
    ("cshogi_1p", "cshogi full pass, 1 process", 1),
    ("cshogi_1p_x2", "cshogi full pass, 1 process, two at once", 2),
]:
    r = runs.get(name)
    if not r:
        continue
    wall = statistics.median(w for w, _ in r)
    cpu = statistics.median(c for _, c in r)
    # cshogi's CPU time covers more than its timed pass: no utilisation for it.
    busy = "-" if name.startswith("cshogi") else f"{cpu * procs / wall:.2f}"
    print(f"| {label} | {procs} | {wall:.2f} | {cpu:.2f} | {cpu / games * 1e6:.1f} | "
          f"{busy} | {games * procs / wall:,.0f} |")
PY
