"""CARTClassifier with scikit-learn's defaults grows scikit-learn's trees: tree_ arrays equal to
DecisionTreeClassifier's (Debian's scikit-learn 1.2.1, a declared test dependency) on its
bundled numeric datasets, the cost-complexity path to 1e-12, the feature importances."""
import numpy as np
import pytest
from sklearn import datasets
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import treelab

# the datasets whose trees the C tests compare with scikit-learn's (tests/fixtures/sklearn_cart_*)
LOADERS = {"iris": datasets.load_iris, "wine": datasets.load_wine,
           "breast_cancer": datasets.load_breast_cancer}


def decrease(tree, node, X, y, rows, regression=False):
    """The weighted impurity decrease (Gini, or squared error) of a node's split on its rows,
    to confirm a tie."""
    def g(mask):
        w = mask.sum()
        if regression:
            return 0.0 if w == 0 else float(np.sum((y[mask] - y[mask].mean()) ** 2))
        return 0.0 if w == 0 else w * (1 - sum((np.sum(y[mask] == c) / w) ** 2
                                               for c in np.unique(y)))
    left = rows & (X[:, tree.feature[node]] <= tree.threshold[node])
    return g(rows) - g(left) - g(rows & ~left)


def same_tree(t, r, X, y, regression=False):
    """Walks both trees together from the root: at every node the same training rows, the same
    counts and children, and the same split, except where two splits tie (the same Gini
    decrease): scikit-learn tries the attributes in a random order at each node, treelab in
    the file's, so a tie may name another split; below it the trees may differ. Returns
    (nodes compared, ties)."""
    compared, ties = 0, 0
    stack = [(0, 0, np.ones(len(X), dtype=bool))]
    while stack:
        i, j, rows = stack.pop()
        compared += 1
        assert t.weighted_n_node_samples[i] == r.weighted_n_node_samples[j] == rows.sum()
        if regression:
            assert np.allclose(t.value[i], r.value[j], rtol=1e-12, atol=0)
        else:
            assert np.array_equal(t.value[i], r.value[j])
        assert (t.children_left[i] < 0) == (r.children_left[j] < 0)
        if t.children_left[i] < 0:
            continue
        go = X[:, t.feature[i]] <= t.threshold[i]
        if (t.feature[i], t.threshold[i]) != (r.feature[j], r.threshold[j]):
            assert abs(decrease(t, i, X, y, rows, regression) -
                       decrease(r, j, X, y, rows, regression)) < 1e-9 * max(1, rows.sum())
            ties += 1
            if not np.array_equal(rows & go, rows & (X[:, r.feature[j]] <= r.threshold[j])):
                continue  # another partition: the subtrees may differ
        stack.append((t.children_left[i], r.children_left[j], rows & go))
        stack.append((t.children_right[i], r.children_right[j], rows & ~go))
    return compared, ties


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_cart_tree_arrays_equal_sklearn(name):
    X, y = LOADERS[name](return_X_y=True)
    ours = treelab.CARTClassifier().fit(X, y)
    ref = DecisionTreeClassifier(random_state=0).fit(X, y)
    compared, ties = same_tree(ours.tree_, ref.tree_, X, y)
    assert ours.tree_.node_count == ref.tree_.node_count
    assert compared > ours.tree_.node_count // 2
    if ties == 0:
        for a in ("children_left", "children_right", "feature", "threshold",
                  "weighted_n_node_samples", "value"):
            assert np.array_equal(getattr(ours.tree_, a), getattr(ref.tree_, a)), a
    assert ours.get_depth() == ref.get_depth() and ours.get_n_leaves() == ref.get_n_leaves()
    if ties == 0:  # a tie moves importance from one attribute to the other
        assert np.allclose(ours.feature_importances_, ref.feature_importances_, rtol=0,
                           atol=1e-12)
    assert np.array_equal(ours.predict_proba(X), ref.predict_proba(X))
    p, q = ours.cost_complexity_pruning_path(X, y), ref.cost_complexity_pruning_path(X, y)
    assert len(p.ccp_alphas) == len(q.ccp_alphas)
    assert np.allclose(p.ccp_alphas, q.ccp_alphas, rtol=0, atol=1e-12)
    assert np.allclose(p.impurities, q.impurities, rtol=0, atol=1e-12)


def test_cart_regressor_equals_sklearn():
    X, y = datasets.load_diabetes(return_X_y=True)
    X = X[:, :4]
    ours = treelab.CARTRegressor(max_depth=6).fit(X, y)
    ref = DecisionTreeRegressor(max_depth=6, random_state=0).fit(X, y)
    compared, ties = same_tree(ours.tree_, ref.tree_, X, y, regression=True)
    assert compared >= 0.9 * ours.tree_.node_count
    if ties == 0:
        assert np.allclose(ours.feature_importances_, ref.feature_importances_, rtol=0,
                           atol=1e-12)
    assert np.allclose(ours.predict(X), ref.predict(X), rtol=1e-12, atol=0)
