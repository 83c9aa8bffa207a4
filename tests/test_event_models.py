"""genviz.event_models: CS229's naive Bayes argument and event models, against independent
computations (exact integers, scipy's multinomial, BernoulliNB, scikit-learn)."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy import stats
from sklearn.naive_bayes import BernoulliNB as SkBernoulliNB

from genviz.event_models import (bernoulli_mle, bernoulli_posterior, binary_vector,
                                 multinomial_log_likelihood, parameter_counts, word_dependence,
                                 word_ids)
from genviz.naive_bayes import BernoulliNB
from genviz.text import build_vocabulary


@pytest.mark.parametrize("n", [1, 3, 20, 1000, 50000])
def test_parameter_counts(n):
    c = parameter_counts(n)
    assert c["naive_bayes"] == 2 * n + 1
    assert c["joint_per_class"] == 2 ** n - 1
    assert c["joint_digits"] == math.floor(n * math.log10(2)) + 1


def test_parameter_counts_bad_input():
    with pytest.raises(ValueError, match="n_words"):
        parameter_counts(0)
    with pytest.raises(TypeError, match="n_words"):
        parameter_counts(2.5)


def test_word_dependence_against_counting():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    xk = rng.random(400) < 0.3
    xj = (rng.random(400) < 0.2) | (xk & (rng.random(400) < 0.5))
    X = sp.csr_matrix(np.column_stack([xj * 3, xk * 1, np.zeros(400)]))
    d = word_dependence(X, y, 0, 1)
    assert d["p_j"] == pytest.approx(xj.mean())
    assert d["p_j_given_k"] == pytest.approx(xj[xk].mean())
    assert d["p_j_given_y"] == pytest.approx(xj[y == 1].mean())
    assert d["p_j_given_y_k"] == pytest.approx(xj[(y == 1) & xk].mean())
    assert d["p_j_given_y0_k"] == pytest.approx(xj[(y == 0) & xk].mean())
    assert math.isnan(word_dependence(X, y, 0, 2)["p_j_given_k"])  # word 2 never occurs


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(y=[0, 1]), ValueError, "one label per row"),
    (dict(y=[0, 0, 0]), ValueError, "two classes"),
    (dict(j=5), ValueError, "j"),
    (dict(positive="x"), ValueError, "positive"),
])
def test_word_dependence_bad_input(kwargs, exc, match):
    args = dict(X=np.eye(3), y=[0, 1, 1], j=0, k=1) | kwargs
    with pytest.raises(exc, match=match):
        word_dependence(**args)


def test_binary_vector_and_word_ids():
    words = ["a", "aardvark", "aardwolf", "buy", "zygmurgy"]
    assert binary_vector("A cheap offer: BUY! buy!", words).tolist() == [1, 0, 0, 1, 0]
    v = build_vocabulary(["a buy neurips paper"])
    assert word_ids("A NeurIPS paper", v) == [1, 3, 4]
    assert word_ids("A NeurIPS paper", v, one_based=False) == [0, 2, 3]
    assert word_ids("unknown words only", v) == []
    with pytest.raises(TypeError, match="vocabulary"):
        word_ids("a", words)


def test_bernoulli_mle_is_the_unsmoothed_model():
    rng = np.random.default_rng(1)
    X = (rng.random((60, 8)) < 0.3).astype(int)
    X[:, 7] = 0
    y = np.where(rng.random(60) < 0.4, "spam", "ham")
    m = bernoulli_mle(sp.csr_matrix(X * 2), y, positive="spam")
    nb = BernoulliNB(alpha=0.0).fit(X, y)
    assert m["phi_y"] == pytest.approx(np.mean(y == "spam"))
    np.testing.assert_allclose(m["phi_1"], np.exp(nb.feature_log_prob_[1]))
    np.testing.assert_allclose(m["phi_0"], np.exp(nb.feature_log_prob_[0]))
    assert m["phi_1"][7] == 0 and m["phi_0"][7] == 0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 31 - 1))
def test_bernoulli_posterior_matches_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    X = (rng.random((40, 6)) < 0.4).astype(int)
    y = np.r_[np.zeros(20, int), np.ones(20, int)]
    sk = SkBernoulliNB(alpha=1.0).fit(X, y)
    phi = np.exp(sk.feature_log_prob_)
    prior = np.exp(sk.class_log_prior_)
    for x in X[:5]:
        p = bernoulli_posterior(x, prior[1], phi[1], phi[0])
        assert p == pytest.approx(sk.predict_proba(x[None])[0, 1], rel=1e-9, abs=1e-12)


def test_bernoulli_posterior_zero_over_zero():
    with pytest.raises(ValueError, match="0/0"):
        bernoulli_posterior([1, 1], 0.5, [0.0, 0.5], [0.5, 0.0])
    with pytest.raises(ValueError, match="entries"):
        bernoulli_posterior([1, 1, 0], 0.5, [0.5, 0.5], [0.5, 0.5])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=2, max_size=8), st.integers(0, 2 ** 31 - 1))
def test_multinomial_log_likelihood_against_scipy(counts, seed):
    phi = np.random.default_rng(seed).dirichlet(np.ones(len(counts)))
    n = np.array(counts)
    ll = multinomial_log_likelihood(n, np.log(phi))
    assert ll == pytest.approx(stats.multinomial.logpmf(n, n.sum(), phi), rel=1e-9, abs=1e-9)
    # without the coefficient: the sequence likelihood sum_k n_k log phi_k
    assert multinomial_log_likelihood(n, np.log(phi), coefficient=False) == pytest.approx(
        float(np.sum(n * np.log(phi))))


def test_the_coefficient_cancels_between_classes():
    n = np.array([3, 0, 2, 1])
    a, b = np.log([0.1, 0.2, 0.3, 0.4]), np.log([0.4, 0.3, 0.2, 0.1])
    with_c = multinomial_log_likelihood(n, a) - multinomial_log_likelihood(n, b)
    without = (multinomial_log_likelihood(n, a, coefficient=False)
               - multinomial_log_likelihood(n, b, coefficient=False))
    assert with_c == pytest.approx(without)


def test_multinomial_log_likelihood_bad_input():
    with pytest.raises(ValueError, match="entries"):
        multinomial_log_likelihood([1, 2], np.log([1.0]))
    with pytest.raises(ValueError, match=">= 0"):
        multinomial_log_likelihood([-1, 2], np.log([0.5, 0.5]))


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(y=[0, 1]), ValueError, "one label per row"),
    (dict(y=[0, 0, 0]), ValueError, "two classes"),
    (dict(y=[0, "spam", 1]), TypeError, "mixes label types"),
    (dict(y=[0, None, 1]), ValueError, "missing label"),
    (dict(positive="x"), ValueError, "positive"),
])
def test_bernoulli_mle_bad_labels(kwargs, exc, match):
    args = dict(X=np.eye(3), y=[0, 1, 1]) | kwargs
    with pytest.raises(exc, match=match):
        bernoulli_mle(**args)
