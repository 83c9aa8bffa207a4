"""Logistic regression by Newton's method against scikit-learn; separability; bad inputs."""

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.linear_model import LogisticRegression as SkLogistic

from genviz.logistic import LogisticRegression, SeparableDataError, is_linearly_separable, sigmoid


def data(n=400, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * [1.0, 2.0, 0.5][:d]
    w = np.array([1.0, -0.5, 2.0])[:d]
    y = (rng.random(n) < sigmoid(X @ w - 0.3)).astype(int)
    return X, y


def sklearn_fit(X, y, C):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the penalty=None deprecation in recent versions
        kw = dict(penalty=None) if C is None else dict(C=C)
        return SkLogistic(tol=1e-12, max_iter=10_000, **kw).fit(X, y)


@pytest.mark.parametrize("seed, d", [(0, 1), (1, 2), (2, 3)])
def test_unpenalised_fit_agrees_with_sklearn(seed, d):
    X, y = data(d=d, seed=seed)
    ours = LogisticRegression().fit(X, y)
    sk = sklearn_fit(X, y, None)
    np.testing.assert_allclose(ours.coef_, sk.coef_[0], atol=1e-6)
    assert ours.intercept_ == pytest.approx(sk.intercept_[0], abs=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), atol=1e-6)
    # Machine precision: the gradient vanishes to rounding, in a handful of Newton steps.
    assert ours.grad_norm_ < 1e-10 and ours.n_iter_ <= 15


def test_l2_matches_sklearn_C():
    X, y = data()
    ours = LogisticRegression(l2=4.0).fit(X, y)
    sk = sklearn_fit(X, y, 0.25)
    np.testing.assert_allclose(ours.coef_, sk.coef_[0], atol=1e-6)
    assert ours.intercept_ == pytest.approx(sk.intercept_[0], abs=1e-6)
    assert np.linalg.norm(ours.coef_) < np.linalg.norm(LogisticRegression().fit(X, y).coef_)


def test_against_a_generic_optimiser():
    X, y = data(d=2, seed=7)

    def nll(w):
        z = X @ w[1:] + w[0]
        return np.sum(np.logaddexp(0, z) - y * z)

    ref = minimize(nll, np.zeros(3), method="BFGS", options={"gtol": 1e-10})
    ours = LogisticRegression().fit(X, y)
    np.testing.assert_allclose(np.r_[ours.intercept_, ours.coef_], ref.x, atol=1e-5)


def test_probabilities_and_predictions():
    X, y = data(d=2)
    m = LogisticRegression().fit(X, y)
    z = X @ m.coef_ + m.intercept_
    np.testing.assert_allclose(m.decision_function(X), z)
    np.testing.assert_allclose(m.predict_proba(X)[:, 1], sigmoid(z), atol=1e-15)
    np.testing.assert_allclose(m.predict_proba(X), np.exp(m.predict_log_proba(X)))
    np.testing.assert_array_equal(m.predict(X), (z > 0).astype(int))
    # No overflow far from the boundary.
    far = m.predict_log_proba(np.array([[1e6, 1e6], [-1e6, -1e6]]))
    assert np.all(np.isfinite(far))


def test_separable_data_are_reported():
    X = np.array([[0.0, 0.0], [1.0, 0.5], [0.5, 1.0], [3.0, 3.0], [4.0, 3.5], [3.5, 4.5]])
    y = np.array([0, 0, 0, 1, 1, 1])
    assert is_linearly_separable(X, y)
    with pytest.raises(SeparableDataError, match="linearly separable.*does not exist.*l2 > 0"):
        LogisticRegression().fit(X, y)
    m = LogisticRegression(l2=1e-2).fit(X, y)  # regularised: the solution exists
    np.testing.assert_array_equal(m.predict(X), y)
    # Quasi-complete separation (a tie on the boundary) is reported too.
    Xq = np.array([[0.0], [1.0], [1.0], [2.0]])
    yq = np.array([0, 0, 1, 1])
    assert is_linearly_separable(Xq, yq)
    with pytest.raises(SeparableDataError):
        LogisticRegression().fit(Xq, yq)
    Xn, yn = data()
    assert not is_linearly_separable(Xn, yn)


def test_bad_inputs():
    X, y = data(n=30, d=2)
    with pytest.raises(ValueError, match="labels 0 and 1"):
        LogisticRegression().fit(X, y + 1)
    with pytest.raises(ValueError, match="labels 0 and 1"):
        LogisticRegression().fit(X, np.where(y == 1, "spam", "ham"))
    with pytest.raises(ValueError, match="only one class"):
        LogisticRegression().fit(X, np.ones(30, int))
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains 1 NaN"):
        LogisticRegression().fit(Xn, y)
    with pytest.raises(ValueError, match="y has 29 labels but X has 30 rows"):
        LogisticRegression().fit(X, y[1:])
    with pytest.raises(ValueError, match="l2 must be >= 0"):
        LogisticRegression(l2=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="not fitted yet"):
        LogisticRegression().predict(X)
    collinear = np.column_stack([X[:, 0], 2 * X[:, 0]])
    with pytest.raises(ValueError, match="collinear"):
        LogisticRegression().fit(collinear, y)
    assert np.isfinite(LogisticRegression(l2=1e-3).fit(collinear, y).coef_).all()
    with pytest.raises(ValueError, match="X has 3 feature"):
        LogisticRegression().fit(X, y).predict(np.ones((1, 3)))


def test_warm_start_reaches_the_same_solution_in_fewer_steps():
    X, y = data(n=2000, d=2, seed=3)
    cold = LogisticRegression().fit(X, y)
    warm = LogisticRegression(warm_start=True).fit(X[:1000], y[:1000])
    warm.fit(X, y)
    np.testing.assert_allclose(warm.coef_, cold.coef_, atol=1e-10)
    assert warm.n_iter_ < cold.n_iter_
