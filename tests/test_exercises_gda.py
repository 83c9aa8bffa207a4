"""GDA exercises: each with a right and a wrong answer, answers computed independently."""

import numpy as np
import pytest

from genviz.exercises import gda as gx
from genviz.studies.gda_vs_logistic_curves import LearningCurves
from exercise_testing import assert_right_and_wrong

# The hand-sized data set of notebook 03.
X = np.array([[1, 1], [2, 3], [3, 2], [2, 2], [5, 4], [6, 6], [7, 5]], dtype=float)
y = np.array([0, 0, 0, 0, 1, 1, 1])
SIGMA = np.array([[4.0, 2.0], [2.0, 4.0]]) / 7  # worked out by hand


@pytest.mark.parametrize("make, right, wrong", [
    (lambda: gx.sigma_by_hand(X, y), SIGMA, SIGMA * 7 / 5),  # wrong: divides by n - 2
    (lambda: gx.sigma_by_hand(X, y), SIGMA, np.cov(X, rowvar=False, bias=True)),  # pooled mean
    # Boundary through x1 = 4: theta = S^-1 (4, 3), theta0 from the means and phi.
    (lambda: gx.boundary_point(X, y, 4.0),
     float(-(gx.GDA().fit(X, y).logistic_params()[1]
             + 4 * np.linalg.solve(SIGMA, [4, 3])[0]) / np.linalg.solve(SIGMA, [4, 3])[1]), 0.0),
    (lambda: gx.theta_from_params(0.5, [0, 0], [2, 0], [[1, 0.5], [0.5, 1]]),
     [8 / 3, -4 / 3], [2.0, 0.0]),
    (lambda: gx.theta0_from_params(0.5, [0, 0], [2, 0], [[1, 0.5], [0.5, 1]]),
     -8 / 3, -2.0),
    (lambda: gx.theta0_from_params(0.25, [0, 0], [2, 0], [[1, 0.5], [0.5, 1]]),
     -8 / 3 + np.log(1 / 3), -8 / 3),
    (lambda: gx.poisson_theta([2.0, 4.0], [8.0, 4.0]), [np.log(4), 0.0], [4.0, 1.0]),
])
def test_exercises(make, right, wrong):
    assert_right_and_wrong(make(), right, wrong)


def test_better_learner_reads_the_curves():
    g = np.array([[0.20, 0.10], [0.22, 0.12]])
    lc = LearningCurves(np.array([10, 1000]), g, g + [[0.01, -0.02], [0.01, -0.02]], 0.05, 100)
    assert gx.better_learner(lc, 10).check("GDA").correct
    assert not gx.better_learner(lc, 10).check("logistic regression").correct
    assert gx.better_learner(lc, 1000).check("Logistic Regression").correct
    with pytest.raises(ValueError, match="n must be one of the sizes"):
        gx.better_learner(lc, 50)


def test_solutions_do_not_leak_into_feedback():
    ex = gx.sigma_by_hand(X, y)
    assert "0.571" not in str(ex.check(SIGMA * 7 / 5)) and "0.571" in str(ex.solution())


def test_poisson_theta_is_answerable_from_the_printed_rates():
    """The prompt prints the rates to 4 digits (04's rates are 4 exp(mu/2): 2.4261226388505337
    and more): theta computed from the printed numbers, the Poisson log-likelihood ratio's
    coefficient (scipy's log pmf at x = 1 and 0 of both classes), is accepted, and the
    17-digit floats are gone from the prompt."""
    import re
    from scipy.stats import poisson
    lam0, lam1 = [2.4261226388505337, 4.0], [10.87312731383618, 6.594885082800513]  # 04's
    ex = gx.poisson_theta(lam0, lam1)
    printed = [[float(v) for v in g.split(", ")] for g in re.findall(r"Poisson\(\[([^\]]+)\]\)",
                                                                        ex.prompt)]
    assert all(len(str(v).replace(".", "").lstrip("0")) <= 4 for g in printed for v in g)
    l0, l1 = (np.array(g) for g in printed)
    theta = ((poisson.logpmf(1, l1) - poisson.logpmf(0, l1))
             - (poisson.logpmf(1, l0) - poisson.logpmf(0, l0)))
    assert ex.check(theta.tolist()).correct
    assert not ex.check((theta * 1.02).tolist()).correct  # 2 % off: refused
