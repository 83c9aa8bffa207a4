"""genviz.studies.knn_projection against scipy's pairwise distances, numpy's histogram and the
Johnson-Lindenstrauss bound written out; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import pdist

from genviz.projections import projection_ratios, random_projection
from genviz.studies.knn_projection import ProjectionStudy


def test_every_field_against_scipy():
    X = np.random.default_rng(10).normal(size=(25, 40))
    study = ProjectionStudy(X, d_max=12, seed=3, bins=20, r_max=2.0)
    s = study.static()
    assert (s.n_points, s.n_features, s.n_pairs, s.d_max) == (25, 40, 300, 12)
    np.testing.assert_array_equal(s.dims, np.arange(1, 13))
    np.testing.assert_allclose(s.edges, np.linspace(0, 2, 21))
    ratios = [pdist(X @ random_projection(d, 40, rng=3, scaling="jl").T) / pdist(X)
              for d in range(1, 13)]
    np.testing.assert_allclose(s.max_distortion, [max(r.max() - 1, 1 - r.min()) for r in ratios])
    np.testing.assert_allclose(s.std, [r.std() for r in ratios])
    np.testing.assert_allclose(s.spread_bound, 1 / np.sqrt(2 * np.arange(1, 13)))
    assert s.top == pytest.approx(min(1.5, 1.05 * s.max_distortion.max()))
    for d, eps in ((1, 0.5), (6, 0.2), (12, 0.9)):
        r = study(d=d, eps=eps)
        want = ratios[d - 1]
        assert (r.d, r.eps) == (d, eps)
        np.testing.assert_allclose(r.ratios, want)
        counts = np.histogram(want, s.edges)[0]
        np.testing.assert_allclose(r.hist, counts / counts.max())
        np.testing.assert_allclose(r.band, (1 - eps, 1 + eps))
        assert r.stats["mean"] == pytest.approx(want.mean())
        assert r.stats["within"] == pytest.approx(np.mean(np.abs(want - 1) <= eps))
        assert r.jl_dim == int(np.ceil(4 * np.log(25) / (eps ** 2 / 2 - eps ** 3 / 3)))
        np.testing.assert_array_equal(r.dims, s.dims)
        np.testing.assert_allclose(r.max_distortion, s.max_distortion)
        np.testing.assert_allclose(r.std, s.std)
    assert projection_ratios(X, 12, seed=3).n_pairs == s.n_pairs


@pytest.mark.parametrize("kwargs, params, error, word", [
    (dict(d_max=5), dict(d=6), ValueError, "d = 6 exceeds d_max = 5"),
    (dict(), dict(d=2, eps=1.0), ValueError, "eps"),
    (dict(), dict(d=0), ValueError, "d"),
    (dict(d_max=0), None, ValueError, "d_max"),
    (dict(bins=1), None, ValueError, "bins"),
    (dict(r_max=0.5), None, ValueError, "r_max"),
    (dict(seed=-1), None, ValueError, "seed"),
])
def test_bad_input(kwargs, params, error, word):
    X = np.random.default_rng(0).normal(size=(6, 5))
    with pytest.raises(error, match=word):
        ProjectionStudy(X, **kwargs)(**(params or {}))
    with pytest.raises(ValueError, match="X needs at least 2 points"):
        ProjectionStudy(X[:1])


# -- the ratios for every d (moved from test_view_studies.py) ------------------------------------
def test_projection_ratios_by_scipy_distances():
    X = np.random.default_rng(10).normal(size=(25, 40))
    r = projection_ratios(X, 8, seed=3)
    for d in (1, 4, 8):
        Y = X @ random_projection(d, 40, rng=3, scaling="jl").T
        np.testing.assert_allclose(r.ratios[d - 1], pdist(Y) / pdist(X))
    assert r.n_pairs == 300 and r.dims.tolist() == list(range(1, 9))
    with pytest.raises(ValueError, match="2 points"):
        projection_ratios(X[:1], 3)
    with pytest.raises(ValueError, match="distinct"):
        projection_ratios(np.ones((4, 3)), 3)
    with pytest.raises(ValueError, match="d_max"):
        projection_ratios(X, 0)
    with pytest.raises(ValueError, match="seed"):
        projection_ratios(X, 3, seed=-2)
