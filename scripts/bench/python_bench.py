#!/usr/bin/python3
"""The Python binding's cost, in one process (scripts/bench/python.sh runs it):

1. CARTClassifier().fit(X, y) against scikit-learn's DecisionTreeClassifier().fit(X, y) on
   scripts/peers/sklearn_fit_bench.py's synthetic data (ROWS x 20, 0/1 class with 10% noise),
   the same float64 array given to both, fits interleaved, medians of REPEATS (target: >= 8x).
2. predict_proba on 10^6 rows against the C prediction alone (tl_model_predict on a dataset
   already wrapped around the same columns): Fortran-ordered X (the columns are used in
   place) and C-ordered X (one transposing copy); target <= 1.2x.
Prints one line per measure: name, median wall seconds each side, ratio; and CPU seconds.
Usage: python_bench.py [FIT_ROWS] [PREDICT_ROWS]   (REPEATS in the environment, default 3)
"""
import ctypes
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))
import treelab  # noqa: E402
from treelab import _data, _lib  # noqa: E402
from treelab._lib import lib, safe_call  # noqa: E402
from sklearn_fit_bench import make as synthetic  # noqa: E402  (scripts/bench/fit.sh's data)


def clock(fn):
    t, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t, time.process_time() - c


def pairs(a, b, repeats):
    ta, tb = [], []
    for _ in range(repeats):
        ta.append(clock(a))
        tb.append(clock(b))
    return np.median(ta, axis=0), np.median(tb, axis=0)


def report(name, a, b):
    print("%-34s %9.3f %9.3f %7.2fx   cpu %9.3f %9.3f %7.2fx"
          % (name, a[0], b[0], a[0] / b[0], a[1], b[1], a[1] / b[1]), flush=True)


def main():
    from sklearn.tree import DecisionTreeClassifier
    fit_rows = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    pred_rows = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    repeats = int(os.environ.get("REPEATS", "3"))
    print("%-34s %9s %9s %8s" % ("measure", "a_s", "b_s", "a/b"))
    X, y = synthetic(fit_rows)
    ours, ref = treelab.CARTClassifier(), DecisionTreeClassifier(random_state=0)
    a, b = pairs(lambda: ref.fit(X, y), lambda: ours.fit(X, y), repeats)
    report("fit %d x 20: sklearn / treelab" % fit_rows, a, b)
    assert ours.get_n_leaves() > 0.9 * ref.get_n_leaves()
    # the binding's share: the same fit from Python against tl_model_fit alone on columns
    # already wrapped
    Xf = np.asfortranarray(X)
    fd = _data.build([Xf[:, j] for j in range(20)], ["numeric"] * 20,
                     ["x%d" % j for j in range(20)], [None] * 20, fit_rows,
                     y.astype(np.int32), ["0", "1"])
    ctx = _lib.FitCtx(1, None, 0)

    def c_fit():
        h = safe_call(lib.tl_model_new_kv, b"cart", None, 0)
        safe_call(lib.tl_model_fit, h, fd.handle, None, 0, ctypes.byref(ctx))
        lib.tl_model_free(h)
    a, b = pairs(lambda: ours.fit(X, y), c_fit, repeats)
    report("fit %d x 20: python / C alone" % fit_rows, a, b)

    Xp, _ = synthetic(pred_rows)
    Xf = np.asfortranarray(Xp)
    m = ours._model_.handle
    d = _data.build([Xf[:, j] for j in range(20)], ["numeric"] * 20,
                    ["x%d" % j for j in range(20)], [None] * 20, pred_rows, None, ["0", "1"])
    out = np.empty((pred_rows, 2))

    def c_alone():
        safe_call(lib.tl_model_predict, m, d.handle, None, 0, out.ctypes.data_as(ctypes.c_void_p))
    p = []
    a, b = pairs(lambda: p.append(ours.predict_proba(Xf)), c_alone, repeats)
    assert np.array_equal(p[-1], out)
    report("predict %d, F order: python / C" % pred_rows, a, b)
    a, b = pairs(lambda: ours.predict_proba(Xp), c_alone, repeats)
    report("predict %d, C order: python / C" % pred_rows, a, b)


if __name__ == "__main__":
    main()
