"""scikit-learn's estimator contract (check_estimator of Debian's scikit-learn 1.2.1) for every
estimator class; the expected failures are the ones _more_tags names, with their reasons."""
import warnings

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import treelab

ESTIMATORS = [treelab.TreeClassifier(), treelab.TreeRegressor(), treelab.C45Classifier(),
              treelab.CARTClassifier(), treelab.CARTRegressor(), treelab.ID3Classifier(),
              treelab.SoftTreeClassifier(), treelab.SoftTreeRegressor(), treelab.GaussianNB(),
              treelab.SoftForestClassifier(), treelab.SoftForestRegressor(),
              treelab.CTreeClassifier(), treelab.CTreeRegressor(),
              treelab.TreelabClassifier(algorithm="c45"), treelab.TreelabRegressor()]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_contract(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(estimator)


def test_at_most_one_expected_failure_each():
    for e in ESTIMATORS:
        xfail = e._get_tags().get("_xfail_checks") or {}
        assert len(xfail) <= 1, (e, xfail)
        assert all(len(reason) > 40 for reason in xfail.values())
