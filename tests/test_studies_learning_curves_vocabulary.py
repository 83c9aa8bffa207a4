"""genviz.studies.learning_curves_vocabulary and notebook 10's investigation (VocabularyCurveStudy, its
view and explorer). Oracles: scikit-learn's LogisticRegression (C = 1 / l2, lbfgs to a tight
tolerance) and genviz's Newton fit for the ridge objective; scikit-learn's MultinomialNB for
naive Bayes on the same rows; hand-built features and curves for the crossing and the settled
sizes. Bad input refused naming the argument."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression as SkLR
from sklearn.naive_bayes import MultinomialNB as SkMNB

from explorer_testing import sweep_explorer
from genviz.logistic import LogisticRegression
from genviz.nb_vs_logistic import NBvsLogisticCurves, _two_class_order, presence_features
from genviz.studies.learning_curves import VocabularyCurveStudy
from genviz.studies.learning_curves_vocabulary import (VocabularyCurves, crossing_text, ridge_logistic,
                                              settled_size, vocabulary_curves, word_features)


def _data(seed=0, n=160, d=25):
    """Word counts whose first words are spammy: a small spam-like corpus."""
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.4
    rate = np.where(y[:, None], np.r_[np.full(5, 0.8), np.full(d - 5, 0.3)],
                    np.r_[np.full(5, 0.1), np.full(d - 5, 0.3)])
    X = g.poisson(rate)
    return X, np.where(y, "spam", "ham")


def test_word_features_are_presence_or_counts_of_the_most_frequent_words():
    X = [[2, 0, 1, 0], [1, 0, 0, 3], [0, 3, 1, 1]]
    F, G, cols = word_features(X, [[0, 1, 5, 0]], 2, "presence")
    # document frequencies 2, 1, 2, 2: the first two by index among ties
    assert cols.tolist() == [0, 2]
    assert F.toarray().tolist() == [[1, 1], [1, 0], [0, 1]] and G.toarray().tolist() == [[0, 1]]
    F, G, cols = word_features(X, [[0, 1, 5, 0]], None, "counts")
    assert F.shape == (3, 4) and sp.issparse(F) and cols.tolist() == [0, 2, 3, 1]
    assert F.toarray()[:, 0].tolist() == [2, 1, 0] and G.toarray().tolist() == [[0, 5, 0, 1]]
    # the same words and the same 0/1 values as notebook 10's presence_features
    Xr, _ = _data()
    P, Q, c1 = presence_features(Xr[:100], Xr[100:], 12)
    S, T, c2 = word_features(Xr[:100], Xr[100:], 12)
    assert c1.tolist() == c2.tolist()
    np.testing.assert_array_equal(S.toarray(), P)
    np.testing.assert_array_equal(T.toarray(), Q)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("l2", [0.5, 3.0])
def test_ridge_logistic_is_sklearns_and_newtons_optimum(sparse, l2):
    X, y = _data(1)
    y01 = (y == "spam").astype(int)
    F = sp.csr_matrix(X, dtype=float) if sparse else X.astype(float)
    w = ridge_logistic(F, y01, l2)
    sk = SkLR(C=1 / l2, tol=1e-12, max_iter=10000).fit(X, y01)
    np.testing.assert_allclose(w[:-1], sk.coef_[0], atol=1e-5)
    assert w[-1] == pytest.approx(sk.intercept_[0], abs=1e-5)
    newton = LogisticRegression(l2=l2).fit(X.astype(float), y01)
    np.testing.assert_allclose(w[:-1], newton.coef_, atol=1e-5)


def test_ridge_logistic_on_one_feature_by_hand():
    """Two points, x = 0 (label 0) and x = 1 (label 1), l2 = 1: by symmetry of the logistic loss
    the intercept is -θ/2 and θ solves θ = σ(θ/2)·... ; checked through the gradient being 0."""
    w = ridge_logistic(np.array([[0.0], [1.0]]), [0, 1], 1.0)
    theta, b = w
    p0, p1 = 1 / (1 + np.exp(-b)), 1 / (1 + np.exp(-(theta + b)))
    assert p0 + (p1 - 1) == pytest.approx(0, abs=1e-7)   # d/db
    assert (p1 - 1) + theta == pytest.approx(0, abs=1e-7)  # d/dθ
    assert b == pytest.approx(-theta / 2, abs=1e-7)


def test_the_curves_are_sklearns_errors_on_the_same_rows():
    """Oracle: rebuild each repetition's order (the same generator) and fit scikit-learn's
    MultinomialNB and LogisticRegression on the same first n rows."""
    X, y = _data(2, n=220)
    Xtr, ytr, Xte, yte = X[:150], y[:150], X[150:], y[150:]
    sizes = [8, 40, 150]
    v = vocabulary_curves(Xtr, ytr, Xte, yte, sizes, 3, 5, vocabularies=(6, None), l2=2.0)
    assert isinstance(v, VocabularyCurves) and v.vocabularies == (6, 25)
    gen = np.random.default_rng(5)
    y01, yt = (ytr == "spam").astype(int), yte == "spam"
    orders = [_two_class_order(y01, gen) for _ in range(3)]
    for d, kind in [(6, "presence"), (25, "counts"), (25, "presence")]:
        F, G, _ = word_features(Xtr, Xte, d, kind)
        F, G = F.toarray(), G.toarray()
        c = v[(d, kind)]
        assert c.n_words == d and c.nb_errors.shape == (3, 3)
        for r, order in enumerate(orders):
            for j, n in enumerate(sizes):
                rows = order[:n] if n < 150 else np.arange(150)
                nb = SkMNB(alpha=1.0).fit(F[rows], y01[rows]).predict(G)
                lr = SkLR(C=0.5, tol=1e-12, max_iter=10000).fit(F[rows], y01[rows]).predict(G)
                assert c.nb_errors[r, j] == pytest.approx(np.mean((nb == 1) != yt))
                assert c.lr_errors[r, j] == pytest.approx(np.mean((lr == 1) != yt))


def _curves(nb_means, lr_means, sizes=(10, 100, 1000)):
    """Three repetitions spread by ±0.001 around the given means (standard error 0.000577),
    the last size fitted once."""
    spread = np.array([[-0.001], [0.0], [0.001]]) * np.r_[np.ones(len(sizes) - 1), 0]
    return NBvsLogisticCurves(np.array(sizes), np.asarray(nb_means) + spread,
                              np.asarray(lr_means) - spread, 5, 100)


def test_crossing_text_and_settled_sizes_by_hand():
    c = _curves([0.20, 0.10, 0.09], [0.30, 0.08, 0.05])
    assert crossing_text(c) == "logistic regression clearly ahead from n = 100"
    assert settled_size(c, "nb") == 100 and settled_size(c, "lr") == 1000
    assert settled_size(c, "lr", tol=0.03) == 100
    ahead = _curves([0.20, 0.10, 0.09], [0.10, 0.05, 0.05])
    assert crossing_text(ahead).startswith("no crossing in range (logistic regression clearly "
                                           "ahead from the smallest n = 10")
    never = _curves([0.20, 0.10, 0.05], [0.30, 0.12, 0.06])
    assert crossing_text(never).startswith("no crossing in range (logistic regression not")


def _sweep():
    curves = {(30, "presence"): _curves([0.20, 0.10, 0.09], [0.30, 0.08, 0.05]),
              (30, "counts"): _curves([0.20, 0.10, 0.05], [0.30, 0.12, 0.06]),
              (300, "presence"): _curves([0.25, 0.10, 0.08], [0.35, 0.15, 0.04]),
              (300, "counts"): _curves([0.22, 0.10, 0.09], [0.10, 0.05, 0.05])}
    return VocabularyCurves(np.array([10, 100, 1000]), (30, 300), ("presence", "counts"),
                            curves, 1.0, 1.0)


def test_the_study_reads_the_chosen_settings_curves():
    study = VocabularyCurveStudy(_sweep())
    assert study.defaults() == {"d": 30, "features": "presence", "n": 1000}
    r = study(d=300, features="presence", n=100)
    c = _sweep()[(300, "presence")]
    np.testing.assert_allclose(r.gen_mean, c.nb_errors.mean(axis=0))
    np.testing.assert_allclose(r.lr_se, c.lr_errors.std(axis=0, ddof=1) / np.sqrt(3))
    assert r.gen_error == pytest.approx(0.10) and r.lr_error == pytest.approx(0.15)
    assert r.gap == pytest.approx(-0.05) and r.leader == "nb"
    assert r.crossing == 1000 and r.crossing_text.endswith("n = 1000")
    assert (r.nb_settled, r.lr_settled) == (1000, 1000)  # 0.10 vs 0.08: more than 0.01 away
    assert study(d=30, features="counts").crossing is None
    assert study.static().top == pytest.approx(0.35 + 0.001 / np.sqrt(3))  # mean + s.e.


@pytest.mark.parametrize("kwargs, match", [
    (dict(d=31), "d must be one of"), (dict(d=True), "d must be one of"),
    (dict(features="tfidf"), "features must be one of"), (dict(n=11), "n must be one of")])
def test_the_study_refuses_a_setting_not_computed(kwargs, match):
    with pytest.raises(ValueError, match=match):
        VocabularyCurveStudy(_sweep())(**kwargs)


def test_the_study_refuses_what_is_not_a_sweep():
    with pytest.raises(TypeError, match="sweep must be VocabularyCurves"):
        VocabularyCurveStudy({"sizes": [1]})
    with pytest.raises(ValueError, match="tol"):
        VocabularyCurveStudy(_sweep(), tol=-1)


def test_the_explorer_moves_over_every_setting_and_draws_the_chosen_curves():
    from genviz.widgets.learning_curves import vocabulary_curve_explorer
    e = vocabulary_curve_explorer(_sweep(), d=300, features="counts", n=10)
    assert all(c.grid for c in e.controls.values())
    x, y = e.view._lines["lr"].get_data()
    np.testing.assert_allclose(y, [0.10, 0.05, 0.05])
    assert "clearly ahead from the smallest n = 10" in e.readout.value
    e.controls["d"].value = 30
    assert e.view.state["d"] == 30 and "n = 100" in e.readout.value
    assert sweep_explorer(e) > 0


@pytest.mark.parametrize("call, match", [
    (lambda X, y: word_features(X, X, 3, "tfidf"), "kind must be one of"),
    (lambda X, y: word_features(X, X, 0), "n_words"),
    (lambda X, y: word_features(X, X[:, :3], 3), "X_test must have as many columns"),
    (lambda X, y: word_features(-X, X, 3), "X_train must hold finite counts"),
    (lambda X, y: ridge_logistic(X, np.ones(3)), "y must hold one 0/1 label per row"),
    (lambda X, y: ridge_logistic(X, (y == "spam") * 2), "y must hold one 0/1 label"),
    (lambda X, y: ridge_logistic(X, y == "spam", 0.0), "l2"),
    (lambda X, y: ridge_logistic(X, y == "spam", w0=np.zeros(3)), "w0 must have shape"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 1, 0), "n_reps"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [20, 5], 2, 0), "sizes must be increasing"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, vocabularies=(3, 3)),
     "vocabularies must be distinct"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, vocabularies=(0,)),
     "vocabularies"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, kinds=("bits",)),
     "kinds must be distinct values"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, alpha=0), "alpha"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, positive="junk"),
     "y_train must hold the positive label"),
    (lambda X, y: vocabulary_curves(X, y[:-1], X, y, [5, 20], 2, 0), "differ in length"),
    (lambda X, y: settled_size(_sweep()[(30, "counts")], "nb", tol=-0.1), "tol"),
])
def test_bad_input_is_refused_naming_the_argument(call, match):
    X, y = _data(3, n=40)
    with pytest.raises((ValueError, TypeError), match=match):
        call(X, y)
