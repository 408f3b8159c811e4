"""Statistical comparisons of learners on the user's own scores, through treelab's C
statistics (Demsar 2006): Friedman, Nemenyi, Wilcoxon, Holm and Bonferroni-Dunn."""
import ctypes

import numpy as np

from . import _lib
from ._lib import exp_lib, safe_call

_dp = ctypes.POINTER(ctypes.c_double)


def _matrix(scores):
    """(values as a C-ordered float64 matrix, dataset labels, model labels) from a DataFrame
    (rows: datasets, columns: models) or a 2-d array."""
    try:
        import pandas as pd
        if isinstance(scores, pd.DataFrame):
            return (np.ascontiguousarray(scores.to_numpy(dtype=np.float64)),
                    list(scores.index), list(scores.columns))
    except ImportError:  # pragma: no cover
        pass
    a = np.ascontiguousarray(scores, dtype=np.float64)
    if a.ndim != 2:
        raise ValueError("scores must be a datasets x models table")
    return a, list(range(a.shape[0])), list(range(a.shape[1]))


def friedman(scores):
    """Friedman's test over a datasets x models table of scores (larger is better; ties get
    average ranks): dict(chi2, p_chi2, ff, p_ff, ranks) with Iman and Davenport's F and the
    average ranks (1 = best) as a Series when scores is a DataFrame."""
    a, _, models = _matrix(scores)
    ranks = np.empty(a.shape[1])
    out = _lib.Friedman()
    safe_call(exp_lib.tl_friedman_test, a.ctypes.data_as(_dp), a.shape[0], a.shape[1],
              ranks.ctypes.data_as(_dp), ctypes.byref(out))
    return {"chi2": out.chi2, "p_chi2": out.p_chi2, "ff": out.ff, "p_ff": out.p_ff,
            "ranks": _series(ranks, models)}


def _series(values, labels):
    try:
        import pandas as pd
        return pd.Series(values, index=labels)
    except ImportError:  # pragma: no cover
        return values


def nemenyi_cd(n_models, n_datasets, alpha=0.05):
    """Nemenyi's critical difference of average ranks (Demsar's table; alpha 0.05 or 0.10)."""
    cd = ctypes.c_double()
    safe_call(exp_lib.tl_nemenyi_cd, n_models, n_datasets, alpha, ctypes.byref(cd))
    return cd.value


def nemenyi(scores, alpha=0.05):
    """Average ranks, Nemenyi's critical difference and the pairs of models whose ranks differ
    by more (a DataFrame of booleans)."""
    import pandas as pd
    a, _, models = _matrix(scores)
    ranks = friedman(scores)["ranks"]
    cd = nemenyi_cd(a.shape[1], a.shape[0], alpha)
    r = np.asarray(ranks)
    differ = pd.DataFrame(np.abs(r[:, None] - r[None, :]) > cd, index=models, columns=models)
    return {"ranks": ranks, "cd": cd, "differ": differ}


def wilcoxon(a, b, zero_method="wilcox"):
    """Wilcoxon's signed-rank test of paired scores, two-sided (scipy.stats.wilcoxon's
    defaults; zero_method "wilcox" or "zsplit"): dict(statistic, p, z, r_plus, r_minus, n,
    exact)."""
    x = np.ascontiguousarray(a, dtype=np.float64)
    y = np.ascontiguousarray(b, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("wilcoxon: a and b must be 1-d and of one length")
    zeros = {"wilcox": 0, "zsplit": 1}.get(zero_method)
    if zeros is None:
        raise ValueError("zero_method must be wilcox or zsplit")
    out = _lib.Wilcoxon()
    safe_call(exp_lib.tl_wilcoxon_test, x.ctypes.data_as(_dp), y.ctypes.data_as(_dp), len(x),
              zeros, ctypes.byref(out))
    return {"statistic": out.statistic, "p": out.p, "z": out.z, "r_plus": out.r_plus,
            "r_minus": out.r_minus, "n": out.n, "exact": bool(out.exact)}


def holm(scores, control, alpha=0.05):
    """Each model against a control (a column name or index) by average ranks (Demsar 2006,
    sec. 3.2.2): a DataFrame of z, p and the verdicts of Holm's step-down procedure and of
    Bonferroni-Dunn's test, one row a model."""
    import pandas as pd
    a, _, models = _matrix(scores)
    c = models.index(control) if control in models else int(control)
    ranks = np.ascontiguousarray(friedman(scores)["ranks"], dtype=np.float64)
    out = (_lib.ControlTest * len(models))()
    safe_call(exp_lib.tl_control_tests, ranks.ctypes.data_as(_dp), len(models), a.shape[0], c,
              alpha, out)
    return pd.DataFrame({"rank": ranks, "z": [o.z for o in out], "p": [o.p for o in out],
                         "holm": [bool(o.holm) for o in out],
                         "bonferroni_dunn": [bool(o.bonferroni_dunn) for o in out]},
                        index=models)
