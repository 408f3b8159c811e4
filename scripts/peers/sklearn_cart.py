#!/usr/bin/python3
"""Record scikit-learn DecisionTreeClassifier results that treelab's CART is tested against.

Run from the repository root with the Debian python: /usr/bin/python3 scripts/peers/sklearn_cart.py
For iris, breast_cancer and wine (the bundled ARFF files treelab reads) it writes
tests/fixtures/sklearn_cart_<dataset>.txt with, for the unpruned Gini tree on all rows
(DecisionTreeClassifier(random_state=0)): the number of leaves, the depth, the training
predictions (class indices in the ARFF's order), the cost_complexity_pruning_path alphas and
impurities (repr, exact), and the mean accuracy of 10 x 10-fold stratified CV, averaged over random_state 0..9
(RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)),
and those folds (one line per repeat: the test fold of every row), so treelab's CV can use
the very same folds.
"""
import os
import sys

import numpy as np
import sklearn
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sklearn_gnb import load  # noqa: E402  (the same ARFF reader)

DATASETS = ["iris", "breast_cancer", "wine"]


def main():
    for name in DATASETS:
        X, y, levels = load(name)
        tree = DecisionTreeClassifier(random_state=0).fit(X, y)
        path = tree.cost_complexity_pruning_path(X, y)
        cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
        # scikit-learn breaks ties between equally good features at random: average the CV
        # accuracy over random_state 0..9 rather than trust one draw (iris: 0.944 to 0.953)
        acc = np.array([cross_val_score(DecisionTreeClassifier(random_state=s), X, y, cv=cv).mean()
                        for s in range(10)])
        out = f"tests/fixtures/sklearn_cart_{name}.txt"
        with open(out, "w") as f:
            f.write(f"# sklearn {sklearn.__version__} DecisionTreeClassifier(random_state=0) on "
                    f"experiments/datasets/{name}.arff (scripts/peers/sklearn_cart.py)\n")
            f.write(f"leaves {tree.get_n_leaves()}\n")
            f.write(f"depth {tree.get_depth()}\n")
            f.write(f"cv_accuracy {acc.mean()!r}\n")
            f.write("predictions " + " ".join(str(int(p)) for p in tree.predict(X)) + "\n")
            f.write("ccp_alphas " + " ".join(repr(float(a)) for a in path.ccp_alphas) + "\n")
            for r, (_, test) in enumerate(cv.split(X, y)):
                if r % 10 == 0:
                    fold = np.zeros(len(y), dtype=int)
                fold[test] = r % 10
                if r % 10 == 9:
                    f.write("folds " + " ".join(str(v) for v in fold) + "\n")
            f.write("ccp_impurities " + " ".join(repr(float(a)) for a in path.impurities) + "\n")
        print(f"{out}: {tree.get_n_leaves()} leaves, depth {tree.get_depth()}, "
              f"{len(path.ccp_alphas)} alphas, cv {acc.mean():.4f}")


if __name__ == "__main__":
    main()
