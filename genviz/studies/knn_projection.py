"""The random-projection explorer's study (notebook 09): distance ratios after a Gaussian
projection to any target dimension, computed once for every d (:class:`ProjectionStudy`).
:class:`genviz.plots.knn.ProjectionView` paints it; the projections themselves are in
:mod:`genviz.projections`."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_points, check_scalar
from genviz.projections import distortion_stats, jl_min_dim, projection_ratios
from genviz.studies._base import Result, Study

__all__ = ["ProjectionStatic", "ProjectionResult", "ProjectionStudy"]


class ProjectionStatic(Result):
    """What the projection view draws once: the spread and worst distortion against d.

    Attributes
    ----------
    n_points : int
    n_features : int
    n_pairs : int
        Distinct pairs of points.
    d_max : int
    dims : ndarray of shape (d_max,)
        ``1, ..., d_max``.
    max_distortion : ndarray of shape (d_max,)
        The worst ``|ratio - 1|`` at each d.
    std : ndarray of shape (d_max,)
        The ratios' standard deviation at each d.
    spread_bound : ndarray of shape (d_max,)
        ``1 / sqrt(2 d)``, the ratios' standard deviation for large d.
    edges : ndarray of shape (bins + 1,)
        The histogram's bin edges, from 0 to ``r_max``.
    top : float
        The distortion axis' upper limit: 1.05 times the worst distortion, at most 1.5.
    """

    n_points: int
    n_features: int
    n_pairs: int
    d_max: int
    dims: np.ndarray
    max_distortion: np.ndarray
    std: np.ndarray
    spread_bound: np.ndarray
    edges: np.ndarray
    top: float


class ProjectionResult(Result):
    """Distance ratios after a Gaussian projection to d dimensions.

    Attributes
    ----------
    d : int
    eps : float
    ratios : ndarray of shape (n_pairs,)
        ``|R x_i - R x_j| / |x_i - x_j|`` for every distinct pair.
    hist : ndarray of shape (bins,)
        Their histogram, scaled to a peak of 1.
    band : tuple of float
        ``(1 - eps, 1 + eps)``.
    stats : dict
        :func:`genviz.projections.distortion_stats` with ``eps``.
    jl_dim : int
        The Johnson-Lindenstrauss bound for this many points and ``eps``.
    dims : ndarray of shape (d_max,)
    max_distortion : ndarray of shape (d_max,)
    std : ndarray of shape (d_max,)
    """

    d: int
    eps: float
    ratios: np.ndarray
    hist: np.ndarray
    band: tuple
    stats: dict
    jl_dim: int
    dims: np.ndarray
    max_distortion: np.ndarray
    std: np.ndarray


class ProjectionStudy(Study):
    """Distance ratios after a Gaussian projection (N(0, 1/d) entries) to any ``d`` up to
    ``d_max``, computed once for every d (:func:`genviz.projections.projection_ratios`).

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(20, 30))
    >>> r = ProjectionStudy(X, d_max=10)(d=10, eps=0.5)
    >>> r.ratios.size, r.jl_dim > 10
    (190, True)
    """

    def __init__(self, X, *, d_max=None, seed=0, bins=60, r_max=2.0):
        self.X = check_points(X, "X")
        n = self.X.shape[1]
        self.d_max = check_int(n if d_max is None else d_max, "d_max", low=1)
        self.seed = check_int(seed, "seed", low=0)
        ratios = projection_ratios(self.X, self.d_max, self.seed)  # every d, computed once
        self.dims, self._ratios, self._stats = ratios.dims, ratios.ratios, ratios.stats
        self.edges = np.linspace(0.0, check_scalar(r_max, "r_max", low=1.0),
                                 check_int(bins, "bins", low=2) + 1)
        self._worst = np.array([s["max_distortion"] for s in self._stats])
        self._std = np.array([s["std"] for s in self._stats])

    def static(self) -> ProjectionStatic:
        worst = [s["max_distortion"] for s in self._stats]
        return ProjectionStatic(self.X.shape[0], self.X.shape[1], len(self._ratios[0]),
                                self.d_max, self.dims, self._worst, self._std,
                                1 / np.sqrt(2 * self.dims), self.edges,
                                min(1.5, max(worst) * 1.05))

    def __call__(self, *, d=10, eps=0.5) -> ProjectionResult:
        d = check_int(d, "d", low=1)
        if d > self.d_max:
            raise ValueError(f"d = {d} exceeds d_max = {self.d_max} of this view")
        eps = check_scalar(eps, "eps", low=0.0, high=1.0, low_open=True, high_open=True)
        r = self._ratios[d - 1]
        counts, _ = np.histogram(r, self.edges)
        return ProjectionResult(d, eps, r, counts / max(counts.max(), 1), (1 - eps, 1 + eps),
                                distortion_stats(r, eps=eps), jl_min_dim(self.X.shape[0], eps),
                                self.dims, self._worst.copy(), self._std.copy())
