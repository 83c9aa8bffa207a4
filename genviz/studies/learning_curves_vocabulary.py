"""Ng & Jordan's claim tested on the spam split: the learning curves of naive Bayes and logistic
regression for several vocabulary sizes ``d`` and for word counts against word presence.

Ng & Jordan (2001) bound the number of training examples each learner needs to come close to
its asymptotic error: naive Bayes needs a number growing with :math:`\\log d`, logistic
regression one growing with :math:`d`. Notebook 10 tests it: for each vocabulary size (the
``d`` words found in most training e-mails, as :func:`genviz.nb_vs_logistic.presence_features`
chooses them; ``None`` = every word of the dictionary) and each kind of feature (``"presence"``:
0/1, the multinomial model with Boolean attributes; ``"counts"``: notebook 7's multinomial
model) both learners are fitted on nested training sets of the sizes ``n`` (the same random
orders for every setting, so the settings differ only by their features). Each learner's
regularisation may be swept too: naive Bayes' pseudo-count ``alpha`` and logistic regression's
ridge ``l2`` (a sequence of values each); naive Bayes' curves do not depend on ``l2`` nor
logistic regression's on ``alpha``, so each is computed once per its own value and the
settings ``(d, kind, alpha, l2)`` share them.

The features stay sparse. Logistic regression minimises the same ridge objective as
:class:`genviz.logistic.LogisticRegression` (penalty :math:`\\tfrac{\\lambda}{2}\\lVert\\theta
\\rVert^2`, intercept free; scikit-learn's ``C = 1 / l2``) by L-BFGS on the sparse matrix
(:func:`ridge_logistic`), because Newton's :math:`d \\times d` Hessian costs seconds per step at
``d = 3000`` and cannot be formed for every word (17,530). Each size starts from the previous
size's weights.

Read off per setting (:class:`VocabularyCurves`): :func:`crossing_text` (the size from which
logistic regression is clearly ahead, :func:`genviz.studies.gda_vs_logistic_curves.crossing_size`)
and :func:`settled_size` (the size from which a learner's mean error stays within ``tol`` of its
error on all the training e-mails: the examples it needs to approach its asymptote, the
quantity of Ng & Jordan's bounds).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize
from scipy.special import expit

from genviz._validation import check_int, check_rng, check_scalar
from genviz.naive_bayes import MultinomialNB
from genviz.nb_vs_logistic import (NBvsLogisticCurves, _check_sizes, _counts, _split_labels,
                                   _two_class_order)
from genviz.studies.gda_vs_logistic_curves import crossing_size

__all__ = ["FEATURE_KINDS", "VocabularyCurves", "word_features", "ridge_logistic",
           "vocabulary_curves", "FullDictionaryErrors", "full_dictionary_errors", "settled_size",
           "crossing_text"]

#: The kinds of features: 0/1 word presence, or the word counts themselves.
FEATURE_KINDS = ("presence", "counts")


def word_features(X_train, X_test, n_words, kind="presence"):
    """Sparse features over the ``n_words`` words found in the most training e-mails.

    Parameters
    ----------
    X_train, X_test : sparse matrix or array_like of shape (n, n_vocabulary)
        Word counts (:func:`genviz.text.bag_of_words`).
    n_words : int or None
        How many words (1 <= n_words <= n_vocabulary); ``None``: all of them. The words are
        chosen as :func:`genviz.nb_vs_logistic.presence_features` does (by document frequency,
        ties to the smaller index).
    kind : {"presence", "counts"}
        0/1 presence or the counts.

    Returns
    -------
    F_train, F_test : scipy.sparse.csr_matrix of float
    columns : ndarray of int
        The kept words' indices in the dictionary, most frequent first.

    Examples
    --------
    >>> F, G, cols = word_features([[2, 0, 1], [1, 0, 0], [0, 3, 1]], [[0, 1, 5]], 2, "counts")
    >>> cols.tolist(), F.toarray().tolist(), G.toarray().tolist()
    ([0, 2], [[2.0, 1.0], [1.0, 0.0], [0.0, 1.0]], [[0.0, 5.0]])
    """
    if kind not in FEATURE_KINDS:
        raise ValueError(f"kind must be one of {FEATURE_KINDS}, got {kind!r}")
    A, B = (sp.csr_matrix(_counts(X, name), dtype=float)
            for X, name in ((X_train, "X_train"), (X_test, "X_test")))
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"X_test must have as many columns (words) as X_train ({A.shape[1]}), "
                         f"got {B.shape[1]}")
    n = A.shape[1] if n_words is None else check_int(n_words, "n_words", low=1, high=A.shape[1])
    df = np.asarray((A > 0).sum(axis=0)).ravel()
    columns = np.argsort(-df, kind="stable")[:n]

    def pick(M):
        M = M[:, columns].tocsr()
        if kind == "presence":
            M.data = (M.data > 0).astype(float)
            M.eliminate_zeros()
        return M

    return pick(A), pick(B), columns


def ridge_logistic(F, y, l2=1.0, w0=None, *, tol=1e-8, max_iter=2000):
    r"""Ridge logistic regression on a (sparse) feature matrix by L-BFGS.

    Minimises :math:`\sum_i [\log(1 + e^{z_i}) - y_i z_i] + \tfrac{\lambda}{2}\lVert\theta
    \rVert^2`, :math:`z_i = \theta^T x_i + \theta_0`, the objective of
    :class:`genviz.logistic.LogisticRegression` (``l2`` = :math:`\lambda` > 0; scikit-learn's
    ``C = 1 / l2``), without forming a :math:`d \times d` matrix.

    Parameters
    ----------
    F : sparse matrix or array_like of shape (n, d)
    y : array_like of 0/1, shape (n,)
    l2 : float > 0
    w0 : ndarray of shape (d + 1,), optional
        Start (weights, then the intercept); zeros by default.

    Returns
    -------
    ndarray of shape (d + 1,)
        :math:`\theta` then :math:`\theta_0`.

    Examples
    --------
    >>> w = ridge_logistic(np.array([[0.], [1.], [2.], [3.]]), [0, 1, 0, 1], l2=1.0)
    >>> w.shape, bool(w[0] > 0)
    ((2,), True)
    """
    F = sp.csr_matrix(F, dtype=float)
    y = np.asarray(y, dtype=float)
    if y.shape != (F.shape[0],) or not np.all((y == 0) | (y == 1)):
        raise ValueError(f"y must hold one 0/1 label per row of F ({F.shape[0]}), got shape "
                         f"{y.shape}")
    l2 = check_scalar(l2, "l2", low=0.0, low_open=True)
    d = F.shape[1]
    w0 = np.zeros(d + 1) if w0 is None else np.asarray(w0, dtype=float)
    if w0.shape != (d + 1,):
        raise ValueError(f"w0 must have shape ({d + 1},), got {w0.shape}")
    Ft = F.T.tocsr()
    # the Hessian's weights s(1 - s) at the point last evaluated: Newton-CG's CG steps ask for
    # many products at one point, and each recomputed F @ w (a third of their F products)
    at = {"w": None, "weights": None}

    def objective(w):
        z = F @ w[:-1] + w[-1]
        s = expit(z)
        at.update(w=w.copy(), weights=s * (1 - s))
        r = s - y
        grad = np.empty_like(w)
        grad[:-1] = Ft @ r + l2 * w[:-1]
        grad[-1] = r.sum()
        return float(np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * l2 * w[:-1] @ w[:-1]), grad

    def hessp(w, v):
        if at["w"] is None or not np.array_equal(at["w"], w):
            s = expit(F @ w[:-1] + w[-1])
            at.update(w=w.copy(), weights=s * (1 - s))
        u = at["weights"] * (F @ v[:-1] + v[-1])
        out = np.empty_like(v)
        out[:-1] = Ft @ u + l2 * v[:-1]
        out[-1] = u.sum()
        return out

    res = minimize(objective, w0, jac=True, hessp=hessp, method="Newton-CG",
                   options={"maxiter": max_iter, "xtol": tol})
    return res.x


class VocabularyCurves(NamedTuple):
    """Result of :func:`vocabulary_curves`: one :class:`~genviz.nb_vs_logistic.NBvsLogisticCurves`
    per setting.

    ``sweep[(d, kind)]`` is the setting at the default :math:`\\alpha` and :math:`\\lambda`
    (``alpha`` and ``l2``); ``sweep[(d, kind, alpha, l2)]`` any computed setting.

    Attributes
    ----------
    sizes : ndarray of int
        The training-set sizes ``n`` (shared by every setting).
    vocabularies : tuple of int
        The vocabulary sizes ``d`` actually used (``None`` replaced by the dictionary's size).
    kinds : tuple of str
        The feature kinds (:data:`FEATURE_KINDS`).
    curves : dict
        ``(d, kind) -> NBvsLogisticCurves`` at the default ``alpha`` and ``l2``.
    alpha, l2 : float
        The default setting: naive Bayes' pseudo-count and logistic regression's ridge (1.0
        when it is among the values computed, else the first of them).
    alphas, l2s : tuple of float
        Every value computed (empty in a sweep built by hand with one setting: then
        ``(alpha,)`` and ``(l2,)``; :attr:`alpha_values`, :attr:`l2_values`).
    by_setting : dict or None
        ``(d, kind, alpha, l2) -> NBvsLogisticCurves`` for every combination (``None``: only
        the default's, from ``curves``). Naive Bayes' errors depend on ``alpha`` only and
        logistic regression's on ``l2`` only: each is computed once and shared.
    """

    sizes: np.ndarray
    vocabularies: tuple
    kinds: tuple
    curves: dict
    alpha: float
    l2: float
    alphas: tuple = ()
    l2s: tuple = ()
    by_setting: dict = None

    @property
    def alpha_values(self) -> tuple:
        """The pseudo-counts computed (``(alpha,)`` for one)."""
        return tuple(self.alphas) or (self.alpha,)

    @property
    def l2_values(self) -> tuple:
        """The ridge penalties computed (``(l2,)`` for one)."""
        return tuple(self.l2s) or (self.l2,)

    def settings(self) -> dict:
        """``(d, kind, alpha, l2) -> curves`` for every computed setting."""
        if self.by_setting is not None:
            return self.by_setting
        return {(d, kind, self.alpha, self.l2): c for (d, kind), c in self.curves.items()}

    def __getitem__(self, key):  # (d, kind[, alpha, l2]) -> curves; integers: the fields
        if isinstance(key, tuple):
            table = self.curves if len(key) == 2 else self.settings()
            if key not in table:
                raise KeyError(f"no curves for {key!r}; settings: {sorted(table)}")
            return table[key]
        return tuple.__getitem__(self, key)


def _check_values(value, name) -> tuple:
    """A positive number, or a non-empty sequence of distinct positive numbers, as a tuple of
    floats; ValueError/TypeError naming ``name``."""
    if np.ndim(value) == 0:
        return (check_scalar(value, name, low=0.0, low_open=True),)
    values = tuple(check_scalar(v, name, low=0.0, low_open=True) for v in value)
    if not values:
        raise ValueError(f"{name} must be a positive number or a non-empty sequence of them, "
                         f"got an empty sequence")
    if len(set(values)) < len(values):
        raise ValueError(f"{name} must hold distinct values, got {values!r}")
    return values


def vocabulary_curves(X_train, y_train, X_test, y_test, sizes, n_reps, rng, *,
                      vocabularies=(30, 300, 3000, None), kinds=FEATURE_KINDS,
                      positive="spam", alpha=1.0, l2=1.0, progress=None) -> VocabularyCurves:
    """Learning curves of naive Bayes and logistic regression for every vocabulary size and
    feature kind.

    As :func:`genviz.nb_vs_logistic.nb_vs_logistic_curves` (nested training sets, the first two
    e-mails of different classes, the whole training set fitted once), with the **same** random
    orders for every setting. Naive Bayes: :class:`genviz.naive_bayes.MultinomialNB`;
    logistic regression: :func:`ridge_logistic`, warm-started along the sizes.

    Parameters
    ----------
    X_train, X_test, y_train, y_test, sizes, n_reps, rng, positive
        As for :func:`~genviz.nb_vs_logistic.nb_vs_logistic_curves`.
    alpha, l2 : float > 0 or sequence of them
        Naive Bayes' pseudo-count :math:`\\alpha` and logistic regression's ridge
        :math:`\\lambda`; a sequence computes every value (naive Bayes once per
        ``alpha``, logistic regression once per ``l2``, never their product). The default
        setting (``sweep[(d, kind)]``) is 1.0 when among the values, else the first.
    vocabularies : sequence of int or None
        Vocabulary sizes ``d`` (``None``: every word).
    kinds : sequence of {"presence", "counts"}
    progress : callable(done, total), optional
        Called after each setting.

    Returns
    -------
    VocabularyCurves

    Examples
    --------
    >>> g = np.random.default_rng(0)
    >>> X = g.poisson(0.3, (60, 20)); y = np.where(X[:, 0] + X[:, 1] > 0, "spam", "ham")
    >>> v = vocabulary_curves(X[:40], y[:40], X[40:], y[40:], [5, 40], 2, 0, vocabularies=(5, None))
    >>> v.vocabularies, v[(20, "counts")].nb_errors.shape
    ((5, 20), (2, 2))
    >>> w = vocabulary_curves(X[:40], y[:40], X[40:], y[40:], [5, 40], 2, 0, vocabularies=(5,),
    ...                       alpha=(1.0, 10.0), l2=(0.1, 1.0))
    >>> w.alpha_values, w.l2_values, (w.alpha, w.l2), len(w.settings())
    ((1.0, 10.0), (0.1, 1.0), (1.0, 1.0), 8)
    """
    y01, yt01 = _split_labels(X_train, y_train, X_test, y_test, positive)
    sizes = _check_sizes(sizes, y01.size)
    n_reps = check_int(n_reps, "n_reps", low=2)
    alphas, l2s = _check_values(alpha, "alpha"), _check_values(l2, "l2")
    alpha, l2 = (1.0 if 1.0 in v else v[0] for v in (alphas, l2s))
    kinds = tuple(kinds)
    if not kinds or any(k not in FEATURE_KINDS for k in kinds) or len(set(kinds)) < len(kinds):
        raise ValueError(f"kinds must be distinct values of {FEATURE_KINDS}, got {kinds!r}")
    n_vocab = np.shape(X_train)[1]
    vocabularies = tuple(n_vocab if v is None else check_int(v, "vocabularies", low=1,
                                                             high=n_vocab)
                         for v in vocabularies)
    if not vocabularies or len(set(vocabularies)) < len(vocabularies):
        raise ValueError(f"vocabularies must be distinct sizes, got {vocabularies!r}")
    gen = check_rng(rng)
    orders = [_two_class_order(y01, gen) for _ in range(n_reps)]
    out, every, settings = {}, {}, [(d, k) for d in vocabularies for k in kinds]
    for done, (d, kind) in enumerate(settings, 1):
        F, Ft, _ = word_features(X_train, X_test, d, kind)
        nb = {a: _nb_errors(F, Ft, y01, yt01, sizes, orders, a) for a in alphas}
        lr = {lam: _lr_errors(F, Ft, y01, yt01, sizes, orders, lam) for lam in l2s}
        for a in alphas:
            for lam in l2s:
                every[(d, kind, a, lam)] = NBvsLogisticCurves(
                    sizes.astype(int), nb[a], lr[lam], int(F.shape[1]), int(yt01.size))
        out[(d, kind)] = every[(d, kind, alpha, l2)]
        if progress is not None:
            progress(done, len(settings))
    return VocabularyCurves(sizes.astype(int), vocabularies, kinds, out, alpha, l2, alphas,
                            l2s, every)


def _rows(order, n, n_train):
    """The first ``n`` e-mails of an order, or every e-mail in index order at the full size."""
    return np.arange(n_train) if n == n_train else order[:n]


def _nb_errors(F, Ft, y01, yt01, sizes, orders, alpha) -> np.ndarray:
    """Naive Bayes' test error per repetition and size (the whole training set fitted once)."""
    err = np.empty((len(orders), sizes.size))
    full = None
    for r, order in enumerate(orders):
        for j, n in enumerate(sizes):
            if n == y01.size and full is not None:
                err[r, j] = full
                continue
            rows = _rows(order, n, y01.size)
            nb = MultinomialNB(alpha=alpha).fit(F[rows], y01[rows])
            err[r, j] = float(np.mean((nb.predict(Ft) == 1) != yt01))
            if n == y01.size:
                full = err[r, j]
    return err


def _lr_errors(F, Ft, y01, yt01, sizes, orders, l2) -> np.ndarray:
    """Logistic regression's test error per repetition and size, each fit warm-started from
    the previous size's weights (the whole training set fitted once, from the first
    repetition's weights)."""
    err = np.empty((len(orders), sizes.size))
    full = None
    for r, order in enumerate(orders):
        w = None
        for j, n in enumerate(sizes):
            if n == y01.size and full is not None:
                err[r, j] = full
                continue
            rows = _rows(order, n, y01.size)
            w = ridge_logistic(F[rows], y01[rows], l2, w)
            err[r, j] = float(np.mean(((Ft @ w[:-1] + w[-1]) > 0) != yt01))
            if n == y01.size:
                full = err[r, j]
    return err


class FullDictionaryErrors(NamedTuple):
    """Result of :func:`full_dictionary_errors`."""

    n_words: int      #: the dictionary's size: every word is a feature
    nb_counts: float  #: multinomial naive Bayes on the counts (notebook 7's filter)
    lr: dict          #: logistic regression's test error per kind, ``{"counts": .., "presence": ..}``


def full_dictionary_errors(X_train, y_train, X_test, y_test, *, positive="spam", alpha=1.0,
                           l2=1.0) -> FullDictionaryErrors:
    """Test errors of both learners on **every** word, fitted on the whole training set.

    Naive Bayes (:class:`~genviz.naive_bayes.MultinomialNB`, pseudo-count ``alpha``) on the
    word counts, as notebook 7's filter; logistic regression (:func:`ridge_logistic`, ridge
    ``l2``) on the counts and on 0/1 presence: the asymptotes that the learning curves of
    :func:`vocabulary_curves` approach as the vocabulary grows to the whole dictionary.

    Parameters
    ----------
    X_train, X_test, y_train, y_test, positive
        As for :func:`vocabulary_curves`.
    alpha, l2 : float > 0

    Returns
    -------
    FullDictionaryErrors

    Examples
    --------
    >>> X = np.array([[2, 0], [1, 0], [0, 3], [0, 1]]); y = np.array(["spam", "spam", "ham", "ham"])
    >>> e = full_dictionary_errors(X, y, X, y)
    >>> e.n_words, e.nb_counts, e.lr
    (2, 0.0, {'counts': 0.0, 'presence': 0.0})
    """
    y01, yt01 = _split_labels(X_train, y_train, X_test, y_test, positive)
    alpha = check_scalar(alpha, "alpha", low=0.0, low_open=True)
    l2 = check_scalar(l2, "l2", low=0.0, low_open=True)
    full, whole = np.array([y01.size]), [None]      # one size, the whole set: no order needed
    features = {kind: word_features(X_train, X_test, None, kind)[:2]
                for kind in ("counts", "presence")}
    nb = _nb_errors(*features["counts"], y01, yt01, full, whole, alpha)
    lr = {kind: float(_lr_errors(*F, y01, yt01, full, whole, l2)[0, 0])
          for kind, F in features.items()}
    return FullDictionaryErrors(int(np.shape(X_train)[1]), float(nb[0, 0]), lr)


def settled_size(curves, which, tol=0.01):
    """The smallest size from which a learner's mean test error stays within ``tol`` of its
    error at the largest size (its error on all the training e-mails): how many examples it
    needs to approach its asymptote.

    Examples
    --------
    >>> c = NBvsLogisticCurves(np.array([10, 100, 1000]), np.array([[.2, .11, .1], [.2, .11, .1]]),
    ...                        np.array([[.3, .2, .05], [.3, .2, .05]]), 5, 100)
    >>> settled_size(c, "nb"), settled_size(c, "lr"), settled_size(c, "lr", tol=0.2)
    (100, 1000, 100)
    """
    mean = curves.mean_se(which)[0]
    tol = check_scalar(tol, "tol", low=0.0)
    near = np.abs(mean - mean[-1]) <= tol + 1e-12
    j = len(near) - 1
    while j > 0 and near[j - 1]:
        j -= 1
    return int(curves.sizes[j])


def crossing_text(curves, z=2.0) -> str:
    """The crossing as a sentence: from which size logistic regression is clearly ahead (more
    than ``z`` standard errors at that size and every larger one), ahead at every size, or "no
    crossing in range".

    Examples
    --------
    >>> c = NBvsLogisticCurves(np.array([10, 100]), np.array([[.2, .1], [.22, .1]]),
    ...                        np.array([[.3, .05], [.31, .05]]), 5, 100)
    >>> crossing_text(c)
    'logistic regression clearly ahead from n = 100'
    """
    n = crossing_size(curves, z)
    if n is None:
        return "no crossing in range (logistic regression not clearly ahead at the largest n)"
    if n == int(curves.sizes[0]):
        return f"no crossing in range (logistic regression clearly ahead from the smallest n = {n})"
    return f"logistic regression clearly ahead from n = {n}"
