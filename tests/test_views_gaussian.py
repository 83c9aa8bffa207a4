"""GaussianView and gaussian_figure: the numbers they show, in-place updates, blitting."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from mpl_toolkits.mplot3d.art3d import Poly3DCollection
from scipy.stats import multivariate_normal

from genviz.gaussian import mahalanobis
from genviz.plots._base import figure_png
from genviz.plots.gaussian import GaussianView, gaussian_figure
from genviz.studies.gaussian import _nice_zmax


def rgba(fig):
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


def test_state_matches_closed_forms_and_scipy():
    v = GaussianView(mu1=0.5, mu2=-1.0, sigma1=1.5, sigma2=0.8, rho=-0.6)
    s = v.state
    cov = np.array([[2.25, -0.72], [-0.72, 0.64]])
    np.testing.assert_allclose(s["cov"], cov)
    assert s["det"] == pytest.approx(np.linalg.det(cov), rel=1e-12)
    np.testing.assert_allclose(s["eigvals"], np.linalg.eigvalsh(cov)[::-1], rtol=1e-12)
    ref = multivariate_normal([0.5, -1.0], cov)
    assert s["peak"] == pytest.approx(ref.pdf([0.5, -1.0]), rel=1e-12)
    xs = v._xs_img
    XX, YY = np.meshgrid(xs, xs)
    np.testing.assert_allclose(s["image"], ref.pdf(np.dstack([XX, YY])), rtol=1e-10, atol=1e-15)
    # The drawn ellipses are the 1, 2, 3-sigma contours.
    for line, k in zip(v._ellipses, v.K_SIGMAS):
        np.testing.assert_allclose(mahalanobis(line.get_xydata(), [0.5, -1.0], cov), k, rtol=1e-10)
    # The principal-axis segments have half-lengths sqrt(lambda_i).
    for line, lam in zip(v._axes_lines, s["eigvals"]):
        xy = line.get_xydata()
        assert np.linalg.norm(xy[1] - xy[0]) / 2 == pytest.approx(np.sqrt(lam), rel=1e-12)
    # Samples are drawn from the current distribution (n = 200: loose check).
    np.testing.assert_allclose(s["sample_mean"], [0.5, -1.0], atol=0.3)
    np.testing.assert_allclose(np.asarray(v._samples.get_offsets()), s["samples"])


def test_update_is_in_place_and_partial():
    v = GaussianView()
    n_figs = len(plt.get_fignums())
    image, samples, lines = v._image, v._samples, list(v._ellipses)
    v.update(rho=0.7)
    assert v.params["rho"] == 0.7 and v.params["sigma1"] == 1.0
    assert v._image is image and v._samples is samples and v._ellipses == lines
    assert len(plt.get_fignums()) == n_figs
    # The surface is re-created, never accumulated.
    assert sum(isinstance(c, Poly3DCollection) for c in v.ax3d.collections) == 1
    with pytest.raises(TypeError, match="unknown parameter"):
        v.update(mu3=1.0)
    with pytest.raises(ValueError, match="rho must be < 1"):
        v.update(rho=1.0)


def test_same_seed_gives_continuous_samples():
    v = GaussianView(seed=3)
    a = v.state["samples"].copy()
    v.update(mu1=1.0)
    np.testing.assert_allclose(v.state["samples"], a + [1.0, 0.0])


def test_blit_equals_full_redraw():
    v = GaussianView()
    v.fig.canvas.draw()  # caches the background
    v.update(rho=0.6, mu1=1.0)
    assert v.redraw() == "blit"
    blitted = np.asarray(v.fig.canvas.buffer_rgba()).copy()
    np.testing.assert_array_equal(blitted, rgba(v.fig))


def test_axes_change_forces_full_redraw():
    v = GaussianView()
    v.fig.canvas.draw()
    v.update(sigma1=0.5, sigma2=0.5, rho=0.9)  # peak 2.9 > 0.25: z-axis grows
    assert v.redraw() == "full"


def test_nice_zmax_is_quantised():
    assert _nice_zmax(0.159) == 0.25
    assert _nice_zmax(0.3) == 0.5
    assert _nice_zmax(2.9) == 4.0


def test_banner_is_drawn_and_cleared():
    v = GaussianView(surface=False)
    before = rgba(v.fig)
    v.show_message("Cannot draw this")
    assert v.message == "Cannot draw this"
    assert (rgba(v.fig) != before).any()
    v.clear_message()
    assert v.message == ""
    np.testing.assert_array_equal(rgba(v.fig), before)


def test_savefig_includes_animated_artists():
    v = GaussianView(surface=False, n_samples=0)
    empty = GaussianView(surface=False, n_samples=0)
    empty._image.set_visible(False)
    assert figure_png(v.fig) != figure_png(empty.fig)


@pytest.mark.parametrize("kind", ["surface", "contour"])
def test_gaussian_figure_panels(kind):
    params = [([0, 0], np.eye(2)), ([0, 0], 0.6 * np.eye(2)), ([0, 0], 2 * np.eye(2))]
    fig = gaussian_figure(params, kind=kind)
    assert len(fig.axes) == 3
    for ax, (_, cov) in zip(fig.axes, params):
        assert ax.get_xlim() == (-3.0, 3.0)
        peak = 1 / (2 * np.pi * np.sqrt(np.linalg.det(cov)))
        if kind == "surface":
            assert ax.get_zlim()[1] == pytest.approx(max(0.25, 1.05 * peak))
        else:
            (cs,) = [c for c in ax.collections]
            assert max(cs.levels) < peak and min(cs.levels) > 0


def test_gaussian_figure_bad_input():
    with pytest.raises(ValueError, match="kind must be"):
        gaussian_figure([([0, 0], np.eye(2))], kind="heatmap")
    with pytest.raises(ValueError, match="params is empty"):
        gaussian_figure([])
    with pytest.raises(ValueError, match="titles has 2 entries but params has 1"):
        gaussian_figure([([0, 0], np.eye(2))], titles=["a", "b"])
    with pytest.raises(ValueError, match="cov is singular"):
        gaussian_figure([([0, 0], [[1, 1], [1, 1]])])
