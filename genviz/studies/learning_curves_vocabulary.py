"""Ng & Jordan's claim tested on the spam split: the learning curves of naive Bayes and logistic
regression for several vocabulary sizes ``d`` and for word counts against word presence.

Ng & Jordan (2001) bound the number of training examples each learner needs to come close to
its asymptotic error: naive Bayes needs a number growing with :math:`\\log d`, logistic
regression one growing with :math:`d`. Notebook 10 tests it: for each vocabulary size (the
``d`` words found in most training e-mails, as :func:`genviz.nb_vs_logistic.presence_features`
chooses them; ``None`` = every word of the dictionary) and each kind of feature (``"presence"``:
0/1, the multinomial model with Boolean attributes; ``"counts"``: notebook 7's multinomial
model) both learners are fitted on nested training sets of the sizes ``n`` (the same random
orders for every setting, so the settings differ only by their features).

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
           "vocabulary_curves", "settled_size", "crossing_text"]

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

    def objective(w):
        z = F @ w[:-1] + w[-1]
        r = expit(z) - y
        grad = np.empty_like(w)
        grad[:-1] = Ft @ r + l2 * w[:-1]
        grad[-1] = r.sum()
        return float(np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * l2 * w[:-1] @ w[:-1]), grad

    def hessp(w, v):
        s = expit(F @ w[:-1] + w[-1])
        u = (s * (1 - s)) * (F @ v[:-1] + v[-1])
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

    Attributes
    ----------
    sizes : ndarray of int
        The training-set sizes ``n`` (shared by every setting).
    vocabularies : tuple of int
        The vocabulary sizes ``d`` actually used (``None`` replaced by the dictionary's size).
    kinds : tuple of str
        The feature kinds (:data:`FEATURE_KINDS`).
    curves : dict
        ``(d, kind) -> NBvsLogisticCurves``.
    alpha, l2 : float
        Naive Bayes' pseudo-count and logistic regression's ridge.
    """

    sizes: np.ndarray
    vocabularies: tuple
    kinds: tuple
    curves: dict
    alpha: float
    l2: float

    def __getitem__(self, key):  # (d, kind) -> curves; integers keep the tuple's fields
        if isinstance(key, tuple):
            if key not in self.curves:
                raise KeyError(f"no curves for {key!r}; settings: {sorted(self.curves)}")
            return self.curves[key]
        return tuple.__getitem__(self, key)


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
    X_train, X_test, y_train, y_test, sizes, n_reps, rng, positive, alpha, l2
        As for :func:`~genviz.nb_vs_logistic.nb_vs_logistic_curves`.
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
    """
    y01, yt01 = _split_labels(X_train, y_train, X_test, y_test, positive)
    sizes = _check_sizes(sizes, y01.size)
    n_reps = check_int(n_reps, "n_reps", low=2)
    alpha = check_scalar(alpha, "alpha", low=0.0, low_open=True)
    l2 = check_scalar(l2, "l2", low=0.0, low_open=True)
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
    out, settings = {}, [(d, k) for d in vocabularies for k in kinds]
    for done, (d, kind) in enumerate(settings, 1):
        F, Ft, _ = word_features(X_train, X_test, d, kind)
        out[(d, kind)] = _curves(F, Ft, y01, yt01, sizes, orders, alpha, l2)
        if progress is not None:
            progress(done, len(settings))
    return VocabularyCurves(sizes.astype(int), vocabularies, kinds, out, alpha, l2)


def _curves(F, Ft, y01, yt01, sizes, orders, alpha, l2) -> NBvsLogisticCurves:
    nb_err = np.empty((len(orders), sizes.size))
    lr_err = np.empty_like(nb_err)
    full = None

    def errors(rows, w):
        nb = MultinomialNB(alpha=alpha).fit(F[rows], y01[rows])
        w = ridge_logistic(F[rows], y01[rows], l2, w)
        lr_wrong = float(np.mean(((Ft @ w[:-1] + w[-1]) > 0) != yt01))
        return float(np.mean((nb.predict(Ft) == 1) != yt01)), lr_wrong, w

    for r, order in enumerate(orders):
        w = None
        for j, n in enumerate(sizes):
            if n == y01.size:
                full = full or errors(np.arange(y01.size), w)
                nb_err[r, j], lr_err[r, j], _ = full
            else:
                nb_err[r, j], lr_err[r, j], w = errors(order[:n], w)
    return NBvsLogisticCurves(sizes.astype(int), nb_err, lr_err, int(F.shape[1]),
                              int(yt01.size))


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
