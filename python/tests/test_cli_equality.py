"""Python and the treelab program give the same bits: predict_proba against `treelab predict
--proba` (every learner, the same data and parameters), cross_val_score against `treelab run`
on the same fold file, treelab.run against the program's own metrics files."""
import filecmp
import os
import subprocess

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import PredefinedSplit, cross_val_score

import treelab
from treelab._lib import cli_path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "experiments", "datasets")

# (estimator, the program's --algo and --set, data file): every learner, nominal and
# numeric attributes, unknown values (vote), regression.
CASES = [
    (treelab.CARTClassifier(), "cart", [], "iris.arff"),
    (treelab.CARTClassifier(prune="cv", folds=5), "cart", ["prune=cv", "folds=5"],
     "diabetes.arff"),
    (treelab.C45Classifier(), "c45", [], "vote.arff"),
    (treelab.C45Classifier(pruner__confidence=0.1), "c45", ["pruner.confidence=0.1"],
     "breast-cancer.arff"),
    (treelab.ID3Classifier(), "id3", [], "weather.nominal.arff"),
    (treelab.TreeClassifier(criterion="hellinger", pruner="pessimistic"), "tree",
     ["criterion=hellinger", "pruner=pessimistic"], "vote.arff"),
    (treelab.TreeClassifier(criterion="entropy", pruner="error_based",
                            pruner_params={"confidence": 0.2}), "tree",
     ["criterion=entropy", "pruner=error_based", "pruner.confidence=0.2"], "credit-g.arff"),
    (treelab.GaussianNB(), "gaussian_nb", [], "wine.arff"),
    (treelab.SoftTreeClassifier(depth=3, epochs=5), "soft_tree", ["depth=3", "epochs=5"],
     "iris.arff"),
    (treelab.TreelabClassifier(algorithm="c45", subtree_raising=False), "c45",
     ["subtree_raising=false"], "labor.arff"),
    (treelab.CTreeClassifier(), "ctree", [], "vote.arff"),
    (treelab.CTreeClassifier(mincriterion=0.99), "ctree", ["mincriterion=0.99"], "iris.arff"),
    (treelab.CTreeRegressor(), "ctree", [], "engagement-regression.csv"),
    (treelab.CARTRegressor(), "cart", [], "engagement-regression.csv"),
    (treelab.TreeRegressor(criterion="mae", max_depth=3), "tree", ["criterion=mae",
                                                                  "max_depth=3"],
     "engagement-regression.csv"),
    (treelab.SoftTreeRegressor(depth=2, epochs=5), "soft_tree", ["depth=2", "epochs=5"],
     "engagement-regression.csv"),
    (treelab.SoftForestClassifier(trees=3, depth=2, epochs=5, gate="smooth_step"),
     "soft_forest", ["trees=3", "depth=2", "epochs=5", "gate=smooth_step"], "wine.arff"),
    (treelab.SoftForestRegressor(trees=3, depth=2, epochs=5), "soft_forest",
     ["trees=3", "depth=2", "epochs=5"], "engagement-regression.csv"),
]


def cli(*args):
    return subprocess.run([cli_path(), *args], check=True, capture_output=True,
                          text=True).stdout


def xy(name):
    df = treelab.load_dataset(os.path.join(DATA, name))
    return df.iloc[:, :-1], df.iloc[:, -1]


@pytest.mark.parametrize("est,algo,sets,data", CASES,
                         ids=["%s-%s" % (c[1], c[3]) for c in CASES])
def test_predict_proba_equals_the_program(tmp_path, est, algo, sets, data):
    path = os.path.join(DATA, data)
    X, y = xy(data)
    model = str(tmp_path / "m.cfg")
    args = ["fit", path, "--algo", algo, "--seed", "1", "-o", model]
    assert sorted(est._settings()) == sorted(sets)
    for s in est._settings():  # in the order Python passes them, for the same model text
        args += ["--set", s]
    cli(*args)
    flag = ["--proba"] if y.dtype.name == "category" else []
    out = pd.read_csv(pd.io.common.StringIO(cli("predict", model, path, *flag)),
                      float_precision="round_trip")
    if flag:
        py = est.fit(X, y).predict_proba(X)
        cols = ["p_%s" % c for c in est.classes_]
        assert np.array_equal(py, out[cols].to_numpy()), "probabilities differ"
    else:
        py = est.fit(X, y.astype(float)).predict(X)
        assert np.array_equal(py, out["predicted"].to_numpy())
    # the model as Python saved it is the program's model, byte for byte (a categorical
    # target keeps the file's class order)
    assert est._model_.text() == open(model, encoding="utf-8").read()


def test_cross_val_score_equals_run_on_a_fold_file(tmp_path):
    X, y = xy("diabetes.arff")
    folds = np.arange(len(y)) * 7 % 5  # any fixed assignment
    (tmp_path / "folds.txt").write_text("".join("%d\n" % f for f in folds))
    (tmp_path / "e.cfg").write_text(
        'name = "f"; seed = 3;\n'
        'datasets = ( { path = "%s"; folds = "%s"; } );\n'
        'models = ( { name = "cart"; algorithm = "cart"; params = { max_depth = 4; }; },\n'
        '           { name = "c45"; algorithm = "c45"; } );\n'
        'protocol = { kind = "folds"; };\n' % (os.path.join(DATA, "diabetes.arff"),
                                              tmp_path / "folds.txt"))
    res = treelab.run(tmp_path / "e.cfg", out=tmp_path / "out", quiet=True)
    for name, est in (("cart", treelab.CARTClassifier(max_depth=4)),
                      ("c45", treelab.C45Classifier())):
        scores = cross_val_score(est, X, y.astype(str), cv=PredefinedSplit(folds))
        cells = res.cells[res.cells.model == name].sort_values("fold")
        assert len(cells) == 5
        # metrics.csv keeps every digit (shortest round trip): equal, not rounded
        assert np.array_equal(scores, cells.accuracy.to_numpy())


def test_run_writes_what_the_program_writes(tmp_path):
    cfg = tmp_path / "e.cfg"
    cfg.write_text('name = "e"; seed = 5;\n'
                   'datasets = ( "%s", "%s" );\n'
                   'models = ( { name = "nb"; algorithm = "gaussian_nb"; },\n'
                   '           { name = "cart"; algorithm = "cart"; } );\n'
                   'protocol = { kind = "cv"; folds = 3; repeats = 2; stratified = true; };\n'
                   'baseline = "nb";\n' % (os.path.join(DATA, "iris.arff"),
                                           os.path.join(DATA, "wine.arff")))
    res = treelab.run(cfg, out=tmp_path / "py", jobs=2, quiet=True)
    cli("run", str(cfg), "--out", str(tmp_path / "cli"), "--quiet")
    for f in ("metrics.csv", "summary.csv", "summary.md"):
        assert filecmp.cmp(tmp_path / "py" / f, tmp_path / "cli" / f, shallow=False), f
    assert len(res.cells) == 2 * 2 * 3 * 2
    assert list(res.tests.vs_baseline[res.tests.model == "nb"]) == ["baseline"] * 2
    assert os.path.exists(res.report_path)
    with pytest.raises(ValueError, match="no such|cannot open|No such"):
        treelab.run(tmp_path / "missing.cfg", out=tmp_path / "x", quiet=True)


def test_arff_weights_reach_the_fit(tmp_path):
    path = os.path.join(ROOT, "tests", "fixtures", "weighted", "labor-weighted.arff")
    df = treelab.load_dataset(path)
    w = df.attrs["sample_weight"]
    assert w is not None and len(set(w)) > 1
    est = treelab.C45Classifier().fit(df.iloc[:, :-1], df.iloc[:, -1], sample_weight=w)
    model = str(tmp_path / "m.cfg")
    cli("fit", path, "--algo", "c45", "--seed", "1", "-o", model)
    out = pd.read_csv(pd.io.common.StringIO(cli("predict", model, path, "--proba")),
                      float_precision="round_trip")
    assert np.array_equal(est.predict_proba(df.iloc[:, :-1]),
                          out[["p_%s" % c for c in est.classes_]].to_numpy())
    assert est._model_.text() == open(model, encoding="utf-8").read()
    assert treelab.load_dataset(os.path.join(DATA, "iris.arff")).attrs["sample_weight"] is None
