#!/usr/bin/python3
"""Synthetic benchmark data and scikit-learn's side of scripts/bench/fit.sh.

  sklearn_fit_bench.py data ROWS FILE   write ROWS x 20 numeric attributes + a 0/1 class
  sklearn_fit_bench.py fit FILE         time DecisionTreeClassifier.fit (single thread)
                                        and print: seconds leaves cpu_seconds
"""
import sys
import time

import numpy as np


def make(rows):
    """X (rows x 20, 4 decimals) and a 0/1 class (also scripts/bench/python_bench.py's)."""
    rng = np.random.default_rng(12345)
    X = np.round(rng.normal(size=(rows, 20)), 4)
    # a class that depends on a few attributes, with 10% label noise
    score = X[:, 0] + 0.5 * X[:, 1] * X[:, 2] - 0.7 * np.abs(X[:, 3]) + 0.3 * X[:, 4]
    y = (score > 0).astype(int)
    flip = rng.random(rows) < 0.1
    y[flip] = 1 - y[flip]
    return X, y


def data(rows, path):
    X, y = make(rows)
    with open(path, "w") as f:
        f.write(",".join(f"x{i}" for i in range(20)) + ",y\n")
        np.savetxt(f, np.column_stack([X, y]), delimiter=",",
                   fmt=",".join(["%.4f"] * 20 + ["c%d"]))


def fit(path):
    from sklearn.tree import DecisionTreeClassifier
    raw = np.loadtxt(path, delimiter=",", skiprows=1, dtype=str)
    X = raw[:, :20].astype(np.float64)
    y = raw[:, 20]
    t0, c0 = time.perf_counter(), time.process_time()
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
    t1, c1 = time.perf_counter(), time.process_time()
    print(f"{t1 - t0:.3f} {tree.get_n_leaves()} {c1 - c0:.3f}")


if __name__ == "__main__":
    if sys.argv[1] == "data":
        data(int(sys.argv[2]), sys.argv[3])
    else:
        fit(sys.argv[2])
