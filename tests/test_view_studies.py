"""The model-layer studies the explorers draw (ARCHITECTURE.md, "Views only draw"), each against
an independent oracle (scikit-learn, scipy, brute force, closed forms), with hypothesis
properties and one test per kind of bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from scipy.spatial.distance import pdist
from sklearn.metrics import precision_score, recall_score, roc_auc_score
from sklearn.neighbors import KNeighborsClassifier

from genviz.studies.kde_bandwidth import BandwidthStudy
from genviz.studies.gda_fits import fit_gda_sample, gda_covariance_fits, posterior_two_ways
from genviz.studies.gda_vs_logistic import gda_vs_logistic_trial
from genviz.gda import GDA
from genviz.kde import claw_pdf, cv_curve_bruteforce, kde_pdf, sample_claw
from genviz.knn import SortedNeighbors, majority_vote, nearest_neighbor_predict, votes_at_k
from genviz.naive_bayes import CategoricalNB, MultinomialNB
from genviz.studies.naive_bayes_experiments import FitPath, KDEvsGaussianNB
from genviz.studies.spam import ThresholdStudy
from genviz.projections import projection_ratios, random_projection
from genviz.studies.gaussian import gaussian_sample
from genviz.studies.gda_fits import GDAFitSampler
from genviz.studies.joint import random_order
from genviz.studies.knn import LabelNoise
from genviz.synthetic import DataModel, flip_labels

SETTINGS = settings(max_examples=25, deadline=None)


# -- the spam filter's threshold study -------------------------------------------------------------
@pytest.fixture(scope="module")
def counts():
    rng = np.random.default_rng(3)
    n, V = 120, 30
    y = np.where(rng.random(n) < 0.4, "spam", "ham")
    rates = np.where((y == "spam")[:, None], rng.gamma(1.0, 1.0, V), rng.gamma(1.0, 1.0, V)[::-1])
    X = rng.poisson(rates)
    return X[:80], y[:80], X[80:], y[80:]


@pytest.mark.parametrize("alpha", [0.1, 1.0, 5.0])
def test_threshold_study_matches_sklearn_metrics(counts, alpha):
    X_train, y_train, X_test, y_test = counts
    fits = ThresholdStudy(X_train, y_train, X_test, y_test).at(alpha)
    truth = y_test == "spam"
    for name, fit in fits.items():
        direct = type(fit.model)(alpha=alpha).fit(X_train, y_train).decision_function(X_test)
        np.testing.assert_array_equal(fit.scores, direct)
        assert fit.curves.auc == pytest.approx(roc_auc_score(truth, fit.scores))
        for t in np.percentile(fit.scores, [5, 30, 50, 70, 95]):
            flagged = fit.scores > t
            pt = fit.curves.at(t)
            assert pt["recall"] == pytest.approx(recall_score(truth, flagged))
            assert pt["precision"] == pytest.approx(precision_score(truth, flagged))


def test_threshold_study_fits_once_per_alpha(counts):
    study = ThresholdStudy(*counts)
    assert study.at(1.0) is study.at(1.0 + 1e-14)
    assert study.at(2.0) is not study.at(1.0)


@pytest.mark.parametrize("alpha, error", [(0.0, ValueError), (-1.0, ValueError),
                                          ("a", TypeError), (float("nan"), ValueError)])
def test_threshold_study_bad_alpha(counts, alpha, error):
    with pytest.raises(error, match="alpha"):
        ThresholdStudy(*counts).at(alpha)


def test_threshold_study_needs_both_classes_in_the_test_set(counts):
    X_train, y_train, X_test, _ = counts
    with pytest.raises(ValueError, match="both classes"):
        ThresholdStudy(X_train, y_train, X_test, np.full(X_test.shape[0], "ham")).at(1.0)


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


# -- k-NN votes per k ------------------------------------------------------------------------------
def test_votes_at_k_match_sklearn_for_every_k():
    rng = np.random.default_rng(5)
    X, Q = rng.normal(size=(60, 2)), rng.normal(size=(200, 2))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    nb = SortedNeighbors(Q, X, 25)
    for k in range(1, 26):
        sk = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X, y)
        v = votes_at_k(nb, y, 2, k)
        np.testing.assert_array_equal(v.prediction, sk.predict(Q))
        np.testing.assert_allclose(v.counts / k, sk.predict_proba(Q))


@SETTINGS
@given(st.lists(st.lists(st.integers(0, 9), min_size=3, max_size=3), min_size=1, max_size=20))
def test_majority_vote_is_the_argmax_with_ties_to_the_smallest_code(rows):
    counts = np.array(rows)
    got = majority_vote(counts)
    for row, g in zip(rows, got):
        assert row[g] == max(row) and all(row[j] < max(row) for j in range(g))


@SETTINGS
@given(st.lists(st.integers(0, 1), min_size=1, max_size=30), st.integers(1, 30))
def test_binary_majority_is_the_strict_half(labels, k):
    k = min(k, len(labels))
    v1 = sum(labels[:k])
    assert majority_vote([[k - v1, v1]])[0] == int(2 * v1 > k)


@pytest.mark.parametrize("counts", [[1, 2], [[0.5, 1.0]], [["a", "b"]], np.zeros((2, 0), int)])
def test_majority_vote_bad_counts(counts):
    with pytest.raises(ValueError, match="counts"):
        majority_vote(counts)


def test_votes_at_k_bad_input():
    nb = SortedNeighbors([[0.0]], [[1.0], [2.0]], 2)
    with pytest.raises(TypeError, match="neighbors"):
        votes_at_k(np.zeros((1, 2), int), [0, 1], 2, 1)
    with pytest.raises(ValueError, match="k"):
        votes_at_k(nb, [0, 1], 2, 3)


def test_nearest_neighbor_predict_matches_sklearn():
    rng = np.random.default_rng(6)
    X, Q = rng.normal(size=(40, 2)), rng.normal(size=(50, 2))
    y = np.array(["a", "b", "c"])[rng.integers(0, 3, 40)]
    labels, dist, ind = nearest_neighbor_predict(X, y, Q, 1)
    sk = KNeighborsClassifier(1, algorithm="brute").fit(X, y)
    np.testing.assert_array_equal(labels, sk.predict(Q))
    sd, si = sk.kneighbors(Q)
    np.testing.assert_array_equal(ind, si)
    np.testing.assert_allclose(dist, sd)
    with pytest.raises(ValueError, match="k"):
        nearest_neighbor_predict(X, y, Q, 41)


# -- samplers --------------------------------------------------------------------------------------
def test_label_noise_is_flip_labels_cached():
    y = np.repeat([0, 1], 50)
    noise = LabelNoise(y, 2, seed=3)
    for f in (0.0, 0.1, 0.35, 1.0):
        got = noise(f)
        want = flip_labels(y, f, 2, rng=3)
        np.testing.assert_array_equal(got[0], want[0])
        assert noise(f) is got


@SETTINGS
@given(st.floats(0, 1), st.floats(0, 1))
def test_label_noise_sets_are_nested(a, b):
    noise = LabelNoise(np.repeat([0, 1, 2], 20), 3, seed=0)
    lo, hi = sorted((a, b))
    assert np.all(noise(hi)[1][noise(lo)[1]])


@pytest.mark.parametrize("args, error, word", [
    (([0.5, 1.0], 2), ValueError, "y_codes"), (([0, 1], 1), ValueError, "n_classes"),
    (([0, 1], 2, -1), ValueError, "seed")])
def test_label_noise_bad_input(args, error, word):
    with pytest.raises(error, match=word):
        LabelNoise(*args)
    with pytest.raises(ValueError, match="fraction"):
        LabelNoise([0, 1], 2)(1.5)


def test_gda_fit_sampler_moments_match_the_model():
    mu0, mu1 = np.array([-1.0, 0.5]), np.array([2.0, -1.0])
    cov = np.array([[1.0, 0.6], [0.6, 2.0]])
    X, y = GDAFitSampler(n_max=20000, seed=1).points(20000, mu0, mu1, cov, 0.3)
    assert y.mean() == pytest.approx(0.3, abs=0.01)
    for k, mu in ((0, mu0), (1, mu1)):
        np.testing.assert_allclose(X[y == k].mean(axis=0), mu, atol=0.05)
        np.testing.assert_allclose(np.cov(X[y == k], rowvar=False), cov, atol=0.08)
    # the first x of every point is mu_y + (L z)_0 with L the Cholesky factor: by hand
    s = GDAFitSampler(n_max=10, seed=1)
    X, y = s.points(10, mu0, mu1, cov, 0.3)
    L = np.array([[1.0, 0.0], [0.6, np.sqrt(2.0 - 0.36)]])
    np.testing.assert_allclose(X, np.where(y[:, None] == 1, mu1, mu0) + s.z @ L.T)


@SETTINGS
@given(st.integers(4, 60), st.floats(0.01, 0.99))
def test_gda_fit_sampler_keeps_two_points_per_class_and_moves_continuously(n, phi):
    s = GDAFitSampler(n_max=60, seed=2)
    X, y = s.points(n, [0, 0], [1, 1], np.eye(2), phi)
    assert min(y.sum(), n - y.sum()) >= 2
    X2, y2 = s.points(n, [0.5, 0], [1, 1], np.eye(2), phi)  # move mu0: same labels, same z
    np.testing.assert_array_equal(y, y2)
    np.testing.assert_allclose((X2 - X)[y == 0], [[0.5, 0.0]] * int((y == 0).sum()))


@pytest.mark.parametrize("args, error, word", [
    ((3, [0, 0], [1, 1], np.eye(2), 0.5), ValueError, "n"),
    ((11, [0, 0], [1, 1], np.eye(2), 0.5), ValueError, "n"),
    ((5, [0, 0, 0], [1, 1], np.eye(2), 0.5), ValueError, "mu0"),
    ((5, [0, 0], [1, 1], [[1, 2], [2, 1]], 0.5), ValueError, "cov"),
    ((5, [0, 0], [1, 1], np.eye(2), 1.0), ValueError, "phi"),
])
def test_gda_fit_sampler_bad_input(args, error, word):
    with pytest.raises(error, match=word):
        GDAFitSampler(n_max=10).points(*args)
    with pytest.raises(ValueError, match="n_max"):
        GDAFitSampler(n_max=3)


def test_gaussian_sample_moments():
    s = gaussian_sample(50000, [1.0, -2.0], [[2.0, -0.5], [-0.5, 1.0]], rng=0)
    np.testing.assert_allclose(s.mean, [1.0, -2.0], atol=0.03)
    np.testing.assert_allclose(s.cov, [[2.0, -0.5], [-0.5, 1.0]], atol=0.05)
    np.testing.assert_allclose(s.cov, np.cov(s.X.T))
    assert np.isnan(gaussian_sample(0, [0, 0], np.eye(2), 0).mean).all()
    assert np.isnan(gaussian_sample(1, [0, 0], np.eye(2), 0).cov).all()
    with pytest.raises(ValueError, match="n"):
        gaussian_sample(-1, [0, 0], np.eye(2), 0)


@SETTINGS
@given(st.integers(0, 50), st.integers(0, 1000))
def test_random_order_is_a_permutation(n, seed):
    order = random_order(n, seed)
    assert sorted(order.tolist()) == list(range(n))
    np.testing.assert_array_equal(order, random_order(n, seed))


def test_random_order_bad_input():
    with pytest.raises(ValueError, match="n"):
        random_order(-1, 0)
    with pytest.raises(ValueError, match="seed"):
        random_order(3, -1)


# -- the GDA studies -------------------------------------------------------------------------------
def test_fit_gda_sample_against_the_closed_form():
    mu = np.array([[-1.0, 0.0], [1.5, 1.0]])
    cov = np.array([[1.0, 0.3], [0.3, 0.8]])
    X, y = GDAFitSampler(seed=3).points(300, mu[0], mu[1], cov, 0.4)
    f = fit_gda_sample(X, y, true_phi=0.4, true_means=mu, true_cov=cov)
    m0, m1 = X[y == 0].mean(0), X[y == 1].mean(0)
    R = np.where(y[:, None] == 1, X - m1, X - m0)
    S = R.T @ R / len(y)  # the MLE, dividing by n
    phi = y.mean()
    theta = np.linalg.solve(S, m1 - m0)
    theta0 = -0.5 * (m1 @ np.linalg.solve(S, m1) - m0 @ np.linalg.solve(S, m0)) + np.log(phi / (1 - phi))
    np.testing.assert_allclose(f.theta, theta)
    assert f.theta0 == pytest.approx(theta0)
    np.testing.assert_allclose(f.theta_true, np.linalg.solve(cov, mu[1] - mu[0]))
    np.testing.assert_allclose(f.scores, X @ theta + theta0)
    assert f.training_error == pytest.approx(np.mean((X @ theta + theta0 > 0) != y))
    with pytest.raises(ValueError, match="true_phi"):
        fit_gda_sample(X, y, true_phi=1.0, true_means=mu, true_cov=cov)


def test_posterior_two_ways_agree_with_bayes_rule_by_scipy():
    rng = np.random.default_rng(8)
    X = np.r_[rng.normal(-1, 1, (40, 2)), rng.normal(1, 1, (60, 2))]
    y = np.repeat([0, 1], [40, 60])
    g = GDA().fit(X, y)
    P = rng.normal(size=(30, 2)) * 2
    p0 = stats.multivariate_normal(g.means_[0], g.covariance_).pdf(P) * 0.4
    p1 = stats.multivariate_normal(g.means_[1], g.covariance_).pdf(P) * 0.6
    r = posterior_two_ways(g, P)
    np.testing.assert_allclose(r.bayes, p1 / (p0 + p1), rtol=1e-9)
    np.testing.assert_allclose(r.logistic, p1 / (p0 + p1), rtol=1e-9)
    assert r.max_abs_difference < 1e-12


def test_gda_covariance_fits_training_errors_by_scipy():
    rng = np.random.default_rng(9)
    X = np.r_[rng.normal(0, [1, 2], (50, 2)), rng.normal(1, [2, 0.5], (50, 2))]
    y = np.repeat([0, 1], 50)
    shared, separate = gda_covariance_fits(X, y)
    assert shared.shared_cov and not separate.shared_cov
    covs = [np.cov(X[y == k].T, bias=True) for k in (0, 1)]
    dens = [stats.multivariate_normal(X[y == k].mean(0), covs[k]).pdf(X) for k in (0, 1)]
    assert separate.training_error == pytest.approx(np.mean((dens[1] > dens[0]) != y))
    assert 0 <= shared.training_error <= 0.5
    with pytest.raises(TypeError, match="shared"):
        gda_covariance_fits(X, y, shared=("yes",))


def test_gda_vs_logistic_trial_against_sklearn():
    from sklearn.linear_model import LogisticRegression as SkLR

    m = DataModel("gaussian", [-1.0, 0.0], [1.0, 0.5], np.eye(2), phi=0.5)
    t = gda_vs_logistic_trial(m, 150, n_test=3000, seed=1)
    sk = SkLR(C=np.inf, tol=1e-12, max_iter=10000).fit(t.X, t.y)
    assert t.lr_l2 == 0.0
    assert t.lr_error == pytest.approx(np.mean(sk.predict(t.X_test) != t.y_test), abs=2e-3)
    assert t.bayes_error == pytest.approx(np.mean((m.log_odds(t.X_test) > 0) != t.y_test))
    assert t.bayes_error <= t.test_error(t.gda()) + 0.02


def test_gda_vs_logistic_trial_falls_back_on_separable_data():
    m = DataModel("gaussian", [-6.0, 0.0], [6.0, 0.0], 0.3 * np.eye(2))
    t = gda_vs_logistic_trial(m, 40, n_test=100, seed=0)
    assert t.lr_l2 == 1e-3 and t.lr_error == 0.0


@pytest.mark.parametrize("args, kwargs, error, word", [
    (("not a model", 50), {}, TypeError, "data_model"),
    ((None, 3), {}, ValueError, "n"),
    ((None, 50), dict(n_test=0), ValueError, "n_test"),
    ((None, 5), dict(seed=0), ValueError, "fewer than 2 points"),
])
def test_gda_vs_logistic_trial_bad_input(args, kwargs, error, word):
    m = DataModel("gaussian", [-1.0, 0.0], [1.0, 0.0], np.eye(2), phi=0.97 if args[1] == 5 else 0.5)
    args = (m if args[0] is None else args[0], args[1])
    with pytest.raises(error, match=word):
        gda_vs_logistic_trial(*args, **kwargs)
    if word == "data_model":
        with pytest.raises(ValueError, match="gda_cov"):
            gda_vs_logistic_trial(m, 50).gda("diagonal")


# -- projections, fit paths, KDE vs Gaussian NB --------------------------------------------------
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


def test_fit_path_is_the_direct_fit_and_bounded():
    X = [["a", "x"], ["b", "x"], ["a", "y"], ["b", "y"], ["a", "x"]]
    y = [0, 1, 1, 0, 0]
    path = FitPath(CategoricalNB, "alpha", X, y, max_cached=2)
    for a in (0.0, 0.5, 2.0):
        direct = CategoricalNB(alpha=a).fit(X, y)
        np.testing.assert_allclose(path(a).predict_proba(X), direct.predict_proba(X))
    assert len(path._fits) == 2
    with pytest.raises(TypeError, match="estimator"):
        FitPath(CategoricalNB(), "alpha", X, y)
    with pytest.raises(TypeError, match="param"):
        FitPath(CategoricalNB, 3, X, y)
    with pytest.raises(ValueError, match="max_cached"):
        FitPath(MultinomialNB, "alpha", X, y, max_cached=0)


def test_kde_vs_gaussian_nb_accuracy_against_sklearn():
    from sklearn.naive_bayes import GaussianNB as SkGNB

    rng = np.random.default_rng(11)
    x = np.r_[rng.normal(0, 1, 80), rng.normal(2, 1, 80)]
    y = np.repeat(["a", "b"], 80)
    xt = np.r_[rng.normal(0, 1, 50), rng.normal(2, 1, 50)]
    yt = np.repeat(["a", "b"], 50)
    s = KDEvsGaussianNB(x, y, xt, yt)
    sk = SkGNB(var_smoothing=0.0).fit(x[:, None], y)
    assert s.accuracy_gaussian == pytest.approx(np.mean(sk.predict(xt[:, None]) == yt))
    assert 0.5 < s.kde(0.4).accuracy <= 1.0
    with pytest.raises(ValueError, match="bandwidth"):
        s.kde(0.0)
    with pytest.raises(ValueError, match="y"):
        KDEvsGaussianNB(x, y[:-1])
