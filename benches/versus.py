#!/usr/bin/env python3
"""Binaries side by side on one entry: runs are alternated (each round runs
every binary once, in turn) so a slow stretch of the host falls on all of
them, and each binary's median wall time is printed with the ratio to the
first's.

    python3 benches/versus.py --entry target/bench-corpus/1000/claim \
        --rounds 21 OLD_BIN NEW_BIN [--args '--jobs 2']

The exit status of each run is printed too: a binary that fails where
another passes is not compared on speed."""

import argparse
import shlex
import statistics
import subprocess
import time


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--entry", required=True)
    p.add_argument("--rounds", type=int, default=21)
    p.add_argument("--args", default="")
    p.add_argument("bins", nargs="+")
    a = p.parse_args()
    extra = shlex.split(a.args)
    times = {b: [] for b in a.bins}
    codes = {b: set() for b in a.bins}
    for _ in range(a.rounds):
        for b in a.bins:
            start = time.perf_counter()
            r = subprocess.run([b, "--entry", a.entry, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[b].append(time.perf_counter() - start)
            codes[b].add(r.returncode)
    first = statistics.median(times[a.bins[0]])
    for b in a.bins:
        m = statistics.median(times[b])
        print(f"{m * 1000:8.1f} ms  {m / first:5.3f}x  exit {sorted(codes[b])}  {b}")


if __name__ == "__main__":
    main()
