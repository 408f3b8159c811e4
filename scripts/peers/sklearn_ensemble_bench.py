#!/usr/bin/python3
"""scikit-learn's side of scripts/bench/ensembles.sh: time one ensemble's fit, one thread.

  sklearn_ensemble_bench.py KIND FILE   KIND: random_forest | extra_trees | gradient_boosting
                                        prints: seconds cpu_seconds mean_leaves
on the synthetic data of sklearn_fit_bench.py (20 numeric attributes, a 0/1 class), with
treelab's settings: 100 trees; forests fully grown with sqrt(20) = 4 attributes a node;
boosting depth 3, learning rate 0.1, all attributes.
"""
import sys
import time

import numpy as np


def main(kind, path):
    from sklearn.ensemble import (ExtraTreesClassifier, GradientBoostingClassifier,
                                  RandomForestClassifier)
    raw = np.loadtxt(path, delimiter=",", skiprows=1, dtype=str)
    X = raw[:, :20].astype(np.float64)
    y = raw[:, 20]
    make = {"random_forest": lambda: RandomForestClassifier(n_estimators=100, n_jobs=1,
                                                             random_state=0),
            "extra_trees": lambda: ExtraTreesClassifier(n_estimators=100, n_jobs=1,
                                                         random_state=0),
            "gradient_boosting": lambda: GradientBoostingClassifier(n_estimators=100,
                                                                     max_depth=3,
                                                                     random_state=0)}[kind]
    m = make()
    t0, c0 = time.perf_counter(), time.process_time()
    m.fit(X, y)
    t1, c1 = time.perf_counter(), time.process_time()
    trees = [t for t in np.ravel(m.estimators_)]
    leaves = np.mean([t.get_n_leaves() for t in trees])
    print(f"{t1 - t0:.3f} {c1 - c0:.3f} {leaves:.1f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
