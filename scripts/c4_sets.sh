#!/bin/sh
# Ply's exact solver on Pascal Pons' six Connect Four test sets, as a table:
# mean microseconds and nodes per position, every score checked.
#
#   scripts/c4_sets.sh [OTHER_SOLVER]
#
# OTHER_SOLVER, when given, is a command that reads `<moves>` lines on stdin
# and prints `<moves> <score> <nodes> <microseconds>` per line, each
# position from a cleared table (a harness around Pons' solver, say); its
# columns and the Ply/other ratios are added. The two run in turn, a
# tenth of the set at a time (at least one line): the time ratio is the
# median of the chunks' ratios of mean times, so that both see the same
# machine load; median times per position are shown too. Both report the
# solve alone, the table cleared before each position and the clearing
# not counted. Environment: DATA (the sets; default: the
# first shared/data/connect4 above the checkout), HASH (MB, default 128), and the lines taken of
# the long sets: L2R2 (200), L1R2 (20), L1R3 (5); SETS (default: all six), the names of the
# sets to run, e.g. SETS="Test_L2_R2 Test_L1_R2"; PLY, a Ply binary to use instead of
# building this checkout (a copy keeps a long run apart from rebuilds).
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
if [ -z "${PLY:-}" ]; then
    cargo build --release --quiet
    PLY=target/release/ply
fi
SETS=${SETS:-Test_L3_R1 Test_L2_R1 Test_L1_R1 Test_L2_R2 Test_L1_R2 Test_L1_R3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ -n "$OTHER" ]; then
    echo "| set | positions | Ply µs mean | other µs mean | Ply µs median | other µs median | time ratio (chunk median) | Ply nodes | other nodes | node ratio | Ply exact |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
else
    echo "| set | positions | Ply µs mean | Ply µs median | Ply nodes | Ply exact |"
    echo "|---|---|---|---|---|---|"
fi
# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for spec in Test_L3_R1:1000 Test_L2_R1:1000 Test_L1_R1:1000 \
    "Test_L2_R2:${L2R2:-200}" "Test_L1_R2:${L1R2:-20}" "Test_L1_R3:${L1R3:-5}"; do
    set_name=${spec%%:*}
    lines=${spec#*:}
    case " $SETS " in *" $set_name "*) ;; *) continue ;; esac
    head -n "$lines" "$DATA/$set_name" > "$TMP/in"
    total=$(wc -l < "$TMP/in")
    rm -f "$TMP"/chunk_* "$TMP/ply" "$TMP/other" "$TMP/ratios"
    split -l $(( (total + 9) / 10 )) "$TMP/in" "$TMP/chunk_"
    for chunk in "$TMP"/chunk_*; do
        "$PLY" --game connect4 --hash "$HASH" solve --file "$chunk" > "$TMP/ply_chunk" || true
        cat "$TMP/ply_chunk" >> "$TMP/ply"
        if [ -n "$OTHER" ]; then
            cut -d' ' -f1 "$chunk" | $OTHER > "$TMP/other_chunk"
            cat "$TMP/other_chunk" >> "$TMP/other"
            a=$(awk '$3 == "nodes" { t += $6; c++ } END { print t / c }' "$TMP/ply_chunk")
            b=$(awk '{ t += $4; c++ } END { print t / c }' "$TMP/other_chunk")
            echo "$a $b" | awk '{ print ($2 > 0 ? $1 / $2 : 1) }' >> "$TMP/ratios"
        fi
    done
    set -- $(awk '$3 == "nodes" { n += $4; t += $6; c++; if ($7 == "ok") ok++ }
        END { printf "%d %.1f %.0f %d", c, t / c, n / c, ok }' "$TMP/ply")
    count=$1 ply_us=$2 ply_nodes=$3 ok=$4
    ply_median=$(awk '$3 == "nodes" { print $6 }' "$TMP/ply" | median)
    if [ -n "$OTHER" ]; then
        set -- $(awk '{ n += $3; t += $4; c++ } END { printf "%.1f %.0f", t / c, n / c }' "$TMP/other")
        other_us=$1 other_nodes=$2
        other_median=$(awk '{ print $4 }' "$TMP/other" | median)
        ratio=$(median < "$TMP/ratios" | awk '{ printf "%.2f", $1 }')
        echo "| $set_name | $count | $ply_us | $other_us | $ply_median | $other_median | $ratio | $ply_nodes | $other_nodes | $(echo "$ply_nodes $other_nodes" | awk '{ printf "%.2f", $1 / $2 }') | $ok/$count |"
    else
        echo "| $set_name | $count | $ply_us | $ply_median | $ply_nodes | $ok/$count |"
    fi
done
