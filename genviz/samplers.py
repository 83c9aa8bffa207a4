"""Seeded samplers the explorers draw from, each made once so that a slider move re-reads it:
nested label noise, the GDA model's own samples (continuous in its parameters), Gaussian draws
with their sample moments, random orders. The data generators themselves are in
:mod:`genviz.synthetic`."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_scalar, check_vector
from genviz.gaussian import factorize_cov, sample_mvn
from genviz.synthetic import flip_labels

__all__ = ["LabelNoise", "GDASample", "GDAFitSampler", "GaussianSample", "gaussian_sample",
           "random_order"]



class LabelNoise:
    """Noisy copies of class codes at any noise level, nested (one seed), each made once.

    ``noise(fraction)`` is ``flip_labels(y_codes, fraction, n_classes, rng=seed)`` with the
    fraction rounded to 6 decimals, kept: a slider coming back to a level costs nothing.

    Examples
    --------
    >>> noise = LabelNoise([0, 0, 1, 1], 2, seed=0)
    >>> y, flipped = noise(0.5)
    >>> int(flipped.sum()), noise(0.5)[0] is y
    (2, True)
    """

    def __init__(self, y_codes, n_classes, seed=0):
        self.y = np.asarray(y_codes)
        if self.y.ndim != 1 or not np.issubdtype(self.y.dtype, np.integer):
            raise ValueError(f"y_codes must be a 1-D integer array, got dtype {self.y.dtype}, "
                             f"shape {self.y.shape}")
        self.n_classes = check_int(n_classes, "n_classes", low=2)
        self.seed = check_int(seed, "seed", low=0)
        self._cache: dict = {}

    def __call__(self, fraction) -> tuple[np.ndarray, np.ndarray]:
        key = round(float(check_scalar(fraction, "fraction", low=0.0, high=1.0)), 6)
        if key not in self._cache:
            self._cache[key] = flip_labels(self.y, key, self.n_classes, rng=self.seed)
        return self._cache[key]


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


class GaussianSample(NamedTuple):
    """Draws of :func:`gaussian_sample` and their sample moments."""

    X: np.ndarray  #: (n, d) draws
    mean: np.ndarray  #: sample mean (NaN when n = 0)
    cov: np.ndarray  #: sample covariance, ddof=1 (NaN when n < 2)


def gaussian_sample(n, mean, cov, rng) -> GaussianSample:
    """``n`` draws of ``N(mean, cov)`` (:func:`genviz.gaussian.sample_mvn`, so one seed gives
    the same standard-normal draws for every mean and covariance) with their sample mean and
    covariance (``np.cov``, ddof=1).

    ``cov`` may be a matrix or a factor from :func:`genviz.gaussian.factorize_cov`.

    Examples
    --------
    >>> s = gaussian_sample(2000, [1.0, -1.0], [[1.0, 0.5], [0.5, 2.0]], rng=0)
    >>> np.round(s.mean, 1).tolist(), bool(abs(s.cov[1, 1] - 2.0) < 0.2)
    ([1.0, -1.0], True)
    """
    n = check_int(n, "n", low=0)
    X = sample_mvn(n, mean, cov, rng=rng)
    d = X.shape[1]
    return GaussianSample(X, X.mean(axis=0) if n else np.full(d, np.nan),
                          np.cov(X, rowvar=False) if n > 1 else np.full((d, d), np.nan))


def random_order(n, seed) -> np.ndarray:
    """A seeded permutation of ``range(n)``: its first ``k`` entries are a random subset of
    size ``k``, nested as ``k`` grows.

    Examples
    --------
    >>> sorted(random_order(5, 0).tolist())
    [0, 1, 2, 3, 4]
    """
    n = check_int(n, "n", low=0)
    return np.random.default_rng(check_int(seed, "seed", low=0)).permutation(n)
