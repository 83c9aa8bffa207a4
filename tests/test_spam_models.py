"""The spam filter on the real corpus: genviz's text pipeline + naive Bayes against scikit-learn.

Same vocabulary and split; posteriors equal scikit-learn's to 1e-10; the linear form decides
like the model; Smola's threshold c; the bad inputs the issue lists.
"""

import numpy as np
import pytest
from sklearn import naive_bayes as sk
from sklearn.feature_extraction.text import CountVectorizer

from genviz.naive_bayes import BernoulliNB, MultinomialNB
from genviz.model_selection import ThresholdCurves, binary_metrics
from genviz.text import TOKEN_PATTERN, bag_of_words, build_vocabulary, word_contributions
from spam_testing import spam_split

MODELS = {"multinomial": (MultinomialNB, sk.MultinomialNB),
          "bernoulli": (BernoulliNB, sk.BernoulliNB)}


@pytest.fixture(scope="module")
def data():
    return spam_split(stop_words="english")


@pytest.fixture(scope="module")
def sk_features(data):
    """scikit-learn builds its own features from the same vocabulary and split."""
    c = data["corpus"]
    cv = CountVectorizer(token_pattern=TOKEN_PATTERN, vocabulary=list(data["vocab"].words))
    return cv.transform(c.text[data["train"]]), cv.transform(c.text[data["test"]])


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("alpha", [1.0, 0.1])
def test_posteriors_equal_sklearn_on_countvectorizer_features(data, sk_features, name, alpha):
    ours_cls, sk_cls = MODELS[name]
    X_ref_train, X_ref = sk_features
    ref = sk_cls(alpha=alpha, force_alpha=True).fit(X_ref_train, data["y_train"])
    ours = ours_cls(alpha=alpha).fit(data["X_train"], data["y_train"])
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_allclose(ours.predict_proba(data["X_test"]), ref.predict_proba(X_ref),
                               rtol=0, atol=1e-10)
    np.testing.assert_allclose(ours.predict_log_proba(data["X_test"]),
                               ref.predict_log_proba(X_ref), rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(ours.predict(data["X_test"]), ref.predict(X_ref))


@pytest.mark.parametrize("name", MODELS)
def test_linear_form_gives_the_same_decisions_and_log_odds(data, name):
    model = MODELS[name][0](alpha=1.0).fit(data["X_train"], data["y_train"])
    X = data["X_test"]
    w, b = model.linear_form()
    Xlin = (X > 0).astype(float) if name == "bernoulli" else X
    log_odds = Xlin @ w + b
    np.testing.assert_allclose(log_odds, model.decision_function(X), rtol=1e-9, atol=1e-8)
    decided = np.where(log_odds > 0, "spam", "ham")
    np.testing.assert_array_equal(decided, model.predict(X))
    np.testing.assert_allclose(model.feature_log_ratio_, w)


def test_smola_threshold_offset_b_and_algorithm_1_1(data):
    """Algorithm 1.1 written out: b = log c + log m_ham - log m_spam; spam iff
    sum_j x_j (log p_spam,j - log p_ham,j) > b, with p from counts initialised to 1 (Laplace)."""
    X, y = data["X_train"], data["y_train"]
    model = MultinomialNB(alpha=1.0).fit(X, y)
    m_ham, m_spam = np.sum(y == "ham"), np.sum(y == "spam")
    n = X.shape[1]
    counts_spam = np.asarray(X[y == "spam"].sum(axis=0)).ravel() + 1.0
    counts_ham = np.asarray(X[y == "ham"].sum(axis=0)).ravel() + 1.0
    p_spam = counts_spam / counts_spam.sum()  # w_spam starts at n
    p_ham = counts_ham / counts_ham.sum()
    assert counts_spam.sum() == n + X[y == "spam"].sum()
    t_words = data["X_test"] @ (np.log(p_spam) - np.log(p_ham))
    for c in (1e-20, 1e-3, 1.0, 50.0, 1e15):
        b = np.log(c) + np.log(m_ham) - np.log(m_spam)
        smola = np.where(t_words - b > 0, "spam", "ham")
        np.testing.assert_array_equal(model.predict(data["X_test"], threshold=c), smola)


def test_multinomial_beats_bernoulli_on_this_corpus(data):
    m = {}
    for name, (cls, _) in MODELS.items():
        pred = cls(alpha=1.0).fit(data["X_train"], data["y_train"]).predict(data["X_test"])
        m[name] = binary_metrics(data["y_test"], pred, positive="spam")
    assert m["multinomial"]["accuracy"] > m["bernoulli"]["accuracy"]
    assert m["multinomial"]["recall"] > m["bernoulli"]["recall"]
    assert m["multinomial"]["accuracy"] > 0.96 and m["bernoulli"]["accuracy"] > 0.94


def test_threshold_moves_along_the_curves(data):
    model = MultinomialNB(alpha=1.0).fit(data["X_train"], data["y_train"])
    scores = model.decision_function(data["X_test"])
    curves = ThresholdCurves(scores, data["y_test"], positive="spam")
    previous = None
    for log10_c in (-30, -5, 0, 5, 30):
        c = 10.0 ** log10_c
        m = binary_metrics(data["y_test"], model.predict(data["X_test"], threshold=c))
        pt = curves.at(np.log(c))
        assert (pt["tp"], pt["fp"]) == (m["tp"], m["fp"])
        if previous is not None:  # a larger c flags fewer messages: recall never rises
            assert pt["recall"] <= previous["recall"] and pt["fpr"] <= previous["fpr"]
        previous = pt


# -- bad inputs ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", MODELS)
def test_empty_document_and_unseen_words_only_fall_back_to_the_prior(data, name):
    cls = MODELS[name][0]
    model = cls(alpha=1.0).fit(data["X_train"], data["y_train"])
    X = bag_of_words(["", "zzyzx qwxqz neurips2026", "12345 !!!"], data["vocab"])
    assert X.nnz == 0
    post = model.predict_proba(X)
    if name == "multinomial":  # no word: the likelihood is 1, the posterior is the prior
        np.testing.assert_allclose(post, np.exp(np.tile(model.class_log_prior_, (3, 1))),
                                   atol=1e-12)
    else:  # every word absent: the Bernoulli model still scores all the absences
        ref = sk.BernoulliNB(alpha=1.0, force_alpha=True).fit(data["X_train"], data["y_train"])
        np.testing.assert_allclose(post, ref.predict_proba(X.toarray()), atol=1e-10)
    w, b = model.linear_form()
    r = word_contributions("zzyzx qwxqz", data["vocab"], w)
    assert r["words"] == [] and r["unseen"] == ["zzyzx", "qwxqz"]
    np.testing.assert_allclose(model.decision_function(X), b)


def test_non_string_documents_and_negative_alpha_are_refused(data):
    with pytest.raises(TypeError, match=r"docs\[1\] must be a string"):
        bag_of_words(["hello", 3.5], data["vocab"])
    with pytest.raises(TypeError, match="single string"):
        bag_of_words("just one email", data["vocab"])
    for cls in (MultinomialNB, BernoulliNB):
        with pytest.raises(ValueError, match="alpha must be >= 0"):
            cls(alpha=-1.0).fit(data["X_train"], data["y_train"])


def test_neurips_zero_over_zero_without_smoothing_and_laplace_fixes_it(data):
    c = data["corpus"]
    vocab = build_vocabulary(c.text[data["train"]], min_count=2, stop_words="english",
                             extra_words=["neurips"])
    X_train = bag_of_words(c.text[data["train"]], vocab)
    email = bag_of_words(["Our NeurIPS paper was accepted"], vocab)
    j = vocab.index["neurips"]
    ml = MultinomialNB(alpha=0.0).fit(X_train, data["y_train"])
    assert np.all(np.isneginf(ml.feature_log_prob_[:, j]))  # phi = 0 / n for both classes
    assert np.all(np.isneginf(ml.predict_joint_log_proba(email)))
    with pytest.raises(ValueError, match="0/0"):
        ml.predict_proba(email)
    laplace = MultinomialNB(alpha=1.0).fit(X_train, data["y_train"])
    post = laplace.predict_proba(email)
    assert np.all(np.isfinite(post)) and post.sum() == pytest.approx(1.0)
    # Laplace: phi_neurips|y = 1 / (N_y + |V|), the same small number for an unseen word
    N = laplace.feature_count_.sum(axis=1)
    np.testing.assert_allclose(np.exp(laplace.feature_log_prob_[:, j]), 1.0 / (N + len(vocab)))


def test_the_product_underflows_and_the_log_does_not(data):
    model = MultinomialNB(alpha=1.0).fit(data["X_train"], data["y_train"])
    joint = model.predict_joint_proba(data["X_test"])
    log_joint = model.predict_joint_log_proba(data["X_test"])
    underflow = np.all(joint == 0.0, axis=1)
    assert underflow.mean() > 0.3  # a third of the messages: P(x, y) rounds to 0.0 for both y
    assert np.all(np.isfinite(log_joint))
    assert np.all(log_joint[underflow].max(axis=1) < np.log(np.finfo(float).tiny) - 30)
