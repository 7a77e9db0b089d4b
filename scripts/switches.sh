#!/usr/bin/env bash
# Nodes to reach a fixed depth with every search enhancement on, with all
# off (plain alpha-beta), and with each one off in turn, through UGI.
# Usage: scripts/switches.sh [GAME] [DEPTH] [MOVES...]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-connect4}
depth=${2:-10}
shift $(( $# > 2 ? 2 : $# ))
moves="$*"
cargo build --release --quiet
ply=target/release/ply
switches=$(printf 'ugi\nquit\n' | "$ply" | awk '/type check/ {print $3}')

# Runs one search with the given switches off; prints nodes and time.
run() {
    {
        echo "setoption name Game value $game"
        for s in "$@"; do echo "setoption name $s value false"; done
        echo "position startpos${moves:+ moves $moves}"
        echo "go depth $depth"
    } | "$ply" | awk '/^info depth/ {for (i = 1; i < NF; i++) {if ($i == "nodes") n = $(i+1); if ($i == "time") t = $(i+1)}} END {printf "%12d nodes %8d ms\n", n, t}'
}

printf '%-26s %s\n' "all on" "$(run)"
# shellcheck disable=SC2086
printf '%-26s %s\n' "all off (plain alpha-beta)" "$(run $switches)"
for s in $switches; do
    printf '%-26s %s\n' "$s off" "$(run "$s")"
done
