"""genviz.studies.gda_fits against closed forms and scipy: the GDA model's own samples, the MLE
by hand, Bayes' rule by scipy's normal densities, a line clipped to a box; hypothesis; bad
input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from genviz.gda import GDA
from genviz.studies.gda_fits import (GDAFitSampler, boundary, fit_gda_sample, gda_covariance_fits,
                                     line_in_box, posterior_two_ways)

SETTINGS = settings(max_examples=25, deadline=None)


@SETTINGS
@given(st.floats(-3, 3), st.floats(-3, 3), st.floats(-4, 4))
def test_line_in_box_ends_lie_on_the_line_and_the_box(a, b, c):
    box = (-2.0, 3.0, -1.0, 4.0)
    xs, ys = line_in_box([a, b], c, box)
    if xs.size == 0:  # misses the box: the line's value has one sign at every corner
        corners = np.array([[x, y] for x in box[:2] for y in box[2:]])
        values = corners @ [a, b] + c
        assert np.all(values > -1e-9) or np.all(values < 1e-9)
        return
    assert xs.size == 2
    np.testing.assert_allclose(a * xs + b * ys + c, 0, atol=1e-9)
    assert np.all((xs >= box[0] - 1e-9) & (xs <= box[1] + 1e-9))
    assert np.all((ys >= box[2] - 1e-9) & (ys <= box[3] + 1e-9))
    # on the box's edge: each end touches at least one side
    for x, y in zip(xs, ys):
        assert min(abs(x - box[0]), abs(x - box[1]), abs(y - box[2]), abs(y - box[3])) < 1e-9


def test_line_in_box_cases():
    xs, ys = line_in_box([1.0, 1.0], 0.0, (-1, 1, -1, 1))  # the diagonal x2 = -x1
    np.testing.assert_allclose(sorted(xs), [-1, 1])
    assert line_in_box([1.0, 0.0], -5.0, (-1, 1, -1, 1))[0].size == 0  # misses the box
    np.testing.assert_allclose(line_in_box([0.0, 2.0], -1.0, (-3, 3, -3, 3))[1], [0.5, 0.5])
    assert line_in_box([0.0, 0.0], 1.0, (-1, 1, -1, 1))[0].size == 0   # no line at all


def test_boundary_is_a_segment_or_a_zero_level():
    b = boundary((-1, 1, -1, 1), linear=([0.0, 1.0], -0.5))
    assert b.linear and b.values is None
    np.testing.assert_allclose(b.ys, [0.5, 0.5])
    np.testing.assert_allclose(sorted(b.xs), [-1, 1])
    values = np.arange(6.0).reshape(2, 3)
    q = boundary((-1, 1, -1, 1), values=values)
    assert not q.linear and q.values is values and q.xs.size == q.ys.size == 0


# -- the GDA model's own samples (moved from test_view_studies.py) ---------------------------------
def test_gda_fit_sampler_moments_match_the_model():
    mu0, mu1 = np.array([-1.0, 0.5]), np.array([2.0, -1.0])
    cov = np.array([[1.0, 0.6], [0.6, 2.0]])
    X, y = GDAFitSampler(n_max=20000, seed=1).points(20000, mu0, mu1, cov, 0.3)
    assert y.mean() == pytest.approx(0.3, abs=0.01)
    for k, mu in ((0, mu0), (1, mu1)):
        np.testing.assert_allclose(X[y == k].mean(axis=0), mu, atol=0.05)
        np.testing.assert_allclose(np.cov(X[y == k], rowvar=False), cov, atol=0.08)
    # the first x of every point is mu_y + (L z)_0 with L the Cholesky factor: by hand
    s = GDAFitSampler(n_max=10, seed=1)
    X, y = s.points(10, mu0, mu1, cov, 0.3)
    L = np.array([[1.0, 0.0], [0.6, np.sqrt(2.0 - 0.36)]])
    np.testing.assert_allclose(X, np.where(y[:, None] == 1, mu1, mu0) + s.z @ L.T)


@SETTINGS
@given(st.integers(4, 60), st.floats(0.01, 0.99))
def test_gda_fit_sampler_keeps_two_points_per_class_and_moves_continuously(n, phi):
    s = GDAFitSampler(n_max=60, seed=2)
    X, y = s.points(n, [0, 0], [1, 1], np.eye(2), phi)
    assert min(y.sum(), n - y.sum()) >= 2
    X2, y2 = s.points(n, [0.5, 0], [1, 1], np.eye(2), phi)  # move mu0: same labels, same z
    np.testing.assert_array_equal(y, y2)
    np.testing.assert_allclose((X2 - X)[y == 0], [[0.5, 0.0]] * int((y == 0).sum()))


@pytest.mark.parametrize("args, error, word", [
    ((3, [0, 0], [1, 1], np.eye(2), 0.5), ValueError, "n"),
    ((11, [0, 0], [1, 1], np.eye(2), 0.5), ValueError, "n"),
    ((5, [0, 0, 0], [1, 1], np.eye(2), 0.5), ValueError, "mu0"),
    ((5, [0, 0], [1, 1], [[1, 2], [2, 1]], 0.5), ValueError, "cov"),
    ((5, [0, 0], [1, 1], np.eye(2), 1.0), ValueError, "phi"),
])
def test_gda_fit_sampler_bad_input(args, error, word):
    with pytest.raises(error, match=word):
        GDAFitSampler(n_max=10).points(*args)
    with pytest.raises(ValueError, match="n_max"):
        GDAFitSampler(n_max=3)



# -- the fits (moved from test_view_studies.py) ---------------------------------------------------
def test_fit_gda_sample_against_the_closed_form():
    mu = np.array([[-1.0, 0.0], [1.5, 1.0]])
    cov = np.array([[1.0, 0.3], [0.3, 0.8]])
    X, y = GDAFitSampler(seed=3).points(300, mu[0], mu[1], cov, 0.4)
    f = fit_gda_sample(X, y, true_phi=0.4, true_means=mu, true_cov=cov)
    m0, m1 = X[y == 0].mean(0), X[y == 1].mean(0)
    R = np.where(y[:, None] == 1, X - m1, X - m0)
    S = R.T @ R / len(y)  # the MLE, dividing by n
    phi = y.mean()
    theta = np.linalg.solve(S, m1 - m0)
    theta0 = -0.5 * (m1 @ np.linalg.solve(S, m1) - m0 @ np.linalg.solve(S, m0)) + np.log(phi / (1 - phi))
    np.testing.assert_allclose(f.theta, theta)
    assert f.theta0 == pytest.approx(theta0)
    np.testing.assert_allclose(f.theta_true, np.linalg.solve(cov, mu[1] - mu[0]))
    np.testing.assert_allclose(f.scores, X @ theta + theta0)
    assert f.training_error == pytest.approx(np.mean((X @ theta + theta0 > 0) != y))
    with pytest.raises(ValueError, match="true_phi"):
        fit_gda_sample(X, y, true_phi=1.0, true_means=mu, true_cov=cov)


def test_posterior_two_ways_agree_with_bayes_rule_by_scipy():
    rng = np.random.default_rng(8)
    X = np.r_[rng.normal(-1, 1, (40, 2)), rng.normal(1, 1, (60, 2))]
    y = np.repeat([0, 1], [40, 60])
    g = GDA().fit(X, y)
    P = rng.normal(size=(30, 2)) * 2
    p0 = stats.multivariate_normal(g.means_[0], g.covariance_).pdf(P) * 0.4
    p1 = stats.multivariate_normal(g.means_[1], g.covariance_).pdf(P) * 0.6
    r = posterior_two_ways(g, P)
    np.testing.assert_allclose(r.bayes, p1 / (p0 + p1), rtol=1e-9)
    np.testing.assert_allclose(r.logistic, p1 / (p0 + p1), rtol=1e-9)
    assert r.max_abs_difference < 1e-12


def test_gda_covariance_fits_training_errors_by_scipy():
    rng = np.random.default_rng(9)
    X = np.r_[rng.normal(0, [1, 2], (50, 2)), rng.normal(1, [2, 0.5], (50, 2))]
    y = np.repeat([0, 1], 50)
    shared, separate = gda_covariance_fits(X, y)
    assert shared.shared_cov and not separate.shared_cov
    covs = [np.cov(X[y == k].T, bias=True) for k in (0, 1)]
    dens = [stats.multivariate_normal(X[y == k].mean(0), covs[k]).pdf(X) for k in (0, 1)]
    assert separate.training_error == pytest.approx(np.mean((dens[1] > dens[0]) != y))
    assert 0 <= shared.training_error <= 0.5
    with pytest.raises(TypeError, match="shared"):
        gda_covariance_fits(X, y, shared=("yes",))
