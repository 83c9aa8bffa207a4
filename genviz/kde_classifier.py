r"""A generative classifier with a *multivariate* kernel density estimate per class.

The DS5220 slides list, for continuous features, a univariate KDE per feature and class (naive
Bayes: :class:`genviz.naive_bayes.KDENB`) **or** a multivariate KDE of the whole vector per class,
:math:`P[X_1 = x_1 \wedge \dots \wedge X_d = x_d \mid Y = k]`. This module is the second: no
independence assumption, so correlated features (long *and* deep bills) are modelled together.

The kernel is a product of Gaussians with one bandwidth per feature and class,

.. math::

    \hat p(x \mid y = k) = \frac{1}{n_k} \sum_{i: y_i = k} \prod_{j=1}^d
    \frac{1}{h_{kj}} \varphi\!\left(\frac{x_j - x_{ij}}{h_{kj}}\right),

with Scott's multivariate rule :math:`h_{kj} = s_{kj}\, n_k^{-1/(d+4)}` by default (scipy's
``gaussian_kde`` factor with a diagonal covariance). Everything is in log space with
``logsumexp``, so points far from every class still get a finite posterior.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from genviz._validation import check_array, check_fitted, check_int, check_scalar
from genviz.naive_bayes._base import _BaseNB

__all__ = ["KDEClassifier"]

_LOG_2PI = np.log(2.0 * np.pi)


class KDEClassifier(_BaseNB):
    """Bayes' rule with a multivariate (product-Gaussian) KDE of each class.

    Parameters
    ----------
    bandwidth : "scott", float > 0 or array_like of shape (d,), default "scott"
        "scott": ``h_kj = s_kj n_k^(-1/(d+4))`` per class ``k`` and feature ``j`` (``s`` the
        sample standard deviation, ddof=1). A number or an array: the same bandwidth(s) for
        every class, in the units of the features.
    chunk : int, default 2048
        Rows evaluated at once (memory ~ chunk x n_k x d floats).

    Attributes
    ----------
    {fitted classes}
    {fitted bandwidth}

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [0.2, 0.1], [0.1, 0.3], [3.0, 3.0], [3.2, 2.9], [2.9, 3.1]])
    >>> clf = KDEClassifier(bandwidth=0.5).fit(X, ["a", "a", "a", "b", "b", "b"])
    >>> clf.predict([[0.1, 0.1], [3.0, 3.0]]).tolist()
    ['a', 'b']
    """

    def __init__(self, bandwidth="scott", chunk: int = 2048):
        self.bandwidth = bandwidth
        self.chunk = chunk

    def _validate_params(self):
        self._chunk = check_int(self.chunk, "chunk", low=1)
        bw = self.bandwidth
        if isinstance(bw, str):
            if bw != "scott":
                raise ValueError(f"bandwidth must be 'scott', a number > 0 or one per feature, "
                                 f"got {bw!r}")
        elif np.ndim(bw) == 0:
            check_scalar(bw, "bandwidth", low=0.0, low_open=True)
        else:
            h = check_array(bw, "bandwidth", ndim=1)
            if np.any(h <= 0):
                raise ValueError(f"bandwidth must be numbers > 0 (one per feature), got "
                                 f"{h.tolist()}")

    def _fit(self, X, Y):
        d = X.shape[1]
        self._data = [X[Y[:, k] > 0] for k in range(Y.shape[1])]
        bw = self.bandwidth
        self.bandwidth_ = np.empty((Y.shape[1], d))
        if isinstance(bw, str):
            for k, Xk in enumerate(self._data):
                if Xk.shape[0] < 2:
                    raise ValueError(f"class {self.classes_.tolist()[k]!r} has {Xk.shape[0]} row; "
                                     f"Scott's rule needs 2: pass a number, e.g. bandwidth=0.5")
                s = Xk.std(axis=0, ddof=1)
                if np.any(s <= 0):
                    raise ValueError(f"a feature of class {self.classes_.tolist()[k]!r} has zero "
                                     f"spread; pass a number, e.g. bandwidth=0.5")
                self.bandwidth_[k] = s * Xk.shape[0] ** (-1.0 / (d + 4))
        elif np.ndim(bw) == 0:
            self.bandwidth_[:] = check_scalar(bw, "bandwidth", low=0.0, low_open=True)
        else:
            h = check_array(bw, "bandwidth", ndim=1)
            if h.shape != (d,) or np.any(h <= 0):
                raise ValueError(f"bandwidth must be {d} numbers > 0 (one per feature), got "
                                 f"{h.tolist()}")
            self.bandwidth_[:] = h

    def class_log_density(self, X):
        r"""``log p(x | y = k)`` of every row and class, (n, K)."""
        check_fitted(self, "classes_")
        X = self._check_X(X)
        chunk = self._chunk
        out = np.empty((X.shape[0], self.classes_.size))
        for k, Xk in enumerate(self._data):
            h = self.bandwidth_[k]
            const = -np.log(Xk.shape[0]) - np.sum(np.log(h)) - 0.5 * X.shape[1] * _LOG_2PI
            Zk = Xk / h
            for start in range(0, X.shape[0], chunk):
                Z = X[start:start + chunk] / h
                sq = ((Z[:, None, :] - Zk[None, :, :]) ** 2).sum(axis=2)
                out[start:start + chunk, k] = logsumexp(-0.5 * sq, axis=1) + const
        return out

    _zero_evidence_cause = ""
    _zero_evidence_hint = ("The rows lie so far from the training data (beyond ~1e154 "
                           "bandwidths) that even the log-density underflows; rescale the "
                           "features or check them")

    def _log_likelihood(self, X):
        return self.class_log_density(X)
