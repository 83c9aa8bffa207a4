"""Exercises of notebook 07: a right and a wrong answer for each, computed independently."""

import numpy as np
import pytest

from genviz.exercises.spam import email_log_odds, flagged_ham, laplace_phi, smola_offset
from genviz.naive_bayes import BernoulliNB, MultinomialNB
from genviz.text import bag_of_words, tokenize
from spam_testing import spam_split


@pytest.fixture(scope="module")
def data():
    return spam_split(stop_words="english")


def test_laplace_phi_counts_documents_not_occurrences(data):
    spam_docs = data["text_train"][data["y_train"] == "spam"]
    n = sum("free" in set(tokenize(d)) for d in spam_docs)
    ex = laplace_phi(data["X_train"], data["y_train"], data["vocab"], "free", "spam")
    assert ex.check((n + 1) / (len(spam_docs) + 2)).correct
    assert not ex.check(n / len(spam_docs) * 1.1).correct
    # the same number as BernoulliNB's estimate
    nb = BernoulliNB(alpha=1.0).fit(data["X_train"], data["y_train"])
    assert ex.check(float(np.exp(nb.feature_log_prob_[1, data["vocab"].index["free"]]))).correct
    with pytest.raises(ValueError, match="not in the vocabulary"):
        laplace_phi(data["X_train"], data["y_train"], data["vocab"], "neurips")
    with pytest.raises(ValueError, match="does not occur"):
        laplace_phi(data["X_train"], data["y_train"], data["vocab"], "free", "eggs")


def test_smola_offset(data):
    y = data["y_train"]
    ex = smola_offset(y, c=10.0)
    assert ex.check(np.log(10) + np.log(np.sum(y == "ham")) - np.log(np.sum(y == "spam"))).correct
    assert not ex.check(np.log(np.sum(y == "ham")) - np.log(np.sum(y == "spam"))).correct
    with pytest.raises(ValueError, match="c must be > 0"):
        smola_offset(y, c=0.0)
    with pytest.raises(ValueError, match="both"):
        smola_offset(["ham", "ham"], c=1.0)


@pytest.mark.parametrize("cls", [MultinomialNB, BernoulliNB])
def test_email_log_odds(data, cls):
    model = cls().fit(data["X_train"], data["y_train"])
    text = "Get your free money now, click here! Meeting notes attached."
    ex = email_log_odds(model, data["vocab"], text)
    w, b = model.linear_form()
    x = bag_of_words([text], data["vocab"]).toarray()[0]
    if cls is BernoulliNB:
        x = (x > 0).astype(float)
    assert ex.check(float(x @ w + b)).correct
    assert not ex.check(float(x @ w)).correct  # forgetting the bias is wrong
    with pytest.raises(TypeError, match="text must be a string"):
        email_log_odds(model, data["vocab"], None)


def test_flagged_ham(data):
    model = MultinomialNB().fit(data["X_train"], data["y_train"])
    scores = model.decision_function(data["X_test"])
    for log10_c in (0.0, 5.0):
        n = int(np.sum((data["y_test"] == "ham") & (scores > log10_c * np.log(10))))
        ex = flagged_ham(model, data["X_test"], data["y_test"], log10_c)
        assert ex.check(n).correct
        assert not ex.check(n + 1).correct


# -- predictions and the conceptual item ---------------------------------------------------------
from genviz.exercises import spam as sx  # noqa: E402

TEXT = ("Dear friend, click here to get your FREE money now! Unsubscribe. Meeting about the "
        "neurips paper tomorrow.")


@pytest.fixture(scope="module")
def multi(data):
    return MultinomialNB(alpha=1.0).fit(data["X_train"], data["y_train"])


def test_predict_threshold_direction_counted_by_hand(data, multi):
    score = multi.decision_function(data["X_test"])
    spam = data["y_test"] == "spam"
    pr = []
    for log10_c in (0.0, 10.0):
        flagged = score > log10_c * np.log(10)
        pr.append((np.sum(flagged & spam) / np.sum(flagged), np.sum(flagged & spam) / np.sum(spam)))
    assert pr[1][0] > pr[0][0] and pr[1][1] < pr[0][1]  # precision up, recall down
    p = sx.predict_threshold_direction(multi, data["X_test"], data["y_test"])
    assert p.kind == "prediction" and p.check("Precision rises, recall falls.").correct
    assert not p.check("Precision falls, recall rises.").correct
    # both halves (precision, recall), before (log10 c = 0) and after (log10 c = 10)
    assert p.observation._answer == pytest.approx(list(pr[1]))
    assert p.observation.expected_before == pytest.approx(list(pr[0]))
    assert p.observation.parts == ("precision", "recall")


def test_predict_added_word_by_the_linear_form(data, multi):
    w, b = multi.linear_form()
    x = bag_of_words([TEXT], data["vocab"])
    before = float((x @ w)[0] + b)
    after = before + w[data["vocab"].index["razor"]]
    assert after < before and after > 0 and before > 0  # drops, still spam
    p = sx.predict_added_word(multi, data["vocab"], TEXT, "razor")
    assert p.check("The log-odds drops, but the verdict stays the same.").correct
    assert not p.check("The log-odds drops, and the verdict flips to the other side.").correct
    # the observation is the log-odds after the word; the explanation never states it
    assert p.observation._answer == pytest.approx(after)
    assert f"{before:+.2f}" not in p.explanation and f"{after:+.2f}" not in p.explanation
    assert p.observation.setting == {"text": f"{TEXT} razor", "model": "multinomial"}
    # and before the word (the email as given): the pair decides, by its difference
    assert p.observation.before == {"text": TEXT} and p.observation.compare == "difference"
    assert p.observation.expected_before == pytest.approx(before)
    p2 = sx.predict_added_word(multi, data["vocab"], TEXT, "mortgage")
    assert p2.check("The log-odds rises.").correct
    with pytest.raises(ValueError, match="not in the vocabulary"):
        sx.predict_added_word(multi, data["vocab"], TEXT, "neurips")
    with pytest.raises(TypeError, match="text"):
        sx.predict_added_word(multi, data["vocab"], ["an email"], "razor")


def test_doubled_email_by_the_linear_form(data, multi):
    w, b = multi.linear_form()
    x = bag_of_words([TEXT], data["vocab"])
    assert multi.decision_function(2 * x)[0] == pytest.approx(b + 2 * float((x @ w)[0]))
    c = sx.doubled_email(multi, data["vocab"], TEXT)
    assert c.kind == "concept" and c.check("The word part doubles; b, the prior term, stays.")
    assert not c.check("The whole log-odds doubles, b included.").correct
    with pytest.raises(TypeError, match="text"):
        sx.doubled_email(multi, data["vocab"], None)


