"""genviz.studies.gaussian against independent oracles: scipy's multivariate normal, numpy's
eigendecomposition, closed forms; hypothesis over the parameters; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import multivariate_normal

from genviz.gaussian import mahalanobis, sample_mvn
from genviz.studies.gaussian import (K_SIGMAS, GaussianStudy, _nice_zmax, gaussian_figure_study,
                                     gaussian_sample)

SETTINGS = settings(max_examples=25, deadline=None)


def _cov(s1, s2, rho):
    return np.array([[s1 * s1, rho * s1 * s2], [rho * s1 * s2, s2 * s2]])


@SETTINGS
@given(st.floats(-2, 2), st.floats(-2, 2), st.floats(0.3, 2.5), st.floats(0.3, 2.5),
       st.floats(-0.9, 0.9))
def test_every_field_against_scipy_and_closed_forms(mu1, mu2, s1, s2, rho):
    study = GaussianStudy(lim=4.0, n_samples=50, seed=3, n_surface=11, n_image=13)
    r = study(mu1=mu1, mu2=mu2, sigma1=s1, sigma2=s2, rho=rho)
    cov = _cov(s1, s2, rho)
    ref = multivariate_normal([mu1, mu2], cov)
    np.testing.assert_allclose(r.mean, [mu1, mu2], atol=1e-12)
    np.testing.assert_allclose(r.cov, cov, rtol=1e-12, atol=1e-12)
    assert r.det == pytest.approx(np.linalg.det(cov), rel=1e-9, abs=1e-12)
    lam, vec = np.linalg.eigh(cov)
    np.testing.assert_allclose(r.eigvals, lam[::-1], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(cov @ r.eigvecs, r.eigvecs * r.eigvals, atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(r.eigvecs, axis=0), 1.0)
    np.testing.assert_allclose(r.half_axes, np.sqrt(lam[::-1]), rtol=1e-9, atol=1e-12)
    v = r.eigvecs[:, 0]
    assert (np.degrees(np.arctan2(v[1], v[0])) - r.angle) % 180 == pytest.approx(0, abs=1e-6) \
        or (np.degrees(np.arctan2(v[1], v[0])) - r.angle) % 180 == pytest.approx(180, abs=1e-6)
    assert r.isotropic == bool(abs(lam[1] - lam[0]) <= 1e-9 * lam[1])
    assert r.peak == pytest.approx(ref.pdf([mu1, mu2]), rel=1e-10)
    xs = np.linspace(-4, 4, 13)
    XX, YY = np.meshgrid(xs, xs)
    np.testing.assert_allclose(r.image, ref.pdf(np.dstack([XX, YY])), rtol=1e-9, atol=1e-300)
    for pts, k in zip(r.ellipses, K_SIGMAS):
        np.testing.assert_allclose(mahalanobis(pts, [mu1, mu2], cov), k, rtol=1e-8)
    for (ex, ey), lam_i, i in zip(r.principal_axes, lam[::-1], (0, 1)):
        np.testing.assert_allclose([ex.mean(), ey.mean()], [mu1, mu2], atol=1e-12)
        assert np.hypot(ex[1] - ex[0], ey[1] - ey[0]) == pytest.approx(2 * np.sqrt(lam_i))
    np.testing.assert_allclose(r.samples, sample_mvn(50, [mu1, mu2], cov, rng=3), rtol=1e-9,
                               atol=1e-12)
    np.testing.assert_allclose(r.sample_mean, r.samples.mean(axis=0), atol=1e-12)
    np.testing.assert_allclose(r.sample_cov, np.cov(r.samples.T), atol=1e-12)
    xs_s = np.linspace(-4, 4, 11)
    SX, SY = np.meshgrid(xs_s, xs_s)
    np.testing.assert_allclose(r.surface, ref.pdf(np.dstack([SX, SY])), rtol=1e-9, atol=1e-300)
    assert r.surface_max == pytest.approx(r.surface.max())
    assert r.zmax >= 1.02 * r.peak and (r.zmax == 0.25 or r.zmax / 2 < 1.02 * r.peak)


def test_isotropic_circles_and_static():
    study = GaussianStudy(n_samples=0, surface=False, n_image=5, lim=2.0)
    r = study(sigma1=1.5, sigma2=1.5, rho=0.0)
    assert r.isotropic and r.surface is None and np.isnan(r.surface_max) and np.isnan(r.zmax)
    assert r.samples.shape == (0, 2) and np.isnan(r.sample_mean).all()
    s = study.static()
    assert (s.lim, s.n_samples, s.surface) == (2.0, 0, False)
    np.testing.assert_array_equal(s.xs_image, np.linspace(-2, 2, 5))
    assert s.surface_mesh[0].size == 0
    with_surface = GaussianStudy(n_surface=3, lim=1.0).static()
    np.testing.assert_array_equal(with_surface.surface_mesh[0], np.meshgrid([-1, 0, 1], [-1, 0, 1])[0])
    assert with_surface.surface and study.defaults() == dict(mu1=0.0, mu2=0.0, sigma1=1.0,
                                                             sigma2=1.0, rho=0.0)


def test_nice_zmax_is_the_next_power_of_two_quarter():
    for peak in np.geomspace(0.01, 50, 60):
        top = _nice_zmax(peak)
        k = np.log2(top / 0.25)
        assert k == int(k) and top >= 1.02 * peak and (k == 0 or top / 2 < 1.02 * peak)


@pytest.mark.parametrize("kwargs, error, word", [
    (dict(lim=0.0), ValueError, "lim"), (dict(n_samples=-1), ValueError, "n_samples"),
    (dict(seed=-2), ValueError, "seed"), (dict(n_surface=2), ValueError, "n_surface"),
    (dict(n_image=1.5), TypeError, "n_image")])
def test_bad_construction(kwargs, error, word):
    with pytest.raises(error, match=word):
        GaussianStudy(**kwargs)


@pytest.mark.parametrize("params, error, word", [
    (dict(rho=1.0), ValueError, "rho"), (dict(sigma1=0.0), ValueError, "sigma1"),
    (dict(mu1="a"), TypeError, "mu1"), (dict(mu2=np.nan), ValueError, "mu2")])
def test_bad_parameters(params, error, word):
    with pytest.raises(error, match=word):
        GaussianStudy()(**params)


# -- the CS229 rows of figures ----------------------------------------------------------------------
def test_figure_study_against_scipy():
    params = [([0, 0], np.eye(2)), ([1, -0.5], [[1.0, 0.5], [0.5, 2.0]])]
    for kind in ("surface", "contour"):
        r = gaussian_figure_study(params, kind, lim=3.0, levels=4, n_grid=9, zmax=0.25)
        assert r.kind == kind and r.lim == 3.0 and r.titles is None
        np.testing.assert_array_equal(r.xs, np.linspace(-3, 3, 9))
        np.testing.assert_array_equal(r.mesh[1], np.meshgrid(r.xs, r.xs)[1])
        for panel, (mean, cov) in zip(r.panels, params):
            ref = multivariate_normal(mean, cov)
            np.testing.assert_allclose(panel.mean, mean)
            np.testing.assert_allclose(panel.cov, cov)
            np.testing.assert_allclose(panel.density, ref.pdf(np.dstack(r.mesh)), rtol=1e-9)
            if kind == "surface":
                assert panel.top == pytest.approx(max(0.25, 1.05 * panel.density.max()))
                assert panel.levels.size == 0
            else:
                np.testing.assert_allclose(panel.levels, ref.pdf(mean) * np.arange(1, 5) / 5)
                assert np.isnan(panel.top)
    assert gaussian_figure_study(params, titles=["a", "b"]).titles == ("a", "b")


@pytest.mark.parametrize("args, kwargs, error, word", [
    (([],), {}, ValueError, "params is empty"),
    (([([0, 0], np.eye(2))], "bars"), {}, ValueError, "kind"),
    (([([0, 0], np.eye(2))],), dict(titles=["a", "b"]), ValueError, "titles"),
    (([([0, 0], np.eye(2))],), dict(lim=-1), ValueError, "lim"),
    (([([0, 0], np.eye(2))],), dict(levels=0), ValueError, "levels"),
    (([([0, 0], [[1, 2], [2, 1]])],), {}, ValueError, "cov")])
def test_figure_study_bad_input(args, kwargs, error, word):
    with pytest.raises(error, match=word):
        gaussian_figure_study(*args, **kwargs)


# -- Gaussian draws with their moments (moved from test_view_studies.py) -------------------------
def test_gaussian_sample_moments():
    s = gaussian_sample(50000, [1.0, -2.0], [[2.0, -0.5], [-0.5, 1.0]], rng=0)
    np.testing.assert_allclose(s.mean, [1.0, -2.0], atol=0.03)
    np.testing.assert_allclose(s.cov, [[2.0, -0.5], [-0.5, 1.0]], atol=0.05)
    np.testing.assert_allclose(s.cov, np.cov(s.X.T))
    assert np.isnan(gaussian_sample(0, [0, 0], np.eye(2), 0).mean).all()
    assert np.isnan(gaussian_sample(1, [0, 0], np.eye(2), 0).cov).all()
    with pytest.raises(ValueError, match="n"):
        gaussian_sample(-1, [0, 0], np.eye(2), 0)
