#!/usr/bin/env python3
"""Fit Gomoku's move ordering to a stronger engine's choices.

Two steps:

  label ENGINE [--nodes N] < pos.txt > best.txt
                       each position (moves from the empty 15x15 board, one
                       a line, as `gomoku_fit.py positions` makes them) with
                       the move a Piskvork brain plays there after N nodes
                       (Yixin's MAX_NODE, which Rapfi honours: the same move
                       whatever the machine's load), as `square<TAB>moves`
  fit best.txt [--write]
                       the ordering's two tables chosen to make the engine's
                       move the likeliest of the moves the search lists:
                       per move, ORDER_ATTACK of the class of the four line
                       patterns our stone would make there plus
                       ORDER_DEFEND of the class of the opponent's, taken
                       as logits (a softmax over the listed moves), fitted
                       by maximum likelihood with a ridge pull toward zero;
                       printed, or written into
                       src/game/gomoku/order_values.rs

The move lists and patterns come from `cargo run --release --example
gomoku_cells -- --listed`. Positions where the search lists one move, or where the
engine's move is not among those listed, teach nothing and are left out.
A fifth of the games is held out to choose the ridge and to report the
fit: the mean log-likelihood, how often the engine's move is ordered first,
and its mean place in the order, beside those of the present scores.
"""

import argparse
import gzip
import os
import re
import subprocess
import sys
import zlib

import numpy as np

from gomoku_fit import (Brain, CLASS_FILE, CLASS_INDEX, CLASS_TABLE, CLASSES, ROOT, read_table,
                        threat_of, unpack, write_table)

SIZE = 15
ORDER_FILE = os.path.join(ROOT, "src/game/gomoku/order_values.rs")
ATTACK_TABLE = re.compile(r"(const ORDER_ATTACK: \[i16; 2380\] = \[\n)(.*?)(\n\];)", re.S)
DEFEND_TABLE = re.compile(r"(const ORDER_DEFEND: \[i16; 2380\] = \[\n)(.*?)(\n\];)", re.S)
# Logits are written in hundredths.
UNIT = 100.0


def xy_to_square(x, y):
    return f"{chr(ord('a') + x)}{SIZE - y}"


def cmd_label(args):
    brain = Brain(args.engine, 100_000, nodes=args.nodes)
    for line in sys.stdin:
        moves = line.split()
        if not moves:
            continue
        _, reply = brain.search(moves)
        if reply is not None:
            x, y = (int(v) for v in reply.split(","))
            print(f"{xy_to_square(x, y)}\t{line.strip()}", flush=True)
    brain.send("END")


def listed_moves(binary, positions):
    """Per position: side to move and [(square, black, white)]."""
    text = "\n".join(positions) + "\n"
    out = subprocess.run([binary, "--listed"], input=text, capture_output=True, text=True,
                         check=True).stdout
    result = []
    for line in out.splitlines():
        parts = line.split()
        listed = []
        for p in parts[1:]:
            square, packed = p.split("=")
            black, white = (int(h, 16) for h in packed.split(":"))
            listed.append((square, black, white))
        result.append((parts[0], listed))
    return result


def class_of(packed):
    return CLASS_INDEX[tuple(sorted(unpack(packed)))]


def cmd_fit(args):
    f = gzip.open(args.best, "rt") if args.best.endswith(".gz") else open(args.best)
    # In the order of the positions, so that the fit is the same whatever
    # order the file lists them in.
    rows = sorted((l.rstrip("\n").split("\t") for l in f if l.strip()),
                  key=lambda r: (r[1], r[0]))
    data = listed_moves(args.cells, [m for _, m in rows])
    n = len(CLASSES)
    # Per listed move: its position's number, our class, their class.
    pos_of, ours, theirs, chosen, games = [], [], [], [], []
    used = 0
    for (best, m), (side, listed) in zip(rows, data):
        squares = [s for s, _, _ in listed]
        if len(listed) < 2 or best not in squares:
            continue
        me = 0 if side == "x" else 1
        for square, black, white in listed:
            packed = (black, white)
            pos_of.append(used)
            ours.append(class_of(packed[me]))
            theirs.append(class_of(packed[1 - me]))
            chosen.append(square == best)
        games.append(zlib.crc32(" ".join(m.split()[:10]).encode()))
        used += 1
    pos_of, ours, theirs = np.array(pos_of), np.array(ours), np.array(theirs)
    chosen = np.array(chosen)
    games = np.array(games)
    print(f"{used} positions of {len(rows)}, {len(pos_of)} listed moves; "
          f"{len(set(ours))} of our classes, {len(set(theirs))} of theirs seen",
          file=sys.stderr)
    test_pos = games % 5 == 0
    from scipy.sparse import csr_matrix
    from scipy.optimize import minimize

    def part(sel_pos):
        rows_ = sel_pos[pos_of]
        idx = np.flatnonzero(rows_)
        # Positions renumbered densely within the part.
        renum = np.cumsum(sel_pos) - 1
        p = renum[pos_of[idx]]
        k = len(idx)
        X = csr_matrix((np.ones(2 * k), (np.r_[np.arange(k), np.arange(k)],
                                          np.r_[ours[idx], n + theirs[idx]])),
                       shape=(k, 2 * n))
        return X, p, chosen[idx], int(sel_pos.sum())

    parts = {"train": part(~test_pos), "test": part(test_pos)}

    def nll(z, p, c, npos):
        """Mean negative log-likelihood of the chosen moves and the softmax
        probabilities."""
        zmax = np.full(npos, -np.inf)
        np.maximum.at(zmax, p, z)
        e = np.exp(z - zmax[p])
        s = np.zeros(npos)
        np.add.at(s, p, e)
        prob = e / s[p]
        return -np.sum(np.log(np.maximum(prob[c], 1e-300))) / npos, prob

    def quality(z, p, c, npos):
        """Share of positions whose chosen move scores highest, and its mean
        place (1 = first; ties count against it)."""
        chosen_z = np.zeros(npos)
        chosen_z[p[c]] = z[c]
        above = np.zeros(npos)
        np.add.at(above, p, (z >= chosen_z[p]) & ~c)
        return np.mean(above == 0), np.mean(above + 1)

    # The present ordering's scores, as Gomoku::move_score had them before
    # these tables (threat bonuses and the evaluation's weights), scaled by
    # the temperature that fits them best.
    zp = before_tables(ours, theirs)
    show("earlier scores", zp, parts, test_pos, pos_of, nll, quality)
    # Each table is a value per class on top of a backbone shared by all
    # classes (a value per threat the class makes, and a multiple of its
    # evaluation weight): classes the positions rarely or never show take
    # the backbone's value, and only the per-class part is pulled to zero.
    weights = read_table(CLASS_FILE, CLASS_TABLE, n) / 100
    threat = np.array([THREAT_NAMES.index(threat_of(c)) for c in CLASSES])
    B = np.c_[np.eye(len(THREAT_NAMES))[threat], weights]
    m = B.shape[1]

    def tables(theta):
        """(attack, defend) per class from the parameters: per side, the
        per-class values then the backbone's."""
        a = theta[:n + m]
        d = theta[n + m:]
        return a[:n] + B @ a[n:], d[:n] + B @ d[n:]

    def untables(g_att, g_def):
        """The gradient of the parameters from that of the tables."""
        return np.r_[g_att, B.T @ g_att, g_def, B.T @ g_def]

    per_class = np.r_[np.ones(n), np.zeros(m), np.ones(n), np.zeros(m)]
    best = None
    for ridge in args.ridge:
        X, p, c, npos = parts["train"]

        def f(theta):
            z = X @ np.concatenate(tables(theta))
            loss, prob = nll(z, p, c, npos)
            g = prob.copy()
            g[c] -= 1
            gw = X.T @ g / npos
            pull = per_class * theta
            return (loss + ridge * pull @ pull,
                    untables(gw[:n], gw[n:]) + 2 * ridge * pull)

        res = minimize(f, np.zeros(2 * (n + m)), jac=True, method="L-BFGS-B",
                       options={"maxiter": 3000})
        w = np.concatenate(tables(res.x))
        Xt, pt, ct, nt = parts["test"]
        zt = Xt @ w
        held = -nll(zt, pt, ct, nt)[0]
        top, place = quality(zt, pt, ct, nt)
        print(f"ridge {ridge}: held-out log-likelihood {held:.4f}, first {top:.3f}, "
              f"mean place {place:.2f} ({res.nit} iterations)", file=sys.stderr)
        if best is None or held > best[0]:
            best = (held, ridge, w)
    held, ridge, w = best
    print(f"chosen ridge {ridge}", file=sys.stderr)
    attack, defend = w[:n] * UNIT, w[n:] * UNIT
    print("ORDER_ATTACK", " ".join(str(round(x)) for x in attack))
    print("ORDER_DEFEND", " ".join(str(round(x)) for x in defend))
    if args.write:
        write_table(ORDER_FILE, ATTACK_TABLE, attack, 12)
        write_table(ORDER_FILE, DEFEND_TABLE, defend, 12)
        print(f"written to {ORDER_FILE}", file=sys.stderr)


# Gomoku::move_score before the fitted tables: per threat (none, three,
# four, double three, four-three, open four, five) a bonus for making it
# and half as much for taking its cell, plus the evaluation's class weights,
# ours doubled.
THREAT_NAMES = ["none", "three", "four", "double_three", "four_three", "open_four", "five"]
ATTACK = [0, 300, 400, 2_000, 5_000, 20_000, 1_000_000]
DEFEND = [0, 150, 200, 1_000, 2_500, 10_000, 500_000]


def before_tables(ours, theirs):
    weights = read_table(CLASS_FILE, CLASS_TABLE, len(CLASSES))
    threat = np.array([THREAT_NAMES.index(threat_of(c)) for c in CLASSES])
    return (np.array(ATTACK)[threat[ours]] + np.array(DEFEND)[threat[theirs]]
            + 2 * weights[ours] + weights[theirs]).astype(float)


def show(name, z, parts, test_pos, pos_of, nll, quality):
    """The held-out fit of scores `z` (one per listed move), at the
    temperature that suits them."""
    sel = test_pos[pos_of]
    _, p, c, npos = parts["test"]
    zt = z[sel]
    t = min(np.geomspace(1, 100000, 120), key=lambda t: nll(zt / t, p, c, npos)[0])
    top, place = quality(zt, p, c, npos)
    print(f"{name}: held-out log-likelihood {-nll(zt / t, p, c, npos)[0]:.4f} "
          f"(temperature {t:.0f}), first {top:.3f}, mean place {place:.2f}",
          file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("label")
    p.add_argument("engine")
    p.add_argument("--nodes", type=int, default=100_000, help="nodes per position")
    p.set_defaults(run=cmd_label)
    p = sub.add_parser("fit")
    p.add_argument("best")
    p.add_argument("--cells", default="target/release/examples/gomoku_cells")
    p.add_argument("--ridge", type=float, nargs="+", default=[1e-4, 1e-5, 1e-6],
                   help="pull toward zero; the best on held-out positions wins")
    p.add_argument("--write", action="store_true",
                   help="write the fitted tables into the engine's source")
    p.set_defaults(run=cmd_fit)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
