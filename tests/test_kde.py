"""genviz.kde against independent oracles: scipy, scikit-learn, quadrature, a literal LOO loop."""

import warnings

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import logsumexp
from sklearn.neighbors import KernelDensity

from genviz.kde import (KERNELS, claw_pdf, cv_curve, cv_curve_bruteforce, histogram, kde2d_grid,
                        histogram_log_likelihood,
                        histogram_pdf, kde_bumps, kde_pdf, kernel_pdf, log_likelihood,
                        rule_of_thumb, sample_claw, select_bandwidth)

SUPPORT = {"gaussian": 12.0, "box": 0.5, "tophat": 1.0, "epanechnikov": 1.0, "triangular": 1.0}
# Fast sweep vs exact: the stated tolerance (cv_curve's docstring) is 1e-8 on the mean LOO
# log-likelihood and 1e-9 of the terms' size for LSCV; 1e-8 relative covers both here.
RTOL_BINNED = 1e-8


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
    grid = np.linspace(data.min() - 12 * h, data.max() + 12 * h, 40001)  # trapezoid: spectral
    return np.trapezoid(kde_pdf(grid, data, h, kernel) ** 2, grid) - 2 * loo.mean()


@pytest.mark.parametrize("method", ["loo-likelihood", "lscv"])
def test_fast_gaussian_sweep_equals_a_literal_leave_one_out_loop(method):
    data = sample_claw(150, np.random.default_rng(3))
    hs = np.geomspace(0.02, 1.5, 9)
    fast = cv_curve(data, hs, method)
    want = np.array([literal_loo(data, h, method, "gaussian") for h in hs])
    # LSCV's literal integral is a trapezoid rule (spectrally accurate, to ~1e-12 here)
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
    (lambda: kde_pdf([0.0], ["a"], 1.0), TypeError, "data must be real numbers"),
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


# -- the defects of issue 11, each in a test ---------------------------------------------------
def loo_in_log_space(data, h):
    n = data.size
    return np.mean([logsumexp(-0.5 * ((data[i] - np.delete(data, i)) / h) ** 2)
                    - np.log(np.sqrt(2 * np.pi) * h * (n - 1)) for i in range(n)])


def test_isolated_point_is_left_out_exactly():
    # the old binned sweep returned -13.78 here
    got = cv_curve(np.array([0.0, 0.0, 35.0]), np.array([1.0]), "loo-likelihood")[0]
    assert got == pytest.approx(loo_in_log_space(np.array([0.0, 0.0, 35.0]), 1.0), abs=1e-8)
    assert got == pytest.approx(-205.5477, abs=1e-4)


def test_one_outlier_does_not_fool_the_likelihood_sweep():
    x = np.random.default_rng(10).standard_normal(300)
    x[0] = 25.0
    hs = np.geomspace(0.02, 10, 60)
    np.testing.assert_allclose(cv_curve(x, hs, "loo-likelihood"),
                               cv_curve_bruteforce(x, hs, "loo-likelihood"), rtol=1e-9)
    np.testing.assert_allclose(cv_curve(x, hs, "lscv"), cv_curve_bruteforce(x, hs, "lscv"),
                               rtol=1e-8)


@pytest.mark.parametrize("data", [
    np.array([1.0, 1.0, 1.0 + 1e-6]),                                # asked for 196 GiB before
    np.concatenate([np.zeros(5), np.full(5, 1e12)]),                  # two ties, 1e12 apart
    1e9 + 1e-6 * np.random.default_rng(11).standard_normal(50),      # huge offset, tiny spread
    np.random.default_rng(12).standard_cauchy(200),                   # heavy tails
    np.array([0.0, 1e-300]), np.array([-1e300, 1e300]),               # tiny / huge scales
])
def test_memory_stays_bounded_and_the_sweep_exact_on_extreme_samples(data):
    import tracemalloc
    with np.errstate(over="ignore"):
        hs = np.array([1e-12, 1e-6, 0.5, 1e3, 1e15]) * np.ptp(data)
    hs = hs[np.isfinite(hs) & (hs > 0)]
    tracemalloc.start()
    try:
        got = {m: cv_curve(data, hs, m) for m in ("loo-likelihood", "lscv")}
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64e6
    with np.errstate(over="ignore", invalid="ignore"):
        want = cv_curve_bruteforce(data, hs, "loo-likelihood")
    for g, w in zip(got["loo-likelihood"], want):
        assert g == w or abs(g - w) <= 1e-8 * (1 + abs(w))


def test_sweep_memory_is_bounded_for_a_large_sample():
    import tracemalloc
    x = np.random.default_rng(13).standard_normal(200_000)
    tracemalloc.start()
    try:
        cv_curve(x, [1e-4, 0.05, 30.0], "loo-likelihood")
        cv_curve(x, [1e-4, 0.05, 30.0], "lscv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40e6  # ~ 20 arrays of the data's length, no n x n or grid x n temporaries


def test_n_equal_two_and_ties():
    for data in ([0.0, 1.0], [2.0, 2.0], [3.0, 3.0, 3.0, 7.0]):
        data = np.array(data)
        for h in (1e-3, 0.3, 50.0):
            assert cv_curve(data, [h], "loo-likelihood")[0] == pytest.approx(
                loo_in_log_space(data, h), abs=1e-8)


# -- bad inputs: every public function, error class and the argument's name ---------------------
GOOD = np.array([0.0, 0.4, 1.3])
BAD_ARRAYS = [
    (["0", "1"], TypeError, "must be real numbers"),                 # numeric strings: not parsed
    (np.array([1 + 2j, 3.0]), TypeError, "complex"),
    (np.array([True, False]), TypeError, "booleans"),
    (np.array([1.0, True], dtype=object), TypeError, "must be real numbers"),
    (np.array([1.0, None], dtype=object), TypeError, "must be real numbers"),
    ([1.0, np.nan], ValueError, "NaN"),
    ([1.0, np.inf], ValueError, "NaN or infinite"),
    ("1.5", TypeError, "must be real numbers"),
]
ARRAY_CALLS = {
    "kernel_pdf(u)": (lambda v: kernel_pdf(v), "u"),
    "kde_pdf(x)": (lambda v: kde_pdf(v, GOOD, 0.5), "x"),
    "kde_pdf(data)": (lambda v: kde_pdf([0.0], v, 0.5), "data"),
    "kde_bumps(data)": (lambda v: kde_bumps([0.0], v, 0.5), "data"),
    "log_likelihood(x)": (lambda v: log_likelihood(v, GOOD, 0.5), "x"),
    "histogram(data)": (lambda v: histogram(v, 0.5), "data"),
    "histogram_pdf(x)": (lambda v: histogram_pdf(v, GOOD, 0.5), "x"),
    "cv_curve(data)": (lambda v: cv_curve(v, [0.5]), "data"),
    "cv_curve(hs)": (lambda v: cv_curve(GOOD, v), "hs"),
    "cv_curve_bruteforce(data)": (lambda v: cv_curve_bruteforce(v, [0.5]), "data"),
    "select_bandwidth(data)": (lambda v: select_bandwidth(v, "lscv"), "data"),
    "select_bandwidth(hs)": (lambda v: select_bandwidth(GOOD, "lscv", hs=v), "hs"),
    "rule_of_thumb(data)": (lambda v: rule_of_thumb(v), "data"),
    "claw_pdf(x)": (lambda v: claw_pdf(v), "x"),
}


@pytest.mark.parametrize("call", list(ARRAY_CALLS))
@pytest.mark.parametrize("bad, exc, match", BAD_ARRAYS)
def test_non_real_or_non_finite_arrays_are_refused(call, bad, exc, match):
    fn, name = ARRAY_CALLS[call]
    with pytest.raises(exc, match=match) as info:
        fn(bad)
    assert name in str(info.value)


@pytest.mark.parametrize("call, name", [
    (lambda h: kde_pdf([0.0], GOOD, h), "h"), (lambda h: kde_bumps([0.0], GOOD, h), "h"),
    (lambda h: log_likelihood([0.0], GOOD, h), "h"), (lambda h: histogram(GOOD, h), "width"),
    (lambda h: histogram_pdf([0.0], GOOD, h), "width"), (lambda h: cv_curve(GOOD, [h]), "hs"),
    (lambda h: kde2d_grid([0.0], [0.0], [[0.0, 0.0]], h), "h"),
])
@pytest.mark.parametrize("h", [0.0, -1.0, np.nan, np.inf, "0.5", 1j])
def test_bandwidths_must_be_positive_finite_reals(call, name, h):
    with pytest.raises((ValueError, TypeError)) as info:
        call(h)
    assert name in str(info.value)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: kde_pdf([], GOOD, 0.5), ValueError, "x is empty"),
    (lambda: kde_pdf([[0.0, 1.0]], GOOD, 0.5), ValueError, "x must be a 1-D"),
    (lambda: cv_curve(np.zeros((2, 2)), [0.5]), ValueError, "data must be a 1-D"),
    (lambda: cv_curve(GOOD, [[0.5, 1.0]]), ValueError, "hs must be a 1-D"),
    (lambda: cv_curve([1.0], [0.5], "loo-likelihood"), ValueError, "data has 1 observation"),
    (lambda: cv_curve([], [0.5]), ValueError, "data is empty"),
    (lambda: cv_curve(GOOD, [0.5], kernel="cosine"), ValueError, "kernel must be one of"),
    (lambda: cv_curve([-1e308, 1e308], [0.5]), ValueError, "data spans"),
    (lambda: kde2d_grid([0.0], [0.0], [[0.0, 1j]], 1.0), TypeError, "data must be real"),
    (lambda: kde2d_grid([0.0], ["1"], [[0.0, 1.0]], 1.0), TypeError, "ys must be real"),
    (lambda: kde2d_grid([0.0], [0.0], np.zeros((0, 2)), 1.0), ValueError, "data must have shape"),
    (lambda: kde2d_grid([0.0], [0.0], [[0.0, 1.0]], [1.0, 2.0, 3.0]), ValueError, "h must be"),
    (lambda: histogram_log_likelihood(["1"], GOOD, 0.5), TypeError, "x must be real"),
    (lambda: select_bandwidth([5.0, 5.0, 5.0], "lscv"), ValueError, "zero spread"),
    (lambda: sample_claw(2.5, 0), TypeError, "n must be"),
])
def test_other_bad_inputs(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
