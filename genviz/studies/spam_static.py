"""What the static spam-filter figures show (notebook 07), computed: the most indicative words
(:func:`top_words_figure_study`), confusion matrices (:func:`confusion_figure_study`) and where
a product of word probabilities underflows (:func:`underflow_figure_study`).
:mod:`genviz.plots.spam_static` paints them."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int
from genviz.studies._base import Result

__all__ = ["TopWordsResult", "top_words_figure_study", "ConfusionPanel", "ConfusionResult",
           "confusion_figure_study", "UnderflowResult", "underflow_figure_study"]


class TopWordsResult(Result):
    """Result of :func:`top_words_figure_study`.

    Attributes
    ----------
    top : dict
        ``"spam"``, ``"ham"`` -> list of (word, log-ratio), most indicative first
        (:meth:`top_features`).
    model_name : str
        The model's class name.
    alpha : float
        Its smoothing.
    vocabulary_size : int
    """

    top: dict
    model_name: str
    alpha: float
    vocabulary_size: int


def top_words_figure_study(model, vocabulary, *, k: int = 15) -> TopWordsResult:
    """The ``k`` most spam- and ham-indicative words of a fitted text model.

    Examples
    --------
    >>> from genviz.naive_bayes import MultinomialNB
    >>> from genviz.text import build_vocabulary, bag_of_words
    >>> docs, y = ["free money", "free offer", "meeting notes", "notes"], ["spam", "spam", "ham", "ham"]
    >>> v = build_vocabulary(docs)
    >>> r = top_words_figure_study(MultinomialNB().fit(bag_of_words(docs, v), y), v, k=2)
    >>> [w for w, _ in r.top["spam"]], r.vocabulary_size
    (['free', 'money'], 5)
    """
    k = check_int(k, "k", low=1)
    top = model.top_features(k=k, feature_names=list(vocabulary.words))
    return TopWordsResult(top, type(model).__name__, model.alpha, len(vocabulary))


class ConfusionPanel(Result):
    """One model of :func:`confusion_figure_study`.

    Attributes
    ----------
    title : str
    counts : ndarray of shape (2, 2), dtype=int
        The confusion matrix (rows: true class).
    shares : ndarray of shape (2, 2)
        Each row divided by its sum.
    accuracy : float
    precision : float
    recall : float
    """

    title: str
    counts: np.ndarray
    shares: np.ndarray
    accuracy: float
    precision: float
    recall: float


class ConfusionResult(Result):
    """Result of :func:`confusion_figure_study`.

    Attributes
    ----------
    panels : tuple of ConfusionPanel
    """

    panels: tuple


def confusion_figure_study(results: dict) -> ConfusionResult:
    """Each model's confusion matrix and its rows' shares; ``results`` maps a title to
    :func:`genviz.model_selection.binary_metrics`.

    Raises
    ------
    ValueError
        If ``results`` is empty.

    Examples
    --------
    >>> from genviz.model_selection import binary_metrics
    >>> r = confusion_figure_study({"a": binary_metrics(["spam", "ham"], ["spam", "spam"])})
    >>> r.panels[0].shares.tolist()
    [[0.0, 1.0], [0.0, 1.0]]
    """
    if not results:
        raise ValueError("results is empty; pass {name: binary_metrics(...)}")
    panels = []
    for title, m in results.items():
        cm = np.asarray(m["confusion"])
        panels.append(ConfusionPanel(title, cm, cm / cm.sum(axis=1, keepdims=True),
                                     m["accuracy"], m["precision"], m["recall"]))
    return ConfusionResult(tuple(panels))


class UnderflowResult(Result):
    """Result of :func:`underflow_figure_study`.

    Attributes
    ----------
    floor : float
        ``log10`` of the smallest positive float64 (subnormal): below it a product is 0.0.
    span_bottom : float
        The shaded band's lower end (5 % below the lowest message or the floor).
    n_words_ok : ndarray of shape (k,)
        The messages whose product is representable: their word counts, ``log10_ok`` their
        ``log10 P(x, y)``.
    log10_ok : ndarray of shape (k,)
    n_words_below : ndarray of shape (j,)
        The messages whose product underflows, likewise.
    log10_below : ndarray of shape (j,)
    n_below : int
    n : int
        All the messages.
    """

    floor: float
    span_bottom: float
    n_words_ok: np.ndarray
    log10_ok: np.ndarray
    n_words_below: np.ndarray
    log10_below: np.ndarray
    n_below: int
    n: int


def underflow_figure_study(n_words, log10_joint) -> UnderflowResult:
    """Which messages' ``P(x, y)``, a product of many word probabilities, rounds to 0.0 in
    float64.

    Raises
    ------
    ValueError
        If the two arrays are not 1-D of the same length.

    Examples
    --------
    >>> r = underflow_figure_study([10, 100, 300], [-30.0, -290.0, -900.0])
    >>> int(r.n_below), r.n_words_below.tolist()
    (1, [300.0])
    """
    n_words = np.asarray(n_words, dtype=float)
    y = np.asarray(log10_joint, dtype=float)
    if n_words.shape != y.shape or n_words.ndim != 1:
        raise ValueError(f"n_words and log10_joint must be 1-D of the same length, got shapes "
                         f"{n_words.shape} and {y.shape}")
    floor = np.log10(np.finfo(float).smallest_subnormal)
    below = y < floor
    return UnderflowResult(floor, min(y.min(), floor) * 1.05, n_words[~below], y[~below],
                           n_words[below], y[below], below.sum(), y.size)
