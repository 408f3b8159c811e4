#!/usr/bin/python3
"""scikit-learn's side of scripts/bench/ccp_cv.sh: cost-complexity pruning with alpha chosen
by 10-fold CV over the exact path, as treelab's `cart prune=cv` does it.

  sklearn_ccp_cv_bench.py DATA.csv      (numeric attributes, the class last)

cost_complexity_pruning_path on all rows (alphas equal to 1e-12 relative merged: scikit-learn
lists a link per node where ties prune several at once); the candidates are the geometric
midpoints of consecutive path alphas (the last alpha itself); each fold's tree is fitted once and pruned
at each candidate in increasing order (`_prune_tree`, which continues from the previous
subtree, as treelab does), scored on the held-out fold; the least CV error wins and the tree
on all rows is pruned there. Single thread. Prints: seconds path_alphas chosen_leaves
"""
import sys
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier


def main():
    raw = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, dtype=str)
    X = raw[:, :-1].astype(np.float64)
    y = raw[:, -1]
    t0 = time.perf_counter()
    path = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y)
    a = [path.ccp_alphas[0]]
    for v in path.ccp_alphas[1:]:
        if v > a[-1] + 1e-12 * max(1.0, a[-1]):
            a.append(v)
    a = np.array(a)
    beta = np.append(np.sqrt(a[:-1] * a[1:]), a[-1])
    wrong = np.zeros(len(beta))
    for train, test in StratifiedKFold(10, shuffle=True, random_state=0).split(X, y):
        clf = DecisionTreeClassifier(random_state=0).fit(X[train], y[train])
        for i, b in enumerate(beta):
            clf.ccp_alpha = b
            clf._prune_tree()
            wrong[i] += np.sum(clf.predict(X[test]) != y[test])
    best = len(beta) - 1 - int(np.argmin(wrong[::-1]))  # ties: the smaller tree
    final = DecisionTreeClassifier(random_state=0, ccp_alpha=beta[best]).fit(X, y)
    t1 = time.perf_counter()
    print(f"{t1 - t0:.3f} {len(a)} {final.get_n_leaves()}")


if __name__ == "__main__":
    main()
