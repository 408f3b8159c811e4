#!/usr/bin/python3
"""Record scikit-learn's 10-fold CV accuracy of RandomForestClassifier, ExtraTreesClassifier
and AdaBoostClassifier (SAMME.R over stumps) on fixed folds, for the statistical test of
treelab's random_forest, extra_trees and adaboost (tests/test_ensembles.c).

Run from the repository root with the Debian python (scikit-learn 1.2.1):
    /usr/bin/python3 scripts/peers/sklearn_ensemble_cv.py
It writes tests/fixtures/ensemble_cv/DATASET.folds (one fold id a line, a line per data row:
StratifiedKFold(10, shuffle=True, random_state=0)), which treelab reads as its fold file, and
tests/fixtures/ensemble_cv/sklearn_cv.txt, a line per dataset and learner:

    DATASET LEARNER MEAN SD  A1 A2 ...   (the CV accuracy for random_state 0..SEEDS-1)

50 trees for the forests (their other parameters scikit-learn's defaults: max_features sqrt,
bootstrap for the random forest only), 50 rounds of SAMME.R for AdaBoost.
"""
import numpy as np
import sklearn
from sklearn.ensemble import AdaBoostClassifier, ExtraTreesClassifier, RandomForestClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_gradient_boosting import load

DATASETS = ["iris.arff", "wine.arff", "diabetes.arff", "ionosphere.arff"]
SEEDS = 5
LEARNERS = {
    "random_forest": lambda s: RandomForestClassifier(n_estimators=50, random_state=s),
    "extra_trees": lambda s: ExtraTreesClassifier(n_estimators=50, random_state=s),
    "adaboost": lambda s: AdaBoostClassifier(DecisionTreeClassifier(max_depth=1),
                                             n_estimators=50, random_state=s),
}


def main():
    out = "tests/fixtures/ensemble_cv/"
    with open(out + "sklearn_cv.txt", "w") as f:
        f.write(f"# sklearn {sklearn.__version__}: 10-fold CV accuracy on the folds of "
                "DATASET.folds, random_state 0..4 (scripts/peers/sklearn_ensemble_cv.py)\n")
        for path in DATASETS:
            X, y, _ = load(path, None)
            name = path.split(".")[0]
            fold = np.zeros(len(y), dtype=int)
            for k, (_, te) in enumerate(StratifiedKFold(10, shuffle=True,
                                                        random_state=0).split(X, y)):
                fold[te] = k
            np.savetxt(out + name + ".folds", fold, fmt="%d")
            for learner, make in LEARNERS.items():
                accs = []
                for s in range(SEEDS):
                    right = 0
                    for k in range(10):
                        m = make(s).fit(X[fold != k], y[fold != k])
                        right += np.sum(m.predict(X[fold == k]) == y[fold == k])
                    accs.append(right / len(y))
                f.write(f"{name} {learner} {np.mean(accs)!r} {np.std(accs)!r} "
                        + " ".join(repr(a) for a in accs) + "\n")
                print(name, learner, f"{np.mean(accs):.4f} (sd {np.std(accs):.4f})")


if __name__ == "__main__":
    main()
