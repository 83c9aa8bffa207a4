"""GDA against the notes' formulas, scikit-learn's LDA/QDA and scipy; bad inputs; synthetic data."""

import warnings

import numpy as np
import pytest
from scipy.special import expit
from scipy.stats import multivariate_normal
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis

from genviz.gda import GDA, check_labels, logistic_params, quadratic_params
from genviz.studies.gda_vs_logistic_curves import LearningCurves, crossing_size, learning_curves
from genviz.synthetic import DataModel, FAMILIES


def two_class(n=300, seed=0, d=2):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    A = np.triu(np.ones((d, d))) * 0.5 + np.eye(d) * 0.5
    X = rng.standard_normal((n, d)) @ A + np.where(y[:, None] == 1, 1.2, 0.0) * np.arange(1, d + 1)
    return X, y


def three_class(n=400, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    centres = np.array([[0.0, 0.0], [3.0, 0.5], [1.0, 3.0]])
    X = centres[y] + rng.standard_normal((n, 2)) @ np.array([[1.0, 0.3], [0.0, 0.7]])
    return X, y


def test_mle_is_exactly_the_notes_formulas():
    X, y = two_class()
    g = GDA().fit(X, y)
    n = len(y)
    phi = np.sum(y == 1) / n
    mu0 = X[y == 0].sum(axis=0) / np.sum(y == 0)
    mu1 = X[y == 1].sum(axis=0) / np.sum(y == 1)
    mus = np.where(y[:, None] == 1, mu1, mu0)
    Sigma = sum(np.outer(x - m, x - m) for x, m in zip(X, mus)) / n  # divides by n
    assert g.phi_ == pytest.approx(phi, abs=1e-15)
    np.testing.assert_allclose(g.class_prior_, [1 - phi, phi], atol=1e-15)
    np.testing.assert_allclose(g.means_, [mu0, mu1], atol=1e-12)
    np.testing.assert_allclose(g.covariance_, Sigma, atol=1e-12)


@pytest.mark.parametrize("solver", ["lsqr", "eigen"])
@pytest.mark.parametrize("data", [two_class, three_class, lambda: two_class(d=4)])
def test_shared_cov_agrees_with_sklearn_lda(solver, data):
    X, y = data()
    g = GDA().fit(X, y)
    lda = LinearDiscriminantAnalysis(solver=solver, store_covariance=True).fit(X, y)
    np.testing.assert_allclose(g.covariance_, lda.covariance_, atol=1e-10)  # LDA divides by n
    np.testing.assert_allclose(g.means_, lda.means_, atol=1e-10)
    np.testing.assert_allclose(g.class_prior_, lda.priors_, atol=1e-12)
    rng = np.random.default_rng(5)
    Xt = rng.uniform(-4, 6, (500, X.shape[1]))
    np.testing.assert_allclose(g.predict_proba(Xt), lda.predict_proba(Xt), atol=1e-10)
    np.testing.assert_array_equal(g.predict(Xt), lda.predict(Xt))
    if len(g.classes_) == 2:
        theta, theta0 = g.logistic_params()
        np.testing.assert_allclose(theta, lda.coef_[0], atol=1e-10)
        assert theta0 == pytest.approx(lda.intercept_[0], abs=1e-10)


def test_separate_cov_agrees_with_sklearn_qda():
    X, y = three_class()
    g = GDA(shared_cov=False).fit(X, y)
    qda = QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)
    np.testing.assert_allclose(g.means_, qda.means_, atol=1e-10)
    for k in range(3):
        n_k = np.sum(y == k)
        ours = g.covariance_[k]
        np.testing.assert_allclose(ours, np.cov(X[y == k], rowvar=False, bias=True), atol=1e-12)
        theirs = np.asarray(qda.covariance_[k])
        # scikit-learn < 1.6 divided by n_k - 1, newer versions by n_k as the MLE does.
        ratio = theirs[0, 0] / ours[0, 0]
        assert ratio == pytest.approx(1.0, abs=1e-12) or ratio == pytest.approx(n_k / (n_k - 1))
        np.testing.assert_allclose(ours * ratio, theirs, atol=1e-10)
    # Posteriors: a GDA with scikit-learn's own parameters reproduces its predict_proba.
    same = GDA.from_params(qda.priors_, qda.means_, np.asarray(qda.covariance_))
    Xt = np.random.default_rng(2).uniform(-3, 5, (400, 2))
    np.testing.assert_allclose(same.predict_proba(Xt), qda.predict_proba(Xt), atol=1e-10)


def test_posteriors_match_scipy_bayes_rule():
    X, y = three_class()
    for shared in (True, False):
        g = GDA(shared_cov=shared).fit(X, y)
        Xt = np.random.default_rng(3).uniform(-3, 5, (200, 2))
        covs = [g.covariance_] * 3 if shared else list(g.covariance_)
        joint = np.column_stack([multivariate_normal(m, c).pdf(Xt) * p for m, c, p in
                                 zip(g.means_, covs, g.class_prior_)])
        np.testing.assert_allclose(g.predict_proba(Xt), joint / joint.sum(1, keepdims=True),
                                   rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(g.predict_proba(Xt), np.exp(g.predict_log_proba(Xt)))


def test_posterior_is_exactly_a_sigmoid_of_a_linear_function():
    X, y = two_class()
    g = GDA().fit(X, y)
    theta, theta0 = g.logistic_params()
    xs = np.linspace(-8, 8, 101)
    grid = np.column_stack([a.ravel() for a in np.meshgrid(xs, xs)])
    p = g.predict_proba(grid)[:, 1]
    np.testing.assert_allclose(p, expit(grid @ theta + theta0), rtol=0, atol=1e-12)
    np.testing.assert_allclose(g.decision_function(grid), grid @ theta + theta0, atol=1e-9)
    # The module-level function from (phi, mu0, mu1, Sigma), and theta = Sigma^-1 (mu1 - mu0).
    t2, t02 = logistic_params(g.phi_, g.means_[0], g.means_[1], g.covariance_)
    np.testing.assert_allclose(t2, np.linalg.solve(g.covariance_, g.means_[1] - g.means_[0]))
    assert t02 == pytest.approx(theta0, abs=1e-12)


def test_quadratic_params_give_the_log_odds():
    X, y = two_class(seed=4)
    g = GDA(shared_cov=False).fit(X, y)
    A, b, c = g.quadratic_params()
    Xt = np.random.default_rng(0).uniform(-4, 6, (300, 2))
    logit = np.einsum("ij,jk,ik->i", Xt, A, Xt) + Xt @ b + c
    np.testing.assert_allclose(logit, g.decision_function(Xt), atol=1e-9)
    # Shared covariance: A = 0 and (b, c) = (theta, theta0).
    s = GDA().fit(X, y)
    A, b, c = s.quadratic_params()
    theta, theta0 = s.logistic_params()
    np.testing.assert_allclose(A, 0, atol=1e-12)
    np.testing.assert_allclose(b, theta, atol=1e-12)
    assert c == pytest.approx(theta0, abs=1e-12)


def test_string_labels_and_reg():
    X, y = three_class()
    labels = np.array(["cat", "dog", "emu"])
    g = GDA().fit(X, labels[y])
    assert list(g.classes_) == ["cat", "dog", "emu"] and not hasattr(g, "phi_")
    np.testing.assert_array_equal(g.predict(X), labels[GDA().fit(X, y).predict(X)])
    r = GDA(reg=0.5).fit(X, y)
    np.testing.assert_allclose(r.covariance_, GDA().fit(X, y).covariance_ + 0.5 * np.eye(2))


def test_bad_inputs_each_give_a_clear_error():
    X, y = two_class(n=20)
    with pytest.raises(ValueError, match="only one class"):
        GDA().fit(X, np.zeros(20, int))
    y1 = np.zeros(20, int)
    y1[3] = 1
    with pytest.raises(ValueError, match="class 1 has only 1 training point"):
        GDA().fit(X, y1)
    Xn = X.copy()
    Xn[2, 1] = np.nan
    with pytest.raises(ValueError, match="X contains 1 NaN or infinite"):
        GDA().fit(Xn, y)
    Xn[2, 1] = np.inf
    with pytest.raises(ValueError, match="X contains 1 NaN or infinite"):
        GDA().fit(Xn, y)
    with pytest.raises(ValueError, match="y has 19 labels but X has 20 rows"):
        GDA().fit(X, y[:-1])
    with pytest.raises(ValueError, match="y contains NaN"):
        GDA().fit(X, np.where(y == 1, np.nan, 0.0))
    with pytest.raises(ValueError, match="y must be a 1-D array"):
        GDA().fit(X, y[:, None])
    with pytest.raises(ValueError, match="not fitted yet"):
        GDA().predict(X)
    with pytest.raises(ValueError, match="reg must be >= 0"):
        GDA(reg=-1.0).fit(X, y)
    with pytest.raises(TypeError, match="shared_cov must be True or False"):
        GDA(shared_cov="yes").fit(X, y)
    g = GDA().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 feature"):
        g.predict(np.ones((2, 3)))
    X3, y3 = three_class()
    with pytest.raises(ValueError, match="needs exactly two classes"):
        GDA().fit(X3, y3).logistic_params()
    with pytest.raises(ValueError, match="needs shared_cov=True"):
        GDA(shared_cov=False).fit(X, y).logistic_params()
    with pytest.raises(ValueError, match="labels 0 and 1"):
        check_labels([0, 2, 1], 3, binary=True)
    with pytest.raises(ValueError, match="phi must be < 1"):
        logistic_params(1.0, [0, 0], [1, 1], np.eye(2))
    with pytest.raises(ValueError, match="mu1 has length 3 but 2 was expected"):
        logistic_params(0.5, [0, 0], [1, 1, 1], np.eye(2))


def test_singular_sigma_needs_reg():
    rng = np.random.default_rng(0)
    t = rng.standard_normal(40)
    X = np.column_stack([t, 2 * t])  # collinear features
    y = (t > 0).astype(int)
    with pytest.raises(ValueError, match=r"singular.*pass GDA\(reg=1e-6\)"):
        GDA().fit(X, y)
    g = GDA(reg=1e-6).fit(X, y)
    assert np.all(np.isfinite(g.predict_proba(X)))
    # Too few points: 2 + 2 points in 3-D leave residuals of rank 2 < 3.
    X4 = np.array([[0.0, 0, 0], [1, 2, 0], [5, 5, 5], [6, 4, 7]])
    with pytest.raises(ValueError, match="too few points per class"):
        GDA().fit(X4, [0, 0, 1, 1])
    # Separate covariances with as few points as features: singular too.
    X2 = np.array([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0], [6.0, 7.0], [5.5, 6.5]])
    with pytest.raises(ValueError, match=r"covariance_\[0\].*singular"):
        GDA(shared_cov=False).fit(X2, [0, 0, 1, 1, 1])


def test_from_params_validation_and_bayes_classifier():
    b = GDA.from_params([0.25, 0.75], [[0.0], [2.0]], [[1.0]])
    # log-odds at x: 2x - 2 + log 3
    assert b.decision_function([[0.5]])[0] == pytest.approx(2 * 0.5 - 2 + np.log(3))
    with pytest.raises(ValueError, match="class_prior must be positive and sum to 1"):
        GDA.from_params([0.5, 0.6], [[0.0], [1.0]], [[1.0]])
    with pytest.raises(ValueError, match="covariance must have shape"):
        GDA.from_params([0.5, 0.5], [[0.0], [1.0]], np.eye(2))


# --- synthetic families -----------------------------------------------------------------------

@pytest.mark.parametrize("family", FAMILIES)
def test_families_sample_and_bayes_log_odds(family):
    m = DataModel(family, [0.0, 0.0], [2.0, 0.5], [[1.0, 0.3], [0.3, 0.8]], phi=0.3)
    X, y = m.sample(20000, rng=0)
    assert X.shape == (20000, 2) and set(np.unique(y)) == {0, 1}
    assert y.mean() == pytest.approx(0.3, abs=0.015)
    # The Bayes log-odds are calibrated: among points with posterior near p, a fraction p is 1.
    post = expit(m.log_odds(X))
    for lo, hi in [(0.1, 0.3), (0.4, 0.6), (0.7, 0.9)]:
        sel = (post > lo) & (post < hi)
        if sel.sum() > 300:
            assert y[sel].mean() == pytest.approx(post[sel].mean(), abs=0.05)
    bayes_err = np.mean((m.log_odds(X) > 0) != y)
    lin = m.linear_bayes()
    if family in ("gaussian", "poisson"):
        theta, theta0 = lin
        np.testing.assert_allclose(X @ theta + theta0, m.log_odds(X), atol=1e-9)
    else:
        assert lin is None
    # No classifier beats the Bayes rule (by more than sampling noise).
    g = GDA().fit(X, y)
    assert bayes_err <= np.mean(g.predict(X) != y) + 0.005


def test_family_specifics():
    m = DataModel("gaussian_diff_cov", [0.0, 0.0], [1.0, 0.0], [[2.0, 0.5], [0.5, 1.0]])
    np.testing.assert_allclose(m.cov1, 2 * np.array([[1.0, -0.5], [-0.5, 2.0]]))
    X, y = m.sample(40000, rng=1)
    np.testing.assert_allclose(np.cov(X[y == 1], rowvar=False), m.cov1, atol=0.1)
    p = DataModel("poisson", [0.0, 0.0], [2.0, -2.0], np.eye(2))
    np.testing.assert_allclose(p.rates, [[4, 4], [4 * np.e, 4 / np.e]])
    X, y = p.sample(40000, rng=2)
    np.testing.assert_allclose(X[y == 1].mean(0), p.rates[1], rtol=0.03)
    o = DataModel("outliers", [0.0, 0.0], [2.0, 0.0], np.eye(2), outlier_frac=0.1)
    X, y = o.sample(40000, rng=3)
    far = np.linalg.norm(X - o.outlier_center, axis=1) < 3
    assert far[y == 0].mean() == 0 and far[y == 1].mean() == pytest.approx(0.1, abs=0.01)
    # Same seed: Gaussian samples move continuously with the mean.
    a = DataModel("gaussian", [0.0, 0.0], [1.0, 0.0], np.eye(2)).sample(50, rng=4)[0]
    b = DataModel("gaussian", [0.5, 0.0], [1.5, 0.0], np.eye(2)).sample(50, rng=4)[0]
    np.testing.assert_allclose(b - a, [[0.5, 0.0]] * 50, atol=1e-12)


def test_data_model_bad_input():
    with pytest.raises(ValueError, match="family must be one of"):
        DataModel("uniform", [0, 0], [1, 1], np.eye(2))
    with pytest.raises(ValueError, match="phi must be > 0"):
        DataModel("gaussian", [0, 0], [1, 1], np.eye(2), phi=0.0)
    with pytest.raises(ValueError, match="cov is singular"):
        DataModel("gaussian", [0, 0], [1, 1], [[1, 1], [1, 1]])
    with pytest.raises(ValueError, match="mu1 has length 3"):
        DataModel("gaussian", [0, 0], [1, 1, 1], np.eye(2))
    with pytest.raises(TypeError, match="rng must be a numpy Generator"):
        DataModel("gaussian", [0, 0], [1, 1], np.eye(2)).sample(5, rng=None)


def test_learning_curves_show_both_regimes():
    sizes = [10, 20, 50, 200, 1000, 3000]
    gauss = DataModel("gaussian", [0.0, 0.0], [2.0, 0.0], [[1.0, 0.5], [0.5, 1.0]])
    lc = learning_curves(gauss, sizes, n_reps=20, rng=1, n_test=10000)
    g, _ = lc.mean_se("gda")
    lr, _ = lc.mean_se("lr")
    assert g[0] < lr[0]  # GDA wins at small n on its own model
    assert abs(g[-1] - lr[-1]) < 0.003 and abs(g[-1] - lc.bayes_error) < 0.01
    assert crossing_size(lc) is None
    pois = DataModel("poisson", [-1.0, 0.0], [2.0, 1.0], np.eye(2))
    lc = learning_curves(pois, sizes, n_reps=20, rng=1, n_test=10000)
    g, _ = lc.mean_se("gda")
    lr, _ = lc.mean_se("lr")
    assert lr[-1] < g[-1] - 0.005  # logistic regression wins as n grows
    assert crossing_size(lc) in (20, 50, 200)
    calls = []
    learning_curves(pois, [10, 20], n_reps=3, rng=0, n_test=100,
                    progress=lambda i, n: calls.append((i, n)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_learning_curves_bad_input():
    m = DataModel("gaussian", [0, 0], [1, 1], np.eye(2))
    with pytest.raises(ValueError, match="increasing and each >= 4"):
        learning_curves(m, [20, 10], 3, rng=0)
    with pytest.raises(ValueError, match="n_reps must be >= 2"):
        learning_curves(m, [10], 1, rng=0)
    with pytest.raises(TypeError, match="model must be a DataModel"):
        learning_curves("gaussian", [10], 3, rng=0)
    with pytest.raises(ValueError, match="sizes must be a non-empty"):
        learning_curves(m, [10.5], 3, rng=0)


def test_crossing_size():
    g = np.array([[0.3, 0.2, 0.1], [0.31, 0.21, 0.1]])
    lc = LearningCurves(np.array([10, 100, 1000]), g, g - [[-0.01, 0.02, 0.01]], 0.0, 1)
    assert crossing_size(lc) == 100
    lc = LearningCurves(np.array([10, 100, 1000]), g, g + 0.01, 0.0, 1)
    assert crossing_size(lc) is None


@pytest.mark.parametrize("family", ["gaussian", "poisson"])
def test_exact_linear_error_matches_a_large_test_set(family):
    m = DataModel(family, [-1.0, 0.0], [1.0, 1.0], [[1.0, 0.4], [0.4, 0.8]], phi=0.35)
    X, y = m.sample(400_000, rng=11)
    for theta, theta0 in [(np.array([1.0, 0.5]), -0.3), (np.array([-0.2, 1.0]), 1.0),
                          m.linear_bayes()]:
        mc = np.mean(((X @ theta + theta0) > 0) != y)
        assert m.linear_error(theta, theta0) == pytest.approx(mc, abs=3e-3)
    # The Bayes rule has the smallest error of all.
    assert m.linear_error(*m.linear_bayes()) < m.linear_error(np.array([1.0, 0.0]), 0.0)
    assert DataModel("outliers", [0, 0], [1, 1], np.eye(2)).linear_error([1, 1], 0) is None
