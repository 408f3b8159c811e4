#!/usr/bin/python3
"""scikit-learn's side of scripts/bench/histogram.sh: the exact DecisionTreeClassifier on a hold-out split.

  sklearn_holdout_bench.py FILE K [DEPTH]   fit on the rows i with i % K != K - 1 (single
                                            thread; max_depth DEPTH if given), score the
                                            others; print: seconds leaves accuracy
FILE is a bundled ARFF file of numeric attributes (read as scripts/peers/sklearn_gnb.py does)
or a CSV of scripts/peers/sklearn_fit_bench.py (20 numeric attributes and a class). The split
is the one of scripts/bench/fit_time.c's holdout=K.
"""
import os
import sys
import time

import numpy as np
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sklearn_gnb import load  # noqa: E402  (the same ARFF reader)


def read(path):
    if path.endswith(".arff"):
        X, y, _ = load(os.path.basename(path)[:-5])
        return X, y
    raw = np.loadtxt(path, delimiter=",", skiprows=1, dtype=str)
    return raw[:, :-1].astype(np.float64), raw[:, -1]


def main():
    X, y = read(sys.argv[1])
    k = int(sys.argv[2])
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else None
    test = np.arange(len(y)) % k == k - 1
    t0 = time.perf_counter()
    tree = DecisionTreeClassifier(random_state=0, max_depth=depth).fit(X[~test], y[~test])
    t1 = time.perf_counter()
    acc = float(np.mean(tree.predict(X[test]) == y[test]))
    print(f"{t1 - t0:.3f} {tree.get_n_leaves()} {acc:.4f}")


if __name__ == "__main__":
    main()
