"""What the naive Bayes figures show (notebooks 06 and 08), computed: the smoothed count tables
and a query's posterior at any Laplace/Lidstone ``alpha`` (:class:`CategoricalNBStudy`), a
continuous feature cut into bins against Gaussian naive Bayes (:class:`DiscretizeStudy`,
:func:`discretization`), Gaussian naive Bayes against GDA on correlated classes
(:class:`NBvsGDAStudy`, :func:`nb_vs_gda`) and KDE against Gaussian naive Bayes
(:class:`KDENBStudy`, :class:`KDEvsGaussianNB`). The experiments they draw on are in
:mod:`genviz.studies.naive_bayes_experiments`; :mod:`genviz.plots.naive_bayes` paints these
results."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_scalar, check_vector
from genviz.gaussian import ellipse_points, mvn_pdf
from genviz.grids import grid_2d
from genviz.naive_bayes import CategoricalNB, GaussianNB, discretize
from genviz.studies._base import Result, Study
from genviz.studies.naive_bayes_experiments import (FitPath, KDEvsGaussianNB, data_window,
                                                    discretization, nb_vs_gda)

__all__ = ["CategoricalNBStatic", "CategoricalNBResult",
           "CategoricalNBStudy", "DiscretizeStatic", "DiscretizeResult", "DiscretizeStudy",
           "NBvsGDAStatic", "NBvsGDAResult", "NBvsGDAStudy", "KDENBStatic", "KDENBResult",
           "KDENBStudy"]


# -- notebook 06: the count tables and a query's posterior ----------------------------------------
class CategoricalNBStatic(Result):
    """What the counting view draws once.

    Attributes
    ----------
    names : list of str
        The features.
    classes : list
    categories : list of lists
        Each feature's values (the bars of its panel).
    """

    names: list
    classes: list
    categories: list


class CategoricalNBResult(Result):
    """Naive Bayes by counting at one ``alpha``, and the slides' computation for one query.

    Attributes
    ----------
    alpha : float
    query : list
        The query's value of each feature.
    tables : list of ndarrays of shape (n_classes, n_values)
        ``P(X_j = v | y)``, smoothed.
    outlined : list of ndarrays of shape (n_values,), dtype=bool
        Each feature's queried value.
    explain : dict
        :meth:`genviz.naive_bayes.CategoricalNB.explain` of the query: prior, factors, joint
        scores, normaliser, posterior (None when 0/0), decision.
    smoothed : list of SmoothedTable
        Each feature's table with the counts it comes from.
    class_count : ndarray of shape (n_classes,)
    n_records : float
        The training records, ``class_count.sum()``.
    categories : list of lists
    posterior_heights : ndarray of shape (n_classes,)
        The posterior, 0 where it is undefined.
    undefined : bool
        Whether the posterior is 0/0.
    """

    alpha: float
    query: list
    tables: list
    outlined: list
    explain: dict
    smoothed: list
    class_count: np.ndarray
    n_records: float
    categories: list
    posterior_heights: np.ndarray
    undefined: bool


class CategoricalNBStudy(Study):
    """Categorical naive Bayes fitted with any Laplace/Lidstone ``alpha`` (each fit made once,
    :class:`~genviz.studies.naive_bayes_experiments.FitPath`) and the posterior of a query: one parameter per
    feature, its queried value (the first record's by default).

    Examples
    --------
    >>> s = CategoricalNBStudy([["a", "x"], ["b", "x"], ["a", "y"]], [0, 1, 1], ["F", "G"])
    >>> s.parameter_names(), s.defaults()
    (('alpha', 'F', 'G'), {'alpha': 1.0, 'F': 'a', 'G': 'x'})
    >>> [round(float(p), 3) for p in s(alpha=1.0, F="b", G="y").explain["posterior"]]
    [0.182, 0.818]
    """

    def __init__(self, X, y, feature_names, *, alpha=1.0, query=None):
        self.names = list(feature_names)
        self.path = FitPath(CategoricalNB, "alpha", X, y, feature_names=self.names)
        base = self.path(1.0)
        self.classes = base.classes_.tolist()
        self.categories = [c.tolist() for c in base.categories_]
        q = list(query) if query is not None else list(X[0])
        self._defaults = {"alpha": float(alpha), **dict(zip(self.names, q))}

    def parameter_names(self) -> tuple:
        """``alpha`` and one name per feature (the query's value of that feature)."""
        return ("alpha", *self.names)

    def defaults(self) -> dict:
        return dict(self._defaults)

    def static(self) -> CategoricalNBStatic:
        return CategoricalNBStatic(self.names, self.classes, self.categories)

    def __call__(self, **params) -> CategoricalNBResult:
        unknown = sorted(set(params) - set(self.parameter_names()))
        if unknown:
            raise TypeError(f"unknown parameter(s) {', '.join(map(repr, unknown))}; valid "
                            f"parameters: {', '.join(self.parameter_names())}")
        p = {**self._defaults, **params}
        alpha = check_scalar(p["alpha"], "alpha", low=0.0)
        for j, n in enumerate(self.names):
            if p[n] not in self.categories[j]:
                raise ValueError(f"{n} must be one of {self.categories[j]}, got {p[n]!r}")
        model = self.path(alpha)
        query = [p[n] for n in self.names]
        e = model.explain(query)
        post = e["posterior"]
        return CategoricalNBResult(
            alpha=alpha, query=query, tables=[np.exp(t) for t in model.feature_log_prob_],
            outlined=[np.arange(len(cats)) == cats.index(v)
                      for cats, v in zip(self.categories, query)],
            explain=e, smoothed=[model.smoothed_table(j) for j in range(len(self.names))],
            class_count=model.class_count_.copy(), n_records=model.class_count_.sum(),
            categories=self.categories,
            posterior_heights=np.zeros(len(self.classes)) if post is None else np.asarray(post),
            undefined=post is None)


# -- notebook 08: a feature cut into bins ---------------------------------------------------------
class DiscretizeStatic(Result):
    """What the discretising view draws once: the Gaussian naive Bayes fit.

    Attributes
    ----------
    classes : list
    lim : tuple of float
        The window.
    grid : ndarray of shape (n_grid,)
    class_x : list of ndarrays
        Each class's values (the rug).
    gaussian_density : ndarray of shape (n_classes, n_grid)
        Each class's fitted Gaussian ``p(x | y)``.
    gaussian_posterior : ndarray of shape (n_grid, n_classes)
        Gaussian naive Bayes' ``P(y | x)``.
    density_top : float
        The density axis' top, 2.2 times the highest Gaussian.
    """

    classes: list
    lim: tuple
    grid: np.ndarray
    class_x: list
    gaussian_density: np.ndarray
    gaussian_posterior: np.ndarray
    density_top: float


class DiscretizeResult(Result):
    """Naive Bayes on the bin index at one cut (:func:`discretization`).

    Attributes
    ----------
    edges : ndarray of shape (n_bins - 1,)
    n_bins : int
    width : float
    alpha : float
    table : ndarray of shape (n_classes, n_bins)
        ``P(bin | y)``.
    steps : ndarray of shape (n_classes, n_grid)
        The binned density ``P(bin | y) / bin width`` along the grid.
    posterior : ndarray of shape (n_classes, n_grid)
        ``P(y | x)`` of naive Bayes on the bins along the grid.
    edge_segments : list
        A vertical segment at each edge.
    accuracy_binned : float
        Training accuracy on the bins.
    accuracy_gaussian : float
        Training accuracy of Gaussian naive Bayes.
    """

    edges: np.ndarray
    n_bins: int
    width: float
    alpha: float
    table: np.ndarray
    steps: np.ndarray
    posterior: np.ndarray
    edge_segments: list
    accuracy_binned: float
    accuracy_gaussian: float


class DiscretizeStudy(Study):
    """One continuous feature cut into bins of ``width`` from ``origin``, naive Bayes with
    Laplace/Lidstone ``alpha`` on the bin index against Gaussian naive Bayes (CS229's living
    areas).

    Raises
    ------
    ValueError
        From a call: ``alpha = 0`` with a bin empty in every class (its posterior is 0/0), and
        what :func:`discretization` raises.

    Examples
    --------
    >>> s = DiscretizeStudy([1.0, 2.0, 8.0, 9.0], ["a", "a", "b", "b"], n_grid=5)
    >>> r = s(width=5.0)
    >>> r.n_bins, r.accuracy_binned
    (2, 1.0)
    """

    def __init__(self, x, y, *, lim=None, n_grid=500):
        self.x = check_vector(x, "x")
        self.y = np.asarray(y)
        lo, hi = lim if lim is not None else data_window(self.x)
        self.lim = (float(lo), float(hi))
        self.grid = np.linspace(lo, hi, n_grid)

    def static(self) -> DiscretizeStatic:
        gnb = GaussianNB().fit(self.x[:, None], self.y)
        classes = gnb.classes_.tolist()
        dens = np.array([mvn_pdf(self.grid[:, None], gnb.theta_[k], np.diag(gnb.var_[k]))
                         for k in range(len(classes))])  # each class's fitted Gaussian
        return DiscretizeStatic(classes, self.lim, self.grid, [self.x[self.y == c] for c in classes],
                                dens, gnb.predict_proba(self.grid[:, None]), 2.2 * dens.max())

    def __call__(self, *, width=1.0, origin=0.0, alpha=1.0) -> DiscretizeResult:
        width = check_scalar(width, "width", low=0.0, low_open=True)
        origin = check_scalar(origin, "origin")
        alpha = check_scalar(alpha, "alpha", low=0.0)
        d = discretization(self.x, self.y, width=width, origin=origin, alpha=alpha, lim=self.lim)
        lo, hi = self.lim
        edges, nb = d.edges, d.binned
        grid_bins = discretize(self.grid, edges)
        widths = np.diff(np.concatenate([[lo], edges, [hi]]))
        table = np.exp(nb.feature_log_prob_[0])  # (K, n_bins)
        try:
            post = nb.predict_proba(grid_bins[:, None])
        except ValueError:
            raise ValueError("with alpha = 0 some bins are empty in every class: the posterior "
                             "there is 0/0; raise alpha") from None
        return DiscretizeResult(
            edges, d.n_bins, width, alpha, table,
            np.array([table[k, grid_bins - 1] / widths[grid_bins - 1] for k in range(len(table))]),
            np.array([np.nan_to_num(post[:, k], nan=0.0) for k in range(len(table))]),
            [[(e, 0), (e, 1e9)] for e in edges], d.accuracy_binned, d.accuracy_gaussian)


# -- notebook 08: Gaussian naive Bayes against GDA ------------------------------------------------
class NBvsGDAStatic(Result):
    """What the NB-vs-GDA view draws once.

    Attributes
    ----------
    lim : float
    extent : tuple of float
        The regions' window.
    shape : tuple of int
        The regions' grid shape.
    """

    lim: float
    extent: tuple
    shape: tuple


class NBvsGDAResult(Result):
    """Gaussian naive Bayes and GDA on correlated classes at one ``rho`` (:func:`nb_vs_gda`).

    Attributes
    ----------
    rho : float
    accuracy_nb : float
        Naive Bayes' test accuracy.
    accuracy_gda : float
        GDA's.
    nb_var : ndarray of shape (2, 2)
        Naive Bayes' per-class variances (rows: classes).
    gda_cov : ndarray of shape (2, 2)
        GDA's shared covariance.
    class_points : tuple of two ndarrays of shape (n, 2)
        The training set by class.
    ellipses : tuple
        For naive Bayes then GDA: the 1- and 2-sigma ellipses of class 0, then class 1 (each
        (n, 2)).
    regions : tuple of two ndarrays of shape (n_grid, n_grid)
        Each model's predicted class on the grid.
    """

    rho: float
    accuracy_nb: float
    accuracy_gda: float
    nb_var: np.ndarray
    gda_cov: np.ndarray
    class_points: tuple
    ellipses: tuple
    regions: tuple


class NBvsGDAStudy(Study):
    """Gaussian naive Bayes (axis-aligned ellipses) against GDA (tilted, shared) on two classes
    with covariance ``[[1, rho], [rho, 1]]`` whose means differ by ``sep`` along ``x_1``
    (:func:`nb_vs_gda`), with both models' regions on a grid over ``[-lim, lim]^2``.

    Examples
    --------
    >>> r = NBvsGDAStudy(n_grid=5)(rho=0.9)
    >>> r.accuracy_gda > r.accuracy_nb
    True
    """

    def __init__(self, *, sep=1.5, n=120, seed=0, lim=4.0, n_grid=81):
        self.sep, self.n, self.seed = float(sep), n, seed
        self.lim = lim
        self.grid = grid_2d(lim, n_grid)

    def static(self) -> NBvsGDAStatic:
        return NBvsGDAStatic(self.lim, self.grid.extent, self.grid.shape)

    def __call__(self, *, rho=0.8) -> NBvsGDAResult:
        rho = check_scalar(rho, "rho", low=-0.95, high=0.95)
        r = nb_vs_gda(rho, sep=self.sep, n=self.n, seed=self.seed)  # data, both fits, accuracies
        nb, gda = r.naive_bayes, r.gda
        covs = [[np.diag(nb.var_[k]) for k in (0, 1)], [gda.covariance_] * 2]
        means = [nb.theta_, gda.means_]
        ellipses = tuple(tuple(ellipse_points(means[m][k], covs[m][k], level)
                               for k in (0, 1) for level in (1.0, 2.0)) for m in (0, 1))
        return NBvsGDAResult(rho, r.accuracy_nb, r.accuracy_gda, nb.var_.copy(),
                             np.array(gda.covariance_), tuple(r.X[r.y == k] for k in (0, 1)),
                             ellipses, tuple(self.grid.evaluate(m.predict) for m in (nb, gda)))


# -- notebook 08: KDE against Gaussian naive Bayes ------------------------------------------------
class KDENBStatic(Result):
    """What the KDE-NB view draws once: the Gaussian fit.

    Attributes
    ----------
    classes : list
    grid : ndarray of shape (n_grid,)
        The data's range plus 10 % each side.
    class_x : list of ndarrays
        Each class's training values (the rug).
    gaussian_density : ndarray of shape (n_grid, n_classes)
    gaussian_posterior : ndarray of shape (n_grid, n_classes)
    density_top : float
        The density axis' top, 1.6 times the highest Gaussian.
    accuracy_gaussian : float
    """

    classes: list
    grid: np.ndarray
    class_x: list
    gaussian_density: np.ndarray
    gaussian_posterior: np.ndarray
    density_top: float
    accuracy_gaussian: float


class KDENBResult(Result):
    """KDE naive Bayes at one bandwidth.

    Attributes
    ----------
    bandwidth : float
    accuracy_kde : float
        On the test data (the training data when none was given).
    accuracy_gaussian : float
        Gaussian naive Bayes' likewise.
    density : ndarray of shape (n_grid, n_classes)
        Each class's KDE ``p(x | y)``.
    posterior : ndarray of shape (n_grid, n_classes)
        ``P(y | x)`` of KDE naive Bayes.
    """

    bandwidth: float
    accuracy_kde: float
    accuracy_gaussian: float
    density: np.ndarray
    posterior: np.ndarray


class KDENBStudy(Study):
    """Class densities of one feature by KDE (any bandwidth) against a Gaussian, and both
    posteriors (:class:`KDEvsGaussianNB`).

    Examples
    --------
    >>> s = KDENBStudy([0.0, 0.2, 0.4, 3.0, 3.2, 3.4], ["a", "a", "a", "b", "b", "b"], n_grid=9)
    >>> s(bandwidth=0.3).accuracy_kde
    1.0
    """

    def __init__(self, x, y, x_test=None, y_test=None, *, n_grid=300):
        self.fits = KDEvsGaussianNB(x, y, x_test, y_test)  # the fits and accuracies
        x = self.fits.x
        pad = 0.1 * np.ptp(x)
        self.grid = np.linspace(x.min() - pad, x.max() + pad, n_grid)

    def static(self) -> KDENBStatic:
        gnb, y = self.fits.gaussian, self.fits.y
        classes = gnb.classes_.tolist()
        gauss = gnb.class_densities(self.grid[:, None])
        return KDENBStatic(classes, self.grid, [self.fits.x[y == c] for c in classes],
                           gauss.density, gauss.posterior, 1.6 * gauss.density.max(),
                           self.fits.accuracy_gaussian)

    def __call__(self, *, bandwidth=0.3) -> KDENBResult:
        h = check_scalar(bandwidth, "bandwidth", low=0.0, low_open=True)
        fit = self.fits.kde(h)
        kde = fit.model.class_densities(self.grid[:, None])
        return KDENBResult(h, fit.accuracy, self.fits.accuracy_gaussian, kde.density,
                           kde.posterior)
