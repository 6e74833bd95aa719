#!/usr/bin/env bash
# Regenerate the golden reports of the bundled fixtures (reports/fixtures/): scan the
# fixture archives bundled in fixtures/ (the scan's default input), then make the report
# with the default settings. tests/report/report_golden.rs recomputes them and compares.
# The Parquet copies are not kept (the CSV files hold the same tables).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cargo run --quiet -- scan --quiet -o "$tmp/scan"
rm -rf reports/fixtures
cargo run --quiet -- report "$tmp/scan/games.parquet" -o reports/fixtures
rm -f reports/fixtures/*.parquet reports/fixtures/.floodgate-scan.lock
echo "reports/fixtures regenerated:"
ls reports/fixtures
