#!/usr/bin/python3
"""Record Dietterich's 5x2cv paired t-test and Alpaydin's combined 5x2cv F-test, computed with
SciPy's t and F distributions, on the fold scores of tests/fixtures/scores_5x2cv.csv (a treelab
run of gaussian_nb, c45 and cart under 5 repeats of 2-fold CV on four bundled datasets,
`treelab run` with protocol { kind = "cv"; folds = 2; repeats = 5; }, seed 1998; its
metrics.csv's accuracy and roc_auc_macro columns).

Writes tests/fixtures/scipy_5x2cv.txt, one line a (dataset, model A, model B, metric):
  DATASET A B METRIC t p_t f p_f
with t = p_1^(1) / sqrt(sum_i s_i^2 / 5), p_t = 2 t.sf(|t|, 5) (Dietterich 1998) and
f = sum_ij (p_i^(j))^2 / (2 sum_i s_i^2), p_f = f.sf(f, 10, 5) (Alpaydin 1999), where
p_i^(j) = A - B on fold j of repeat i and s_i^2 = sum_j (p_i^(j) - mean_j p_i^(j))^2.
Values are printed with %.17g. Run from the repository's root with Debian's python3-scipy: scripts/peers/scipy_5x2cv.py
"""
import csv
import itertools

import numpy as np
from scipy import stats

IN = "tests/fixtures/scores_5x2cv.csv"
OUT = "tests/fixtures/scipy_5x2cv.txt"


def g(v):
    return "%.17g" % v


def main():
    scores = {}
    for row in csv.DictReader(open(IN)):
        for metric in ("accuracy", "roc_auc_macro"):
            key = (row["dataset"], row["model"], metric)
            scores.setdefault(key, np.zeros((5, 2)))[int(row["repeat"]), int(row["fold"])] = \
                float(row[metric])
    datasets = list(dict.fromkeys(k[0] for k in scores))  # in the file's order
    models = list(dict.fromkeys(k[1] for k in scores))
    with open(OUT, "w") as f:
        for d in datasets:
            for a, b in itertools.combinations(models, 2):
                for metric in ("accuracy", "roc_auc_macro"):
                    p = scores[(d, a, metric)] - scores[(d, b, metric)]
                    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
                    t = p[0, 0] / np.sqrt(s2.sum() / 5)
                    p_t = 2 * stats.t.sf(abs(t), 5)
                    fv = (p ** 2).sum() / (2 * s2.sum())
                    p_f = stats.f.sf(fv, 10, 5)
                    f.write(" ".join([d, a, b, metric, g(t), g(p_t), g(fv), g(p_f)]) + "\n")


if __name__ == "__main__":
    main()
