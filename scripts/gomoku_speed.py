#!/usr/bin/env python3
"""Gomoku search speed in the middle game, at a fixed time per move.

Each position of POSITIONS (one line of moves each, from the start;
default scripts/gomoku_middle.txt: 24 undecided freestyle 15x15 positions
after 16, 24 and 32 stones, from Ply's games against PentaZen at 1 s) is
searched once by a fresh `ply --game gomoku` through UGI with
`go movetime MS`. From the last info line: nodes per second (the engine's
`nps`: the main search's nodes and the positions its threat searches
visited, as Rapfi counts its VCF nodes) and depth. Printed: per position,
and the medians by stone count and over all.

With `--vs OTHER` each position is searched by both binaries, alternating
which goes first, so that both see the same machine load; the summary then
gives both medians and their ratio.

A position with one reply worth making (a four to block) is answered after
the threat search, at depth 1: such positions lower the depth median.

`--size 20` plays the positions on a 20x20 board, moved by `--shift`
cells (default: to the larger board's centre) in both directions.

Usage: scripts/gomoku_speed.py [--movetime 1000] [--positions FILE]
           [--binary PATH] [--vs PATH] [--size N] [--shift K]
Run it on a quiet machine: a busy core halves the figures.
"""

import argparse
import os
import statistics
import subprocess
import sys


def shifted(move, k):
    """`move` (letter and number) moved k cells right and k up."""
    return chr(ord(move[0]) + k) + str(int(move[1:]) + k)


def search(binary, moves, movetime, size):
    """One fresh timed search: (nps, depth, proved), from the last info line."""
    script = ["ugi", "position startpos moves " + moves, f"go movetime {movetime}"]
    out = subprocess.run(
        [binary, "--game", "gomoku", "--size", f"{size}x{size}"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=movetime / 1000 + 30,
    ).stdout
    infos = [l.split() for l in out.splitlines() if l.startswith("info depth")]
    if not infos or "nps" not in infos[-1]:
        sys.exit(f"{binary}: no info line with nps for: {moves}")
    last = infos[-1]
    field = lambda name: int(last[last.index(name) + 1])
    return field("nps"), field("depth"), "mate" in last


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--positions", default="scripts/gomoku_middle.txt")
    ap.add_argument("--binary", default="target/release/ply")
    ap.add_argument("--vs", help="a second binary, measured alternately")
    ap.add_argument("--size", type=int, default=15, help="the board's side")
    ap.add_argument("--shift", type=int, help="cells to move the 15x15 positions by")
    args = ap.parse_args()
    if args.size < 15:
        ap.error("--size: the positions are 15x15; the board must be at least that")
    shift = args.shift if args.shift is not None else (args.size - 15) // 2
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    binaries = [args.binary] + ([args.vs] if args.vs else [])
    with open(args.positions) as f:
        positions = [[shifted(m, shift) for m in l.split()] for l in f if l.strip()]

    # results[binary index] = [(stones, nps, depth)], proved positions left out
    results = [[] for _ in binaries]
    proved = [0 for _ in binaries]
    for k, moves in enumerate(positions):
        order = list(range(len(binaries)))
        if k % 2:
            order.reverse()
        row = {}
        for b in order:
            nps, depth, mate = search(binaries[b], " ".join(moves), args.movetime, args.size)
            row[b] = (nps, depth, mate)
            if mate:
                proved[b] += 1
            else:
                results[b].append((len(moves), nps, depth))
        cells = "  ".join(
            f"{row[b][0] / 1e6:5.2f} M/s depth {row[b][1]:2}{' mate' if row[b][2] else ''}"
            for b in range(len(binaries))
        )
        print(f"{k + 1:3} stones {len(moves):3}  {cells}", flush=True)

    def medians(rows):
        return statistics.median(r[1] for r in rows), statistics.median(r[2] for r in rows)

    print()
    for b, binary in enumerate(binaries):
        groups = sorted({r[0] for r in results[b]})
        for stones in groups:
            nps, depth = medians([r for r in results[b] if r[0] == stones])
            print(f"{binary}  stones {stones:3}  median {nps / 1e6:.2f} M nodes/s  depth {depth}")
        if results[b]:
            nps, depth = medians(results[b])
            print(
                f"{binary}  all {len(results[b])} positions  median {nps / 1e6:.2f} M nodes/s"
                f"  depth {depth}  (proved, left out: {proved[b]})"
            )
    if args.vs and results[0] and results[1]:
        ratio = medians(results[0])[0] / medians(results[1])[0]
        print(f"median nodes/s, {binaries[0]} over {binaries[1]}: {ratio:.2f}")


if __name__ == "__main__":
    main()
