"""Shared machinery of the naive Bayes classifiers (private): labels, class prior, log-space
posterior. Each model module only says how it counts (``_fit``) and scores (``_log_likelihood``).
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

import dataclasses

from genviz._docmarks import fill_marks
from genviz._estimator import BaseEstimator, ClassifierMixin
from genviz._validation import (NotFittedError, check_fitted, check_labels, check_points,
                                check_scalar)

__all__ = ["NotFittedError", "ClassDensities"]


@dataclasses.dataclass(frozen=True)
class ClassDensities:
    """Class-conditional densities and the posterior of a naive Bayes model at query points.

    What a view draws: ``density[:, k]`` is ``P(x | y = classes[k])`` (the product over
    features of ``P(x_j | y)``), ``posterior[:, k]`` is ``P(y = classes[k] | x)``; rows where the
    posterior is 0/0 (every class gives the point density 0, e.g. a compact kernel far from
    the data) are NaN in ``posterior`` and True in ``undefined``.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
    log_density : ndarray of shape (n_samples, n_classes)
    density : ndarray of shape (n_samples, n_classes)
    posterior : ndarray of shape (n_samples, n_classes)
    undefined : ndarray of bool of shape (n_samples,)
    """

    classes: np.ndarray
    log_density: np.ndarray
    density: np.ndarray
    posterior: np.ndarray
    undefined: np.ndarray


# --------------------------------------------------------------------------- shared helpers
def _check_alpha(alpha) -> float:
    return check_scalar(alpha, "alpha", low=0.0)


def _check_labels(y, n: int, classes=None):
    """Sorted unique labels, the index of each row's label and the one-hot (n, K) matrix."""
    y = check_labels(y, n, continuous=False)
    found, index = np.unique(y, return_inverse=True)
    index = index.reshape(-1)
    if classes is None:
        labels = found
    else:
        listed = classes if isinstance(classes, np.ndarray) else list(classes)
        labels = np.unique(check_labels(listed, len(listed), "classes"))
        missing = [c for c in found if c not in set(labels.tolist())]
        if missing:
            raise ValueError(f"y contains labels {missing!r} that are not in classes={list(labels)!r}")
        index = np.searchsorted(labels, y)
    if labels.shape[0] < 2:
        raise ValueError(f"y has only one class ({labels.tolist()!r}); a classifier needs at "
                         f"least two classes in the training data")
    onehot = np.zeros((n, labels.shape[0]))
    onehot[np.arange(n), index] = 1.0
    counts = onehot.sum(axis=0)
    if np.any(counts == 0):
        empty = labels[counts == 0].tolist()
        raise ValueError(f"class(es) {empty!r} listed in classes have no training rows: "
                         f"P(y) would be 0 and P(x_j|y) 0/0; add examples or drop the class")
    return labels, onehot, counts


FITTED_CLASSES_DOC = """classes_ : ndarray of shape (K,)
    The sorted class labels.
class_count_ : ndarray of shape (K,)
    Training rows per class.
class_log_prior_ : ndarray of shape (K,)
    Log of the class priors."""
#: the attribute the KDE classifiers (KDENB, KDEClassifier) add: their mark {fitted bandwidth}
FITTED_BANDWIDTH_DOC = """bandwidth_ : ndarray of shape (K, d)
    The bandwidth of each class and feature."""


def _with_fitted_classes(doc):
    """``doc`` with its line ``{fitted classes}`` replaced by the attributes every naive Bayes
    classifier has after ``fit`` (:data:`FITTED_CLASSES_DOC`, indented as that line), and
    ``{fitted bandwidth}`` by the KDE classifiers' (:data:`FITTED_BANDWIDTH_DOC`): each
    subclass's Attributes section lists them once, written here once."""
    return fill_marks(doc, {"{fitted classes}": FITTED_CLASSES_DOC,
                            "{fitted bandwidth}": FITTED_BANDWIDTH_DOC})


def _safe_log(a):
    """log with log(0) = -inf and no warning (the maximum-likelihood alpha = 0 case)."""
    with np.errstate(divide="ignore"):
        return np.log(a)


class _BaseNB(ClassifierMixin, BaseEstimator):
    """Shared naive Bayes machinery: class prior, log-space posterior, prediction.

    Subclasses implement ``_validate_params()`` (hyperparameters, checked first in ``fit``),
    ``_fit(X, Y)`` (X validated, Y the one-hot labels) and ``_log_likelihood(X)`` returning
    ``sum_j log P(x_j | y=k)`` of shape (n, K); a model whose features are not real points
    (counts, categories) overrides ``_check_X(X, fitting)``.
    ``_zero_evidence_hint`` says what to do when a row has probability 0 under every class.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.__doc__ = _with_fitted_classes(cls.__doc__)

    _zero_evidence_cause = ": each class has some feature value never counted with it"
    _zero_evidence_hint = ("This is the zero-count problem of alpha=0: smooth the counts "
                           "(alpha=1 is Laplace's add-one)")

    def fit(self, X, y, *, classes=None):
        """Count the training data.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
        y : array of shape (n_samples,), class labels of any sortable type ("spam", 0, ...)
        classes : sequence, optional
            All class labels, when some may be absent from ``y`` (then refused: a class
            without rows has no estimate).

        Returns
        -------
        self
        """
        self._validate_params()
        X = self._check_X_fit(X)
        labels, onehot, counts = _check_labels(y, X.shape[0], classes)
        self.n_features_in_ = X.shape[1]
        self.classes_ = labels
        self.class_count_ = counts
        self.class_log_prior_ = np.log(counts) - np.log(counts.sum())
        self._fit(X, onehot)
        return self

    def predict_joint_log_proba(self, X):
        """Unnormalised log-posterior ``log P(y=k) + sum_j log P(x_j|y=k)``, shape (n, K).

        ``-inf`` where a feature value has probability 0 under a class (only with alpha = 0).
        """
        return self.class_log_likelihood(X) + self.class_log_prior_

    def class_log_likelihood(self, X):
        """``log P(x | y=k) = sum_j log P(x_j | y=k)`` for each row and class, (n, K).

        The class-conditional (log-)density of the model, without the prior; ``-inf`` where a
        feature value has probability 0 under a class.
        """
        check_fitted(self, "classes_")
        X = self._check_X(X)
        return self._log_likelihood(X)

    def class_densities(self, X) -> ClassDensities:
        """Densities ``P(x | y=k)`` and posterior ``P(y=k | x)`` at the rows of ``X``.

        Unlike :meth:`predict_proba`, rows where the posterior is 0/0 do not raise: they are
        NaN in ``posterior`` and flagged in ``undefined`` (a figure leaves a gap there).

        Returns
        -------
        ClassDensities
        """
        check_fitted(self, "classes_")
        X = self._check_X(X)
        logd = self._log_likelihood(X)
        log_post = self._log_posterior(X, logd + self.class_log_prior_)
        undefined = np.isnan(log_post).any(axis=1)
        with np.errstate(under="ignore"):
            return ClassDensities(self.classes_, logd, np.exp(logd), np.exp(log_post), undefined)

    def _log_posterior(self, X, joint):
        """Log-posterior rows from the joint (NaN rows where it is 0/0); ``X`` is validated."""
        with np.errstate(divide="ignore", invalid="ignore"):
            norm = logsumexp(joint, axis=1, keepdims=True)
            out = joint - norm
        out[~np.isfinite(norm[:, 0])] = np.nan
        return out

    def predict_joint_proba(self, X):
        """The slides' unnormalised scores ``P(y=k) prod_j P(x_j|y=k)``, shape (n, K).

        May underflow to 0 with many features: that is why everything else works in logs.
        """
        return np.exp(self.predict_joint_log_proba(X))

    def predict_log_evidence(self, X):
        """``log P(x) = logsumexp_k log P(x, y=k)``: the log of the slides' normaliser, (n,)."""
        joint = self.predict_joint_log_proba(X)
        return self._log_normaliser(joint)[:, 0]

    def _log_normaliser(self, joint):
        with np.errstate(divide="ignore", invalid="ignore"):
            norm = logsumexp(joint, axis=1, keepdims=True)
        self._refuse_zero_evidence(np.flatnonzero(~np.isfinite(norm[:, 0])))
        return norm

    def _refuse_zero_evidence(self, bad):
        """Raise the one 0/0 error naming the rows ``bad`` (indices), if there are any."""
        if bad.size:
            raise ValueError(
                f"X row(s) {bad[:10].tolist()} have probability 0 under every "
                f"class{self._zero_evidence_cause}, so the posterior is 0/0. "
                f"{self._zero_evidence_hint}")

    def predict_log_proba(self, X):
        """Log-posterior ``log P(y=k|x)``: the joint minus its logsumexp over classes, (n, K).

        Every row is finite or ``-inf`` and ``exp`` of it sums to 1, or the call raises a
        ValueError naming the rows whose posterior is 0/0.
        """
        check_fitted(self, "classes_")
        X = self._check_X(X)
        out = self._log_posterior(X, self._log_likelihood(X) + self.class_log_prior_)
        self._refuse_zero_evidence(np.flatnonzero(np.isnan(out).any(axis=1)))
        return out

    def predict_proba(self, X):
        """Posterior ``P(y=k|x) = exp(predict_log_proba(X))``, rows sum to 1, (n, K)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """The most probable class of each row (``classes_[argmax]``), (n,)."""
        log_post = self.predict_log_proba(X)
        return self.classes_[np.argmax(log_post, axis=1)]

    def _check_X(self, X, fitting=False):
        """``X`` as finite real points, as wide as the training data once fitted (the text and
        categorical models, whose features are counts or categories, check their own)."""
        return check_points(X, "X", d=None if fitting else self.n_features_in_,
                            owner=type(self).__name__)

    def _check_X_fit(self, X):
        return self._check_X(X, fitting=True)


