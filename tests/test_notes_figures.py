"""The static figures added for the notes' items: the numbers they draw, checked against
independent computations (scipy, brute force)."""

import numpy as np
import pytest
from scipy.stats import gaussian_kde

from genviz.kernel_gallery import GALLERY
from genviz.knn import KNNClassifier
from genviz.plots.kde_static import SLIDES_BUMPS_DATA, histogram_vs_kde_figure, kernel_gallery_figure
from genviz.plots.knn import three_class_nn_figure


def test_kernel_gallery_draws_every_kernel_once():
    fig = kernel_gallery_figure()
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    for name in GALLERY:
        assert sum(label.startswith(name) for label in labels) == 1, name
    for line in fig.axes[0].get_lines():
        assert np.all(np.isfinite(line.get_ydata()))
    assert fig.axes[0].get_ylim()[1] > 35 / 32  # the triweight's peak is not clipped


def test_the_slides_bumps_figure():
    fig = histogram_vs_kde_figure()
    s = fig.bumps_state
    data = np.array(SLIDES_BUMPS_DATA)
    # bins of width 2 from -4: counts 1, 2, 1, 0, 1, 1 (Wikipedia's histogram)
    np.testing.assert_allclose(s["heights"], np.array([1, 2, 1, 0, 1, 1]) / (6 * 2))
    np.testing.assert_allclose(s["edges"], np.arange(-4, 9, 2))
    np.testing.assert_allclose(np.trapezoid(s["bumps"], s["x"]), 1 / 6, atol=2e-4)
    np.testing.assert_allclose(s["bumps"].sum(axis=0), s["kde"], rtol=1e-12)
    oracle = gaussian_kde(data, bw_method=1.5 / data.std(ddof=1))(s["x"])
    np.testing.assert_allclose(s["kde"], oracle, rtol=1e-10, atol=1e-14)
    with pytest.raises(ValueError, match="h"):
        histogram_vs_kde_figure(h=0.0)


def test_fig_1_17_three_classes():
    rng = np.random.default_rng(17)
    centres = np.array([[0.0, 0.0], [3.0, 0.5], [1.5, 2.6]])
    X = np.vstack([c + 0.7 * rng.standard_normal((6, 2)) for c in centres])
    y = np.repeat(["star", "diamond", "triangle"], 6)
    q = np.array([1.6, 1.1])
    fig = three_class_nn_figure(X, y, q)
    d = np.linalg.norm(X - q, axis=1)
    assert fig.nn_state["neighbour"] == int(np.argmin(d))
    assert fig.nn_state["distance"] == pytest.approx(d.min())
    assert fig.nn_state["label"] == y[np.argmin(d)] == KNNClassifier(1).fit(X, y).predict(q[None])[0]
    # markers follow the order of first appearance: star, diamond, triangle
    markers = [c.get_label() for c in fig.axes[0].collections if c.get_label() in set(y)]
    assert markers == ["star", "diamond", "triangle"]
    with pytest.raises(ValueError, match="markers"):
        three_class_nn_figure(np.arange(8.0).reshape(4, 2), ["a", "b", "c", "d"], q)
    with pytest.raises(ValueError, match="query"):
        three_class_nn_figure(X, y, [1.0, 2.0, 3.0])
