#!/usr/bin/env bash
# Renders an SVG (e.g. from `ply compare --svg`) to a PNG with headless
# Chromium, to check that a browser draws it. Not part of `cargo test`:
# CI has no browser.
# Usage: scripts/render_svg.sh CHART.svg [OUT.png]
set -euo pipefail
svg=${1:?usage: scripts/render_svg.sh CHART.svg [OUT.png]}
png=${2:-${svg%.svg}.png}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "no Chromium found (apt-get install chromium)" >&2
    exit 2
fi
# The chart's own size, so that the screenshot holds all of it.
width=$(grep -o 'width="[0-9.]*"' "$svg" | head -1 | tr -dc '0-9.' | cut -d. -f1)
height=$(grep -o 'height="[0-9.]*"' "$svg" | head -1 | tr -dc '0-9.' | cut -d. -f1)
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$profile" \
    --window-size="${width:-960},${height:-560}" \
    --screenshot="$(realpath -m "$png")" "file://$(realpath "$svg")" >/dev/null 2>&1
[ -s "$png" ] || { echo "no screenshot written" >&2; exit 1; }
echo "$png"
