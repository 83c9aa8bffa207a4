"""genviz.studies.kde_static and kde_steps against independent oracles: kernels written out
and integrated by scipy, scipy's Gaussian KDE, the brute-force CV sweeps, numpy's histogram and
percentiles, block counts by hand; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, stats

from genviz.kde import KERNELS, RULES, claw_pdf, cv_curve_bruteforce, rule_of_thumb, sample_claw
from genviz.studies.kde_static import (SLIDES_BUMPS_DATA, bandwidth_figure_study,
                                       cv_figure_study, heldout_figure_study,
                                       histogram_vs_kde_figure_study, kernel_gallery_figure_study,
                                       kernels_figure_study)
from genviz.studies.kde_steps import histogram_to_kde_figure_study

DATA = sample_claw(200, 5)


def _kde(x, data, h):
    return stats.gaussian_kde(data, bw_method=h / np.std(data, ddof=1))(x)


def test_kernels_are_the_kernels_written_out():
    from test_studies_kde import KERNEL

    r = kernels_figure_study(lim=2.2)
    assert r.kernels == list(KERNELS)
    np.testing.assert_allclose(r.u, np.linspace(-2.2, 2.2, 881))
    for name, k in zip(r.kernels, r.densities):
        np.testing.assert_allclose(k, KERNEL[name](r.u), atol=1e-15, err_msg=name)
        assert integrate.quad(KERNEL[name], -10, 10, points=[-1, -0.5, 0, 0.5, 1])[0] == \
            pytest.approx(1.0, abs=1e-6), name
    with pytest.raises(ValueError, match="kernel"):
        kernels_figure_study(["cosine"])


def test_bandwidth_panels_against_scipy():
    r = bandwidth_figure_study(DATA, 0.1, n_grid=301)
    x = np.linspace(-3, 3, 301)
    np.testing.assert_allclose(r.x, x)
    assert r.x_range == (-3.0, 3.0) and r.h == 0.1
    np.testing.assert_allclose(r.truth, claw_pdf(x))
    np.testing.assert_array_equal(r.curves[0], r.truth)
    for curve, h in zip(r.curves[1:], (0.01, 0.1, 1.0)):
        np.testing.assert_allclose(curve, _kde(x, DATA, h), rtol=1e-9, atol=1e-300)
    assert r.ymax == pytest.approx(1.15 * max(c.max() for c in r.curves[:3]))
    flat = bandwidth_figure_study(DATA, 0.1, true_pdf=lambda x: np.full_like(x, 0.25), n_grid=11)
    np.testing.assert_array_equal(flat.truth, 0.25)
    with pytest.raises(ValueError, match="h"):
        bandwidth_figure_study(DATA, 0.0)


def test_cv_figure_against_the_brute_force_sweeps():
    hs = np.geomspace(0.01, 1.0, 25)
    r = cv_figure_study(DATA, hs)
    loo = cv_curve_bruteforce(DATA, hs, "loo-likelihood")
    ls = cv_curve_bruteforce(DATA, hs, "lscv")
    np.testing.assert_array_equal(r.hs, hs)
    for panel, curve, best, (p_lo, p_hi) in ((r.loo, loo, hs[np.argmax(loo)], (2, 100)),
                                             (r.lscv, ls, hs[np.argmin(ls)], (0, 98))):
        np.testing.assert_allclose(panel.curve, curve, rtol=1e-7)
        ok = np.isfinite(curve)
        np.testing.assert_array_equal(panel.finite_h, hs[ok])
        np.testing.assert_allclose(panel.finite, curve[ok], rtol=1e-7)
        assert panel.best == best
        assert panel.best_value == pytest.approx(curve[hs == best][0], rel=1e-7)
        lo, hi = np.quantile(curve[ok], [p_lo / 100, p_hi / 100])
        pad = 0.08 * (hi - lo)
        np.testing.assert_allclose(panel.ylim, (lo - pad, hi + pad), rtol=1e-6)
    assert r.rules == {rule: rule_of_thumb(DATA, rule) for rule in RULES}
    assert r.cv_state["h_loo"] == r.loo.best and r.cv_state["h_lscv"] == r.lscv.best
    assert set(r.cv_state) == {"hs", "loo", "lscv", "h_loo", "h_lscv", *RULES}


def test_heldout_series_split_the_infinite_scores():
    r = heldout_figure_study([0.1, 0.2, 0.5], [-1.3, -1.2, -1.25], [0.1, 0.2, 0.5],
                             [-np.inf, -1.4, -np.inf])
    np.testing.assert_array_equal(r.kde.x_finite, [0.1, 0.2, 0.5])
    np.testing.assert_array_equal(r.kde.y_finite, [-1.3, -1.2, -1.25])
    assert r.kde.x_infinite.size == 0
    np.testing.assert_array_equal(r.histogram.x_finite, [0.2])
    np.testing.assert_array_equal(r.histogram.y_finite, [-1.4])
    np.testing.assert_array_equal(r.histogram.x_infinite, [0.1, 0.5])


def test_kernel_gallery_kernels_integrate_to_one():
    from genviz.kernel_gallery import gallery_kernel

    r = kernel_gallery_figure_study(lim=3.0)
    assert len(r.names) == 11 and len(r.densities) == 11
    np.testing.assert_allclose(r.u, np.linspace(-3, 3, 1201))
    for name, k, compact in zip(r.names, r.densities, r.compact):
        np.testing.assert_array_equal(k, gallery_kernel(r.u, name))
        assert integrate.quad(lambda u: float(gallery_kernel(np.array([u]), name)[0]),
                              -np.inf, np.inf, limit=200)[0] == pytest.approx(1.0, abs=1e-4), name
        if compact:
            assert np.all(k[np.abs(r.u) > 1.0 + 1e-9] == 0), name
            assert integrate.trapezoid(k, r.u) == pytest.approx(1.0, abs=5e-3), name
    assert r.compact.count(True) >= 6


def test_histogram_vs_kde_against_numpy_and_scipy():
    r = histogram_vs_kde_figure_study()
    data = np.array(SLIDES_BUMPS_DATA)
    np.testing.assert_array_equal(r.data, data)
    assert (r.width, r.h, r.x_range) == (2.0, 1.5, (-8.0, 12.0))
    np.testing.assert_allclose(r.x, np.linspace(-8, 12, 901))
    counts, edges = np.histogram(data, bins=r.edges)
    assert r.edges[0] == -4.0 and np.allclose(np.diff(r.edges), 2.0)
    np.testing.assert_allclose(r.heights, counts / (6 * 2.0))
    bumps = stats.norm.pdf(r.x[None, :], data[:, None], 1.5) / 6
    np.testing.assert_allclose(r.bumps, bumps, rtol=1e-12)
    np.testing.assert_allclose(r.kde, bumps.sum(axis=0), rtol=1e-12)
    assert r.ymax == pytest.approx(1.3 * max(r.heights.max(), r.kde.max()))
    assert r.bumps_state["heights"] is r.heights and r.bumps_state["kde"] is r.kde
    with pytest.raises(ValueError, match="width"):
        histogram_vs_kde_figure_study(width=0.0)
    with pytest.raises(ValueError, match="h"):
        histogram_vs_kde_figure_study(h=-1.0)


# -- notebook 05's histogram -> KDE steps ---------------------------------------------------------
def test_the_blocks_stack_to_the_histograms():
    data = DATA[:20]
    r = histogram_to_kde_figure_study(data, 0.5, origin=0.1)
    s = r.steps
    assert (r.n, r.width, r.origin, r.half_width) == (20, 0.5, 0.1, 0.25)
    np.testing.assert_array_equal(r.data, data)
    assert r.block_height == pytest.approx(1 / (20 * 0.5))
    for stack, edges, counts in ((r.blocks[0], s.edges, s.counts),
                                 (r.blocks[1], s.shifted_edges, s.shifted_counts)):
        # each bin's column holds one block per point in the bin, one above the other
        per_bin = {e: 0 for e in edges[:-1]}
        for level, (lefts, bottom) in enumerate(stack):
            assert bottom == pytest.approx(level * r.block_height)
            for e in lefts:
                per_bin[e] += 1
        assert [per_bin[e] for e in edges[:-1]] == counts.tolist()
        assert sum(counts) == 20
    assert r.top == pytest.approx(1.4 * max(s.density.max(), s.shifted_density.max(),
                                            s.block_sum.max(), s.kde.max()))
    with pytest.raises(ValueError, match="width"):
        histogram_to_kde_figure_study(data, 0.0)
