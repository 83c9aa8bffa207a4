"""The spam tests' one data fixture: a seeded split of the SpamAssassin corpus as features.

``spam_split(every, rng, stop_words)`` keeps every ``every``-th message (a smaller corpus keeps
a test quick), splits it 70/30 stratified with seed ``rng``, builds the vocabulary (words seen
at least twice) on the training part and returns the bags of words. Cached: the tests of one
session that ask for the same split share it (treat the arrays as read-only).
"""

from __future__ import annotations

import functools

import numpy as np

from genviz.datasets import spam_assassin
from genviz.model_selection import stratified_split
from genviz.naive_bayes import BernoulliNB, MultinomialNB
from genviz.text import bag_of_words, build_vocabulary


def spam_split(every: int = 1, rng: int = 0, stop_words=None) -> dict:
    """``corpus``, ``train``/``test`` (indices into the kept messages), ``text_train``,
    ``vocab``, ``X_train``, ``y_train``, ``X_test``, ``y_test``."""
    return dict(_split(every, rng, stop_words))


@functools.lru_cache(maxsize=None)
def _split(every, rng, stop_words):
    c = spam_assassin()
    keep = np.arange(0, len(c.text), every)
    text, label = c.text[keep], c.label[keep]
    train, test = stratified_split(label, test_size=0.3, rng=rng)
    vocab = build_vocabulary(text[train], min_count=2, stop_words=stop_words)
    return dict(corpus=c, train=train, test=test, text_train=text[train], vocab=vocab,
                X_train=bag_of_words(text[train], vocab), y_train=label[train],
                X_test=bag_of_words(text[test], vocab), y_test=label[test])


def fitted_models(X, y) -> dict:
    """Both naive Bayes event models fitted to ``X, y``: ``{"multinomial": .., "bernoulli": ..}``."""
    return {"multinomial": MultinomialNB().fit(X, y), "bernoulli": BernoulliNB().fit(X, y)}
