"""genviz.naive_bayes text models (MultinomialNB, BernoulliNB) against scikit-learn."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import logsumexp
from sklearn import naive_bayes as sk

from genviz._validation import NotFittedError
from genviz.naive_bayes import BernoulliNB, MultinomialNB

MODELS = [(MultinomialNB, sk.MultinomialNB), (BernoulliNB, sk.BernoulliNB)]


def corpus(seed, n=60, V=40, K=2, labels=None):
    rng = np.random.default_rng(seed)
    X = rng.poisson(0.4, size=(n, V)) * (rng.random((n, V)) < 0.5)
    X[0] = 0  # an empty document
    y = rng.integers(0, K, size=n)
    y[:K] = np.arange(K)
    if labels is not None:
        y = np.asarray(labels)[y]
    return X, y


@pytest.mark.parametrize("ours, theirs", MODELS)
@pytest.mark.parametrize("alpha", [1.0, 0.5, 1e-10])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed,K", [(0, 2), (1, 2), (2, 3)])
def test_matches_sklearn(ours, theirs, alpha, sparse, seed, K):
    X, y = corpus(seed, K=K)
    Xq = corpus(seed + 100, n=25, K=K)[0]
    if sparse:
        X, Xq = sp.csr_matrix(X), sp.csr_array(Xq)
    a = ours(alpha=alpha).fit(X, y)
    b = theirs(alpha=alpha, force_alpha=True).fit(X, y)
    np.testing.assert_array_equal(a.classes_, b.classes_)
    np.testing.assert_allclose(a.class_log_prior_, b.class_log_prior_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.feature_count_, b.feature_count_)
    np.testing.assert_allclose(a.feature_log_prob_, b.feature_log_prob_, rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(a.predict_joint_log_proba(Xq), b.predict_joint_log_proba(Xq),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(a.predict_proba(Xq), b.predict_proba(Xq), rtol=0, atol=1e-10)
    np.testing.assert_allclose(a.predict_log_proba(Xq), b.predict_log_proba(Xq), atol=1e-10)
    np.testing.assert_array_equal(a.predict(Xq), b.predict(Xq))


@pytest.mark.parametrize("cls", [MultinomialNB, BernoulliNB])
def test_sparse_input_is_not_densified(cls, monkeypatch):
    X, y = corpus(3)
    Xs = sp.csr_matrix(X)

    def refuse(*args, **kwargs):
        raise AssertionError("densified")
    monkeypatch.setattr(sp.csr_matrix, "toarray", refuse)
    monkeypatch.setattr(sp.csr_matrix, "todense", refuse)
    monkeypatch.setattr(sp.csr_matrix, "__array__", refuse, raising=False)
    nb = cls().fit(Xs, y)
    assert nb.predict_proba(Xs).shape == (X.shape[0], 2)
    assert nb.decision_function(Xs).shape == (X.shape[0],)


@pytest.mark.parametrize("cls", [MultinomialNB, BernoulliNB])
def test_string_labels_and_binary_extras(cls):
    X, y = corpus(4, labels=["ham", "spam"])
    Xq = corpus(40, n=30)[0]
    nb = cls(alpha=0.7).fit(X, y)
    assert nb.classes_.tolist() == ["ham", "spam"]
    joint = nb.predict_joint_log_proba(Xq)
    d = nb.decision_function(Xq)
    np.testing.assert_allclose(d, joint[:, 1] - joint[:, 0], atol=1e-12)
    # The posterior of the positive class is the logistic of the log-odds.
    np.testing.assert_allclose(nb.predict_proba(Xq)[:, 1], 1 / (1 + np.exp(-d)), atol=1e-12)
    Xb = (Xq > 0).astype(float) if cls is BernoulliNB else Xq
    w, b = nb.linear_form()
    np.testing.assert_allclose(Xb @ w + b, d, atol=1e-9)
    np.testing.assert_allclose(nb.feature_log_ratio_, w)
    # Thresholds: c = 1 is the argmax; a huge c says "ham" always, a tiny c "spam" always.
    np.testing.assert_array_equal(nb.predict(Xq, threshold=1.0), nb.predict(Xq))
    assert set(nb.predict(Xq, threshold=1e300)) == {"ham"}
    assert set(nb.predict(Xq, threshold=1e-300)) == {"spam"}
    c = float(np.exp(np.median(d)))
    np.testing.assert_array_equal(nb.predict(Xq, threshold=c) == "spam", d > np.log(c))


def test_multinomial_linear_form_is_log_theta_ratio_and_top_features():
    X = np.array([[3, 0, 1, 0], [2, 0, 0, 1], [0, 2, 0, 1], [0, 3, 1, 1]])
    nb = MultinomialNB(alpha=1.0).fit(X, ["ham", "ham", "spam", "spam"])
    # Closed form: N_ham = (5, 0, 1, 1) + 1 over 7 + 4; N_spam = (0, 5, 1, 2) + 1 over 8 + 4.
    theta_ham = np.array([6, 1, 2, 2]) / 11
    theta_spam = np.array([1, 6, 2, 3]) / 12
    w, b = nb.linear_form()
    np.testing.assert_allclose(w, np.log(theta_spam / theta_ham))
    assert b == pytest.approx(0.0)
    top = nb.top_features(k=2, feature_names=["cash", "meeting", "the", "free"])
    assert [name for name, _ in top["ham"]] == ["cash", "the"]
    assert [name for name, _ in top["spam"]] == ["meeting", "free"]
    assert top["spam"][0][1] == pytest.approx(np.log((6 / 12) / (1 / 11)))
    assert top["ham"][0][1] == pytest.approx(np.log((6 / 11) / (1 / 12)))
    assert nb.top_features(k=1)["spam"] == [(1, pytest.approx(w[1]))]


def test_bernoulli_closed_form_and_absent_words_count():
    X = np.array([[1, 0, 1], [1, 1, 0], [0, 0, 1]])
    nb = BernoulliNB(alpha=1.0).fit(X, [0, 0, 1])
    phi0 = np.array([3, 2, 2]) / 4
    phi1 = np.array([1, 1, 2]) / 3
    x = np.array([1, 0, 0])
    expected = [np.log(2 / 3) + np.sum(x * np.log(p) + (1 - x) * np.log(1 - p))
                for p in (phi0, phi0)][:1] + [np.log(1 / 3) + np.sum(x * np.log(phi1)
                                                               + (1 - x) * np.log(1 - phi1))]
    np.testing.assert_allclose(nb.predict_joint_log_proba([x])[0], expected)
    joint = np.array(expected)
    np.testing.assert_allclose(nb.predict_proba([x])[0], np.exp(joint - logsumexp(joint)))


def test_alpha_zero_gives_minus_infinity_not_nan_and_clear_0_over_0():
    X = np.array([[2, 0, 1], [1, 0, 0], [0, 3, 1], [0, 1, 0]])
    y = ["ham", "ham", "spam", "spam"]
    nb = MultinomialNB(alpha=0.0).fit(X, y)
    joint = nb.predict_joint_log_proba([[1, 0, 0], [0, 0, 1], [0, 0, 0]])
    assert joint[0, 1] == -np.inf and np.isfinite(joint[0, 0])
    assert np.all(np.isfinite(joint[1:]))
    np.testing.assert_allclose(nb.predict_proba([[1, 0, 0]]), [[1.0, 0.0]])
    with pytest.raises(ValueError, match="0/0.*smooth the counts"):
        nb.predict_proba([[1, 1, 0]])  # "cash" never in spam, "meeting" never in ham
    with pytest.raises(ValueError, match="0/0"):
        nb.decision_function([[1, 1, 0]])
    bnb = BernoulliNB(alpha=0.0).fit(X, y)
    # word 0 is in every ham document: a ham candidate without it is impossible
    assert bnb.predict_joint_log_proba([[0, 1, 0]])[0, 0] == -np.inf
    assert not np.any(np.isnan(bnb.predict_joint_log_proba(X)))
    with pytest.raises(ValueError, match="0/0"):
        bnb.predict_proba([[1, 1, 0]])


@pytest.mark.parametrize("cls", [MultinomialNB, BernoulliNB])
def test_bad_inputs(cls):
    X, y = corpus(5)
    with pytest.raises(NotFittedError, match="fit"):
        cls().predict(X)
    with pytest.raises(NotFittedError):
        cls().decision_function(X)
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        cls(alpha=-1.0).fit(X, y)
    with pytest.raises(TypeError, match="alpha"):
        cls(alpha="1").fit(X, y)
    nb = cls().fit(X, y)
    with pytest.raises(ValueError, match="X has 39 features .* fitted with 40"):
        nb.predict(X[:, :-1])
    with pytest.raises(ValueError, match="X has 39 features"):
        nb.predict(sp.csr_matrix(X[:, :-1]))
    with pytest.raises(ValueError, match="negative"):
        cls().fit(-X, y)
    with pytest.raises(ValueError, match="NaN"):
        cls().fit(np.where(X > 0, np.nan, 0), y)
    with pytest.raises(ValueError, match="y has 59 labels but X has 60"):
        cls().fit(X, y[1:])
    with pytest.raises(ValueError, match="at least two classes"):
        cls().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="2-dimensional"):
        nb.predict(X[0])
    with pytest.raises(ValueError, match="threshold must be > 0"):
        nb.predict(X, threshold=0.0)
    with pytest.raises(ValueError, match="have no training rows"):
        cls().fit(X, y, classes=[0, 1, 2])
    # empty document rows are fine
    assert np.all(np.isfinite(nb.predict_log_proba(np.zeros((3, 40)))))
    three = cls().fit(X, np.arange(len(y)) % 3)
    for call in (lambda m: m.decision_function(X), lambda m: m.linear_form(),
                 lambda m: m.top_features(), lambda m: m.predict(X, threshold=2.0),
                 lambda m: m.feature_log_ratio_):
        with pytest.raises(ValueError, match="exactly two classes.*3"):
            call(three)
    with pytest.raises(ValueError, match="feature_names must have one name per feature"):
        nb.top_features(feature_names=["a", "b"])
    with pytest.raises(ValueError, match="k must be >= 1"):
        nb.top_features(k=0)


def test_bernoulli_binarize_none_requires_binary_input():
    X, y = corpus(6)
    with pytest.raises(ValueError, match="only 0 and 1 when binarize=None"):
        BernoulliNB(binarize=None).fit(X * 2 + 0, y) if (X > 1).any() else \
            BernoulliNB(binarize=None).fit(X * 2, y)
    Xb = (X > 0).astype(int)
    a = BernoulliNB(binarize=None).fit(Xb, y)
    b = sk.BernoulliNB(binarize=None).fit(Xb, y)
    np.testing.assert_allclose(a.predict_proba(Xb), b.predict_proba(Xb), atol=1e-10)
    with pytest.raises(ValueError, match="binarize must be >= 0"):
        BernoulliNB(binarize=-1.0).fit(X, y)


def test_not_fitted_error_is_both_value_and_attribute_error():
    assert issubclass(NotFittedError, ValueError) and issubclass(NotFittedError, AttributeError)
    with pytest.raises(AttributeError, match="MultinomialNB is not fitted"):
        MultinomialNB().predict_log_proba([[1, 2]])
