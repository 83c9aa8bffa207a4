"""gda_vs_logistic_explorer: the sweep, the readout's numbers, the progress bar."""

import re

import numpy as np
import pytest

from genviz.widgets.gda import gda_vs_logistic_explorer, gda_vs_logistic_readout, progress_bar
from explorer_testing import sweep_explorer


def numbers(html):
    text = re.sub(r"<[^>]+>", " ", html)
    return [float(x) for x in re.findall(r"-?\d+\.\d+", text)]


def test_sweep_every_control_over_its_range():
    e = gda_vs_logistic_explorer(n_test=1000)
    assert set(e.controls) == {"mu0x", "mu0y", "mu1x", "mu1y", "sigma1", "sigma2", "rho", "phi",
                               "n", "family", "gda_cov"}
    assert all(not getattr(c, "continuous_update", False) for c in e.controls.values())
    made = sweep_explorer(e, n=3)
    assert made >= 30 and e.n_updates >= made
    # Every family with separate covariances.
    e.controls["gda_cov"].value = "separate"
    for family in ("gaussian", "gaussian_diff_cov", "heavy_tailed", "poisson", "outliers"):
        e.controls["family"].value = family
        assert e.error is None, (family, e.error)
    e.close()


def test_readout_shows_the_errors_and_thetas():
    e = gda_vs_logistic_explorer(n_test=2000)
    s = e.view.state
    vals = numbers(e.readout.value)
    np.testing.assert_allclose(vals[:3], [s["errors"]["gda"], s["errors"]["lr"],
                                          s["errors"]["bayes"]], atol=5e-5)
    theta, theta0 = s["theta_gda"]
    np.testing.assert_allclose(vals[3:6], [theta[0], theta[1], theta0], atol=5e-4)
    np.testing.assert_allclose(vals[6:9], [*s["theta_lr"][0], s["theta_lr"][1]], atol=5e-4)
    assert "separable" not in e.readout.value
    e.controls["gda_cov"].value = "separate"
    assert "quadratic boundary" in e.readout.value
    e.close()


def test_readout_explains_separable_samples():
    e = gda_vs_logistic_explorer(n_test=500)
    for name, value in (("mu0x", -2.0), ("mu0y", -2.0), ("mu1x", 2.0), ("mu1y", 2.0),
                        ("sigma1", 0.3), ("sigma2", 0.3), ("n", 20)):
        e.controls[name].value = value
    assert e.view.state["separable"]
    assert "linearly separable" in e.readout.value and "L2 = 0.001" in e.readout.value
    e.close()


def test_progress_bar():
    bar, callback = progress_bar("Gaussian")
    assert bar.value == 0 and bar.description == "Gaussian"
    callback(3, 10)
    assert (bar.value, bar.max, bar.bar_style) == (3, 10, "")
    callback(10, 10)
    assert bar.value == 10 and bar.bar_style == "success"
