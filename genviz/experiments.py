"""Experiments that fit models to generated data: GDA against logistic regression.

:func:`learning_curves` runs the Ng & Jordan (2001) experiment that CS229 quotes: test error
against training-set size for GDA (shared covariance) and logistic regression, averaged over
repetitions, on any :class:`genviz.synthetic.DataModel`; :func:`crossing_size` reads off the size
from which logistic regression is clearly better. :func:`nb_vs_gda` fits Gaussian naive Bayes and
GDA to correlated classes (notebook 08: what the independence assumption costs);
:func:`discretization` cuts a continuous feature into bins and compares naive Bayes on the bin
index with Gaussian naive Bayes (notebook 08, CS229's living areas). The data
themselves come from :mod:`genviz.synthetic`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_rng, check_scalar, check_vector
from genviz.gda import GDA
from genviz.logistic import LogisticRegression
from genviz.naive_bayes import CategoricalNB, GaussianNB, discretize
from genviz.synthetic import DataModel, correlated_classes

__all__ = ["LearningCurves", "learning_curves", "crossing_size", "NBvsGDA", "nb_vs_gda",
           "bin_edges", "data_window", "Discretization", "discretization"]


class LearningCurves(NamedTuple):
    """Result of :func:`learning_curves`.

    Attributes
    ----------
    sizes : ndarray of shape (n_sizes,), dtype=int
        Training-set sizes.
    gda_errors : ndarray of shape (n_reps, n_sizes)
        Test error of GDA per repetition and size.
    lr_errors : ndarray of shape (n_reps, n_sizes)
        Test error of logistic regression likewise.
    bayes_error : float
        Error of the Bayes-optimal classifier.
    n_test : int
        Size of the test set (unused when the errors are exact).
    """

    sizes: np.ndarray
    gda_errors: np.ndarray
    lr_errors: np.ndarray
    bayes_error: float
    n_test: int

    @property
    def generative_errors(self) -> np.ndarray:
        """The generative learner's errors (GDA): what :func:`crossing_size` compares with
        ``lr_errors``."""
        return self.gda_errors

    def mean_se(self, which: str):
        """(mean, standard error) over repetitions of ``"gda"`` or ``"lr"`` errors."""
        e = {"gda": self.gda_errors, "lr": self.lr_errors}[which]
        return e.mean(axis=0), e.std(axis=0, ddof=1) / np.sqrt(e.shape[0])


def _valid_training_set(model, n, gen):
    """Draw until each class has at least two points (a GDA needs a covariance per class)."""
    for _ in range(1000):
        X, y = model.sample(n, gen)
        if min(y.sum(), n - y.sum()) >= 2:
            return X, y
    raise ValueError(f"could not draw {n} points with both classes present; raise n or move "
                     f"phi away from 0 and 1")


def learning_curves(model: DataModel, sizes, n_reps: int, rng, *, n_test: int = 20000,
                    l2: float = 1e-3, progress=None) -> LearningCurves:
    """Test error against training-set size for GDA (shared Sigma) and logistic regression.

    For each repetition one training sequence of ``max(sizes)`` points is drawn and its first
    ``n`` points used for each size (nested sets, as when data arrive over time); both learners
    are scored by their exact error rate when the family allows it (``gaussian`` and ``poisson``
    in 2-D: :meth:`DataModel.linear_error`), else on one test set of ``n_test`` points (both
    learners are linear, so the test set is scored by one matrix product). Logistic regression carries a tiny ridge
    ``l2`` because small samples are often linearly separable (no unregularised MLE).

    Parameters
    ----------
    model : DataModel
    sizes : sequence of int
        Training-set sizes (each >= 4), increasing.
    n_reps : int
        Repetitions to average over (>= 2, for error bars).
    rng : numpy.random.Generator or int
    n_test : int
        Size of the test set.
    l2 : float
        Logistic regression's ridge (scikit-learn's ``C = 1 / l2``).
    progress : callable(done, total), optional
        Called after each repetition (e.g. to advance a progress bar).

    Returns
    -------
    LearningCurves

    Examples
    --------
    >>> m = DataModel("gaussian", [0.0, 0.0], [1.0, 1.0], [[1.0, 0.0], [0.0, 1.0]])
    >>> lc = learning_curves(m, [10, 100], n_reps=3, rng=0, n_test=1000)
    >>> lc.gda_errors.shape
    (3, 2)
    """
    if not isinstance(model, DataModel):
        raise TypeError(f"model must be a DataModel, got {type(model).__name__}")
    sizes = np.asarray(sizes)
    if sizes.ndim != 1 or sizes.size == 0 or sizes.dtype.kind not in "iu":
        raise ValueError(f"sizes must be a non-empty 1-D sequence of integers, got {sizes!r}")
    if sizes.min() < 4 or np.any(np.diff(sizes) <= 0):
        raise ValueError(f"sizes must be increasing and each >= 4, got {sizes.tolist()}")
    n_reps = check_int(n_reps, "n_reps", low=2)
    n_test = check_int(n_test, "n_test", low=1)
    gen = check_rng(rng)
    X_test, y_test = model.sample(n_test, gen)
    exact = model.linear_bayes() is not None and model.d == 2

    def error(theta, theta0):
        if exact:
            return model.linear_error(theta, theta0)
        return float(np.mean(((X_test @ theta + theta0) > 0) != y_test))

    bayes = error(*model.linear_bayes()) if exact else \
        float(np.mean((model.log_odds(X_test) > 0) != y_test))
    gda_err = np.empty((n_reps, sizes.size))
    lr_err = np.empty((n_reps, sizes.size))
    for r in range(n_reps):
        X, y = model.sample(int(sizes[-1]), gen)
        lr = LogisticRegression(l2=l2, warm_start=True)  # each size starts from the last fit
        for j, n in enumerate(sizes):
            Xn, yn = X[:n], y[:n]
            if min(yn.sum(), n - yn.sum()) < 2:  # rare at tiny n: redraw this prefix
                Xn, yn = _valid_training_set(model, int(n), gen)
            gda_err[r, j] = error(*GDA().fit(Xn, yn).logistic_params())
            lr.fit(Xn, yn)
            lr_err[r, j] = error(lr.coef_, lr.intercept_)
        if progress is not None:
            progress(r + 1, n_reps)
    return LearningCurves(sizes, gda_err, lr_err, bayes, n_test)


def crossing_size(curves, z: float = 2.0):
    """The smallest size from which logistic regression is clearly better than the generative
    learner (GDA in :class:`LearningCurves`, naive Bayes in
    :class:`genviz.nb_vs_logistic.NBvsLogisticCurves`: their ``generative_errors``).

    "Clearly better" at a size: the mean over repetitions of the paired difference
    ``generative_error - lr_error`` exceeds ``z`` standard errors (at a size fitted once, where
    the standard error is 0, any positive difference). Returns the smallest size from which
    this holds at every larger size too, or None when it does not hold at the largest size
    (for example on Gaussian data, where both converge to the same boundary).

    Examples
    --------
    >>> g = np.array([[.20, .10, .10], [.22, .11, .10], [.21, .10, .11]])
    >>> lc = LearningCurves(np.array([10, 100, 1000]), g, g - [[-.01, .01, .02]], 0.05, 100)
    >>> crossing_size(lc)
    100
    """
    z = check_scalar(z, "z", low=0.0)
    diff = curves.generative_errors - curves.lr_errors
    se = diff.std(axis=0, ddof=1) / np.sqrt(diff.shape[0])
    better = diff.mean(axis=0) > z * se
    if not better[-1]:
        return None
    j = len(better) - 1
    while j > 0 and better[j - 1]:
        j -= 1
    return int(curves.sizes[j])


class NBvsGDA(NamedTuple):
    """Result of :func:`nb_vs_gda`: the data, both fitted models and their test accuracies."""

    rho: float
    X: np.ndarray
    y: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    naive_bayes: object
    gda: object
    accuracy_nb: float
    accuracy_gda: float


def nb_vs_gda(rho, *, sep=1.5, n=120, n_test=1000, seed=0) -> NBvsGDA:
    """Gaussian naive Bayes against GDA (shared Sigma) on :func:`~genviz.synthetic.correlated_classes`.

    ``n`` training and ``n_test`` test points per class are drawn with one generator seeded by
    ``seed`` (training first), so the same seed gives the same standard normals for every
    ``rho`` and the points move continuously.

    Parameters
    ----------
    rho : float
        Correlation of the two features, in (-1, 1).
    sep : float
        Distance between the class means along the first feature.
    n : int
        Training points per class.
    n_test : int
        Test points per class.
    seed : int

    Returns
    -------
    NBvsGDA

    Examples
    --------
    >>> r = nb_vs_gda(0.9, n=200, n_test=2000)
    >>> r.accuracy_gda > r.accuracy_nb   # GDA uses the correlation, naive Bayes cannot
    True
    """
    gen = check_rng(seed)
    X, y = correlated_classes(n, rho, gen, sep=sep)
    Xt, yt = correlated_classes(check_int(n_test, "n_test", low=1), rho, gen, sep=sep)
    nb = GaussianNB().fit(X, y)
    gda = GDA(shared_cov=True).fit(X, y)
    return NBvsGDA(float(rho), X, y, Xt, yt, nb, gda, float(np.mean(nb.predict(Xt) == yt)),
                   float(np.mean(gda.predict(Xt) == yt)))


def bin_edges(low, high, width, origin=0.0) -> np.ndarray:
    """The inner bin edges ``origin + k * width`` strictly inside ``(low, high)``.

    Parameters
    ----------
    low, high : float
        The window, ``low < high``.
    width : float
        Bin width (> 0).
    origin : float
        Any edge of the lattice (only ``origin mod width`` matters).

    Returns
    -------
    ndarray of shape (n_edges,)
        Increasing; ``n_edges + 1`` bins (the outer two are open-ended, as
        :func:`genviz.naive_bayes.discretize` counts them).

    Raises
    ------
    ValueError
        If ``width`` is not positive, the window is empty, or no edge (or more than 400) falls
        inside it.

    Examples
    --------
    >>> bin_edges(0.0, 10.0, 3.0, origin=1.0)
    array([1., 4., 7.])
    """
    low, high = check_scalar(low, "low"), check_scalar(high, "high")
    if not low < high:
        raise ValueError(f"low must be < high, got {low} and {high}")
    width = check_scalar(width, "width", low=0.0, low_open=True)
    origin = check_scalar(origin, "origin")
    first = origin + np.ceil((low - origin) / width) * width
    edges = np.arange(first, high, width)
    edges = edges[(edges > low) & (edges < high)]
    if edges.size == 0:
        raise ValueError(f"width {width:g} is wider than the whole range; make it smaller")
    if edges.size > 400:
        raise ValueError(f"width {width:g} makes {edges.size + 1} bins; make it larger")
    return edges


class Discretization(NamedTuple):
    """Result of :func:`discretization`."""

    edges: np.ndarray
    n_bins: int
    binned: object
    gaussian: object
    accuracy_binned: float
    accuracy_gaussian: float


def data_window(x, margin=0.05) -> tuple:
    """``(min - margin * range, max + margin * range)`` of a 1-D sample: the default window."""
    x = check_vector(x, "x")
    pad = check_scalar(margin, "margin", low=0.0) * np.ptp(x)
    return float(x.min() - pad), float(x.max() + pad)


def discretization(x, y, *, width, origin=0.0, alpha=1.0, lim=None) -> Discretization:
    """Naive Bayes on the bin index of one continuous feature, against Gaussian naive Bayes.

    The feature is cut at :func:`bin_edges` over the window ``lim`` (default
    :func:`data_window`); :class:`~genviz.naive_bayes.CategoricalNB` with Laplace/Lidstone
    ``alpha`` is fitted on the bin indices ``1..n_bins`` and
    :class:`~genviz.naive_bayes.GaussianNB` on the raw values; both are scored on the training
    data.

    Parameters
    ----------
    x : array_like of shape (n_samples,)
    y : array_like of shape (n_samples,)
    width, origin : float
        Bins as in :func:`bin_edges`.
    alpha : float
        Smoothing of the bin counts (>= 0).
    lim : (float, float), optional

    Returns
    -------
    Discretization

    Raises
    ------
    ValueError
        As :func:`bin_edges`, or if ``y`` does not match ``x`` or ``alpha < 0``.

    Examples
    --------
    >>> d = discretization([1.0, 2.0, 8.0, 9.0], ["a", "a", "b", "b"], width=5.0)
    >>> d.edges, d.n_bins, d.accuracy_binned
    (array([5.]), 2, 1.0)
    """
    x = check_vector(x, "x")
    y = np.asarray(y)
    if y.shape != x.shape:
        raise ValueError(f"y must have one label per value of x ({x.size}), got shape {y.shape}")
    alpha = check_scalar(alpha, "alpha", low=0.0)
    lo, hi = data_window(x) if lim is None else lim
    edges = bin_edges(lo, hi, width, origin)
    n_bins = edges.size + 1
    binned = CategoricalNB(alpha=alpha).fit(discretize(x, edges)[:, None], y,
                                            categories=[range(1, n_bins + 1)])
    gaussian = GaussianNB().fit(x[:, None], y)
    # every training point's bin holds a count of its own class, so this never divides 0/0
    acc = float(np.mean(binned.predict(discretize(x, edges)[:, None]) == y))
    return Discretization(edges, n_bins, binned, gaussian, acc,
                          float(np.mean(gaussian.predict(x[:, None]) == y)))
