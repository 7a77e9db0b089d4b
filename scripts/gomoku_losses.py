#!/usr/bin/env python3
"""When did Ply's own threat search see a lost gomoku game coming?

Reads the records of `ply match --pgn FILE` (or of a c-gomoku-cli `.sgf`
file) and, for every game the named engine lost, replays the loser's
moves: after each of them it asks Ply (UGI, `go movetime MS`,
threat-space search on) for the opponent's best move and notes whether
Ply proves a win for the opponent (`score mate N`, N > 0). Prints one
line per lost game and a summary: in how many losses the opponent's
forced win was visible to Ply at least one of the loser's moves before
the end, and how early.

With --alternatives EFFORT it asks instead, through the example
`gomoku_refutations` (build it first: cargo build --release --example
gomoku_refutations), at which of the loser's moves the threat search
(VCT, EFFORT nodes) first proves the opponent's win after the move
played, and whether another move there was proved safe: the share of
losses a root defence by threat search could have saved.

usage: scripts/gomoku_losses.py RECORDS LOSER [--ply PATH]
       [--movetime MS] [--rule R] [--size N] [--alternatives EFFORT]
       [--refutations PATH]
"""

import argparse
import re
import subprocess
import sys


def games(path):
    """(tags, moves) of each record in a `ply match --pgn` file, or in a
    c-gomoku-cli `.sgf` file (read as the PGN would have it)."""
    if path.endswith(".sgf"):
        yield from sgf_games(path)
        return
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


def sgf_games(path):
    """(tags, moves) of each game of a c-gomoku-cli SGF file, with the
    tags of a `ply match` PGN: the first player (SGF's black) is `White`,
    `1-0` its win, and `Opening` has a pair of numbers per opening stone
    (the stones c-gomoku-cli marks as opening moves), and `Game` numbers
    the records from 1 in the file's order."""
    text = open(path, encoding="utf-8").read()
    for number, record in enumerate(text.split("(;")[1:], start=1):

        def prop(name):
            found = re.search(r"\b" + name + r"\[([^\]]*)\]", record)
            return found.group(1) if found else ""

        size = int(prop("SZ") or 15)
        # SGF letters: column, then row from the top.
        stones = re.findall(r";[BW]\[([a-z])([a-z])\]", record)
        moves = [f"{x}{size - (ord(y) - ord('a'))}" for x, y in stones]
        outcome = prop("RE")
        result = "1-0" if outcome.startswith("B") else "0-1" if outcome.startswith("W") else "1/2-1/2"
        opening = record.count("C[opening move]")
        tags = {
            "Game": str(number),
            "White": prop("PB"),
            "Black": prop("PW"),
            "Result": result,
            "Opening": ",".join(["0"] * (2 * opening)),
        }
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


def lost_games(path, loser):
    """(tags, moves, index of the loser's first own move: past the
    opening's stones) of each game the loser lost."""
    for tags, moves in games(path):
        result = tags.get("Result")
        colours = {"White": 0, "Black": 1}
        lost_as = next((i for t, i in colours.items() if tags.get(t) == loser), None)
        if lost_as is None or result not in ("1-0", "0-1"):
            continue
        if (result == "1-0") == (lost_as == 1):
            opening = len(tags.get("Opening", "").split(",")) // 2
            first = lost_as + max(0, opening - lost_as + 1) // 2 * 2
            yield tags, moves, first


def alternatives(args):
    """The first of the loser's moves the threat search refutes, per lost
    game, and whether a move proved safe was there instead."""
    cmd = [args.refutations, str(args.alternatives)] + ([args.rule] if args.rule else [])
    tool = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    losses = refuted = savable = 0
    for tags, moves, own in lost_games(args.records, args.loser):
        losses += 1
        verdict = "never refuted"
        for i in range(own, len(moves), 2):
            tool.stdin.write(" ".join(moves[:i]) + " | " + moves[i] + "\n")
            tool.stdin.flush()
            reply = tool.stdout.readline().strip()
            if not reply:
                sys.exit("gomoku_refutations ended unexpectedly")
            if reply != "held":
                refuted += 1
                safe = int(re.search(r"safe (\d+)", reply).group(1))
                savable += safe > 0
                verdict = f"move {i + 1} ({moves[i]}) refuted; {reply.split(': ', 1)[1]}"
                break
        print(f"game {tags.get('Game')}: {verdict}", flush=True)
    tool.stdin.close()
    print(
        f"losses {losses}; a move of the loser's refuted by the threat search in "
        f"{refuted}; a move proved safe was there instead in {savable}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("loser", help="the engine's name in the records")
    parser.add_argument("--ply", help="default target/release/ply")
    parser.add_argument("--movetime", type=int, help="default 1000")
    parser.add_argument("--rule")
    parser.add_argument("--size", type=int)
    parser.add_argument("--alternatives", type=int, metavar="EFFORT")
    parser.add_argument(
        "--refutations", default="target/release/examples/gomoku_refutations"
    )
    args = parser.parse_args()
    if args.alternatives:
        # The example plays the 15x15 board and searches no clock.
        if args.size or args.movetime or args.ply:
            parser.error("--alternatives takes no --size, --movetime or --ply")
        alternatives(args)
        return
    ply = Ply(
        args.ply or "target/release/ply", args.rule, args.size, args.movetime or 1000
    )

    losses = seen = 0
    earliest = []
    for tags, moves, own in lost_games(args.records, args.loser):
        losses += 1
        first = None
        for i in range(own, len(moves), 2):
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
