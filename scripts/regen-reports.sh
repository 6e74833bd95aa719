#!/usr/bin/env bash
# Regenerate the golden reports of the bundled fixtures (reports/fixtures/): scan the
# fixture archives bundled in fixtures/ (the scan's default input), then make the report
# with the default settings. tests/report/report_golden.rs recomputes them and compares.
# The Parquet copies are not kept (the CSV files hold the same tables).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Run in the temporary folder with relative paths, as tests/report/report_golden.rs does:
# the report records its command line and the paths of the files it read.
cargo build --quiet
bin="$PWD/target/debug/floodgate-scan"
(cd "$tmp" && "$bin" scan --quiet -o scan && "$bin" report scan/games.parquet -o report)
rm -rf reports/fixtures
cp -r "$tmp/report" reports/fixtures
rm -f reports/fixtures/*.parquet reports/fixtures/.floodgate-scan.lock
echo "reports/fixtures regenerated:"
ls reports/fixtures
