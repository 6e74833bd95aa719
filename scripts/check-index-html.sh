#!/usr/bin/env bash
# Render a report's index.html in headless Chromium, offline, to a PNG, to see that the
# page renders (tables, figures) with nothing fetched.
#   scripts/check-index-html.sh REPORT_DIR [OUT.png]   (default OUT: REPORT_DIR/index.png)
# Needs chromium (`apt-get install -y chromium` on Debian).
set -euo pipefail
dir=${1:?usage: scripts/check-index-html.sh REPORT_DIR [OUT.png]}
page="$(cd "$dir" && pwd)/index.html"
out=${2:-$dir/index.png}
[ -f "$page" ] || { echo "no index.html in $dir" >&2; exit 2; }
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome) ||
  { echo "chromium not found (apt-get install -y chromium)" >&2; exit 2; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
  --screenshot="$out" --window-size=1280,4000 "file://$page"
echo "rendered $page to $out"
