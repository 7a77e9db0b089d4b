#!/usr/bin/env python3
"""Median time from `stop` to `bestmove` over N tries of `go infinite`.
Usage: scripts/stop_latency.py [PLY_BINARY] [TRIES]"""
import statistics
import subprocess
import sys
import time

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/ply"
tries = int(sys.argv[2]) if len(sys.argv) > 2 else 20
engine = subprocess.Popen([binary, "--game", "connect4"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def wait_for(prefix):
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("engine exited")
        if line.startswith(prefix):
            return


latencies = []
for i in range(tries):
    send("position startpos moves 4 4 3" if i % 2 else "position startpos")
    send("go infinite")
    time.sleep(0.15)
    start = time.perf_counter()
    send("stop")
    wait_for("bestmove")
    latencies.append((time.perf_counter() - start) * 1000)
send("quit")
engine.wait()
print(f"stop latency over {tries} tries: median {statistics.median(latencies):.2f} ms, "
      f"max {max(latencies):.2f} ms")
