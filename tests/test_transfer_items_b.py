"""The analogous situations (issue #40 item 3) of notebooks 06, 07, 08 and 10: each computed
answer against an independent oracle (a closed form, scipy or scikit-learn), and the right option
is the one the oracle says. The course-wide rules (claims not given away, option lengths) are
tests/test_teaching.py's; here, each item's id, kind and claims on its own text."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy.stats import norm

from genviz import datasets
from genviz.exercises import Choice, matching_claims
from genviz.exercises import naive_bayes as nbx
from genviz.exercises import naive_bayes_transfer as nbt
from genviz.exercises import nb_vs_logistic as cx
from genviz.exercises import nb_vs_logistic_practice as cvx
from genviz.exercises import spam_transfer as st
from genviz.studies.naive_bayes_experiments import discretization, nb_vs_gda

sklearn = pytest.importorskip("sklearn")
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.metrics import precision_score, recall_score  # noqa: E402
from sklearn.model_selection import LeaveOneOut, cross_val_predict  # noqa: E402
from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB  # noqa: E402
from sklearn.naive_bayes import GaussianNB as SkGaussianNB  # noqa: E402
from sklearn.naive_bayes import MultinomialNB as SkMultinomialNB  # noqa: E402


def right(item: Choice) -> str:
    assert len(item.correct) == 1
    return item.options[item.correct[0]]


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text.replace("−", "-"))]


def _is_transfer(item, prediction_id):
    assert item.kind == "transfer" and item.id == f"{prediction_id}-transfer"
    assert item.claims and all(matching_claims([c], right(item) + " " + item.explanation)
                               for c in item.claims)


# -- notebook 06 ----------------------------------------------------------------------------------

def test_smallest_alpha_transfer_posterior_is_the_closed_form():
    alpha = 0.01
    q = nbt._smallest_alpha_transfer(alpha)
    _is_transfer(q, "06-smallest-alpha")
    # closed form: A pays two empty cells alpha/(10+2a) and one (5+a)/(10+2a); B the other way
    p_b = (5 + alpha) / (5 + 2 * alpha)
    assert right(q).startswith(f"P(B | x) ≈ {p_b:.3f}, since B has fewer zero counts")
    # scikit-learn's CategoricalNB on the same table (values coded 0/1)
    X, y = nbt._zero_count_table()
    sk = SkCategoricalNB(alpha=alpha).fit((X == "x").astype(int), y)
    assert sk.predict_proba([[1, 1, 1]])[0, list(sk.classes_).index("B")] == \
        pytest.approx(p_b, rel=1e-12)
    assert f"{p_b:.3f}" in q.explanation and f"{(5 + alpha) / alpha:.0f}" in q.explanation


def _fraud_posterior(signs):
    """P(fraud | all signs, country Q) by counting, alpha = 0 (independent of genviz)."""
    X, y = nbt._fraud_table(signs)
    score = {}
    for label in ("fraud", "normal"):
        rows = X[y == label]
        factors = [np.mean(rows[:, j] == "yes") for j in range(signs)] + [np.mean(rows[:, -1] == "Q")]
        score[label] = np.mean(y == label) * np.prod(factors)
    return score["fraud"] / (score["fraud"] + score["normal"])


def test_unseen_value_transfer_no_number_of_signs_lifts_the_zero():
    q = nbt._unseen_value_transfer(signs=5, more=50)
    _is_transfer(q, "06-unseen-value")
    assert all(_fraud_posterior(k) == 0.0 for k in (5, 6, 20, 55))
    assert right(q).startswith("No number of them")
    # the signs alone: each a likelihood ratio (18/20)/(2/20) = 9, five of them
    assert f"odds of {9 ** 5} to 1" in q.explanation
    assert "multiplies the odds by 9" in " ".join(q.options)


# -- notebook 08 ----------------------------------------------------------------------------------

def _sk_binned(x, y, width):
    """Training and leave-one-out accuracy of naive Bayes on the bin index, by scikit-learn
    (the bin index counted by hand: the number of edges at or below the value)."""
    edges = discretization(x, y, width=width).edges          # the situation: the bins' edges
    bins = np.sum(x[:, None] >= edges[None, :], axis=1)[:, None]   # 0 .. n_bins - 1
    model = SkCategoricalNB(alpha=1.0, min_categories=edges.size + 1)
    train = np.mean(model.fit(bins, y).predict(bins) == y)
    loo = np.mean(cross_val_predict(model, bins, y, cv=LeaveOneOut()) == y)
    return edges.size + 1, train, loo


def test_narrow_bins_transfer_accuracies_match_scikit_learn():
    q = nbt._narrow_bins_transfer(5.0, 0.1)
    _is_transfer(q, "08-narrow-bins")
    p = datasets.penguins()
    x, y = p.X[:, 0], np.asarray(p.y)
    _, train_w, loo_w = _sk_binned(x, y, 5.0)
    n, train_n, loo_n = _sk_binned(x, y, 0.1)
    assert f"({n} bins" in q.prompt
    assert [f"{v:.3f}" for v in (train_w, train_n, loo_w, loo_n)] == \
        [f"{v:.3f}" for v in numbers(q.explanation)[:4]]
    assert train_n > train_w and loo_n < loo_w - 0.005
    assert right(q) == "Training accuracy rises, leave-one-out accuracy falls."


def test_correlation_transfer_accuracies_match_scikit_learn():
    rho = -0.95
    q = nbt._correlation_transfer(rho)
    _is_transfer(q, "08-correlation")
    acc = {}
    for r in (0.0, rho):
        s = nb_vs_gda(r)  # the situation's data; the fits are scikit-learn's
        lda = LinearDiscriminantAnalysis(solver="lsqr").fit(s.X, s.y)
        gnb = SkGaussianNB().fit(s.X, s.y)
        acc[r] = (np.mean(lda.predict(s.X_test) == s.y_test),
                  np.mean(gnb.predict(s.X_test) == s.y_test))
    (gda0, _), (gda, nb) = acc[0.0], acc[rho]
    shown = numbers(q.explanation)
    assert f"{gda:.3f}" in q.explanation and f"{gda0:.3f}" in q.explanation
    assert f"{nb:.3f}" in q.explanation and shown[0] == rho
    assert gda - gda0 > 0.02 and abs(nb - acc[0.0][1]) <= 0.02
    assert right(q).startswith("GDA's rises, as for ρ > 0")


def _kde_nb_accuracy(x, y, x_test, y_test, h):
    """KDE naive Bayes by hand with scipy: a Gaussian KDE per class times its prior."""
    classes = np.unique(y)
    scores = np.array([np.mean(y == k) * norm.pdf(x_test[:, None], x[y == k][None, :], h).mean(1)
                       for k in classes])
    return np.mean(classes[np.argmax(scores, axis=0)] == y_test)


def test_wide_kde_transfer_accuracies_match_scipy():
    q = nbt._wide_kde_transfer(0.3, 3.0, seed=3)
    _is_transfer(q, "08-wide-kde")
    rng = np.random.default_rng(3)
    x, y = nbt._two_unimodal_classes(rng, 150)
    x_test, y_test = nbt._two_unimodal_classes(rng, 1000)
    a_from, a_to = (_kde_nb_accuracy(x, y, x_test, y_test, h) for h in (0.3, 3.0))
    assert f"{a_from:.3f} at $h = 0.3$" in q.explanation
    assert f"{a_to:.3f} at $h = 3$" in q.explanation
    assert abs(a_to - a_from) < 0.01
    assert right(q).startswith("About the same")


def test_the_notebooks_predictions_carry_their_transfers():
    t, tennis = datasets.enjoy_sport(), datasets.play_tennis()
    p = nbx.predict_smallest_alpha(t.X, t.y, t.feature_names,
                                   ["sunny", "cold", "high", "strong", "warm", "change"])
    assert p.transfer.id == "06-smallest-alpha-transfer"
    p = nbx.predict_unseen_value(tennis.X, tennis.y, tennis.feature_names,
                                 ["Overcast", "Cool", "High", "Strong"], "No")
    assert p.transfer.id == "06-unseen-value-transfer"
    p = nbx.predict_correlation(0.0, 0.95)
    assert p.transfer.id == "08-correlation-transfer" and "= -0.95$" in p.transfer.prompt


# -- notebook 07 ----------------------------------------------------------------------------------

def test_threshold_transfer_precision_and_recall_match_a_closed_form():
    q = st._threshold_transfer(1.0, 0.1, 10.0)
    _is_transfer(q, "07-threshold-direction")
    X, y = st._screening(0)
    X_test, y_test = st._screening(1)
    x, xt = X[:, 0], X_test[:, 0]
    log_odds = np.log(np.mean(y == "sick") / np.mean(y == "healthy")) + \
        norm.logpdf(xt, x[y == "sick"].mean(), x[y == "sick"].std()) - \
        norm.logpdf(xt, x[y == "healthy"].mean(), x[y == "healthy"].std())
    pr = {}
    for c in (1.0, 0.1):
        flagged = np.where(log_odds > np.log(c), "sick", "healthy")
        pr[c] = (precision_score(y_test, flagged, pos_label="sick"),
                 recall_score(y_test, flagged, pos_label="sick"))
    (p1, r1), (p01, r01) = pr[1.0], pr[0.1]
    assert (f"raises recall from {r1:.2f} to {r01:.2f} and lowers precision from {p1:.2f} to "
            f"{p01:.2f}") in q.explanation
    assert r01 > r1 and p01 < p1
    assert right(q) == "Lower c: recall rises, and precision falls."


@pytest.fixture(scope="module")
def spam_filter():
    from genviz.model_selection import stratified_split
    from genviz.naive_bayes import MultinomialNB
    from genviz.text import bag_of_words, build_vocabulary

    corpus = datasets.spam_assassin()
    train, _ = stratified_split(corpus.label, test_size=0.3, rng=0)
    vocab = build_vocabulary(corpus.text[train], min_count=2, stop_words="english")
    X = bag_of_words(corpus.text[train], vocab)
    return MultinomialNB(alpha=1.0).fit(X, corpus.label[train]), vocab, X, corpus.label[train]


def test_added_word_transfer_log_odds_match_scikit_learn(spam_filter):
    from genviz.text import bag_of_words

    model, vocab, X, y = spam_filter
    text = "click here for free money"
    q = st._added_word_transfer(model, vocab, "razor", text)
    _is_transfer(q, "07-added-word")
    sk = SkMultinomialNB(alpha=1.0).fit(X, y)
    spam = list(sk.classes_).index("spam")

    def log_odds(t):
        joint = sk.predict_joint_log_proba(bag_of_words([t], vocab))[0]
        return joint[spam] - joint[1 - spam]
    before, after = log_odds(text), log_odds(f"{text} razor")
    assert f"here {before:.2f} becomes {after:.2f}" in q.explanation
    assert before > 0 > after and abs(before) < abs(after - before)
    assert right(q).startswith("It flips to ham")


# -- notebook 10 (conceptual: the right option follows from the explanation, nothing computed) ----

@pytest.mark.parametrize("build, pid, starts", [
    (cx._small_and_large_transfer, "10-nb-vs-logistic", "logistic regression: thousands"),
    (cvx._crossing_with_d_transfer, "10-crossing-with-d", "the lab values: each varies")])
def test_notebook_10_transfers(build, pid, starts):
    q = build()
    _is_transfer(q, pid)
    assert right(q).startswith(starts)
    assert all(q.reasons[i] for i in range(len(q.options)) if i not in q.correct)
