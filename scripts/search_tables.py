#!/usr/bin/env python3
"""Markdown tables from `ply compare --csv` output (docs/search.md).

Usage: scripts/search_tables.py ladder|switches|a1a2 FILE.csv
"""
import csv
import sys

LADDER = ["minimax", "alphabeta", "+id", "+tt", "+ordering", "+nullmove",
          "+pvs", "+aspiration", "+quiescence", "full"]


def load(path):
    rows = list(csv.DictReader(open(path)))
    by = {}
    for r in rows:
        by[(r["config"], int(r["depth"]))] = r
    return rows, by


def pct(x):
    return f"{100 * float(x):.1f}%"


def ladder(path):
    rows, by = load(path)
    depths = sorted({int(r["depth"]) for r in rows})
    print("| config | " + " | ".join(f"d{d}" for d in depths) + " |")
    print("|---|" + "---:|" * len(depths))
    for c in LADDER:
        cells = [f"{int(by[(c, d)]['nodes']):,}" if (c, d) in by else "" for d in depths]
        print(f"| `{c}` | " + " | ".join(cells) + " |")


def switches(path):
    rows, by = load(path)
    deepest = max(int(r["depth"]) for r in rows if r["config"] == "full")
    full = int(by[("full", deepest)]["nodes"])
    print(f"| config (depth {deepest}) | nodes | vs `full` | first-move cutoffs | table hits |")
    print("|---|---:|---:|---:|---:|")
    names = ["full"] + [r["config"] for r in rows
                        if r["config"].startswith("-") and int(r["depth"]) == deepest]
    for c in names:
        r = by[(c, deepest)]
        n = int(r["nodes"])
        print(f"| `{c}` | {n:,} | {n / full:.2f} | {pct(r['first_move_cutoff'])} | "
              f"{pct(r['tt_hit_rate'])} |")


def a1a2(path):
    rows, by = load(path)
    depths = sorted({d for (c, d) in by if c == "full"})
    print("| depth | A1 nodes | A1 ms | A2 nodes | A2 ms | nodes A1/A2 | time A1/A2 "
          "| A1 first-move cutoffs | A2 first-move cutoffs |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for d in depths:
        a2 = by[("full", d)]
        a1 = by.get(("alphabeta", d))
        if a1 is None:
            print(f"| {d} | (not run) | | {int(a2['nodes']):,} | {float(a2['time_ms']):.0f} "
                  f"| | | | {pct(a2['first_move_cutoff'])} |")
            continue
        n1, n2 = int(a1["nodes"]), int(a2["nodes"])
        t1, t2 = float(a1["time_ms"]), float(a2["time_ms"])
        print(f"| {d} | {n1:,} | {t1:.0f} | {n2:,} | {t2:.0f} | {n1 / n2:.1f} | "
              f"{t1 / max(t2, 0.1):.1f} | {pct(a1['first_move_cutoff'])} | "
              f"{pct(a2['first_move_cutoff'])} |")


{"ladder": ladder, "switches": switches, "a1a2": a1a2}[sys.argv[1]](sys.argv[2])
