"""genviz.nb_vs_logistic: naive Bayes against logistic regression learning curves on text
(notebook 10). Oracles: scikit-learn's MultinomialNB and LogisticRegression fitted on the same
rows and features, a by-hand document-frequency count, and the curves' own invariants."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression as SkLogistic
from sklearn.naive_bayes import MultinomialNB as SkMultinomialNB

from genviz.studies.gda_vs_logistic_curves import crossing_size
from genviz.nb_vs_logistic import (NBvsLogisticCurves, _two_class_order, leader, paired_lead,
                                   nb_vs_logistic_curves, presence_features)


def _corpus(n=200, V=40, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.3, "spam", "ham")
    rates = np.where((y == "spam")[:, None], np.linspace(0.5, 0.02, V), np.linspace(0.02, 0.5, V))
    X = rng.poisson(rates)
    return sp.csr_matrix(X[:140]), y[:140], sp.csr_matrix(X[140:]), y[140:]


def test_presence_features_keep_the_most_frequent_words_as_zeros_and_ones():
    X_train, _, X_test, _ = _corpus()
    F, G, cols = presence_features(X_train, X_test, 10)
    df = (X_train.toarray() > 0).sum(axis=0)
    by_hand = sorted(range(df.size), key=lambda j: (-df[j], j))[:10]
    assert cols.tolist() == by_hand
    assert np.array_equal(F, (X_train.toarray()[:, by_hand] > 0).astype(float))
    assert np.array_equal(G, (X_test.toarray()[:, by_hand] > 0).astype(float))
    # dense input gives the same
    F2, _, cols2 = presence_features(X_train.toarray(), X_test.toarray(), 10)
    assert np.array_equal(F, F2) and np.array_equal(cols, cols2)


def test_each_point_of_the_curves_is_what_scikit_learn_fits_on_the_same_rows():
    X_train, y_train, X_test, y_test = _corpus()
    sizes = [10, 40, 140]
    c = nb_vs_logistic_curves(X_train, y_train, X_test, y_test, sizes, 3, rng=5, n_words=15,
                              alpha=1.0, l2=0.5)
    F, G, _ = presence_features(X_train, X_test, 15)
    y01, yt = (y_train == "spam").astype(int), y_test == "spam"
    gen = np.random.default_rng(5)
    for r in range(3):
        order = _two_class_order(y01, gen)
        for j, n in enumerate(sizes):
            rows = order[:n] if n < 140 else np.arange(140)
            nb = SkMultinomialNB(alpha=1.0).fit(F[rows], y01[rows])
            # genviz's ridge l2/2 |theta|^2 on the summed loss is scikit-learn's C = 1 / l2
            lr = SkLogistic(C=1 / 0.5, tol=1e-10, max_iter=10_000).fit(F[rows], y01[rows])
            assert c.nb_errors[r, j] == pytest.approx(np.mean((nb.predict(G) == 1) != yt))
            assert abs(c.lr_errors[r, j] - np.mean((lr.predict(G) == 1) != yt)) <= 1 / yt.size
    assert np.all(c.nb_errors[:, -1] == c.nb_errors[0, -1])  # the full set: one fit
    mean, se = c.mean_se("nb")
    assert se[-1] == 0 and mean.shape == (3,)
    assert c.generative_errors is c.nb_errors and c.n_words == 15 and c.n_test == 60


def test_every_prefix_of_the_order_holds_both_classes():
    y = np.array([0] * 50 + [1] * 3)
    for seed in range(20):
        order = _two_class_order(y, np.random.default_rng(seed))
        assert sorted(order.tolist()) == list(range(53)) and set(y[order[:2]]) == {0, 1}


@settings(max_examples=30, deadline=None)
@given(nb=st.lists(st.floats(0.0, 0.5), min_size=4, max_size=4),
       gap=st.floats(-0.2, 0.2), noise=st.floats(0.0, 0.02))
def test_property_leader_and_crossing_agree_with_the_paired_differences(nb, gap, noise):
    nb_err = np.array([nb, nb]) + np.array([[0.0], [noise]])
    lr_err = nb_err - gap + np.array([[noise], [0.0]])
    c = NBvsLogisticCurves(np.array([1, 2, 3, 4]), nb_err, lr_err, 5, 10)
    diff = nb_err - lr_err
    for j, n in enumerate(c.sizes):
        d = diff[:, j]
        se = d.std(ddof=1) / np.sqrt(2)
        want = "tie" if abs(d.mean()) <= 2 * se or d.mean() == 0 else \
            ("lr" if d.mean() > 0 else "nb")
        assert leader(c, int(n)) == want
    cross = crossing_size(c)
    if cross is not None:
        assert all(leader(c, int(n)) == "lr" for n in c.sizes if n >= cross)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"sizes": [10, 5]}, ValueError, "sizes must be increasing"),
    ({"sizes": [1, 5]}, ValueError, "each >= 2"),
    ({"sizes": [10, 141]}, ValueError, "<= 140"),
    ({"sizes": [1.5]}, ValueError, "sizes must be a non-empty 1-D sequence of integers"),
    ({"n_reps": 1}, ValueError, "n_reps must be >= 2"),
    ({"alpha": 0.0}, ValueError, "alpha must be > 0"),
    ({"l2": 0.0}, ValueError, "l2 must be > 0"),
    ({"positive": "eggs"}, ValueError, "y_train must hold the positive label 'eggs'"),
    ({"n_words": 0}, ValueError, "n_words must be >= 1"),
    ({"n_words": 41}, ValueError, "n_words must be <= 40"),
])
def test_bad_input_is_refused_naming_the_argument(kwargs, error, match):
    X_train, y_train, X_test, y_test = _corpus()
    args = dict(sizes=[10, 20], n_reps=2, rng=0, n_words=10)
    args.update(kwargs)
    sizes, n_reps, rng = args.pop("sizes"), args.pop("n_reps"), args.pop("rng")
    with pytest.raises(error, match=match):
        nb_vs_logistic_curves(X_train, y_train, X_test, y_test, sizes, n_reps, rng, **args)


def test_bad_features_and_sizes_for_leader():
    X_train, y_train, X_test, _ = _corpus()
    with pytest.raises(ValueError, match="X_test must have as many columns"):
        presence_features(X_train, X_test[:, :5], 3)
    with pytest.raises(ValueError, match="X_train must hold finite counts >= 0"):
        presence_features(-X_train.toarray(), X_test, 3)
    with pytest.raises(ValueError, match="X_train and y_train"):
        nb_vs_logistic_curves(X_train, y_train[:-1], X_test, y_train[:60], [10], 2, 0)
    c = NBvsLogisticCurves(np.array([10, 20]), np.zeros((2, 2)), np.zeros((2, 2)), 5, 10)
    with pytest.raises(ValueError, match="n must be one of the curves' sizes"):
        leader(c, 15)
    with pytest.raises(ValueError, match="which must be 'nb' or 'lr'"):
        c.mean_se("gda")


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(0, 2**31 - 1))
def test_paired_lead_is_scipys_paired_t_statistic(reps, seed):
    """mean / se of the paired difference is scipy's ttest_rel statistic (oracle), and a size
    that is not on the curves, or a non-integer n, is refused by name."""
    from scipy.stats import ttest_rel
    rng = np.random.default_rng(seed)
    nb, lr = rng.uniform(0, 0.5, (reps, 3)), rng.uniform(0, 0.5, (reps, 3))
    c = NBvsLogisticCurves(np.array([10, 20, 40]), nb, lr, reps, 50)
    mean, se = paired_lead(c, 20)
    assert mean == pytest.approx(np.mean(nb[:, 1] - lr[:, 1]))
    assert mean / se == pytest.approx(ttest_rel(nb[:, 1], lr[:, 1]).statistic, rel=1e-9)
    with pytest.raises(ValueError, match="n must be one of"):
        paired_lead(c, 30)
    with pytest.raises((TypeError, ValueError), match="n"):
        paired_lead(c, 2.5)
