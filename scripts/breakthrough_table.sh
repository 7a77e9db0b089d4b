#!/bin/sh
# The start of Breakthrough solved on small boards by two independent
# methods, as a table: the null-window solver (Pons' bisection, bounded by
# the plies the pieces can still walk) gives the exact value and length;
# depth-first proof-number search (races decided by the rules count as
# proved) gives the value again. Value, plies, nodes, time, memory.
#
#   scripts/breakthrough_table.sh [SIZE...]
#
# SIZES default to 4x4 5x4 4x5 5x5 (5x5 takes about a minute and a half
# each way here). Environment: HASH (MB per table, default 1024), PLY (a
# Ply binary to use instead of building this checkout), LIMIT (seconds
# per solve, default 3600). A solve cut short by LIMIT is shown as
# `stopped`; run with RUST_LOG=info to see the solver's range of values
# and the proof numbers of the root as they narrow.
set -eu
cd "$(dirname "$0")/.."
HASH=${HASH:-1024}
LIMIT=${LIMIT:-3600}
if [ -z "${PLY:-}" ]; then
    cargo build --release --quiet
    PLY=target/release/ply
fi
[ $# -gt 0 ] || set -- 4x4 5x4 4x5 5x5
printf '%-5s %-10s %-9s %7s %13s %10s %9s\n' size method value plies nodes seconds rss_MB
for size in "$@"; do
    for method in bisection pns; do
        flag=""
        [ "$method" = pns ] && flag="--pns"
        out=$(echo start | /usr/bin/time -f "rss_kb %M" timeout "$LIMIT" \
            "$PLY" solve --game breakthrough --size "$size" --hash "$HASH" $flag 2>&1) || true
        line=$(echo "$out" | grep '^start ' || true)
        rss=$(echo "$out" | sed -n 's/^rss_kb //p')
        if [ -z "$line" ]; then
            printf '%-5s %-10s %-9s %7s %13s %10s %9s\n' "$size" "$method" stopped - - ">$LIMIT" $((rss / 1024))
            continue
        fi
        score=$(echo "$line" | awk '{print $2}')
        nodes=$(echo "$line" | sed 's/.* nodes \([0-9]*\).*/\1/')
        us=$(echo "$line" | sed 's/.* time_us \([0-9]*\).*/\1/')
        case "$score" in
            -*) value="2nd wins" ;;
            0) value=draw ;;
            *) value="1st wins" ;;
        esac
        plies=-
        [ "$method" = bisection ] && plies=${score#-}
        printf '%-5s %-10s %-9s %7s %13s %10s %9s\n' "$size" "$method" "$value" "$plies" \
            "$nodes" "$(awk "BEGIN{printf \"%.2f\", $us / 1e6}")" $((rss / 1024))
    done
done
