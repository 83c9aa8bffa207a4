"""Input validation shared by every genviz module (private).

Every public function validates its input first with these helpers, so that each error names the
argument, says what was received and what to do instead. Nothing here uses ``assert``.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_array", "check_points", "check_vector", "check_scalar", "check_int",
           "check_rng", "CovFactor", "check_cov", "NotFittedError", "check_fitted"]

# Relative tolerance on eigenvalues, as scipy.stats uses for covariance matrices: an eigenvalue
# below ``_EIG_RTOL * max|eigenvalue|`` counts as zero.
_EIG_RTOL = 1e6 * np.finfo(np.float64).eps


def _describe(value) -> str:
    arr = np.asarray(value) if not isinstance(value, (str, bytes)) else None
    if arr is not None and arr.ndim > 0:
        return f"an array of shape {arr.shape}"
    return repr(value)


def check_array(value, name: str, *, ndim: int | None = None, finite: bool = True) -> np.ndarray:
    """Return ``value`` as a float64 array, checking its dimensionality and finiteness."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be numeric, got the string {value!r}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numeric (an array of numbers), got {type(value).__name__}: "
                        f"{exc}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got {_describe(arr)}")
    if finite and not np.all(np.isfinite(arr)):
        bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s); remove or impute them first")
    return arr


def check_points(X, name: str = "X", *, d: int | None = None) -> np.ndarray:
    """Return ``X`` as a finite (n_samples, n_features) float array with at least one row."""
    arr = check_array(X, name, finite=False)
    if arr.ndim != 2:
        hint = (" (for one point use X.reshape(1, -1); for n points in one dimension use "
                "X.reshape(-1, 1))") if arr.ndim == 1 else ""
        raise ValueError(f"{name} must be 2-dimensional (n_samples, n_features), "
                         f"got {_describe(arr)}{hint}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty (0 samples); pass at least one row")
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"{name} has {arr.shape[1]} feature(s) per row but {d} were expected "
                         f"(shape {arr.shape})")
    check_array(arr, name)  # finiteness, with the count of bad values
    return arr


def check_vector(value, name: str, *, d: int | None = None) -> np.ndarray:
    """Return a finite 1-D float vector, of length ``d`` when given."""
    arr = check_array(value, name)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D vector, got {_describe(arr)}")
    if d is not None and arr.shape[0] != d:
        raise ValueError(f"{name} has length {arr.shape[0]} but {d} was expected")
    return arr


def check_scalar(value, name: str, *, low: float | None = None, high: float | None = None,
                 low_open: bool = False, high_open: bool = False) -> float:
    """Return ``value`` as a finite float within the given bounds."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    x = float(value)
    if not np.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x!r}")
    if low is not None and (x < low or (low_open and x == low)):
        rel = ">" if low_open else ">="
        raise ValueError(f"{name} must be {rel} {low}, got {x!r}")
    if high is not None and (x > high or (high_open and x == high)):
        rel = "<" if high_open else "<="
        raise ValueError(f"{name} must be {rel} {high}, got {x!r}")
    return x


def check_int(value, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int within the given bounds (bools are refused)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    n = int(value)
    if low is not None and n < low:
        raise ValueError(f"{name} must be >= {low}, got {n}")
    if high is not None and n > high:
        raise ValueError(f"{name} must be <= {high}, got {n}")
    return n


def check_rng(rng, name: str = "rng") -> np.random.Generator:
    """Return a numpy Generator from a Generator or an integer seed (never unseeded)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (numbers.Integral, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(f"{name} must be a numpy Generator or an integer seed (for reproducible "
                    f"draws), got {type(rng).__name__}; e.g. rng=np.random.default_rng(0)")


class CovFactor:
    """A validated covariance matrix, factorised once by ``eigh``.

    Attributes
    ----------
    cov : (d, d) array, symmetrised.
    eigvals : (d,) eigenvalues, in decreasing order.
    eigvecs : (d, d) matching unit eigenvectors in columns, each with a non-negative largest
        component so that the result is deterministic.
    logdet : log-determinant, ``sum(log(eigvals))``.
    whiten : (d, d) matrix ``W`` with ``(x - mu) @ W`` standard normal, i.e. ``W W^T = cov^{-1}``.
    """

    __slots__ = ("cov", "eigvals", "eigvecs", "logdet", "whiten", "_chol")

    def __init__(self, cov: np.ndarray, eigvals: np.ndarray, eigvecs: np.ndarray):
        self.cov = cov
        self.eigvals = eigvals
        self.eigvecs = eigvecs
        self.logdet = float(np.sum(np.log(eigvals)))
        self.whiten = eigvecs / np.sqrt(eigvals)
        self._chol = None

    @property
    def chol(self) -> np.ndarray:
        """Lower Cholesky factor ``L`` with ``L L^T = cov`` (continuous in ``cov``)."""
        if self._chol is None:
            self._chol = np.linalg.cholesky(self.cov)
        return self._chol

    @property
    def d(self) -> int:
        return self.cov.shape[0]


def check_cov(cov, name: str = "cov", *, d: int | None = None) -> CovFactor:
    """Validate a covariance matrix and factorise it once.

    Raises ``ValueError`` naming ``name`` when the matrix has the wrong shape, contains NaN or
    inf, is not symmetric, not positive semi-definite, or is singular.
    """
    if isinstance(cov, CovFactor):
        if d is not None and cov.d != d:
            raise ValueError(f"{name} is {cov.d}x{cov.d} but {d}x{d} was expected")
        return cov
    arr = check_array(cov, name, finite=False)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square (d, d) matrix, got {_describe(arr)}")
    if d is not None and arr.shape[0] != d:
        raise ValueError(f"{name} is {arr.shape[0]}x{arr.shape[1]} but {d}x{d} was expected "
                         f"(it must match the length of the mean)")
    check_array(arr, name)
    scale = float(np.max(np.abs(arr))) if arr.size else 0.0
    if not np.allclose(arr, arr.T, rtol=1e-10, atol=1e-12 * max(scale, 1e-300)):
        raise ValueError(f"{name} is not symmetric (max |cov - cov.T| = "
                         f"{np.max(np.abs(arr - arr.T)):.3g}); a covariance matrix equals its "
                         f"transpose, e.g. use (cov + cov.T) / 2")
    sym = 0.5 * (arr + arr.T)
    w, v = np.linalg.eigh(sym)
    tol = _EIG_RTOL * max(float(np.max(np.abs(w))), 1e-300)
    if w[0] < -tol:
        raise ValueError(f"{name} is not positive semi-definite (smallest eigenvalue "
                         f"{w[0]:.3g}); check the correlation |rho| <= 1, or build it as A @ A.T")
    if w[0] <= tol:
        raise ValueError(f"{name} is singular (smallest eigenvalue {w[0]:.3g} is zero to "
                         f"tolerance): the density does not exist. The features are collinear "
                         f"or there are too few points; add a ridge, e.g. cov + 1e-6 * I "
                         f"(estimators take reg=...)")
    w = w[::-1].copy()
    v = v[:, ::-1].copy()
    # Deterministic signs: the largest-magnitude component of each eigenvector is positive.
    idx = np.argmax(np.abs(v), axis=0)
    signs = np.sign(v[idx, np.arange(v.shape[1])])
    signs[signs == 0] = 1.0
    v *= signs
    return CovFactor(sym, w, v)


class NotFittedError(ValueError, AttributeError):
    """An estimator was used (predict, score, ...) before ``fit`` was called.

    A subclass of both ValueError and AttributeError, as scikit-learn's, so either ``except``
    clause catches it.
    """


def check_fitted(estimator, attribute: str) -> None:
    """Raise :class:`NotFittedError` unless ``estimator`` has the learned ``attribute``."""
    if not hasattr(estimator, attribute):
        name = type(estimator).__name__
        raise NotFittedError(f"this {name} is not fitted yet: call {name}.fit(X, y) before using "
                             f"it to predict")
