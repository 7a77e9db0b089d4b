#!/usr/bin/env bash
# Soak: long unattended matches of Ply against itself at a fast clock, one
# per protocol family (Gomoku under Piskvork, Connect Four and Breakthrough
# under UGI), counting crashes, hangs (a killed engine is a time loss) and
# time losses, as a tournament operator would see them.
# Usage: [PLY=binary] [TC=1+0.01] [CONCURRENCY=1] scripts/soak.sh [GAMES]
# (GAMES per family, default 1000). Exit status 1 if any fault was seen.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
tc=${TC:-1+0.01}
concurrency=${CONCURRENCY:-1}
if [ -z "${PLY:-}" ]; then
    cargo build --release --quiet
fi
ply=${PLY:-$(pwd)/target/release/ply}
brain=${BRAIN:-$(dirname "$ply")/pbrain-ply}
faults=0
soak() {
    local family=$1
    shift
    local json
    json=$("$ply" match "$@" --games "$games" --tc "$tc" --concurrency "$concurrency" \
        --seed 7 --quiet 2>/dev/null | tail -1)
    local line
    line=$(echo "$json" | python3 -c '
import json, sys
j = json.load(sys.stdin)
faults = sum(j[k] for k in ("time_losses", "illegal", "crashes", "garbage",
    "opponent_time_losses", "opponent_illegal", "opponent_crashes", "opponent_garbage"))
print("%d games  +%d =%d -%d  time losses %d  illegal %d  crashes %d  garbage %d  faults %d" % (
    j["games"], j["wins"], j["draws"], j["losses"],
    j["time_losses"] + j["opponent_time_losses"], j["illegal"] + j["opponent_illegal"],
    j["crashes"] + j["opponent_crashes"], j["garbage"] + j["opponent_garbage"], faults))')
    printf '%-28s %s\n' "$family" "$line"
    case "$line" in *"faults 0") ;; *) faults=1 ;; esac
}
soak "gomoku (piskvork)" --game gomoku \
    --engine "cmd=$brain,proto=piskvork,name=a" --engine "cmd=$brain,proto=piskvork,name=b"
soak "connect4 (ugi)" --game connect4 \
    --engine "cmd=$ply --game connect4,name=a" --engine "cmd=$ply --game connect4,name=b"
soak "breakthrough (ugi)" --game breakthrough \
    --engine "cmd=$ply --game breakthrough,name=a" --engine "cmd=$ply --game breakthrough,name=b"
exit $faults
