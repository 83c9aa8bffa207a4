"""genviz.studies.naive_bayes and naive_bayes_experiments against scikit-learn's naive Bayes
(categorical, Gaussian), GDA by hand and KDEs by scipy; hypothesis over alpha; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from genviz import datasets
from genviz.gaussian import mahalanobis
from genviz.naive_bayes import CategoricalNB, MultinomialNB, discretize
from genviz.studies.naive_bayes import (CategoricalNBStudy, DiscretizeStudy, KDENBStudy,
                                        NBvsGDAStudy)
from genviz.studies.naive_bayes_experiments import FitPath, KDEvsGaussianNB, data_window
from genviz.synthetic import correlated_classes

SETTINGS = settings(max_examples=20, deadline=None)


# -- notebook 06: counting ------------------------------------------------------------------------
def _codes(X):
    """Each column's values as category codes (scikit-learn's CategoricalNB needs integers)."""
    cats = [sorted(set(col)) for col in X.T.tolist()]
    return np.array([[c.index(v) for v, c in zip(row, cats)] for row in X.tolist()]), cats


@SETTINGS
@given(st.floats(0.01, 3.0), st.integers(0, 13))
def test_counting_against_sklearn(alpha, row):
    t = datasets.play_tennis()
    study = CategoricalNBStudy(t.X, t.y, t.feature_names)
    query = list(t.X[row])
    r = study(alpha=alpha, **dict(zip(t.feature_names, query)))
    codes, cats = _codes(t.X)
    sk = SkCategoricalNB(alpha=alpha).fit(codes, t.y)
    q = np.array([[c.index(v) for v, c in zip(query, cats)]])
    np.testing.assert_allclose(r.explain["posterior"], sk.predict_proba(q)[0], rtol=1e-9)
    assert r.explain["decision"] == sk.predict(q)[0]
    for j, table in enumerate(r.tables):
        np.testing.assert_allclose(table, np.exp(sk.feature_log_prob_[j]), rtol=1e-9)
        assert r.outlined[j].tolist() == [v == query[j] for v in r.categories[j]]
        assert r.smoothed[j].alpha == alpha
    np.testing.assert_allclose(r.class_count, sk.class_count_)
    assert r.n_records == len(t.y) and r.alpha == alpha and r.query == query
    np.testing.assert_allclose(r.posterior_heights, r.explain["posterior"])
    assert not r.undefined


def test_counting_zero_over_zero_and_static():
    t = datasets.enjoy_sport()
    study = CategoricalNBStudy(t.X, t.y, t.feature_names, alpha=0.0)
    s = study.static()
    assert s.names == list(t.feature_names) and s.classes == sorted(set(t.y.tolist()))
    assert s.categories == [sorted(set(col)) for col in t.X.T.tolist()]
    r = study(Sky="sunny", Temp="cold")  # P(sunny | no) = 0 and P(cold | yes) = 0
    assert r.undefined and r.explain["posterior"] is None
    np.testing.assert_array_equal(r.posterior_heights, 0.0)
    assert study.defaults() == {"alpha": 0.0, **dict(zip(t.feature_names, t.X[0]))}
    assert study.parameter_names() == ("alpha", *t.feature_names)


@pytest.mark.parametrize("params, error, word", [
    (dict(Outlook="Foggy"), ValueError, "Outlook must be one of"),
    (dict(alpha=-1.0), ValueError, "alpha"), (dict(colour="red"), TypeError, "colour")])
def test_counting_bad_parameters(params, error, word):
    t = datasets.play_tennis()
    with pytest.raises(error, match=word):
        CategoricalNBStudy(t.X, t.y, t.feature_names)(**params)


# -- notebook 08: bins ------------------------------------------------------------------------------
def test_bins_against_sklearn():
    p = datasets.penguins()
    x = p.X[:, 2]
    study = DiscretizeStudy(x, p.y, n_grid=300)
    s = study.static()
    lo, hi = data_window(x)
    assert s.lim == (lo, hi) and s.classes == sorted(set(p.y.tolist()))
    np.testing.assert_allclose(s.grid, np.linspace(lo, hi, 300))
    gnb = SkGaussianNB(var_smoothing=0.0).fit(x[:, None], p.y)
    for k, c in enumerate(s.classes):
        np.testing.assert_array_equal(s.class_x[k], x[p.y == c])
        ref = stats.norm.pdf(s.grid, gnb.theta_[k, 0], np.sqrt(gnb.var_[k, 0]))
        np.testing.assert_allclose(s.gaussian_density[k], ref, rtol=1e-6)  # sklearn's variance
        # is accumulated incrementally: equal to ~1e-9
    np.testing.assert_allclose(s.gaussian_posterior, gnb.predict_proba(s.grid[:, None]), rtol=1e-7,
                               atol=1e-12)
    assert s.density_top == pytest.approx(2.2 * s.gaussian_density.max())
    r = study(width=10.0, origin=2.0, alpha=0.5)
    edges = np.arange(np.ceil((lo - 2) / 10) * 10 + 2, hi, 10.0)
    edges = edges[(edges > lo) & (edges < hi)]
    np.testing.assert_allclose(r.edges, edges)
    assert (r.n_bins, r.width, r.alpha) == (edges.size + 1, 10.0, 0.5)
    bins = np.searchsorted(edges, x, side="right")
    sk = SkCategoricalNB(alpha=0.5, min_categories=edges.size + 1).fit(bins[:, None], p.y)
    np.testing.assert_allclose(r.table, np.exp(sk.feature_log_prob_[0]), rtol=1e-9)
    grid_bins = np.searchsorted(edges, s.grid, side="right")
    widths = np.diff(np.concatenate([[lo], edges, [hi]]))
    np.testing.assert_allclose(r.steps, r.table[:, grid_bins] / widths[grid_bins])
    np.testing.assert_allclose(r.posterior, sk.predict_proba(grid_bins[:, None]).T, rtol=1e-9)
    assert r.accuracy_binned == pytest.approx(sk.score(bins[:, None], p.y))
    assert r.accuracy_gaussian == pytest.approx(gnb.score(x[:, None], p.y))
    assert r.edge_segments == [[(e, 0), (e, 1e9)] for e in r.edges]


@pytest.mark.parametrize("params, word", [(dict(width=0.0), "width"),
                                          (dict(width=1000.0), "wider than the whole range"),
                                          (dict(width=0.5, alpha=0.0), "alpha = 0.*0/0"),
                                          (dict(alpha=-1.0), "alpha"), (dict(origin=np.inf), "origin")])
def test_bins_bad_parameters(params, word):
    p = datasets.penguins()
    with pytest.raises(ValueError, match=word):
        DiscretizeStudy(p.X[:, 2], p.y)(**params)
    with pytest.raises(ValueError, match="x"):
        DiscretizeStudy(np.zeros((3, 2)), [0, 1, 0])


# -- notebook 08: naive Bayes against GDA -----------------------------------------------------------
def test_nb_vs_gda_against_sklearn():
    study = NBvsGDAStudy(n=100, seed=3, lim=3.0, n_grid=15)
    s = study.static()
    assert s.lim == 3.0 and s.extent == (-3.0, 3.0, -3.0, 3.0) and s.shape == (15, 15)
    r = study(rho=0.7)
    gen = np.random.default_rng(3)
    X, y = correlated_classes(100, 0.7, gen, sep=1.5)
    Xt, yt = correlated_classes(1000, 0.7, gen, sep=1.5)
    nb = SkGaussianNB(var_smoothing=0.0).fit(X, y)
    assert r.rho == 0.7
    assert r.accuracy_nb == pytest.approx(nb.score(Xt, yt))
    np.testing.assert_allclose(r.nb_var, nb.var_, rtol=1e-7)
    means = [X[y == k].mean(0) for k in (0, 1)]
    R = np.vstack([X[y == k] - means[k] for k in (0, 1)])
    S = R.T @ R / len(y)
    np.testing.assert_allclose(r.gda_cov, S, rtol=1e-9)
    theta = np.linalg.solve(S, means[1] - means[0])
    theta0 = -0.5 * (means[1] @ np.linalg.solve(S, means[1]) - means[0] @ np.linalg.solve(S, means[0]))
    assert r.accuracy_gda == pytest.approx(np.mean(((Xt @ theta + theta0) > 0) == yt))
    for k in (0, 1):
        np.testing.assert_array_equal(r.class_points[k], X[y == k])
        for i, level in enumerate((1.0, 2.0)):
            nb_e, gda_e = r.ellipses[0][2 * k + i], r.ellipses[1][2 * k + i]
            np.testing.assert_allclose(mahalanobis(nb_e, nb.theta_[k], np.diag(nb.var_[k])), level)
            np.testing.assert_allclose(mahalanobis(gda_e, means[k], S), level, rtol=1e-7)
    G = np.column_stack([np.tile(np.linspace(-3, 3, 15), 15), np.repeat(np.linspace(-3, 3, 15), 15)])
    np.testing.assert_array_equal(r.regions[0], nb.predict(G).reshape(15, 15))
    np.testing.assert_array_equal(r.regions[1], ((G @ theta + theta0) > 0).reshape(15, 15))
    with pytest.raises(ValueError, match="rho"):
        study(rho=0.99)


# -- notebook 08: KDE naive Bayes ---------------------------------------------------------------------
def _two_classes(n, n_test, loc_b, scale_b, seed=11):
    """One feature: class "a" ~ N(0, 1), class "b" ~ N(loc_b, scale_b²); ``n`` training and
    ``n_test`` test points per class, drawn in that order from one seeded generator."""
    rng = np.random.default_rng(seed)
    x = np.r_[rng.normal(0, 1, n), rng.normal(loc_b, scale_b, n)]
    xt = np.r_[rng.normal(0, 1, n_test), rng.normal(loc_b, scale_b, n_test)]
    return x, np.repeat(["a", "b"], n), xt, np.repeat(["a", "b"], n_test)


def test_kde_nb_against_scipy():
    x, y, xt, yt = _two_classes(60, 40, 2.5, 0.7)
    study = KDENBStudy(x, y, xt, yt, n_grid=120)
    s = study.static()
    pad = 0.1 * (x.max() - x.min())
    np.testing.assert_allclose(s.grid, np.linspace(x.min() - pad, x.max() + pad, 120))
    assert s.classes == ["a", "b"]
    for k, c in enumerate(s.classes):
        np.testing.assert_array_equal(s.class_x[k], x[y == c])
    gnb = SkGaussianNB(var_smoothing=0.0).fit(x[:, None], y)
    np.testing.assert_allclose(s.gaussian_posterior, gnb.predict_proba(s.grid[:, None]), rtol=1e-6,
                               atol=1e-12)
    ref = np.column_stack([stats.norm.pdf(s.grid, gnb.theta_[k, 0], np.sqrt(gnb.var_[k, 0]))
                           for k in (0, 1)])
    np.testing.assert_allclose(s.gaussian_density, ref, rtol=1e-6)
    assert s.density_top == pytest.approx(1.6 * ref.max())
    assert s.accuracy_gaussian == pytest.approx(gnb.score(xt[:, None], yt))
    r = study(bandwidth=0.4)
    dens = np.column_stack([stats.norm.pdf(s.grid[:, None], x[y == c][None, :], 0.4).mean(axis=1)
                            for c in ("a", "b")])
    np.testing.assert_allclose(r.density, dens, rtol=1e-9)
    post = dens * 0.5 / (dens * 0.5).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(r.posterior, post, rtol=1e-7)
    at_test = np.column_stack([stats.norm.pdf(xt[:, None], x[y == c][None, :], 0.4).mean(axis=1)
                               for c in ("a", "b")])
    assert r.accuracy_kde == pytest.approx(np.mean(np.array(["a", "b"])[at_test.argmax(1)] == yt))
    assert r.bandwidth == 0.4 and r.accuracy_gaussian == s.accuracy_gaussian
    with pytest.raises(ValueError, match="bandwidth"):
        study(bandwidth=0.0)


# -- the building blocks (moved from test_view_studies.py) --------------------------------------------
def test_fit_path_is_the_direct_fit_and_bounded():
    X = [["a", "x"], ["b", "x"], ["a", "y"], ["b", "y"], ["a", "x"]]
    y = [0, 1, 1, 0, 0]
    path = FitPath(CategoricalNB, "alpha", X, y, max_cached=2)
    for a in (0.0, 0.5, 2.0):
        direct = CategoricalNB(alpha=a).fit(X, y)
        np.testing.assert_allclose(path(a).predict_proba(X), direct.predict_proba(X))
    assert len(path._fits) == 2
    with pytest.raises(TypeError, match="estimator"):
        FitPath(CategoricalNB(), "alpha", X, y)
    with pytest.raises(TypeError, match="param"):
        FitPath(CategoricalNB, 3, X, y)
    with pytest.raises(ValueError, match="max_cached"):
        FitPath(MultinomialNB, "alpha", X, y, max_cached=0)


def test_kde_vs_gaussian_nb_accuracy_against_sklearn():
    from sklearn.naive_bayes import GaussianNB as SkGNB

    x, y, xt, yt = _two_classes(80, 50, 2.0, 1.0)
    s = KDEvsGaussianNB(x, y, xt, yt)
    sk = SkGNB(var_smoothing=0.0).fit(x[:, None], y)
    assert s.accuracy_gaussian == pytest.approx(np.mean(sk.predict(xt[:, None]) == yt))
    assert 0.5 < s.kde(0.4).accuracy <= 1.0
    with pytest.raises(ValueError, match="bandwidth"):
        s.kde(0.0)
    with pytest.raises(ValueError, match="y"):
        KDEvsGaussianNB(x, y[:-1])
