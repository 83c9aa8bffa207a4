"""What the k-nearest-neighbour and random-projection figures show (notebook 09), computed:
Figure 1.18 live with label noise and a query (:class:`KNNClassificationStudy`, re-labelling
with :class:`LabelNoise`), Figure 1.19 live (:class:`KNNRegressionStudy`) and Smola's
three-class Figure 1.17 (:func:`three_class_nn_figure_study`); random projections are in
:mod:`genviz.studies.knn_projection`. Each live study sorts its neighbours once
(:class:`genviz.knn.SortedNeighbors`); a slider only re-reads them. :mod:`genviz.plots.knn`
paints these results."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_labels, check_points, check_scalar, check_vector
from genviz.grids import data_box, grid_2d
from genviz.knn import (SortedNeighbors, kneighbors, majority_vote, nearest_neighbor_predict,
                        vote_counts, votes_at_k)
from genviz.studies._base import Result, Study
from genviz.synthetic import flip_labels, regression_truth

__all__ = ["LabelNoise", "KNNClassificationStatic", "KNNClassificationResult",
           "KNNClassificationStudy", "KNNRegressionStatic", "KNNRegressionResult",
           "KNNRegressionStudy", "ThreeClassNNResult", "three_class_nn_figure_study"]


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


def _check_k(k, k_max) -> int:
    k = check_int(k, "k", low=1)
    if k > k_max:
        raise ValueError(f"k = {k} exceeds k_max = {k_max} of this view")
    return k


# -- Figure 1.18: classification, label noise, a query --------------------------------------------
class KNNClassificationStatic(Result):
    """What the classification view draws once.

    Attributes
    ----------
    X : ndarray of shape (n, 2)
        The training points.
    lim : float
        The window ``[-lim, lim]^2``.
    n_grid : int
        Grid nodes per axis of the region images.
    k_max : int
    """

    X: np.ndarray
    lim: float
    n_grid: int
    k_max: int


class KNNClassificationResult(Result):
    """k-NN classification of the grid, the training and test points and a query, with
    noisy training labels.

    Attributes
    ----------
    k : int
    noise : float
        Fraction of flipped training labels.
    n_flipped : int
    labels : ndarray of shape (n,), dtype=int
        The noisy training labels.
    flipped : ndarray of shape (n,), dtype=bool
    votes : ndarray of shape (n_grid, n_grid), dtype=int
        Class-1 votes among the k neighbours of every grid node.
    vote_share : ndarray of shape (n_grid, n_grid)
        ``votes / k``.
    majority : ndarray of shape (n_grid, n_grid), dtype=int
        The k-NN class (equal votes: class 0).
    one_nn : ndarray of shape (n_grid, n_grid), dtype=int
        The 1-NN class.
    class_points : tuple of two ndarrays of shape (n_c, 2)
        The training points by noisy label, class 0 then 1.
    flipped_points : ndarray of shape (n_flipped, 2)
    train_error : float
        k-NN's error on the noisy training labels.
    test_accuracy : float
        k-NN's accuracy on the test set (NaN without one).
    test_accuracy_1nn : float
        1-NN's (NaN without a test set).
    has_test_set : bool
    query : ndarray of shape (2,)
    query_neighbors : ndarray of shape (k,), dtype=int
        Indices of its k nearest training points, nearest first.
    neighbor_points : ndarray of shape (k, 2)
        Those points.
    query_votes : ndarray of shape (2,), dtype=int
        Their votes per class.
    query_class : int
    query_radius : float
        Distance to the k-th neighbour.
    circle : tuple of two ndarrays of shape (100,)
        The circle of that radius around the query (x, y).
    """

    k: int
    noise: float
    n_flipped: int
    labels: np.ndarray
    flipped: np.ndarray
    votes: np.ndarray
    vote_share: np.ndarray
    majority: np.ndarray
    one_nn: np.ndarray
    class_points: tuple
    flipped_points: np.ndarray
    train_error: float
    test_accuracy: float
    test_accuracy_1nn: float
    has_test_set: bool
    query: np.ndarray
    query_neighbors: np.ndarray
    neighbor_points: np.ndarray
    query_votes: np.ndarray
    query_class: int
    query_radius: float
    circle: tuple


class KNNClassificationStudy(Study):
    """Figure 1.18 at any k, label noise and query point (see
    :class:`genviz.plots.knn.KNNClassificationView` for the parameters).

    The grid's, the training set's and the test set's neighbours are sorted once up to
    ``k_max``; k picks a prefix, label noise re-labels the same neighbours (nested flips,
    :class:`LabelNoise`).

    Examples
    --------
    >>> X = [[-1.0, 0.0], [-1.2, 0.3], [1.0, 0.0], [1.1, -0.2]]
    >>> r = KNNClassificationStudy(X, [0, 0, 1, 1], k_max=3, n_grid=5)(k=1, qx=0.9, qy=0.0)
    >>> r.query_class, r.query_neighbors.tolist(), r.train_error
    (1, [2], 0.0)
    """

    def __init__(self, X, y, X_test=None, y_test=None, *, k_max=31, lim=4.0, n_grid=121,
                 noise_seed=0):
        self.X = check_points(X, "X", d=2)
        self.y = check_labels(y, self.X.shape[0], binary=True).astype(np.intp)
        self.k_max = check_int(k_max, "k_max", low=1, high=self.X.shape[0])
        self.lim = check_scalar(lim, "lim", low=0.0, low_open=True)
        self.noise_seed = check_int(noise_seed, "noise_seed", low=0)
        self.n_grid = check_int(n_grid, "n_grid", low=3)
        grid = grid_2d(self.lim, self.n_grid)
        self._grid_nb = SortedNeighbors(grid.points, self.X, self.k_max)  # the one expensive step
        self._test_nb = None
        if X_test is not None:
            Xt = check_points(X_test, "X_test", d=2)
            self.y_test = np.asarray(y_test)
            if self.y_test.shape != (Xt.shape[0],):
                raise ValueError(f"y_test must have one label per row of X_test, got shape "
                                 f"{self.y_test.shape}")
            self._test_nb = SortedNeighbors(Xt, self.X, self.k_max)
        self._train_nb = SortedNeighbors(self.X, self.X, self.k_max)
        self._noise = LabelNoise(self.y, 2, self.noise_seed)  # nested flips, each level once
        self._theta = np.linspace(0, 2 * np.pi, 100)

    def static(self) -> KNNClassificationStatic:
        return KNNClassificationStatic(self.X, self.lim, self.n_grid, self.k_max)

    def labels(self, noise):
        """Noisy training labels and the flipped mask for a noise level (cached)."""
        return self._noise(noise)

    def __call__(self, *, k=7, noise=0.0, qx=0.0, qy=0.0) -> KNNClassificationResult:
        k = _check_k(k, self.k_max)
        noise = check_scalar(noise, "noise", low=0.0, high=1.0)
        q = np.array([check_scalar(qx, "qx"), check_scalar(qy, "qy")])
        labels, flipped = self.labels(noise)
        shape = (self.n_grid, self.n_grid)
        nb = self._grid_nb
        grid_votes = votes_at_k(nb, labels, 2, k)  # equal votes -> class 0 (the smaller label)
        votes, majority = grid_votes.counts[:, 1], grid_votes.prediction
        one_nn = labels[nb.ind[:, 0]]
        dist, ind = kneighbors(q[None, :], self.X, k)
        qv = vote_counts(labels[ind], 2)[0]
        radius = float(dist[0, -1])
        train_pred = votes_at_k(self._train_nb, labels, 2, k).prediction
        acc, acc1 = float("nan"), float("nan")
        if self._test_nb is not None:
            pk = votes_at_k(self._test_nb, labels, 2, k).prediction
            acc = float(np.mean(pk == self.y_test))
            acc1 = float(np.mean(labels[self._test_nb.ind[:, 0]] == self.y_test))
        return KNNClassificationResult(
            k=k, noise=noise, n_flipped=int(flipped.sum()), labels=labels, flipped=flipped,
            votes=votes.reshape(shape), vote_share=(votes / k).reshape(shape),
            majority=majority.reshape(shape), one_nn=one_nn.reshape(shape),
            class_points=tuple(self.X[labels == c] for c in (0, 1)),
            flipped_points=self.X[flipped], train_error=float(np.mean(train_pred != labels)),
            test_accuracy=acc, test_accuracy_1nn=acc1, has_test_set=self._test_nb is not None,
            query=q, query_neighbors=ind[0], neighbor_points=self.X[ind[0]], query_votes=qv,
            query_class=int(majority_vote(qv[None, :])[0]), query_radius=radius,
            circle=(q[0] + radius * np.cos(self._theta), q[1] + radius * np.sin(self._theta)))


# -- Figure 1.19: regression ----------------------------------------------------------------------
class KNNRegressionStatic(Result):
    """What the regression view draws once.

    Attributes
    ----------
    x : ndarray of shape (n,)
    y : ndarray of shape (n,)
    x_grid : ndarray of shape (n_grid,)
        The data's range plus 2 % each side.
    truth : ndarray of shape (n_grid,) or None
        The true mean ``E[y | x]`` on the grid (None when not drawn).
    fit_1 : ndarray of shape (n_grid,)
        The 1-NN estimate.
    """

    x: np.ndarray
    y: np.ndarray
    x_grid: np.ndarray
    truth: object
    fit_1: np.ndarray


class KNNRegressionResult(Result):
    """The k-NN average at one k, and both estimates' errors.

    Attributes
    ----------
    k : int
    x_grid : ndarray of shape (n_grid,)
    fit_1 : ndarray of shape (n_grid,)
        The 1-NN estimate.
    fit_k : ndarray of shape (n_grid,)
        The average of the k nearest neighbours' y.
    mse_1 : float
        Mean squared error of ``fit_1`` against the true mean on the grid (NaN without it).
    mse_k : float
        The same for ``fit_k``.
    has_truth : bool
    """

    k: int
    x_grid: np.ndarray
    fit_1: np.ndarray
    fit_k: np.ndarray
    mse_1: float
    mse_k: float
    has_truth: bool


class KNNRegressionStudy(Study):
    """Figure 1.19 at any k: the k-NN average of ``y`` on a grid over ``x`` and its error
    against the true mean (:func:`genviz.synthetic.regression_truth`, with ``truth=True``).

    Examples
    --------
    >>> s = KNNRegressionStudy([0.0, 1.0, 2.0], [0.0, 3.0, 6.0], k_max=3, n_grid=3, truth=False)
    >>> s(k=3).fit_k.tolist()
    [3.0, 3.0, 3.0]
    """

    def __init__(self, x, y, *, k_max=40, n_grid=600, truth=True):
        self.x = check_vector(x, "x")
        self.y = check_vector(y, "y", d=self.x.shape[0])
        self.k_max = check_int(k_max, "k_max", low=1, high=self.x.shape[0])
        lo, hi = float(self.x.min()), float(self.x.max())
        pad = 0.02 * (hi - lo) if hi > lo else 1.0
        self.x_grid = np.linspace(lo - pad, hi + pad, check_int(n_grid, "n_grid", low=2))
        self._nb = SortedNeighbors(self.x_grid[:, None], self.x[:, None], self.k_max)
        self._truth = regression_truth(self.x_grid) if truth else None
        self._fit1 = self._nb.mean(self.y, 1)

    def static(self) -> KNNRegressionStatic:
        return KNNRegressionStatic(self.x, self.y, self.x_grid, self._truth, self._fit1)

    def _mse(self, f) -> float:
        return float(np.mean((f - self._truth) ** 2)) if self._truth is not None else float("nan")

    def __call__(self, *, k=7) -> KNNRegressionResult:
        k = _check_k(k, self.k_max)
        fit = self._nb.mean(self.y, k)
        return KNNRegressionResult(k, self.x_grid, self._fit1, fit, self._mse(self._fit1),
                                   self._mse(fit), self._truth is not None)


# -- Smola's Figure 1.17 --------------------------------------------------------------------------
class ThreeClassNNResult(Result):
    """Result of :func:`three_class_nn_figure_study`.

    Attributes
    ----------
    labels : ndarray of shape (n_classes,)
        The classes in order of first appearance.
    names : list
        Their display names.
    markers : list of str
        Their markers.
    box : tuple of float
        The window ``(x0, x1, y0, y1)``.
    xs : ndarray of shape (n_grid,)
        The grid along x1; ``ys`` along x2.
    ys : ndarray of shape (n_grid,)
    region : ndarray of shape (n_grid, n_grid), dtype=int
        The class index (into ``labels``) of every node's nearest training point.
    region_levels : ndarray of shape (n_classes,)
        Contour levels between the class indices.
    class_points : tuple of ndarrays of shape (n_c, 2)
        The training points of each class.
    query : ndarray of shape (1, 2)
    neighbour_point : ndarray of shape (2,)
        The query's nearest training point.
    neighbour_name : object
        Its class's display name.
    nn_state : dict
        ``neighbour`` (index), ``distance`` and ``label`` (``fig.nn_state``).
    """

    labels: np.ndarray
    names: list
    markers: list
    box: tuple
    xs: np.ndarray
    ys: np.ndarray
    region: np.ndarray
    region_levels: np.ndarray
    class_points: tuple
    query: np.ndarray
    neighbour_point: np.ndarray
    neighbour_name: object
    nn_state: dict


def _item(v):
    return v.item() if hasattr(v, "item") else v


def three_class_nn_figure_study(X, y, query, *, markers=("*", "D", "^"), names=None, box=None,
                                n_grid=300) -> ThreeClassNNResult:
    """1-NN regions of a three-class training set and the query's nearest neighbour (see
    :func:`genviz.plots.knn.three_class_nn_figure`).

    Examples
    --------
    >>> r = three_class_nn_figure_study([[0, 0], [2, 0], [1, 2]], ["a", "b", "c"], [1.9, 0.1])
    >>> r.nn_state["label"], str(r.neighbour_name)
    ('b', 'b')
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    q = np.asarray(query, dtype=float).reshape(1, -1)
    if X.ndim != 2 or X.shape[1] != 2 or q.shape[1] != 2:
        raise ValueError(f"X must be (n, 2) and query a 2-vector, got {X.shape} and {q.shape}")
    first = np.unique(y, return_index=True)[1]
    labels = y[np.sort(first)]            # classes in order of first appearance: markers[i]
    if labels.size > len(markers):
        raise ValueError(f"{labels.size} classes but only {len(markers)} markers")
    names = list(labels) if names is None else list(names)
    grid = grid_2d(data_box(X, pad=1.0) if box is None else box, n_grid)
    code = {lab: i for i, lab in enumerate(labels.tolist())}
    predicted = nearest_neighbor_predict(X, y, grid.points, 1)[0]
    region = grid.reshape(np.array([code[v] for v in predicted.tolist()]))
    _, dist, ind = nearest_neighbor_predict(X, y, q, 1)
    j = int(ind[0, 0])
    return ThreeClassNNResult(
        labels, names, list(markers[:labels.size]), grid.extent, grid.xs, grid.ys, region,
        np.arange(labels.size) + 0.5, tuple(X[y == lab] for lab in labels), q, X[j],
        names[code[_item(y[j])]], dict(neighbour=j, distance=float(dist[0, 0]), label=_item(y[j])))
