"""Spam filter: the text pipeline and naive Bayes against scikit-learn; the explorers against
the naive new-figure-per-update approach. The corpus is loaded lazily (only when a spam case
runs)."""

import functools

import matplotlib.pyplot as plt
import numpy as np
from sklearn import naive_bayes as sk
from sklearn.feature_extraction.text import CountVectorizer

from harness import ExplorerCase, TimingCase, naive_png, sweep_moves
from genviz.datasets import spam_assassin
from genviz.naive_bayes import BernoulliNB, MultinomialNB
from genviz.model_selection import ThresholdCurves, stratified_split
from genviz.text import (
    STOP_WORDS, TOKEN_PATTERN, bag_of_words, build_vocabulary, vocabulary_and_counts,
)
from genviz.widgets.spam import email_explorer, threshold_explorer


@functools.lru_cache(maxsize=1)
def data():
    c = spam_assassin()
    train, test = stratified_split(c.label, test_size=0.3, rng=0)
    vocab = build_vocabulary(c.text[train], min_count=2, stop_words="english")
    d = dict(docs_train=list(c.text[train]), docs_test=list(c.text[test]),
             y_train=c.label[train], y_test=c.label[test], vocab=vocab,
             X_train=bag_of_words(c.text[train], vocab), X_test=bag_of_words(c.text[test], vocab))
    d["models"] = {"multinomial": MultinomialNB().fit(d["X_train"], d["y_train"]),
                   "bernoulli": BernoulliNB().fit(d["X_train"], d["y_train"])}
    return d


def pipeline_ours():
    d = data()
    vocab, X_train = vocabulary_and_counts(d["docs_train"], min_count=2, stop_words="english")
    X_test = bag_of_words(d["docs_test"], vocab)
    for cls in (MultinomialNB, BernoulliNB):
        cls().fit(X_train, d["y_train"]).predict(X_test)


def pipeline_sklearn():
    d = data()
    cv = CountVectorizer(token_pattern=TOKEN_PATTERN, min_df=2, stop_words=list(STOP_WORDS))
    X_train = cv.fit_transform(d["docs_train"])
    X_test = cv.transform(d["docs_test"])
    for cls in (sk.MultinomialNB, sk.BernoulliNB):
        cls().fit(X_train, d["y_train"]).predict(X_test)


def fit_predict(cls):
    def run():
        d = data()
        cls(alpha=1.0).fit(d["X_train"], d["y_train"]).predict(d["X_test"])
    return run


# -- explorers ------------------------------------------------------------------------------------
THRESHOLD_MOVES = sweep_moves({"log10_c": np.round(np.linspace(-30, 30, 13), 1)}, n_total=60)


def make_threshold():
    d = data()
    return threshold_explorer(d["X_train"], d["y_train"], d["X_test"], d["y_test"])


def naive_threshold(log10_c, alpha, model):
    """A typical ``interact`` callback: refit, recompute the curves, draw a new figure."""
    d = data()
    m = (MultinomialNB if model == "multinomial" else BernoulliNB)(alpha=alpha)
    scores = m.fit(d["X_train"], d["y_train"]).decision_function(d["X_test"])
    curves = ThresholdCurves(scores, d["y_test"])
    pt = curves.at(log10_c * np.log(10))
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(12.0, 4.0))
    s = np.clip(scores / np.log(10), -200, 200)
    spam = d["y_test"] == "spam"
    a.hist([s[~spam], s[spam]], bins=60, range=(-200, 200), density=True, alpha=0.5)
    a.axvline(log10_c, color="k")
    b.plot(np.maximum(curves.fpr, 1e-3), curves.tpr)
    b.set_xscale("log")
    b.plot([max(pt["fpr"], 1e-3)], [pt["tpr"]], "o")
    c.plot(curves.recall, curves.precision)
    c.plot([pt["recall"]], [pt["precision"]], "o")
    naive_png(fig)


TEXTS = ["Dear friend, click here to get your FREE money now!",
         "Meeting notes from the exmh list, see the rpm on freshrpms",
         "Cheap mortgage rates: reply today, the offer ends soon",
         "Our NeurIPS paper was accepted, see you at the conference"]
EMAIL_MOVES = [("text", TEXTS[i % 4]) if i % 3 else ("model", ("bernoulli", "multinomial")[i % 2])
               for i in range(60)]


def make_email():
    d = data()
    return email_explorer(d["models"], d["vocab"], text=TEXTS[0])


def naive_email(text, model, log10_c):
    from genviz.text import word_contributions

    d = data()
    w, b = d["models"][model].linear_form()
    r = word_contributions(text, d["vocab"], w, binary=model == "bernoulli")
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    labels = ["b"] + r["words"]
    vals = np.r_[b, r["contributions"]]
    ax.barh(np.arange(len(vals))[::-1], vals)
    ax.set_yticks(np.arange(len(vals))[::-1], labels)
    ax.set_title(f"log-odds {vals.sum():+.2f}")
    naive_png(fig)


CASES = [
    TimingCase("spam: tokenise + vocabulary + bag of words + fit + predict, both models "
               "(whole corpus, 5,685 messages)", pipeline_ours, pipeline_sklearn,
               baseline_name="sklearn CountVectorizer + MultinomialNB + BernoulliNB",
               repeats=5),
    TimingCase("spam: MultinomialNB fit + predict (3,980 train / 1,705 test, |V| = 17,530)",
               fit_predict(MultinomialNB), fit_predict(sk.MultinomialNB),
               baseline_name="sklearn MultinomialNB", repeats=30),
    TimingCase("spam: BernoulliNB fit + predict (3,980 train / 1,705 test, |V| = 17,530)",
               fit_predict(BernoulliNB), fit_predict(sk.BernoulliNB),
               baseline_name="sklearn BernoulliNB", repeats=30),
    ExplorerCase("spam threshold_explorer (move c)", make_threshold, THRESHOLD_MOVES,
                 naive_threshold, kind="2-D"),
    ExplorerCase("spam email_explorer (type text, switch model)", make_email, EMAIL_MOVES,
                 naive_email, kind="2-D"),
]
