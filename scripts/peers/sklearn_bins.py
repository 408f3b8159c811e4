#!/usr/bin/python3
"""Record scikit-learn's histogram bin boundaries that treelab's histogram splitter is tested against.

Run from the repository root with the Debian python: /usr/bin/python3 scripts/peers/sklearn_bins.py
For diabetes and segment-challenge (bundled ARFF files, numeric attributes only) and max_bins
255 (the default of both) and 16, it writes tests/fixtures/sklearn_bins.txt: per attribute the
thresholds of scikit-learn's _BinMapper(n_bins=max_bins + 1, subsample=None) (bin_thresholds_,
repr, exact), with repeated thresholds (equal quantiles: empty bins) written once, as treelab
keeps them. A line: dataset max_bins attribute_index mode n thresholds..., where mode says
whether the attribute has at most max_bins distinct values (distinct: midpoints of adjacent
values) or more (quantile: numpy's "midpoint" percentiles).
"""
import os
import sys

import numpy as np
import sklearn
from sklearn.ensemble._hist_gradient_boosting.binning import _BinMapper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sklearn_gnb import load  # noqa: E402  (the same ARFF reader)

CASES = [("diabetes", 255), ("diabetes", 16), ("segment-challenge", 255), ("segment-challenge", 16)]


def main():
    out = "tests/fixtures/sklearn_bins.txt"
    with open(out, "w") as f:
        f.write(f"# sklearn {sklearn.__version__} _BinMapper(n_bins=max_bins + 1, subsample=None)"
                f" bin_thresholds_, numpy {np.__version__} (scripts/peers/sklearn_bins.py)\n")
        for name, max_bins in CASES:
            X, _, _ = load(name)
            mapper = _BinMapper(n_bins=max_bins + 1, subsample=None).fit(X)
            for j, thr in enumerate(mapper.bin_thresholds_):
                mode = "distinct" if len(np.unique(X[:, j])) <= max_bins else "quantile"
                kept = [t for i, t in enumerate(thr) if i == 0 or t != thr[i - 1]]
                f.write(f"{name} {max_bins} {j} {mode} {len(kept)} "
                        + " ".join(repr(float(t)) for t in kept) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
