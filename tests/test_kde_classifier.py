"""KDEClassifier (a multivariate KDE per class) against scikit-learn's KernelDensity and
Bayes' rule written out."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import gaussian_kde
from sklearn.neighbors import KernelDensity

from genviz import datasets
from genviz.kde_classifier import KDEClassifier
from genviz.naive_bayes import KDENB


def sk_log_density(Xk, h, X):
    """log KDE with a product Gaussian kernel: scale by h, unit-bandwidth KDE, Jacobian."""
    kd = KernelDensity(bandwidth=1.0).fit(Xk / h)
    return kd.score_samples(X / h) - np.sum(np.log(h))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 31 - 1), st.integers(1, 3))
def test_class_densities_match_scikit_learn(seed, d):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, d)) * rng.uniform(0.5, 3, d)
    y = np.repeat(["a", "b", "c"], 10)
    X[y == "b"] += 2.0
    clf = KDEClassifier().fit(X, y)
    Q = rng.normal(size=(7, d)) * 4
    dens = clf.class_log_density(Q)
    for k, label in enumerate(clf.classes_):
        Xk = X[y == label]
        h = Xk.std(axis=0, ddof=1) * len(Xk) ** (-1 / (d + 4))
        np.testing.assert_allclose(clf.bandwidth_[k], h)
        np.testing.assert_allclose(dens[:, k], sk_log_density(Xk, h, Q), rtol=1e-9, atol=1e-9)
    # Bayes' rule
    joint = dens + np.log([1 / 3] * 3)
    post = np.exp(joint - np.log(np.exp(joint).sum(axis=1, keepdims=True)))
    np.testing.assert_allclose(clf.predict_proba(Q), post, rtol=1e-9, atol=1e-12)


def test_scott_bandwidth_is_scipys_factor_on_the_diagonal():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(50, 2))
    clf = KDEClassifier().fit(X, np.zeros(50, int) + np.r_[np.zeros(25, int), np.ones(25, int)])
    Xk = X[25:]
    kde = gaussian_kde(Xk.T)
    np.testing.assert_allclose(clf.bandwidth_[1], kde.factor * Xk.std(axis=0, ddof=1))


def test_far_points_get_a_finite_posterior():
    X = np.array([[0.0, 0.0], [0.1, 0.2], [5.0, 5.0], [5.1, 4.9]])
    clf = KDEClassifier(bandwidth=0.1).fit(X, [0, 0, 1, 1])
    p = clf.predict_proba([[100.0, 100.0], [-50.0, 0.0]])
    assert np.all(np.isfinite(p)) and p[0, 1] == pytest.approx(1.0) and p[1, 0] == pytest.approx(1.0)


def test_penguins_a_joint_kde_beats_the_naive_one():
    """08: with correlated bill length and depth, the multivariate KDE per class classifies
    better than KDE naive Bayes (training and leave-one-out accuracy of the notebook)."""
    p = datasets.penguins()
    X2 = p.X[:, :2]
    joint = np.mean(KDEClassifier().fit(X2, p.y).predict(X2) == p.y)
    naive = np.mean(KDENB(bandwidth="silverman").fit(X2, p.y).predict(X2) == p.y)
    assert joint > naive


@pytest.mark.parametrize("bw, match", [("silverman", "scott"), (0.0, "bandwidth"),
                                       ([1.0], "one per feature"), ([1.0, -1.0], "one per feature")])
def test_bad_bandwidths(bw, match):
    with pytest.raises(ValueError, match=match):
        KDEClassifier(bandwidth=bw).fit(np.eye(4, 2), [0, 0, 1, 1])


def test_scott_needs_two_rows_and_spread():
    with pytest.raises(ValueError, match="needs 2"):
        KDEClassifier().fit([[0.0], [1.0], [2.0]], [0, 0, 1])
    with pytest.raises(ValueError, match="zero spread"):
        KDEClassifier().fit([[0.0], [0.0], [2.0], [3.0]], [0, 0, 1, 1])
    with pytest.raises(ValueError):
        KDEClassifier(bandwidth=1.0).predict([[0.0]])
    clf = KDEClassifier(bandwidth=1.0).fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="X"):
        clf.predict([[0.0]])
