"""genviz.studies.learning_curves_vocabulary and notebook 10's investigation (VocabularyCurveStudy, its
view and explorer). Oracles: scikit-learn's LogisticRegression (C = 1 / l2, lbfgs to a tight
tolerance) and genviz's Newton fit for the ridge objective; scikit-learn's MultinomialNB for
naive Bayes on the same rows; hand-built features and curves for the crossing and the settled
sizes. Bad input refused naming the argument."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression as SkLR
from sklearn.naive_bayes import MultinomialNB as SkMNB

from explorer_testing import sweep_explorer
from genviz.logistic import LogisticRegression
from genviz.nb_vs_logistic import NBvsLogisticCurves, _two_class_order, presence_features
from genviz.studies.learning_curves import VocabularyCurveStudy
from genviz.studies.learning_curves_vocabulary import (VocabularyCurves, crossing_text,
                                                       full_dictionary_errors, ridge_logistic,
                                                       settled_size, vocabulary_curves,
                                                       word_features)


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


@pytest.mark.parametrize("alpha, l2", [(1.0, 1.0), (0.1, 5.0)])
def test_the_full_dictionary_errors_are_sklearns_on_every_word(alpha, l2):
    """Oracle: scikit-learn's MultinomialNB on the counts of every word and its
    LogisticRegression (C = 1 / l2) on the counts and on presence, fitted on the whole
    training set."""
    X, y = _data(6, n=260)
    Xtr, ytr, Xte, yte = X[:180], y[:180], X[180:], y[180:]
    e = full_dictionary_errors(Xtr, ytr, Xte, yte, alpha=alpha, l2=l2)
    y01, yt = (ytr == "spam").astype(int), yte == "spam"
    nb = SkMNB(alpha=alpha).fit(Xtr, y01).predict(Xte)
    assert e.n_words == 25
    assert e.nb_counts == pytest.approx(np.mean((nb == 1) != yt))
    for kind, A, B in (("counts", Xtr, Xte), ("presence", Xtr > 0, Xte > 0)):
        lr = SkLR(C=1 / l2, tol=1e-12, max_iter=10000).fit(A, y01).predict(B)
        assert e.lr[kind] == pytest.approx(np.mean((lr == 1) != yt))
    assert 0.05 < e.nb_counts < 0.5                       # the corpus is neither trivial nor noise


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
    assert study.defaults() == {"d": 30, "features": "presence", "alpha": 1.0, "l2": 1.0,
                                "n": 1000}
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
    (dict(features="tfidf"), "features must be one of"), (dict(n=11), "n must be one of"),
    (dict(alpha=2.0), "alpha must be one of the sweep's values"),
    (dict(l2=True), "l2 must be one of the sweep's values")])
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
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, alpha=()),
     "alpha must be a positive number or a non-empty sequence"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, l2=[]),
     "l2 must be a positive number or a non-empty sequence"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, alpha=(1.0, -1.0)),
     "alpha must be > 0"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, l2=(1.0, 0)), "l2 must be > 0"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, l2=(np.nan,)),
     "l2 must be finite"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, alpha=[1.0, np.nan]),
     "alpha must be finite"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, alpha=(2, 2.0)),
     "alpha must hold distinct values"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, l2=("big",)),
     "l2 must be a real number"),
    (lambda X, y: vocabulary_curves(X, y, X, y, [5, 20], 2, 0, positive="junk"),
     "y_train must hold the positive label"),
    (lambda X, y: vocabulary_curves(X, y[:-1], X, y, [5, 20], 2, 0), "differ in length"),
    (lambda X, y: settled_size(_sweep()[(30, "counts")], "nb", tol=-0.1), "tol"),
    (lambda X, y: full_dictionary_errors(X, y, X, y, alpha=0.0), "alpha must be > 0"),
    (lambda X, y: full_dictionary_errors(X, y, X, y, l2="big"), "l2 must be a real number"),
    (lambda X, y: full_dictionary_errors(X, y[:-1], X, y), "differ in length"),
    (lambda X, y: full_dictionary_errors(X, y, X, y, positive="junk"),
     "y_train must hold the positive label"),
])
def test_bad_input_is_refused_naming_the_argument(call, match):
    X, y = _data(3, n=40)
    with pytest.raises((ValueError, TypeError), match=match):
        call(X, y)


def _small(seed=4):
    X, y = _data(seed, n=90, d=12)
    return X[:60], y[:60], X[60:], y[60:]


def test_a_gridded_sweep_is_the_scalar_calls_at_each_alpha_and_l2():
    """Oracle: the scalar call (today's behaviour) at each value, bit for bit; naive Bayes'
    curves do not depend on l2 nor logistic regression's on alpha; (d, kind) means the
    default setting, 1.0 when among the values."""
    data, common = _small(), dict(vocabularies=(5, None), rng=3)
    alphas, l2s = (0.5, 1.0, 4.0), (0.1, 1.0, 10.0)
    v = vocabulary_curves(*data, [6, 20, 60], 3, alpha=alphas, l2=l2s, **common)
    assert (v.alpha_values, v.l2_values, v.alpha, v.l2) == (alphas, l2s, 1.0, 1.0)
    assert set(v.settings()) == {(d, k, a, lam) for d in (5, 12) for k in v.kinds
                                 for a in alphas for lam in l2s}
    for a in alphas:
        for lam in l2s:
            one = vocabulary_curves(*data, [6, 20, 60], 3, alpha=a, l2=lam, **common)
            assert (one.alpha_values, one.l2_values) == ((a,), (lam,))
            for (d, kind), c in one.curves.items():
                g = v[(d, kind, a, lam)]
                np.testing.assert_array_equal(g.nb_errors, c.nb_errors)
                np.testing.assert_array_equal(g.lr_errors, c.lr_errors)
                assert one[(d, kind, a, lam)] is c  # a scalar sweep's one setting
                np.testing.assert_array_equal(g.nb_errors, v[(d, kind, a, l2s[0])].nb_errors)
                np.testing.assert_array_equal(g.lr_errors, v[(d, kind, alphas[0], lam)].lr_errors)
    assert v[(5, "counts")] is v[(5, "counts", 1.0, 1.0)]
    w = vocabulary_curves(*data, [6, 60], 2, alpha=(3.0, 0.2), l2=[2.0], **common)
    assert (w.alpha, w.l2) == (3.0, 2.0)  # 1.0 not computed: the first value
    with pytest.raises(KeyError, match="no curves for"):
        w[(5, "counts", 1.0, 2.0)]


@pytest.mark.parametrize("alpha, l2", [(0.05, 0.01), (10.0, 100.0)])
def test_the_gridded_curves_are_sklearns_errors_at_each_alpha_and_l2(alpha, l2):
    """Oracle: scikit-learn's MultinomialNB(alpha) and LogisticRegression(C = 1 / l2) on one
    repetition's first rows, at an extreme of each grid."""
    Xtr, ytr, Xte, yte = _small(5)
    v = vocabulary_curves(Xtr, ytr, Xte, yte, [15, 60], 2, 7, vocabularies=(8,),
                          kinds=("counts",), alpha=(1.0, alpha), l2=(1.0, l2))
    y01, yt = (ytr == "spam").astype(int), yte == "spam"
    order = _two_class_order(y01, np.random.default_rng(7))
    F, G, _ = word_features(Xtr, Xte, 8, "counts")
    F, G = F.toarray(), G.toarray()
    c = v[(8, "counts", alpha, l2)]
    for j, rows in enumerate((order[:15], np.arange(60))):
        nb = SkMNB(alpha=alpha).fit(F[rows], y01[rows]).predict(G)
        lr = SkLR(C=1 / l2, tol=1e-12, max_iter=10000).fit(F[rows], y01[rows]).predict(G)
        assert c.nb_errors[0, j] == pytest.approx(np.mean((nb == 1) != yt))
        assert c.lr_errors[0, j] == pytest.approx(np.mean((lr == 1) != yt))


_positive = st.floats(0.01, 100.0, allow_nan=False, allow_infinity=False)


@settings(max_examples=12, deadline=None)
@given(alphas=st.lists(_positive, min_size=1, max_size=3, unique=True),
       l2s=st.lists(_positive, min_size=1, max_size=3, unique=True), pick=st.integers(0, 8))
def test_every_gridded_setting_is_its_scalar_call(alphas, l2s, pick):
    """Property: for any values, the settings are their product, each NB curve is shared across
    l2 and each LR curve across alpha, and a setting equals the scalar call at its values."""
    data = _small(6)
    kw = dict(vocabularies=(6,), kinds=("presence",), rng=1)
    v = vocabulary_curves(*data, [8, 60], 2, alpha=alphas, l2=l2s, **kw)
    assert v.alpha_values == tuple(alphas) and v.l2_values == tuple(l2s)
    assert v.alpha == (1.0 if 1.0 in alphas else alphas[0])
    assert len(v.settings()) == len(alphas) * len(l2s)
    for a in alphas:
        assert len({v[(6, "presence", a, lam)].nb_errors.tobytes() for lam in l2s}) == 1
    for lam in l2s:
        assert len({v[(6, "presence", a, lam)].lr_errors.tobytes() for a in alphas}) == 1
    a, lam = alphas[pick % len(alphas)], l2s[pick // len(alphas) % len(l2s)]
    one = vocabulary_curves(*data, [8, 60], 2, alpha=a, l2=lam, **kw)[(6, "presence")]
    np.testing.assert_array_equal(v[(6, "presence", a, lam)].nb_errors, one.nb_errors)
    np.testing.assert_array_equal(v[(6, "presence", a, lam)].lr_errors, one.lr_errors)


def _gridded_sweep():
    """The hand-built sweep with a second alpha and l2: naive Bayes worse at alpha = 10,
    logistic regression worse at l2 = 100."""
    base = _sweep()
    every = {}
    for (d, kind), c in base.curves.items():
        for a in (1.0, 10.0):
            for lam in (1.0, 100.0):
                every[(d, kind, a, lam)] = c._replace(
                    nb_errors=c.nb_errors + (0.1 if a == 10.0 else 0.0),
                    lr_errors=c.lr_errors + (0.2 if lam == 100.0 else 0.0))
    return base._replace(alphas=(1.0, 10.0), l2s=(1.0, 100.0), by_setting=every)


def test_the_study_and_explorer_read_the_chosen_alpha_and_l2():
    study = VocabularyCurveStudy(_gridded_sweep())
    r = study(d=300, features="presence", alpha=10.0, l2=100.0, n=100)
    c = _sweep()[(300, "presence")]
    assert (r.alpha, r.l2) == (10.0, 100.0)
    np.testing.assert_allclose(r.gen_mean, c.nb_errors.mean(axis=0) + 0.1)
    np.testing.assert_allclose(r.lr_mean, c.lr_errors.mean(axis=0) + 0.2)
    assert study.static().top == pytest.approx(0.35 + 0.2 + 0.001 / np.sqrt(3))
    plain = study(d=300, features="presence", n=100)
    assert (plain.alpha, plain.l2, plain.gen_error) == (1.0, 1.0, pytest.approx(0.10))
    from genviz.widgets.learning_curves import vocabulary_curve_explorer
    e = vocabulary_curve_explorer(_gridded_sweep(), d=300, n=100)
    assert list(e.controls) == ["d", "features", "l2", "alpha", "n"]
    assert all(c.grid for c in e.controls.values())
    assert e.controls["l2"].description == "λ (logistic)"
    assert e.controls["alpha"].description == "α (naive Bayes)"
    assert "&lambda; = 1 (logistic), &alpha; = 1 (naive Bayes)" in e.readout.value
    e.controls["l2"].value = 100.0
    assert e.view.state["l2"] == 100.0 and "&lambda; = 100 (logistic)" in e.readout.value
    _, y = e.view._lines["lr"].get_data()
    np.testing.assert_allclose(y, c.lr_errors.mean(axis=0) + 0.2)
    assert e.view._title.get_text().endswith("λ = 100, α = 1")
    assert "ridge λ = 100 for logistic regression" in e.view.describe()
    assert sweep_explorer(e) > 0
    assert "l2" not in vocabulary_curve_explorer(_sweep()).controls  # one value: no drop-down
