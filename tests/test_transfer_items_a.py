"""The analogous situations (issue #40 item 3) that end the predictions of notebooks 01, 03, 04,
05 and 09: each computed answer against an independent oracle (a closed form, scipy or
scikit-learn, on the same situation drawn again here), and each transfer's right option is the
one the oracle says."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy.stats import binom, chi, gaussian_kde, norm
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsRegressor

from genviz.exercises import gda as gdx
from genviz.exercises import joint as jx
from genviz.exercises import kde as kx
from genviz.exercises import kde_transfer, knn_transfer
from genviz.exercises import knn as nnx


def right(item):
    return item.options[item.correct[0]]


def numbers(text):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


def test_empty_share_transfer_random_share_is_the_closed_form():
    """Records thrown at random leave each of c cells empty with probability (1 - 1/c)^n."""
    cards, n = (6, 2, 5, 10), 600
    t = jx._empty_share_transfer(cards, n)
    cells = int(np.prod(cards))
    oracle = (1 - 1 / cells) ** n
    said = numbers(right(t))[0] / 100
    assert abs(said - oracle) <= 0.03  # one seeded draw: a standard deviation is about 0.02
    assert right(t).startswith("more than")  # dependent attributes: more than chance
    assert t.id == "01-empty-share-transfer" and t.kind == "transfer"


def _closed_form_crossing(phi, mu0, mu1, cov):
    """t in mu0 + t (mu1 - mu0) where phi N(mu1, S) = (1 - phi) N(mu0, S):
    t = 1/2 - log(phi / (1 - phi)) / Delta^2, Delta the Mahalanobis distance of the means."""
    diff = np.subtract(mu1, mu0)
    delta2 = diff @ np.linalg.solve(cov, diff)
    return 0.5 - np.log(phi / (1 - phi)) / delta2


def test_boundary_with_phi_transfer_crossings_and_direction():
    rho, mu0, mu1 = 0.3, (0.0, 0.0), (3.0, 2.0)
    cov = np.array([[1.0, rho], [rho, 1.0]])
    t0, t1 = (_closed_form_crossing(phi, mu0, mu1, cov) for phi in (0.2, 0.02))
    q = gdx._boundary_with_phi_transfer(0.2, 0.02, mu0, mu1, rho)
    assert f"{t0:.0%} of the way" in q.explanation and f"{t1:.0%} at" in q.explanation
    assert t1 > t0  # a rarer illness: towards the ill mean
    assert "towards the ill mean" in right(q)
    q_up = gdx._boundary_with_phi_transfer(0.02, 0.2, mu0, mu1, rho)  # commoner: the other way
    assert "towards the healthy mean" in right(q_up)


def _fraud_sample(n=300, far=40.0, share=0.1, seed=0):
    gen = np.random.default_rng(seed)
    genuine, fraud = gen.normal(2.0, 1.0, n), gen.normal(5.0, 1.0, n)
    moved = fraud.copy()
    k = int(round(share * n))
    moved[:k] = gen.normal(far, 1.0, k)
    return genuine, fraud, moved


def _oracle_thresholds(x0, x1):
    """GDA in one dimension in closed form (pooled variance over n), logistic regression by
    scikit-learn without a penalty."""
    n = x0.size + x1.size
    phi = x1.size / n
    var = (np.sum((x0 - x0.mean()) ** 2) + np.sum((x1 - x1.mean()) ** 2)) / n
    gda = (x0.mean() + x1.mean()) / 2 + var * np.log((1 - phi) / phi) / (x1.mean() - x0.mean())
    X = np.concatenate([x0, x1])[:, None]
    y = np.r_[np.zeros(x0.size), np.ones(x1.size)]
    lr = LogisticRegression(C=np.inf, tol=1e-10, max_iter=10000).fit(X, y)
    return gda, float(-lr.intercept_[0] / lr.coef_[0, 0])


def test_outliers_transfer_thresholds_against_closed_form_and_sklearn():
    genuine, fraud, moved = _fraud_sample()
    (g0, l0), (g1, l1) = _oracle_thresholds(genuine, fraud), _oracle_thresholds(genuine, moved)
    q = gdx._outliers_transfer()
    for value in (g0, g1, l0, l1):
        assert f"{value:.2f}" in q.explanation
    assert abs(g1 - g0) > 5 * abs(l1 - l0)  # GDA's moves far more
    assert right(q) == f"GDA's: from {g0:.1f} to {g1:.1f}, in among the fraud cases"


def test_bin_origin_transfer_counts_against_numpy_histogram():
    gen = np.random.default_rng(0)
    times = np.concatenate([gen.uniform(8.0, 20.0, 150), gen.normal(12.5, 0.12, 60)])
    full = np.histogram(times, bins=np.arange(0.0, 25.0, 1.0))[0].max()
    half = np.histogram(times, bins=np.arange(0.5, 25.0, 1.0))[0].max()
    q = kx._bin_origin_transfer()
    assert f"counts {full} customers" in q.explanation and f"counts only {half}" in q.explanation
    assert half < 0.8 * full  # split: the tallest bar falls
    assert right(q) == "the rush is split into two bars, each much lower"


def test_tiny_bandwidth_transfer_density_against_scipy():
    delays = np.array([0.0, 4.0, 7.0, 12.0, 15.0, 18.0, 25.0, 31.0, 40.0, 55.0])
    h, new = 0.1, 2.0
    oracle = norm.pdf((new - delays) / h).sum() / (delays.size * h)
    at_sample = norm.pdf((delays[0] - delays) / h).sum() / (delays.size * h)
    q = kx._tiny_bandwidth_transfer(tuple(delays), h, new)
    assert f"estimate is {oracle:.0e} at" in q.explanation
    assert f"against {at_sample:.2f}" in q.explanation
    assert oracle < 1e-6 * at_sample and right(q).startswith("practically 0")


def _oracle_lscv(x, hs):
    """LSCV of the Gaussian KDE in closed form: int f^2 = (1/n^2) sum_ij N(x_i - x_j; 0, 2h^2),
    f_{-i}(x_i) = (1/(n-1)) sum_{j != i} N(x_i - x_j; 0, h^2)."""
    n = x.size
    d = (x[:, None] - x[None, :]).ravel()
    out = []
    for h in hs:
        int_f2 = norm.pdf(d, scale=np.sqrt(2) * h).sum() / n**2
        loo = (norm.pdf(d, scale=h).sum() - n * norm.pdf(0, scale=h)) / (n * (n - 1))
        out.append(int_f2 - 2 * loo)
    return np.array(out)


def test_cv_transfer_bandwidths_against_closed_form_lscv():
    def sample(n, seed=1):
        gen = np.random.default_rng(seed)
        return np.concatenate([gen.normal(0.0, 1.0, n // 2), gen.normal(3.0, 0.5, n - n // 2)])

    from genviz.exercises.kde_practice import EXPLORER_HS as hs
    few, many = (float(hs[np.argmin(_oracle_lscv(sample(n), hs))]) for n in (100, 1000))
    q = kx._cv_transfer(100, 1000)
    assert f"h = {few:.3f} for 100" in q.explanation and f"h = {many:.3f} for 1000" in q.explanation
    assert 1 < few / many < 10
    assert right(q) == f"a smaller h, about {few / many:.1f} times smaller"


def test_2d_peak_transfer_ratio_against_scipy_gaussian_kde():
    heights = np.random.default_rng(0).normal(170.0, 7.0, 1000)
    xs = np.linspace(140.0, 200.0, 601)
    sd = heights.std(ddof=1)  # scipy's bandwidth is its factor times the data's std (ddof=1)
    peak = [gaussian_kde(heights, bw_method=h / sd)(xs).max() for h in (1.0, 2.0)]
    ratio = peak[1] / peak[0]
    q = kx._2d_peak_transfer()
    assert right(q) == f"it keeps about {ratio:.0%} of its height, barely lower"
    assert 0.8 < ratio < 1  # neither halved (one bump) nor quartered (a 2-D bump)


def test_noise_and_k_transfer_vote_against_the_binomial_tail():
    p, k = 0.1, 9
    vote = binom.sf(k // 2, k, p)  # wrong when more than half of the k labels are wrong
    assert knn_transfer._wrong_vote_probability(k, p) == pytest.approx(vote, rel=1e-12)
    assert knn_transfer._wrong_vote_probability(1, p) == pytest.approx(p, rel=1e-12)
    q = nnx._noise_and_k_transfer(p, k)
    assert right(q) == f"nearest {p:.0%}, vote about {vote:.2%}: almost never"
    assert f"probability {vote:.5f}" in q.explanation
    assert f"{p / vote:.0f} times less often" in q.explanation


def test_regression_k_transfer_errors_against_sklearn():
    days, windows = 730, (1, 15, 181)
    t = np.arange(days, dtype=float)
    season = 10.0 - 8.0 * np.cos(2 * np.pi * t / 365.0)
    temps = season + np.random.default_rng(0).normal(0.0, 3.0, days)
    mse = [np.mean((KNeighborsRegressor(n_neighbors=w).fit(t[:, None], temps)
                    .predict(t[:, None]) - season) ** 2) for w in windows]
    q = nnx._regression_k_transfer(windows)
    for w, e in zip(windows, mse):
        assert f"{e:.2f} over {w} day" in q.explanation
    best = windows[int(np.argmin(mse))]
    assert best == 15 and right(q).startswith(f"the {best}-day one")


def test_projection_spread_transfer_factor_against_the_chi_distribution():
    """A projected distance ratio is sqrt(chi2_d / d): its standard deviation is
    chi(d).std() / sqrt(d); the factor that cuts it to a quarter, and the spread read there."""
    d, factors = 4, (4, 8, 16, 64)

    def sd(dd):
        return chi(dd).std() / np.sqrt(dd)

    oracle = min(factors, key=lambda f: abs(np.log(sd(d) / sd(d * f)) - np.log(4)))
    q = nnx._projection_spread_transfer(d, factors)
    assert right(q) == f"{oracle} times (d = {d * oracle})"
    read = numbers(q.explanation.split("standard deviation is ")[1])[0]
    assert read == pytest.approx(sd(d * oracle), rel=0.25)  # 30 random points: 435 pairs


@pytest.mark.parametrize("make", [
    lambda: jx._empty_share_transfer(), lambda: gdx._boundary_with_phi_transfer(),
    lambda: gdx._outliers_transfer(), lambda: kx._bin_origin_transfer(),
    lambda: kx._tiny_bandwidth_transfer(), lambda: kx._cv_transfer(),
    lambda: kde_transfer._2d_peak_transfer(), lambda: nnx._noise_and_k_transfer(),
    lambda: nnx._regression_k_transfer(), lambda: nnx._projection_spread_transfer()])
def test_each_transfer_is_a_fair_question(make):
    """A reason for each wrong option and none for the right one; the right option is not the
    uniquely longest; every claim matches the transfer's own right option or explanation."""
    from genviz.exercises import matching_claims
    q = make()
    assert q.kind == "transfer" and q.id.endswith("-transfer")
    k = q.correct[0]
    assert q.reasons[k] is None
    assert all(q.reasons[i] for i in range(len(q.options)) if i != k)
    lengths = [len(o) for o in q.options]
    assert not (lengths[k] == max(lengths) and lengths.count(max(lengths)) == 1)
    own = " ".join([q.options[k], q.explanation])
    assert q.claims and all(matching_claims([c], own) for c in q.claims)
