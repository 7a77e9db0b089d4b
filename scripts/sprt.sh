#!/usr/bin/env bash
# The standard self-test of a change: the new binary against a saved
# previous one, in one game, until the SPRT decides.
#
# Usage: scripts/sprt.sh GAME OLD_BINARY [NEW_BINARY] [-- extra ply match args]
#   GAME        gomoku, connect4, tictactoe, lasca
#   OLD_BINARY  a saved ply binary (e.g. cp target/release/ply /tmp/ply-base
#               before the change)
#   NEW_BINARY  defaults to target/release/ply, rebuilt first
# Settings from the environment (defaults in brackets):
#   TC [10+0.1]  SPRT [elo0=0,elo1=10,alpha=0.05,beta=0.05]  GAMES [20000]
#   CONCURRENCY [number of cores]  OPENINGS [none]  SEED [1]
# The last line is ply match's JSON summary; the exit status is 0 when H1
# is accepted (the change is an improvement), 1 when rejected, 2 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
game=$1
old=$2
shift 2
new=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    new=$1
    shift
fi
[ "${1:-}" = "--" ] && shift
if [ -z "$new" ]; then
    cargo build --release --quiet
    new=target/release/ply
fi
for b in "$old" "$new"; do
    [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }
done
args=(
    match --game "$game"
    --engine "cmd=$new --game $game,name=new"
    --engine "cmd=$old --game $game,name=old"
    --games "${GAMES:-20000}"
    --tc "${TC:-10+0.1}"
    --concurrency "${CONCURRENCY:-$(nproc 2>/dev/null || echo 1)}"
    --sprt "${SPRT:-elo0=0,elo1=10,alpha=0.05,beta=0.05}"
    --seed "${SEED:-1}"
)
if [ -n "${OPENINGS:-}" ]; then
    args+=(--openings "$OPENINGS" --order random)
fi
out=$("$new" "${args[@]}" "$@" | tee /dev/stderr | tail -n 1)
case "$out" in
    *'"sprt":"accept"'*) exit 0 ;;
    *'"sprt":"reject"'*) exit 1 ;;
    *) exit 2 ;;
esac
