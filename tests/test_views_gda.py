"""GDA figures and the GDA-vs-logistic view: the numbers they show, in-place updates, blitting."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.contour import ContourSet

from genviz.gda import GDA
from genviz.logistic import LogisticRegression
from genviz.plots.gda import covariance_figure, gda_figure, posterior_figure
from genviz.plots.gda_vs_logistic import GDAvsLogisticView, learning_curve_figure
from genviz.studies.gda_fits import line_in_box
from genviz.studies.gda_vs_logistic_curves import learning_curves
from genviz.synthetic import DataModel


def sample(family="gaussian", n=200, seed=0):
    m = DataModel(family, [0.0, 0.0], [2.0, 1.0], [[1.0, 0.4], [0.4, 0.8]])
    return m.sample(n, rng=seed)


def rgba(fig):
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


def test_line_in_box():
    xs, ys = line_in_box([1.0, 1.0], 0.0, (-1, 1, -1, 1))  # the diagonal x2 = -x1
    np.testing.assert_allclose(sorted(xs), [-1, 1])
    np.testing.assert_allclose(np.asarray(xs) + np.asarray(ys), 0, atol=1e-12)
    assert line_in_box([1.0, 0.0], -5.0, (-1, 1, -1, 1))[0].size == 0  # misses the box
    xs, ys = line_in_box([0.0, 2.0], -1.0, (-3, 3, -3, 3))  # horizontal x2 = 0.5
    np.testing.assert_allclose(ys, [0.5, 0.5])


def test_gda_figure_draws_the_fitted_model():
    X, y = sample()
    g = GDA().fit(X, y)
    fig = gda_figure(X, y, g, box=(-3, 5, -3, 4))
    ax = fig.axes[0]
    (boundary,) = [l for l in ax.lines if l.get_label().startswith("$p(y=1")]
    theta, theta0 = g.logistic_params()
    np.testing.assert_allclose(boundary.get_xydata() @ theta + theta0, 0, atol=1e-9)
    contours = [c for c in ax.collections if isinstance(c, ContourSet)]
    assert len(contours) == 2  # one Gaussian per class
    (means,) = [l for l in ax.lines if "means" in l.get_label()]
    np.testing.assert_allclose(means.get_xydata(), g.means_)
    assert ax.get_xlim() == (-3, 5)
    plt.close(fig)
    with pytest.raises(ValueError, match="labels 0 and 1"):
        gda_figure(X, y + 1)


def test_posterior_figure_equals_the_sigmoid():
    X, y = sample()
    fig = posterior_figure(GDA().fit(X, y), (-3, 5, -3, 4), n_grid=30)
    assert fig.max_abs_difference < 1e-12
    assert len(fig.axes) == 2
    plt.close(fig)


def test_covariance_figure_line_vs_quadric():
    X, y = sample("gaussian_diff_cov", n=300)
    fig = covariance_figure(X, y)
    assert "linear" in fig.axes[0].get_title() and "quadratic" in fig.axes[1].get_title()
    for ax, shared in zip(fig.axes, (True, False)):
        err = np.mean(GDA(shared_cov=shared).fit(X, y).predict(X) != y)
        assert f"{err:.1%}" in ax.get_title()
    plt.close(fig)


def test_learning_curve_figure_plots_the_means():
    m = DataModel("gaussian", [0, 0], [1, 1], np.eye(2))
    lc = learning_curves(m, [10, 50], n_reps=3, rng=0)
    fig = learning_curve_figure([lc], ["g"])
    ax = fig.axes[0]
    data = [l.get_ydata() for l in ax.lines if len(l.get_ydata()) == 2 and l.get_linestyle() == "-"]
    assert any(np.allclose(d, lc.gda_errors.mean(0)) for d in data)
    assert any(np.allclose(d, lc.lr_errors.mean(0)) for d in data)
    plt.close(fig)
    with pytest.raises(ValueError, match="titles has 2 entries but curves has 1"):
        learning_curve_figure([lc], ["a", "b"])


def test_view_state_matches_independent_fits():
    v = GDAvsLogisticView(n=300, seed=2)
    s = v.state
    X, y = s["X"], s["y"]
    assert s["n_train"] == 300 and len(X) == 300
    g = GDA().fit(X, y)
    theta, theta0 = s["theta_gda"]
    np.testing.assert_allclose(theta, g.logistic_params()[0])
    lr = LogisticRegression().fit(X, y)
    np.testing.assert_allclose(s["theta_lr"][0], lr.coef_)
    # Test errors on the view's test set, recomputed: the default model, test seed = seed + 1.
    model = DataModel("gaussian", [-1.0, -0.5], [1.0, 0.5], [[1.0, 0.3], [0.3, 1.0]], phi=0.5)
    Xt, yt = model.sample(v.n_test, np.random.default_rng(3))
    assert s["errors"]["gda"] == pytest.approx(np.mean(g.predict(Xt) != yt))
    assert s["errors"]["lr"] == pytest.approx(np.mean(lr.predict(Xt) != yt))
    assert s["errors"]["bayes"] <= min(s["errors"]["gda"], s["errors"]["lr"]) + 0.01
    # The drawn lines are the boundaries.
    for key, (th, th0) in (("gda", s["theta_gda"]), ("lr", s["theta_lr"])):
        np.testing.assert_allclose(v._lines[key].get_xydata() @ th + th0, 0, atol=1e-9)
    plt.close(v.fig)


def test_model_toggle_refits_without_resampling():
    v = GDAvsLogisticView(family="gaussian_diff_cov", n=200)
    X = v.state["X"].copy()
    lr = v.state["theta_lr"][0].copy()
    v.update(gda_cov="separate")
    np.testing.assert_array_equal(v.state["X"], X)
    np.testing.assert_array_equal(v.state["theta_lr"][0], lr)
    assert v.state["theta_gda"] is None and v._contours["gda"] is not None
    assert len(v._lines["gda"].get_xydata()) == 0
    v.update(gda_cov="shared")  # back to a line; the contour set is removed, not accumulated
    assert v._contours["gda"] is None
    assert sum(isinstance(c, ContourSet) for c in v.ax.collections) == 1  # Bayes' quadric
    v.update(mu1x=1.5)  # a data parameter: resampled
    assert not np.array_equal(v.state["X"], X)
    plt.close(v.fig)


def test_separable_sample_falls_back_to_l2():
    v = GDAvsLogisticView(mu0x=-2, mu0y=-2, mu1x=2, mu1y=2, sigma1=0.3, sigma2=0.3, n=50)
    assert v.state["separable"] and v.state["lr_l2"] == 1e-3
    coef, intercept = v.state["theta_lr"]
    np.testing.assert_array_equal((v.state["X"] @ coef + intercept > 0).astype(int), v.state["y"])
    plt.close(v.fig)


def test_blit_equals_full_redraw_and_family_change_is_full():
    v = GDAvsLogisticView()
    v.fig.canvas.draw()
    v.update(mu1x=1.6, rho=-0.2)
    assert v.redraw() == "blit"
    blitted = np.asarray(v.fig.canvas.buffer_rgba()).copy()
    np.testing.assert_array_equal(blitted, rgba(v.fig))
    v.update(family="poisson")  # new axis limits
    assert v.redraw() == "full"
    plt.close(v.fig)


def test_view_bad_parameters():
    v = GDAvsLogisticView()
    with pytest.raises(TypeError, match="unknown parameter"):
        v.update(mu2x=1.0)
    with pytest.raises(ValueError, match="family must be one of"):
        v.update(family="uniform")
    with pytest.raises(ValueError, match="gda_cov must be"):
        v.update(gda_cov="diagonal")
    with pytest.raises(ValueError, match="phi must be < 1"):
        v.update(phi=1.0)
    with pytest.raises(ValueError, match="fewer than 2 points in a class"):
        v.update(phi=0.01, n=20)
    plt.close(v.fig)
