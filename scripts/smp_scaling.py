#!/usr/bin/env python3
"""Time-to-depth of the bench positions with 1 and N search threads.

Each bench position (from `ply bench --positions`) is searched to its bench
depth plus EXTRA plies through UGI, with a fresh table each time
(`uginewgame`), alternating the thread counts (1, N, then N, 1, ...) so that
both see the same machine load. The time is the engine's own `time` field of
its last info line. Per position: the median time of each thread count and
their ratio; overall: the median ratio (the speed-up), over all positions
and over those whose one-thread search takes at least MIN_MS (shorter ones
measure thread start-up more than search).

Usage: scripts/smp_scaling.py [--threads N] [--extra 2] [--repeats 3]
           [--games connect4,gomoku] [--hash 64] [--min-ms 50] [--binary PATH]
Run it on a quiet machine: a busy core makes N threads look slower.
"""

import argparse
import os
import statistics
import subprocess
import sys


def search_ms(binary, game, threads, hash_mb, moves, depth):
    """One fresh search to `depth`: (milliseconds, nodes)."""
    script = [
        f"setoption name Hash value {hash_mb}",
        f"setoption name Threads value {threads}",
        "uginewgame",
        "position startpos" + (f" moves {moves}" if moves else ""),
        f"go depth {depth}",
    ]
    out = subprocess.run(
        [binary, "--game", game],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    infos = [l.split() for l in out.splitlines() if l.startswith("info depth")]
    if not infos:
        return 0, 0
    last = infos[-1]
    return int(last[last.index("time") + 1]), int(last[last.index("nodes") + 1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--extra", type=int, default=2, help="plies beyond the bench depth")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--games", default="", help="comma-separated; default all")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--min-ms", type=int, default=50)
    ap.add_argument("--binary", default="target/release/ply")
    args = ap.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

    listing = subprocess.run(
        [args.binary, "bench", "--positions"], capture_output=True, text=True, check=True
    ).stdout
    wanted = set(filter(None, args.games.split(",")))
    positions = []
    for line in listing.splitlines():
        game, depth, *moves = line.split()
        if not wanted or game in wanted:
            positions.append((game, int(depth) + args.extra, " ".join(moves)))

    n = args.threads
    print(f"# load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'position':<16} {'depth':>5} {'1T ms':>8} {f'{n}T ms':>8} {'ratio':>6}"
          f" {'1T nodes':>11} {f'{n}T nodes':>11}")
    ratios, long_ratios = [], []
    counts = {}
    for game, depth, moves in positions:
        counts[game] = counts.get(game, 0) + 1
        times = {1: [], n: []}
        nodes = {1: [], n: []}
        for r in range(args.repeats):
            order = (1, n) if r % 2 == 0 else (n, 1)
            for t in order:
                ms, nd = search_ms(args.binary, game, t, args.hash, moves, depth)
                times[t].append(ms)
                nodes[t].append(nd)
        one, many = statistics.median(times[1]), statistics.median(times[n])
        ratio = max(one, 1) / max(many, 1)
        ratios.append(ratio)
        if one >= args.min_ms:
            long_ratios.append(ratio)
        print(f"{game + ' ' + str(counts[game]):<16} {depth:>5} {one:>8.0f} {many:>8.0f}"
              f" {ratio:>6.2f} {statistics.median(nodes[1]):>11.0f}"
              f" {statistics.median(nodes[n]):>11.0f}", flush=True)
    print(f"median speed-up {n} threads vs 1, all {len(ratios)} positions: "
          f"{statistics.median(ratios):.2f}")
    if long_ratios:
        print(f"median speed-up, {len(long_ratios)} positions of at least {args.min_ms} ms: "
              f"{statistics.median(long_ratios):.2f}")
    print(f"# load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
