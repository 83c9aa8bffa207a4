"""k-nearest neighbours: search, classification and regression (Smola & Vishwanathan, section 1.3.2).

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

Random projections (:mod:`genviz.projections`) and the k-NN figures' data generators
(:mod:`genviz.synthetic`) moved out; their old names here still resolve, deprecated.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import logsumexp

from genviz._estimator import BaseEstimator, ClassifierMixin, RegressorMixin
from genviz._moved import moved_names
from genviz._validation import check_array, check_features, check_int, check_points, check_targets
from genviz._validation import encode_labels

__all__ = ["pairwise_distances", "kneighbors", "vote_counts", "KNNClassifier", "KNNRegressor",
           "SortedNeighbors"]

__getattr__ = moved_names(__name__)  # deprecated aliases (genviz._moved.MOVED), until REMOVED_IN

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
    X_query : array_like of shape (m, n_features)
    X_train : array_like of shape (n, n_features)
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
    X_query : array_like of shape (m, n_features)
    X_train : array_like of shape (n, n_features)
    k : int
        1 <= k <= n.
    metric : callable, optional
        As in :func:`pairwise_distances`.

    Returns
    -------
    dist : ndarray of shape (m, k)
        Distances, increasing along each row.
    ind : ndarray of shape (m, k), dtype=int
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
        raise ValueError(f"k = {k} exceeds the number of training points (n_samples = {n}); "
                         f"choose 1 <= k <= {n}")
    return k


def vote_counts(neighbor_labels, n_classes, k=None) -> np.ndarray:
    """How many of the first ``k`` neighbours carry each class code.

    Parameters
    ----------
    neighbor_labels : array_like of shape (m, k_max), dtype=int
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


class _KNNBase(BaseEstimator):
    def __init__(self, k=5, metric=None):
        self.k = k
        self.metric = metric

    def _validate_params(self):
        check_int(self.k, "k", low=1)
        return _check_metric(self.metric)

    def _fit_X(self, X):
        self.metric_ = self._validate_params()
        self.X_ = X = check_points(X, "X")
        self.k_ = _check_k(self.k, X.shape[0])
        self.n_features_in_ = X.shape[1]

    def kneighbors(self, X):
        """Distances and indices of the ``k`` nearest training points of each row of ``X``.

        Raises
        ------
        NotFittedError
            Before ``fit`` (a ValueError, as every genviz estimator's).
        """
        X = check_features(self, X)
        return kneighbors(X, self.X_, self.k_, self.metric_)


class KNNClassifier(ClassifierMixin, _KNNBase):
    """k-nearest-neighbour majority vote (Algorithm 1.2 of the notes).

    Parameters
    ----------
    k : int, default 5
        Number of neighbours (1 <= k <= n at fit time).
    metric : callable, optional
        ``metric(x_i, x) -> float``; None means Euclidean (vectorised).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The sorted class labels.
    X_ : ndarray of shape (n, d)
        The training points.
    y_codes_ : ndarray of shape (n,), dtype=int
        Their class codes (indices into ``classes_``).
    k_ : int
        The validated k.

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


class KNNRegressor(RegressorMixin, _KNNBase):
    """k-nearest-neighbour regression: the average of the neighbours' ``y`` (notes, Fig. 1.19).

    Parameters and tie rule as :class:`KNNClassifier`; a 2-D ``y`` averages each column.

    Examples
    --------
    >>> reg = KNNRegressor(k=2).fit([[0.0], [1.0], [5.0]], [0.0, 2.0, 10.0])
    >>> reg.predict([[0.2], [4.0]])
    array([1., 6.])
    """

    _tags = {"target_tags.multi_output": True}

    def fit(self, X, y):
        """Store the training set; returns self."""
        self._fit_X(X)
        self.y_ = check_targets(y, self.X_.shape[0], "y")
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
    ind : ndarray of shape (m, k_max), dtype=int
        Neighbour indices of each query, nearest first.
    dist : ndarray of shape (m, k_max)
        Their distances.

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


# -- k-NN prediction per k (the explorers' model: neighbours sorted once, any k, any labelling) --
__all__ += ["majority_vote", "KNNVotes", "votes_at_k", "nearest_neighbor_predict"]


def majority_vote(counts) -> np.ndarray:
    """The class code with the most votes in each row of ``counts``; equal votes go to the
    smallest code (as :meth:`KNNClassifier.predict` and scikit-learn's
    ``KNeighborsClassifier``).

    Examples
    --------
    >>> majority_vote([[1, 2], [2, 1], [1, 1]])
    array([1, 0, 0])
    """
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.shape[1] < 1 or not np.issubdtype(counts.dtype, np.integer):
        raise ValueError(f"counts must be a 2-D integer array (m, n_classes), got dtype "
                         f"{counts.dtype} and shape {counts.shape}")
    return np.argmax(counts, axis=1)


class KNNVotes(NamedTuple):
    """Result of :func:`votes_at_k`."""

    counts: np.ndarray  #: (m, n_classes) votes per class among the k neighbours
    prediction: np.ndarray  #: (m,) majority class code (ties: the smallest code)


def votes_at_k(neighbors, y_codes, n_classes, k) -> KNNVotes:
    """k-NN classification of the queries of ``neighbors`` (a :class:`SortedNeighbors`) for one
    k and one labelling of the training points: the vote counts and the majority.

    Examples
    --------
    >>> nb = SortedNeighbors([[0.0], [10.0]], [[1.0], [2.0], [9.0]], k_max=3)
    >>> v = votes_at_k(nb, [0, 1, 1], 2, 3)
    >>> v.counts.tolist(), v.prediction.tolist()
    ([[1, 2], [1, 2]], [1, 1])
    """
    if not isinstance(neighbors, SortedNeighbors):
        raise TypeError(f"neighbors must be a SortedNeighbors, got {type(neighbors).__name__}")
    counts = neighbors.counts(y_codes, n_classes, k)
    return KNNVotes(counts, majority_vote(counts))


def nearest_neighbor_predict(X_train, y_train, X_query, k=1):
    """Labels of ``X_query`` by the k-NN majority vote of ``(X_train, y_train)``
    (:class:`KNNClassifier`), with each query's neighbours.

    Returns
    -------
    labels : ndarray of shape (m,)
    dist, ind : ndarray of shape (m, k)
        Distances and indices of the neighbours, nearest first.

    Examples
    --------
    >>> labels, dist, ind = nearest_neighbor_predict([[0.0], [4.0]], ["a", "b"], [[1.0], [3.5]])
    >>> labels.tolist(), ind[:, 0].tolist()
    (['a', 'b'], [0, 1])
    """
    clf = KNNClassifier(k).fit(X_train, y_train)
    dist, ind = clf.kneighbors(X_query)
    return clf.predict(X_query), dist, ind
