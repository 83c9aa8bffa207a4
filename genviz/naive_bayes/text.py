"""The two text event models of CS229: multinomial (word counts) and Bernoulli (word presence),
dense or ``scipy.sparse`` input, never densified, with the two-class extras of a spam filter."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from genviz._estimator import binary_only
from genviz._validation import (check_fitted, check_int, check_points, check_scalar,
                                feature_count_message)
from genviz.naive_bayes._base import _BaseNB, _check_alpha, _safe_log

__all__ = ["MultinomialNB", "BernoulliNB"]


# --------------------------------------------------------------------------- text models
def _check_counts(X, name="X", *, n_features=None, binary=False, owner=None):
    """Validate a non-negative count matrix, dense or sparse (returned CSR, not densified)."""
    if sp.issparse(X):
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-dimensional, got a sparse array of shape {X.shape}")
        X = X.tocsr()
        if X.dtype.kind not in "biuf":
            raise TypeError(f"{name} must hold numeric counts, got sparse dtype {X.dtype}")
        data = X.data
        if X.shape[0] == 0:
            raise ValueError(f"{name} is empty (0 samples); pass at least one row")
    else:
        X = check_points(X, name)
        data = X
    if not np.all(np.isfinite(data)):
        raise ValueError(f"{name} contains NaN or infinite counts; counts must be finite")
    if np.any(data < 0):
        raise ValueError(f"Negative values in data: {name} contains negative values (min "
                         f"{data.min():g}); naive Bayes text models need counts >= 0")
    if binary and not np.all((data == 0) | (data == 1)):
        raise ValueError(f"{name} must contain only 0 and 1 when binarize=None (presence of each "
                         f"word); pass binarize=0.0 to turn counts into presence")
    if X.shape[1] == 0:
        raise ValueError(f"{name} has 0 features (an empty vocabulary); nothing to count")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(feature_count_message(name, X.shape[1], n_features, owner or "the model")
                         + f"; build {name} with the training vocabulary")
    return X


def _masked_matmul(X, logp):
    """``X @ logp.T`` where ``logp`` may hold -inf: the -inf entries hit by a non-zero count
    give -inf (not 0 * -inf = NaN). Returns (n, K) and the (n, K) mask of impossible rows."""
    finite = np.isfinite(logp)
    if finite.all():
        return np.asarray(X @ logp.T), None
    out = np.asarray(X @ np.where(finite, logp, 0.0).T)
    hits = np.asarray(X @ (~finite).T.astype(np.float64)) > 0
    return out, hits


class _BinaryTextMixin:
    """Two-class extras of the text models: log-odds, Smola's threshold, linear form."""

    def _check_binary(self, what):
        check_fitted(self, "classes_")
        if self.classes_.shape[0] != 2:
            raise ValueError(f"{what} needs exactly two classes; this model was fitted with "
                             f"{self.classes_.shape[0]}: {self.classes_.tolist()!r}")

    @binary_only
    def decision_function(self, X):
        """Log-odds ``log P(x, y=c1) - log P(x, y=c0)`` with ``c1 = classes_[1]``, shape (n,).

        It is the log-likelihood ratio plus the log prior ratio; ``> 0`` means ``classes_[1]``.
        Only on a model fitted with two classes (otherwise reading it raises
        :class:`genviz._estimator.BinaryOnlyError`, a ValueError).
        """
        self._check_binary("decision_function")
        joint = self.predict_joint_log_proba(X)
        self._log_normaliser(joint)  # both -inf -> clear 0/0 error rather than NaN
        with np.errstate(invalid="ignore"):
            return joint[:, 1] - joint[:, 0]

    def predict(self, X, threshold=None):
        """Predicted class; with ``threshold=c`` (Smola's Algorithm 1.1) predict ``classes_[1]``
        when ``P(x|c1) P(c1) / (P(x|c0) P(c0)) > c``, i.e. ``decision_function(X) > log c``.

        Parameters
        ----------
        X : array or sparse matrix (n_samples, n_features)
        threshold : float > 0, optional
            The likelihood-ratio threshold ``c``; None is the usual argmax (``c = 1``).
        """
        if threshold is None:
            return super().predict(X)
        c = check_scalar(threshold, "threshold", low=0.0, low_open=True)
        self._check_binary("predict(X, threshold=c)")
        return np.where(self.decision_function(X) > np.log(c), self.classes_[1], self.classes_[0])

    @property
    def feature_log_ratio_(self):
        """Weight ``w`` (V,) of each feature in the log-odds: ``decision_function = X @ w + b``."""
        self._check_binary("feature_log_ratio_")
        return self._linear()[0]

    def linear_form(self):
        """Weights ``w`` (n_features,) and bias ``b`` with ``decision_function(X) = X @ w + b``.

        For :class:`BernoulliNB`, ``X`` is the binarised (presence) matrix.

        Returns
        -------
        w : ndarray of shape (n_features,)
        b : float
        """
        self._check_binary("linear_form")
        w, b = self._linear()
        return w.copy(), float(b)

    def top_features(self, k=10, feature_names=None):
        """The ``k`` features that most strongly indicate each class.

        Parameters
        ----------
        k : int >= 1
        feature_names : sequence of length n_features, optional (default: column indices)

        Returns
        -------
        dict
            ``{classes_[1]: [(name, w), ...], classes_[0]: [(name, -w), ...]}``: per class, the
            features with the largest log-ratio in its favour, largest first.
        """
        self._check_binary("top_features")
        k = check_int(k, "k", low=1)
        w = self._linear()[0]
        if feature_names is None:
            names = np.arange(w.shape[0])
        else:
            names = np.asarray(feature_names)
            if names.ndim != 1 or names.shape[0] != w.shape[0]:
                raise ValueError(f"feature_names must have one name per feature ({w.shape[0]}), "
                                 f"got shape {names.shape}")
        out = {}
        for label, score in ((self.classes_[1], w), (self.classes_[0], -w)):
            order = np.argsort(-score, kind="stable")[:k]
            out[label] = [(names[i].tolist(), float(score[i])) for i in order]
        return out


class MultinomialNB(_BinaryTextMixin, _BaseNB):
    """Multinomial event model (CS229): a document is a bag of word counts.

    ``theta_{k,w} = (N_{k,w} + alpha) / (N_k + alpha V)`` with ``N_{k,w}`` the count of word
    ``w`` in class ``k`` and ``N_k`` all words of class ``k``; ``log P(x|k) = sum_w x_w log
    theta_{k,w}`` (up to the multinomial coefficient, which cancels).

    Parameters
    ----------
    alpha : float >= 0, default 1.0
        Laplace (1) / Lidstone pseudo-count; 0 is the maximum-likelihood estimate.

    Attributes
    ----------
    {fitted classes}
    feature_count_ : ndarray of shape (K, V)
        Word counts per class.
    feature_log_prob_ : ndarray of shape (K, V)
        ``log theta``.

    Examples
    --------
    >>> X = np.array([[2, 1, 0], [3, 0, 0], [0, 1, 2], [0, 0, 3]])
    >>> nb = MultinomialNB(alpha=1.0).fit(X, ["ham", "ham", "spam", "spam"])
    >>> np.exp(nb.feature_log_prob_).round(3)
    array([[0.667, 0.222, 0.111],
           [0.111, 0.222, 0.667]])
    >>> nb.predict([[0, 0, 1]]).tolist(), nb.predict_proba([[0, 0, 1]]).round(3).tolist()
    (['spam'], [[0.143, 0.857]])
    >>> w, b = nb.linear_form(); float(np.round(w @ [0, 0, 1] + b, 4))
    1.7918
    """

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    _tags = {"input_tags.sparse": True, "input_tags.positive_only": True,
             "classifier_tags.poor_score": True}

    def _check_X(self, X, fitting=False):
        return _check_counts(X, n_features=None if fitting else self.feature_count_.shape[1],
                             owner=type(self).__name__)

    def _validate_params(self):
        return _check_alpha(self.alpha)

    def _fit(self, X, Y):
        alpha = self._validate_params()
        self.feature_count_ = np.asarray(X.T @ Y).T
        total = self.feature_count_.sum(axis=1)
        if alpha == 0 and np.any(total == 0):
            empty = self.classes_[total == 0].tolist()
            raise ValueError(f"class(es) {empty!r} contain no words at all and alpha=0: their "
                             f"word probabilities are 0/0; use alpha > 0")
        smoothed = self.feature_count_ + alpha
        self.feature_log_prob_ = _safe_log(smoothed) - np.log(smoothed.sum(axis=1, keepdims=True))

    def _log_likelihood(self, X):
        out, hits = _masked_matmul(X, self.feature_log_prob_)
        if hits is not None:
            out[hits] = -np.inf
        return out

    def _linear(self):
        flp = self.feature_log_prob_
        with np.errstate(invalid="ignore"):
            w = flp[1] - flp[0]
        return w, self.class_log_prior_[1] - self.class_log_prior_[0]


class BernoulliNB(_BinaryTextMixin, _BaseNB):
    """Bernoulli event model (CS229): a document is the set of words it contains.

    ``phi_{k,w} = (n_{k,w} + alpha) / (n_k + 2 alpha)`` with ``n_{k,w}`` the number of class-k
    documents containing word ``w``; ``log P(x|k) = sum_w [x_w log phi + (1 - x_w) log(1 - phi)]``
    over the whole vocabulary, computed as ``sum_w log(1-phi)`` plus a sparse correction.

    Parameters
    ----------
    alpha : float >= 0, default 1.0
    binarize : float >= 0 or None, default 0.0
        Counts above this are "present"; None means X is already 0/1.

    Attributes
    ----------
    {fitted classes}
    feature_count_ : ndarray of shape (K, V)
        Number of documents of each class containing each word.
    feature_log_prob_ : ndarray of shape (K, V)
        ``log phi``.
    feature_log_prob_neg_ : ndarray of shape (K, V)
        ``log(1 - phi)``.

    Examples
    --------
    >>> X = np.array([[2, 1, 0], [3, 0, 0], [0, 1, 2], [0, 0, 3]])
    >>> nb = BernoulliNB(alpha=1.0).fit(X, [0, 0, 1, 1])
    >>> np.exp(nb.feature_log_prob_).round(2)
    array([[0.75, 0.5 , 0.25],
           [0.25, 0.5 , 0.75]])
    >>> nb.predict_proba([[0, 0, 5]]).round(3)
    array([[0.1, 0.9]])
    """

    def __init__(self, alpha=1.0, binarize=0.0):
        self.alpha = alpha
        self.binarize = binarize

    _tags = {"input_tags.sparse": True, "input_tags.positive_only": True,
             "classifier_tags.poor_score": True}

    def _validate_params(self):
        if self.binarize is not None:
            check_scalar(self.binarize, "binarize", low=0.0)
        return _check_alpha(self.alpha)

    def _check_X(self, X, fitting=False):
        t = self.binarize
        if t is not None:
            t = check_scalar(t, "binarize", low=0.0)
        X = _check_counts(X, n_features=None if fitting else self.feature_count_.shape[1],
                          binary=t is None, owner=type(self).__name__)
        if t is None:
            return X
        if sp.issparse(X):
            X = X.copy()
            X.data = (X.data > t).astype(np.float64)
            X.eliminate_zeros()
            return X
        return (X > t).astype(np.float64)

    def _fit(self, X, Y):
        alpha = self._validate_params()
        self.feature_count_ = np.asarray(X.T @ Y).T
        denom = np.log(self.class_count_ + 2 * alpha)[:, None]
        self.feature_log_prob_ = _safe_log(self.feature_count_ + alpha) - denom
        self.feature_log_prob_neg_ = (_safe_log(self.class_count_[:, None] - self.feature_count_
                                                + alpha) - denom)

    def _log_likelihood(self, X):
        lp, ln = self.feature_log_prob_, self.feature_log_prob_neg_
        fin_n = np.isfinite(ln)
        ln0 = np.where(fin_n, ln, 0.0)
        out, hits = _masked_matmul(X, np.where(np.isfinite(lp), lp, -np.inf) - ln0)
        out += ln0.sum(axis=1)
        impossible = hits if hits is not None else np.zeros(out.shape, bool)
        if not fin_n.all():  # an absent word that every training document of the class had
            absent_hits = (~fin_n).sum(axis=1) - np.asarray(X @ (~fin_n).T.astype(np.float64))
            impossible = impossible | (absent_hits > 0)
        out[impossible] = -np.inf
        return out

    def _linear(self):
        lp, ln = self.feature_log_prob_, self.feature_log_prob_neg_
        with np.errstate(invalid="ignore"):
            w = (lp[1] - ln[1]) - (lp[0] - ln[0])
            b = ln[1].sum() - ln[0].sum()
        return w, b + self.class_log_prior_[1] - self.class_log_prior_[0]


