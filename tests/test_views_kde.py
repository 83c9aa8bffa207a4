"""Density-estimation views: the numbers they show, checked against genviz.kde and by hand."""

import numpy as np
import pytest

from genviz.kde import (claw_pdf, cv_curve, histogram, kde2d_grid, kde_pdf, rule_of_thumb,
                        sample_claw)
from genviz.plots.kde import BandwidthView, HistogramView, KDE2DView, KDEView
from genviz.plots.kde_static import bandwidth_figure, cv_figure, heldout_figure, kernels_figure


@pytest.fixture(scope="module")
def data():
    return sample_claw(300, np.random.default_rng(0))


def test_histogram_view_numbers(data):
    v = HistogramView(data, 0.3, 0.0, true_pdf=claw_pdf, x_range=(-3, 3))
    v.update(width=0.25, origin=0.1)
    edges, dens = histogram(data, 0.25, 0.1)
    np.testing.assert_allclose(v.state["density"], dens)
    np.testing.assert_allclose(v.state["edges"], edges)
    vals, stair_edges = v._stairs.get_data()[:2]
    np.testing.assert_allclose(vals, dens)
    assert v.state["empty_bins"] == int((dens == 0).sum())
    with pytest.raises(ValueError, match="width must be > 0"):
        v.update(width=0.0)


def test_kde_view_bumps_sum_to_the_kde(data):
    v = KDEView(data[:15], 0.4, "gaussian", x_range=(-3, 3))
    for kernel in ("box", "epanechnikov"):
        v.update(kernel=kernel, h=0.3)
        np.testing.assert_allclose(v.state["density"], kde_pdf(v.x, data[:15], 0.3, kernel))
        assert len(v._bumps.get_segments()) == 15
        assert v.state["integral"] == pytest.approx(1.0, abs=0.02)
    with pytest.raises(ValueError, match="kernel must be one of"):
        v.update(kernel="cosine")


def test_bandwidth_view_curves_and_rules():
    v = BandwidthView(400, 0.05, seed=1)
    s = v.state
    d = sample_claw(400, 1)
    np.testing.assert_allclose(s["loo"], cv_curve(d, v.hs, "loo-likelihood"))
    assert s["h_lscv"] == v.hs[np.argmin(cv_curve(d, v.hs, "lscv"))]
    assert s["silverman"] == pytest.approx(rule_of_thumb(d, "silverman"))
    v.update(h=v.hs[10])
    assert v.state["loo_at_h"] == pytest.approx(s["loo"][10])
    x = v.x
    assert v.state["ise"] == pytest.approx(np.trapezoid((kde_pdf(x, d, v.hs[10]) - claw_pdf(x)) ** 2, x))
    v.update(n=200)
    assert v.state["n"] == 200 and v.data.size == 200
    with pytest.raises(ValueError, match="h must be > 0"):
        v.update(h=-1.0)


def test_bandwidth_prefetch_gives_exactly_the_on_demand_sweeps():
    v = BandwidthView(300, 0.05, seed=2, hs=np.geomspace(0.01, 1.0, 12))
    v.prefetch([200, 300, 400, 500])
    for future in list(v.study._pending.values()):
        future.result(timeout=60)
    assert set(v.study._cache) == {200, 300, 400, 500}
    calls = []
    v.study._compute = lambda n: calls.append(n)  # a prefetched n needs no computing
    v.update(n=400)
    assert calls == []
    d = sample_claw(400, 2)
    np.testing.assert_array_equal(v.state["loo"], cv_curve(d, v.hs, "loo-likelihood"))
    np.testing.assert_array_equal(v.state["lscv"], cv_curve(d, v.hs, "lscv"))
    assert v.state["silverman"] == rule_of_thumb(d, "silverman")
    v.close()


def test_bandwidth_prefetch_waits_for_a_running_sweep_and_close_cancels_the_rest():
    import threading

    v = BandwidthView(300, 0.05, seed=2, hs=np.geomspace(0.01, 1.0, 12))
    started, release, hold = threading.Event(), threading.Event(), threading.Event()
    compute = v.study._compute
    running = []

    def slow(n):
        running.append(n)
        started.set()
        (release if n == 400 else hold).wait(30)
        return compute(n)

    v.study._compute = slow
    v.prefetch([400, 500, 600])  # 400 first (nearest the current n), then 500, 600
    assert started.wait(30)
    waiter = threading.Thread(target=v.update, kwargs={"n": 400})
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive()  # waits for the running sweep rather than computing it twice
    release.set()
    waiter.join(30)
    assert v.state["n"] == 400
    for _ in range(300):  # the worker moves on to 500 and blocks there
        if running == [400, 500]:
            break
        threading.Event().wait(0.01)
    v.close()
    futures = v.study._pending
    assert futures[600].cancelled() and not futures[500].cancelled()  # not started: cancelled
    hold.set()
    assert futures[500].result(timeout=30)[0].size == 500  # the running one finishes
    assert running == [400, 500]
    with pytest.raises(ValueError, match="ns"):
        BandwidthView(300, 0.05, seed=2, hs=[0.1, 0.2]).prefetch([1])


def test_kde2d_view_density():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(100, 2)) * [3.0, 0.5]
    v = KDE2DView(X, 1.0)
    h0 = np.array([rule_of_thumb(X[:, 0], "scott"), rule_of_thumb(X[:, 1], "scott")])
    np.testing.assert_allclose(v.state["h"], h0)
    v.update(scale=0.5)
    np.testing.assert_allclose(v.state["density"], kde2d_grid(v.xs, v.ys, X, 0.5 * h0))
    assert v.state["mass"] == pytest.approx(1.0, abs=0.02)


def test_static_figures(tmp_path, data):
    assert len(kernels_figure().axes) == 5
    f = bandwidth_figure(data, 0.08)
    assert [a.get_title() for a in f.axes][2].startswith("Just right: h = 0.08")
    f = cv_figure(data, np.geomspace(0.01, 1.0, 30))
    st = f.cv_state
    assert st["h_loo"] == st["hs"][np.argmax(st["loo"])]
    assert st["h_lscv"] == st["hs"][np.argmin(st["lscv"])]
    f = heldout_figure([0.1, 0.2], [-1.3, -1.2], [0.1, 0.2], [-np.inf, -1.4])
    f.savefig(tmp_path / "x.png")
