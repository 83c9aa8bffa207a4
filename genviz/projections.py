"""Random projections and the Johnson-Lindenstrauss bound (Smola & Vishwanathan, section 1.3.2).

A Gaussian random matrix ``R`` in R^{d x n} maps ``x`` in R^n to ``R x`` in R^d
(:func:`random_projection`). The Johnson-Lindenstrauss lemma in Dasgupta & Gupta's form [DG03]
guarantees that for ``d >= 4 ln m / (eps^2/2 - eps^3/3)`` (:func:`jl_min_dim`) the squared
distances of ``m`` points change by a factor in ``[1 - eps, 1 + eps]`` (with probability at
least ``1/m`` per draw; in practice almost always). :func:`distance_ratios` and
:func:`distortion_stats` measure what a projection did to the pairwise distances, and
:func:`projection_benchmark` what it does to k-NN accuracy and query time.

These names used to live in :mod:`genviz.knn`, where they still resolve, deprecated.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from scipy.spatial.distance import pdist

from genviz._validation import check_array, check_int, check_points, check_rng, check_scalar
from genviz.knn import KNNClassifier

__all__ = ["random_projection", "jl_min_dim", "pairwise_sq_distances", "distinct_pairs",
           "distance_ratios", "distortion_stats", "projection_benchmark"]


def random_projection(d, n_features, rng, *, scaling="notes") -> np.ndarray:
    """A Gaussian random projection matrix ``R`` in R^{d x n}; project with ``X @ R.T``.

    Parameters
    ----------
    d : int >= 1
        Target dimension.
    n_features : int >= 1
        Original dimension n.
    rng : numpy Generator or int seed
    scaling : {"notes", "jl"}
        ``"notes"``: entries N(0, 1/n), as the issue quotes the notes. Then
        ``E|R x|^2 = (d/n) |x|^2``: every distance shrinks by about ``sqrt(d/n)`` -- which changes
        no nearest neighbour, but the ratios concentrate around ``sqrt(d/n)``, not 1.
        ``"jl"``: entries N(0, 1/d), ``E|R x|^2 = |x|^2``: distance ratios concentrate around 1,
        the form in which the Johnson-Lindenstrauss bound (:func:`jl_min_dim`) holds. The two
        differ by the constant factor ``sqrt(n/d)``.

    Returns
    -------
    ndarray of shape (d, n_features)
        With the same seed, the matrix for a smaller ``d`` is the first rows of the one for a
        larger ``d`` (before scaling), so a d slider moves smoothly.

    Raises
    ------
    ValueError
        If ``d`` or ``n_features`` is < 1, or ``scaling`` is unknown.

    Examples
    --------
    >>> R = random_projection(2, 3, rng=0, scaling="jl")
    >>> R.shape
    (2, 3)
    """
    d = check_int(d, "d", low=1)
    n_features = check_int(n_features, "n_features", low=1)
    if scaling not in ("notes", "jl"):
        raise ValueError(f"scaling must be 'notes' (variance 1/n) or 'jl' (variance 1/d), "
                         f"got {scaling!r}")
    G = check_rng(rng).standard_normal((d, n_features))
    return G / np.sqrt(n_features if scaling == "notes" else d)


def jl_min_dim(m, eps) -> int:
    """Smallest d the Johnson-Lindenstrauss lemma guarantees for m points and distortion eps.

    ``d >= 4 ln(m) / (eps^2/2 - eps^3/3)`` (Dasgupta & Gupta 2003, the notes' [DG03]); then a
    random projection keeps every squared pairwise distance within a factor ``1 +- eps``. The
    notes state the order, ``O(log m / eps^2)``. scikit-learn's
    ``johnson_lindenstrauss_min_dim`` truncates the same expression; this rounds up.

    Parameters
    ----------
    m : int >= 1
        Number of points.
    eps : float in (0, 1)

    Returns
    -------
    int

    Examples
    --------
    >>> jl_min_dim(1000, 0.5)
    332
    >>> jl_min_dim(1000, 0.1)
    5921
    """
    m = check_int(m, "m", low=1)
    eps = check_scalar(eps, "eps", low=0.0, high=1.0, low_open=True, high_open=True)
    return int(np.ceil(4.0 * np.log(m) / (eps**2 / 2.0 - eps**3 / 3.0)))


def pairwise_sq_distances(X) -> np.ndarray:
    """Squared Euclidean distances of all pairs ``i < j`` of rows, in scipy's condensed order.

    The pair ``(i, j)`` is at position ``m*i + j - (i+1)*(i+2)/2`` (``scipy.spatial.distance
    .squareform`` turns the vector into the symmetric matrix).

    Parameters
    ----------
    X : array_like of shape (m, n_features)

    Returns
    -------
    ndarray of shape (m * (m - 1) / 2,)

    Raises
    ------
    ValueError
        If ``X`` is not 2-D or contains NaN or infinite values.

    Examples
    --------
    >>> pairwise_sq_distances([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])
    array([25.,  1., 18.])
    """
    return pdist(check_points(X, "X"), "sqeuclidean")


def distinct_pairs(sq_dist) -> np.ndarray:
    """Mask of the pairs whose points are distinct (squared distance above a relative 1e-12).

    Parameters
    ----------
    sq_dist : array_like of shape (p,)
        Squared pairwise distances, e.g. from :func:`pairwise_sq_distances`.

    Returns
    -------
    ndarray of shape (p,), dtype=bool

    Examples
    --------
    >>> distinct_pairs([4.0, 0.0, 1e-20]).tolist()
    [True, False, False]
    """
    d = check_array(sq_dist, "sq_dist", ndim=1)
    return d > 1e-12 * max(float(d.max()) if d.size else 0.0, 1e-300)


def distance_ratios(X, X_projected) -> np.ndarray:
    """``|R x_i - R x_j| / |x_i - x_j|`` for every pair ``i < j`` with distinct points.

    Parameters
    ----------
    X : array_like of shape (m, n)
    X_projected : array_like of shape (m, d)

    Returns
    -------
    ndarray of shape (number of pairs with ``x_i != x_j``,)

    Examples
    --------
    >>> distance_ratios([[0.0, 0.0], [3.0, 4.0]], [[0.0], [10.0]])
    array([2.])
    """
    X = check_points(X, "X")
    Y = check_points(X_projected, "X_projected")
    if Y.shape[0] != X.shape[0]:
        raise ValueError(f"X_projected has {Y.shape[0]} rows but X has {X.shape[0]}; project "
                         f"the same points (X @ R.T)")
    if X.shape[0] < 2:
        raise ValueError("X needs at least 2 points to have a pairwise distance")
    dx, dy = pairwise_sq_distances(X), pairwise_sq_distances(Y)
    keep = distinct_pairs(dx)
    return np.sqrt(dy[keep] / dx[keep])


def distortion_stats(ratios, eps=None) -> dict:
    """Summary of distance ratios: mean, std, min, max, and the worst distortion.

    Parameters
    ----------
    ratios : array_like of shape (p,)
        Distance ratios, e.g. from :func:`distance_ratios`.
    eps : float > 0, optional
        The distortion of interest.

    Returns
    -------
    dict
        ``mean``, ``std``, ``min``, ``max`` and ``max_distortion = max(max - 1, 1 - min)``;
        with ``eps`` also ``within``, the fraction of ratios in ``[1 - eps, 1 + eps]`` (the
        notes' statement), and ``within_sq``, the fraction of *squared* ratios in that band
        (Dasgupta & Gupta's).

    Raises
    ------
    ValueError
        If ``ratios`` is empty, not 1-D, or contains NaN; if ``eps <= 0``.

    Examples
    --------
    >>> s = distortion_stats([0.9, 1.0, 1.2], eps=0.15)
    >>> round(s["max_distortion"], 3), round(s["within"], 3)
    (0.2, 0.667)
    """
    r = check_array(ratios, "ratios", ndim=1)
    if r.size == 0:
        raise ValueError("ratios is empty; pass at least one ratio")
    out = dict(mean=float(r.mean()), std=float(r.std()), min=float(r.min()), max=float(r.max()),
               max_distortion=float(max(r.max() - 1.0, 1.0 - r.min())))
    if eps is not None:
        eps = check_scalar(eps, "eps", low=0.0, low_open=True)
        out["within"] = float(np.mean(np.abs(r - 1.0) <= eps))
        out["within_sq"] = float(np.mean(np.abs(r**2 - 1.0) <= eps))
    return out


def projection_benchmark(X_train, y_train, X_test, y_test, dims, k, rng, *, repeats=3) -> dict:
    """k-NN test accuracy and query time on the original data and after projecting to each d.

    Parameters
    ----------
    X_train, y_train, X_test, y_test : arrays
    dims : sequence of int
        Target dimensions to try.
    k : int
    rng : numpy Generator or int seed (one projection per d, ``scaling="jl"``)
    repeats : int
        Query time is the best of ``repeats`` runs (seconds), projection time included.

    Returns
    -------
    dict with ``dims`` (the original dimension first), ``accuracy`` and ``seconds`` lists.

    Raises
    ------
    ValueError
        As :class:`KNNClassifier` and :func:`random_projection` (bad k, d < 1, shapes, NaN).

    Examples
    --------
    >>> from genviz.synthetic import two_class_data
    >>> X, y = two_class_data(60, rng=0)
    >>> res = projection_benchmark(X[:40], y[:40], X[40:], y[40:], dims=[1], k=3, rng=0)
    >>> res["dims"], len(res["accuracy"]), len(res["seconds"])
    ([2, 1], 2, 2)
    """
    rng = check_rng(rng)
    repeats = check_int(repeats, "repeats", low=1)
    Xtr = check_points(X_train, "X_train")
    Xte = check_points(X_test, "X_test", d=Xtr.shape[1])
    y_test = np.asarray(y_test)
    out = {"dims": [Xtr.shape[1]], "accuracy": [], "seconds": []}
    mats = [None]
    for d in dims:
        out["dims"].append(check_int(d, "dims[i]", low=1))
        mats.append(random_projection(d, Xtr.shape[1], rng, scaling="jl"))
    for R in mats:
        A, B = (Xtr, Xte) if R is None else (Xtr @ R.T, None)
        clf = KNNClassifier(k).fit(A, y_train)
        best = np.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            pred = clf.predict(Xte if R is None else Xte @ R.T)
            best = min(best, time.perf_counter() - t0)
        out["accuracy"].append(float(np.mean(pred == y_test)))
        out["seconds"].append(best)
    return out


# -- distance ratios for every target dimension (the projection explorer's model) -------------
__all__ += ["ProjectionRatios", "projection_ratios"]


class ProjectionRatios(NamedTuple):
    """Result of :func:`projection_ratios`."""

    dims: np.ndarray  #: target dimensions 1..d_max
    ratios: list  #: per dimension, the distance ratio of every distinct pair
    stats: list  #: per dimension, :func:`distortion_stats` of its ratios
    n_pairs: int  #: number of distinct pairs


def projection_ratios(X, d_max, seed=0) -> ProjectionRatios:
    """Distance ratios ``|R x_i - R x_j| / |x_i - x_j|`` of every distinct pair after a Gaussian
    projection ``R`` (N(0, 1/d) entries, ``scaling="jl"``) to each ``d`` in ``1..d_max``.

    The pairwise distances of ``X`` are computed once; with one integer ``seed`` the projections for
    different ``d`` share their rows, so the ratios change smoothly with ``d``.

    Raises
    ------
    ValueError
        Fewer than 2 points, no two distinct points, ``d_max < 1``, a negative seed.

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(30, 50))
    >>> r = projection_ratios(X, 40, seed=0)
    >>> r.n_pairs, len(r.ratios), bool(r.stats[39]["std"] < r.stats[0]["std"])
    (435, 40, True)
    """
    X = check_points(X, "X")
    m, n = X.shape
    if m < 2:
        raise ValueError("X needs at least 2 points")
    d_max = check_int(d_max, "d_max", low=1)
    seed = check_int(seed, "seed", low=0)
    dims = np.arange(1, d_max + 1)
    dx = pairwise_sq_distances(X)  # once; then one small projection per d
    keep = distinct_pairs(dx)
    if not keep.any():
        raise ValueError("X has no two distinct points")
    ratios = []
    for dd in dims:
        Y = X @ random_projection(dd, n, rng=seed, scaling="jl").T
        ratios.append(np.sqrt(pairwise_sq_distances(Y)[keep] / dx[keep]))
    return ProjectionRatios(dims, ratios, [distortion_stats(r) for r in ratios], int(keep.sum()))
