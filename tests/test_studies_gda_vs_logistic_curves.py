"""genviz.studies.gda_vs_logistic_curves: the learning-curve figure's means and standard errors
against numpy and scipy (the experiment itself is tested in tests/test_gda.py); bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from genviz.studies.gda_vs_logistic_curves import (LearningCurves, learning_curve_figure_study,
                                                   learning_curves)
from genviz.synthetic import DataModel


def test_means_and_standard_errors_against_scipy():
    m = DataModel("gaussian", [0, 0], [1, 1], np.eye(2))
    curves = [learning_curves(m, [10, 50], n_reps=4, rng=0, n_test=500),
              LearningCurves(np.array([5, 9]), np.array([[0.3, 0.2], [0.1, 0.4], [0.2, 0.3]]),
                             np.array([[0.2, 0.2], [0.2, 0.2], [0.5, 0.1]]), 0.05, 100)]
    r = learning_curve_figure_study(curves, ["a", "b"])
    assert r.titles == ["a", "b"]
    for stats_, lc in zip(r.curves, curves):
        np.testing.assert_array_equal(stats_.sizes, lc.sizes)
        np.testing.assert_allclose(stats_.gda_mean, lc.gda_errors.mean(axis=0))
        np.testing.assert_allclose(stats_.lr_mean, lc.lr_errors.mean(axis=0))
        np.testing.assert_allclose(stats_.gda_se, stats.sem(lc.gda_errors, axis=0))
        np.testing.assert_allclose(stats_.lr_se, stats.sem(lc.lr_errors, axis=0))
        assert stats_.bayes_error == lc.bayes_error
    with pytest.raises(ValueError, match="titles has 2 entries but curves has 1"):
        learning_curve_figure_study(curves[:1], ["a", "b"])
