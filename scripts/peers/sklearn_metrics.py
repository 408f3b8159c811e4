#!/usr/bin/python3
"""Record scikit-learn metric values on fixed pseudo-random predictions.

Run from the repository root: /usr/bin/python3 scripts/peers/sklearn_metrics.py
Writes tests/fixtures/sklearn_metrics.txt, a whitespace-separated list of records:
  class K N            starts a classification case
  truth / pred         N class codes each
  proba                N*K probabilities, row-major
  <metric> value       accuracy balanced_accuracy kappa f1_macro f1_weighted log_loss
  precision / recall / f1   K per-class values (labels 0..K-1, zero_division=0)
  reg N                starts a regression case; truth, pred, then mse rmse mae r2
Values are printed with repr (they read back exactly with strtod).
"""
import numpy as np
import sklearn
from sklearn import metrics

OUT = "tests/fixtures/sklearn_metrics.txt"


def vals(xs):
    return " ".join(repr(float(x)) if isinstance(x, (float, np.floating)) else str(int(x))
                    for x in xs)


def class_case(f, truth, pred, proba, k):
    n = len(truth)
    f.write(f"class {k} {n}\n")
    f.write(f"truth {vals(truth)}\npred {vals(pred)}\nproba {vals(proba.ravel())}\n")
    labels = list(range(k))
    f.write(f"accuracy {metrics.accuracy_score(truth, pred)!r}\n")
    f.write(f"balanced_accuracy {metrics.balanced_accuracy_score(truth, pred)!r}\n")
    f.write(f"kappa {metrics.cohen_kappa_score(truth, pred)!r}\n")
    f.write(f"f1_macro {metrics.f1_score(truth, pred, average='macro', zero_division=0)!r}\n")
    f.write(f"f1_weighted {metrics.f1_score(truth, pred, average='weighted', zero_division=0)!r}\n")
    f.write(f"log_loss {metrics.log_loss(truth, proba, eps=1e-15, labels=labels)!r}\n")
    p, r, f1, _ = metrics.precision_recall_fscore_support(truth, pred, labels=labels,
                                                          zero_division=0)
    f.write(f"precision {vals(p)}\nrecall {vals(r)}\nf1 {vals(f1)}\n")


def main():
    rng = np.random.default_rng(20240505)
    with open(OUT, "w") as f:
        f.write(f"# sklearn {sklearn.__version__} metrics, scripts/peers/sklearn_metrics.py\n")
        # 3 classes, predictions mostly right
        n, k = 60, 3
        truth = rng.integers(0, k, n)
        pred = np.where(rng.random(n) < 0.7, truth, rng.integers(0, k, n))
        proba = rng.dirichlet(np.ones(k), n)
        proba[0] = [0.0, 0.0, 0.0]
        proba[0, (truth[0] + 1) % k] = 1.0  # the true class gets 0: clipped to 1e-15
        class_case(f, truth, pred, proba, k)
        # 4 classes: class 3 predicted but never true, class 2 neither true nor predicted
        n, k = 40, 4
        truth = rng.choice([0, 1], n)
        pred = rng.choice([0, 1, 3], n)
        proba = rng.dirichlet(np.ones(k), n)
        class_case(f, truth, pred, proba, k)
        # regression
        n = 30
        truth = rng.normal(5, 2, n)
        pred = truth + rng.normal(0, 1, n)
        f.write(f"reg {n}\ntruth {vals(truth)}\npred {vals(pred)}\n")
        mse = metrics.mean_squared_error(truth, pred)
        f.write(f"mse {mse!r}\nrmse {float(np.sqrt(mse))!r}\n")
        f.write(f"mae {metrics.mean_absolute_error(truth, pred)!r}\n")
        f.write(f"r2 {metrics.r2_score(truth, pred)!r}\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
