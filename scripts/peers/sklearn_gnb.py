#!/usr/bin/python3
"""Record scikit-learn GaussianNB full-data class probabilities on bundled ARFF datasets.

Run from the repository root with the Debian python (/usr/bin/python3 scripts/peers/sklearn_gnb.py).
Also gnb_iris_weighted.csv: iris with row i weighing 1 + (i mod 3) (sample_weight; scikit-learn
still takes epsilon from the unweighted variance). It reads the same experiments/datasets/*.arff files treelab reads and writes
tests/fixtures/gnb_<dataset>.csv: one row per data row, the probabilities of every class in
the ARFF's class order, printed with repr (shortest round-tripping form, as %.17g reads back).
"""
import sys

import numpy as np
import sklearn
from scipy.io import arff
from sklearn.naive_bayes import GaussianNB

DATASETS = ["iris", "wine", "breast_cancer"]


def load(name):
    data, meta = arff.loadarff(f"experiments/datasets/{name}.arff")
    names = meta.names()
    target = names[-1]
    for a in names[:-1]:
        if meta[a][0] != "numeric":
            sys.exit(f"{name}: attribute {a} is not numeric")
    X = np.column_stack([data[a].astype(np.float64) for a in names[:-1]])
    levels = list(meta[target][1])
    y = np.array([levels.index(v.decode()) for v in data[target]])
    return X, y, levels


def record(name, out, weighted):
    X, y, levels = load(name)
    if np.isnan(X).any():
        sys.exit(f"{name}: has missing values")
    w = 1.0 + np.arange(len(y)) % 3 if weighted else None
    model = GaussianNB().fit(X, y, sample_weight=w)
    # every class present, so sklearn's class order equals the ARFF's
    assert list(model.classes_) == list(range(len(levels)))
    proba = model.predict_proba(X)
    path = f"tests/fixtures/gnb_{out}.csv"
    with open(path, "w") as f:
        f.write(f"# sklearn {sklearn.__version__} GaussianNB() predict_proba on "
                f"experiments/datasets/{name}.arff{' with weights 1 + i % 3' if weighted else ''}"
                f" (scripts/peers/sklearn_gnb.py)\n")
        f.write(",".join(levels) + "\n")
        for row in proba:
            f.write(",".join(repr(float(v)) for v in row) + "\n")
    print(f"{path}: {len(y)} rows, {len(levels)} classes, epsilon {model.epsilon_!r}")


def main():
    for name in DATASETS:
        record(name, name, False)
    record("iris", "iris_weighted", True)


if __name__ == "__main__":
    main()
