#!/usr/bin/python3
"""Why treelab's CART and scikit-learn's DecisionTreeClassifier grow different trees on the
same data: walk both trees from the root and, at every node where they first part, score
every cut of every attribute on that node's rows in exact rational arithmetic.

  sklearn_tree_diff.py DATA.csv MODEL [SEEDS]

DATA.csv: numeric attributes, the class last (scripts/peers/sklearn_fit_bench.py data).
MODEL: `treelab fit DATA.csv --algo cart -o MODEL`. SEEDS: scikit-learn random_state
values to fit with (default 0..9; the first is the one the node report uses).

For each first difference it prints the node's depth and rows, both choices, and the exact
best weighted Gini of each attribute: when both choices reach the same exact minimum, the
trees differ only by how a tie between attributes is broken (treelab: the first attribute
in file order; scikit-learn: the first in a random permutation of the attributes drawn from
random_state). It also checks the two other suspects: whether scikit-learn's float32 copy
of X merges or reorders any two values, and whether any two distinct values are closer than
scikit-learn's FEATURE_THRESHOLD (1e-7). Finally it prints scikit-learn's leaf count for
each seed, so treelab's count can be seen among them.
"""
import re
import sys
from fractions import Fraction

import numpy as np
from sklearn.tree import DecisionTreeClassifier


def read_model(path):
    """The tree arrays of a treelab model file (libconfig syntax)."""
    text = open(path).read()
    tree = text[text.index("tree = {"):]

    def arr(name, conv):
        m = re.search(r"\b" + name + r" = \[([^\]]*)\]", tree, re.S)
        return [conv(v) for v in m.group(1).replace("\n", " ").split(",") if v.strip()]

    return {"attr": arr("attr", int), "threshold": arr("threshold", float),
            "first_child": arr("first_child", int), "n_children": arr("n_children", int)}


def exact_best(x, y):
    """Least weighted Gini (sum over children of n_child * gini) over every cut between two
    distinct adjacent values, as an exact fraction, and the thresholds that reach it."""
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    classes = sorted(set(ys.tolist()))
    total = {c: int(np.sum(ys == c)) for c in classes}
    n = len(xs)
    left = {c: 0 for c in classes}
    best, cuts = None, []
    for i in range(n - 1):
        left[ys[i]] += 1
        if xs[i + 1] <= xs[i]:
            continue
        nl, nr = i + 1, n - i - 1
        sl = sum(v * v for v in left.values())
        sr = sum((total[c] - left[c]) ** 2 for c in classes)
        val = Fraction(nl) - Fraction(sl, nl) + Fraction(nr) - Fraction(sr, nr)
        t = xs[i] / 2 + xs[i + 1] / 2
        if best is None or val < best:
            best, cuts = val, [t]
        elif val == best:
            cuts.append(t)
    return best, cuts


def first_differences(X, y, sk, tl):
    """Pairs of nodes (rows, depth, sk node, tl node) where the two trees first part."""
    out = []
    stack = [(np.arange(len(y)), 0, 0, 0)]
    while stack:
        rows, depth, s, t = stack.pop()
        s_leaf = sk.children_left[s] < 0
        t_leaf = tl["attr"][t] < 0
        if s_leaf and t_leaf:
            continue
        same = (not s_leaf and not t_leaf and sk.feature[s] == tl["attr"][t] and
                abs(sk.threshold[s] - tl["threshold"][t]) < 1e-6)
        if not same:
            out.append((rows, depth, s, t))
            continue
        go_left = X[rows, tl["attr"][t]] <= tl["threshold"][t]
        fc = tl["first_child"][t]
        stack.append((rows[~go_left], depth + 1, sk.children_right[s], fc + 1))
        stack.append((rows[go_left], depth + 1, sk.children_left[s], fc))
    return out


def main():
    data, model = sys.argv[1], sys.argv[2]
    seeds = [int(s) for s in sys.argv[3].split(",")] if len(sys.argv) > 3 else list(range(10))
    with open(data) as f:
        n_cols = len(f.readline().split(","))
    X = np.loadtxt(data, delimiter=",", skiprows=1, usecols=range(n_cols - 1))
    y = np.loadtxt(data, delimiter=",", skiprows=1, usecols=n_cols - 1, dtype=str)

    # suspects 2 and 3: the float32 copy, and values closer than FEATURE_THRESHOLD
    merged = reordered = close = 0
    for j in range(X.shape[1]):
        v = np.unique(X[:, j])
        f = v.astype(np.float32)
        merged += int(np.sum(f[1:] == f[:-1]))
        reordered += int(np.sum(f[1:] < f[:-1]))
        close += int(np.sum(np.diff(v) <= 1e-7))
    print(f"float32 copy: {merged} pairs of distinct values merged, {reordered} reordered; "
          f"{close} pairs of distinct values closer than 1e-7")

    tl = read_model(model)
    tl_leaves = sum(1 for a in tl["attr"] if a < 0)
    sk = DecisionTreeClassifier(random_state=seeds[0]).fit(X, y)
    print(f"leaves: treelab {tl_leaves}, scikit-learn (random_state={seeds[0]}) "
          f"{sk.get_n_leaves()}")
    diffs = first_differences(X, y, sk.tree_, tl)
    print(f"{len(diffs)} nodes where the trees first part")
    ties = 0
    for rows, depth, s, t in sorted(diffs, key=lambda d: d[1]):
        xs, ys = X[rows], y[rows]
        best = {j: exact_best(xs[:, j], ys) for j in range(X.shape[1])}
        overall = min(b[0] for b in best.values() if b[0] is not None)
        tied = [j for j, b in best.items() if b[0] == overall]
        tf, sf = tl["attr"][t], sk.tree_.feature[s]
        tie = tf in tied and (sf in tied or sf < 0)
        ties += tie
        print(f"depth {depth}, {len(rows)} rows: treelab x{tf} <= {tl['threshold'][t]:.6g}, "
              f"scikit-learn x{sf} <= {sk.tree_.threshold[s]:.6g}; exact best "
              f"{float(overall):.6g} reached by x{tied} -> "
              f"{'a tie between attributes' if tie else 'NOT A TIE'}")
    print(f"{ties} of {len(diffs)} first differences are exact ties")
    counts = []
    for seed in seeds:
        counts.append(DecisionTreeClassifier(random_state=seed).fit(X, y).get_n_leaves())
    print("scikit-learn leaves by random_state " + ", ".join(
        f"{s}:{c}" for s, c in zip(seeds, counts)) +
        f"; range {min(counts)}..{max(counts)}, treelab {tl_leaves}")


if __name__ == "__main__":
    main()
