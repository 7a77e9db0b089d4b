#!/usr/bin/env python3
"""BitBully (Markus Thill's Connect Four solver, `pip install bitbully`)
behind the `pons-bench` line format, so that `scripts/c4_sets.py --other`
can set it beside Ply:

    scripts/c4_sets.py --other "python3 scripts/bitbully_bench.py"

Reads `moves expected` lines (Pascal Pons' test sets, columns 1-7) and
prints `moves expected got nodes microseconds` per line. Each position is
solved by BitBully's own driver, `mtdf` from a first guess of 0, after its
transposition table and node counter are reset; the reset is not timed,
only the `mtdf` call is. Scores are Pons' (BitBully uses his scale).
"""
import sys
import time

try:
    import bitbully.bitbully_core as bb
except ImportError:
    sys.exit("bitbully is not installed: pip install bitbully")


def main():
    solver = bb.BitBullyCore()
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        moves = fields[0]
        expected = fields[1] if len(fields) > 1 else "?"
        board = bb.BoardCore()
        for ch in moves:
            if not board.play(int(ch) - 1):
                sys.exit(f"illegal move {ch} in {moves}")
        solver.resetTranspositionTable()
        solver.resetNodeCounter()
        start = time.perf_counter_ns()
        score = solver.mtdf(board, 0)
        micros = (time.perf_counter_ns() - start) // 1000
        print(moves, expected, score, solver.getNodeCounter(), micros, flush=True)


if __name__ == "__main__":
    main()
