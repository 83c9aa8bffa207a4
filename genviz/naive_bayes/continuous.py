"""Naive Bayes for continuous features: one Gaussian (:class:`GaussianNB`) or one kernel
density estimate (:class:`KDENB`) per feature and class."""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from genviz._validation import check_fitted, check_scalar
from genviz.kde import KERNELS, kernel_pdf, select_bandwidth
from genviz.naive_bayes._base import _BaseNB, _safe_log

__all__ = ["GaussianNB", "KDENB"]


# --------------------------------------------------------------------------- Gaussian
class GaussianNB(_BaseNB):
    """Gaussian naive Bayes: feature ``j`` given class ``k`` is ``N(theta_kj, var_kj)``.

    The class-conditional density is a Gaussian with a *diagonal* covariance (axis-aligned
    ellipses), unlike GDA's full (shared) covariance. Variances are maximum-likelihood (divide
    by ``N_k``) plus ``epsilon_ = var_smoothing * max_j var(X_j)``, as scikit-learn's.

    Parameters
    ----------
    var_smoothing : float >= 0, default 1e-9
        Fraction of the largest feature variance added to every variance, for stability.

    Attributes
    ----------
    {fitted classes}
    theta_ : ndarray of shape (K, d)
        Class means.
    var_ : ndarray of shape (K, d)
        Class variances (plus ``epsilon_``).
    epsilon_ : float
        The variance added for numerical stability.

    Raises
    ------
    ValueError
        NaN/inf in X; a zero variance (a feature constant within a class) with
        ``var_smoothing = 0``.

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 4.0], [6.0, 8.0]])
    >>> nb = GaussianNB(var_smoothing=0).fit(X, [0, 0, 1, 1])
    >>> nb.theta_, nb.var_
    (array([[1., 2.],
           [5., 6.]]), array([[1., 1.],
           [1., 4.]]))
    >>> nb.predict_proba([[3.0, 3.5]]).round(3)
    array([[0.586, 0.414]])
    """

    def __init__(self, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing

    def _validate_params(self):
        return check_scalar(self.var_smoothing, "var_smoothing", low=0.0)

    def _fit(self, X, Y):
        vs = self._validate_params()
        counts = Y.sum(axis=0)[:, None]
        with np.errstate(over="ignore", invalid="ignore"):
            self.theta_ = np.stack([X[Y[:, k] > 0].mean(axis=0) for k in range(Y.shape[1])])
            # two-pass variance (accurate): mean of (x - mean)^2 per class
            var = np.stack([((X[Y[:, k] > 0] - self.theta_[k]) ** 2).mean(axis=0)
                            for k in range(Y.shape[1])])
            self.epsilon_ = float(vs * np.max(np.var(X, axis=0)))
            self.var_ = var + self.epsilon_
        if not (np.all(np.isfinite(self.var_)) and np.all(np.isfinite(self.theta_))):
            j = int(np.flatnonzero(~np.isfinite(self.var_).all(axis=0))[0]) \
                if not np.all(np.isfinite(self.var_)) else 0
            raise ValueError(f"X feature {j} has a variance beyond the float64 range (values "
                             f"around {np.max(np.abs(X[:, j])):.3g}); rescale it (change units)")
        if np.any(self.var_ <= 0):
            k, j = np.argwhere(self.var_ <= 0)[0]
            raise ValueError(f"feature {j} is constant within class {self.classes_.tolist()[k]!r} (zero "
                             f"variance): the Gaussian has no density; pass var_smoothing > 0 "
                             f"(e.g. the default 1e-9)")

    _zero_evidence_cause = ""  # not reached: the posterior is always finite
    _zero_evidence_hint = "Rescale the features"

    def _log_likelihood(self, X):
        const = -0.5 * np.sum(np.log(2.0 * np.pi * self.var_), axis=1)
        with np.errstate(over="ignore"):
            sq = ((X[:, None, :] - self.theta_[None]) ** 2 / self.var_[None]).sum(axis=2)
        return const - 0.5 * sq  # -inf far from every mean: the true value is below -1.8e308

    def _log_posterior(self, X, joint):
        out = super()._log_posterior(X, joint)
        far = ~np.isfinite(joint).all(axis=1)
        if far.any():
            out[far] = self._far_log_posterior(X[far])
        return out

    def _far_log_posterior(self, X):
        """Log-posterior where the densities underflow: from log-odds against class 0,
        computed as differences of squared standardised distances ``(a_k - a_0)(a_k + a_0)``
        on rows scaled by a power of two (as :meth:`genviz.gda.GDA.predict_log_proba`)."""
        e = np.frexp(np.maximum(np.max(np.abs(X), axis=1),
                                max(float(np.max(np.abs(self.theta_))), 1.0)))[1][:, None]
        U = np.ldexp(X, -e)
        sd = np.sqrt(self.var_)
        const = self.class_log_prior_ - 0.5 * np.sum(np.log(2.0 * np.pi * self.var_), axis=1)
        t0 = np.ldexp(self.theta_[0], -e) / sd[0]
        delta = np.zeros((X.shape[0], self.theta_.shape[0]))
        with np.errstate(over="ignore", invalid="ignore"):
            for k in range(1, self.theta_.shape[0]):
                tk = np.ldexp(self.theta_[k], -e) / sd[k]
                diff = U * (1.0 / sd[k] - 1.0 / sd[0]) - (tk - t0)
                total = U * (1.0 / sd[k] + 1.0 / sd[0]) - (tk + t0)
                q = np.ldexp(np.sum(diff * total, axis=1), 2 * e[:, 0])
                delta[:, k] = const[k] - const[0] - 0.5 * q
        delta = np.clip(delta, -1e300, 1e300)
        return delta - logsumexp(delta, axis=1, keepdims=True)


# --------------------------------------------------------------------------- kernel density
_BANDWIDTH_METHODS = ("silverman", "scott", "lscv", "loo-likelihood")


def _log_kde(x, data, h, kernel):
    """``log`` of the KDE ``(1/(n h)) sum_i K((x - x_i)/h)`` at each ``x``, finite-safe.

    For the Gaussian kernel, rows whose kernel sum falls below 1e-280 are summed again in log
    space (``logsumexp`` of ``-u^2/2``), so far tails are exact rather than lost in subnormals
    or ``log 0`` (an earlier ``log(kde_pdf)`` lost digits there, found by the property tests). A distance ``(x - x_i)/h`` that overflows
    float64 counts as infinitely far (kernel 0), never as a NaN.
    """
    out = np.empty(x.size)
    step = max(1, 2_000_000 // data.size)  # bound the (chunk, n) temporary
    log_norm = np.log(data.size) + np.log(h)
    safe = (float(np.max(np.abs(x))) + float(np.max(np.abs(data)))) / h < 1e150 if x.size else True
    for s in range(0, x.size, step):
        if safe:  # no overflow possible (the common case): skip the clean-up pass
            u = (x[s:s + step, None] - data[None, :]) / h
        else:
            with np.errstate(over="ignore", invalid="ignore"):
                u = (x[s:s + step, None] - data[None, :]) / h
            u = np.nan_to_num(u, nan=np.inf, posinf=1e300, neginf=-1e300)
        with np.errstate(over="ignore", divide="ignore", under="ignore"):
            if kernel == "gaussian":
                e = u * u
                e *= -0.5
                total = np.exp(e).sum(axis=1)
                logp = _safe_log(total)
                far = total < 1e-280  # near the subnormals: redo those rows in log space
                if far.any():
                    logp[far] = logsumexp(e[far], axis=1)
                out[s:s + step] = logp - np.log(np.sqrt(2.0 * np.pi)) - log_norm
            else:
                out[s:s + step] = _safe_log(kernel_pdf(u, kernel).sum(axis=1)) - log_norm
    return out


class KDENB(_BaseNB):
    """Naive Bayes with a one-dimensional kernel density estimate per feature and class.

    ``P(x_j | y=k)`` is the KDE (:func:`genviz.kde.kde_pdf`) of feature ``j`` over the class-k
    training rows, so a class density may be skewed or multimodal, which a Gaussian cannot be.

    Parameters
    ----------
    bandwidth : float > 0 or str, default "silverman"
        One bandwidth for every feature and class, or a rule / CV method of
        :func:`genviz.kde.select_bandwidth` applied to each feature of each class:
        "silverman", "scott", "lscv", "loo-likelihood".
    kernel : str, default "gaussian"
        A kernel of :data:`genviz.kde.KERNELS`. Compact kernels give density 0 away from the
        data, so a point far from every class has posterior 0/0 (a clear error).

    Attributes
    ----------
    {fitted classes}
    {fitted bandwidth}

    Examples
    --------
    >>> X = np.array([[-2.1], [-1.9], [2.0], [2.2], [0.1], [-0.1]])
    >>> nb = KDENB(bandwidth=0.3).fit(X, ["a", "a", "a", "a", "b", "b"])  # class a is bimodal
    >>> nb.predict([[-2.0], [0.0], [2.1]]).tolist()
    ['a', 'b', 'a']
    """

    def __init__(self, bandwidth="silverman", kernel="gaussian"):
        self.bandwidth = bandwidth
        self.kernel = kernel

    _zero_evidence_cause = ""

    @property
    def _zero_evidence_hint(self):
        if self.kernel == "gaussian":
            return ("The rows lie so far from the training data (beyond 1e154 bandwidths) "
                    "that even the log-density underflows; rescale the features or check them")
        return (f"The {self.kernel} kernel has compact support: a point farther than one "
                f"bandwidth from every training point of every class has density 0. Use "
                f"kernel='gaussian' or a larger bandwidth")

    def _validate_params(self):
        if not isinstance(self.kernel, str) or self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS}, got {self.kernel!r}")
        bw = self.bandwidth
        if isinstance(bw, str):
            if bw not in _BANDWIDTH_METHODS:
                raise ValueError(f"bandwidth must be a number > 0 or one of {_BANDWIDTH_METHODS}, "
                                 f"got {bw!r}")
            return bw
        return check_scalar(bw, "bandwidth", low=0.0, low_open=True)

    def _fit(self, X, Y):
        bw = self._validate_params()
        self._data = [X[Y[:, k] > 0] for k in range(Y.shape[1])]
        self.bandwidth_ = np.empty((Y.shape[1], X.shape[1]))
        for k, Xk in enumerate(self._data):
            for j in range(X.shape[1]):
                if not isinstance(bw, str):
                    self.bandwidth_[k, j] = bw
                    continue
                try:
                    self.bandwidth_[k, j] = select_bandwidth(Xk[:, j], bw, self.kernel)
                except ValueError as exc:
                    raise ValueError(f"cannot choose a bandwidth for feature {j} of class "
                                     f"{self.classes_.tolist()[k]!r} ({Xk.shape[0]} rows): {exc}; "
                                     f"pass a number, e.g. bandwidth=0.5") from None

    def feature_log_density(self, X):
        """``log P(x_j | y=k)`` for every row, class and feature: (n, K, d)."""
        check_fitted(self, "classes_")
        X = self._check_X(X)
        out = np.empty((X.shape[0], self.classes_.size, X.shape[1]))
        for k, Xk in enumerate(self._data):
            for j in range(X.shape[1]):
                out[:, k, j] = _log_kde(X[:, j], Xk[:, j], self.bandwidth_[k, j], self.kernel)
        return out

    def _log_likelihood(self, X):
        return self.feature_log_density(X).sum(axis=2)


