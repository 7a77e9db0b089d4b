#!/usr/bin/env python3
"""Ply's exact solver on Pascal Pons' six Connect Four test sets, side by
side with another solver, as a markdown table.

    scripts/c4_sets.py [--other CMD] [--ply BIN] [--hash MB] [--passes N]
                       [--sets NAME,...] [--lines NAME=N,...] [--off SWITCH]

CMD reads `moves expected` lines on stdin and prints
`moves expected got nodes microseconds` per line, each position from a
cleared table whose clearing is not timed (the `pons-bench` harness of
shared/instruments prints exactly this). The two programs alternate, a
tenth of a set at a time; each chunk is solved `--passes` times by each
(alternating pass by pass) and every position keeps its fastest time. Per
set: mean and median microseconds and mean nodes of each, the ratio of
means Ply/other, the median of the chunks' ratios, and how many of each
program's scores were exact.
"""
import argparse
import os
import statistics
import subprocess
import sys

SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L2_R2", "Test_L1_R2", "Test_L1_R3"]
DEFAULT_LINES = {"Test_L2_R2": 200, "Test_L1_R2": 20, "Test_L1_R3": 5}


def find_data():
    d = os.path.dirname(os.path.abspath(__file__))
    while d != "/":
        cand = os.path.join(d, "shared", "data", "connect4")
        if os.path.isdir(cand):
            return cand
        d = os.path.dirname(d)
    sys.exit("no shared/data/connect4 above the checkout; give --data")


def run_ply(args, lines):
    """Ply's (score, nodes, us) per line, in order."""
    cmd = [args.ply, "--game", "connect4", "--hash", str(args.hash), "solve"]
    for switch in args.off:
        cmd += ["--off", switch]
    out = subprocess.run(cmd, input="".join(lines), capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 7 and f[2] == "nodes":
            rows.append((f[6] == "ok", int(f[3]), int(f[5])))
    return rows


def run_other(args, lines):
    out = subprocess.run(args.other, shell=True, input="".join(lines), capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 5:
            rows.append((f[1] == f[2], int(f[3]), int(f[4])))
    return rows


def fastest(passes):
    """Per position: exact in every pass, its nodes, its fastest time."""
    return [(all(r[0] for r in rows), rows[0][1], min(r[2] for r in rows)) for rows in zip(*passes)]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--other", help="the other solver's command (pons-bench format)")
    p.add_argument("--ply", help="a Ply binary (default: build this checkout)")
    p.add_argument("--hash", type=int, default=64, help="Ply's table in MB (Pons' default table is 64 MB)")
    p.add_argument("--passes", type=int, default=3)
    p.add_argument("--sets", default=",".join(SETS))
    p.add_argument("--lines", default="", help="lines taken per set, e.g. Test_L1_R3=20")
    p.add_argument("--off", action="append", default=[], help="a Ply search switch to turn off")
    p.add_argument("--data", default=None)
    args = p.parse_args()
    data = args.data or find_data()
    if not args.ply:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=root, check=True)
        args.ply = os.path.join(root, "target", "release", "ply")
    lines_of = dict(DEFAULT_LINES)
    for item in filter(None, args.lines.split(",")):
        name, n = item.split("=")
        lines_of[name] = int(n)
    if args.other:
        print("| set | positions | Ply µs mean | other µs mean | Ply µs median | other µs median "
              "| ratio of means | chunk ratio median | Ply nodes | other nodes | node ratio | Ply exact | other exact |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    else:
        print("| set | positions | Ply µs mean | Ply µs median | Ply nodes | Ply exact |")
        print("|---|---|---|---|---|---|")
    for name in args.sets.split(","):
        with open(os.path.join(data, name)) as f:
            lines = [l if l.endswith("\n") else l + "\n" for l in f if l.strip()]
        lines = lines[: lines_of.get(name, 1000)]
        size = max(1, (len(lines) + 9) // 10)
        ply_rows, other_rows, ratios = [], [], []
        for start in range(0, len(lines), size):
            chunk = lines[start : start + size]
            ply_passes, other_passes = [], []
            for _ in range(args.passes):
                ply_passes.append(run_ply(args, chunk))
                if args.other:
                    other_passes.append(run_other(args, chunk))
            a = fastest(ply_passes)
            ply_rows += a
            if args.other:
                b = fastest(other_passes)
                other_rows += b
                mb = statistics.mean(r[2] for r in b)
                ratios.append(statistics.mean(r[2] for r in a) / mb if mb > 0 else 1.0)
        n = len(ply_rows)
        pm, pmed = statistics.mean(r[2] for r in ply_rows), statistics.median(r[2] for r in ply_rows)
        pn, pok = statistics.mean(r[1] for r in ply_rows), sum(r[0] for r in ply_rows)
        if args.other:
            om, omed = statistics.mean(r[2] for r in other_rows), statistics.median(r[2] for r in other_rows)
            on, ook = statistics.mean(r[1] for r in other_rows), sum(r[0] for r in other_rows)
            print(f"| {name} | {n} | {pm:.1f} | {om:.1f} | {pmed:.0f} | {omed:.0f} | {pm / om:.2f} "
                  f"| {statistics.median(ratios):.2f} | {pn:.0f} | {on:.0f} | {pn / on:.2f} | {pok}/{n} | {ook}/{len(other_rows)} |")
        else:
            print(f"| {name} | {n} | {pm:.1f} | {pmed:.0f} | {pn:.0f} | {pok}/{n} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
