"""genviz.studies.kde against independent oracles: numpy's histogram, scipy's normal density and
its Gaussian KDE, closed-form kernels, trapezoids by hand; hypothesis over bandwidths; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from genviz.kde import claw_pdf, sample_claw
from genviz.studies.kde import KDE2D_LEVELS, HistogramStudy, KDE2DStudy, KDEStudy

SETTINGS = settings(max_examples=25, deadline=None)
DATA = sample_claw(150, 3)

#: each kernel at unit bandwidth, written out (the oracle for KDEStudy's bumps)
KERNEL = {"gaussian": stats.norm.pdf,
          "box": lambda u: (np.abs(u) < 0.5).astype(float),
          "tophat": lambda u: 0.5 * (np.abs(u) < 1),
          "epanechnikov": lambda u: 0.75 * np.clip(1 - u * u, 0, None),
          "triangular": lambda u: np.clip(1 - np.abs(u), 0, None)}


# -- the histogram ----------------------------------------------------------------------------------
@SETTINGS
@given(st.floats(0.05, 1.0), st.floats(0.0, 1.0))
def test_histogram_against_numpy(width, origin):
    r = HistogramStudy(DATA)(width=width, origin=origin)
    k0 = np.floor((DATA.min() - origin) / width)
    k1 = np.floor((DATA.max() - origin) / width) + 1
    edges = origin + width * np.arange(k0, k1 + 1)
    counts = np.array([np.sum((DATA >= a) & (DATA < b)) for a, b in zip(edges, edges[1:])])
    np.testing.assert_allclose(r.edges, edges, atol=1e-12)
    assert counts.sum() == DATA.size
    np.testing.assert_allclose(r.density, counts / (DATA.size * width))
    assert r.n_bins == counts.size and r.empty_bins == int((counts == 0).sum())
    assert r.tallest == pytest.approx(counts.max() / (DATA.size * width))
    assert (r.width, r.origin) == (width, origin)
    assert np.sum(r.density * np.diff(r.edges)) == pytest.approx(1.0)


def test_histogram_static():
    s = HistogramStudy(DATA, true_pdf=claw_pdf, min_width=0.1).static()
    np.testing.assert_array_equal(s.data, DATA)
    assert s.x_range == (DATA.min() - 0.5, DATA.max() + 0.5)
    np.testing.assert_allclose(s.truth_x, np.linspace(*s.x_range, 600))
    np.testing.assert_allclose(s.truth, claw_pdf(s.truth_x))
    tallest = max(np.histogram(DATA, bins=np.arange(o + 0.1 * np.floor((DATA.min() - o) / 0.1),
                                                      DATA.max() + 0.1, 0.1))[0].max()
                  for o in np.linspace(0, 0.1, 5)) / (DATA.size * 0.1)
    assert s.ymax == pytest.approx(1.05 * tallest)
    assert HistogramStudy(DATA, x_range=(-3, 3)).static().truth is None


@pytest.mark.parametrize("params, word", [(dict(width=0.0), "width"), (dict(width=-1), "width"),
                                          (dict(origin=np.nan), "origin")])
def test_histogram_bad_parameters(params, word):
    with pytest.raises(ValueError, match=word):
        HistogramStudy(DATA)(**params)


# -- the KDE as a sum of bumps ----------------------------------------------------------------------
@SETTINGS
@given(st.floats(0.05, 1.5), st.sampled_from(sorted(KERNEL)))
def test_kde_bumps_against_the_kernels_written_out(h, kernel):
    data = DATA[:12]
    study = KDEStudy(data, x_range=(-4, 4), n_grid=401)
    r = study(h=h, kernel=kernel)
    x = np.linspace(-4, 4, 401)
    bumps = KERNEL[kernel]((x[None, :] - data[:, None]) / h) / (h * data.size)
    np.testing.assert_allclose(r.x, x)
    np.testing.assert_allclose(r.bumps, bumps, atol=1e-15)
    np.testing.assert_allclose(r.density, bumps.sum(axis=0), atol=1e-15)
    np.testing.assert_allclose(r.segments[..., 0], np.broadcast_to(x, bumps.shape))
    np.testing.assert_allclose(r.segments[..., 1], bumps, atol=1e-15)
    assert r.integral == pytest.approx(np.sum((r.density[1:] + r.density[:-1]) / 2 * np.diff(x)))
    assert r.peak == pytest.approx(r.density.max()) and r.density[x == r.peak_x][0] == r.peak
    assert (r.h, r.kernel) == (h, kernel)


def test_gaussian_kde_equals_scipy():
    r = KDEStudy(DATA, n_grid=200)(h=0.2, kernel="gaussian")
    ref = stats.gaussian_kde(DATA, bw_method=0.2 / DATA.std(ddof=1))(r.x)
    np.testing.assert_allclose(r.density, ref, rtol=1e-10)
    assert r.integral == pytest.approx(1.0, abs=1e-3)


def test_kde_static():
    s = KDEStudy(DATA, true_pdf=claw_pdf, n_grid=50).static()
    np.testing.assert_array_equal(s.data, DATA)
    np.testing.assert_allclose(s.x, np.linspace(DATA.min() - 2, DATA.max() + 2, 50))
    np.testing.assert_allclose(s.truth, claw_pdf(s.x))
    assert KDEStudy(DATA).static().truth is None


@pytest.mark.parametrize("params, error, word", [(dict(h=0.0), ValueError, "h"),
                                                 (dict(kernel="cosine"), ValueError, "kernel"),
                                                 (dict(h="a"), TypeError, "h")])
def test_kde_bad_parameters(params, error, word):
    with pytest.raises(error, match=word):
        KDEStudy(DATA)(**params)
    with pytest.raises(ValueError, match="n_grid"):
        KDEStudy(DATA, n_grid=3)


# -- the 2-D KDE ------------------------------------------------------------------------------------
def test_kde2d_against_products_of_normal_densities():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 2)) * [3.0, 0.5]
    study = KDE2DStudy(X, n_grid=30)
    s = study.static()
    lo = X.min(axis=0) - 0.1 * (X.max(axis=0) - X.min(axis=0))
    hi = X.max(axis=0) + 0.1 * (X.max(axis=0) - X.min(axis=0))
    np.testing.assert_allclose(s.xs, np.linspace(lo[0], hi[0], 30))
    np.testing.assert_allclose(s.ys, np.linspace(lo[1], hi[1], 30))
    np.testing.assert_array_equal(s.X, X)
    scott = X.std(axis=0, ddof=1) * 40 ** -0.2
    for scale in (0.5, 1.0, 2.0):
        r = study(scale=scale)
        h = scale * scott
        np.testing.assert_allclose(r.h, h, rtol=1e-12)
        Z = np.mean([stats.norm.pdf(s.ys[:, None], b, h[1]) * stats.norm.pdf(s.xs[None, :], a, h[0])
                     for a, b in X], axis=0)
        np.testing.assert_allclose(r.density, Z, rtol=1e-9, atol=1e-300)
        assert r.peak == pytest.approx(Z.max()) and r.scale == scale
        np.testing.assert_allclose(r.levels, Z.max() * np.array(KDE2D_LEVELS))
        cell = (s.xs[1] - s.xs[0]) * (s.ys[1] - s.ys[0])
        assert r.mass == pytest.approx(Z.sum() * cell)


def test_kde2d_bad_input():
    with pytest.raises(ValueError, match="X must have shape"):
        KDE2DStudy(np.zeros((5, 3)))
    with pytest.raises(ValueError, match="scale"):
        KDE2DStudy(np.random.default_rng(0).normal(size=(9, 2)))(scale=0.0)
