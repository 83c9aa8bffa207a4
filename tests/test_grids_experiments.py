"""The model-layer pieces that issue 15 took out of views: grids, scoring, the NB-vs-GDA
experiment and its data, random-projection distances, the one regions figure."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import pdist, squareform
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.metrics import accuracy_score
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from genviz.studies.naive_bayes_experiments import bin_edges, discretization, nb_vs_gda
from genviz.grids import data_box, grid_2d
from genviz.model_selection import accuracy
from genviz.projections import distinct_pairs, pairwise_sq_distances
from genviz.synthetic import correlated_classes


# -- grids ------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(x0=st.floats(-10, 10), w=st.floats(0.1, 10), y0=st.floats(-10, 10), h=st.floats(0.1, 10),
       n=st.integers(2, 9), ny=st.integers(2, 9))
def test_grid_matches_meshgrid(x0, w, y0, h, n, ny):
    g = grid_2d((x0, x0 + w, y0, y0 + h), n, ny)
    xs, ys = np.linspace(x0, x0 + w, n), np.linspace(y0, y0 + h, ny)
    GX, GY = np.meshgrid(xs, ys)  # the oracle: numpy's own layout
    np.testing.assert_array_equal(g.points, np.column_stack([GX.ravel(), GY.ravel()]))
    np.testing.assert_array_equal(g.mesh[0], GX)
    np.testing.assert_array_equal(g.mesh[1], GY)
    assert g.shape == GX.shape
    np.testing.assert_array_equal(g.evaluate(lambda P: P[:, 0] * 10 + P[:, 1]), GX * 10 + GY)
    assert g.extent == (xs[0], xs[-1], ys[0], ys[-1])


def test_grid_square_and_bad_input():
    assert grid_2d(2.0, 5).extent == (-2.0, 2.0, -2.0, 2.0)
    with pytest.raises(ValueError, match="box must have x0 < x1"):
        grid_2d((1.0, 0.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="box must be four finite numbers"):
        grid_2d((0.0, 1.0, 0.0))
    with pytest.raises(ValueError, match="box must be four finite numbers"):
        grid_2d((0.0, np.inf, 0.0, 1.0))
    with pytest.raises(ValueError, match="box must be > 0"):
        grid_2d(0.0)
    with pytest.raises(ValueError, match="n must be >= 2"):
        grid_2d(1.0, 1)
    with pytest.raises(ValueError, match="values must have one entry per grid point"):
        grid_2d(1.0, 3).reshape(np.zeros(8))


def test_data_box():
    X = np.array([[0.0, 1.0], [4.0, 3.0]])
    assert data_box(X) == (0.0, 4.0, 1.0, 3.0)
    assert data_box(X, pad=1.0, rel_pad=0.25) == (-2.0, 6.0, -0.5, 4.5)
    with pytest.raises(ValueError, match="span no area"):
        data_box([[0.0, 1.0], [4.0, 1.0]])
    with pytest.raises(ValueError, match="pad must be >= 0"):
        data_box(X, pad=-1.0)
    with pytest.raises(ValueError, match="X"):
        data_box(np.zeros((3, 3)))


# -- scoring ----------------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=40))
def test_accuracy_against_sklearn(pairs):
    t, p = map(np.array, zip(*pairs))
    assert accuracy(t, p) == pytest.approx(accuracy_score(t, p))


def test_accuracy_bad_input():
    with pytest.raises(ValueError, match="y_true and y_pred must be non-empty 1-D"):
        accuracy([1, 2], [1])
    with pytest.raises(ValueError, match="y_true and y_pred"):
        accuracy([], [])


# -- projections' public distance helpers (the view used a private one) ------------------------
@settings(max_examples=20, deadline=None)
@given(st.integers(2, 12), st.integers(1, 4), st.integers(0, 10**6))
def test_pairwise_sq_distances_against_scipy(m, d, seed):
    X = np.random.default_rng(seed).normal(size=(m, d))
    sq = pairwise_sq_distances(X)
    np.testing.assert_allclose(squareform(sq), squareform(pdist(X)) ** 2, rtol=1e-12, atol=1e-12)
    assert distinct_pairs(sq).all()


def test_distinct_pairs_and_bad_input():
    sq = pairwise_sq_distances([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]])
    assert distinct_pairs(sq).tolist() == [False, True, True]
    with pytest.raises(ValueError, match="X"):
        pairwise_sq_distances([[0.0, np.nan]])
    with pytest.raises(ValueError, match="sq_dist"):
        distinct_pairs([[1.0]])


# -- the naive Bayes vs GDA experiment (notebook 08) ------------------------------------------
def test_correlated_classes_moments():
    X, y = correlated_classes(20000, 0.7, rng=1, sep=2.0)
    assert y.tolist() == [0] * 20000 + [1] * 20000
    for k, mean in ((0, [-1.0, 0.0]), (1, [1.0, 0.0])):
        np.testing.assert_allclose(X[y == k].mean(axis=0), mean, atol=0.03)
        np.testing.assert_allclose(np.cov(X[y == k].T), [[1.0, 0.7], [0.7, 1.0]], atol=0.03)
    # same seed, other rho: the same standard normals, so the first coordinate does not move
    X2, _ = correlated_classes(20000, -0.3, rng=1, sep=2.0)
    np.testing.assert_array_equal(X[:, 0], X2[:, 0])


def test_correlated_classes_bad_input():
    with pytest.raises(ValueError, match="rho must be < 1"):
        correlated_classes(5, 1.0, rng=0)
    with pytest.raises(ValueError, match="n_per_class must be >= 1"):
        correlated_classes(0, 0.5, rng=0)
    with pytest.raises(ValueError, match="sep must be >= 0"):
        correlated_classes(5, 0.5, rng=0, sep=-1.0)


def test_nb_vs_gda_against_sklearn():
    r = nb_vs_gda(0.8, n=150, n_test=500, seed=3)
    sk_nb = SkGaussianNB(var_smoothing=0.0).fit(r.X, r.y)
    sk_lda = LinearDiscriminantAnalysis(solver="lsqr").fit(r.X, r.y)
    assert r.accuracy_nb == pytest.approx(sk_nb.score(r.X_test, r.y_test), abs=2 / 1000)
    assert r.accuracy_gda == pytest.approx(sk_lda.score(r.X_test, r.y_test), abs=2 / 1000)
    assert r.X.shape == (300, 2) and r.X_test.shape == (1000, 2)
    assert r.accuracy_gda > r.accuracy_nb + 0.05  # the correlation is what naive Bayes misses
    with pytest.raises(ValueError, match="n_test must be >= 1"):
        nb_vs_gda(0.5, n_test=0)


# -- one decision-regions figure for every topic ---------------------------------------------
def test_one_decision_regions_figure_is_re_exported_by_both_topics():
    from genviz.plots import knn, naive_bayes, regions
    assert knn.decision_regions_figure is naive_bayes.decision_regions_figure \
        is regions.decision_regions_figure


def test_decision_regions_figure_regions_and_bad_input():
    from genviz.knn import KNNClassifier
    from genviz.plots.regions import decision_regions_figure

    X = np.array([[-1.0, 0.0], [-1.2, 0.3], [1.0, 0.0], [1.1, -0.2]])
    y = np.array(["left", "left", "right", "right"])
    model = KNNClassifier(1).fit(X, y)
    fig, acc = decision_regions_figure({"1-NN": model}, X, y, lim=2.0, n_grid=21)
    assert acc == {"1-NN": 1.0}
    img = fig.axes[0].images[0].get_array()
    assert img[10, 0] == 0 and img[10, -1] == 1  # left half class "left", right half "right"
    assert "training accuracy" in fig.axes[0].get_title()
    with pytest.raises(ValueError, match="pass both X_test and y_test"):
        decision_regions_figure({"1-NN": model}, X, y, X)
    with pytest.raises(ValueError, match="y has 2 labels but X has 4 rows"):
        decision_regions_figure({"1-NN": model}, X, y[:2])


# -- discretisation (notebook 08) --------------------------------------------------------------
def test_bin_edges_against_a_direct_enumeration():
    edges = bin_edges(172.0, 231.0, 10.0)
    assert edges.tolist() == [180.0, 190.0, 200.0, 210.0, 220.0, 230.0]
    np.testing.assert_allclose(bin_edges(0.0, 1.0, 0.25, origin=0.1), [0.1, 0.35, 0.6, 0.85])
    with pytest.raises(ValueError, match="wider than the whole range"):
        bin_edges(0.0, 1.0, 5.0, origin=0.5 + 5.0 / 2)
    with pytest.raises(ValueError, match="makes 1001 bins"):
        bin_edges(0.0, 1.0, 0.001, origin=0.0005)
    with pytest.raises(ValueError, match="low must be < high"):
        bin_edges(1.0, 1.0, 0.1)
    with pytest.raises(ValueError, match="width must be > 0"):
        bin_edges(0.0, 1.0, 0.0)


def test_discretization_against_sklearn():
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB

    from genviz import datasets
    from genviz.naive_bayes import discretize

    p = datasets.penguins()
    x, y = p.X[:, 2], p.y
    d = discretization(x, y, width=5.0, alpha=1.0)
    codes = discretize(x, d.edges)[:, None] - 1
    sk = SkCategoricalNB(alpha=1.0, min_categories=d.n_bins).fit(codes, y)
    assert d.accuracy_binned == pytest.approx(sk.score(codes, y))
    assert d.accuracy_gaussian == pytest.approx(SkGaussianNB(var_smoothing=0.0).fit(x[:, None], y)
                                                .score(x[:, None], y))
    assert d.n_bins == d.edges.size + 1 == 14
    with pytest.raises(ValueError, match="y must have one label per value of x"):
        discretization(x, y[:-1], width=5.0)
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        discretization(x, y, width=5.0, alpha=-1.0)
    with pytest.raises(TypeError, match="leave_one_out must be True or False"):
        discretization(x, y, width=5.0, leave_one_out="yes")
    assert d.loo_binned is None and d.loo_gaussian is None


def test_discretizations_leave_one_out_against_sklearns():
    from sklearn.model_selection import LeaveOneOut, cross_val_score
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB

    from genviz import datasets
    from genviz.naive_bayes import discretize

    p = datasets.penguins()
    x, y = p.X[::3, 2], p.y[::3]
    for width in (2.0, 10.0):
        d = discretization(x, y, width=width, alpha=1.0, leave_one_out=True)
        codes = discretize(x, d.edges)[:, None] - 1
        ref = cross_val_score(SkCategoricalNB(alpha=1.0, min_categories=d.n_bins), codes, y,
                              cv=LeaveOneOut()).mean()
        assert d.loo_binned == pytest.approx(ref, abs=1e-12)
        assert d.loo_gaussian == pytest.approx(
            cross_val_score(SkGaussianNB(var_smoothing=0.0), x[:, None], y, cv=LeaveOneOut()).mean(),
            abs=1e-12)
