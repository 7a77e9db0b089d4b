#!/usr/bin/env bash
# Ply against the built-in baselines (random, greedy, mcts) in one game,
# at a fixed time per move; prints one summary line per opponent.
# Usage: [PLY=binary] scripts/strength.sh GAME [GAMES] [MOVETIME_MS]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/strength.sh GAME [GAMES] [MOVETIME_MS]}
games=${2:-20}
movetime=${3:-100}
# PLY=path plays a saved binary instead of a fresh build.
if [ -z "${PLY:-}" ]; then
    cargo build --release --quiet
fi
ply=${PLY:-$(pwd)/target/release/ply}
for opponent in random greedy mcts; do
    json=$("$ply" match --game "$game" --engine "cmd=$ply --game $game,name=ply" \
        --engine "builtin=$opponent" --games "$games" --movetime "$movetime" --seed 1 --quiet 2>/dev/null | tail -1)
    # games/wins/draws/losses and faults, from the JSON line.
    summary=$(echo "$json" | python3 -c '
import json, sys
j = json.load(sys.stdin)
print("+%d =%d -%d of %d  score %.3f  elo %+.0f +/- %.0f  time losses %d/%d  illegal %d/%d  crashes %d/%d" % (
    j["wins"], j["draws"], j["losses"], j["games"], j["score"], j["elo"], j["elo_error"],
    j["time_losses"], j["opponent_time_losses"], j["illegal"], j["opponent_illegal"],
    j["crashes"], j["opponent_crashes"]))')
    printf '%-13s vs %-7s %s\n' "$game" "$opponent" "$summary"
done
