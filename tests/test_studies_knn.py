"""genviz.studies.knn against scikit-learn's nearest neighbours (classifier, regressor, 1-NN)
and brute force; label noise is flip_labels, cached and nested (hypothesis); bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from threadpoolctl import threadpool_limits

from genviz.knn import SortedNeighbors, majority_vote, nearest_neighbor_predict, votes_at_k
from genviz.studies.knn import (KNNClassificationStudy, KNNRegressionStudy, LabelNoise,
                                three_class_nn_figure_study)
from genviz.synthetic import flip_labels, regression_data, regression_truth, two_class_data

SETTINGS = settings(max_examples=25, deadline=None)


@pytest.fixture(autouse=True)
def _one_thread():
    """scikit-learn's OpenMP pool costs ~0.2 s per call on a busy 2-core machine; one thread."""
    with threadpool_limits(1):
        yield


# -- Figure 1.18: every field of the classification study ------------------------------------------
def test_classification_study_against_sklearn():
    X, y = two_class_data(100, rng=0)
    T, yt = two_class_data(300, rng=1)
    study = KNNClassificationStudy(X, y, T, yt, k_max=15, lim=3.0, n_grid=21, noise_seed=2)
    s = study.static()
    np.testing.assert_array_equal(s.X, X)
    assert (s.lim, s.n_grid, s.k_max) == (3.0, 21, 15)
    xs = np.linspace(-3, 3, 21)
    G = np.column_stack([np.tile(xs, 21), np.repeat(xs, 21)])
    for k, noise, q in ((1, 0.0, (0.0, 0.0)), (5, 0.2, (1.0, -0.5)), (15, 0.4, (-2.0, 2.5))):
        r = study(k=k, noise=noise, qx=q[0], qy=q[1])
        yn, flipped = flip_labels(y, noise, 2, rng=2)
        np.testing.assert_array_equal(r.labels, yn)
        np.testing.assert_array_equal(r.flipped, flipped)
        assert (r.k, r.noise, r.n_flipped) == (k, noise, int(flipped.sum()))
        sk = KNeighborsClassifier(k, algorithm="brute").fit(X, yn)
        votes = np.round(sk.predict_proba(G)[:, 1] * k).astype(int).reshape(21, 21)
        np.testing.assert_array_equal(r.votes, votes)
        np.testing.assert_allclose(r.vote_share, votes / k)
        np.testing.assert_array_equal(r.majority, sk.predict(G).reshape(21, 21))
        one = KNeighborsClassifier(1, algorithm="brute").fit(X, yn)
        np.testing.assert_array_equal(r.one_nn, one.predict(G).reshape(21, 21))
        for c in (0, 1):
            np.testing.assert_array_equal(r.class_points[c], X[yn == c])
        np.testing.assert_array_equal(r.flipped_points, X[flipped])
        assert r.train_error == pytest.approx(1 - sk.score(X, yn))
        assert r.test_accuracy == pytest.approx(sk.score(T, yt))
        assert r.test_accuracy_1nn == pytest.approx(one.score(T, yt))
        assert r.has_test_set
        d, i = sk.kneighbors([q])
        np.testing.assert_array_equal(r.query, q)
        np.testing.assert_array_equal(r.query_neighbors, i[0])
        np.testing.assert_array_equal(r.neighbor_points, X[i[0]])
        np.testing.assert_array_equal(r.query_votes, np.bincount(yn[i[0]], minlength=2))
        assert r.query_class == sk.predict([q])[0]
        assert r.query_radius == pytest.approx(d[0, -1])
        cx, cy = r.circle
        np.testing.assert_allclose(np.hypot(cx - q[0], cy - q[1]), d[0, -1])
    bare = KNNClassificationStudy(X, y, k_max=3, n_grid=5)(k=3)
    assert not bare.has_test_set and np.isnan(bare.test_accuracy) and np.isnan(bare.test_accuracy_1nn)


@pytest.mark.parametrize("kwargs, params, error, word", [
    (dict(k_max=10), dict(k=11), ValueError, "k = 11 exceeds k_max = 10"),
    (dict(), dict(k=0), ValueError, "k"),
    (dict(), dict(noise=1.5), ValueError, "noise"),
    (dict(), dict(qx="a"), TypeError, "qx"),
    (dict(k_max=1000), None, ValueError, "k_max"),
    (dict(lim=0.0), None, ValueError, "lim"),
    (dict(n_grid=2), None, ValueError, "n_grid"),
    (dict(noise_seed=-1), None, ValueError, "noise_seed"),
])
def test_classification_study_bad_input(kwargs, params, error, word):
    X, y = two_class_data(40, rng=0)
    with pytest.raises(error, match=word):
        KNNClassificationStudy(X, y, **{"n_grid": 5, **kwargs})(**(params or {}))
    with pytest.raises(ValueError, match="y_test"):
        KNNClassificationStudy(X, y, X[:5], y[:4], n_grid=5)
    with pytest.raises(ValueError, match="labels 0 and 1"):
        KNNClassificationStudy(X, y + 1, n_grid=5)


# -- Figure 1.19: regression --------------------------------------------------------------------------
def test_regression_study_against_sklearn():
    x, y = regression_data(80, rng=3)
    study = KNNRegressionStudy(x, y, k_max=40, n_grid=200)
    s = study.static()
    lo, hi = x.min(), x.max()
    grid = np.linspace(lo - 0.02 * (hi - lo), hi + 0.02 * (hi - lo), 200)
    np.testing.assert_allclose(s.x_grid, grid)
    np.testing.assert_array_equal(s.x, x)
    np.testing.assert_array_equal(s.y, y)
    np.testing.assert_allclose(s.truth, regression_truth(grid))
    one = KNeighborsRegressor(1, algorithm="brute").fit(x[:, None], y).predict(grid[:, None])
    np.testing.assert_allclose(s.fit_1, one)
    for k in (1, 7, 40):
        r = study(k=k)
        ref = KNeighborsRegressor(k, algorithm="brute").fit(x[:, None], y).predict(grid[:, None])
        assert r.k == k and r.has_truth
        np.testing.assert_allclose(r.x_grid, grid)
        np.testing.assert_allclose(r.fit_1, one)
        np.testing.assert_allclose(r.fit_k, ref)
        assert r.mse_k == pytest.approx(np.mean((ref - regression_truth(grid)) ** 2))
        assert r.mse_1 == pytest.approx(np.mean((one - regression_truth(grid)) ** 2))
    r = KNNRegressionStudy(x, y, truth=False, n_grid=20)(k=3)
    assert not r.has_truth and np.isnan(r.mse_k) and np.isnan(r.mse_1)
    assert KNNRegressionStudy(x, y, truth=False).static().truth is None


@pytest.mark.parametrize("args, kwargs, params, word", [
    ((np.zeros(3), np.zeros(2)), {}, None, "y"),
    ((np.arange(5.0), np.zeros(5)), dict(k_max=6), None, "k_max"),
    ((np.arange(5.0), np.zeros(5)), dict(k_max=3, n_grid=1), None, "n_grid"),
    ((np.arange(5.0), np.zeros(5)), dict(k_max=3), dict(k=4), "k = 4 exceeds k_max = 3"),
])
def test_regression_study_bad_input(args, kwargs, params, word):
    with pytest.raises(ValueError, match=word):
        KNNRegressionStudy(*args, **kwargs)(**(params or {}))


# -- Smola's Figure 1.17 --------------------------------------------------------------------------------
def test_three_class_nn_against_sklearn():
    rng = np.random.default_rng(17)
    X = np.vstack([c + 0.7 * rng.standard_normal((6, 2)) for c in ([0, 0], [3, 0.5], [1.5, 2.6])])
    y = np.repeat(["star", "diamond", "triangle"], 6)
    r = three_class_nn_figure_study(X, y, [1.6, 1.1], names=["S", "D", "T"], n_grid=40)
    assert r.labels.tolist() == ["star", "diamond", "triangle"] and r.names == ["S", "D", "T"]
    assert r.markers == ["*", "D", "^"]
    lo, hi = X.min(axis=0) - 1.0, X.max(axis=0) + 1.0
    np.testing.assert_allclose(r.box, (lo[0], hi[0], lo[1], hi[1]))
    np.testing.assert_allclose(r.xs, np.linspace(lo[0], hi[0], 40))
    np.testing.assert_allclose(r.ys, np.linspace(lo[1], hi[1], 40))
    sk = KNeighborsClassifier(1, algorithm="brute").fit(X, y)
    G = np.column_stack([np.tile(r.xs, 40), np.repeat(r.ys, 40)])
    code = {"star": 0, "diamond": 1, "triangle": 2}
    np.testing.assert_array_equal(r.region, np.vectorize(code.get)(sk.predict(G)).reshape(40, 40))
    np.testing.assert_allclose(r.region_levels, [0.5, 1.5, 2.5])
    for pts, lab in zip(r.class_points, r.labels):
        np.testing.assert_array_equal(pts, X[y == lab])
    np.testing.assert_array_equal(r.query, [[1.6, 1.1]])
    d, i = sk.kneighbors([[1.6, 1.1]])
    np.testing.assert_array_equal(r.neighbour_point, X[i[0, 0]])
    assert r.nn_state == {"neighbour": i[0, 0], "distance": pytest.approx(d[0, 0]),
                          "label": y[i[0, 0]]}
    assert r.neighbour_name == {"star": "S", "diamond": "D", "triangle": "T"}[y[i[0, 0]]]
    with pytest.raises(ValueError, match="markers"):
        three_class_nn_figure_study(X, y, [0, 0], markers=("o", "x"))
    with pytest.raises(ValueError, match="query a 2-vector"):
        three_class_nn_figure_study(X, y, [0, 0, 0])


# -- k-NN votes per k ------------------------------------------------------------------------------
def test_votes_at_k_match_sklearn_for_every_k():
    rng = np.random.default_rng(5)
    X, Q = rng.normal(size=(60, 2)), rng.normal(size=(200, 2))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    nb = SortedNeighbors(Q, X, 25)
    for k in range(1, 26):
        sk = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X, y)
        v = votes_at_k(nb, y, 2, k)
        np.testing.assert_array_equal(v.prediction, sk.predict(Q))
        np.testing.assert_allclose(v.counts / k, sk.predict_proba(Q))


@SETTINGS
@given(st.lists(st.lists(st.integers(0, 9), min_size=3, max_size=3), min_size=1, max_size=20))
def test_majority_vote_is_the_argmax_with_ties_to_the_smallest_code(rows):
    counts = np.array(rows)
    got = majority_vote(counts)
    for row, g in zip(rows, got):
        assert row[g] == max(row) and all(row[j] < max(row) for j in range(g))


@SETTINGS
@given(st.lists(st.integers(0, 1), min_size=1, max_size=30), st.integers(1, 30))
def test_binary_majority_is_the_strict_half(labels, k):
    k = min(k, len(labels))
    v1 = sum(labels[:k])
    assert majority_vote([[k - v1, v1]])[0] == int(2 * v1 > k)


@pytest.mark.parametrize("counts", [[1, 2], [[0.5, 1.0]], [["a", "b"]], np.zeros((2, 0), int)])
def test_majority_vote_bad_counts(counts):
    with pytest.raises(ValueError, match="counts"):
        majority_vote(counts)


def test_votes_at_k_bad_input():
    nb = SortedNeighbors([[0.0]], [[1.0], [2.0]], 2)
    with pytest.raises(TypeError, match="neighbors"):
        votes_at_k(np.zeros((1, 2), int), [0, 1], 2, 1)
    with pytest.raises(ValueError, match="k"):
        votes_at_k(nb, [0, 1], 2, 3)


def test_nearest_neighbor_predict_matches_sklearn():
    rng = np.random.default_rng(6)
    X, Q = rng.normal(size=(40, 2)), rng.normal(size=(50, 2))
    y = np.array(["a", "b", "c"])[rng.integers(0, 3, 40)]
    labels, dist, ind = nearest_neighbor_predict(X, y, Q, 1)
    sk = KNeighborsClassifier(1, algorithm="brute").fit(X, y)
    np.testing.assert_array_equal(labels, sk.predict(Q))
    sd, si = sk.kneighbors(Q)
    np.testing.assert_array_equal(ind, si)
    np.testing.assert_allclose(dist, sd)
    with pytest.raises(ValueError, match="k"):
        nearest_neighbor_predict(X, y, Q, 41)


# -- label noise (moved from test_view_studies.py) ------------------------------------------
def test_label_noise_is_flip_labels_cached():
    y = np.repeat([0, 1], 50)
    noise = LabelNoise(y, 2, seed=3)
    for f in (0.0, 0.1, 0.35, 1.0):
        got = noise(f)
        want = flip_labels(y, f, 2, rng=3)
        np.testing.assert_array_equal(got[0], want[0])
        assert noise(f) is got


@SETTINGS
@given(st.floats(0, 1), st.floats(0, 1))
def test_label_noise_sets_are_nested(a, b):
    noise = LabelNoise(np.repeat([0, 1, 2], 20), 3, seed=0)
    lo, hi = sorted((a, b))
    assert np.all(noise(hi)[1][noise(lo)[1]])


@pytest.mark.parametrize("args, error, word", [
    (([0.5, 1.0], 2), ValueError, "y_codes"), (([0, 1], 1), ValueError, "n_classes"),
    (([0, 1], 2, -1), ValueError, "seed")])
def test_label_noise_bad_input(args, error, word):
    with pytest.raises(error, match=word):
        LabelNoise(*args)
    with pytest.raises(ValueError, match="fraction"):
        LabelNoise([0, 1], 2)(1.5)
