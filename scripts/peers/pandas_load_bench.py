#!/usr/bin/python3
"""Loading side of scripts/bench/load.sh: time one read of a CSV written by
sklearn_fit_bench.py (20 numeric attributes x0..x19, a class y) and checksum what was read.

  pandas_load_bench.py pandas FILE   pandas.read_csv (C engine, default options)
  pandas_load_bench.py numpy FILE    numpy.loadtxt of the 20 numeric columns

Prints: seconds bitsum cpu_seconds (wall, and the process's CPU time), where bitsum is the sum modulo 2^64 of the IEEE bit patterns of every
numeric cell, as scripts/bench/load_time.c prints it for treelab: equal sums say both read the
same doubles (the order of the sum does not matter).
"""
import sys
import time

import numpy as np


def bitsum(a):
    a = np.ascontiguousarray(a, dtype=np.float64)
    return int(a.view(np.uint64).sum(dtype=np.uint64))


def main(which, path):
    if which == "pandas":
        import pandas as pd
        t, c = time.perf_counter(), time.process_time()
        df = pd.read_csv(path)
        t, c = time.perf_counter() - t, time.process_time() - c
        s = bitsum(df[[f"x{i}" for i in range(20)]].to_numpy())
    else:
        t, c = time.perf_counter(), time.process_time()
        a = np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(20))
        t, c = time.perf_counter() - t, time.process_time() - c
        s = bitsum(a)
    print(f"{t:.4f} {s} {c:.4f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
