"""The GDA fitting explorer (notebook 03): sweep, readout numbers, and the view's state against
the GDA estimator and the closed-form MLEs of CS229 1.2."""

import re

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from explorer_testing import sweep_explorer
from genviz.gda import GDA
from genviz.logistic import sigmoid
from genviz.plots.gda import GDAFitView
from genviz.widgets.gda import gda_fit_explorer


def numbers(html):
    text = re.sub(r"<[^>]+>", " ", html)
    return [float(x.replace("−", "-")) for x in re.findall(r"[-−]?\d+\.\d+", text)]


def test_sweep_every_control_over_its_range():
    e = gda_fit_explorer()
    assert set(e.controls) == {"n", "phi", "mu0x", "mu0y", "mu1x", "mu1y", "sigma1", "sigma2",
                               "rho"}
    made = sweep_explorer(e, n=5)
    assert made >= 40 and e.n_updates >= made
    e.close()


@pytest.mark.parametrize("params", [{}, dict(n=10, phi=0.1), dict(n=1000, phi=0.9, rho=-0.9),
                                    dict(mu0x=2.0, mu1x=-2.0, sigma1=0.3, sigma2=2.0)])
def test_state_is_the_mle_of_the_sample_shown(params):
    v = GDAFitView(**params)
    s = v.state
    X, y = s["X"], s["y"]
    assert len(y) == s["n"] and s["n1"] == y.sum() and min(s["n1"], len(y) - s["n1"]) >= 2
    # CS229's closed forms, written out
    mu0, mu1 = X[y == 0].mean(axis=0), X[y == 1].mean(axis=0)
    R = X - np.where(y[:, None] == 1, mu1, mu0)
    np.testing.assert_allclose(s["phi"], y.mean())
    np.testing.assert_allclose(s["mu0"], mu0)
    np.testing.assert_allclose(s["mu1"], mu1)
    np.testing.assert_allclose(s["Sigma"], R.T @ R / len(y), atol=1e-12)
    # the estimator
    gda = GDA().fit(X, y)
    theta, theta0 = gda.logistic_params()
    np.testing.assert_allclose(s["theta"], theta)
    np.testing.assert_allclose(s["theta0"], theta0)
    # posterior = sigmoid of the linear score, and scikit-learn's LDA (MLE covariance) agrees
    np.testing.assert_allclose(gda.predict_proba(X)[:, 1], sigmoid(X @ s["theta"] + s["theta0"]),
                               atol=1e-12)
    lda = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    np.testing.assert_allclose(lda.predict_proba(X)[:, 1], sigmoid(X @ s["theta"] + s["theta0"]),
                               atol=1e-8)
    # the drawn fitted boundary passes through points where the score is 0
    bx, by = v._boundary.get_data()
    np.testing.assert_allclose(np.column_stack([bx, by]) @ s["theta"] + s["theta0"], 0,
                               atol=1e-9)


def test_moving_a_mean_moves_the_same_points():
    v = GDAFitView()
    X0, y0 = v.state["X"].copy(), v.state["y"].copy()
    v.update(mu1x=v.params["mu1x"] + 1.0)
    np.testing.assert_array_equal(v.state["y"], y0)
    np.testing.assert_allclose(v.state["X"][y0 == 0], X0[y0 == 0])
    np.testing.assert_allclose(v.state["X"][y0 == 1], X0[y0 == 1] + [1.0, 0.0])
    v.update(n=200)
    np.testing.assert_allclose(v.state["X"][:100][y0 == 0], X0[y0 == 0])


def test_estimates_converge_to_the_truth_with_n():
    v = GDAFitView(n=1000)
    s = v.state
    np.testing.assert_allclose(s["Sigma"], s["true_cov"], atol=0.12)
    np.testing.assert_allclose(s["mu1"], s["true_means"][1], atol=0.12)
    assert abs(s["phi"] - s["true_phi"]) < 0.05


def test_readout_shows_the_state():
    e = gda_fit_explorer()
    s = e.view.state
    vals = numbers(e.readout.value)
    np.testing.assert_allclose(vals[:7], [s["phi"], *s["mu0"], *s["mu1"], s["Sigma"][0, 0],
                                          s["Sigma"][0, 1]], atol=5e-4)
    assert "p(y=1|x) = 1 / (1 + exp(" in e.readout.value
    e.controls["n"].value = 500
    assert "n = 500" in e.readout.value
    e.close()


@pytest.mark.parametrize("bad, exc, match", [
    (dict(n=3), ValueError, "n"), (dict(n=5000), ValueError, "n"),
    (dict(rho=1.0), ValueError, "rho"), (dict(sigma1=0.0), ValueError, "sigma1"),
    (dict(phi=0.0), ValueError, "phi"), (dict(mu0x="a"), TypeError, "mu0x"),
    (dict(nope=1), TypeError, "unknown parameter"),
])
def test_bad_parameters(bad, exc, match):
    v = GDAFitView()
    with pytest.raises(exc, match=match):
        v.update(**bad)
