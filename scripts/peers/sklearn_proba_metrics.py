#!/usr/bin/python3
"""Record scikit-learn's probability metrics (ROC AUC, average precision, Brier, log loss).

Run from the repository root: /usr/bin/python3 scripts/peers/sklearn_proba_metrics.py
Writes tests/fixtures/sklearn_proba_metrics.txt (read by tests/test_metrics_proba.c), a
whitespace-separated list of records:
  case NAME K N W     starts a case: K classes, N rows, W = 1 when it has row weights
  truth               N class codes
  proba               N*K probabilities, row-major
  weight              N weights (only when W = 1)
  <metric> value      roc_auc_macro roc_auc_weighted pr_auc brier log_loss ('nan': undefined)
Every value is printed with %.17g (it reads back exactly with strtod).

The cases hold ties (leaf-like probabilities shared by many rows), zeros and ones, zero and
fractional weights, a fold missing a class and a binary fold with one class only. sklearn's
calls, labels 0..K-1 throughout:
  roc_auc_*  roc_auc_score(truth, proba[:, 1]) for K = 2; else
             roc_auc_score(truth, proba, multi_class="ovr", average=..., labels=range(K)).
             Where a class is absent from truth sklearn refuses; the value recorded is then
             the mean (support-weighted mean) of roc_auc_score(truth == c, proba[:, c]) over
             the classes present, which is what treelab reports.
  pr_auc     average_precision_score(truth, proba[:, 1]) for K = 2; else
             average_precision_score(label_binarize(truth, classes=range(K)), proba,
             average="macro").
  brier      brier_score_loss(truth, proba[:, 1]) for K = 2; else the mean over rows of
             sum_c (proba[:, c] - onehot)^2 computed here with numpy (sklearn 1.2 has no
             multi-class Brier score).
  log_loss   log_loss(truth, proba, eps=1e-15, labels=range(K)).
"""
import warnings

import numpy as np
import sklearn
from sklearn import metrics
from sklearn.preprocessing import label_binarize

OUT = "tests/fixtures/sklearn_proba_metrics.txt"
warnings.simplefilter("ignore")  # sklearn warns on a class without positives (AP = 0)


def leafy(rng, n, k, n_leaves):
    """Rows drawn from a few leaf distributions (class frequencies), so scores tie."""
    leaves = []
    for _ in range(n_leaves):
        counts = rng.integers(0, 6, size=k).astype(float)
        if counts.sum() == 0:
            counts[rng.integers(k)] = 1
        leaves.append(counts / counts.sum())
    return np.array([leaves[i] for i in rng.integers(0, n_leaves, size=n)])


def smooth(rng, n, k):
    return rng.dirichlet(np.ones(k), size=n)


def value(f):
    return "nan" if np.isnan(f) else "%.17g" % f


def present_auc(truth, proba, weight, k, weighted):
    aucs, sup = [], []
    for c in range(k):
        y = (truth == c).astype(int)
        if 0 < y.sum() < len(y):
            aucs.append(metrics.roc_auc_score(y, proba[:, c], sample_weight=weight))
            sup.append(np.sum(y * (weight if weight is not None else 1.0)))
    return np.average(aucs, weights=sup if weighted else None)


def scores(truth, proba, weight, k):
    labels = list(range(k))
    out = {}
    if k == 2:
        one = len(np.unique(truth)) < 2
        auc = np.nan if one else metrics.roc_auc_score(truth, proba[:, 1], sample_weight=weight)
        out["roc_auc_macro"] = out["roc_auc_weighted"] = auc
        out["pr_auc"] = metrics.average_precision_score(truth, proba[:, 1], sample_weight=weight)
        out["brier"] = metrics.brier_score_loss(truth, proba[:, 1], sample_weight=weight)
    else:
        if len(np.unique(truth)) == k:
            for avg in ("macro", "weighted"):
                out["roc_auc_" + avg] = metrics.roc_auc_score(
                    truth, proba, multi_class="ovr", average=avg, labels=labels,
                    sample_weight=weight)
        else:
            out["roc_auc_macro"] = present_auc(truth, proba, weight, k, False)
            out["roc_auc_weighted"] = present_auc(truth, proba, weight, k, True)
        binar = label_binarize(truth, classes=labels)
        out["pr_auc"] = metrics.average_precision_score(binar, proba, average="macro",
                                                        sample_weight=weight)
        onehot = np.eye(k)[truth]
        out["brier"] = np.average(((proba - onehot) ** 2).sum(axis=1), weights=weight)
    out["log_loss"] = metrics.log_loss(truth, proba, eps=1e-15, labels=labels,
                                       sample_weight=weight)
    return out


def write_case(f, name, truth, proba, weight):
    n, k = proba.shape
    f.write(f"case {name} {k} {n} {int(weight is not None)}\n")
    f.write("truth " + " ".join(str(int(t)) for t in truth) + "\n")
    f.write("proba " + " ".join("%.17g" % p for p in proba.ravel()) + "\n")
    if weight is not None:
        f.write("weight " + " ".join("%.17g" % w for w in weight) + "\n")
    for key, v in scores(truth, proba, weight, k).items():
        f.write(f"{key} {value(v)}\n")


def main():
    rng = np.random.default_rng(20240613)
    with open(OUT, "w") as f:
        f.write(f"# sklearn {sklearn.__version__}, scripts/peers/sklearn_proba_metrics.py\n")
        # binary, tied scores with zeros and ones
        p = leafy(rng, 60, 2, 5)
        p[:3] = [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]
        t = (rng.random(60) < p[:, 1] * 0.8 + 0.1).astype(int)
        write_case(f, "binary_ties", t, p, None)
        # binary, weighted (a zero weight among them), continuous scores
        p = smooth(rng, 45, 2)
        t = (rng.random(45) < p[:, 1]).astype(int)
        w = rng.choice([0.0, 0.5, 1.0, 2.5, 3.0], size=45)
        write_case(f, "binary_weighted", t, p, w)
        # binary, weighted, ties
        p = leafy(rng, 50, 2, 4)
        t = (rng.random(50) < p[:, 1]).astype(int)
        write_case(f, "binary_weighted_ties", t, p, rng.random(50) * 3)
        # binary fold holding one class only: AUC undefined
        p = leafy(rng, 12, 2, 3)
        write_case(f, "binary_one_class", np.zeros(12, dtype=int), p, None)
        # three classes, leaf-like ties and zeros
        p = leafy(rng, 80, 3, 7)
        t = np.array([rng.choice(3, p=row * 0.7 + 0.1) for row in p])
        write_case(f, "three_ties", t, p, None)
        # three classes, weighted ties
        p = leafy(rng, 70, 3, 6)
        t = np.array([rng.choice(3, p=row * 0.6 + 0.4 / 3) for row in p])
        write_case(f, "three_weighted", t, p, rng.choice([0.0, 1.0, 1.5, 4.0], size=70))
        # four classes, continuous
        p = smooth(rng, 40, 4)
        t = np.array([rng.choice(4, p=row) for row in p])
        write_case(f, "four_smooth", t, p, None)
        # five classes, ties, weighted
        p = leafy(rng, 100, 5, 9)
        t = np.array([rng.choice(5, p=row * 0.5 + 0.1) for row in p])
        write_case(f, "five_weighted", t, p, rng.random(100) * 2)
        # three classes, class 2 absent from the fold
        p = leafy(rng, 30, 3, 5)
        t = rng.integers(0, 2, size=30)
        write_case(f, "three_missing_class", t, p, None)


if __name__ == "__main__":
    main()
