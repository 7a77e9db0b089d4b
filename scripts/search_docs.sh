#!/usr/bin/env bash
# Regenerates the tables and charts of docs/search.md: `ply compare` per
# game on its bench positions (CSV + SVG in docs/search/), and the A1/A2
# runs from the start position. Node counts are the same on every machine;
# times are not.
# Usage: scripts/search_docs.sh [GAME...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
ply=target/release/ply
out=docs/search
mkdir -p "$out"
start=$(mktemp)
trap 'rm -f "$start"' EXIT
echo > "$start" # one empty line: the start position

# game, depth on the bench positions, depth from the start, node cap
runs=(
    "connect4 10 12 20000000"
    "breakthrough 5 8 80000000"
    "gomoku 4 6 5000000"
    "lasca 12 14 20000000"
)
for run in "${runs[@]}"; do
    read -r game bench_depth start_depth cap <<<"$run"
    if [ $# -gt 0 ] && [[ " $* " != *" $game "* ]]; then continue; fi
    echo "== $game" >&2
    "$ply" --game "$game" compare --depth "$bench_depth" --max-nodes "$cap" --csv \
        --svg "$out/$game.svg" >"$out/$game.csv"
    "$ply" --game "$game" compare --positions "$start" --depth "$start_depth" \
        --max-nodes "$cap" --csv --svg "$out/$game-start.svg" >"$out/$game-start.csv"
done
