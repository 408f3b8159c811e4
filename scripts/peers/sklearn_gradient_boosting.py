#!/usr/bin/python3
"""Record scikit-learn GradientBoostingClassifier/Regressor predictions that treelab's
gradient_boosting is tested against exactly (tests/test_gradient_boosting.c).

Run from the repository root with the Debian python (scikit-learn 1.2.1):
    /usr/bin/python3 scripts/peers/sklearn_gradient_boosting.py
It writes tests/fixtures/sklearn_gradient_boosting.txt: per case a block

    case NAME FILE TARGET LOSS N_ESTIMATORS LEARNING_RATE MAX_DEPTH [KEY=VALUE ...]
    init V ...            the initial raw prediction (one per tree of a stage)
    importances V ...     feature_importances_ (when random_state 1..4 give the same)
    row I V ...           predict_proba (classes) or predict (values) of training row I
    label I C             predict of row I as the class's index in the file's declaration

for every row. subsample = 1 and max_features = None: the fit is deterministic except that
scikit-learn's trees try the attributes in an order drawn from random_state and keep the first
of equally good splits (treelab keeps the first in file order). A case is recorded only when
random_state 1..4 predict within 1e-12 of random_state 0 (equally good cuts on different
attributes of the same rows give the same partition, whose sums then differ in the last bits
only), and the script says which were left out and by how much they moved.
scikit-learn reads X as float32: the C test rounds the attributes to float32 before fitting.
Numbers are printed with repr (round-trip exact).
"""
import numpy as np
import sklearn
from scipy.io import arff
from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor

DATA = "experiments/datasets/"

# name, file, target (None: the last column), loss, parameters
CASES = [
    ("diabetes_binary", "diabetes.arff", None, "log_loss", {"n_estimators": 60}),
    ("ionosphere_binary", "ionosphere.arff", None, "log_loss",
     {"n_estimators": 40, "learning_rate": 0.2}),
    ("breast_cancer_binary", "breast_cancer.arff", None, "log_loss",
     {"n_estimators": 30, "max_depth": 2}),
    ("iris_multinomial", "iris.arff", None, "log_loss", {"n_estimators": 40}),
    ("wine_multinomial", "wine.arff", None, "log_loss", {"n_estimators": 30}),
    ("glass_multinomial", "glass.arff", None, "log_loss", {"n_estimators": 20}),
    ("diabetes_age_squared", "diabetes.arff", "age", "squared_error", {"n_estimators": 50}),
    ("diabetes_age_absolute", "diabetes.arff", "age", "absolute_error", {"n_estimators": 40}),
    ("diabetes_age_huber", "diabetes.arff", "age", "huber", {"n_estimators": 40}),
    ("diabetes_mass_huber", "diabetes.arff", "mass", "huber",
     {"n_estimators": 30, "alpha": 0.8, "max_depth": 4}),
    ("wine_alcohol_squared", "wine.arff", "alcohol", "squared_error",
     {"n_estimators": 40, "learning_rate": 0.3}),
    ("engagement_squared", "engagement-regression.csv", None, "squared_error",
     {"n_estimators": 10, "max_depth": 2}),
    ("wine_multinomial_depth2", "wine.arff", None, "log_loss",
     {"n_estimators": 20, "max_depth": 2}),
    ("glass_multinomial_depth2", "glass.arff", None, "log_loss",
     {"n_estimators": 10, "max_depth": 2}),
    ("ionosphere_binary_depth2", "ionosphere.arff", None, "log_loss",
     {"n_estimators": 20, "max_depth": 2}),
    ("two_feature_binary", "two-feature-boundary.arff", None, "log_loss", {"n_estimators": 30}),
    ("diabetes_mass_absolute", "diabetes.arff", "mass", "absolute_error", {"n_estimators": 30}),
    ("wine_alcohol_absolute", "wine.arff", "alcohol", "absolute_error",
     {"n_estimators": 30, "max_depth": 2}),
    ("wine_alcohol_huber", "wine.arff", "alcohol", "huber", {"n_estimators": 30}),
    ("diabetes_plas_absolute", "diabetes.arff", "plas", "absolute_error",
     {"n_estimators": 20, "max_depth": 2}),
    ("wine_multinomial_stumps", "wine.arff", None, "log_loss",
     {"n_estimators": 20, "max_depth": 1}),
    ("segment_multinomial_stumps", "segment-challenge.arff", None, "log_loss",
     {"n_estimators": 10, "max_depth": 1}),
]


def load(path, target):
    """X (attributes in file order, the target and any nominal class left out when the
    target is numeric, as treelab's tests load it), y, and the class names in declared
    order (None for a numeric target)."""
    if path.endswith(".csv"):
        data = np.loadtxt(DATA + path, delimiter=",", skiprows=1)
        return data[:, :-1], data[:, -1], None
    data, meta = arff.loadarff(DATA + path)
    names = meta.names()
    target = target or names[-1]
    kind, levels = meta[target]
    attrs = [a for a in names if a != target and meta[a][0] == "numeric"]
    X = np.column_stack([data[a].astype(np.float64) for a in attrs])
    if kind == "nominal":
        labels = [v.decode() for v in data[target]]
        return X, np.array([levels.index(v) for v in labels]), levels
    return X, data[target].astype(np.float64), None


def fit(X, y, classes, loss, params, seed):
    est = GradientBoostingClassifier if classes else GradientBoostingRegressor
    return est(loss=loss, random_state=seed, **params).fit(X, y)


def outputs(m, X, classes):
    return m.predict_proba(X) if classes else m.predict(X)


def main():
    with open("tests/fixtures/sklearn_gradient_boosting.txt", "w") as f:
        f.write(f"# sklearn {sklearn.__version__} GradientBoosting (subsample=1, "
                "max_features=None), predictions on the training rows "
                "(scripts/peers/sklearn_gradient_boosting.py)\n")
        for name, path, target, loss, params in CASES:
            X, y, classes = load(path, target)
            m = fit(X, y, classes, loss, params, 0)
            out = outputs(m, X, classes)
            gaps = [np.max(np.abs(out - outputs(fit(X, y, classes, loss, params, s), X, classes)))
                    for s in range(1, 5)]
            if max(gaps) > 1e-12:
                print(f"{name}: left out: random_state 1..4 move the predictions by up to "
                      f"{max(gaps):.3g} (equally good attributes somewhere)")
                continue
            full = {"learning_rate": 0.1, "max_depth": 3, **params}
            extra = " ".join(f"{k}={v}" for k, v in params.items()
                             if k not in ("n_estimators", "learning_rate", "max_depth"))
            f.write(f"case {name} {path} {target or '-'} {loss} {full['n_estimators']} "
                    f"{full['learning_rate']!r} {full['max_depth']} {extra}".rstrip() + "\n")
            init = m._raw_predict_init(X[:1])[0]
            f.write("init " + " ".join(repr(float(v)) for v in init) + "\n")
            # equally good cuts on different attributes of the same rows predict alike but
            # credit different attributes: importances only where random_state 1..4 agree
            imp = m.feature_importances_
            moved = max(np.max(np.abs(imp - fit(X, y, classes, loss, params, s)
                                      .feature_importances_)) for s in range(1, 5))
            if moved <= 1e-12:
                f.write("importances " + " ".join(repr(float(v)) for v in imp) + "\n")
            else:
                f.write(f"# importances left out: random_state 1..4 move them by up to "
                        f"{moved:.3g}\n")
            out = np.atleast_2d(out.T).T
            for i, row in enumerate(out):
                f.write(f"row {i} " + " ".join(repr(float(v)) for v in row) + "\n")
            if classes:
                for i, c in enumerate(m.predict(X)):
                    f.write(f"label {i} {int(c)}\n")
            print(f"{name}: recorded ({len(y)} rows; random_state 1..4 within {max(gaps):.3g} "
                  f"of 0; importances {'recorded' if moved <= 1e-12 else 'left out'})")


if __name__ == "__main__":
    main()
