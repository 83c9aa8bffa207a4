"""genviz.studies.kde_bandwidth against independent oracles: the brute-force CV sweeps, numpy's
interpolation and trapezoid, scipy's IQR for Silverman's rule; the prefetch gives exactly the
on-demand sweeps; hypothesis over bandwidths on the grid; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from genviz.kde import claw_pdf, cv_curve_bruteforce, kde_pdf, sample_claw
from genviz.studies.kde_bandwidth import BandwidthStudy

SETTINGS = settings(max_examples=25, deadline=None)


# -- the bandwidth study ---------------------------------------------------------------------------
def test_bandwidth_study_optima_match_a_brute_force_sweep():
    hs = np.geomspace(0.01, 1.0, 25)
    study = BandwidthStudy(seed=4, hs=hs)
    s = study.sweeps(300)
    data = sample_claw(300, 4)
    np.testing.assert_array_equal(s.data, data)
    loo = cv_curve_bruteforce(data, hs, "loo-likelihood")
    lscv = cv_curve_bruteforce(data, hs, "lscv")
    np.testing.assert_allclose(s.loo, loo, rtol=1e-7)
    np.testing.assert_allclose(s.lscv, lscv, rtol=1e-7)
    assert s.h_loo == hs[np.argmax(loo)] and s.h_lscv == hs[np.argmin(lscv)]
    assert s.silverman == pytest.approx(0.9 * min(data.std(ddof=1),
                                                  stats.iqr(data) / 1.34) * 300 ** -0.2)


@SETTINGS
@given(st.integers(0, 5), st.integers(0, 24))
def test_bandwidth_study_at_a_grid_bandwidth(seed, i):
    study = BandwidthStudy(seed=seed, hs=np.geomspace(0.02, 1.0, 25), n_grid=200)
    s = study.sweeps(60)
    at = study.at(s, study.hs[i])
    assert at.loo_at_h == pytest.approx(s.loo[i]) and at.lscv_at_h == pytest.approx(s.lscv[i])
    np.testing.assert_allclose(at.density, kde_pdf(study.x, s.data, study.hs[i]))
    ise = np.trapezoid((at.density - claw_pdf(study.x)) ** 2, study.x)
    assert at.ise == pytest.approx(ise) and at.ise >= 0


def test_bandwidth_study_prefetch_is_the_on_demand_result():
    a = BandwidthStudy(seed=1, hs=np.geomspace(0.02, 1.0, 10))
    a.prefetch([100, 200], near=150)
    for f in list(a._pending.values()):
        f.result(timeout=60)
    b = BandwidthStudy(seed=1, hs=np.geomspace(0.02, 1.0, 10))
    for n in (100, 200):
        np.testing.assert_array_equal(a.sweeps(n).lscv, b.sweeps(n).lscv)
    a.close()
    a.close()  # twice is harmless


@pytest.mark.parametrize("kwargs, error, word", [
    (dict(seed=-1), ValueError, "seed"), (dict(seed=1.5), TypeError, "seed"),
    (dict(hs=[]), ValueError, "hs"), (dict(hs=[0.1, -0.1]), ValueError, "hs"),
    (dict(n_grid=1), ValueError, "n_grid"), (dict(x_range=(0.0, "a")), TypeError, "x_range"),
])
def test_bandwidth_study_bad_construction(kwargs, error, word):
    with pytest.raises(error, match=word):
        BandwidthStudy(**kwargs)


def test_bandwidth_study_bad_calls():
    study = BandwidthStudy(hs=[0.1, 0.2])
    with pytest.raises(ValueError, match="n"):
        study.sweeps(1)
    with pytest.raises(ValueError, match="h"):
        study.at(study.sweeps(10), 0.0)
    with pytest.raises(ValueError, match="ns"):
        study.prefetch([0])


def test_the_views_result_against_the_sweeps_by_brute_force():
    hs = np.geomspace(0.005, 1.0, 20)
    study = BandwidthStudy(seed=2, hs=hs, n_grid=150)
    s = study.static()
    np.testing.assert_allclose(s.x, np.linspace(-3, 3, 150))
    np.testing.assert_allclose(s.truth, claw_pdf(s.x))
    np.testing.assert_array_equal(s.hs, hs)
    assert s.h_range == (hs.min(), hs.max())
    r = study(n=80, h=0.07)
    data = sample_claw(80, 2)
    loo = cv_curve_bruteforce(data, hs, "loo-likelihood")
    lscv = cv_curve_bruteforce(data, hs, "lscv")
    assert (r.n, r.h) == (80, 0.07)
    np.testing.assert_array_equal(r.hs, hs)
    np.testing.assert_array_equal(r.data, data)
    np.testing.assert_allclose(r.loo, loo, rtol=1e-7)
    np.testing.assert_allclose(r.lscv, lscv, rtol=1e-7)
    ok = np.isfinite(loo)  # (the Gaussian sweep is exact in log space: finite everywhere)
    np.testing.assert_array_equal(r.loo_finite_h, hs[ok])
    np.testing.assert_allclose(r.loo_finite, loo[ok], rtol=1e-7)
    assert r.h_loo == hs[np.argmax(loo)] and r.loo_best == pytest.approx(loo.max())
    assert r.h_lscv == hs[np.argmin(lscv)] and r.lscv_best == pytest.approx(lscv.min())
    sd, iqr = data.std(ddof=1), stats.iqr(data)
    assert r.silverman == pytest.approx(0.9 * min(sd, iqr / 1.34) * 80 ** -0.2)
    assert r.scott == pytest.approx(stats.gaussian_kde(data, "scott").factor * sd)
    assert r.loo_at_h == pytest.approx(np.interp(np.log(0.07), np.log(hs), loo), rel=1e-7)
    assert r.lscv_at_h == pytest.approx(np.interp(np.log(0.07), np.log(hs), lscv), rel=1e-7)
    dens = stats.gaussian_kde(data, bw_method=0.07 / data.std(ddof=1))(s.x)
    np.testing.assert_allclose(r.density, dens, rtol=1e-9)
    sq = (dens - claw_pdf(s.x)) ** 2
    assert r.ise == pytest.approx(np.sum((sq[1:] + sq[:-1]) / 2 * np.diff(s.x)), rel=1e-9)
    assert study.defaults() == {"n": 1000, "h": 0.05}


@pytest.mark.parametrize("params, error, word", [(dict(n=1), ValueError, "n"),
                                                 (dict(h=0.0), ValueError, "h"),
                                                 (dict(n=10.5), TypeError, "n")])
def test_the_views_result_bad_parameters(params, error, word):
    with pytest.raises(error, match=word):
        BandwidthStudy(hs=[0.1, 0.2])(**params)
