"""genviz.studies.gda against closed forms and scipy: GDA fitted to the model's own samples (the
MLE written out), the fitted Gaussians' contours and ellipses, the posterior by Bayes' rule,
shared vs separate covariances; hypothesis over the model; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from scipy.special import expit

from genviz.gaussian import mahalanobis
from genviz.studies.gda import (GDAFitStudy, covariance_figure_study, gda_figure_study,
                                posterior_figure_study)
from genviz.studies.gda_fits import GDAFitSampler
from genviz.synthetic import DataModel

SETTINGS = settings(max_examples=20, deadline=None)


def _mle(X, y):
    """GDA's maximum-likelihood estimates, written out (CS229 eqs. for phi, mu, Sigma)."""
    m0, m1 = X[y == 0].mean(0), X[y == 1].mean(0)
    R = np.where(y[:, None] == 1, X - m1, X - m0)
    S = R.T @ R / len(y)
    phi = y.mean()
    theta = np.linalg.solve(S, m1 - m0)
    theta0 = -0.5 * (m1 @ np.linalg.solve(S, m1) - m0 @ np.linalg.solve(S, m0)) \
        + np.log(phi / (1 - phi))
    return phi, m0, m1, S, theta, theta0


def _cov(s1, s2, rho):
    return np.array([[s1 * s1, rho * s1 * s2], [rho * s1 * s2, s2 * s2]])


@SETTINGS
@given(st.integers(10, 300), st.floats(-2, 2), st.floats(0.4, 1.8), st.floats(-0.8, 0.8),
       st.floats(0.2, 0.8))
def test_every_field_of_the_fit_against_the_mle_by_hand(n, mu1x, s1, rho, phi):
    study = GDAFitStudy(seed=4, n_max=300)
    r = study(n=n, mu1x=mu1x, sigma1=s1, rho=rho, phi=phi)
    cov = _cov(s1, 0.8, rho)
    means = np.array([[-1.0, -0.5], [mu1x, 1.0]])
    X, y = GDAFitSampler(300, 4).points(n, means[0], means[1], cov, phi)
    np.testing.assert_allclose(r.X, X)
    np.testing.assert_array_equal(r.y, y)
    ph, m0, m1, S, theta, theta0 = _mle(X, y)
    assert r.phi == pytest.approx(ph) and (r.n, r.n1) == (n, int(y.sum()))
    np.testing.assert_allclose(r.mu0, m0, atol=1e-12)
    np.testing.assert_allclose(r.mu1, m1, atol=1e-12)
    np.testing.assert_allclose(r.Sigma, S, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(r.theta, theta, rtol=1e-7, atol=1e-9)
    assert r.theta0 == pytest.approx(theta0, rel=1e-7, abs=1e-9)
    np.testing.assert_allclose(r.theta_true, np.linalg.solve(cov, means[1] - means[0]),
                               atol=1e-12)
    true0 = -0.5 * (means[1] @ np.linalg.solve(cov, means[1])
                    - means[0] @ np.linalg.solve(cov, means[0])) + np.log(phi / (1 - phi))
    assert r.theta0_true == pytest.approx(true0, abs=1e-12)
    np.testing.assert_allclose(r.true_cov, cov, atol=1e-12)
    np.testing.assert_allclose(r.true_means, means)
    assert r.true_phi == phi
    scores = X @ theta + theta0
    assert r.training_error == pytest.approx(np.mean((scores > 0) != y))
    for k in (0, 1):
        np.testing.assert_array_equal(r.class_points[k], X[y == k])
        for e, radius in zip(r.ellipses[k], (1.0, 2.0)):
            np.testing.assert_allclose(mahalanobis(e.T, (m0, m1)[k], S), radius, rtol=1e-7)
        jitter = GDAFitSampler(300, 4).jitter[:n][y == k]
        np.testing.assert_allclose(r.score_points[k][:, 0], np.clip(scores[y == k], -12, 12),
                                   rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(r.score_points[k][:, 1], k + jitter)
    np.testing.assert_allclose(r.means, [m0, m1], atol=1e-12)
    for (xs, ys), (th, th0) in ((r.boundary, (theta, theta0)), (r.true_boundary,
                                                                  (r.theta_true, r.theta0_true))):
        np.testing.assert_allclose(xs * th[0] + ys * th[1] + th0, 0, atol=1e-6)


def test_the_fit_study_static_and_defaults():
    s = GDAFitStudy(box=(-3, 3, -2, 2), score_range=(-6, 6)).static()
    assert s.box == (-3, 3, -2, 2) and s.score_range == (-6, 6)
    np.testing.assert_allclose(s.scores, np.linspace(-6, 6, 241))
    np.testing.assert_allclose(s.sigmoid, expit(s.scores))
    assert GDAFitStudy().defaults() == dict(n=100, mu0x=-1.0, mu0y=-0.5, mu1x=1.5, mu1y=1.0,
                                            sigma1=1.0, sigma2=0.8, rho=0.4, phi=0.5)


@pytest.mark.parametrize("params, error, word", [
    (dict(n=3), ValueError, "n"), (dict(n=2000), ValueError, "n"), (dict(mu0y="a"), TypeError, "mu0y"),
    (dict(sigma2=0.0), ValueError, "sigma2"), (dict(rho=1.0), ValueError, "rho"),
    (dict(phi=0.0), ValueError, "phi")])
def test_the_fit_study_bad_parameters(params, error, word):
    with pytest.raises(error, match=word):
        GDAFitStudy()(**params)
    with pytest.raises(ValueError, match="seed"):
        GDAFitStudy(seed=-1)


# -- the static figures -------------------------------------------------------------------------------
def _sample(family="gaussian", n=200, seed=0):
    m = DataModel(family, [0.0, 0.0], [2.0, 1.0], [[1.0, 0.4], [0.4, 0.8]])
    return m.sample(n, rng=seed)


def test_gda_figure_study_against_scipy():
    X, y = _sample()
    r = gda_figure_study(X, y, box=(-3, 5, -3, 4))
    ph, m0, m1, S, theta, theta0 = _mle(X, y)
    assert r.box == (-3, 5, -3, 4)
    np.testing.assert_allclose(r.xs, np.linspace(-3, 5, 200))
    np.testing.assert_allclose(r.ys, np.linspace(-3, 4, 200))
    for k, m in ((0, m0), (1, m1)):
        np.testing.assert_array_equal(r.class_points[k], X[y == k])
        ref = stats.multivariate_normal(m, S)
        P = np.dstack(np.meshgrid(r.xs, r.ys))
        np.testing.assert_allclose(r.contours[k].density, ref.pdf(P), rtol=1e-8)
        peak = r.contours[k].density.max()
        np.testing.assert_allclose(r.contours[k].levels,
                                   peak * np.exp(-0.5 * np.array([2.0, 1.5, 1.0, 0.5]) ** 2))
    assert r.boundary.linear
    np.testing.assert_allclose(r.boundary.xs * theta[0] + r.boundary.ys * theta[1] + theta0, 0,
                               atol=1e-8)
    np.testing.assert_allclose(r.means, [m0, m1])
    box = gda_figure_study(X, y).box
    np.testing.assert_allclose(box, (X[:, 0].min() - 1, X[:, 0].max() + 1, X[:, 1].min() - 1,
                                     X[:, 1].max() + 1))
    from genviz.gda import GDA
    q = gda_figure_study(X, y, GDA(shared_cov=False).fit(X, y), box=(-3, 5, -3, 4))
    assert not q.boundary.linear and q.boundary.values.shape == (200, 200)
    with pytest.raises(ValueError, match="labels 0 and 1"):
        gda_figure_study(X, y + 1)
    with pytest.raises(ValueError, match="X"):
        gda_figure_study(X[:, :1], y)


def test_posterior_figure_study_is_bayes_rule_by_scipy():
    from genviz.gda import GDA

    X, y = _sample()
    g = GDA().fit(X, y)
    r = posterior_figure_study(g, (-3, 5, -3, 4), n_grid=20)
    GX, GY = r.mesh
    np.testing.assert_allclose(GX, np.meshgrid(np.linspace(-3, 5, 20), np.linspace(-3, 4, 20))[0])
    P = np.dstack(r.mesh)
    p1 = stats.multivariate_normal(g.means_[1], g.covariance_).pdf(P) * g.phi_
    p0 = stats.multivariate_normal(g.means_[0], g.covariance_).pdf(P) * (1 - g.phi_)
    np.testing.assert_allclose(r.bayes, p1 / (p0 + p1), rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(r.logistic, expit(P @ r.theta + r.theta0), rtol=1e-9, atol=1e-15)
    assert r.theta0 == pytest.approx(g.logistic_params()[1])
    assert r.max_abs_difference == pytest.approx(np.abs(r.bayes - r.logistic).max(), abs=1e-15)
    assert r.max_abs_difference < 1e-12
    with pytest.raises(ValueError, match="n_grid"):
        posterior_figure_study(g, (-3, 5, -3, 4), n_grid=2)


def test_covariance_figure_study_against_scipy():
    X, y = _sample("gaussian_diff_cov", n=300)
    r = covariance_figure_study(X, y)
    assert [p.shared_cov for p in r.panels] == [True, False]
    np.testing.assert_allclose(r.box, (X[:, 0].min() - 1, X[:, 0].max() + 1, X[:, 1].min() - 1,
                                       X[:, 1].max() + 1))
    np.testing.assert_allclose(r.xs, np.linspace(r.box[0], r.box[1], 200))
    np.testing.assert_allclose(r.ys, np.linspace(r.box[2], r.box[3], 200))
    for k in (0, 1):
        np.testing.assert_array_equal(r.class_points[k], X[y == k])
    covs = [np.cov(X[y == k].T, bias=True) for k in (0, 1)]
    means = [X[y == k].mean(0) for k in (0, 1)]
    P = np.dstack(np.meshgrid(r.xs, r.ys))
    sep = r.panels[1]
    log_odds = (stats.multivariate_normal(means[1], covs[1]).logpdf(P) + np.log(y.mean())
                - stats.multivariate_normal(means[0], covs[0]).logpdf(P) - np.log(1 - y.mean()))
    np.testing.assert_allclose(sep.decision, log_odds, rtol=1e-7, atol=1e-8)
    for k in (0, 1):
        np.testing.assert_allclose(sep.contours[k].density,
                                   stats.multivariate_normal(means[k], covs[k]).pdf(P), rtol=1e-8)
    dens = [stats.multivariate_normal(means[k], covs[k]).pdf(X) for k in (0, 1)]
    pred = (dens[1] * y.mean() > dens[0] * (1 - y.mean())).astype(int)
    assert sep.training_error == pytest.approx(np.mean(pred != y))
    shared = r.panels[0]
    ph, m0, m1, S, theta, theta0 = _mle(X, y)
    G = np.column_stack([np.tile(r.xs, 200), np.repeat(r.ys, 200)])
    np.testing.assert_allclose(shared.decision, (G @ theta + theta0).reshape(200, 200),
                               rtol=1e-7, atol=1e-7)
    assert shared.training_error == pytest.approx(np.mean(((X @ theta + theta0) > 0) != y))
    with pytest.raises(ValueError, match="labels 0 and 1"):
        covariance_figure_study(X, y + 2)
