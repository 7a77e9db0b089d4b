#!/usr/bin/env bash
# Ply against the built-in baselines (random, greedy, mcts) in one game,
# at a fixed time per move; prints one summary line per opponent.
# Usage: scripts/strength.sh GAME [GAMES] [MOVETIME_MS]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/strength.sh GAME [GAMES] [MOVETIME_MS]}
games=${2:-20}
movetime=${3:-100}
cargo build --release --quiet
ply="$(pwd)/target/release/ply"
for opponent in random greedy mcts; do
    json=$("$ply" match --game "$game" --engine "cmd=$ply --game $game,name=ply" \
        --engine "builtin=$opponent" --games "$games" --movetime "$movetime" --seed 1 --quiet 2>/dev/null | tail -1)
    # games/wins/draws/losses and faults, from the JSON line.
    summary=$(echo "$json" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(f"+{j[\"wins\"]} ={j[\"draws\"]} -{j[\"losses\"]} of {j[\"games\"]}  score {j[\"score\"]:.3f}  elo {j[\"elo\"]:+.0f} +/- {j[\"elo_error\"]:.0f}  time losses {j[\"time_losses\"]}/{j[\"opponent_time_losses\"]}  illegal {j[\"illegal\"]}/{j[\"opponent_illegal\"]}  crashes {j[\"crashes\"]}/{j[\"opponent_crashes\"]}")')
    printf '%-13s vs %-7s %s\n' "$game" "$opponent" "$summary"
done
