#!/usr/bin/env python3
"""Fit Gomoku's evaluation weights to a stronger engine's judgement.

Three steps, each reading the previous one's file:

  positions PGN... > pos.txt     distinct positions (moves from the empty
                                 15x15 board) from `ply match` records,
                                 past the opening, none with a five to make
  label ENGINE < pos.txt > lab.txt
                                 each position scored by a Piskvork brain
                                 (its MESSAGE line's eval, side to move's
                                 view) at a fixed time per position
  fit lab.txt                    the evaluation's cell weights and threat
                                 constants chosen to minimise the squared
                                 error between sigmoid(ply_eval / K) and
                                 sigmoid(label / S), printed as Rust

The features come from `cargo run --release --example gomoku_cells`: for
every empty cell, both colours' four line patterns. The model is the one
src/game/gomoku/eval.rs computes: per side, the sum over empty cells of
the cell weight (a weight per line pattern, plus a bonus by the cell's
shape class), the side to move's total counting (64 + TEMPO) / 64 and the
opponent's (64 - TEMPO) / 64, plus a bonus when the side to move can make
an open four, a four-three or a double three now, or else the opponent an
open four next.
"""

import argparse
import math
import os
import random
import re
import select
import subprocess
import sys
import time

import numpy as np

# The `ply match` record reader (this script's folder is on the path).
from gomoku_losses import games

SIZE = 15
# Pattern nibbles, as src/game/gomoku/patterns.rs numbers them.
NONE, OPEN1, BLOCKED2, OPEN2, BLOCKED3, OPEN3, BLOCKED4, OPEN4, FIVE, OVERLINE = range(10)
PATTERNS = 10


def square_to_xy(square):
    col = ord(square[0]) - ord("a")
    rank = int(square[1:])
    return col, SIZE - rank


def cmd_positions(args):
    seen = set()
    rng = random.Random(args.seed)
    out = []
    for moves in (moves for path in args.pgn for _, moves in games(path)):
        # Past the opening; the last plies are decided fights the search
        # settles, not the evaluation.
        for n in range(args.skip, max(args.skip, len(moves) - 2)):
            key = " ".join(moves[:n])
            if key in seen or rng.random() > args.share:
                continue
            seen.add(key)
            out.append(key)
    for line in out:
        print(line)
    print(f"{len(out)} positions", file=sys.stderr)


def parse_eval(text):
    """Rapfi-style `Eval +M5` / `Eval -123`: a number, mates as +-inf."""
    m = re.search(r"Eval ([+-]?)(M?)(\d+)", text)
    if not m:
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2):
        return sign * math.inf
    return sign * int(m.group(3))


class Brain:
    """A Piskvork brain scoring positions, restarted when it hangs."""

    def __init__(self, path, ms):
        self.path, self.ms = path, ms
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        self.pending = b""
        self.send(f"START {SIZE}")
        if self.read(10) != "OK":
            sys.exit("the brain did not answer START")
        self.send(f"INFO timeout_turn {self.ms}")
        self.send("INFO timeout_match 100000000")

    def send(self, line):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read(self, seconds):
        """One line, or None after `seconds` without one (read straight from
        the pipe: a buffered reader would hide lines from select)."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0, left))
            if not ready:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode().strip()

    def score(self, moves):
        """The brain's eval of the position, or None if it gave none in
        time (then it is restarted)."""
        self.send("BOARD")
        # BOARD's third field: 1 the brain's own stone (the side to move).
        mine = len(moves) % 2
        for k, mv in enumerate(moves):
            x, y = square_to_xy(mv)
            self.send(f"{x},{y},{1 if k % 2 == mine else 2}")
        self.send("DONE")
        value = None
        while True:
            reply = self.read(max(2.0, 20 * self.ms / 1000))
            if reply is None:
                self.proc.kill()
                self.proc.wait()
                self.start()
                return None
            if reply.startswith("MESSAGE"):
                v = parse_eval(reply)
                if v is not None:
                    value = v
            elif re.match(r"^\d+,\d+$", reply):
                return value


def cmd_label(args):
    brain = Brain(args.engine, args.ms)
    for line in sys.stdin:
        moves = line.split()
        if not moves:
            continue
        value = brain.score(moves)
        if value is not None:
            print(f"{value}\t{line.strip()}", flush=True)
    brain.send("END")


def cells_of(cells_binary, positions):
    """Per position: side to move ('x'/'o') and [(black, white)] packed."""
    text = "\n".join(positions) + "\n"
    out = subprocess.run([cells_binary], input=text, capture_output=True,
                         text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        parts = line.split()
        cells = [tuple(int(h, 16) for h in p.split(":")) for p in parts[1:]]
        result.append((parts[0], cells))
    return result


def unpack(packed):
    return [(packed >> (4 * d)) & 15 for d in range(4)]


def threat_of(ps):
    """The cell's threat, as patterns::combine classifies it."""
    n = [0] * PATTERNS
    for p in ps:
        n[p] += 1
    fours = n[BLOCKED4] + n[OPEN4]
    if n[FIVE]:
        return "five"
    if n[OPEN4] or fours >= 2:
        return "open_four"
    if fours == 1 and n[OPEN3]:
        return "four_three"
    if n[OPEN3] >= 2:
        return "double_three"
    if fours == 1:
        return "four"
    if n[OPEN3] == 1:
        return "three"
    return "none"


# Shape classes of a cell beyond its lines' sum: what two lines through
# one stone make together (a cell's best two patterns, as Rapfi's classical
# evaluation and others name them).
SHAPES = [
    "open_four", "four_three", "double_three", "four_plus", "three_plus",
    "blocked3_plus", "double_two",
]


def shape_of(ps):
    t = threat_of(ps)
    if t in ("open_four", "four_three", "double_three"):
        return t
    n = [0] * PATTERNS
    for p in ps:
        n[p] += 1
    if t == "four":
        # A four with a three-maker or two beside it.
        return "four_plus" if n[BLOCKED3] + n[OPEN2] > 0 else None
    if t == "three":
        return "three_plus" if n[BLOCKED3] + n[OPEN2] > 0 else None
    if n[BLOCKED3] + n[OPEN2] >= 2 and n[BLOCKED3] >= 1:
        return "blocked3_plus"
    if n[OPEN2] >= 2:
        return "double_two"
    return None


# The engine's present values (src/game/gomoku/patterns.rs and eval.rs),
# where the fit starts and whose scale it keeps.
CURRENT = {
    "lines": [0, 2, 0, 0, 8, 46, 74, 479, 300, 0],
    "shapes": [73, 495, -172, 237, 82, 49, 18],
    "tempo": 11,
    "move": 0,
    "flags": [8000, 7747, 2373, -194],
}

# The side to move can make an open four, a four-three, a double three
# now; else the opponent can make an open four next.
FLAGS = ["open_four_next", "four_three_next", "double_three_next", "their_open_four_next"]


def features(side, cells):
    """Per side (to move, opponent): line pattern counts and shape counts,
    plus the three 'can make now' flags of the side to move."""
    me = 0 if side == "x" else 1
    f = np.zeros((2, PATTERNS + len(SHAPES)))
    has = [set(), set()]
    for packed in cells:
        for colour in (0, 1):
            ps = unpack(packed[colour])
            if any(p == FIVE for p in ps):
                return None
            who = 0 if colour == me else 1
            for p in ps:
                f[who, p] += 1
            s = shape_of(ps)
            if s is not None:
                f[who, PATTERNS + SHAPES.index(s)] += 1
            has[who].add(threat_of(ps))
    flags = np.zeros(len(FLAGS))
    theirs_next = "open_four" in has[1] or "four_three" in has[1]
    if "open_four" in has[0]:
        flags[0] = 1
    elif "four_three" in has[0]:
        flags[1] = 1
    elif "double_three" in has[0] and not theirs_next:
        flags[2] = 1
    elif "open_four" in has[1]:
        flags[3] = 1
    return f, flags


def cmd_fit(args):
    rows = [l.rstrip("\n").split("\t") for l in open(args.labels)]
    rows = [(float(v), m) for v, m in rows]
    data = cells_of(args.cells, [m for _, m in rows])
    X, F, y = [], [], []
    for (v, _), (side, cells) in zip(rows, data):
        got = features(side, cells)
        if got is None:
            continue
        f, flags = got
        X.append(f)
        F.append(flags)
        y.append(1.0 if v == math.inf else 0.0 if v == -math.inf
                 else 1 / (1 + math.exp(-v / args.scale)))
    X, F, y = np.array(X), np.array(F), np.array(y)
    print(f"{len(y)} positions; flags set: {F.sum(axis=0).astype(int).tolist()}", file=sys.stderr)
    rng = np.random.default_rng(1)
    test = rng.random(len(y)) < 0.2
    from scipy.optimize import minimize

    n_w = PATTERNS + len(SHAPES)

    def unpack_params(p):
        return p[:n_w], p[n_w], p[n_w + 1], p[n_w + 2:n_w + 2 + len(FLAGS)], p[-1]

    def evals(p, X, F):
        w, tempo, move, flags, _ = unpack_params(p)
        mine = X[:, 0, :] @ w
        theirs = X[:, 1, :] @ w
        return mine * (64 + tempo) / 64 - theirs * (64 - tempo) / 64 + move + F @ flags

    def loss(p, X, F, y):
        k = p[-1]
        e = np.clip(evals(p, X, F), -9000, 9000)
        return np.mean((1 / (1 + np.exp(-e / k)) - y) ** 2)

    start = np.array(CURRENT["lines"] + CURRENT["shapes"] + [CURRENT["tempo"], CURRENT["move"]]
                     + CURRENT["flags"] + [0.0], dtype=float)
    bounds = [(0, 0), (0, 50), (0, 50)] + [(0, 1500)] * 5 + [(300, 300), (0, 0)] \
        + [(-300, 1500)] * len(SHAPES) + [(0, 40), (0, 100)] \
        + [(0, 9000)] * 3 + [(-9000, 9000)] * (len(FLAGS) - 3)
    # The evaluation's scale is held at the old weights' (search margins
    # are set in its units): K is fitted for them, then fixed.
    ks = np.arange(100, 5000, 10.0)
    start[-1] = min(ks, key=lambda k: loss(np.r_[start[:-1], k], X[~test], F[~test], y[~test]))
    print(f"present weights: K {start[-1]:.0f}, held-out loss "
          f"{loss(start, X[test], F[test], y[test]):.5f}", file=sys.stderr)
    # Optimised in units of each value's size, so that a threat bonus of
    # thousands and a pattern weight of units move alike.
    unit = np.maximum(np.abs(start), 10.0)
    k = start[-1]
    unit = unit[:-1]
    res = minimize(lambda x: loss(np.r_[x * unit, k], X[~test], F[~test], y[~test]),
                   start[:-1] / unit,
                   bounds=[(lo / u, hi / u) for (lo, hi), u in zip(bounds, unit)],
                   method="L-BFGS-B", options={"maxiter": 5000})
    p = np.r_[res.x * unit, k]
    print(f"{res.nit} iterations: {res.message}", file=sys.stderr)
    print(f"fitted: held-out loss {loss(p, X[test], F[test], y[test]):.5f}", file=sys.stderr)
    w, tempo, move, flags, k = unpack_params(p)
    print("WEIGHT", [round(x) for x in w[:PATTERNS]])
    print("SHAPES", dict(zip(SHAPES, [round(x) for x in w[PATTERNS:]])))
    print(f"TEMPO {tempo:.1f} MOVE {move:.1f} K {k:.0f}")
    print("FLAGS", dict(zip(FLAGS, [round(x) for x in flags])))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("positions")
    p.add_argument("pgn", nargs="+")
    p.add_argument("--skip", type=int, default=6, help="plies of opening left out")
    p.add_argument("--share", type=float, default=1.0, help="share of positions kept")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=cmd_positions)
    p = sub.add_parser("label")
    p.add_argument("engine")
    p.add_argument("--ms", type=int, default=100, help="time per position")
    p.set_defaults(run=cmd_label)
    p = sub.add_parser("fit")
    p.add_argument("labels")
    p.add_argument("--cells", default="target/release/examples/gomoku_cells")
    p.add_argument("--scale", type=float, default=200.0,
                   help="the labelling engine's eval per e-fold of odds")
    p.set_defaults(run=cmd_fit)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
