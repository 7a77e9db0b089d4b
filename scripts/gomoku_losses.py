#!/usr/bin/env python3
"""When did Ply's own threat search see a lost gomoku game coming?

Reads the records of `ply match --pgn FILE` and, for every game the named
engine lost, replays the loser's moves: after each of them it asks Ply
(UGI, `go movetime MS`, threat-space search on) for the opponent's best
move and notes whether Ply proves a win for the opponent (`score mate N`,
N > 0). Prints one line per lost game and a summary: in how many losses
the opponent's forced win was visible to Ply at least one of the loser's
moves before the end, and how early.

usage: scripts/gomoku_losses.py RECORDS.pgn LOSER [--ply PATH]
       [--movetime MS] [--rule R] [--size N]
"""

import argparse
import re
import subprocess
import sys


def games(path):
    """(tags, moves) of each record in a ply match PGN file."""
    text = open(path, encoding="utf-8").read()
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', block, re.M))
        body = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        moves = [
            w
            for w in body.split()
            if not re.fullmatch(r"\d+\.(\.\.)?|1-0|0-1|1/2-1/2", w)
        ]
        yield tags, moves


class Ply:
    def __init__(self, path, rule, size, movetime):
        args = [path, "--game", "gomoku"]
        if rule:
            args += ["--rule", rule]
        if size:
            args += ["--size", str(size)]
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.movetime = movetime
        self.send("ugi")
        self.wait("ugiok")
        self.send("setoption name UseThreatSpace value true")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, word):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("ply ended unexpectedly")
            if line.split()[:1] == [word]:
                return line

    def mate_for_side_to_move(self, moves):
        """Plies to the side to move's proved win, or None."""
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go movetime {self.movetime}")
        mate = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("ply ended unexpectedly")
            found = re.search(r"score mate (-?\d+)", line)
            if found:
                mate = int(found.group(1))
            elif " score " in line:
                mate = None
            if line.startswith("bestmove"):
                return mate if mate is not None and mate > 0 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("loser", help="the engine's name in the records")
    parser.add_argument("--ply", default="target/release/ply")
    parser.add_argument("--movetime", type=int, default=1000)
    parser.add_argument("--rule")
    parser.add_argument("--size", type=int)
    args = parser.parse_args()
    ply = Ply(args.ply, args.rule, args.size, args.movetime)

    losses = seen = 0
    earliest = []
    for tags, moves in games(args.records):
        result = tags.get("Result")
        side = {"White": 0, "Black": 1}
        lost_as = None
        for tag, index in side.items():
            if tags.get(tag) == args.loser:
                lost_as = index
        if lost_as is None or result not in ("1-0", "0-1"):
            continue
        if (result == "1-0") != (lost_as == 1):
            continue
        losses += 1
        first = None
        for i in range(lost_as, len(moves), 2):
            if ply.mate_for_side_to_move(moves[: i + 1]) is not None:
                first = i
                break
        # Plies from the loser's move to the end: 1 means only the final
        # five was seen.
        left = None if first is None else len(moves) - 1 - first
        if left is not None and left > 1:
            seen += 1
            earliest.append(left)
        print(
            f"game {tags.get('Game')}: {len(moves)} plies, "
            + (
                "never proved"
                if left is None
                else f"opponent's win proved {left} plies before the end"
            ),
            flush=True,
        )
    ply.send("quit")
    print(
        f"losses {losses}; opponent's forced win visible to Ply before its "
        f"last move in {seen}"
        + (
            f" (median {sorted(earliest)[len(earliest) // 2]} plies before the end)"
            if earliest
            else ""
        )
    )


if __name__ == "__main__":
    main()
