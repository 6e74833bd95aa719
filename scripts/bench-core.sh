#!/usr/bin/env bash
# Speed of the position core beside rsshogi (one run, same machine), then the deep perft
# counts that the default test run skips.
#
#   scripts/bench-core.sh            # BENCH_RUNS=5 by default
#   BENCH_RUNS=9 scripts/bench-core.sh
#   SKIP_DEEP=1 scripts/bench-core.sh  # only the speed table
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== speed: cargo bench --bench core --no-default-features (median of ${BENCH_RUNS:-5} runs)"
date -u +"%Y-%m-%d %H:%M UTC"
nproc | xargs echo "cores:"
cargo bench --bench core --no-default-features

if [ "${SKIP_DEEP:-0}" != "1" ]; then
    echo
    echo "== deep perft (ignored by the default test run)"
    cargo test --no-default-features --test core_perft -- --ignored --test-threads 1
fi
