"""Figures drawn by treelab's own gnuplot plotting (the CLI's), from Python data."""
import ctypes
import os

import numpy as np

from . import _lib
from ._lib import exp_lib, safe_call

_dp = ctypes.POINTER(ctypes.c_double)
exp_lib.tl_report_pruning_plot.restype = ctypes.c_int
exp_lib.tl_report_pruning_plot.argtypes = [ctypes.POINTER(_lib.PruneTrace), ctypes.c_int,
                                           ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                           ctypes.POINTER(_lib.Err)]
exp_lib.tl_report_risk_label.restype = None
exp_lib.tl_report_risk_label.argtypes = [ctypes.POINTER(_lib.PruneTrace), ctypes.c_int,
                                         ctypes.c_char_p, ctypes.c_size_t]


def plot_pruning(trace, path, title=None):
    """The pruning curve of a pruning trace (an estimator's ``pruning_trace_``, maybe
    filtered or edited): its parameter and leaves against the training risk, and the CV or
    validation error with its one-SE band when recorded, as `treelab path --plot` draws it.
    Writes PATH.png and PATH.svg with gnuplot (without gnuplot, only the data PATH.dat and the
    script PATH.gp) and returns the PNG's path."""
    cols = [np.ascontiguousarray(trace[c], dtype=np.float64)
            for c in (trace.columns[0], "leaves", "risk", "error", "se")]
    n = len(trace)
    chosen = np.flatnonzero(np.asarray(trace["chosen"])) if "chosen" in trace else []
    err = np.asarray(trace["error"], dtype=np.float64)
    attrs = trace.attrs

    def text(key, default=None):
        v = attrs.get(key, default)
        return v.encode() if v else None
    tr = _lib.PruneTrace(text("pruner", "pruner"), str(trace.columns[0]).encode(),
                         text("error_name"), text("risk_name"), n, n,
                         *[c.ctypes.data_as(_dp) for c in cols],
                         chosen[0] if len(chosen) else ctypes.c_size_t(-1).value,
                         float("nan"),
                         int(np.nanargmin(err)) if np.isfinite(err).any()
                         else ctypes.c_size_t(-1).value)
    regression = int(bool(attrs.get("regression", False)))
    label = ctypes.create_string_buffer(256)
    exp_lib.tl_report_risk_label(ctypes.byref(tr), regression, label, 256)
    stem = os.path.splitext(os.fspath(path))[0]
    safe_call(exp_lib.tl_report_pruning_plot, ctypes.byref(tr), regression, label.value,
              title.encode() if title else None, stem.encode())
    return stem + ".png"
