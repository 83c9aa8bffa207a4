"""genviz.kde against independent oracles: scipy, scikit-learn, quadrature, a literal LOO loop."""

import warnings

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import logsumexp
from sklearn.neighbors import KernelDensity

from genviz.kde import (KERNELS, claw_pdf, cv_curve, cv_curve_bruteforce, histogram,
                        histogram_pdf, kde_bumps, kde_pdf, kernel_pdf, log_likelihood,
                        rule_of_thumb, sample_claw, select_bandwidth)

SUPPORT = {"gaussian": 12.0, "box": 0.5, "tophat": 1.0, "epanechnikov": 1.0, "triangular": 1.0}
# Fast sweep vs exact: exact pair sums are exact (1e-12); the Gaussian kernel's binned part (h of
# 24 grid steps or more) has relative error about (step / h)^2 / 8 <= 2.2e-4: we test 2.5e-4.
RTOL_BINNED = 2.5e-4


@pytest.fixture(scope="module")
def claw1000():
    return sample_claw(1000, np.random.default_rng(0))


@pytest.mark.parametrize("kernel", KERNELS)
def test_every_kernel_is_a_symmetric_density(kernel):
    r = SUPPORT[kernel]
    total, err = integrate.quad(lambda u: float(kernel_pdf(u, kernel)), -r, r, points=[0.0],
                                limit=200)
    assert total == pytest.approx(1.0, abs=1e-8)
    u = np.linspace(-3, 3, 601)
    k = kernel_pdf(u, kernel)
    assert np.all(k >= 0)
    if kernel != "box":  # the slides' box is half-open: K(-1/2) = 1, K(1/2) = 0
        np.testing.assert_array_equal(k, kernel_pdf(-u, kernel))
    assert kernel_pdf(0.5, "box") == 0.0 and kernel_pdf(-0.5, "box") == 1.0


@pytest.mark.parametrize("kernel", KERNELS)
def test_self_convolution_is_the_integral_of_the_kde_squared(kernel):
    # LSCV's first term in closed form vs quadrature of f_hat^2 (independent of the closed form).
    data = np.array([-0.7, 0.0, 0.35, 1.9])
    h = 0.6
    pts = np.sort(np.concatenate([data - SUPPORT[kernel] * h, data + SUPPORT[kernel] * h]))
    lo, hi = pts[0] - 0.1, pts[-1] + 0.1
    num, _ = integrate.quad(lambda x: float(kde_pdf([x], data, h, kernel)[0] ** 2), lo, hi,
                            points=pts[(pts > lo) & (pts < hi)], limit=500, epsabs=1e-13)
    loo = np.array([kde_pdf([data[i]], np.delete(data, i), h, kernel)[0] for i in range(4)])
    want = num - 2.0 * loo.mean()
    assert cv_curve_bruteforce(data, [h], "lscv", kernel)[0] == pytest.approx(want, abs=1e-10)
    assert cv_curve(data, [h], "lscv", kernel)[0] == pytest.approx(want, rel=RTOL_BINNED)


def test_gaussian_kde_matches_scipy():
    rng = np.random.default_rng(1)
    data = rng.normal(size=300)
    x = np.linspace(-4, 4, 201)
    for h in (0.05, 0.3, 2.0):
        ref = stats.gaussian_kde(data, bw_method=h / data.std(ddof=1))(x)
        np.testing.assert_allclose(kde_pdf(x, data, h), ref, rtol=1e-10, atol=1e-300)


@pytest.mark.parametrize("kernel, sk_kernel, scale", [
    ("gaussian", "gaussian", 1.0), ("tophat", "tophat", 1.0), ("box", "tophat", 0.5),
    ("epanechnikov", "epanechnikov", 1.0), ("triangular", "linear", 1.0)])
def test_kde_matches_sklearn_kernel_density(kernel, sk_kernel, scale):
    rng = np.random.default_rng(2)
    data = rng.normal(size=200)
    x = rng.uniform(-3, 3, size=300)  # continuous: no point sits exactly on a kernel's edge
    h = 0.4
    kd = KernelDensity(kernel=sk_kernel, bandwidth=h * scale, rtol=0.0, atol=0.0)
    ref = np.exp(kd.fit(data[:, None]).score_samples(x[:, None]))
    np.testing.assert_allclose(kde_pdf(x, data, h, kernel), ref, rtol=1e-10, atol=1e-300)


def test_kde_is_the_sum_of_the_bumps_and_integrates_to_one():
    data = np.array([-1.0, 0.2, 0.3, 2.5])
    x = np.linspace(-5, 6, 2001)
    for kernel in KERNELS:
        bumps = kde_bumps(x, data, 0.5, kernel)
        assert bumps.shape == (4, x.size)
        np.testing.assert_allclose(bumps.sum(axis=0), kde_pdf(x, data, 0.5, kernel), atol=1e-15)
        assert np.trapezoid(kde_pdf(x, data, 0.5, kernel), x) == pytest.approx(1.0, abs=3e-3)


def literal_loo(data, h, method, kernel):
    """The definition, one point at a time (the brute-force loop)."""
    n = data.size
    loo = np.array([kde_pdf([data[i]], np.delete(data, i), h, kernel)[0] for i in range(n)])
    if method == "loo-likelihood":
        with np.errstate(divide="ignore"):
            return np.mean(np.log(loo))
    grid = np.linspace(data.min() - 12 * h, data.max() + 12 * h, 200001)
    return np.trapezoid(kde_pdf(grid, data, h, kernel) ** 2, grid) - 2 * loo.mean()


@pytest.mark.parametrize("method", ["loo-likelihood", "lscv"])
def test_fast_gaussian_sweep_equals_a_literal_leave_one_out_loop(method):
    data = sample_claw(150, np.random.default_rng(3))
    hs = np.geomspace(0.02, 1.5, 9)  # spans the exact (small h) and binned (large h) regimes
    fast = cv_curve(data, hs, method)
    want = np.array([literal_loo(data, h, method, "gaussian") for h in hs])
    np.testing.assert_allclose(fast, want, rtol=RTOL_BINNED)


@pytest.mark.parametrize("kernel", ["box", "tophat", "epanechnikov", "triangular"])
def test_compact_kernel_sweeps_are_exact(kernel):
    data = sample_claw(120, np.random.default_rng(4))
    hs = np.geomspace(0.05, 2.0, 6)
    got = cv_curve(data, hs, "loo-likelihood", kernel)
    want = np.array([literal_loo(data, h, "loo-likelihood", kernel) for h in hs])
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_allclose(cv_curve(data, hs, "lscv", kernel),
                               cv_curve_bruteforce(data, hs, "lscv", kernel), rtol=1e-12)


@pytest.mark.parametrize("method", ["loo-likelihood", "lscv"])
def test_fast_sweep_matches_brute_force_for_the_slides_setting(claw1000, method):
    hs = np.geomspace(0.005, 1.0, 25)
    np.testing.assert_allclose(cv_curve(claw1000, hs, method),
                               cv_curve_bruteforce(claw1000, hs, method), rtol=RTOL_BINNED)


def test_isolated_point_with_tiny_bandwidth_stays_finite_and_exact():
    data = np.array([0.0, 0.01, 0.02, 5.0])
    h = 0.01
    got = cv_curve(data, [h], "loo-likelihood")[0]
    logs = []
    for i in range(4):
        z = (data[i] - np.delete(data, i)) / h
        logs.append(logsumexp(-0.5 * z * z) - np.log(np.sqrt(2 * np.pi) * h * 3))
    assert got == pytest.approx(np.mean(logs), rel=1e-12)
    # a compact kernel gives the isolated point zero density: -inf, reported as such
    assert cv_curve(data, [h], "loo-likelihood", "epanechnikov")[0] == -np.inf


def test_selected_bandwidths_for_the_claw(claw1000):
    h_loo = select_bandwidth(claw1000, "loo-likelihood")
    h_ls = select_bandwidth(claw1000, "lscv")
    # refined optimum beats every grid point
    hs = np.geomspace(0.01, 0.5, 200)
    assert cv_curve(claw1000, [h_loo], "loo-likelihood")[0] >= cv_curve(
        claw1000, hs, "loo-likelihood").max() - 1e-12
    assert cv_curve(claw1000, [h_ls], "lscv")[0] <= cv_curve(claw1000, hs, "lscv").min() + 1e-12
    # the slides' "h = 0.05 by LOOCV" is of this size; the rules of thumb oversmooth the claws
    assert 0.03 < h_ls < 0.1 and 0.03 < h_loo < 0.12
    assert select_bandwidth(claw1000, "silverman") > 2 * h_ls


def test_rules_of_thumb_match_scipy_and_the_formula():
    x = np.random.default_rng(5).normal(size=500)
    assert rule_of_thumb(x, "scott") == pytest.approx(
        stats.gaussian_kde(x, "scott").factor * x.std(ddof=1), rel=1e-12)
    iqr = np.subtract(*np.percentile(x, [75, 25]))
    assert rule_of_thumb(x, "silverman") == pytest.approx(
        0.9 * min(x.std(ddof=1), iqr / 1.34) * 500 ** -0.2, rel=1e-12)
    # Epanechnikov equivalent bandwidth: (R/mu2^2)^(1/5) = 15^(1/5) vs the Gaussian's
    ratio = rule_of_thumb(x, "scott", "epanechnikov") / rule_of_thumb(x, "scott")
    assert ratio == pytest.approx(15 ** 0.2 / (1 / (2 * np.sqrt(np.pi))) ** 0.2, rel=1e-12)
    assert select_bandwidth(x, "scott") == rule_of_thumb(x, "scott")


def test_select_bandwidth_warns_at_the_end_of_the_grid():
    x = np.random.default_rng(6).normal(size=200)
    with pytest.warns(RuntimeWarning, match="end of the bandwidth grid"):
        h = select_bandwidth(x, "lscv", hs=[1.0, 2.0, 3.0])
    assert h == 1.0


def test_histogram_matches_numpy_and_integrates_to_one():
    x = np.random.default_rng(7).normal(size=400)
    for width, origin in ((0.5, 0.0), (0.3, 0.17), (1.0, -5.3)):
        edges, dens = histogram(x, width, origin)
        ref, ref_edges = np.histogram(x, bins=edges, density=True)
        np.testing.assert_allclose(dens, ref, rtol=1e-12)
        assert np.sum(dens * width) == pytest.approx(1.0)
        assert np.allclose((edges - origin) / width, np.round((edges - origin) / width))
        mid = 0.5 * (edges[:-1] + edges[1:])
        np.testing.assert_allclose(histogram_pdf(mid, x, width, origin), dens)
    assert histogram_pdf([100.0], x, 0.5)[0] == 0.0


def test_claw_density_and_sampler():
    total, _ = integrate.quad(lambda t: float(claw_pdf(t)[0]), -10, 10, points=[-1, -.5, 0, .5, 1],
                              limit=200)
    assert total == pytest.approx(1.0, abs=1e-10)
    ref = 0.5 * stats.norm.pdf(0.3) + sum(0.1 * stats.norm.pdf(0.3, j / 2 - 1, 0.1) for j in range(5))
    assert claw_pdf(0.3)[0] == pytest.approx(ref, rel=1e-12)
    s = sample_claw(20000, np.random.default_rng(8))
    assert s.mean() == pytest.approx(0.0, abs=0.03)
    assert s.var() == pytest.approx(0.755, rel=0.03)  # 0.5 + 0.1 * sum(0.01 + mu_j^2)
    cdf = lambda t: 0.5 * stats.norm.cdf(t) + sum(0.1 * stats.norm.cdf(t, j / 2 - 1, 0.1)
                                                  for j in range(5))
    assert stats.kstest(s, cdf).pvalue > 0.01
    np.testing.assert_array_equal(sample_claw(5, 3), sample_claw(5, np.random.default_rng(3)))


def test_log_likelihood_is_a_direct_sum():
    data = np.array([0.0, 1.0])
    x = np.array([0.5, 2.0])
    assert log_likelihood(x, data, 0.7) == pytest.approx(np.log(kde_pdf(x, data, 0.7)).sum())
    assert log_likelihood([5.0], data, 0.5, "box") == -np.inf


@pytest.mark.parametrize("call, exc, match", [
    (lambda: kde_pdf([0.0], [1.0], 0.0), ValueError, "h must be > 0"),
    (lambda: kde_pdf([0.0], [1.0], -1.0), ValueError, "h must be > 0"),
    (lambda: kde_pdf([0.0], [], 1.0), ValueError, "data is empty"),
    (lambda: kde_pdf([0.0], [1.0, np.nan], 1.0), ValueError, "data contains 1 NaN"),
    (lambda: kde_pdf([np.inf], [1.0], 1.0), ValueError, "x contains 1 NaN or infinite"),
    (lambda: kde_pdf([0.0], [1.0], 1.0, kernel="cosine"), ValueError, "kernel must be one of"),
    (lambda: kde_pdf([0.0], [[1.0, 2.0]], 1.0), ValueError, "data must be a 1-D array"),
    (lambda: kde_pdf([0.0], ["a"], 1.0), TypeError, "data must be numeric"),
    (lambda: kde_pdf([0.0], [1.0], "wide"), TypeError, "h must be a real number"),
    (lambda: histogram([1.0], 0.0), ValueError, "width must be > 0"),
    (lambda: histogram([1.0], -2.0), ValueError, "width must be > 0"),
    (lambda: histogram([0.0, 1e9], 1e-6), ValueError, "use a larger width"),
    (lambda: histogram([1.0], 1.0, origin=np.nan), ValueError, "origin must be finite"),
    (lambda: cv_curve([1.0], [0.5]), ValueError, "at least 2"),
    (lambda: cv_curve([1.0, 2.0], []), ValueError, "hs is empty"),
    (lambda: cv_curve([1.0, 2.0], [0.5, -0.1]), ValueError, "hs must be > 0"),
    (lambda: cv_curve([1.0, 2.0], [0.5], method="aic"), ValueError, "method must be one of"),
    (lambda: select_bandwidth([1.0, 2.0], method="best"), ValueError, "method must be one of"),
    (lambda: select_bandwidth([1.0, 1.0], method="silverman"), ValueError, "zero spread"),
    (lambda: rule_of_thumb([1.0, 2.0], rule="nrd"), ValueError, "rule must be one of"),
    (lambda: sample_claw(-1, 0), ValueError, "n must be >= 0"),
    (lambda: sample_claw(5, None), TypeError, "rng must be a numpy Generator"),
    (lambda: kernel_pdf([0.0], "gauss"), ValueError, "kernel must be one of"),
])
def test_bad_inputs_give_clear_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_constant_data_gives_finite_cv_scores():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores = cv_curve([2.0, 2.0, 2.0], [0.1, 1.0], "loo-likelihood")
    assert np.all(np.isfinite(scores))


def test_kde2d_grid_matches_sklearn_on_rescaled_data():
    from genviz.kde import kde2d_grid
    rng = np.random.default_rng(9)
    X = rng.normal(size=(150, 2)) * [800.0, 6.0] + [3000.0, 23.0]
    h = np.array([250.0, 2.0])
    xs, ys = np.linspace(1500, 5000, 7), np.linspace(10, 40, 5)
    Z = kde2d_grid(xs, ys, X, h)
    gx, gy = np.meshgrid(xs, ys)
    kd = KernelDensity(bandwidth=1.0, rtol=0, atol=0).fit(X / h)
    ref = np.exp(kd.score_samples(np.column_stack([gx.ravel(), gy.ravel()]) / h)) / h.prod()
    np.testing.assert_allclose(Z, ref.reshape(Z.shape), rtol=1e-10)
    for bad, match in (([1.0, -1.0], "positive"), ([[1.0]], "positive")):
        with pytest.raises(ValueError, match=match):
            kde2d_grid(xs, ys, X, bad)
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        kde2d_grid(xs, ys, X[:, 0], 1.0)


def test_histogram_held_out_log_likelihood():
    from genviz.kde import histogram_log_likelihood
    train = np.array([0.1, 0.2, 1.5, 1.7])
    test = np.array([0.5, 1.9])
    assert histogram_log_likelihood(test, train, 1.0) == pytest.approx(2 * np.log(0.5))
    assert histogram_log_likelihood([2.5], train, 1.0) == -np.inf
