"""genviz.naive_bayes CategoricalNB and GaussianNB: the slides' and Mitchell's numbers, sklearn."""

import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn import naive_bayes as sk
from sklearn.preprocessing import OrdinalEncoder

from genviz import datasets
from genviz._validation import NotFittedError
from genviz.kde import rule_of_thumb
from genviz.kde_classifier import KDEClassifier
from genviz.naive_bayes import (CategoricalNB, GaussianNB, KDENB, leave_one_out_accuracy,
                                leave_one_out_predict)


# ----------------------------------------------------------------------------- the slides
def test_enjoy_sport_counts_are_the_slides_numbers():
    t = datasets.enjoy_sport()
    nb = CategoricalNB(alpha=0).fit(t.X, t.y, feature_names=t.feature_names)
    assert nb.classes_.tolist() == ["no", "yes"]
    np.testing.assert_allclose(np.exp(nb.class_log_prior_), [1 / 4, 3 / 4])   # P(play) = 3/4

    def p(feature, value, label):
        j = t.feature_names.index(feature)
        v = nb.categories_[j].tolist().index(value)
        return nb.conditional_table(feature)[nb.classes_.tolist().index(label), v]
    assert p("Sky", "sunny", "yes") == 1.0
    assert p("Sky", "sunny", "no") == 0.0
    assert p("Humid", "high", "yes") == pytest.approx(2 / 3)
    assert p("Humid", "high", "no") == 1.0
    assert p("Wind", "strong", "yes") == 1.0  # Wind takes one value: it carries no information
    np.testing.assert_array_equal(nb.category_count_[0], [[1, 0], [0, 3]])  # rainy, sunny


def test_laplace_formula_of_the_slides():
    t = datasets.enjoy_sport()
    nb = CategoricalNB(alpha=1).fit(t.X, t.y, feature_names=t.feature_names)
    # (c_v + 1) / (sum_v' c_v' + |values|): Sky has 2 values, 3 "yes" days all sunny
    assert nb.conditional_table("Sky")[1, 1] == pytest.approx(4 / 5)
    assert nb.conditional_table("Sky")[0, 1] == pytest.approx(1 / 3)
    assert nb.conditional_table("Wind")[0, 0] == 1.0  # one value: (1 + 1) / (1 + 1)


def test_mitchell_play_tennis_query():
    t = datasets.play_tennis()
    nb = CategoricalNB(alpha=0).fit(t.X, t.y, feature_names=t.feature_names)
    e = nb.explain(["Sunny", "Cool", "High", "Strong"])
    assert e["classes"] == ["No", "Yes"]
    np.testing.assert_allclose(e["prior"], [5 / 14, 9 / 14])
    np.testing.assert_allclose(e["factors"][:, 3], [3 / 5, 3 / 9])   # P(Wind=strong | .)
    assert round(e["joint"][1], 4) == 0.0053 and round(e["joint"][0], 4) == 0.0206  # the book
    np.testing.assert_allclose(e["joint"], [5 / 14 * 3 / 5 * 1 / 5 * 4 / 5 * 3 / 5,
                                            9 / 14 * 2 / 9 * 3 / 9 * 3 / 9 * 3 / 9])
    assert round(e["posterior"][0], 3) == 0.795
    assert e["decision"] == "No"
    assert e["normaliser"] == pytest.approx(1 / e["joint"].sum())
    np.testing.assert_allclose(e["posterior"], e["normaliser"] * e["joint"])
    np.testing.assert_allclose(nb.predict_proba([e["values"]])[0], e["posterior"])
    np.testing.assert_allclose(nb.predict_joint_proba([e["values"]])[0], e["joint"])
    assert nb.predict_log_evidence([e["values"]])[0] == pytest.approx(np.log(e["joint"].sum()))


# ----------------------------------------------------------------------------- oracle
def random_table(seed, n=80, d=4):
    rng = np.random.default_rng(seed)
    levels = [rng.integers(1, 5) for _ in range(d)]
    X = np.array([[f"v{j}_{rng.integers(levels[j] + 1)}" for j in range(d)] for _ in range(n)],
                 dtype=object)
    y = rng.choice(["a", "b", "c"], size=n)
    return X, y


@pytest.mark.parametrize("alpha", [1.0, 0.3, 1e-10])
@pytest.mark.parametrize("seed", range(4))
def test_categorical_matches_sklearn(alpha, seed):
    X, y = random_table(seed)
    enc = OrdinalEncoder().fit(X)
    ours = CategoricalNB(alpha=alpha).fit(X, y)
    theirs = sk.CategoricalNB(alpha=alpha, force_alpha=True).fit(enc.transform(X), y)
    np.testing.assert_array_equal(ours.n_categories_, theirs.n_categories_)
    for a, b in zip(ours.category_count_, theirs.category_count_):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(ours.feature_log_prob_, theirs.feature_log_prob_):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    rng = np.random.default_rng(seed + 50)  # queries: independent draws of training values
    Xq = np.stack([rng.choice(X[:, j], size=30) for j in range(X.shape[1])], axis=1)
    np.testing.assert_allclose(ours.predict_joint_log_proba(Xq),
                               theirs.predict_joint_log_proba(enc.transform(Xq)),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(ours.predict_proba(Xq), theirs.predict_proba(enc.transform(Xq)),
                               rtol=0, atol=1e-10)
    np.testing.assert_array_equal(ours.predict(Xq), theirs.predict(enc.transform(Xq)))


tables = st.integers(1, 4).flatmap(lambda d: st.tuples(
    st.lists(st.lists(st.sampled_from("pqrs"), min_size=d, max_size=d), min_size=2, max_size=25),
    st.lists(st.sampled_from([0, 1, 2]), min_size=25, max_size=25),
    st.sampled_from([0.0, 0.5, 1.0, 3.0])))


@settings(max_examples=60, deadline=None)
@given(tables)
def test_smoothed_conditionals_sum_to_one_for_every_feature_and_class(problem):
    rows, labels, alpha = problem
    y = labels[:len(rows)]
    y[0], y[1] = 0, 1  # at least two classes
    nb = CategoricalNB(alpha=alpha).fit(rows, y)
    for j in range(len(rows[0])):
        table = nb.conditional_table(j)
        assert table.shape == (nb.classes_.size, nb.categories_[j].size)
        np.testing.assert_allclose(table.sum(axis=1), 1.0, rtol=1e-12)
        assert np.all(table >= 0) and (alpha == 0 or np.all(table > 0))
    post = nb.predict_proba(rows) if alpha > 0 else None
    if post is not None:
        np.testing.assert_allclose(post.sum(axis=1), 1.0)


# ----------------------------------------------------------------------------- bad inputs
def test_unseen_value_smoothed_with_alpha_and_a_clear_error_without():
    t = datasets.play_tennis()
    query = [["Foggy", "Cool", "High", "Strong"]]
    nb0 = CategoricalNB(alpha=0).fit(t.X, t.y, feature_names=t.feature_names)
    with pytest.raises(ValueError, match=r"'Foggy'.*'Outlook' never took this value.*alpha > 0"):
        nb0.predict_proba(query)
    with pytest.raises(ValueError, match="Foggy"):
        nb0.explain(query[0])
    nb1 = CategoricalNB(alpha=1).fit(t.X, t.y)
    f = nb1.feature_log_factors(query)[0, :, 0]
    np.testing.assert_allclose(np.exp(f), [1 / (5 + 3), 1 / (9 + 3)])  # count 0: alpha/(N_k+3)
    assert np.all(np.isfinite(nb1.predict_log_proba(query)))


def test_zero_count_in_every_class_is_a_clear_0_over_0():
    X = [["a", "u"], ["b", "v"]]
    nb = CategoricalNB(alpha=0).fit(X, ["p", "q"])
    assert np.all(np.isinf(nb.predict_joint_log_proba([["a", "v"]])))
    with pytest.raises(ValueError, match="probability 0 under every class.*smooth the counts"):
        nb.predict_proba([["a", "v"]])
    e = nb.explain(["a", "v"])
    assert e["posterior"] is None and e["decision"] is None and e["normaliser"] == np.inf


def test_categorical_bad_inputs():
    t = datasets.play_tennis()
    with pytest.raises(NotFittedError, match="CategoricalNB is not fitted"):
        CategoricalNB().predict(t.X)
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        CategoricalNB(alpha=-0.5).fit(t.X, t.y)
    with pytest.raises(ValueError, match="ragged rows: row 0 has 4 values but row 2 has 3"):
        CategoricalNB().fit([["a", "b", "c", "d"], ["a", "b", "c", "d"], ["a", "b", "c"]],
                            ["x", "y", "x"])
    with pytest.raises(ValueError, match=r"X\[1, 2\] is missing"):
        CategoricalNB().fit([["a", "b", "c"], ["a", "b", None]], ["x", "y"])
    with pytest.raises(ValueError, match="2-dimensional.*one row use"):
        CategoricalNB().fit(t.X[:, 0], t.y)
    with pytest.raises(ValueError, match="no training rows"):
        CategoricalNB().fit(t.X, t.y, classes=["Maybe", "No", "Yes"])
    with pytest.raises(ValueError, match="at least two classes"):
        CategoricalNB().fit(t.X, ["Yes"] * 14)
    with pytest.raises(ValueError, match="y has 13 labels but X has 14"):
        CategoricalNB().fit(t.X, t.y[:-1])
    with pytest.raises(ValueError, match="feature_names has 2 names"):
        CategoricalNB().fit(t.X, t.y, feature_names=["a", "b"])
    nb = CategoricalNB().fit(t.X, t.y, feature_names=t.feature_names)
    with pytest.raises(ValueError, match="3 features per row but the model was fitted with 4"):
        nb.predict(t.X[:, :3])
    with pytest.raises(ValueError, match="one of"):
        nb.conditional_table("Colour")
    with pytest.raises(ValueError, match="j must be <= 3"):
        nb.conditional_table(4)


@pytest.mark.parametrize("model", [GaussianNB(), KDENB(bandwidth=0.5),
                                   KDEClassifier(bandwidth=0.5)], ids=type)
def test_the_real_valued_models_check_points_as_their_base_does(model):
    """The three models of real points share _BaseNB._check_X: each refuses what it refused
    with its own copy (a query of the wrong width, named by the model; NaN; one row as 1-D)."""
    X = np.array([[0.0, 1.0], [0.5, 1.5], [3.0, 2.0], [3.5, 2.5]])
    nb = model.fit(X, [0, 0, 1, 1])
    name = type(model).__name__
    with pytest.raises(ValueError, match=re.escape(
            f"X has 3 features, but {name} is expecting 2 features as input (X has 3 features "
            f"per row but the model was fitted with 2; 2 were expected)")):
        nb.predict(np.ones((1, 3)))
    with pytest.raises(ValueError, match="NaN"):
        nb.predict([[np.nan, 1.0]])
    with pytest.raises(ValueError, match="NaN"):
        type(model)().fit([[np.nan, 1.0], [0.0, 1.0]], [0, 1])
    assert nb.predict([[0.2, 1.2], [3.2, 2.2]]).tolist() == [0, 1]


def test_a_feature_with_one_value_is_allowed_and_uninformative():
    # EnjoySport's Wind is "strong" every day: P(strong|k) = 1 for every class (alpha = 0), so it
    # does not change the posterior; any other value is unseen -> clear error at alpha = 0.
    t = datasets.enjoy_sport()
    full = CategoricalNB(alpha=0).fit(t.X, t.y)
    drop = CategoricalNB(alpha=0).fit(np.delete(t.X, 3, axis=1), t.y)
    np.testing.assert_allclose(full.predict_joint_log_proba(t.X),
                               drop.predict_joint_log_proba(np.delete(t.X, 3, axis=1)))
    q = t.X[:1].copy()
    q[0, 3] = "weak"
    with pytest.raises(ValueError, match="'weak'.*never took this value"):
        full.predict(q)


# ----------------------------------------------------------------------------- Gaussian
def gaussian_problem(seed, n=90, d=3, K=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % K
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3, size=d) + 2.0 * y[:, None]
    return X, y


@pytest.mark.parametrize("var_smoothing", [1e-9, 0.0, 0.1])
@pytest.mark.parametrize("seed", range(4))
def test_gaussian_matches_sklearn(var_smoothing, seed):
    X, y = gaussian_problem(seed)
    Xq = gaussian_problem(seed + 10, n=40)[0] * 1.5
    ours = GaussianNB(var_smoothing=var_smoothing).fit(X, y)
    theirs = sk.GaussianNB(var_smoothing=var_smoothing).fit(X, y)
    np.testing.assert_allclose(ours.theta_, theirs.theta_, rtol=1e-12)
    np.testing.assert_allclose(ours.var_, theirs.var_, rtol=1e-10)
    assert ours.epsilon_ == pytest.approx(theirs.epsilon_, rel=1e-12)
    np.testing.assert_allclose(ours.predict_joint_log_proba(Xq),
                               theirs.predict_joint_log_proba(Xq), rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(ours.predict_proba(Xq), theirs.predict_proba(Xq), atol=1e-8)
    np.testing.assert_array_equal(ours.predict(Xq), theirs.predict(Xq))


def test_gaussian_is_a_product_of_univariate_normals():
    from scipy.stats import norm
    X, y = gaussian_problem(7, K=2)
    nb = GaussianNB(var_smoothing=0).fit(X, y)
    x = np.array([[0.5, -1.0, 2.0]])
    expected = [np.log(0.5) + norm.logpdf(x[0], X[y == k].mean(0), X[y == k].std(0)).sum()
                for k in (0, 1)]
    np.testing.assert_allclose(nb.predict_joint_log_proba(x)[0], expected, rtol=1e-12)


def _with_nan(X, at):
    """A copy of X with one NaN, at ``at``."""
    Xn = X.copy()
    Xn[at] = np.nan
    return Xn


def test_gaussian_bad_inputs():
    X, y = gaussian_problem(1)
    with pytest.raises(NotFittedError):
        GaussianNB().predict_proba(X)
    Xn = _with_nan(X, (3, 1))
    with pytest.raises(ValueError, match="X contains 1 NaN"):
        GaussianNB().fit(Xn, y)
    nb = GaussianNB().fit(X, y)
    with pytest.raises(ValueError, match="X contains 1 NaN"):
        nb.predict(Xn)
    with pytest.raises(ValueError, match="X has 2 feature.* 3 were expected"):
        nb.predict(X[:, :2])
    Xc = X.copy()
    Xc[y == 1, 0] = 5.0
    with pytest.raises(ValueError, match="feature 0 is constant within class 1.*var_smoothing"):
        GaussianNB(var_smoothing=0).fit(Xc, y)
    assert np.all(np.isfinite(GaussianNB().fit(Xc, y).predict_log_proba(X)))
    with pytest.raises(ValueError, match="var_smoothing must be >= 0"):
        GaussianNB(var_smoothing=-1).fit(X, y)
    with pytest.raises(TypeError, match="X must be numeric"):
        GaussianNB().fit(np.array([["a", "b"], ["c", "d"]]), [0, 1])


def test_gaussian_on_penguins_is_accurate():
    p = datasets.penguins()
    nb = GaussianNB().fit(p.X, p.y)
    assert np.mean(nb.predict(p.X) == p.y) > 0.95


# ----------------------------------------------------------------------------- KDE naive Bayes
def kde_problem(seed, n=60):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    bimodal = rng.choice([-2.5, 2.5], size=n)
    X = np.column_stack([np.where(y == 1, bimodal, 0.0) + rng.normal(size=n) * 0.6,
                         rng.normal(size=n) + y])
    return X, y


@pytest.mark.parametrize("seed", range(3))
def test_kdenb_is_a_product_of_scipy_gaussian_kdes(seed):
    from scipy.stats import gaussian_kde
    X, y = kde_problem(seed)
    nb = KDENB(bandwidth="silverman").fit(X, y)
    Xq = np.array([[0.0, 0.5], [2.4, 1.0], [-2.6, -0.3], [30.0, 0.0]])  # last: far tail
    expected = np.zeros((len(Xq), 2))
    for k in (0, 1):
        expected[:, k] = np.log(np.mean(y == k))
        for j in (0, 1):
            data = X[y == k, j]
            assert nb.bandwidth_[k, j] == pytest.approx(rule_of_thumb(data, "silverman"))
            kde = gaussian_kde(data, bw_method=nb.bandwidth_[k, j] / data.std(ddof=1))
            expected[:, k] += kde.logpdf(Xq[:, j])
    np.testing.assert_allclose(nb.predict_joint_log_proba(Xq), expected, rtol=1e-9)
    assert np.all(np.isfinite(nb.predict_proba(Xq)))
    # the bimodal class wins at both of its modes, the unimodal one in the middle
    assert nb.predict([[-2.5, 0.5], [0.0, 0.5], [2.5, 0.5]]).tolist() == [1, 0, 1]


def test_kdenb_fixed_bandwidth_kernels_and_bad_inputs():
    X, y = kde_problem(4)
    nb = KDENB(bandwidth=0.4, kernel="epanechnikov").fit(X, y)
    np.testing.assert_array_equal(nb.bandwidth_, 0.4)
    with pytest.raises(ValueError, match="probability 0 under every class"):
        nb.predict_proba([[100.0, 0.0]])  # compact kernel, far from all data
    with pytest.raises(ValueError, match="bandwidth must be > 0"):
        KDENB(bandwidth=0.0).fit(X, y)
    with pytest.raises(ValueError, match="bandwidth must be a number > 0 or one of"):
        KDENB(bandwidth="wide").fit(X, y)
    with pytest.raises(ValueError, match="kernel must be one of"):
        KDENB(kernel="cosine").fit(X, y)
    with pytest.raises(ValueError, match="feature 0 of class 'b' \\(1 rows\\).*bandwidth=0.5"):
        KDENB().fit(X[:3], ["a", "a", "b"])
    with pytest.raises(NotFittedError):
        KDENB().predict(X)
    Xn = _with_nan(X, (0, 0))
    with pytest.raises(ValueError, match="X contains 1 NaN"):
        KDENB().fit(Xn, y)


# ----------------------------------------------------------------------------- leave-one-out
def test_leave_one_out_matches_a_literal_loop_with_sklearn():
    t = datasets.play_tennis()
    enc = OrdinalEncoder().fit(t.X)
    ours = leave_one_out_predict(CategoricalNB(alpha=1.0), t.X, t.y)
    for i in range(len(t.y)):
        keep = np.arange(len(t.y)) != i
        ref = sk.CategoricalNB(alpha=1.0, force_alpha=True, min_categories=None)
        enc_i = OrdinalEncoder().fit(t.X[keep])
        ref.fit(enc_i.transform(t.X[keep]), t.y[keep])
        assert ours[i] == ref.predict(enc_i.transform(t.X[i:i + 1]))[0]
    assert np.mean(ours == t.y) == pytest.approx(7 / 14)
    assert enc is not None


def test_leave_one_out_reports_unclassifiable_rows_as_none():
    X = [["a"], ["a"], ["b"], ["c"]]
    out = leave_one_out_predict(CategoricalNB(alpha=0), X, ["p", "p", "q", "q"])
    assert out.tolist() == ["p", "p", None, None]  # "b"/"c" unseen once held out
    p = datasets.penguins()
    loo = leave_one_out_predict(GaussianNB(), p.X[::6], p.y[::6])
    assert np.mean(loo == p.y[::6]) > 0.9
    with pytest.raises(ValueError, match="y has 3 labels but X has 4"):
        leave_one_out_predict(CategoricalNB(), X, ["p", "p", "q"])


def test_leave_one_out_accuracy_equals_sklearns_leave_one_out_score():
    from sklearn.model_selection import LeaveOneOut, cross_val_score

    p = datasets.penguins()
    X, y = p.X[::4, :2], p.y[::4]
    ours = leave_one_out_accuracy(GaussianNB(), X, y)
    ref = cross_val_score(sk.GaussianNB(var_smoothing=0.0), X, y, cv=LeaveOneOut()).mean()
    assert ours == pytest.approx(ref, abs=1e-12)
    assert 0.8 < ours < 1.0                        # not a trivial 0 or 1 on this sample
    # a row that cannot be classified without itself counts as an error, not as skipped
    X = [["a"], ["a"], ["b"], ["c"]]
    assert leave_one_out_accuracy(CategoricalNB(alpha=0), X, ["p", "p", "q", "q"]) == 0.5
    with pytest.raises(ValueError, match="y has 3 labels but X has 4"):
        leave_one_out_accuracy(CategoricalNB(), X, ["p", "p", "q"])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("pq")), min_size=3, max_size=12))
def test_leave_one_out_accuracy_is_the_share_of_right_predictions(rows):
    assume(min(sum(label == c for _, label in rows) for c in "pq") >= 2)   # 2 classes left
    X = [[v] for v, _ in rows]
    y = [label for _, label in rows]
    pred = leave_one_out_predict(CategoricalNB(alpha=1.0), X, y)
    acc = leave_one_out_accuracy(CategoricalNB(alpha=1.0), X, y)
    assert acc == pytest.approx(sum(p == t for p, t in zip(pred, y)) / len(y))
    assert 0.0 <= acc <= 1.0


def test_categories_fix_the_value_set():
    X = [["b1"], ["b1"], ["b2"]]
    nb = CategoricalNB(alpha=1).fit(X, ["p", "q", "q"], categories=[["b1", "b2", "b3"]])
    np.testing.assert_allclose(nb.conditional_table(0), [[2 / 4, 1 / 4, 1 / 4],
                                                         [2 / 5, 2 / 5, 1 / 5]])
    assert nb.predict_proba([["b3"]]).shape == (1, 2)
    with pytest.raises(ValueError, match=r"values \['b9'\] that are not in categories\[0\]"):
        CategoricalNB().fit([["b9"], ["b1"]], ["p", "q"], categories=[["b1", "b2"]])
    with pytest.raises(ValueError, match="categories must list the values of each of the 1"):
        CategoricalNB().fit(X, ["p", "q", "q"], categories=[["b1"], ["b2"]])


@pytest.mark.parametrize("cls", ["GaussianNB", "KDENB", "MultinomialNB", "BernoulliNB",
                                 "CategoricalNB", "KDEClassifier"])
def test_every_classifier_documents_the_shared_fitted_attributes(cls):
    """The attributes every naive Bayes classifier has after fit are written once
    (genviz.naive_bayes._base.FITTED_CLASSES_DOC) and stand in each class's Attributes."""
    import genviz.kde_classifier
    import genviz.naive_bayes
    from genviz.naive_bayes._base import _with_fitted_classes

    klass = getattr(genviz.naive_bayes, cls, None) or getattr(genviz.kde_classifier, cls)
    doc = klass.__doc__
    assert "{fitted classes}" not in doc
    attributes = doc.split("Attributes\n    ----------\n", 1)[1]
    for line in ["    classes_ : ndarray of shape (K,)", "        The sorted class labels.",
                 "    class_log_prior_ : ndarray of shape (K,)"]:
        assert line + "\n" in attributes, (cls, line)
    assert {"classes_", "class_count_", "class_log_prior_"} <= set(
        re.findall(r"^    (\w+_) :", attributes, re.M))
    assert _with_fitted_classes(None) is None and _with_fitted_classes("a") == "a"
    assert "{fitted bandwidth}" not in doc
    if cls in ("KDENB", "KDEClassifier"):  # FITTED_BANDWIDTH_DOC, written once too
        assert ("    bandwidth_ : ndarray of shape (K, d)\n        The bandwidth of each class "
                "and feature.\n") in attributes
