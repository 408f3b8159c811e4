"""treelab in Python: scikit-learn estimators over the C library's learners, experiments as
DataFrames, and the statistical tests (a ctypes binding; no algorithm is written here)."""
from . import stats
from ._lib import TreelabError
from .estimators import (C45Classifier, CARTClassifier, CARTRegressor, CTreeClassifier,
                         CTreeRegressor, GaussianNB,
                         ID3Classifier, SoftForestClassifier, SoftForestRegressor,
                         SoftTreeClassifier, SoftTreeRegressor, TreeClassifier,
                         TreelabClassifier, TreelabEstimator, TreelabRegressor, TreeRegressor,
                         learners, make_estimator)
from .experiments import RunResult, load_dataset, plugins, run, version
from .plots import plot_pruning

__all__ = ["C45Classifier", "CARTClassifier", "CARTRegressor", "CTreeClassifier",
           "CTreeRegressor", "GaussianNB", "ID3Classifier",
           "SoftForestClassifier", "SoftForestRegressor",
           "SoftTreeClassifier", "SoftTreeRegressor", "TreeClassifier", "TreeRegressor",
           "TreelabClassifier", "TreelabRegressor", "TreelabEstimator", "TreelabError",
           "RunResult", "learners", "load_dataset", "make_estimator", "plot_pruning", "plugins",
           "run", "stats", "version"]
__version__ = version()
