#!/usr/bin/env bash
# Runs Ply under the real managers it claims to plug into, and counts what
# went wrong. Not part of CI (CI cannot build the managers); run it before
# resolving anything that changes what a protocol prints, and quote it.
#
#   scripts/managers.sh CUTEGAMES C_GOMOKU_CLI [GAMES]
#
# CUTEGAMES and C_GOMOKU_CLI are the managers' binaries, built as
# ../shared/instruments/README.md says (cutegames 409ac9f, c-gomoku-cli
# cdacd85). It builds Ply (release) and runs, each in a scratch folder:
#   1. the README's cutegames example exactly as written (its settings
#      block, its openings line, its command);
#   2. the README's c-gomoku-cli line exactly as written, with Ply as both
#      brains (the line's `../engines/pbrain-other` is the only change);
#   3. cutegames matches of GAMES games (default 20) in Connect Four and in
#      Breakthrough at 1 s + 0.1 s, Ply's default options, GAMES/2
#      openings two plies deep, each played with both colours;
#   4. a c-gomoku-cli match of GAMES/2 games (default 10), 15x15
#      freestyle, 30 s a game and 1 s a move, Ply against itself.
# For each: games finished with a result, protocol errors (a line the
# manager does not take, an error line), time losses, crashes or illegal
# moves, result mismatches, and hangs (a manager still running after its
# time is up). The exit status is 0 only when all of them are clean.
set -uo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
cutegames=$(realpath "$1")
gomoku_cli=$(realpath "$2")
games=${3:-20}
repo=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$repo/Cargo.toml" || exit 1
ply="$repo/target/release/ply"
work=$(mktemp -d)
echo "scratch folder: $work"
bad=0

# A scratch folder in which the README's relative paths (target/release/...)
# name the build.
scratch() {
    local dir="$work/$1"
    mkdir -p "$dir"
    ln -s "$repo/target" "$dir/target"
    echo "$dir"
}

# The body of the README's fenced block after `<!-- checked: NAME -->`.
readme_block() {
    awk -v marker="<!-- checked: $1 -->" '
        $0 == marker { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$repo/README.md"
}

# Every line a cutegames match received from Ply (its --debug log), less
# the lines a UGI client takes: the handshake, info lines, and the exact
# replies cutegames reads (ugiok, readyok, "response X", "bestmove X").
cutegames_garbage() {
    grep -a '^<recv>' "$1" | sed 's/^<recv> *//; s/\r$//' |
        grep -av -E '^(id |option |info |ugiok$|readyok$|response [^ ]+$|bestmove [^ ]+$)' |
        grep -av '^$'
    grep -a 'info string error' "$1" | sed 's/^<recv> *//'
}

# Summary of a cutegames run: its log, its PGN, how many games were asked.
cutegames_report() {
    local label=$1 log=$2 pgn=$3 asked=$4 status=$5
    local finished timeouts mismatches garbage
    finished=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$pgn" 2>/dev/null)
    timeouts=$(grep -c '^\[Adjudicated "Out of time"\]' "$pgn" 2>/dev/null)
    mismatches=$(grep -c '^\[Adjudicated ".* mismatch"\]' "$pgn" 2>/dev/null)
    garbage=$(cutegames_garbage "$log" | wc -l)
    local hung=no
    [ "$status" = 124 ] && hung=yes
    printf '%-34s finished %3s/%-3s  protocol errors %s  time losses %s  mismatches %s  hung %s\n' \
        "$label" "${finished:-0}" "$asked" "$garbage" "${timeouts:-0}" "${mismatches:-0}" "$hung"
    if [ "$garbage" -gt 0 ]; then cutegames_garbage "$log" | sort | uniq -c | head -5; fi
    local clean_finished=$((finished - timeouts - mismatches))
    if [ "$clean_finished" != "$asked" ] || [ "$garbage" != 0 ] || [ "$hung" = yes ]; then
        bad=1
    fi
}

# 1. The README's cutegames example, as written.
dir=$(scratch readme-cutegames)
readme_block cutegames-config >"$dir/c4.json"
(cd "$dir" && echo startpos >c4-openings.txt &&
    timeout 600 "$cutegames" --settings c4.json --debug >log.txt 2>&1)
status=$?
asked=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["games"])' "$dir/c4.json")
cutegames_report "README cutegames example" "$dir/log.txt" "$dir/c4-games.pgn" "$asked" "$status"

# Openings for a cutegames match: the positions after two plies, as FENs,
# the moves of each ply among the root moves Ply lists at depth 1.
openings() {
    local game=$1 count=$2
    python3 - "$ply" "$game" "$count" <<'EOF'
import subprocess, sys
ply, game, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

def ask(script):
    out = subprocess.run([ply, "--game", game], input=script, capture_output=True,
                         text=True, check=True).stdout
    return out.splitlines()

def moves_after(played):
    lines = ask("setoption name MultiPV value 64\nposition startpos moves %s\ngo depth 1\n"
                % " ".join(played))
    moves = []
    for line in lines:
        words = line.split()
        if "multipv" in words and "pv" in words:
            moves.append(words[words.index("pv") + 1])
    return sorted(set(moves))

seen = []
for first in moves_after([]):
    for second in moves_after([first]):
        seen.append((first, second))
step = max(1, len(seen) // count)
for first, second in seen[::step][:count]:
    for line in ask("position startpos moves %s %s\nd\n" % (first, second)):
        if line.startswith("info string fen "):
            print(line[len("info string fen "):])
EOF
}

# 3. cutegames matches at 1 s + 0.1 s, default options.
for game in connect4 breakthrough; do
    dir=$(scratch "cutegames-$game")
    openings "$game" $((games / 2)) >"$dir/openings.txt"
    cat >"$dir/match.json" <<EOF
{
    "game": "generic",
    "games": $games,
    "concurrency": 1,
    "ratinginterval": 10,
    "verbose": false,
    "debug": false,
    "recover": false,
    "tournament": "roundrobin",
    "protocol": { "askturn": true },
    "openings": { "path": "openings.txt", "repeat": true, "shuffle": false },
    "adjudication": { "timeoutbuffer": 100, "maxfullmoves": 200 },
    "timecontrol": { "type": "clock", "time": 1000, "increment": 100 },
    "options": {},
    "pgn": { "enabled": true, "verbose": false, "override": true, "path": "games.pgn", "event": "managers" },
    "engines": [
        { "name": "ply-a", "path": "$ply", "protocol": "UGI", "parameters": "--game $game" },
        { "name": "ply-b", "path": "$ply", "protocol": "UGI", "parameters": "--game $game" }
    ]
}
EOF
    (cd "$dir" && timeout $((games * 60)) "$cutegames" --settings match.json --debug >log.txt 2>&1)
    status=$?
    cutegames_report "cutegames $game 1s+0.1s" "$dir/log.txt" "$dir/games.pgn" "$games" "$status"
done

# Summary of a c-gomoku-cli run: its output and its -log of every line.
gomoku_cli_report() {
    local label=$1 out=$2 log=$3 asked=$4 status=$5
    local finished losses garbage
    finished=$(grep -c 'Finished game .*{\(Black\|White\) win by five connection}\|Finished game .*{Draw by fullfilled board}' "$out")
    losses=$(grep -c 'Finished game .*\(time forfeit\|crash\|illegal move\|forbidden move\)' "$out")
    # Lines the brains sent that are none of: the ABOUT line, OK, a move,
    # MESSAGE or DEBUG lines.
    garbage=$(grep -a ' -> ' "$log" | sed 's/^[^ ]* -> //' |
        grep -av -E '^(name=".*|OK|[0-9]+,[0-9]+|MESSAGE .*|DEBUG .*)$' | wc -l)
    local hung=no
    [ "$status" = 124 ] && hung=yes
    printf '%-34s finished %3s/%-3s  protocol errors %s  time losses/crashes/illegal %s  hung %s\n' \
        "$label" "$finished" "$asked" "$garbage" "$losses" "$hung"
    if [ "$finished" != "$asked" ] || [ "$garbage" != 0 ] || [ "$losses" != 0 ] || [ "$hung" = yes ]; then
        bad=1
    fi
}

# 2. The README's c-gomoku-cli line, as written, Ply against Ply.
dir=$(scratch readme-gomoku-cli)
line=$(readme_block c-gomoku-cli | sed 's/\\$//' | tr '\n' ' ')
line=${line/#c-gomoku-cli/$gomoku_cli}
line=${line//..\/engines\/pbrain-other/target\/release\/pbrain-ply}
# -games counts games (-repeat pairs them on an opening).
asked=$(echo "$line" | sed -n 's/.*-games \([0-9]*\).*/\1/p')
(cd "$dir" && eval "timeout 900 $line -log" >out.txt 2>&1)
gomoku_cli_report "README c-gomoku-cli line" "$dir/out.txt" "$dir/c-gomoku-cli.1.log" "$asked" "$?"

# 4. A c-gomoku-cli match on balanced 15x15 openings.
dir=$(scratch gomoku-cli-match)
grep -v '^#' "$repo/openings/freestyle-15.txt" >"$dir/openings.txt"
(cd "$dir" && timeout $((games * 120)) "$gomoku_cli" -each tc=30/1 \
    -engine name=ply-a cmd=target/release/pbrain-ply \
    -engine name=ply-b cmd=target/release/pbrain-ply \
    -rule 0 -boardsize 15 -games $((games / 2)) -repeat \
    -openings file=openings.txt type=offset order=sequential \
    -sgf games.sgf -log >out.txt 2>&1)
gomoku_cli_report "c-gomoku-cli 15x15 freestyle 30/1" "$dir/out.txt" "$dir/c-gomoku-cli.1.log" \
    $((games / 2)) "$?"

if [ "$bad" = 0 ]; then echo "all clean"; else echo "NOT CLEAN: see above and $work"; fi
exit "$bad"
