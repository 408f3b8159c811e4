#!/usr/bin/python3
"""Record scikit-learn DecisionTreeRegressor trees that treelab's mae and friedman_mse are tested against.

Run from the repository root with the Debian python: /usr/bin/python3 scripts/peers/sklearn_regression.py
It writes tests/fixtures/regression_ties.csv (a small synthetic set: two attributes with many
duplicate values and a target with many ties, from a fixed seed) and
tests/fixtures/sklearn_regression.txt: for each dataset, criterion ("absolute_error",
"friedman_mse") and variant (defaults; max_depth=3; min_samples_leaf=5; for friedman_mse
also min_impurity_decrease), a block

    case DATASET CRITERION VARIANT
    shape NODES LEAVES DEPTH
    node I FEATURE THRESHOLD LEFT RIGHT VALUE   (scikit-learn's arrays; FEATURE -2 at a leaf)
    predictions ...  (on the training rows)

A case is recorded only when random_state 0..9 grow the very same tree: where two attributes
tie, scikit-learn's random attribute order decides (treelab takes the first in file order).

Numbers are printed with repr (round-trip exact). scikit-learn works on X rounded to float32,
so the C test rounds the attributes to float32 before fitting. Datasets: the bundled
engagement-regression.csv and two-feature-boundary.csv, diabetes.arff with 'age' as the target
(from the other numeric attributes, 'class' left out; from 'plas' alone; from 'mass' alone),
and regression_ties.csv (both attributes; x0 alone).
"""
import numpy as np
import sklearn
from scipy.io import arff
from sklearn.tree import DecisionTreeRegressor

VARIANTS = [("default", {}), ("max_depth=3", {"max_depth": 3}),
            ("min_samples_leaf=5", {"min_samples_leaf": 5})]
CRITERIA = ["absolute_error", "friedman_mse"]


def ties_dataset(path):
    rng = np.random.RandomState(12)
    n = 40
    x0 = rng.randint(0, 8, n).astype(float)
    x1 = rng.randint(0, 10, n) / 2.0
    y = np.clip(np.round((x0 + 2 * x1) / 4 + rng.randint(-1, 2, n)), 0, None)
    with open(path, "w") as f:
        f.write("x0,x1,y\n")
        for a, b, c in zip(x0, x1, y):
            f.write(f"{a:g},{b:g},{c:g}\n")


def load_csv(path):
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    return data[:, :-1], data[:, -1]


def load_diabetes_age(names=None):
    data, meta = arff.loadarff("experiments/datasets/diabetes.arff")
    names = names or [a for a in meta.names() if a not in ("age", "class")]
    X = np.column_stack([data[a].astype(np.float64) for a in names])
    return X, data["age"].astype(np.float64)


def fit(X, y, criterion, params, seed):
    return DecisionTreeRegressor(criterion=criterion, random_state=seed, **params).fit(X, y)


def same(a, b):
    ta, tb = a.tree_, b.tree_
    return (ta.node_count == tb.node_count and np.array_equal(ta.feature, tb.feature)
            and np.array_equal(ta.threshold, tb.threshold)
            and np.array_equal(ta.value, tb.value))


def record(f, name, X, y, criterion, variant, params):
    tree = fit(X, y, criterion, params, 0)
    if not all(same(tree, fit(X, y, criterion, params, s)) for s in range(1, 10)):
        # equally good attributes somewhere: scikit-learn's random attribute order decides,
        # treelab takes the first in file order, so the trees need not match
        print(f"{name} {criterion} {variant}: skipped (another random_state grows another tree)")
        return
    t = tree.tree_
    f.write(f"case {name} {criterion} {variant}\n")
    f.write(f"shape {t.node_count} {tree.get_n_leaves()} {tree.get_depth()}\n")
    for i in range(t.node_count):
        f.write(f"node {i} {t.feature[i]} {float(t.threshold[i])!r} {t.children_left[i]} "
                f"{t.children_right[i]} {float(t.value[i][0][0])!r}\n")
    f.write("predictions " + " ".join(repr(float(v)) for v in tree.predict(X)) + "\n")
    print(f"{name} {criterion} {variant}: {t.node_count} nodes, depth {tree.get_depth()}")


def main():
    ties_dataset("tests/fixtures/regression_ties.csv")
    sets = [("engagement", *load_csv("experiments/datasets/engagement-regression.csv")),
            ("two_feature", *load_csv("experiments/datasets/two-feature-boundary.csv")),
            ("ties", *load_csv("tests/fixtures/regression_ties.csv")),
            ("diabetes_age", *load_diabetes_age()),
            ("diabetes_age_plas", *load_diabetes_age(["plas"])),
            ("diabetes_age_mass", *load_diabetes_age(["mass"]))]
    ties_x0 = sets[2][1][:, :1], sets[2][2]
    sets.insert(3, ("ties_x0", *ties_x0))
    with open("tests/fixtures/sklearn_regression.txt", "w") as f:
        f.write(f"# sklearn {sklearn.__version__} DecisionTreeRegressor(random_state=0, ...) "
                f"(scripts/peers/sklearn_regression.py)\n")
        for name, X, y in sets:
            for criterion in CRITERIA:
                for variant, params in VARIANTS:
                    record(f, name, X, y, criterion, variant, params)
            # scikit-learn compares FriedmanMSE's improvement w_l w_r (m_l - m_r)^2 / W,
            # not weighted by W / W_root, with min_impurity_decrease: 0.05 * n here is
            # treelab's 0.05
            record(f, name, X, y, "friedman_mse", "min_impurity_decrease=0.05",
                   {"min_impurity_decrease": 0.05 * len(y)})


if __name__ == "__main__":
    main()
