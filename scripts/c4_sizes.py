#!/usr/bin/env python3
"""Connect Four's empty board solved on every board size, checked against
the published values, as a markdown table.

    scripts/c4_sizes.py [--ply BIN] [--hash MB] [--max-sum N] [--sizes WxH,...]
                        [--timeout S]

For each board (every W, H >= 4 with W + H <= --max-sum, default 13, or the
--sizes given) `ply solve --size WxH` solves the empty board from scratch,
one process a board. The table gives the value (1st: the first player wins,
2nd: the second, draw), the move on which the game ends under perfect play
(a draw ends when the board is full), Ply's nodes and seconds, and the
published result: John Tromp's values for W + H <= 15 and 8x8, with the
last move as Christophe Steininger's table gives it (his solver's readme,
ChristopheSteininger/c4), which also covers W + H = 16. A board that takes
longer than --timeout seconds is reported as such.
"""
import argparse
import os
import subprocess
import sys
import time

# (width, height): (winner, last move); winner 1, 2 or 0 for a draw.
PUBLISHED = {
    (4, 4): (0, 16), (5, 4): (0, 20), (6, 4): (2, 24), (7, 4): (0, 28),
    (8, 4): (2, 32), (9, 4): (2, 36), (10, 4): (2, 40), (11, 4): (2, 44),
    (12, 4): (2, 48),
    (4, 5): (0, 20), (5, 5): (0, 25), (6, 5): (0, 30), (7, 5): (0, 35),
    (8, 5): (1, 39), (9, 5): (1, 41), (10, 5): (1, 47), (11, 5): (1, 51),
    (4, 6): (0, 24), (5, 6): (0, 30), (6, 6): (2, 36), (7, 6): (1, 41),
    (8, 6): (2, 48), (9, 6): (2, 52), (10, 6): (1, 59),
    (4, 7): (0, 28), (5, 7): (0, 35), (6, 7): (1, 41), (7, 7): (0, 49),
    (8, 7): (1, 53), (9, 7): (1, 55),
    (4, 8): (0, 32), (5, 8): (0, 40), (6, 8): (2, 48), (7, 8): (1, 55),
    (8, 8): (2, 62),
    (4, 9): (0, 36), (5, 9): (0, 45), (6, 9): (1, 53), (7, 9): (0, 63),
    (4, 10): (0, 40), (5, 10): (0, 50), (6, 10): (2, 60),
    (4, 11): (0, 44), (5, 11): (0, 55),
    (4, 12): (0, 48),
}
WINNER = {0: "draw", 1: "1st", 2: "2nd"}


def last_move(cells, score):
    """The move on which the game ends, from Pons' score of the empty board
    (`(cells + 1 - moves before the winning one) / 2`): the first player
    plays the odd moves, the second the even ones."""
    if score == 0:
        return 0, cells
    winner = 1 if score > 0 else 2
    for move in (cells + 2 - 2 * abs(score), cells + 1 - 2 * abs(score)):
        if move % 2 == winner % 2:
            return winner, move
    raise ValueError(score)


def solve(args, width, height):
    cmd = [args.ply, "--game", "connect4", "--size", f"{width}x{height}",
           "--hash", str(args.hash), "solve"]
    start = time.time()
    try:
        out = subprocess.run(cmd, input="start\n", capture_output=True, text=True,
                             timeout=args.timeout, check=True).stdout
    except subprocess.TimeoutExpired:
        return None
    wall = time.time() - start
    words = out.splitlines()[0].split()
    # start SCORE nodes N time_us T
    score, nodes, micros = int(words[1]), int(words[3]), int(words[5])
    return score, nodes, micros / 1e6, wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--ply", default=os.path.join(here, "..", "target", "release", "ply"))
    parser.add_argument("--hash", type=int, default=256)
    parser.add_argument("--max-sum", type=int, default=13)
    parser.add_argument("--sizes", default="")
    parser.add_argument("--timeout", type=float, default=3600)
    args = parser.parse_args()
    if args.sizes:
        sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]
    else:
        sizes = [(w, s - w) for s in range(8, args.max_sum + 1)
                 for w in range(s - 4, 3, -1)]
    print(f"| W | H | value | last move | published | nodes | seconds |")
    print("|---|---|---|---|---|---|---|")
    wrong = 0
    for width, height in sizes:
        published = PUBLISHED.get((width, height))
        shown = (f"{WINNER[published[0]]} ({published[1]})" if published else "-")
        result = solve(args, width, height)
        if result is None:
            print(f"| {width} | {height} | - | - | {shown} | - | > {args.timeout:.0f} |",
                  flush=True)
            continue
        score, nodes, seconds, _ = result
        winner, move = last_move(width * height, score)
        ok = published is None or published == (winner, move)
        wrong += not ok
        mark = "" if ok else " **differs**"
        print(f"| {width} | {height} | {WINNER[winner]} | {move} | {shown}{mark} | "
              f"{nodes:,} | {seconds:.2f} |", flush=True)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
