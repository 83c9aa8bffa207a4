"""Naive Bayes against logistic regression on text: Ng & Jordan's (2001) experiment on a spam split.

Ng & Jordan compared a generative classifier with its discriminative partner — naive Bayes and
logistic regression, two linear classifiers over the *same* features — by their test error
against the training-set size ``n``: naive Bayes approaches its (higher) asymptotic error
after far fewer examples, logistic regression reaches a lower one with more. Notebook 10 runs
the experiment on the spam split of notebook 7.

The features are word **presence** (the 0/1 vectors of notebook 7) over the ``n_words`` words
that occur in the most training emails (a vocabulary chosen without the labels, so a small
training set does not see labels it was not given). Naive Bayes is the multinomial model fitted
on these 0/1 vectors (each distinct word of an email counted once: "multinomial naive Bayes
with Boolean attributes", the best variant in Metsis, Androutsopoulos & Paliouras, CEAS 2006);
logistic regression (Newton's method, :class:`genviz.logistic.LogisticRegression`) fits
:math:`\\theta^T x + \\theta_0` on the same vectors with a ridge ``l2`` (small samples are
separable). Both log-odds are linear in ``x``: only how the weights are fitted differs.

:func:`presence_features` builds the features; :func:`nb_vs_logistic_curves` the curves
(:class:`NBvsLogisticCurves`); :func:`genviz.studies.gda_vs_logistic_curves.crossing_size` reads off the size from
which logistic regression is clearly ahead, :func:`leader` who is ahead at one size.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_rng, check_scalar
from genviz.logistic import LogisticRegression
from genviz.naive_bayes import MultinomialNB

__all__ = ["NBvsLogisticCurves", "presence_features", "nb_vs_logistic_curves", "paired_lead",
           "leader"]


class NBvsLogisticCurves(NamedTuple):
    """Result of :func:`nb_vs_logistic_curves`.

    Attributes
    ----------
    sizes : ndarray of shape (n_sizes,), dtype=int
        Training-set sizes ``n``.
    nb_errors : ndarray of shape (n_reps, n_sizes)
        Test error of naive Bayes per repetition and size.
    lr_errors : ndarray of shape (n_reps, n_sizes)
        Test error of logistic regression likewise.
    n_words : int
        Number of features (words).
    n_test : int
        Size of the test set.
    """

    sizes: np.ndarray
    nb_errors: np.ndarray
    lr_errors: np.ndarray
    n_words: int
    n_test: int

    @property
    def generative_errors(self) -> np.ndarray:
        """The generative learner's errors (naive Bayes): what
        :func:`genviz.studies.gda_vs_logistic_curves.crossing_size` compares with ``lr_errors``."""
        return self.nb_errors

    def mean_se(self, which: str):
        """(mean, standard error) over repetitions of the ``"nb"`` or ``"lr"`` errors; the
        standard error is 0 where every repetition used the same training set (the full one)."""
        if which not in ("nb", "lr"):
            raise ValueError(f"which must be 'nb' or 'lr', got {which!r}")
        e = self.nb_errors if which == "nb" else self.lr_errors
        return e.mean(axis=0), e.std(axis=0, ddof=1) / np.sqrt(e.shape[0])


def presence_features(X_train, X_test, n_words: int):
    """0/1 word-presence features over the ``n_words`` words found in the most training emails.

    Parameters
    ----------
    X_train, X_test : sparse matrix or array_like of shape (n, n_vocabulary)
        Word counts (:func:`genviz.text.bag_of_words`).
    n_words : int
        How many words to keep (1 <= n_words <= n_vocabulary). Ties in document frequency keep the
        word with the smaller index (the dictionary's order), so the choice is deterministic.

    Returns
    -------
    F_train, F_test : ndarray of shape (n, n_words)
        Dense float arrays of 0 and 1.
    columns : ndarray of shape (n_words,), dtype=int
        The kept words' indices in the dictionary, most frequent first.

    Examples
    --------
    >>> F, G, cols = presence_features([[2, 0, 1], [1, 0, 0], [0, 3, 1]], [[0, 1, 5]], 2)
    >>> cols.tolist(), F.tolist(), G.tolist()
    ([0, 2], [[1.0, 1.0], [1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0]])
    """
    A, B = _counts(X_train, "X_train"), _counts(X_test, "X_test")
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"X_test must have as many columns (words) as X_train ({A.shape[1]}), "
                         f"got {B.shape[1]}")
    n_words = check_int(n_words, "n_words", low=1, high=A.shape[1])
    df = np.asarray((A > 0).sum(axis=0)).ravel()
    columns = np.argsort(-df, kind="stable")[:n_words]

    def dense(M):
        M = M[:, columns]
        M = M.toarray() if hasattr(M, "toarray") else np.asarray(M)
        return (M > 0).astype(float)

    return dense(A), dense(B), columns


def _counts(X, name):
    if hasattr(X, "tocsc"):
        M = X.tocsc()
    else:
        M = np.asarray(X)
        if M.ndim != 2 or M.dtype.kind not in "iuf":
            raise ValueError(f"{name} must be a 2-D array of word counts, got shape "
                             f"{np.shape(X)} and dtype {M.dtype}")
    data = M.data if hasattr(M, "data") and hasattr(M, "tocsc") else M
    if np.any(~np.isfinite(data)) or np.any(data < 0):
        raise ValueError(f"{name} must hold finite counts >= 0")
    return M


def _labels01(y, positive, name):
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {y.shape}")
    if not np.any(y == positive) or np.all(y == positive):
        raise ValueError(f"{name} must hold the positive label {positive!r} and another one")
    return (y == positive).astype(int)


def _check_sizes(sizes, n_train):
    sizes = np.asarray(sizes)
    if sizes.ndim != 1 or sizes.size == 0 or sizes.dtype.kind not in "iu":
        raise ValueError(f"sizes must be a non-empty 1-D sequence of integers, got {sizes!r}")
    if sizes.min() < 2 or sizes.max() > n_train or np.any(np.diff(sizes) <= 0):
        raise ValueError(f"sizes must be increasing, each >= 2 and <= {n_train} (the training "
                         f"emails), got {sizes.tolist()}")
    return sizes


def _two_class_order(y01, gen):
    """A random order of the training set whose first two examples are of different classes,
    so every prefix of two or more holds both classes."""
    order = gen.permutation(y01.size)
    first_pos = order[np.argmax(y01[order] == 1)]
    first_neg = order[np.argmax(y01[order] == 0)]
    rest = order[(order != first_pos) & (order != first_neg)]
    return np.r_[first_pos, first_neg, rest]


def _split_labels(X_train, y_train, X_test, y_test, positive):
    """``(y_train == positive, y_test == positive)`` as booleans; ValueError when the rows of
    the features and the labels differ in length."""
    y01 = _labels01(y_train, positive, "y_train")
    yt01 = np.asarray(y_test) == positive
    if np.shape(X_train)[0] != y01.size or np.shape(X_test)[0] != yt01.size:
        raise ValueError(f"X_train and y_train (or X_test and y_test) differ in length: "
                         f"{np.shape(X_train)[0]} vs {y01.size}, {np.shape(X_test)[0]} vs "
                         f"{yt01.size}")
    return y01, yt01


def nb_vs_logistic_curves(X_train, y_train, X_test, y_test, sizes, n_reps: int, rng, *,
                          positive="spam", n_words: int = 300, alpha: float = 1.0,
                          l2: float = 1.0, progress=None) -> NBvsLogisticCurves:
    """Test error against training-set size ``n`` for naive Bayes and logistic regression.

    Both learners see the same :func:`presence_features`. For each repetition the training
    set is put in a random order (its first two emails of different classes) and the first
    ``n`` emails are used for each size, nested as when mail arrives over time; logistic
    regression starts each size from the previous size's fit (``warm_start``). A size equal
    to the whole training set is the same set in every repetition: it is fitted once.

    Parameters
    ----------
    X_train, X_test : sparse matrix or array_like of shape (n, n_vocabulary)
        Word counts over one dictionary (the split of notebook 7).
    y_train, y_test : array_like of shape (n,)
        Labels; ``positive`` (default "spam") is the class the log-odds score.
    sizes : sequence of int
        Increasing, each >= 2 and at most the number of training emails.
    n_reps : int
        Repetitions (>= 2, for error bars); ``rng`` seeds them.
    n_words : int, default 300
        Features: the words found in the most training emails.
    alpha, l2 : float, default 1.0
        Naive Bayes' pseudo-count; logistic regression's ridge (> 0: small sets are separable).
    progress : callable(done, total), optional
        Called after each repetition.

    Returns
    -------
    NBvsLogisticCurves

    Raises
    ------
    ValueError
        Sizes not increasing or out of range, a label set without ``positive`` or without a
        second class, ``n_reps < 2``, ``alpha`` or ``l2`` not positive, mismatched shapes.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.poisson(0.3, (60, 20)); y = np.where(X[:, 0] + X[:, 1] > 0, "spam", "ham")
    >>> c = nb_vs_logistic_curves(X[:40], y[:40], X[40:], y[40:], [5, 40], 3, rng=0, n_words=5)
    >>> c.nb_errors.shape, c.n_words
    ((3, 2), 5)
    """
    y01, yt01 = _split_labels(X_train, y_train, X_test, y_test, positive)
    F, Ft, _ = presence_features(X_train, X_test, n_words)
    sizes = _check_sizes(sizes, y01.size)
    n_reps = check_int(n_reps, "n_reps", low=2)
    alpha = check_scalar(alpha, "alpha", low=0.0, low_open=True)
    l2 = check_scalar(l2, "l2", low=0.0, low_open=True)
    gen = check_rng(rng)
    nb_err = np.empty((n_reps, sizes.size))
    lr_err = np.empty((n_reps, sizes.size))
    full = None  # the whole training set: the same fit in every repetition

    def errors(rows, lr):
        nb = MultinomialNB(alpha=alpha).fit(F[rows], y01[rows])
        lr.fit(F[rows], y01[rows])
        return (float(np.mean((nb.predict(Ft) == 1) != yt01)),
                float(np.mean((lr.predict(Ft) == 1) != yt01)))

    for r in range(n_reps):
        order = _two_class_order(y01, gen)
        lr = LogisticRegression(l2=l2, warm_start=True)
        for j, n in enumerate(sizes):
            if n == y01.size:
                full = full or errors(np.arange(y01.size), lr)
                nb_err[r, j], lr_err[r, j] = full
            else:
                nb_err[r, j], lr_err[r, j] = errors(order[:n], lr)
        if progress is not None:
            progress(r + 1, n_reps)
    return NBvsLogisticCurves(sizes.astype(int), nb_err, lr_err, int(F.shape[1]), int(yt01.size))


def paired_lead(curves, n) -> tuple[float, float]:
    """Logistic regression's lead at training-set size ``n``: the mean over repetitions of the
    paired difference (naive Bayes' test error minus logistic regression's, the repetitions
    sharing their training e-mails) and its standard error (``ddof=1``; 0 at a size fitted
    once). Their ratio is the paired t statistic.

    Examples
    --------
    >>> s = np.array([10, 100])
    >>> c = NBvsLogisticCurves(s, np.array([[.2, .1], [.22, .1]]), np.array([[.3, .05],
    ...                        [.31, .05]]), 5, 100)
    >>> [round(v, 4) for v in paired_lead(c, 10)]
    [-0.095, 0.005]
    """
    sizes = np.asarray(curves.sizes)
    n = check_int(n, "n")
    if n not in sizes:
        raise ValueError(f"n must be one of the curves' sizes {sizes.tolist()}, got {n}")
    j = int(np.flatnonzero(sizes == n)[0])
    diff = curves.generative_errors[:, j] - curves.lr_errors[:, j]
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(diff.size))


def leader(curves, n, z: float = 2.0) -> str:
    """Who is ahead at training-set size ``n``: ``"nb"``, ``"lr"`` or ``"tie"``.

    Ahead: the mean over repetitions of the paired difference of test errors exceeds ``z``
    standard errors (at a size fitted once, where the standard error is 0, any difference).

    Examples
    --------
    >>> s = np.array([10, 100])
    >>> c = NBvsLogisticCurves(s, np.array([[.2, .1], [.22, .1]]), np.array([[.3, .05],
    ...                        [.31, .05]]), 5, 100)
    >>> leader(c, 10), leader(c, 100)
    ('nb', 'lr')
    """
    mean, se = paired_lead(curves, n)
    z = check_scalar(z, "z", low=0.0)
    if abs(mean) <= z * se or mean == 0:
        return "tie"
    return "lr" if mean > 0 else "nb"
