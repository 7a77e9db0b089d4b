#!/bin/sh
# Ply's exact solver on Pascal Pons' six Connect Four test sets, as a table:
# mean microseconds and nodes per position, every score checked.
#
#   scripts/c4_sets.sh [OTHER_SOLVER]
#
# OTHER_SOLVER, when given, is a command that reads `<moves>` lines on stdin
# and prints `<moves> <score> <nodes> <microseconds>` per line, each
# position from a cleared table (a harness around Pons' solver, say); its
# columns and the Ply/other ratios are added. The two run in turn, 100
# lines at a time. Environment: DATA (the sets; default: the
# first shared/data/connect4 above the checkout), HASH (MB, default 128), and the lines taken of
# the long sets: L2R2 (200), L1R2 (20), L1R3 (5).
set -eu
cd "$(dirname "$0")/.."
if [ -z "${DATA:-}" ]; then
    # The first shared/data/connect4 above the checkout.
    dir=$(pwd)
    while [ "$dir" != / ] && [ ! -d "$dir/shared/data/connect4" ]; do dir=$(dirname "$dir"); done
    DATA=$dir/shared/data/connect4
fi
HASH=${HASH:-128}
OTHER=${1:-}
cargo build --release --quiet
PLY=target/release/ply
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ -n "$OTHER" ]; then
    echo "| set | positions | Ply µs | other µs | time ratio | Ply nodes | other nodes | node ratio | Ply exact |"
    echo "|---|---|---|---|---|---|---|---|---|"
else
    echo "| set | positions | Ply µs | Ply nodes | Ply exact |"
    echo "|---|---|---|---|---|"
fi
for spec in Test_L3_R1:1000 Test_L2_R1:1000 Test_L1_R1:1000 \
    "Test_L2_R2:${L2R2:-200}" "Test_L1_R2:${L1R2:-20}" "Test_L1_R3:${L1R3:-5}"; do
    set_name=${spec%%:*}
    lines=${spec#*:}
    head -n "$lines" "$DATA/$set_name" > "$TMP/in"
    # Chunks of 100 lines, Ply's and the other's in turn, so that both see
    # the same machine load.
    rm -f "$TMP"/chunk_* "$TMP/ply" "$TMP/other"
    split -l 100 "$TMP/in" "$TMP/chunk_"
    for chunk in "$TMP"/chunk_*; do
        "$PLY" --game connect4 --hash "$HASH" solve --file "$chunk" >> "$TMP/ply" || true
        if [ -n "$OTHER" ]; then
            cut -d' ' -f1 "$chunk" | $OTHER >> "$TMP/other"
        fi
    done
    ply_figures=$(awk '$3 == "nodes" { n += $4; t += $6; c++; if ($7 == "ok") ok++ }
        END { printf "%d %.1f %.0f %d", c, t / c, n / c, ok }' "$TMP/ply")
    set -- $ply_figures
    count=$1 ply_us=$2 ply_nodes=$3 ok=$4
    if [ -n "$OTHER" ]; then
        set -- $(awk '{ n += $3; t += $4; c++ } END { printf "%.1f %.0f", t / c, n / c }' "$TMP/other")
        other_us=$1 other_nodes=$2
        echo "| $set_name | $count | $ply_us | $other_us | $(echo "$ply_us $other_us" | awk '{ printf "%.2f", $1 / $2 }') | $ply_nodes | $other_nodes | $(echo "$ply_nodes $other_nodes" | awk '{ printf "%.2f", $1 / $2 }') | $ok/$count |"
    else
        echo "| $set_name | $count | $ply_us | $ply_nodes | $ok/$count |"
    fi
done
