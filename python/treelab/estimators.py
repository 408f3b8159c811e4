"""scikit-learn estimators over treelab's learners: one class per learner of the C registry,
its keyword parameters read from the learner's own parameter table."""
import inspect

# Everything this module defined before its split stays importable from it (some only re-exported).
from ._base import (TreelabClassifierMixin, TreelabEstimator, TreelabRegressorMixin,
                    _c_name, _py_name, _renamed)  # noqa: F401
from ._model import Tree, _Model  # noqa: F401
from ._params import SLOTS, _c_value, _params_of, _PARAM_TYPES, learners  # noqa: F401

# This module stays their public home (the split into _base, _model and _params is private):
# reprs, help() and pickles of these classes name treelab.estimators as they always did.
for _cls in (TreelabEstimator, TreelabClassifierMixin, TreelabRegressorMixin, Tree):
    _cls.__module__ = __name__
del _cls


def _signature(names, generic):
    P = inspect.Parameter
    ps = [P("self", P.POSITIONAL_OR_KEYWORD)]
    ps += [P(n, P.POSITIONAL_OR_KEYWORD, default=(("tree" if n == "algorithm" else None)
                                                    if generic else None)) for n in names]
    ps.append(P("params" if generic else "slot_params", P.VAR_KEYWORD))
    return inspect.Signature(ps)


def _names_for(algorithm):
    """The keyword parameters of a learner's estimator: its C table's names, a SLOT_params
    dict per slot it has, and random_state."""
    names = [_py_name(p["name"]) for p in learners()[algorithm][2]]
    names += ["%s_params" % s for s in SLOTS if s in names]
    return tuple(names) + ("random_state",)


def make_estimator(name, algorithm, classifier, doc=None, tags=None):
    """A scikit-learn estimator class for the C learner `algorithm`, its keywords from the
    learner's parameter table: the few lines a learner added in C needs to be usable here."""
    names = _names_for(algorithm)
    mixin = TreelabClassifierMixin if classifier else TreelabRegressorMixin

    def __init__(self, **kw):
        TreelabEstimator.__init__(self, **kw)
    __init__.__signature__ = _signature(names, False)
    summary = learners()[algorithm][0]
    cls = type(name, (mixin, TreelabEstimator), {
        "__init__": __init__, "_algorithm": algorithm, "_names": names,
        "_more_tags": lambda self: dict({"allow_nan": True}, **(tags or {})),
        "__doc__": doc or "%s (treelab's `%s`). Parameters: %s." % (summary, algorithm,
                                                                      ", ".join(names)),
        "__module__": "treelab"})
    return cls


def _generic(name, classifier):
    mixin = TreelabClassifierMixin if classifier else TreelabRegressorMixin
    names = ("algorithm", "random_state")

    def __init__(self, algorithm="tree", random_state=None, **params):
        TreelabEstimator.__init__(self, algorithm=algorithm, random_state=random_state, **params)
    __init__.__signature__ = _signature(names, True)
    return type(name, (mixin, TreelabEstimator), {
        "__init__": __init__, "_names": names, "_generic": True, "__module__": "treelab",
        "__doc__": "Any treelab learner by name (`algorithm`), its parameters as keywords "
                   "(SLOT__PARAM for a slot's plug-in parameter)."})


TreelabClassifier = _generic("TreelabClassifier", True)
TreelabRegressor = _generic("TreelabRegressor", False)
TreeClassifier = make_estimator("TreeClassifier", "tree", True)
TreeRegressor = make_estimator("TreeRegressor", "tree", False)
C45Classifier = make_estimator("C45Classifier", "c45", True)
ID3Classifier = make_estimator("ID3Classifier", "id3", True)
CARTClassifier = make_estimator("CARTClassifier", "cart", True)
CARTRegressor = make_estimator("CARTRegressor", "cart", False)
# The one check a learner is expected to fail, with its reason (docs/python.md).
_SOFT_TAGS = {"_xfail_checks": {
    "check_sample_weights_invariance":
        "mini-batch gradient descent: a row of zero weight still takes a place in the shuffled "
        "mini-batches, so the batches, and the steps, differ from those without the row"}}
SoftTreeClassifier = make_estimator("SoftTreeClassifier", "soft_tree", True, tags=_SOFT_TAGS)
SoftTreeRegressor = make_estimator("SoftTreeRegressor", "soft_tree", False, tags=_SOFT_TAGS)
SoftForestClassifier = make_estimator("SoftForestClassifier", "soft_forest", True,
                                      tags=_SOFT_TAGS)
SoftForestRegressor = make_estimator("SoftForestRegressor", "soft_forest", False,
                                     tags=_SOFT_TAGS)
GaussianNB = make_estimator("GaussianNB", "gaussian_nb", True)
CTreeClassifier = make_estimator("CTreeClassifier", "ctree", True)
CTreeRegressor = make_estimator("CTreeRegressor", "ctree", False)
