#!/usr/bin/env bash
# Speed of the position core beside rsshogi (one run, same machine), then the deep checks
# that the default test run skips: perft to depth 6 and many more property-test cases.
#
#   scripts/bench-core.sh            # BENCH_RUNS=5 by default
#   BENCH_RUNS=9 scripts/bench-core.sh
#   SKIP_DEEP=1 scripts/bench-core.sh  # only the speed table
#   DEEP_CASES=20000 scripts/bench-core.sh  # property-test cases (default 5000)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== speed: cargo bench --bench core --no-default-features (median of ${BENCH_RUNS:-5} runs)"
date -u +"%Y-%m-%d %H:%M UTC"
nproc | xargs echo "cores:"
cargo bench --bench core --no-default-features

if [ "${SKIP_DEEP:-0}" != "1" ]; then
    echo
    echo "== deep perft (ignored by the default test run)"
    cargo test --no-default-features --test core core_perft:: -- --ignored --test-threads 1
    echo
    echo "== property tests, ${DEEP_CASES:-5000} cases each"
    PROPTEST_CASES="${DEEP_CASES:-5000}" cargo test --no-default-features --test core core_properties::
fi
