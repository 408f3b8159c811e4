#!/usr/bin/python3
"""Record scikit-learn's staged predictions on new rows (staged_predict_proba, staged_predict)
that treelab's staged ensembles (tl_model_truncate, a curve over n_estimators from one fit)
are tested against exactly (tests/test_staged.c).

Run from the repository root with the Debian python (scikit-learn 1.2.1):
    /usr/bin/python3 scripts/peers/sklearn_staged.py
It writes tests/fixtures/sklearn_staged.txt: per case a block

    case NAME FILE TARGET ALGO KEY=VALUE ...   treelab's learner and parameters
    stage S                                    the next rows hold the first S stages' output
    row I V ...                                predict_proba (classes) or predict (values)

with the stages in decreasing order (every stage up to 10, then every fifth and the last;
the first 80 new rows). The models are fitted on the rows whose index is not a
multiple of 3 and predict the others (new rows). Gradient boosting (subsample = 1,
max_features = None) and AdaBoost's SAMME / SAMME.R are deterministic except for the order in
which scikit-learn's trees try the attributes (drawn from random_state; the first of equally
good splits is kept, treelab keeps the first in file order): a case is recorded only when
random_state 1..4 give every stage within 1e-12 of random_state 0, and the script says which
were left out. The C test rounds the attributes to float32, as scikit-learn reads them.
"""
import numpy as np
import sklearn
from sklearn.ensemble import (AdaBoostClassifier, GradientBoostingClassifier,
                              GradientBoostingRegressor)
from sklearn.tree import DecisionTreeClassifier

from sklearn_gradient_boosting import load

# name, file, target (None: the last column), learner, parameters (scikit-learn's names)
CASES = [
    ("iris_multinomial", "iris.arff", None, "gb", {"loss": "log_loss", "n_estimators": 40}),
    ("two_feature_binary", "two-feature-boundary.arff", None, "gb",
     {"loss": "log_loss", "n_estimators": 30}),
    ("diabetes_binary_depth2", "diabetes.arff", None, "gb",
     {"loss": "log_loss", "n_estimators": 30, "max_depth": 2}),
    ("wine_multinomial_depth2", "wine.arff", None, "gb",
     {"loss": "log_loss", "n_estimators": 20, "max_depth": 2}),
    ("diabetes_age_squared", "diabetes.arff", "age", "gb",
     {"loss": "squared_error", "n_estimators": 40}),
    ("wine_alcohol_huber", "wine.arff", "alcohol", "gb", {"loss": "huber", "n_estimators": 30}),
    ("wine_alcohol_absolute", "wine.arff", "alcohol", "gb",
     {"loss": "absolute_error", "n_estimators": 30, "max_depth": 2}),
    ("wine_multinomial_stumps", "wine.arff", None, "gb",
     {"loss": "log_loss", "n_estimators": 20, "max_depth": 1}),
    ("segment_multinomial_stumps", "segment-challenge.arff", None, "gb",
     {"loss": "log_loss", "n_estimators": 10, "max_depth": 1}),
    ("iris_multinomial_depth2", "iris.arff", None, "gb",
     {"loss": "log_loss", "n_estimators": 30, "max_depth": 2}),
    ("diabetes_mass_huber", "diabetes.arff", "mass", "gb",
     {"loss": "huber", "n_estimators": 30, "alpha": 0.8, "max_depth": 4}),
    ("diabetes_plas_absolute", "diabetes.arff", "plas", "gb",
     {"loss": "absolute_error", "n_estimators": 20, "max_depth": 2}),
    ("wine_alcohol_squared", "wine.arff", "alcohol", "gb",
     {"loss": "squared_error", "n_estimators": 40, "learning_rate": 0.3}),
    ("engagement_squared", "engagement-regression.csv", None, "gb",
     {"loss": "squared_error", "n_estimators": 10, "max_depth": 2}),
    ("diabetes_mass_squared_stumps", "diabetes.arff", "mass", "gb",
     {"loss": "squared_error", "n_estimators": 30, "max_depth": 1}),
    ("iris_samme_r", "iris.arff", None, "ada", {"algorithm": "SAMME.R", "n_estimators": 20}),
    ("diabetes_samme", "diabetes.arff", None, "ada",
     {"algorithm": "SAMME", "n_estimators": 30, "learning_rate": 0.5}),
    ("wine_samme", "wine.arff", None, "ada", {"algorithm": "SAMME", "n_estimators": 25}),
]


def fit(X, y, classes, kind, params, seed):
    if kind == "ada":
        return AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), random_state=seed,
                                  **params).fit(X, y)
    est = GradientBoostingClassifier if classes else GradientBoostingRegressor
    return est(random_state=seed, **params).fit(X, y)


def stages(m, X, classes):
    staged = m.staged_predict_proba(X) if classes else m.staged_predict(X)
    return [np.atleast_2d(np.asarray(s).T).T for s in staged]


def treelab_params(kind, params):
    if kind == "ada":
        return "adaboost " + " ".join(f"{k}={v}" for k, v in params.items())
    return "gradient_boosting " + " ".join(f"{k}={v}" for k, v in params.items())


def main():
    with open("tests/fixtures/sklearn_staged.txt", "w") as f:
        f.write(f"# sklearn {sklearn.__version__} staged predictions of GradientBoosting "
                "(subsample=1, max_features=None) and AdaBoostClassifier (stumps): fitted on "
                "the rows i % 3 != 0, predicting rows i % 3 == 0 "
                "(scripts/peers/sklearn_staged.py)\n")
        for name, path, target, kind, params in CASES:
            X, y, classes = load(path, target)
            train = np.arange(len(y)) % 3 != 0
            test = np.flatnonzero(~train)
            out = stages(fit(X[train], y[train], classes, kind, params, 0), X[test], classes)
            gap = 0.0
            for s in range(1, 5):
                other = stages(fit(X[train], y[train], classes, kind, params, s), X[test],
                               classes)
                gap = max(gap, max(np.max(np.abs(a - b)) for a, b in zip(out, other)))
            if gap > 1e-12:
                print(f"{name}: left out: random_state 1..4 move a stage by up to {gap:.3g}")
                continue
            f.write(f"case {name} {path} {target or '-'} {treelab_params(kind, params)}\n")
            # every stage up to 10, then every fifth and the last; at most 80 rows
            keep = [s for s in range(1, len(out) + 1) if s <= 10 or s % 5 == 0 or s == len(out)]
            for s in reversed(keep):
                f.write(f"stage {s}\n")
                for i, row in list(zip(test, out[s - 1]))[:80]:
                    f.write(f"row {i} " + " ".join(repr(float(v)) for v in row) + "\n")
            print(f"{name}: recorded ({len(out)} stages on {len(test)} new rows; random_state "
                  f"1..4 within {gap:.3g} of 0)")


if __name__ == "__main__":
    main()
