"""Views of k-NN and random projections: the numbers they show, against independent oracles."""

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from threadpoolctl import threadpool_limits

from genviz.knn import KNNClassifier
from genviz.projections import jl_min_dim, random_projection
from genviz.synthetic import flip_labels, regression_data, two_class_data
from genviz.plots.knn import (KNNClassificationView, KNNRegressionView, ProjectionView,
                              decision_regions_figure)


@pytest.fixture(autouse=True)
def _one_thread():
    """scikit-learn's OpenMP pool costs ~0.2 s per call on a busy 2-core machine; one thread."""
    with threadpool_limits(1):
        yield


@pytest.fixture(scope="module")
def data():
    X, y = two_class_data(120, rng=0)
    T, yt = two_class_data(400, rng=1)
    return X, y, T, yt


def test_classification_view_matches_sklearn_on_the_grid(data):
    X, y, T, yt = data
    v = KNNClassificationView(X, y, T, yt, k=5, noise=0.2, k_max=15, n_grid=41, lim=3.0)
    yn, flipped = flip_labels(y, 0.2, 2, rng=0)
    np.testing.assert_array_equal(v.state["labels"], yn)
    assert v.state["n_flipped"] == 24 == flipped.sum()
    xs = np.linspace(-3, 3, 41)
    gx, gy = np.meshgrid(xs, xs)
    G = np.column_stack([gx.ravel(), gy.ravel()])
    for k in (1, 4, 5, 15):
        v.update(k=k)
        sk = KNeighborsClassifier(k, algorithm="brute").fit(X, yn)
        votes = np.round(sk.predict_proba(G)[:, 1] * k).astype(int)
        np.testing.assert_array_equal(v.state["votes"].ravel(), votes)
        np.testing.assert_array_equal(v.state["majority"].ravel(), sk.predict(G))  # 2:2 -> class 0
        np.testing.assert_array_equal(v.state["one_nn"].ravel(),
                                      KNeighborsClassifier(1, algorithm="brute").fit(X, yn).predict(G))
        assert v.state["test_accuracy"] == pytest.approx(sk.score(T, yt))
        assert v.state["train_error"] == pytest.approx(1 - sk.score(X, yn))
    v.update(qx=1.0, qy=-0.5, k=6)
    d, i = KNeighborsClassifier(6, algorithm="brute").fit(X, yn).kneighbors([[1.0, -0.5]])
    np.testing.assert_array_equal(v.state["query_neighbors"], i[0])
    assert v.state["query_radius"] == pytest.approx(d[0, -1])
    assert v.state["query_votes"].sum() == 6
    xy = v._ring.get_xydata()
    np.testing.assert_allclose(xy, X[i[0]])


def test_noise_breaks_1nn_and_larger_k_recovers_in_the_view(data):
    X, y, T, yt = data
    v = KNNClassificationView(X, y, T, yt, k=1, noise=0.0, k_max=31, n_grid=21)
    clean = v.state["test_accuracy_1nn"]
    v.update(noise=0.3)
    noisy_1nn = v.state["test_accuracy_1nn"]
    v.update(k=31)
    assert noisy_1nn < clean - 0.1 and v.state["test_accuracy"] > noisy_1nn + 0.1


def test_classification_view_errors_and_blitting(data):
    X, y, T, yt = data
    v = KNNClassificationView(X, y, k=3, k_max=10, n_grid=21)
    with pytest.raises(ValueError, match="k = 11 exceeds k_max = 10"):
        v.update(k=11)
    with pytest.raises(ValueError, match="noise must be <= 1"):
        v.update(noise=1.5)
    with pytest.raises(TypeError, match="unknown parameter"):
        v.update(sigma=1)
    with pytest.raises(ValueError, match="y must hold only the labels 0 and 1"):
        KNNClassificationView(X, y + 1)
    assert np.isnan(v.state["test_accuracy"])
    v.fig.canvas.draw()
    v.update(k=5)
    assert v.redraw() == "blit"


def test_regression_view_matches_sklearn():
    x, y = regression_data(80, rng=3)
    v = KNNRegressionView(x, y, k=7, n_grid=200)
    for k in (1, 7, 20):
        v.update(k=k)
        ref = KNeighborsRegressor(k, algorithm="brute").fit(x[:, None], y).predict(v.x_grid[:, None])
        np.testing.assert_allclose(v.state["fit_k"], ref)
        np.testing.assert_allclose(v._line.get_ydata(), ref)
    v.update(k=7)
    assert v.state["mse_k"] < v.state["mse_1"]  # the notes: the 7-NN estimate is much smoother
    with pytest.raises(ValueError, match="k must be >= 1"):
        v.update(k=0)
    with pytest.raises(ValueError, match="y has length 3 but 80"):
        KNNRegressionView(x, y[:3])


def test_projection_view_ratios_against_scipy():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 30))
    v = ProjectionView(X, d=12, eps=0.4, d_max=30, seed=5)
    R = random_projection(12, 30, rng=5, scaling="jl")
    np.testing.assert_allclose(v.state["ratios"], pdist(X @ R.T) / pdist(X))
    assert v.state["jl_dim"] == jl_min_dim(40, 0.4)
    assert v.state["stats"]["within"] == pytest.approx(np.mean(np.abs(v.state["ratios"] - 1) <= 0.4))
    assert v._band[0].get_xdata()[0] == pytest.approx(0.6)
    assert v.state["std"][-1] < v.state["std"][3]  # concentrates as d grows
    with pytest.raises(ValueError, match="d = 31 exceeds d_max = 30"):
        v.update(d=31)
    with pytest.raises(ValueError, match="eps must be < 1"):
        v.update(eps=1.0)
    with pytest.raises(ValueError, match="X needs at least 2 points"):
        ProjectionView(X[:1])


def test_decision_regions_figure(data):
    X, y, T, yt = data
    fig, acc = decision_regions_figure({"1-NN": KNNClassifier(1).fit(X, y)}, X, y, T, yt, n_grid=31)
    assert acc["1-NN"] == pytest.approx(KNeighborsClassifier(1).fit(X, y).score(T, yt))
    assert "test accuracy" in fig.axes[0].get_title()
    with pytest.raises(ValueError, match="models is empty"):
        decision_regions_figure({}, X, y)


# -- the alt-text case of notebook 09's regression view (tests/test_describe.py reads it) --------
def alt_text_case_knn_regression():
    """The view, the numbers its describe() must say, and an update that changes them."""
    from genviz.plots._base import fmt

    x, y = regression_data(60, rng=0)
    v = KNNRegressionView(x, y, k=7, n_grid=100)
    return v, ["k = 7", "60 points", fmt(v.state["mse_k"]), fmt(v.state["mse_1"])], dict(k=3)
