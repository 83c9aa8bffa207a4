"""Exercises of notebooks 01 and 05: each tried with a right and a wrong answer."""

import numpy as np
import pytest

from genviz.exercises import joint as jx
from genviz.exercises import kde as kx
from genviz.joint import JointTable

ALARM = JointTable({"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
                    "Earthquake": ["earthquake", "no earthquake"]},
                   [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79])
DATA = np.array([-1.0, -0.2, 0.1, 0.3, 1.4])


@pytest.mark.parametrize("make, right, wrong", [
    (lambda: jx.marginal_probability(ALARM, {"Theft": "no theft"}), 0.9, 0.1),  # slide prints 0.1
    (lambda: jx.marginal_probability(ALARM, {"Alarm": "alarm"}), 0.19, 0.09),
    (lambda: jx.posterior_by_bayes(ALARM, {"Theft": "theft"}, {"Alarm": "alarm"}), 0.09 / 0.19, 0.9),
    (lambda: jx.parameter_count({"mpg": 2, "modelyear": 3, "maker": 3}), 17, 18),
    (lambda: jx.dataset_log_likelihood(ALARM, [["alarm", "theft", "earthquake"],
                                               ["no alarm", "no theft", "no earthquake"]]),
     np.log(0.01) + np.log(0.79), np.log(0.01 * 0.79) / 2),
    (lambda: kx.kde_by_hand(DATA, 0.0, 1.0, "box"), 3 / 5, 2 / 5),  # -0.2, 0.1, 0.3 in [-1/2, 1/2)
    (lambda: kx.kde_by_hand(DATA, 0.0, 0.5, "tophat"), 3 * 0.5 / (5 * 0.5), 0.4),
    (lambda: kx.histogram_height(DATA, 1.0, 0.0, 0.2), 2 / 5, 3 / 5),  # bin [0, 1): 0.1, 0.3
    (lambda: kx.silverman_bandwidth(DATA),
     0.9 * min(DATA.std(ddof=1), np.subtract(*np.percentile(DATA, [75, 25])) / 1.34) * 5 ** -0.2,
     1.06 * DATA.std(ddof=1) * 5 ** -0.2),
])
def test_exercises(make, right, wrong):
    ex = make()
    assert ex.check(right).correct is True
    assert ex.check(wrong).correct is False
    assert ex.check(...).correct is None


def test_cv_selected_bandwidth():
    from genviz.kde import cv_curve, sample_claw
    x = sample_claw(300, 0)
    hs = np.geomspace(0.01, 1, 30)
    for method, pick in (("loo-likelihood", np.argmax), ("lscv", np.argmin)):
        ex = kx.cv_selected_bandwidth(x, hs, method)
        best = hs[pick(cv_curve(x, hs, method))]
        assert ex.check(best).correct and not ex.check(best * 1.5).correct
