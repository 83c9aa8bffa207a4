"""The building blocks of :mod:`genviz.studies.gda` and :mod:`genviz.studies.gda_vs_logistic`:
a linear boundary clipped to a box (:func:`line_in_box`, :class:`Boundary`), the GDA model's
own samples continuous in its parameters (:class:`GDAFitSampler`), GDA fitted to a sample
beside the truth (:func:`fit_gda_sample`), shared against separate covariances
(:func:`gda_covariance_fits`) and the posterior two ways (:func:`posterior_two_ways`)."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_scalar, check_vector
from genviz.gaussian import factorize_cov
from genviz.gda import GDA, logistic_params
from genviz.logistic import sigmoid
from genviz.studies._base import Result

__all__ = ["line_in_box", "Boundary", "boundary", "GDASample", "GDAFitSampler", "GDAFit",
           "fit_gda_sample", "GDACovarianceFit", "gda_covariance_fits", "PosteriorTwoWays",
           "posterior_two_ways"]


def line_in_box(theta, theta0, box):
    """The segment of the line ``theta . x + theta0 = 0`` inside ``box = (x0, x1, y0, y1)``.

    Returns ``(xs, ys)``, two points each, or two empty arrays when the line misses the box.

    Examples
    --------
    >>> line_in_box([1.0, 0.0], -1.0, (-2, 2, -2, 2))
    (array([1., 1.]), array([-2.,  2.]))
    """
    a, b = float(theta[0]), float(theta[1])
    x0, x1, y0, y1 = box
    pts = []
    if abs(b) > 1e-300:
        for x in (x0, x1):
            y = -(theta0 + a * x) / b
            if y0 - 1e-12 <= y <= y1 + 1e-12:
                pts.append((x, y))
    if abs(a) > 1e-300:
        for y in (y0, y1):
            x = -(theta0 + b * y) / a
            if x0 - 1e-12 <= x <= x1 + 1e-12:
                pts.append((x, y))
    if len(pts) < 2:
        return np.array([]), np.array([])
    pts = np.array(pts)
    # The two points farthest apart (corners can appear twice).
    d = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(axis=2))
    i, j = np.unravel_index(np.argmax(d), d.shape)
    return pts[[i, j], 0], pts[[i, j], 1]


class Boundary(Result):
    """A decision boundary to draw: a segment when it is a line, else the zero level of
    ``values`` on a grid.

    Attributes
    ----------
    linear : bool
    xs : ndarray of shape (2,) or (0,)
        The segment's ends (:func:`line_in_box`; empty when not linear or outside the box).
    ys : ndarray of shape (2,) or (0,)
    values : ndarray of shape (ny, nx) or None
        Log-odds on the grid when not linear (the boundary is their zero level).
    """

    linear: bool
    xs: np.ndarray
    ys: np.ndarray
    values: object


def boundary(box, *, linear=None, values=None) -> Boundary:
    """A :class:`Boundary`: the segment of ``linear = (theta, theta0)`` in ``box``, else the
    zero level of ``values``.

    Examples
    --------
    >>> boundary((-1, 1, -1, 1), linear=([0.0, 1.0], 0.0)).ys.tolist()
    [0.0, 0.0]
    """
    if linear is not None:
        xs, ys = line_in_box(linear[0], linear[1], box)
        return Boundary(True, xs, ys, None)
    return Boundary(False, np.array([]), np.array([]), values)


# -- the GDA model's own samples ------------------------------------------------------------------
class GDASample(dataclasses.make_dataclass("_GDASample", ["X", "y"], frozen=True)):
    """A two-class sample of :class:`GDAFitSampler`: points ``X`` (n, 2), labels ``y`` (n,)."""

    def __iter__(self):  # X, y = sampler.sample(...)
        return iter((self.X, self.y))


class GDAFitSampler:
    r"""Draws from the GDA model itself, continuous in its parameters (notebook 03's explorer).

    ``y ~ Bernoulli(phi)``, ``x | y ~ N(mu_y, Sigma)``: from a fixed pool of standard-normal
    vectors ``z`` and uniforms ``u`` (seeded once), ``x_i = mu_{y_i} + L z_i`` with
    ``L L^T = Sigma`` and ``y_i = 1{u_i < phi}``, the first ``n`` of the pool. So moving a mean
    or ``Sigma`` moves the same points continuously, and a larger ``n`` adds points without
    redrawing the others. Each class keeps at least 2 points (the two pool points with the
    smallest ``u`` among the first ``n`` are class 1, the two with the largest class 0), so the
    shared-covariance MLE always exists. ``jitter`` (uniform in [-0.04, 0.04], one per pool
    point, drawn after ``z`` and ``u``) is for plotting labels apart.

    Parameters
    ----------
    n_max : int >= 4
        Size of the pool (largest n).
    seed : int >= 0

    Examples
    --------
    >>> s = GDAFitSampler(n_max=50, seed=0)
    >>> X, y = s.points(10, [-1, 0], [1, 0], [[1, 0], [0, 1]], 0.5)
    >>> X.shape, int(y.sum()) >= 2, int((1 - y).sum()) >= 2
    ((10, 2), True, True)
    """

    def __init__(self, n_max=1000, seed=0):
        self.n_max = check_int(n_max, "n_max", low=4)
        self.seed = check_int(seed, "seed", low=0)
        rng = np.random.default_rng(self.seed)
        self.z = rng.standard_normal((self.n_max, 2))
        self.u = rng.random(self.n_max)
        self.jitter = rng.uniform(-0.04, 0.04, self.n_max)

    def points(self, n, mu0, mu1, cov, phi) -> GDASample:
        """The first ``n`` pool points under means ``mu0``, ``mu1``, covariance ``cov`` (2x2,
        positive definite) and class-1 probability ``phi`` in (0, 1)."""
        n = check_int(n, "n", low=4, high=self.n_max)
        mu = np.array([check_vector(mu0, "mu0", d=2), check_vector(mu1, "mu1", d=2)])
        phi = check_scalar(phi, "phi", low=0.0, high=1.0, low_open=True, high_open=True)
        factor = factorize_cov(cov)  # validates (symmetric, positive definite)
        u = self.u[:n]
        y = (u < phi).astype(int)
        order = np.argsort(u, kind="stable")
        y[order[:2]] = 1
        y[order[-2:]] = 0
        X = mu[y] + self.z[:n] @ np.linalg.cholesky(factor.cov).T
        return GDASample(X, y)


class GDAFit(NamedTuple):
    """Result of :func:`fit_gda_sample`: GDA (shared Σ) fitted to a sample, beside the truth."""

    model: GDA  #: the fitted GDA
    theta: np.ndarray  #: fitted logistic parameters (GDA.logistic_params)
    theta0: float
    theta_true: np.ndarray  #: the same from the true parameters (genviz.gda.logistic_params)
    theta0_true: float
    scores: np.ndarray  #: each point's fitted log-odds ``theta^T x + theta0``
    training_error: float  #: share of the sample GDA misclassifies


def fit_gda_sample(X, y, *, true_phi, true_means, true_cov) -> GDAFit:
    """Fit GDA with a shared covariance to ``(X, y)`` and put its boundary beside the true one.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Labels 0/1, at least one of each (2 for a shared Σ of full rank).
    true_phi : float in (0, 1)
    true_means : array_like of shape (2, d)
        ``mu_0`` and ``mu_1`` of the model the sample came from.
    true_cov : array_like of shape (d, d)

    Returns
    -------
    GDAFit

    Examples
    --------
    >>> mu, cov = np.array([[-1.0, 0.0], [1.0, 0.0]]), np.eye(2)
    >>> X, y = GDAFitSampler(seed=0).points(1000, mu[0], mu[1], cov, 0.5)
    >>> f = fit_gda_sample(X, y, true_phi=0.5, true_means=mu, true_cov=cov)
    >>> f.theta_true.tolist(), bool(np.allclose(f.theta, f.theta_true, atol=0.25))
    ([2.0, 0.0], True)
    """
    true_phi = check_scalar(true_phi, "true_phi", low=0.0, high=1.0, low_open=True,
                            high_open=True)
    means = np.asarray(true_means, dtype=float)
    gda = GDA().fit(X, y)
    theta, theta0 = gda.logistic_params()
    theta_true, theta0_true = logistic_params(true_phi, means[0], means[1], true_cov)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    return GDAFit(gda, np.asarray(theta, dtype=float), float(theta0),
                  np.asarray(theta_true, dtype=float), float(theta0_true), X @ theta + theta0,
                  float(np.mean(gda.predict(X) != y)))


class GDACovarianceFit(NamedTuple):
    """One GDA of :func:`gda_covariance_fits`."""

    shared_cov: bool
    model: GDA
    training_error: float


def gda_covariance_fits(X, y, shared=(True, False)) -> tuple:
    """GDA with a shared covariance and/or one per class, fitted to the same data, with their
    training errors (a line against a quadric boundary, notebook 03).

    Examples
    --------
    >>> X = [[0.0, 0.0], [1.0, 0.2], [0.1, 1.0], [3.0, 3.0], [4.0, 3.1], [3.2, 4.0]]
    >>> [(f.shared_cov, f.training_error) for f in gda_covariance_fits(X, [0, 0, 0, 1, 1, 1])]
    [(True, 0.0), (False, 0.0)]
    """
    y = np.asarray(y)
    out = []
    for flag in shared:
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"shared must hold booleans, got {flag!r}")
        model = GDA(shared_cov=bool(flag)).fit(X, y)
        out.append(GDACovarianceFit(bool(flag), model,
                                    float(np.mean(model.predict(np.asarray(X, float)) != y))))
    return tuple(out)


class PosteriorTwoWays(NamedTuple):
    """Result of :func:`posterior_two_ways`."""

    bayes: np.ndarray  #: ``p(y=1|x)`` by Bayes' rule (``predict_proba``)
    logistic: np.ndarray  #: ``sigmoid(theta^T x + theta0)`` with GDA's logistic parameters
    max_abs_difference: float


def posterior_two_ways(model, X) -> PosteriorTwoWays:
    """CS229's claim checked on points: a fitted shared-Σ GDA's posterior by Bayes' rule equals
    the sigmoid of a linear function (:meth:`genviz.gda.GDA.logistic_params`).

    Examples
    --------
    >>> g = GDA().fit([[0.0, 0.0], [1.0, 0.5], [0.2, 1.0], [3.0, 3.0], [4.0, 3.5], [3.0, 4.0]],
    ...               [0, 0, 0, 1, 1, 1])
    >>> r = posterior_two_ways(g, [[0.0, 0.0], [2.0, 2.0]])
    >>> bool(r.max_abs_difference < 1e-12)
    True
    """
    X = np.asarray(X, dtype=float)
    theta, theta0 = model.logistic_params()
    bayes = model.predict_proba(X)[:, 1]
    logistic = sigmoid(X @ theta + theta0)
    return PosteriorTwoWays(bayes, logistic, float(np.max(np.abs(bayes - logistic))))
