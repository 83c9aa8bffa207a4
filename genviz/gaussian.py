r"""The multivariate normal distribution :math:`\mathcal N(\mu, \Sigma)`.

Density and log-density at points and on a 2-D grid, seeded sampling, the 2x2 covariance built
from standard deviations and a correlation, the eigen-geometry of the contour ellipses, and the
Mahalanobis distance. :math:`\Sigma` is validated and factorised once (``eigh``); a
non-symmetric, non-positive-semi-definite or singular matrix raises ``ValueError``.

.. math::

    p(x; \mu, \Sigma) = \frac{1}{(2\pi)^{d/2} |\Sigma|^{1/2}}
        \exp\!\left(-\tfrac12 (x-\mu)^T \Sigma^{-1} (x-\mu)\right)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import (
    CovFactor,
    check_array,
    check_cov,
    check_int,
    check_points,
    check_rng,
    check_scalar,
    check_vector,
)

__all__ = [
    "cov_from_params",
    "mvn_logpdf",
    "mvn_pdf",
    "mvn_pdf_grid",
    "sample_mvn",
    "mahalanobis",
    "cov_eigen",
    "ellipse_points",
    "EigenGeometry",
    "factorize_cov",
]

_LOG_2PI = float(np.log(2.0 * np.pi))


def factorize_cov(cov, name: str = "cov") -> CovFactor:
    """Validate a covariance matrix and factorise it once, for reuse across many calls.

    Every function here that takes ``cov`` also accepts the returned factor, so an explorer can
    factorise once per slider move and evaluate densities, distances and samples from it.

    Parameters
    ----------
    cov : array_like of shape (d, d)
        Symmetric positive-definite covariance matrix.

    Returns
    -------
    CovFactor
        With ``cov``, ``eigvals`` (decreasing), ``eigvecs`` (columns) and ``logdet``.

    Raises
    ------
    ValueError
        If ``cov`` is not square, not finite, not symmetric, not positive semi-definite, or
        singular.

    Examples
    --------
    >>> f = factorize_cov([[2.0, 0.0], [0.0, 0.5]])
    >>> f.eigvals
    array([2. , 0.5])
    >>> round(f.logdet, 12)
    0.0
    """
    return check_cov(cov, name)


def _mean_and_factor(mean, cov):
    mu = check_vector(mean, "mean")
    factor = check_cov(cov, "cov", d=mu.shape[0])
    return mu, factor


def cov_from_params(sigma1, sigma2, rho) -> np.ndarray:
    r"""The 2x2 covariance matrix with standard deviations ``sigma1``, ``sigma2`` and correlation ``rho``.

    .. math::

        \Sigma = \begin{pmatrix} \sigma_1^2 & \rho\sigma_1\sigma_2 \\
                 \rho\sigma_1\sigma_2 & \sigma_2^2 \end{pmatrix}

    Always a valid (positive-definite) covariance for ``sigma1, sigma2 > 0`` and ``|rho| < 1``
    (in exact arithmetic; at a condition number beyond about 1e9, e.g. ``rho = 0.999999`` with
    ``sigma2 / sigma1 = 1e4``, :func:`factorize_cov` reports it singular to working precision).

    Parameters
    ----------
    sigma1, sigma2 : float
        Standard deviations of :math:`x_1` and :math:`x_2`; must be > 0.
    rho : float
        Correlation coefficient, strictly between -1 and 1.

    Returns
    -------
    (2, 2) ndarray

    Raises
    ------
    ValueError
        If a standard deviation is not positive, its square overflows or underflows float64
        (e.g. ``sigma1 = 1e200``), or ``|rho| >= 1``.

    Examples
    --------
    >>> cov_from_params(1.0, 1.0, 0.5)
    array([[1. , 0.5],
           [0.5, 1. ]])
    """
    s1 = check_scalar(sigma1, "sigma1", low=0.0, low_open=True)
    s2 = check_scalar(sigma2, "sigma2", low=0.0, low_open=True)
    r = check_scalar(rho, "rho", low=-1.0, high=1.0, low_open=True, high_open=True)
    for s, name in ((s1, "sigma1"), (s2, "sigma2")):
        if not np.isfinite(s * s) or s * s == 0.0:
            raise ValueError(f"{name} = {s!r}: its square, the variance, is outside the float64 "
                             f"range (1e-308 .. 1.8e308); rescale the variable (change its units)")
    c = r * s1 * s2
    return np.array([[s1 * s1, c], [c, s2 * s2]])


def _whitened(X, mu, factor):
    return (X - mu) @ factor.whiten


def mvn_logpdf(X, mean, cov) -> np.ndarray:
    """Log-density of :math:`\\mathcal N(\\mu, \\Sigma)` at each row of ``X``.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, one per row.
    mean : array_like of shape (d,)
    cov : array_like of shape (d, d) or CovFactor
        Positive-definite covariance (or a factor from :func:`factorize_cov`).

    Returns
    -------
    (n,) ndarray

    Raises
    ------
    ValueError
        If ``X`` is not (n, d), contains NaN/inf, or ``cov`` is invalid (see
        :func:`factorize_cov`).

    Examples
    --------
    >>> float(mvn_logpdf([[0.0, 0.0]], [0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]])[0])  # -log(2 pi)
    -1.8378770664093453
    """
    mu, factor = _mean_and_factor(mean, cov)
    X = check_points(X, "X", d=mu.shape[0])
    z = _whitened(X, mu, factor)
    maha2 = np.einsum("ij,ij->i", z, z)
    return -0.5 * (mu.shape[0] * _LOG_2PI + factor.logdet + maha2)


def mvn_pdf(X, mean, cov) -> np.ndarray:
    """Density of :math:`\\mathcal N(\\mu, \\Sigma)` at each row of ``X``: ``exp(mvn_logpdf)``.

    Parameters and errors as :func:`mvn_logpdf`.

    Examples
    --------
    >>> round(float(mvn_pdf([[0.0, 0.0]], [0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]])[0]), 6)  # 1/(2 pi)
    0.159155
    """
    return np.exp(mvn_logpdf(X, mean, cov))


def mvn_pdf_grid(x, y, mean, cov, *, log: bool = False) -> np.ndarray:
    """Density of a 2-D Gaussian on the grid ``x`` (columns) by ``y`` (rows).

    Parameters
    ----------
    x, y : 1-D array_like
        Grid coordinates along :math:`x_1` and :math:`x_2`.
    mean : array_like of shape (2,)
    cov : array_like of shape (2, 2) or CovFactor
    log : bool, default False
        Return the log-density instead.

    Returns
    -------
    (len(y), len(x)) ndarray
        ``Z[i, j]`` is the density at ``(x[j], y[i])``, the layout of ``np.meshgrid(x, y)``
        that ``contour``, ``imshow`` and ``plot_surface`` expect.

    Examples
    --------
    >>> Z = mvn_pdf_grid([-1.0, 0.0, 1.0], [0.0, 1.0], [0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]])
    >>> Z.shape
    (2, 3)
    """
    xs = check_vector(x, "x")
    ys = check_vector(y, "y")
    mu, factor = _mean_and_factor(mean, cov)
    if mu.shape[0] != 2:
        raise ValueError(f"mvn_pdf_grid draws 2-D Gaussians; mean has length {mu.shape[0]}")
    # (x - mu) W = (x1 - mu1) W[0] + (x2 - mu2) W[1]: an outer sum, no (n, 2) point array.
    W = factor.whiten
    z0 = (xs - mu[0])[None, :, None] * W[0] + (ys - mu[1])[:, None, None] * W[1]
    maha2 = np.einsum("ijk,ijk->ij", z0, z0)
    logp = -0.5 * (2 * _LOG_2PI + factor.logdet + maha2)
    return logp if log else np.exp(logp)


def mahalanobis(X, mean, cov) -> np.ndarray:
    """Mahalanobis distance :math:`\\sqrt{(x-\\mu)^T \\Sigma^{-1} (x-\\mu)}` of each row of ``X``.

    The contour of the density through ``x`` is the ellipse of all points at the same distance.

    Parameters and errors as :func:`mvn_logpdf`.

    Returns
    -------
    (n,) ndarray

    Examples
    --------
    >>> mahalanobis([[2.0, 0.0]], [0.0, 0.0], [[4.0, 0.0], [0.0, 1.0]])
    array([1.])
    """
    mu, factor = _mean_and_factor(mean, cov)
    X = check_points(X, "X", d=mu.shape[0])
    z = _whitened(X, mu, factor)
    return np.sqrt(np.einsum("ij,ij->i", z, z))


def sample_mvn(n, mean, cov, rng) -> np.ndarray:
    """Draw ``n`` samples from :math:`\\mathcal N(\\mu, \\Sigma)` as ``mu + z L^T``.

    ``z`` are standard normal draws and ``L`` is the Cholesky factor of ``cov``, so the same
    ``rng`` state gives samples that move continuously as ``mean`` and ``cov`` change.

    Parameters
    ----------
    n : int
        Number of samples (>= 0).
    mean : array_like of shape (d,)
    cov : array_like of shape (d, d) or CovFactor
    rng : numpy.random.Generator or int
        Source of randomness; an int is used as a seed. Required, so results are reproducible.

    Returns
    -------
    (n, d) ndarray

    Raises
    ------
    TypeError
        If ``rng`` is neither a Generator nor an int, or ``n`` is not an integer.
    ValueError
        If ``n < 0`` or ``mean``/``cov`` are invalid.

    Examples
    --------
    >>> sample_mvn(3, [0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], rng=0).shape
    (3, 2)
    """
    n = check_int(n, "n", low=0)
    mu, factor = _mean_and_factor(mean, cov)
    gen = check_rng(rng)
    z = gen.standard_normal((n, mu.shape[0]))
    return mu + z @ factor.chol.T


class EigenGeometry(NamedTuple):
    """Axes of the contour ellipses of a Gaussian.

    ``eigvals`` decrease; ``eigvecs[:, i]`` is the unit direction of the i-th axis; the
    k-sigma ellipse has half-axis lengths ``k * sqrt(eigvals)``; ``angle`` is the direction of
    the major axis in degrees, anticlockwise from the :math:`x_1` axis, in (-90, 90].
    ``isotropic`` is True when all eigenvalues are equal (the contours are circles, every
    direction is an axis); then by convention ``eigvecs`` is the identity and ``angle`` is 0.
    """

    eigvals: np.ndarray
    eigvecs: np.ndarray
    half_axes: np.ndarray
    angle: float
    isotropic: bool


def cov_eigen(cov) -> EigenGeometry:
    """Eigen-decomposition of ``cov`` as ellipse geometry (1-sigma half-axes, major-axis angle).

    Parameters
    ----------
    cov : array_like of shape (d, d) or CovFactor

    Returns
    -------
    EigenGeometry
        ``angle`` is NaN for d != 2.

    Examples
    --------
    >>> g = cov_eigen([[1.0, 0.8], [0.8, 1.0]])
    >>> g.eigvals
    array([1.8, 0.2])
    >>> round(g.angle, 6)
    45.0
    >>> cov_eigen([[2.0, 0.0], [0.0, 2.0]]).isotropic
    True
    """
    factor = check_cov(cov, "cov")
    half = np.sqrt(factor.eigvals)
    vals = factor.eigvals
    isotropic = bool(vals[0] - vals[-1] <= 1e-12 * vals[0])
    vecs = np.eye(factor.d) if isotropic else factor.eigvecs.copy()
    if factor.d == 2:
        v = vecs[:, 0]
        angle = float(np.degrees(np.arctan2(v[1], v[0])))
        if angle <= -90.0:
            angle += 180.0
        elif angle > 90.0:
            angle -= 180.0
    else:
        angle = float("nan")
    return EigenGeometry(vals.copy(), vecs, half, angle, isotropic)


def ellipse_points(mean, cov, k: float = 1.0, n: int = 100) -> np.ndarray:
    """``n`` points on the ellipse of Mahalanobis distance ``k`` around ``mean`` (2-D only).

    This ellipse is a contour line of the density, at height ``p(mean) * exp(-k**2 / 2)``; it
    contains probability mass ``1 - exp(-k**2 / 2)``.

    Parameters
    ----------
    mean : array_like of shape (2,)
    cov : array_like of shape (2, 2) or CovFactor
    k : float, default 1.0
        Mahalanobis radius (> 0).
    n : int, default 100
        Number of points (>= 3); the first and last points coincide, closing the curve.

    Returns
    -------
    (n, 2) ndarray

    Examples
    --------
    >>> P = ellipse_points([0.0, 0.0], [[4.0, 0.0], [0.0, 1.0]], k=1.0, n=5)
    >>> np.round(P, 12) + 0.0
    array([[ 2.,  0.],
           [ 0.,  1.],
           [-2.,  0.],
           [ 0., -1.],
           [ 2.,  0.]])
    """
    mu, factor = _mean_and_factor(mean, cov)
    if mu.shape[0] != 2:
        raise ValueError(f"ellipse_points needs a 2-D Gaussian; mean has length {mu.shape[0]}")
    k = check_scalar(k, "k", low=0.0, low_open=True)
    n = check_int(n, "n", low=3)
    t = np.linspace(0.0, 2.0 * np.pi, n)
    circle = np.column_stack([np.cos(t), np.sin(t)])
    # x = mu + k V Lambda^{1/2} u for unit vectors u.
    root = factor.eigvecs * np.sqrt(factor.eigvals)
    return mu + k * circle @ root.T

