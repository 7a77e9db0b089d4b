#!/usr/bin/env python3
"""Fit Gomoku's evaluation weights to a stronger engine's judgement.

Three steps, each reading the previous one's file:

  positions RECORD... > pos.txt  distinct positions (moves from the empty
                                 15x15 board) from `ply match` PGN records
                                 and c-gomoku-cli SGF records, past the
                                 opening and short of the decided end
  label ENGINE < pos.txt > lab.txt
                                 each position scored by a Piskvork brain
                                 (its MESSAGE line's eval, side to move's
                                 view) at a fixed time per position,
                                 or with --nodes N at N nodes
  fit lab.txt [--write]          the evaluation's class weights and threat
                                 table chosen to minimise the squared
                                 error between sigmoid(ply_eval / K) and
                                 sigmoid(label / S); printed, or written
                                 into the engine's source

data/gomoku-labels.txt.gz keeps labelled positions for the fits to come
(from 150 ms and 1 s games against PentaZen and fixed-node self-play,
scored by Rapfi's classical engine at 100 ms; then from fixed-node games
of Ply against Rapfi, scored by Rapfi at 70 000 nodes): a fit adds its own
to them.

The features come from `cargo run --release --example gomoku_cells`: for
every empty cell, both colours' four line patterns. The model is the one
src/game/gomoku/eval.rs computes: per side, the sum over empty cells of
the weight of the cell's class (the multiset of its four line patterns,
src/game/gomoku/cell_classes.rs), the side to move's total counting
(64 + TEMPO) / 64 and the opponent's (64 - TEMPO) / 64, averaged with
the side to move's total less the opponent's in the position before the
last move; plus the value of the threats both sides can make next, one
per combination (src/game/gomoku/threat_values.rs) when the opponent has
no five to make.
Positions where a side has a five to make, now or before the last move,
are left out: search settles those.
"""

import argparse
import gzip
import itertools
import math
import os
import random
import re
import select
import subprocess
import sys
import time
import zlib

import numpy as np

# The `ply match` record reader (this script's folder is on the path).
from gomoku_losses import games

SIZE = 15
# Pattern nibbles, as src/game/gomoku/patterns.rs numbers them.
(NONE, BLOCKED1, OPEN1, BLOCKED2, OPEN2, OPEN2A, OPEN2B, BLOCKED3, OPEN3, OPEN3S,
 BLOCKED4, OPEN4, FIVE, OVERLINE) = range(14)
PATTERNS = 14


def square_to_xy(square):
    col = ord(square[0]) - ord("a")
    rank = int(square[1:])
    return col, SIZE - rank


def records(path):
    """The games of a `ply match` PGN or a c-gomoku-cli SGF file, as moves."""
    return [moves for _, moves in games(path)]


def cmd_positions(args):
    seen = set()
    rng = random.Random(args.seed)
    out = []
    for moves in (moves for path in args.records for moves in records(path)):
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
    """A Piskvork brain scoring positions, restarted when it hangs: `ms`
    a position, or with `nodes` that many nodes (Yixin's `MAX_NODE`, which
    Rapfi honours: the same answer whatever the machine's load)."""

    def __init__(self, path, ms, nodes=None):
        self.path, self.ms, self.nodes = path, ms, nodes
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
        if self.nodes:
            self.send(f"INFO MAX_NODE {self.nodes}")

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

    def ready(self):
        """Waits until the brain takes commands again. Rapfi drops a
        command that comes between its move and the end of its search
        (it answers nothing), which a BOARD sent at once after the move
        often does: ABOUT is asked until it is answered."""
        for _ in range(100):
            self.send("ABOUT")
            reply = self.read(0.05)
            while reply is not None and reply.startswith("MESSAGE"):
                reply = self.read(0.05)
            if reply is not None:
                return

    def score(self, moves):
        """The brain's eval of the position, or None if it gave none in
        time (then it is restarted)."""
        return self.search(moves)[0]

    def search(self, moves):
        """The brain's eval of the position and its move (`x,y`), or None
        for what it did not give in time (then it is restarted)."""
        self.ready()
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
                return None, None
            if reply.startswith("MESSAGE"):
                v = parse_eval(reply)
                if v is not None:
                    value = v
            elif re.match(r"^\d+,\d+$", reply):
                return value, reply


def cmd_label(args):
    brain = Brain(args.engine, args.ms, nodes=args.nodes)
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
    open_threes = n[OPEN3] + n[OPEN3S]
    if n[FIVE]:
        return "five"
    if n[OPEN4] or fours >= 2:
        return "open_four"
    if fours == 1 and open_threes:
        return "four_three"
    if open_threes >= 2:
        return "double_three"
    if fours == 1:
        return "four"
    if open_threes == 1:
        return "three"
    return "none"


# The threat table's index (threat_values.rs): a bit per threat a side
# has a cell for, the side to move's in the low five bits.
TABLE_THREATS = ["three", "four", "double_three", "four_three", "open_four"]
TABLE_SIZE = 1 << (2 * len(TABLE_THREATS))

# A cell's class: its four line patterns as a multiset (which line makes
# which does not matter), 2380 of them, numbered as cell_classes.rs does.
CLASSES = list(itertools.combinations_with_replacement(range(PATTERNS), 4))
CLASS_INDEX = {c: i for i, c in enumerate(CLASSES)}

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CLASS_FILE = os.path.join(ROOT, "src/game/gomoku/cell_classes.rs")
EVAL_FILE = os.path.join(ROOT, "src/game/gomoku/eval.rs")
THREAT_FILE = os.path.join(ROOT, "src/game/gomoku/threat_values.rs")
CLASS_TABLE = re.compile(r"(const CLASS_WEIGHT: \[i16; 2380\] = \[\n)(.*?)(\n\];)", re.S)
THREAT_TABLE = re.compile(r"(const THREAT_VALUE: \[i16; 1024\] = \[\n)(.*?)(\n\];)", re.S)


def read_table(path, pattern, size):
    values = [int(x) for x in re.findall(r"-?\d+", pattern.search(open(path).read()).group(2))]
    assert len(values) == size
    return np.array(values, dtype=float)


def write_table(path, pattern, values, per_row):
    rows = [", ".join(str(round(v)) for v in values[i:i + per_row]) + ","
            for i in range(0, len(values), per_row)]
    body = "\n".join("    " + r for r in rows)
    text = open(path).read()
    open(path, "w").write(pattern.sub(lambda m: m.group(1) + body + m.group(3), text))


def present():
    """The engine's class weights, tempo and threat table, read from its
    source: where the fit starts, what it is held near, whose scale it keeps."""
    tempo = int(re.search(r"const TEMPO: i32 = (-?\d+);", open(EVAL_FILE).read()).group(1))
    return (read_table(CLASS_FILE, CLASS_TABLE, len(CLASSES)), tempo,
            read_table(THREAT_FILE, THREAT_TABLE, TABLE_SIZE))


def write(weights, table):
    """The fitted values into the engine's source."""
    write_table(CLASS_FILE, CLASS_TABLE, weights, 12)
    write_table(THREAT_FILE, THREAT_TABLE, table, 16)


def class_features(side, cells):
    """Per side (to move, opponent): how many empty cells of each class;
    the threat table's index; None where a side has a five to make (search
    settles it)."""
    me = 0 if side == "x" else 1
    counts = np.zeros((2, len(CLASSES)), dtype=np.float32)
    has = [set(), set()]
    for packed in cells:
        for colour in (0, 1):
            ps = unpack(packed[colour])
            if FIVE in ps:
                return None
            who = 0 if colour == me else 1
            counts[who, CLASS_INDEX[tuple(sorted(ps))]] += 1
            has[who].add(threat_of(ps))
    index = sum(1 << (5 * who + i) for who in (0, 1)
                for i, t in enumerate(TABLE_THREATS) if t in has[who])
    return counts, index


def cmd_fit(args):
    labels = gzip.open(args.labels, "rt") if args.labels.endswith(".gz") else open(args.labels)
    rows = [l.rstrip("\n").split("\t") for l in labels]
    rows = [(float(v), m) for v, m in rows]
    data = cells_of(args.cells, [m for _, m in rows])
    # The position before the last move, which the evaluation averages in.
    before = cells_of(args.cells, [" ".join(m.split()[:-1]) for _, m in rows])
    C, P, T, y, games = [], [], [], [], []
    for (v, m), (side, cells), (_, cells_before) in zip(rows, data, before):
        got = class_features(side, cells)
        # Counted from the same side's view: the side to move now.
        got_before = class_features(side, cells_before)
        if got is None or got_before is None:
            continue
        C.append(got[0])
        P.append(got_before[0])
        T.append(got[1])
        # A game's positions share their first moves (and much else).
        games.append(zlib.crc32(" ".join(m.split()[:10]).encode()))
        y.append(1.0 if v == math.inf else 0.0 if v == -math.inf
                 else 1 / (1 + math.exp(-v / args.scale)))
    C, P, y = np.array(C), np.array(P), np.array(y)
    # One column per entry of the threat table, 1 where the position has it.
    T = np.eye(TABLE_SIZE, dtype=np.float32)[T]
    w0, tempo, t0 = present()
    # Linear in the class weights: the mean of mine * (64 + T) / 64 -
    # theirs * (64 - T) / 64 now and mine - theirs before the last move.
    D = ((C[:, 0, :] * (64 + tempo) - C[:, 1, :] * (64 - tempo)) / 64
         + P[:, 0, :] - P[:, 1, :]) / 2
    # A fifth of the games held out whole: positions of one game are too
    # alike for one to test a fit to another.
    test = np.array(games) % 5 == 0
    # Classes with a five or an overline are settled by search or rules.
    free = np.array([FIVE not in c and OVERLINE not in c and any(c) and not args.keep_weights
                     for c in CLASSES])
    print(f"{len(y)} positions; {int((C.sum(axis=(0, 1)) > 0).sum())} classes, "
          f"{int((T.sum(axis=0) > 0).sum())} threat combinations seen", file=sys.stderr)

    # Each half taken once: slicing in every step of the fit costs more
    # than the step.
    halves = {part: (D[sel], T[sel].astype(float), y[sel])
              for part, sel in (("train", ~test), ("test", test))}

    def loss_grad(w, t, k, part, ridge):
        D_, T_, y_ = halves[part]
        e = np.clip(D_ @ w + T_ @ t, -9000, 9000)
        s = 1 / (1 + np.exp(-e / k))
        r = s - y_
        g = 2 * r * s * (1 - s) / k / len(y_)
        # The ridge holds each value near its present one, the more firmly
        # the rarer its class or combination (the data pull in proportion
        # to use).
        return (np.mean(r ** 2) + ridge * np.sum(((w - w0) / 100) ** 2)
                + ridge * np.sum(((t - t0) / 100) ** 2),
                D_.T @ g + ridge * 2 * (w - w0) / 100 ** 2,
                T_.T @ g + ridge * 2 * (t - t0) / 100 ** 2)

    # The evaluation's scale is held at the present weights' (search
    # margins are set in its units): K is fitted for them, then fixed.
    k = min(np.arange(100, 5000, 10.0), key=lambda k: loss_grad(w0, t0, k, "train", 0)[0])
    print(f"present weights: K {k:.0f}, held-out loss "
          f"{loss_grad(w0, t0, k, 'test', 0)[0]:.5f}", file=sys.stderr)
    from scipy.optimize import minimize
    n = len(CLASSES)
    # A won threat stays below the evaluation's bound (9000) so that such
    # positions still compare.
    table_bounds = ([(v, v) for v in t0] if args.keep_table
                    else [(-8000, 8000)] * TABLE_SIZE)
    best = None
    for ridge in args.ridge:
        def f(x):
            w = np.where(free, x[:n], w0)
            l, gw, gt = loss_grad(w, x[n:], k, "train", ridge)
            return l, np.r_[np.where(free, gw, 0), gt]
        res = minimize(f, np.r_[w0, t0], jac=True, method="L-BFGS-B",
                       bounds=[(-2000, 4000)] * n + table_bounds,
                       options={"maxiter": 5000, "ftol": 1e-15, "gtol": 1e-12})
        w, t = np.where(free, res.x[:n], w0), res.x[n:]
        held = loss_grad(w, t, k, "test", 0)[0]
        print(f"ridge {ridge}: held-out loss {held:.5f} ({res.nit} iterations)",
              file=sys.stderr)
        if best is None or held < best[0]:
            best = (held, ridge, w, t)
    held, ridge, w, t = best
    print(f"chosen ridge {ridge}: held-out loss {held:.5f}", file=sys.stderr)
    print("THREAT_VALUE", " ".join(str(round(x)) for x in t))
    print("CLASS_WEIGHT", " ".join(str(round(x)) for x in w))
    if args.write:
        write(w, t)
        print(f"written to {CLASS_FILE} and {THREAT_FILE}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("positions")
    p.add_argument("records", nargs="+", help="ply match .pgn or c-gomoku-cli .sgf files")
    p.add_argument("--skip", type=int, default=6, help="plies of opening left out")
    p.add_argument("--share", type=float, default=1.0, help="share of positions kept")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=cmd_positions)
    p = sub.add_parser("label")
    p.add_argument("engine")
    p.add_argument("--ms", type=int, default=100, help="time per position")
    p.add_argument("--nodes", type=int,
                   help="nodes per position instead (Rapfi's MAX_NODE: load-independent)")
    p.set_defaults(run=cmd_label)
    p = sub.add_parser("fit")
    p.add_argument("labels")
    p.add_argument("--cells", default="target/release/examples/gomoku_cells")
    p.add_argument("--scale", type=float, default=200.0,
                   help="the labelling engine's eval per e-fold of odds")
    p.add_argument("--ridge", type=float, nargs="+", default=[0.00001, 0.000003, 0.000001],
                   help="pull toward the present weights; the best on held-out positions wins")
    p.add_argument("--keep-table", action="store_true",
                   help="fit the class weights only, the threat table held")
    p.add_argument("--keep-weights", action="store_true",
                   help="fit the threat table only, the class weights held")
    p.add_argument("--write", action="store_true",
                   help="write the fitted values into the engine's source")
    p.set_defaults(run=cmd_fit)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
