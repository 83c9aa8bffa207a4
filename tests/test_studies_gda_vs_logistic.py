"""genviz.studies.gda_vs_logistic against scikit-learn's logistic regression and closed
forms: one trial and the explorer's result; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression as SkLR

from genviz.gda import GDA
from genviz.studies.gda_vs_logistic import BOXES, GDAvsLogisticStudy, gda_vs_logistic_trial
from genviz.synthetic import DataModel


# -- one trial (moved from test_view_studies.py) ---------------------------------------------------
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


# -- the explorer's result -----------------------------------------------------------------------------
def _model(family="gaussian", phi=0.5):
    cov = np.array([[1.0, 0.3], [0.3, 1.0]])
    return DataModel(family, [-1.0, -0.5], [1.0, 0.5], cov, phi=phi)


def test_the_explorers_result_against_sklearn():
    study = GDAvsLogisticStudy(n_test=2000, n_grid=30, seed=2)
    s = study.static()
    assert s.n_test == 2000 and "family" in s.data_params and "gda_cov" not in s.data_params
    r = study(n=150)
    m = _model()
    X, y = m.sample(150, np.random.default_rng(2))
    Xt, yt = m.sample(2000, np.random.default_rng(3))
    np.testing.assert_array_equal(r.X, X)
    np.testing.assert_array_equal(r.y, y)
    for k in (0, 1):
        np.testing.assert_array_equal(r.class_points[k], X[y == k])
    lr = SkLR(C=np.inf, tol=1e-12, max_iter=10000).fit(X, y)
    np.testing.assert_allclose(r.theta_lr[0], lr.coef_[0], rtol=1e-4)
    assert r.theta_lr[1] == pytest.approx(lr.intercept_[0], rel=1e-4)
    assert r.lr_l2 == 0.0 and not r.separable
    lda = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)  # GDA with a shared covariance
    assert r.errors["gda"] == pytest.approx(np.mean(lda.predict(Xt) != yt), abs=1e-3)
    assert r.errors["lr"] == pytest.approx(np.mean(lr.predict(Xt) != yt), abs=2e-3)
    assert r.errors["bayes"] == pytest.approx(np.mean((m.log_odds(Xt) > 0) != yt))
    theta, theta0 = r.theta_gda
    g = GDA().fit(X, y)
    np.testing.assert_allclose(theta, g.logistic_params()[0])
    assert (r.n_train, r.n_test, r.family, r.gda_cov) == (150, 2000, "gaussian", "shared")
    assert r.box == BOXES["gaussian"]
    np.testing.assert_allclose(r.grid_x, np.linspace(-5, 5, 30))
    np.testing.assert_allclose(r.grid_y, np.linspace(-5, 5, 30))
    # each boundary: a segment on its line inside the box
    for b, (th, th0) in ((r.gda, r.theta_gda), (r.lr, r.theta_lr),
                         (r.bayes, m.linear_bayes())):
        assert b.linear and b.values is None
        np.testing.assert_allclose(b.xs * th[0] + b.ys * th[1] + th0, 0, atol=1e-9)
    curved = study(n=150, gda_cov="separate", family="gaussian_diff_cov")
    assert curved.theta_gda is None and not curved.gda.linear and not curved.bayes.linear
    q = GDA(shared_cov=False).fit(curved.X, curved.y)
    G = np.column_stack([np.tile(curved.grid_x, 30), np.repeat(curved.grid_y, 30)])
    np.testing.assert_allclose(curved.gda.values, q.decision_function(G).reshape(30, 30))
    dm = _model("gaussian_diff_cov")
    np.testing.assert_allclose(curved.bayes.values, dm.log_odds(G).reshape(30, 30))


def test_toggling_gda_cov_keeps_the_sample():
    study = GDAvsLogisticStudy(n_test=200)
    a = study(n=80)
    b = study(n=80, gda_cov="separate")
    assert a.X is b.X and a.errors["lr"] == b.errors["lr"]
    assert study(n=90).X is not a.X


def test_separable_data_fall_back_to_a_ridge():
    r = GDAvsLogisticStudy(n_test=100)(mu0x=-2, mu0y=-2, mu1x=2, mu1y=2, sigma1=0.3, sigma2=0.3,
                                      n=50)
    assert r.separable and r.lr_l2 == 1e-3
    coef, intercept = r.theta_lr
    np.testing.assert_array_equal((r.X @ coef + intercept > 0).astype(int), r.y)


@pytest.mark.parametrize("params, error, word", [
    (dict(family="uniform"), ValueError, "family"), (dict(gda_cov="diagonal"), ValueError, "gda_cov"),
    (dict(phi=1.0), ValueError, "phi"), (dict(phi=0.01, n=20), ValueError, "fewer than 2 points"),
    (dict(mu0x="a"), TypeError, "mu0x"), (dict(n=3), ValueError, "n"),
    (dict(sigma1=0.0), ValueError, "sigma1")])
def test_the_explorers_result_bad_parameters(params, error, word):
    with pytest.raises(error, match=word):
        GDAvsLogisticStudy(n_test=100)(**params)
    with pytest.raises(ValueError, match="n_test"):
        GDAvsLogisticStudy(n_test=5)
