"""The base every treelab estimator shares: parameters, data to C, fit, predict, pickling, views."""
import ctypes
import keyword
import numbers
import re

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (_check_sample_weight, check_consistent_length,
                                      check_is_fitted, column_or_1d)

from . import _data, _lib
from ._lib import lib, safe_call
from ._model import Tree, _Model
from ._params import SLOTS, _c_value


class TreelabEstimator(BaseEstimator):
    """What every treelab estimator shares: parameters to the C learner, data to a tl_dataset,
    fit, predict, model text for pickling, and the tree's views."""

    _algorithm = None  # the C learner's name (the generic estimators take `algorithm`)
    _names = ()        # the parameters of __init__, from the C table
    _generic = False

    def __init__(self, **kw):
        for name in type(self)._names:
            setattr(self, name, kw.pop(name, None))
        for k, v in kw.items():
            if not (self._generic or "__" in k):
                raise TypeError("%s got an unexpected keyword argument '%s'"
                                % (type(self).__name__, k))
            setattr(self, k, v)

    # ---- parameters ----
    def _extra_names(self):
        return sorted(k for k in vars(self) if k not in self._names and not k.startswith("_")
                      and not k.endswith("_"))

    def get_params(self, deep=True):
        out = super().get_params(deep=False)
        out.update({k: getattr(self, k) for k in self._extra_names()})
        return out

    def set_params(self, **params):
        for k, v in params.items():
            if not (k in self._names or "__" in k or self._generic):
                raise ValueError("Invalid parameter %r for estimator %s. Valid parameters are: "
                                 "%s." % (k, self, sorted(self.get_params())))
            setattr(self, k, v)
        return self

    def _algo(self):
        return self.algorithm if self._generic else self._algorithm

    def _settings(self):
        """The parameters as the C learner's "key=value" settings (None: its default)."""
        kv = []
        for k, v in self.get_params(deep=False).items():
            if v is None or k in ("algorithm", "random_state"):
                continue
            if k.endswith("_params") and k[:-7] in SLOTS:
                kv += ["%s.%s=%s" % (k[:-7], pk, _c_value(pv)) for pk, pv in v.items()]
            else:
                kv.append("%s=%s" % (_c_name(k), _c_value(v)))
        return kv

    def _seed(self):
        rs = self.random_state
        if rs is None:
            return 1  # the treelab program's default --seed
        if isinstance(rs, numbers.Integral):
            return int(rs)
        return int(check_random_state(rs).randint(0, 2**31 - 1))

    # ---- data ----
    def _columns(self, X, y=None, fit=False):
        """(columns, n_rows, y) for the C dataset, checking X as scikit-learn does."""
        if _data.is_frame(X) and any(_data.is_nominal_series(X[c]) for c in X.columns):
            self._check_feature_names(X, reset=fit)
            self._check_n_features(X, reset=fit)
            if len(X) == 0:
                raise ValueError("Found array with 0 sample(s) (shape=%s) while a minimum of 1 "
                                 "is required." % (X.shape,))
            if fit:
                self._kinds_ = ["nominal" if _data.is_nominal_series(X.iloc[:, j]) else "numeric"
                                for j in range(X.shape[1])]
                self._levels_ = [_data.levels_of(X.iloc[:, j]) if k == "nominal" else None
                                 for j, k in enumerate(self._kinds_)]
            cols = []
            for j, kind in enumerate(self._kinds_):
                s = X.iloc[:, j]
                if kind == "nominal":
                    cols.append(_data.codes_of(s, self._levels_[j]))
                else:
                    cols.append(np.asarray(s, dtype=np.float64))  # infinity: refused in C
            if fit:
                if y is None:
                    raise ValueError("%s requires y to be passed, but the target y is None."
                                     % type(self).__name__)
                y = column_or_1d(y, warn=True)
                check_consistent_length(X, y)
            return cols, len(X), y
        # infinity is refused by the C library as it wraps the columns (one pass in C, not
        # scikit-learn's whole-array check before the copy)
        kw = dict(dtype=np.float64, force_all_finite=False)
        if fit:
            X, y = self._validate_data(X, y, y_numeric=not self._is_classifier(), **kw)
            self._kinds_ = ["numeric"] * X.shape[1]
            self._levels_ = [None] * X.shape[1]
        else:
            X = self._validate_data(X, reset=False, **kw)
            if "nominal" in self._kinds_:
                raise ValueError("%s was fitted on a DataFrame with nominal columns; predict "
                                 "from a DataFrame too" % type(self).__name__)
        if not fit and not X.flags.f_contiguous:
            return X, X.shape[0], y  # row-major: predicted block by block (_predict_raw)
        X = _data.fortran(X)  # the C library's columns
        return [X[:, j] for j in range(X.shape[1])], X.shape[0], y

    def _names_in(self):
        if hasattr(self, "feature_names_in_"):
            return [str(v) for v in self.feature_names_in_]
        return ["x%d" % j for j in range(self.n_features_in_)]

    def _is_classifier(self):
        return isinstance(self, ClassifierMixin)

    # ---- fit and predict ----
    def fit(self, X, y, sample_weight=None):
        # the target keeps its name (a Series'), as the model file and its text show it
        self._target_name_ = str(getattr(y, "name", None) or
                                 ("class" if self._is_classifier() else "target"))
        y_in = y
        categories = None
        if _data.pd is not None and isinstance(getattr(y, "dtype", None),
                                               _data.pd.CategoricalDtype):
            categories = list(y.cat.categories)
        cols, n, y = self._columns(X, y, fit=True)
        if self._is_classifier() and categories is not None:
            # a categorical target keeps its declared classes in their order, as treelab does
            # with a file's (so the models are the program's, byte for byte)
            if (codes := np.asarray(y_in.cat.codes)).min() < 0:
                raise ValueError("Input y contains NaN.")
            self.classes_ = np.asarray(categories, dtype=object)
            self.n_classes_ = len(self.classes_)
            target, levels = codes.astype(np.int32), [str(c) for c in self.classes_]
        elif self._is_classifier():
            check_classification_targets(y)
            self.classes_, codes = np.unique(y, return_inverse=True)
            self.n_classes_ = len(self.classes_)
            target, levels = codes.astype(np.int32), [str(c) for c in self.classes_]
        else:
            target, levels = np.asarray(y, dtype=np.float64), None
            if not np.isfinite(target).all():
                raise ValueError("Input y contains NaN or infinity.")
        w = None
        if sample_weight is not None:
            w = _check_sample_weight(sample_weight, np.empty((n, 0)), dtype=np.float64)
        d = _data.build(cols, self._kinds_, self._names_in(), self._levels_, n, target, levels, w,
                        self._target_name_)
        kv = [s.encode() for s in self._settings()]
        arr = (ctypes.c_char_p * max(len(kv), 1))(*kv)
        model = _Model(safe_call(lib.tl_model_new_kv, self._algo().encode(), arr, len(kv)))
        ctx = _lib.FitCtx(self._seed(), None, 0)
        safe_call(lib.tl_model_fit, model.handle, d.handle, None, 0, ctypes.byref(ctx))
        self._model_ = model
        return self

    # rows predicted at a time from a row-major array: its block is copied column-major while
    # in cache and predicted from there (a whole-array transposition first cost 1.5x)
    _BLOCK = 65536

    def _predict_raw(self, X):
        check_is_fitted(self)
        cols, n, _ = self._columns(X)
        width = lib.tl_model_out_width(self._model_.handle)
        out = np.empty((n, width))
        if isinstance(cols, np.ndarray):
            for i in range(0, n, self._BLOCK):
                block = _data.fortran(cols[i:i + self._BLOCK])
                try:
                    self._predict_into([block[:, j] for j in range(block.shape[1])],
                                       len(block), out[i:i + self._BLOCK])
                except ValueError as e:  # a row named within its block: named in X
                    raise ValueError(re.sub(r"row (\d+)", lambda r: "row %d" % (int(r[1]) + i),
                                            str(e), count=1)) from None
        else:
            self._predict_into(cols, n, out)
        return out

    def _predict_into(self, cols, n, out):
        classes = [str(c) for c in self.classes_] if self._is_classifier() else None
        d = _data.build(cols, self._kinds_, self._names_in(), self._levels_, n, None, classes,
                        None, self._target_name_)
        safe_call(lib.tl_model_predict, self._model_.handle, d.handle, None, 0,
                  out.ctypes.data_as(ctypes.c_void_p))

    # ---- pickling through the model's text ----
    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: Python 3.11's may be __dict__ itself
        if "_model_" in state:
            state["_model_"] = state["_model_"].text()
        return state

    def __setstate__(self, state):
        if isinstance(state.get("_model_"), str):
            state = dict(state, _model_=_Model.from_text(state["_model_"]))
        super().__setstate__(state)

    # ---- the fitted model's views ----
    def export_text(self):
        """The fitted model as treelab shows it (`treelab show`): Weka's style for trees."""
        check_is_fitted(self)
        return self._model_.show(_lib.TL_SHOW_TEXT)

    def export_graphviz(self):
        """The fitted tree as Graphviz DOT, from treelab's exporter."""
        check_is_fitted(self)
        return self._model_.show(_lib.TL_SHOW_DOT)

    def export_rules(self):
        check_is_fitted(self)
        return self._model_.show(_lib.TL_SHOW_RULES)

    def _tree_ptr(self):
        check_is_fitted(self)
        t = lib.tl_model_tree(self._model_.handle)
        if not t:
            raise AttributeError("%s has no hard tree" % self._algo())
        return t

    @property
    def tree_(self):
        t = self._tree_ptr()
        return Tree(t, lib.tl_model_out_width(self._model_.handle), not self._is_classifier())

    def _info(self):
        check_is_fitted(self)
        info = _lib.ModelInfo()
        lib.tl_model_get_info(self._model_.handle, ctypes.byref(info))
        return info

    def get_depth(self):
        return int(self._info().depth)

    def get_n_leaves(self):
        return int(self._info().leaves)

    @property
    def feature_importances_(self):
        """Normalised total weighted impurity decrease per feature (scikit-learn's): the
        criterion's impurity when it has one (gini, entropy...), else Gini; squared error for
        regression."""
        t = self._tree_ptr()
        crit = None
        name = getattr(self, "criterion", None)
        if isinstance(name, str) and name != "auto":
            crit = lib.tl_criterion_find(name.encode(), None)
        out = np.zeros(self.n_features_in_)
        try:
            safe_call(lib.tl_tree_importances, t, crit, len(out),
                      out.ctypes.data_as(ctypes.POINTER(ctypes.c_double)))
        except ValueError:  # a partition criterion (no impurity): Gini's decrease
            safe_call(lib.tl_tree_importances, t, None, len(out),
                      out.ctypes.data_as(ctypes.POINTER(ctypes.c_double)))
        return out

    @property
    def pruning_trace_(self):
        """The subtrees the pruner considered (one row each) as a DataFrame: the pruner's
        parameter (named as it names it), leaves, training risk, validation or CV error and
        its standard error (NaN when not recorded), and `chosen` for the one kept."""
        import pandas as pd
        check_is_fitted(self)
        tr = lib.tl_model_prune_trace(self._model_.handle)
        if not tr:
            raise AttributeError("%s recorded no pruning" % self._algo())
        tr = tr.contents
        n = tr.n

        def col(p):
            return np.ctypeslib.as_array(p, (n,)).copy() if n else np.empty(0)
        param = (tr.param_name or b"param").decode()
        df = pd.DataFrame({param: col(tr.param), "leaves": col(tr.leaves),
                           "risk": col(tr.risk), "error": col(tr.error), "se": col(tr.se)})
        df["chosen"] = np.arange(n) == tr.chosen
        for key in ("pruner", "error_name", "risk_name"):  # what treelab.plot_pruning labels
            v = getattr(tr, key)
            df.attrs[key] = v.decode() if v else None
        df.attrs["regression"] = not self._is_classifier()
        return df

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """The minimal cost-complexity pruning path of the tree grown with these parameters
        (scikit-learn's method): Bunch(ccp_alphas, impurities), from treelab's weakest-link
        sequence (`treelab path`)."""
        from sklearn.base import clone
        est = clone(self).set_params(pruner="cost_complexity", pruner__alpha="path",
                                     pruner__risk="auto")
        trace = est.fit(X, y, sample_weight).pruning_trace_
        return Bunch(ccp_alphas=trace.iloc[:, 0].to_numpy(), impurities=trace["risk"].to_numpy())

    def _more_tags(self):
        return {"allow_nan": True}


class TreelabClassifierMixin(ClassifierMixin):
    def predict_proba(self, X):
        """Class probabilities, columns in the order of classes_ (the C learner's own)."""
        return self._predict_raw(X)

    def predict(self, X):
        proba = self._predict_raw(X)  # first: it checks the estimator is fitted
        return self.classes_[np.argmax(proba, axis=1)]


class TreelabRegressorMixin(RegressorMixin):
    def predict(self, X):
        return self._predict_raw(X)[:, 0]


def _renamed(c_name):
    """A C name that cannot be a keyword argument of an estimator: a Python keyword
    (lambda) or a method's name (the soft tree's predict)."""
    return keyword.iskeyword(c_name) or any(
        hasattr(c, c_name) for c in (TreelabEstimator, TreelabClassifierMixin,
                                     TreelabRegressorMixin))


def _py_name(c_name):
    """A C parameter's keyword: its name, with "_param" after a renamed one (lambda_param)."""
    return c_name + "_param" if _renamed(c_name) else c_name


def _c_name(py_name):
    """The C key of a keyword (SLOT__PARAM is SLOT.PARAM)."""
    if py_name.endswith("_param") and _renamed(py_name[:-6]):
        return py_name[:-6]
    return py_name.replace("__", ".")
