"""Exercises of notebooks 01 and 05: each tried with a right and a wrong answer."""

import numpy as np
import pytest

from genviz.exercises import joint as jx
from genviz.exercises import kde as kx
from genviz.joint import JointTable
from exercise_testing import assert_right_and_wrong

ALARM = JointTable({"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
                    "Earthquake": ["earthquake", "no earthquake"]},
                   [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79])
DATA = np.array([-1.0, -0.2, 0.1, 0.3, 1.4])


@pytest.mark.parametrize("make, right, wrong", [
    (lambda: jx.posterior_by_bayes(ALARM, {"Theft": "theft"}, {"Alarm": "alarm"}), 0.09 / 0.19, 0.9),
    (lambda: jx.parameter_count({"mpg": 2, "modelyear": 3, "maker": 3}), 17, 18),
    (lambda: jx.dataset_log_likelihood(ALARM, [["alarm", "theft", "earthquake"],
                                               ["no alarm", "no theft", "no earthquake"]]),
     np.log(0.01) + np.log(0.79), np.log(0.01 * 0.79) / 2),
    (lambda: kx.kde_by_hand(DATA, 0.0, 1.0, "box"), 3 / 5, 2 / 5),  # -0.2, 0.1, 0.3 in [-1/2, 1/2)
    (lambda: kx.kde_by_hand(DATA, 0.0, 0.5, "tophat"), 3 * 0.5 / (5 * 0.5), 0.4),
    (lambda: kx.histogram_height(DATA, 1.0, 0.0, 0.2), 2 / 5, 3 / 5),  # bin [0, 1): 0.1, 0.3
])
def test_exercises(make, right, wrong):
    assert_right_and_wrong(make(), right, wrong)


def test_cv_selected_bandwidth():
    from genviz.kde import cv_curve, sample_claw
    x = sample_claw(300, 0)
    hs = np.geomspace(0.01, 1, 30)
    for method, pick in (("loo-likelihood", np.argmax), ("lscv", np.argmin)):
        ex = kx.cv_selected_bandwidth(x, hs, method)
        best = hs[pick(cv_curve(x, hs, method))]
        assert ex.check(best).correct and not ex.check(best * 1.5).correct


# -- notebook 05: predictions and the conceptual item --------------------------------------------
def test_predict_bin_origin_against_numpys_histogram():
    from genviz.kde import sample_claw

    x = sample_claw(1000, np.random.default_rng(0))[:200]
    before, _ = np.histogram(x, bins=np.arange(np.floor(x.min() / 0.3) * 0.3, x.max() + 0.3, 0.3))
    after, _ = np.histogram(x, bins=np.arange(np.floor((x.min() - 0.15) / 0.3) * 0.3 + 0.15,
                                              x.max() + 0.3, 0.3))
    assert sorted(before[before > 0]) != sorted(after[after > 0])  # the heights change
    p = kx.predict_bin_origin(x, 0.3, 0.15)
    heights = "The bar heights change: peaks can appear or vanish."
    slide = "The bars only slide sideways; their heights stay the same."
    assert p.kind == "prediction" and p.check(heights).correct and not p.check(slide).correct
    # the observation: the tallest bar at origin 0 and at 0.15, as numpy counts them
    obs = p.observation
    assert obs._answer == pytest.approx(after.max() / (200 * 0.3))
    assert obs.expected_before == pytest.approx(before.max() / (200 * 0.3))
    assert obs.expected_before != pytest.approx(obs._answer)  # the pair shows the change
    assert obs.setting == {"width": 0.3, "origin": 0.15} and obs.before == {"origin": 0.0}
    # one point per bin, wherever the bins start: the bars only slide
    p = kx.predict_bin_origin([0.1, 1.1, 2.1], 1.0, 0.5)
    assert p.check(slide).correct
    assert "the same" not in p.prompt.lower()  # the question does not state the outcome
    with pytest.raises(ValueError, match="width"):
        kx.predict_bin_origin(x, 0.0, 0.1)
    with pytest.raises(ValueError, match="shift"):
        kx.predict_bin_origin(x, 0.3, np.nan)


def test_predict_tiny_bandwidth_spikes_of_area_one():
    from scipy.stats import gaussian_kde

    data = np.array([-1.0, 0.2, 0.5, 2.0])
    oracle = gaussian_kde(data, bw_method=1e-3 / data.std(ddof=1))
    assert oracle.integrate_box_1d(-10, 10) == pytest.approx(1.0)
    assert oracle(data).min() > 90  # a spike at every point: 1 / (4 * 0.001 * sqrt(2 pi)) ~ 100
    p = kx.predict_tiny_bandwidth(data)
    spikes = "Spikes at the data; the total area stays 1."
    assert p.check(spikes).correct
    assert all(not p.check(o).correct for o in p.options if o != spikes)
    assert "1/n" in p.explanation
    # the observation: the area the explorer's readout integrates at h = 0.05 (scipy's quad)
    from scipy.integrate import quad
    area = quad(lambda t: gaussian_kde(data, bw_method=0.05 / data.std(ddof=1))(t)[0], -3, 3,
                points=list(data), limit=200)[0]
    # both halves of the claim at the explorer's start h = 0.3 and at h = 0.05: the peak (the
    # largest value of scipy's KDE on the explorer's 500-point window) grows, the area stays
    def peak(h):
        return gaussian_kde(data, bw_method=h / data.std(ddof=1))(np.linspace(-3, 3, 500)).max()

    obs = p.observation
    assert obs.parts == ("peak f̂", "area ∫ f̂") and obs.before == {"h": 0.3}
    assert obs._answer == pytest.approx([peak(0.05), area], abs=2e-3)
    start_area = quad(lambda t: gaussian_kde(data, bw_method=0.3 / data.std(ddof=1))(t)[0],
                      -3, 3, points=list(data), limit=200)[0]
    assert obs.expected_before == pytest.approx([peak(0.3), start_area], abs=2e-3)
    assert obs._answer[0] > 2 * obs.expected_before[0]  # the peak moves, the area does not
    assert obs._answer[1] == pytest.approx(obs.expected_before[1], abs=0.02)
    with pytest.raises(ValueError, match="h_start"):
        kx.predict_tiny_bandwidth(data, h_start=0.05)
    with pytest.raises(ValueError, match="h_small"):
        kx.predict_tiny_bandwidth(data, h_small=0.0)
    with pytest.raises(ValueError, match="data"):
        kx.predict_tiny_bandwidth([])


def test_predict_cv_with_fewer_points_against_the_bruteforce_sweep():
    from genviz.kde import cv_curve_bruteforce, sample_claw

    from genviz.exercises.kde_practice import EXPLORER_HS as hs
    best = {n: hs[np.argmin(cv_curve_bruteforce(sample_claw(n, 0), hs, "lscv"))] for n in (200, 1000)}
    assert best[200] > best[1000]
    p = kx.predict_cv_with_fewer_points(1000, 200)
    assert p.check("It moves to a larger h.").correct
    assert not p.check("It moves to a smaller h.").correct
    assert p.observation._answer == pytest.approx(best[200])  # what the explorer marks
    assert p.observation.expected_before == pytest.approx(best[1000])  # and at the start
    assert p.observation.before == {"n": 1000} and p.observation.compare == "ratio"
    with pytest.raises(ValueError, match="n_to"):
        kx.predict_cv_with_fewer_points(1000, 1)
    with pytest.raises(ValueError, match="method"):
        kx.predict_cv_with_fewer_points(1000, 200, method="aic")


def test_predict_2d_peak_against_a_direct_sum_of_scipy_normals():
    from scipy.stats import norm

    from genviz.datasets import auto_mpg
    from genviz.kde import rule_of_thumb

    X = auto_mpg().X[:, [4, 0]]
    h0 = np.array([rule_of_thumb(X[:, k], "scott") for k in range(2)])
    lo, hi = X.min(axis=0) - 0.1 * np.ptp(X, axis=0), X.max(axis=0) + 0.1 * np.ptp(X, axis=0)
    xs, ys = np.linspace(lo[0], hi[0], 100), np.linspace(lo[1], hi[1], 100)

    def peak(scale):  # the product-kernel KDE on the explorer's grid, one scipy pdf per axis
        h = scale * h0
        kx_ = norm.pdf(xs[None, :], X[:, 0][:, None], h[0])  # (n, 100)
        ky_ = norm.pdf(ys[None, :], X[:, 1][:, None], h[1])
        return float((ky_.T @ kx_).max() / len(X))

    ratio = peak(3.0) / peak(1.0)
    assert 1 / 3 * 1.2 < ratio < 1  # far less than the 9-fold fall of one bump
    p = kx.predict_2d_peak(X, 1.0, 3.0)
    assert p.options[p.correct[0]].startswith("It falls, but keeps clearly more than 1/3")
    assert p.observation._answer == pytest.approx(peak(3.0), rel=1e-9)
    assert p.observation.expected_before == pytest.approx(peak(1.0), rel=1e-9)
    assert p.observation.before == {"scale": 1.0} and p.observation.compare == "ratio"
    assert not p.check(next(o for o in p.options if "1/9" in o)).correct
    # one tight cluster (narrower than any bandwidth) and a far point: the bumps at the peak
    # overlap at both scales, so the peak falls by the full factor 9
    tight = np.random.default_rng(0).normal(0, 1e-3, (50, 2)) + [5.0, 5.0]
    tight[0] = [0.0, 0.0]
    q = kx.predict_2d_peak(tight, 1.0, 3.0)
    assert q.options[q.correct[0]].startswith("It falls to about 1/9")
    with pytest.raises(ValueError, match="X"):
        kx.predict_2d_peak(X[:, 0])
    with pytest.raises(ValueError, match="scale_to"):
        kx.predict_2d_peak(X, 1.0, -1.0)


def test_more_smoothing_with_fewer_points_is_a_concept_with_reasons():
    c = kx.more_smoothing_with_fewer_points()
    right = c.options[c.correct[0]]
    assert c.kind == "concept" and right == "about √5 ≈ 2.2"  # sqrt(1000 / 200)
    for wrong in (o for o in c.options if o != right):
        fb = c.check(wrong)
        assert not fb.correct and len(str(fb)) > 40  # a reason, not only "wrong"
        assert right not in str(fb)  # the reason does not name the right option


