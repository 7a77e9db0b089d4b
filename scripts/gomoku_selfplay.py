#!/usr/bin/env python3
"""One game of pbrain-ply against itself through the Piskvork protocol, as
the Gomocup judge plays it: START, INFO keys, BEGIN/TURN, until a brain
finds the game over. Prints every reply time, the largest, and each
brain's peak memory (VmHWM).
Usage: scripts/gomoku_selfplay.py [BRAIN] [TIMEOUT_TURN_MS] [RULE_MASK] [SIZE]"""
import subprocess
import sys
import time

brain = sys.argv[1] if len(sys.argv) > 1 else "target/release/pbrain-ply"
turn_ms = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
rule = int(sys.argv[3]) if len(sys.argv) > 3 else 0
size = int(sys.argv[4]) if len(sys.argv) > 4 else 15


def start():
    p = subprocess.Popen([brain], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in [f"START {size}", f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0",
                 "INFO max_memory 367001600", f"INFO rule {rule}"]:
        p.stdin.write(line + "\n")
    p.stdin.flush()
    assert p.stdout.readline().strip() == "OK"
    return p


def ask(p, line):
    t0 = time.perf_counter()
    p.stdin.write(line + "\n")
    p.stdin.flush()
    reply = p.stdout.readline().strip()
    return reply, (time.perf_counter() - t0) * 1000


def peak_mb(p):
    with open(f"/proc/{p.pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


brains = [start(), start()]
board = set()
times = []
command = "BEGIN"
turn = 0
while len(board) < size * size:
    reply, ms = ask(brains[turn], command)
    if reply.startswith("ERROR"):
        # The opponent's last move ended the game.
        print(f"game over: {reply}")
        break
    x, y = map(int, reply.split(","))
    assert (x, y) not in board, f"occupied {reply}"
    board.add((x, y))
    times.append(ms)
    print(f"{len(board):3d} {reply:>6} {ms:7.1f} ms", flush=True)
    command = f"TURN {x},{y}"
    turn = 1 - turn
print(f"moves {len(times)}, largest reply {max(times):.1f} ms, median {sorted(times)[len(times)//2]:.1f} ms, "
      f"peak memory {peak_mb(brains[0]):.1f} MB / {peak_mb(brains[1]):.1f} MB")
for b in brains:
    b.stdin.write("END\n")
    b.stdin.flush()
    b.wait(timeout=2)
