"""The building blocks of :mod:`genviz.studies.naive_bayes`: models fitted along one
hyperparameter, each fit made once (:class:`FitPath`), and the experiments of notebook 08:
Gaussian naive Bayes against GDA on correlated classes
(:func:`nb_vs_gda`), naive Bayes on a discretised feature (:func:`bin_edges`,
:func:`data_window`, :func:`discretization`) and KDE against Gaussian naive Bayes on one
feature (:class:`KDEvsGaussianNB`). Notebooks call them directly to print the numbers an
explorer draws."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_rng, check_scalar, check_vector
from genviz.gda import GDA
from genviz.naive_bayes import KDENB, CategoricalNB, GaussianNB, discretize, leave_one_out_accuracy
from genviz.synthetic import correlated_classes

__all__ = ["FitPath", "NBvsGDA", "nb_vs_gda", "bin_edges", "Discretization", "data_window",
           "discretization", "KDEvsGaussianNB"]


class FitPath:
    """One estimator fitted for each value of one hyperparameter, each fit made once.

    ``path(value)`` is ``estimator(**{param: value}, **params).fit(X, y, **fit_params)``,
    kept (the ``max_cached`` most recent values) so that a slider coming back to a value
    costs no fit.

    Parameters
    ----------
    estimator : class
        An estimator class whose ``__init__`` takes ``param``.
    param : str
        The hyperparameter that varies.
    X, y : training data
    params : dict, optional
        Further hyperparameters, fixed.
    max_cached : int >= 1
    **fit_params
        Passed to ``fit`` (e.g. ``feature_names``).

    Raises
    ------
    TypeError
        ``estimator`` is not a class, or ``param`` not a string.

    Examples
    --------
    >>> from genviz.naive_bayes import CategoricalNB
    >>> path = FitPath(CategoricalNB, "alpha", [["a"], ["b"], ["a"]], [0, 1, 1])
    >>> path(1.0).alpha, path(1.0) is path(1.0), path(0.0).alpha
    (1.0, True, 0.0)
    """

    def __init__(self, estimator, param, X, y, *, params=None, max_cached=64, **fit_params):
        if not isinstance(estimator, type):
            raise TypeError(f"estimator must be an estimator class, got {estimator!r}")
        if not isinstance(param, str):
            raise TypeError(f"param must be a hyperparameter name, got {param!r}")
        self.estimator, self.param = estimator, param
        self.X, self.y = X, y
        self.params = dict(params or {})
        self.max_cached = check_int(max_cached, "max_cached", low=1)
        self.fit_params = fit_params
        self._fits: dict = {}

    def __call__(self, value):
        key = round(float(value), 12) if isinstance(value, (int, float, np.number)) else value
        if key not in self._fits:
            model = self.estimator(**{self.param: value}, **self.params)
            self._fits[key] = model.fit(self.X, self.y, **self.fit_params)
            while len(self._fits) > self.max_cached:
                self._fits.pop(next(iter(self._fits)))
        return self._fits[key]


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
    #: leave-one-out accuracies, with ``leave_one_out=True`` (else None)
    loo_binned: float | None = None
    loo_gaussian: float | None = None


def data_window(x, margin=0.05) -> tuple:
    """``(min - margin * range, max + margin * range)`` of a 1-D sample: the default window."""
    x = check_vector(x, "x")
    pad = check_scalar(margin, "margin", low=0.0) * np.ptp(x)
    return float(x.min() - pad), float(x.max() + pad)


def discretization(x, y, *, width, origin=0.0, alpha=1.0, lim=None,
                   leave_one_out=False) -> Discretization:
    """Naive Bayes on the bin index of one continuous feature, against Gaussian naive Bayes.

    The feature is cut at :func:`bin_edges` over the window ``lim`` (default
    :func:`data_window`); :class:`~genviz.naive_bayes.CategoricalNB` with Laplace/Lidstone
    ``alpha`` is fitted on the bin indices ``1..n_bins`` and
    :class:`~genviz.naive_bayes.GaussianNB` on the raw values; both are scored on the training
    data, and with ``leave_one_out=True`` also by leave-one-out
    (:func:`~genviz.naive_bayes.leave_one_out_accuracy`: each point classified by the model
    counted without it, in the same bins).

    Parameters
    ----------
    x : array_like of shape (n_samples,)
    y : array_like of shape (n_samples,)
    width, origin : float
        Bins as in :func:`bin_edges`.
    alpha : float
        Smoothing of the bin counts (>= 0).
    lim : (float, float), optional
    leave_one_out : bool
        Also compute ``loo_binned`` and ``loo_gaussian`` (n fits each).

    Returns
    -------
    Discretization

    Raises
    ------
    ValueError
        As :func:`bin_edges`, or if ``y`` does not match ``x`` or ``alpha < 0``.
    TypeError
        If ``leave_one_out`` is not a bool.

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
    if not isinstance(leave_one_out, (bool, np.bool_)):
        raise TypeError(f"leave_one_out must be True or False, got {leave_one_out!r}")
    lo, hi = data_window(x) if lim is None else lim
    edges = bin_edges(lo, hi, width, origin)
    n_bins = edges.size + 1
    bins = discretize(x, edges)[:, None]
    binned = CategoricalNB(alpha=alpha).fit(bins, y, categories=[range(1, n_bins + 1)])
    gaussian = GaussianNB().fit(x[:, None], y)
    # every training point's bin holds a count of its own class, so this never divides 0/0
    acc = float(np.mean(binned.predict(bins) == y))
    loo = ((leave_one_out_accuracy(CategoricalNB(alpha=alpha), bins, y,
                                   categories=[range(1, n_bins + 1)]),
            leave_one_out_accuracy(GaussianNB(), x[:, None], y))
           if leave_one_out else (None, None))
    return Discretization(edges, n_bins, binned, gaussian, acc,
                          float(np.mean(gaussian.predict(x[:, None]) == y)), *loo)


class KDEvsGaussianNB:
    """Naive Bayes on one continuous feature with a KDE per class (bandwidth ``h``) against
    Gaussian naive Bayes, scored on test data (the training data when none is given).

    Attributes
    ----------
    gaussian : GaussianNB
        Fitted once.
    accuracy_gaussian : float
        Its accuracy on the test data.

    Examples
    --------
    >>> x, y = [0.0, 0.2, 0.4, 3.0, 3.2, 3.4], ["a", "a", "a", "b", "b", "b"]
    >>> s = KDEvsGaussianNB(x, y)
    >>> s.accuracy_gaussian, s.kde(0.3).accuracy
    (1.0, 1.0)
    """

    class KDEFit(NamedTuple):
        model: KDENB  #: KDE naive Bayes fitted at the bandwidth
        accuracy: float  #: its accuracy on the test data

    def __init__(self, x, y, x_test=None, y_test=None):
        self.x = check_vector(x, "x")
        self.y = np.asarray(y)
        if self.y.shape != self.x.shape:
            raise ValueError(f"y must have one label per value of x ({self.x.size}), got shape "
                             f"{self.y.shape}")
        self.x_test = self.x if x_test is None else check_vector(x_test, "x_test")
        self.y_test = self.y if y_test is None else np.asarray(y_test)
        self.gaussian = GaussianNB().fit(self.x[:, None], self.y)
        self.accuracy_gaussian = self._accuracy(self.gaussian)

    def _accuracy(self, model) -> float:
        return float(np.mean(model.predict(self.x_test[:, None]) == self.y_test))

    def kde(self, h) -> "KDEvsGaussianNB.KDEFit":
        """KDE naive Bayes with bandwidth ``h`` (> 0) and its test accuracy."""
        h = check_scalar(h, "bandwidth", low=0.0, low_open=True)
        model = KDENB(bandwidth=h).fit(self.x[:, None], self.y)
        return self.KDEFit(model, self._accuracy(model))
