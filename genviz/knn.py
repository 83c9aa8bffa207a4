"""k-nearest neighbours (Smola & Vishwanathan, section 1.3.2) and random projections.

Algorithm 1.2 of the notes: compute the distance ``d(x_i, x)`` from the query ``x`` to every
observation, take the set ``I`` of the ``k`` smallest, and return the majority label of
``{y_i : i in I}`` (classification) or the average of the ``y_i`` (regression).

Tie rules (deterministic, documented):

* equal distances: the observation with the **lower index** (earlier row of ``X`` in ``fit``)
  comes first, so it is the one kept when a tie straddles the k-th place;
* equal votes: the **smallest class label** (first in ``classes_``) wins.

The vote rule is scikit-learn's (``KNeighborsClassifier`` takes the argmax of the counts). For
distance ties scikit-learn documents no rule ("the results will depend on the ordering of the
training data"): its brute-force search keeps a max-heap and may keep a later index, so the two
agree exactly whenever the k-th and (k+1)-th distances differ, and otherwise pick neighbours at
the same distances.

Euclidean distances are exact under shifts and uniform power-of-two scalings of every feature
(timestamps around 1e7 or features of size 1e155 give the same neighbours as the same data
centred and in small units): the data are first expressed relative to the first training row
and in units of a power of two (both exact operations), then with at most
``_DIRECT_MAX_FEATURES`` features the squared differences are summed directly (no cancellation);
with more, the squared-norm expansion ``|a|^2 + |b|^2 - 2 a.b`` (one matrix product) ranks the
neighbours and the returned distances of the chosen ones are recomputed directly. Queries are
processed in chunks so memory stays bounded. Any other distance is a Python function
``metric(x_i, x)`` of a training row and a query (it need not be symmetric).

Random projections: ``R`` with i.i.d. Gaussian entries maps ``x`` in R^n to ``R x`` in R^d. The
Johnson-Lindenstrauss lemma in Dasgupta & Gupta's form [DG03] guarantees that for
``d >= 4 ln m / (eps^2/2 - eps^3/3)`` the squared distances of ``m`` points change by a factor in
``[1 - eps, 1 + eps]`` (with probability at least ``1/m`` per draw; in practice almost always).
"""

from __future__ import annotations

import time

import numpy as np
from scipy.spatial.distance import pdist
from scipy.special import logsumexp

from genviz._validation import (check_array, check_fitted, check_int, check_labels,
                                check_points, check_rng, check_scalar, encode_labels)

__all__ = [
    "pairwise_distances", "kneighbors", "vote_counts", "KNNClassifier", "KNNRegressor",
    "SortedNeighbors", "flip_labels", "random_projection", "jl_min_dim", "distance_ratios",
    "distortion_stats", "projection_benchmark", "two_class_data", "regression_data", "regression_truth",
]

_CHUNK_BYTES = 32 * 2**20  # at most ~32 MB of distances per chunk


def _check_metric(metric):
    if metric is not None and not callable(metric):
        raise TypeError(f"metric must be None (Euclidean) or a function metric(x_i, x) -> float, "
                        f"got {type(metric).__name__} {metric!r}")
    return metric


def _chunks(n_rows: int, n_cols: int):
    step = max(1, _CHUNK_BYTES // (8 * max(n_cols, 1)))
    for start in range(0, n_rows, step):
        yield slice(start, min(start + step, n_rows))


_DIRECT_MAX_FEATURES = 16  # up to this many features, sum squared differences directly


class _Frame:
    """Training points relative to ``X[0]``, in units of a power of two: exact operations (for
    data whose differences are representable), so shifting or power-of-two scaling every
    feature gives bit-identical distances, and nothing overflows for entries up to 1e308."""

    def __init__(self, X, Q):
        self.origin = X[0].copy()
        self.half = False
        with np.errstate(over="ignore"):
            top = max(float(np.max(np.abs(X - self.origin))),
                      float(np.max(np.abs(Q - self.origin))))
        if not np.isfinite(top):  # differences overflow (entries of both signs near 1e308)
            self.half = True       # work with X / 2 (exact) instead
            self.origin = self.origin / 2
            top = max(float(np.max(np.abs(X / 2 - self.origin))),
                      float(np.max(np.abs(Q / 2 - self.origin))))
        self.exp = int(np.frexp(top)[1]) + int(self.half) if top > 0 else 0
        self.X = self.rel(X)
        self.direct = X.shape[1] <= _DIRECT_MAX_FEATURES
        self.x_sq = None if self.direct else np.einsum("ij,ij->i", self.X, self.X)

    def rel(self, A):
        """``(A - X[0]) / 2^exp``, entries in [-1, 1]."""
        if self.half:
            return np.ldexp(A / 2 - self.origin, 1 - self.exp)
        return np.ldexp(A - self.origin, -self.exp)

    def sq(self, Qr):
        """Squared distances (in units 2^(2 exp)) from relative queries to training points."""
        if self.direct:
            D = np.zeros((Qr.shape[0], self.X.shape[0]))
            for j in range(Qr.shape[1]):
                diff = Qr[:, j, None] - self.X[None, :, j]
                diff *= diff
                D += diff
            return D
        D = Qr @ self.X.T
        D *= -2.0
        D += np.einsum("ij,ij->i", Qr, Qr)[:, None]
        D += self.x_sq[None, :]
        np.maximum(D, 0.0, out=D)
        return D

    def exact_dist(self, Qr, ind):
        """Distances of the chosen neighbours, by direct differences, in original units."""
        diff = Qr[:, None, :] - self.X[ind]
        return np.ldexp(np.sqrt(np.einsum("ijk,ijk->ij", diff, diff)), self.exp)


def _custom(Q, X, metric):
    D = np.empty((Q.shape[0], X.shape[0]))
    for j, q in enumerate(Q):
        for i, x in enumerate(X):
            D[j, i] = metric(x, q)
    if not np.all(np.isfinite(D)):
        raise ValueError("metric returned NaN or infinite distances; it must return finite floats")
    return D


def pairwise_distances(X_query, X_train, metric=None) -> np.ndarray:
    """Distances ``d(x_i, x)`` from every query (rows) to every training point (columns).

    Parameters
    ----------
    X_query : array_like, shape (m, n_features)
    X_train : array_like, shape (n, n_features)
    metric : callable, optional
        ``metric(x_i, x) -> float`` of a training row and a query row. None: Euclidean,
        vectorised by the squared-norm expansion in chunks.

    Returns
    -------
    ndarray, shape (m, n)

    Raises
    ------
    ValueError
        If an input is not 2-D, contains NaN, or the numbers of features differ.

    Examples
    --------
    >>> pairwise_distances([[0.0, 0.0]], [[3.0, 4.0], [0.0, 1.0]])
    array([[5., 1.]])
    >>> pairwise_distances([[0.0]], [[2.0]], metric=lambda a, b: abs(a - b).sum())
    array([[2.]])
    """
    metric = _check_metric(metric)
    X = check_points(X_train, "X_train")
    Q = check_points(X_query, "X_query", d=X.shape[1])
    if metric is not None:
        return _custom(Q, X, metric)
    frame = _Frame(X, Q)
    out = np.empty((Q.shape[0], X.shape[0]))
    for s in _chunks(Q.shape[0], X.shape[0]):
        out[s] = np.ldexp(np.sqrt(frame.sq(frame.rel(Q[s]))), frame.exp)
    return out


def _select_k(D, k):
    """Indices of the k smallest entries per row, ordered by (distance, index)."""
    m, n = D.shape
    if k == n:
        return np.argsort(D, axis=1, kind="stable")
    # Fast path: the k+1 smallest (one linear-time partition), sorted by (distance, index).
    cand = np.argpartition(D, k, axis=1)[:, :k + 1]
    vals = np.take_along_axis(D, cand, axis=1)
    order = np.lexsort((cand, vals), axis=-1)
    cand = np.take_along_axis(cand, order, axis=1)
    vals = np.take_along_axis(vals, order, axis=1)
    out = cand[:, :k]
    tied = np.flatnonzero(vals[:, k - 1] == vals[:, k])  # a tie straddles the k-th place
    if tied.size:
        out[tied] = _select_k_ties(D[tied], k)
    return out


def _select_k_ties(D, k):
    """Rows with ties at the k-th place: keep the lowest-index ties."""
    m = D.shape[0]
    kth = np.partition(D, k - 1, axis=1)[:, k - 1:k]
    less = D < kth
    eq = D == kth
    need = k - less.sum(axis=1, keepdims=True)
    chosen = less | (eq & (np.cumsum(eq, axis=1) <= need))
    cols = np.nonzero(chosen)[1].reshape(m, k)  # ascending index in each row
    order = np.argsort(np.take_along_axis(D, cols, axis=1), axis=1, kind="stable")
    return np.take_along_axis(cols, order, axis=1)


def kneighbors(X_query, X_train, k, metric=None):
    """The k nearest training points of each query: Algorithm 1.2's set ``I``.

    Ties in distance are broken by the lower training index.

    Parameters
    ----------
    X_query : array_like, shape (m, n_features)
    X_train : array_like, shape (n, n_features)
    k : int
        1 <= k <= n.
    metric : callable, optional
        As in :func:`pairwise_distances`.

    Returns
    -------
    dist : ndarray, shape (m, k)
        Distances, increasing along each row.
    ind : ndarray of int, shape (m, k)
        Row indices into ``X_train``.

    Raises
    ------
    ValueError
        If ``k`` is out of range, or as :func:`pairwise_distances`.

    Examples
    --------
    >>> dist, ind = kneighbors([[0.0]], [[2.0], [-1.0], [1.0]], k=2)
    >>> ind, dist
    (array([[1, 2]]), array([[1., 1.]]))
    """
    metric = _check_metric(metric)
    X = check_points(X_train, "X_train")
    k = _check_k(k, X.shape[0])
    Q = check_points(X_query, "X_query", d=X.shape[1])
    ind = np.empty((Q.shape[0], k), dtype=np.intp)
    dist = np.empty((Q.shape[0], k))
    frame = None if metric is not None else _Frame(X, Q)
    for s in _chunks(Q.shape[0], X.shape[0]):
        if metric is not None:
            D = _custom(Q[s], X, metric)
            ind[s] = _select_k(D, k)
            dist[s] = np.take_along_axis(D, ind[s], axis=1)
        else:
            Qr = frame.rel(Q[s])
            ind[s] = _select_k(frame.sq(Qr), k)
            dist[s] = frame.exact_dist(Qr, ind[s])
    return dist, ind


def _check_k(k, n):
    k = check_int(k, "k", low=1)
    if k > n:
        raise ValueError(f"k = {k} exceeds the number of training points n = {n}; choose "
                         f"1 <= k <= {n}")
    return k


def vote_counts(neighbor_labels, n_classes, k=None) -> np.ndarray:
    """How many of the first ``k`` neighbours carry each class code.

    Parameters
    ----------
    neighbor_labels : array_like of int, shape (m, k_max)
        Class codes ``0..n_classes-1`` of each query's neighbours, nearest first.
    n_classes : int
    k : int, optional
        Use the first ``k`` columns (default: all).

    Returns
    -------
    ndarray of int, shape (m, n_classes)

    Examples
    --------
    >>> vote_counts([[1, 0, 1], [0, 0, 1]], 2)
    array([[1, 2],
           [2, 1]])
    >>> vote_counts([[1, 0, 1]], 2, k=1)
    array([[0, 1]])
    """
    L = np.asarray(neighbor_labels)
    if L.ndim != 2 or not np.issubdtype(L.dtype, np.integer):
        raise ValueError(f"neighbor_labels must be a 2-D integer array, got dtype {L.dtype} and "
                         f"shape {L.shape}")
    n_classes = check_int(n_classes, "n_classes", low=1)
    if L.size and (L.min() < 0 or L.max() >= n_classes):
        raise ValueError(f"neighbor_labels must hold codes 0..{n_classes - 1}, got values in "
                         f"[{L.min()}, {L.max()}]")
    k = L.shape[1] if k is None else _check_k(k, L.shape[1])
    L = L[:, :k]
    return np.stack([np.count_nonzero(L == c, axis=1) for c in range(n_classes)], axis=1)


class _KNNBase:
    def __init__(self, k=5, metric=None):
        self.k = k
        self.metric = metric

    def _fit_X(self, X):
        X = check_points(X, "X")
        self.k_ = _check_k(self.k, X.shape[0])
        self.metric_ = _check_metric(self.metric)
        self.X_ = X
        self.n_features_in_ = X.shape[1]

    def kneighbors(self, X):
        """Distances and indices of the ``k`` nearest training points of each row of ``X``.

        Raises
        ------
        NotFittedError
            Before ``fit`` (a ValueError, as every genviz estimator's).
        """
        check_fitted(self, "X_")
        X = check_points(X, "X", d=self.n_features_in_)
        return kneighbors(X, self.X_, self.k_, self.metric_)


class KNNClassifier(_KNNBase):
    """k-nearest-neighbour majority vote (Algorithm 1.2 of the notes).

    Parameters
    ----------
    k : int, default 5
        Number of neighbours (1 <= k <= n at fit time).
    metric : callable, optional
        ``metric(x_i, x) -> float``; None means Euclidean (vectorised).

    Attributes
    ----------
    classes_ : ndarray, the sorted class labels.
    X_ : ndarray (n, d), the training points; y_codes_ : their class codes.
    k_ : int, the validated k.

    Notes
    -----
    Equal distances: lower training index first. Equal votes: the smallest label in
    ``classes_``. ``predict_proba`` is the fraction of the k votes per class.

    Examples
    --------
    >>> clf = KNNClassifier(k=3).fit([[0.0], [1.0], [2.0], [10.0]], ["a", "a", "b", "b"])
    >>> clf.predict([[0.5], [9.0]])
    array(['a', 'b'], dtype='<U1')
    >>> clf.predict_proba([[9.0]])
    array([[0.33333333, 0.66666667]])
    """

    def fit(self, X, y):
        """Store the training set; returns self."""
        self._fit_X(X)
        self.classes_, self.y_codes_ = encode_labels(y, self.X_.shape[0], min_classes=1)
        return self

    def vote_counts(self, X) -> np.ndarray:
        """Votes per class (columns in ``classes_`` order) among the k neighbours."""
        _, ind = self.kneighbors(X)
        return vote_counts(self.y_codes_[ind], len(self.classes_))

    def predict_log_proba(self, X) -> np.ndarray:
        """Log vote fractions, normalised with logsumexp (-inf for classes with no vote)."""
        with np.errstate(divide="ignore"):
            logc = np.log(self.vote_counts(X).astype(float))
        return logc - logsumexp(logc, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """Fraction of the k votes per class, ``exp(predict_log_proba)``."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        """Majority label; equal votes go to the smallest label."""
        counts = self.vote_counts(X)  # checks fitted first
        return self.classes_[np.argmax(counts, axis=1)]


class KNNRegressor(_KNNBase):
    """k-nearest-neighbour regression: the average of the neighbours' ``y`` (notes, Fig. 1.19).

    Parameters and tie rule as :class:`KNNClassifier`.

    Examples
    --------
    >>> reg = KNNRegressor(k=2).fit([[0.0], [1.0], [5.0]], [0.0, 2.0, 10.0])
    >>> reg.predict([[0.2], [4.0]])
    array([1., 6.])
    """

    def fit(self, X, y):
        """Store the training set; returns self."""
        self._fit_X(X)
        y = check_array(y, "y")
        if y.ndim not in (1, 2) or y.shape[0] != self.X_.shape[0]:
            n = y.shape[0] if y.ndim else "a single"
            raise ValueError(f"y has {n} value(s) (shape {y.shape}) but X has "
                             f"{self.X_.shape[0]} rows; give one target (or row of targets) per "
                             f"row of X")
        self.y_ = y
        return self

    def predict(self, X) -> np.ndarray:
        """Average of the ``y_i`` of the k nearest neighbours."""
        _, ind = self.kneighbors(X)
        return self.y_[ind].mean(axis=1)


class SortedNeighbors:
    """Neighbour indices of fixed queries, sorted once, reused for every k and labelling.

    What an explorer needs: the distances from a grid to the training points change only when
    the points move; moving the k slider or flipping labels only re-reads ``ind``.

    Parameters
    ----------
    X_query, X_train : array_like
    k_max : int
        Largest k that will be asked for.

    Attributes
    ----------
    ind : ndarray of int (m, k_max); dist : ndarray (m, k_max).

    Examples
    --------
    >>> nb = SortedNeighbors([[0.0], [10.0]], [[1.0], [2.0], [9.0]], k_max=3)
    >>> nb.counts([0, 1, 1], 2, k=1)
    array([[1, 0],
           [0, 1]])
    >>> nb.mean([1.0, 2.0, 3.0], k=2)
    array([1.5, 2.5])
    """

    def __init__(self, X_query, X_train, k_max):
        self.dist, self.ind = kneighbors(X_query, X_train, k_max)
        self.k_max = self.ind.shape[1]

    def counts(self, y_codes, n_classes, k) -> np.ndarray:
        """Votes per class code among the first k neighbours of each query."""
        y_codes = np.asarray(y_codes)
        return vote_counts(y_codes[self.ind[:, :_check_k(k, self.k_max)]], n_classes)

    def mean(self, y, k) -> np.ndarray:
        """Average of ``y`` over the first k neighbours (k-NN regression)."""
        y = check_array(y, "y", ndim=1)
        return y[self.ind[:, :_check_k(k, self.k_max)]].mean(axis=1)


def flip_labels(y_codes, fraction, n_classes, rng) -> tuple[np.ndarray, np.ndarray]:
    """Label noise: change the class of ``round(fraction * n)`` seeded, randomly chosen points.

    With the same seed the flipped sets are nested (raising ``fraction`` adds points), because the
    order in which points are flipped is one seeded permutation.

    Parameters
    ----------
    y_codes : array_like of int, shape (n,)
    fraction : float in [0, 1]
    n_classes : int >= 2
    rng : numpy Generator or int seed

    Returns
    -------
    y_noisy : ndarray of int, shape (n,)
    flipped : ndarray of bool, shape (n,)

    Examples
    --------
    >>> y, flipped = flip_labels([0, 0, 1, 1], 0.5, 2, rng=0)
    >>> int(flipped.sum()), int((y != [0, 0, 1, 1]).sum())
    (2, 2)
    """
    y = np.asarray(y_codes)
    if y.ndim != 1 or not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"y_codes must be a 1-D integer array, got dtype {y.dtype}, shape {y.shape}")
    fraction = check_scalar(fraction, "fraction", low=0.0, high=1.0)
    n_classes = check_int(n_classes, "n_classes", low=2)
    rng = check_rng(rng)
    order = rng.permutation(y.shape[0])
    shift = rng.integers(1, n_classes, size=y.shape[0])
    flipped = np.zeros(y.shape[0], dtype=bool)
    flipped[order[:int(round(fraction * y.shape[0]))]] = True
    return np.where(flipped, (y + shift) % n_classes, y), flipped


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
    ndarray, shape (d, n_features)
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


def _condensed_sq(X):
    """Squared distances of all pairs i < j (scipy's condensed order)."""
    return pdist(X, "sqeuclidean")


def distance_ratios(X, X_projected) -> np.ndarray:
    """``|R x_i - R x_j| / |x_i - x_j|`` for every pair ``i < j`` with distinct points.

    Parameters
    ----------
    X : array_like, shape (m, n)
    X_projected : array_like, shape (m, d)

    Returns
    -------
    ndarray, shape (number of pairs with ``x_i != x_j``,)

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
    dx, dy = _condensed_sq(X), _condensed_sq(Y)
    keep = dx > 1e-12 * max(float(dx.max()), 1e-300)
    return np.sqrt(dy[keep] / dx[keep])


def distortion_stats(ratios, eps=None) -> dict:
    """Summary of distance ratios: mean, std, min, max, and the worst distortion.

    Parameters
    ----------
    ratios : array_like, shape (p,)
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


_CLASS_CENTRES = (((-1.5, 1.0), (1.0, -1.5)), ((1.2, 1.2), (-1.0, -1.6), (-1.8, -0.4)))


def two_class_data(n, rng):
    """Two classes in the plane, each a mixture of Gaussian blobs (a curved true boundary).

    Class 0 has blobs at (-1.5, 1) and (1, -1.5), class 1 at (1.2, 1.2), (-1, -1.6) and
    (-1.8, -0.4), each with covariance 0.45 I; labels alternate so the classes have n/2 points.

    Returns
    -------
    X : ndarray (n, 2); y : ndarray of int (n,)

    Examples
    --------
    >>> X, y = two_class_data(6, rng=0)
    >>> X.shape, y.tolist()
    ((6, 2), [0, 1, 0, 1, 0, 1])
    """
    n = check_int(n, "n", low=2)
    rng = check_rng(rng)
    y = np.arange(n) % 2
    X = np.empty((n, 2))
    for c, centres in enumerate(_CLASS_CENTRES):
        idx = np.flatnonzero(y == c)
        blob = rng.integers(0, len(centres), size=idx.size)
        X[idx] = np.asarray(centres)[blob] + np.sqrt(0.45) * rng.standard_normal((idx.size, 2))
    return X, y


def regression_data(n, rng, *, noise=0.3):
    """Points (x, y) from a joint distribution as in the notes' Figure 1.19.

    ``x ~ Uniform(0, 10)``, ``y = sin(x) + x/5 + noise * N(0, 1)``.

    Returns
    -------
    x : ndarray (n,), sorted; y : ndarray (n,)

    Examples
    --------
    >>> x, y = regression_data(5, rng=0)
    >>> bool(np.all(np.diff(x) >= 0)), y.shape
    (True, (5,))
    """
    n = check_int(n, "n", low=1)
    noise = check_scalar(noise, "noise", low=0.0)
    rng = check_rng(rng)
    x = np.sort(rng.uniform(0.0, 10.0, size=n))
    return x, regression_truth(x) + noise * rng.standard_normal(n)


def regression_truth(x):
    """The mean of y given x in :func:`regression_data`: ``sin(x) + x/5``."""
    x = check_array(x, "x")
    return np.sin(x) + x / 5.0

