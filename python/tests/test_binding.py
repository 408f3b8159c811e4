"""The binding itself: DataFrames (nominal, unknown, names), sample weights, pickling through
the model text, errors with the C library's message, the views of a fitted tree, the
registries and datasets, and the statistics against scipy's recorded values."""
import copy
import logging
import os
import pickle

import numpy as np
import pandas as pd
import pytest

import treelab

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "experiments", "datasets")


def vote():
    df = treelab.load_dataset(os.path.join(DATA, "vote.arff"))
    return df.iloc[:, :-1], df.iloc[:, -1]


def test_load_dataset_keeps_arff_types():
    X, y = vote()
    assert X.shape == (435, 16) and all(X[c].dtype.name == "category" for c in X)
    assert list(X.iloc[:, 0].cat.categories) == ["n", "y"]
    assert X.isna().sum().sum() == 392  # vote's unknown values, as Weka counts them
    iris = treelab.load_dataset(os.path.join(DATA, "iris.arff"))
    assert iris.dtypes.iloc[0] == np.float64 and iris.iloc[:, -1].dtype.name == "category"
    with pytest.raises(OSError, match="nope.arff"):
        treelab.load_dataset(os.path.join(DATA, "nope.arff"))


def test_dataframes_nominal_unknown_and_names():
    X, y = vote()
    m = treelab.C45Classifier().fit(X, y)
    assert list(m.feature_names_in_) == list(X.columns)
    assert m.export_text().startswith("physician-fee-freeze")
    # object columns are nominal too, with their sorted values as levels; an unseen level
    # predicts as an unknown value
    Xo = X.astype(object).where(X.notna(), None)
    p = treelab.C45Classifier().fit(Xo, y).predict_proba(Xo)
    assert np.array_equal(p, m.predict_proba(X))
    Xu = X.copy()
    Xu.iloc[:5] = np.nan
    Xs = X.astype(object)
    Xs.iloc[:5] = "maybe"
    Xs = Xs.where(X.notna() | (np.arange(len(X)) < 5)[:, None], None)
    assert np.array_equal(treelab.C45Classifier().fit(Xo, y).predict_proba(Xs)[:5],
                          m.predict_proba(Xu)[:5])
    with pytest.warns(UserWarning, match="feature names"), \
            pytest.raises(ValueError, match="nominal columns"):
        m.predict(np.zeros((2, 16)))


def test_sample_weight_is_a_row_weight():
    rng = np.random.RandomState(0)
    X = rng.randn(60, 3)
    y = (X[:, 0] + 0.3 * rng.randn(60) > 0).astype(int)
    w = rng.randint(1, 4, 60)
    a = treelab.CARTClassifier().fit(X, y, sample_weight=w)
    b = treelab.CARTClassifier().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    assert a.tree_.weighted_n_node_samples[0] == w.sum()
    with pytest.raises(ValueError, match="weight of row 0 is -1"):
        treelab.CARTClassifier().fit(X, y, sample_weight=-np.ones(60))


def test_pickle_and_copy_keep_the_bits():
    X, y = vote()
    m = treelab.TreeClassifier(criterion="hellinger", pruner="pessimistic").fit(X, y)
    blob = pickle.dumps(m)
    assert b"treelab model" in blob  # the model's own text, not a pointer
    for other in (pickle.loads(blob), copy.deepcopy(m), copy.copy(m)):
        assert np.array_equal(other.predict_proba(X), m.predict_proba(X))
        assert other.export_text() == m.export_text()
    st = treelab.SoftTreeRegressor(depth=2, epochs=3).fit(np.arange(40.0)[:, None],
                                                          np.sin(np.arange(40.0)))
    assert np.array_equal(pickle.loads(pickle.dumps(st)).predict(np.arange(40.0)[:, None]),
                          st.predict(np.arange(40.0)[:, None]))


def test_errors_carry_the_c_message():
    X, y = np.zeros((4, 2)), np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"^c45: pruner error_based: parameter confidence = 7 "
                       r"is out of range \[1e-06, 0.5\]$"):
        treelab.C45Classifier(pruner__confidence=7).fit(X, y)
    with pytest.raises(ValueError, match="unknown algorithm 'nope'; valid algorithms: id3"):
        treelab.TreelabClassifier(algorithm="nope").fit(X, y)
    with pytest.raises(ValueError, match="hellinger|regression"):
        treelab.TreeRegressor(criterion="hellinger").fit(X, [1.0, 2, 3, 4])
    with pytest.raises(ValueError, match="criterion"):
        treelab.TreeClassifier(criterion="nope").fit(X, y)
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_dept'"):
        treelab.CARTClassifier(max_dept=3)


def test_library_logs_through_the_logger(caplog):
    csv = os.path.join(ROOT, "experiments", "datasets", "watermelon-2.0-missing.csv")
    with caplog.at_level(logging.DEBUG, logger="treelab"):
        treelab.load_dataset(csv)
    assert all(r.name == "treelab" for r in caplog.records)


def test_tree_views():
    X, y = vote()
    m = treelab.C45Classifier().fit(X, y)
    t = m.tree_
    assert t.node_count == m.get_n_leaves() + int((t.kind >= 0).sum())
    assert m.get_n_leaves() == t.n_leaves and m.get_depth() == t.max_depth
    assert m.export_graphviz().startswith("digraph")
    imp = m.feature_importances_
    assert imp.shape == (16,) and abs(imp.sum() - 1) < 1e-12 and imp.argmax() == 3
    tr = m.pruning_trace_
    assert list(tr.columns[1:]) == ["leaves", "risk", "error", "se", "chosen"]
    assert tr.chosen.sum() == 1 and tr.leaves.iloc[-1] <= tr.leaves.iloc[0]
    with pytest.raises(AttributeError):
        treelab.GaussianNB().fit(X.fillna("n").astype(str) == "y", y).tree_


def test_generic_estimator_reaches_every_learner_and_slot():
    names = set(treelab.learners())
    assert {"tree", "cart", "c45", "id3", "soft_tree", "gaussian_nb"} <= names
    pl = treelab.plugins()
    assert set(pl.kind) == {"learner", "criterion", "splitter", "pruner", "missing"}
    assert "confidence" in [p["name"] for p in pl[pl.name == "error_based"].params.iloc[0]]
    X, y = vote()
    a = treelab.TreelabClassifier(algorithm="tree", criterion="gain_ratio",
                                  nominal="nominal_multiway", pruner="error_based",
                                  pruner__confidence=0.25).fit(X, y)
    b = treelab.TreeClassifier(criterion="gain_ratio", nominal="nominal_multiway",
                               pruner="error_based", pruner_params={"confidence": 0.25}).fit(X, y)
    assert a.export_text() == b.export_text()
    assert a.get_params()["pruner__confidence"] == 0.25
    from sklearn.base import clone
    assert clone(a).get_params() == a.get_params()


def fixture_lines(name):
    with open(os.path.join(ROOT, "tests", "fixtures", name)) as f:
        return [line.split() for line in f if not line.startswith("#")]


def test_stats_equal_scipy_recorded():
    lines = fixture_lines("scipy_stats.txt")
    done = 0
    for i, w in enumerate(lines):
        if w and w[0] == "friedman":
            n, k = int(w[1]), int(w[2])
            scores = pd.DataFrame(np.array(w[3:3 + n * k], dtype=float).reshape(n, k))
            ranks = np.array(lines[i + 1][1:], dtype=float)
            chi2 = dict(zip(lines[i + 2][::2], map(float, lines[i + 2][1::2])))
            ff = dict(zip(lines[i + 3][::2], map(float, lines[i + 3][1::2])))
            got = treelab.stats.friedman(scores)
            assert np.allclose(got["ranks"], ranks, rtol=1e-12)
            assert abs(got["chi2"] - chi2["chi2"]) < 1e-9 and abs(got["p_ff"] - ff["p_ff"]) < 1e-9
            done += 1
    assert done >= 3
    scores = pd.DataFrame(np.random.RandomState(1).rand(10, 4), columns=list("abcd"))
    h = treelab.stats.holm(scores, control="a")
    assert list(h.index) == list("abcd") and h.p["a"] == 1 and not h.holm["a"]
    nem = treelab.stats.nemenyi(scores)
    assert abs(nem["cd"] - 2.569 * np.sqrt(4 * 5 / 60)) < 1e-3  # Demsar's q for k = 4
    wx = treelab.stats.wilcoxon(scores.a, scores.b)
    assert wx["exact"] and 0 < wx["p"] <= 1
    with pytest.raises(ValueError):
        treelab.stats.wilcoxon([1.0, 2], [1.0, 2])


def test_grid_search_over_a_plugin_parameter():
    from sklearn.model_selection import GridSearchCV
    X, y = vote()
    grid = GridSearchCV(treelab.C45Classifier(),
                        {"pruner__confidence": [0.05, 0.25, 0.5], "min_samples_leaf": [2, 8]},
                        cv=3).fit(X, y)
    assert set(grid.best_params_) == {"pruner__confidence", "min_samples_leaf"}
    best = grid.best_estimator_
    assert best.get_params()["pruner__confidence"] == grid.best_params_["pruner__confidence"]
    assert len(set(grid.cv_results_["mean_test_score"])) > 1  # the parameter reaches C


def test_row_major_blocks_predict_the_same_bits(monkeypatch):
    rng = np.random.RandomState(3)
    X = rng.randn(1000, 5)
    X[rng.rand(1000, 5) < 0.05] = np.nan
    y = (np.nan_to_num(X[:, 0]) > 0).astype(int)
    m = treelab.C45Classifier().fit(X, y)
    whole = m.predict_proba(np.asfortranarray(X))
    monkeypatch.setattr(type(m), "_BLOCK", 77)  # 13 blocks, the last one short
    assert np.array_equal(m.predict_proba(np.ascontiguousarray(X)), whole)
    with pytest.raises(ValueError, match="Input contains infinity: column x2, row 999"):
        X[999, 2] = np.inf
        m.predict(X)


def _c_fields(header, struct):
    """The member names of `typedef struct struct {...}` in include/treelab/<header>."""
    import re
    text = open(os.path.join(ROOT, "include", "treelab", header)).read()
    body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (struct, struct), text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = []
    for decl in body.split(";")[:-1]:
        for part in decl.split(","):
            names.append(re.search(r"(\w+)\s*(\[[^]]*\])?\s*$", part.strip()).group(1))
    return names


@pytest.mark.parametrize("header,struct,cls", [
    ("tl_model.h", "tl_fit_ctx", "FitCtx"), ("tl_model.h", "tl_model_info", "ModelInfo")])
def test_ctypes_structs_match_the_header(header, struct, cls):
    # C reads every field of a struct passed by pointer: a field added in C but not here made
    # fit read a stray pointer (tl_fit_ctx.view_cache) and crash
    from treelab import _lib
    assert [f[0] for f in getattr(_lib, cls)._fields_] == _c_fields(header, struct)
