"""What the GDA figures show (CS229 part IV, 1.2-1.3; notebook 03), computed: GDA fitted to a
sample of the GDA model itself beside the true boundary (:class:`GDAFitStudy`), the fitted
Gaussians and the boundary (:func:`gda_figure_study`), the posterior two ways
(:func:`posterior_figure_study`) and shared vs separate covariances
(:func:`covariance_figure_study`). Their building blocks (the sampler, the fits, a boundary in
a box) are in :mod:`genviz.studies.gda_fits`; :mod:`genviz.plots.gda` paints these results."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_labels, check_points, check_scalar
from genviz.gaussian import cov_from_params, ellipse_points, mvn_pdf_grid
from genviz.grids import data_box, grid_2d
from genviz.logistic import sigmoid
from genviz.studies._base import Result, Study
from genviz.studies.gda_fits import (Boundary, GDAFitSampler, boundary, fit_gda_sample,
                                     gda_covariance_fits, line_in_box, posterior_two_ways)

__all__ = ["GDAFitStatic", "GDAFitResult", "GDAFitStudy", "ClassContours",
           "GDAFigureResult", "gda_figure_study", "PosteriorFigureResult",
           "posterior_figure_study", "CovariancePanel", "CovarianceFigureResult",
           "covariance_figure_study"]


# -- the GDA fitting explorer (notebook 03) -------------------------------------------------------
class GDAFitStatic(Result):
    """What the GDA fitting view draws once.

    Attributes
    ----------
    box : tuple of float
        The sample panel's window.
    score_range : tuple of float
        The log-odds axis.
    scores : ndarray of shape (241,)
        Log-odds across ``score_range``; ``sigmoid`` the posterior there.
    sigmoid : ndarray of shape (241,)
    """

    box: tuple
    score_range: tuple
    scores: np.ndarray
    sigmoid: np.ndarray


class GDAFitResult(Result):
    """GDA fitted to a sample of the GDA model, beside the truth.

    Attributes
    ----------
    phi : float
        The fitted ``P(y = 1)``.
    mu0, mu1 : ndarray of shape (2,)
        The fitted class means.
    Sigma : ndarray of shape (2, 2)
        The fitted shared covariance (the MLE, dividing by n).
    theta : ndarray of shape (2,)
        The fitted logistic parameters (:meth:`genviz.gda.GDA.logistic_params`).
    theta0 : float
    theta_true : ndarray of shape (2,)
        The true ones (:func:`genviz.gda.logistic_params`).
    theta0_true : float
    n : int
        Sample size.
    n1 : int
        Points of class 1.
    training_error : float
    X : ndarray of shape (n, 2)
        The sample.
    y : ndarray of shape (n,), dtype=int
    true_cov : ndarray of shape (2, 2)
    true_means : ndarray of shape (2, 2)
    true_phi : float
    class_points : tuple of two ndarrays of shape (n_k, 2)
        The sample by class.
    ellipses : tuple
        For each class, the fitted Gaussian's 1- and 2-sigma ellipses (each (2, 90): x, y).
    means : ndarray of shape (2, 2)
        The fitted means (rows).
    boundary : tuple of two ndarrays
        The fitted boundary ``p(y=1|x) = 0.5`` in the box (xs, ys).
    true_boundary : tuple of two ndarrays
        The true boundary likewise.
    score_points : tuple of two ndarrays of shape (n_k, 2)
        Each class's points at (fitted log-odds clipped to the axis, label + jitter).
    """

    phi: float
    mu0: np.ndarray
    mu1: np.ndarray
    Sigma: np.ndarray
    theta: np.ndarray
    theta0: float
    theta_true: np.ndarray
    theta0_true: float
    n: int
    n1: int
    training_error: float
    X: np.ndarray
    y: np.ndarray
    true_cov: np.ndarray
    true_means: np.ndarray
    true_phi: float
    class_points: tuple
    ellipses: tuple
    means: np.ndarray
    boundary: tuple
    true_boundary: tuple
    score_points: tuple


class GDAFitStudy(Study):
    """GDA fitted to a sample you control: ``n`` points of the GDA model with class means
    ``(mu0x, mu0y)``, ``(mu1x, mu1y)``, ``Sigma = cov_from_params(sigma1, sigma2, rho)`` and
    ``P(y = 1) = phi``, drawn by a :class:`GDAFitSampler` (``n_max`` points, ``seed``), fitted by
    :func:`fit_gda_sample`.

    Examples
    --------
    >>> r = GDAFitStudy(n_max=200)(n=200)
    >>> r.n, r.n1 + int((r.y == 0).sum()), r.theta.shape
    (200, 200, (2,))
    """

    def __init__(self, *, seed=0, n_max=1000, box=(-5.0, 5.0, -5.0, 5.0),
                 score_range=(-12.0, 12.0)):
        self.seed = check_int(seed, "seed", low=0)
        self.sampler = GDAFitSampler(n_max, self.seed)
        self.box, self.score_range = tuple(box), tuple(score_range)

    def static(self) -> GDAFitStatic:
        s = np.linspace(*self.score_range, 241)
        return GDAFitStatic(self.box, self.score_range, s, sigmoid(s))

    def __call__(self, *, n=100, mu0x=-1.0, mu0y=-0.5, mu1x=1.5, mu1y=1.0, sigma1=1.0,
                 sigma2=0.8, rho=0.4, phi=0.5) -> GDAFitResult:
        n = check_int(n, "n", low=4, high=self.sampler.n_max)
        for name, v in (("mu0x", mu0x), ("mu0y", mu0y), ("mu1x", mu1x), ("mu1y", mu1y)):
            check_scalar(v, name)
        for name, v in (("sigma1", sigma1), ("sigma2", sigma2)):
            check_scalar(v, name, low=0.0, low_open=True)
        check_scalar(rho, "rho", low=-1.0, high=1.0, low_open=True, high_open=True)
        check_scalar(phi, "phi", low=0.0, high=1.0, low_open=True, high_open=True)
        cov = cov_from_params(sigma1, sigma2, rho)
        mu = np.array([[mu0x, mu0y], [mu1x, mu1y]], dtype=float)
        X, y = self.sampler.points(n, mu[0], mu[1], cov, phi)
        true_phi = float(phi)
        fit = fit_gda_sample(X, y, true_phi=true_phi, true_means=mu, true_cov=cov)
        gda = fit.model
        shown = np.clip(fit.scores, *self.score_range)
        jitter = self.sampler.jitter[:len(y)]
        return GDAFitResult(
            phi=float(gda.phi_), mu0=gda.means_[0].copy(), mu1=gda.means_[1].copy(),
            Sigma=gda.covariance_.copy(), theta=np.asarray(fit.theta, dtype=float),
            theta0=float(fit.theta0), theta_true=np.asarray(fit.theta_true, dtype=float),
            theta0_true=float(fit.theta0_true), n=n, n1=int(y.sum()),
            training_error=fit.training_error, X=X, y=y, true_cov=cov, true_means=mu,
            true_phi=true_phi, class_points=tuple(X[y == k] for k in (0, 1)),
            ellipses=tuple(tuple(ellipse_points(gda.means_[k], gda.covariance_, k=radius,
                                                n=90).T for radius in (1.0, 2.0))
                           for k in (0, 1)),
            means=gda.means_.copy(), boundary=line_in_box(fit.theta, fit.theta0, self.box),
            true_boundary=line_in_box(fit.theta_true, fit.theta0_true, self.box),
            score_points=tuple(np.column_stack([shown[y == k], k + jitter[y == k]])
                               for k in (0, 1)))


# -- the static GDA figures -----------------------------------------------------------------------
class ClassContours(Result):
    """A fitted class Gaussian's contours.

    Attributes
    ----------
    density : ndarray of shape (ny, nx)
        Its density on the grid.
    levels : ndarray of shape (4,)
        The density at Mahalanobis radius 2, 1.5, 1 and 0.5.
    """

    density: np.ndarray
    levels: np.ndarray


def _class_contours(model, xs, ys) -> tuple:
    out = []
    for k in (0, 1):
        cov = model.covariance_ if model.covariance_.ndim == 2 else model.covariance_[k]
        Z = mvn_pdf_grid(xs, ys, model.means_[k], cov)
        peak = Z.max()
        out.append(ClassContours(Z, peak * np.exp(-0.5 * np.array([2.0, 1.5, 1.0, 0.5]) ** 2)))
    return tuple(out)


def _check_sample(X, y):
    X = check_points(X, "X", d=2)
    y = check_labels(y, X.shape[0], binary=True).astype(int)
    return X, y


class GDAFigureResult(Result):
    """Result of :func:`gda_figure_study`.

    Attributes
    ----------
    box : tuple of float
    xs : ndarray of shape (200,)
        The grid along x1; ``ys`` along x2.
    ys : ndarray of shape (200,)
    class_points : tuple of two ndarrays of shape (n_k, 2)
    contours : tuple of two ClassContours
    boundary : Boundary
        ``p(y = 1 | x) = 0.5``: a line for a shared covariance.
    means : ndarray of shape (2, 2)
    """

    box: tuple
    xs: np.ndarray
    ys: np.ndarray
    class_points: tuple
    contours: tuple
    boundary: Boundary
    means: np.ndarray


def gda_figure_study(X, y, model=None, *, box=None) -> GDAFigureResult:
    """The CS229 GDA figure's numbers: the training set by class, both fitted Gaussians'
    contours, the boundary and the means (``model`` by default GDA with a shared covariance
    fitted to ``(X, y)``; ``box`` by default the data plus 1).

    Examples
    --------
    >>> X = [[0.0, 0.0], [1.0, 0.2], [0.1, 1.0], [3.0, 3.0], [4.0, 3.1], [3.2, 4.0]]
    >>> r = gda_figure_study(X, [0, 0, 0, 1, 1, 1])
    >>> r.boundary.linear, r.means.shape
    (True, (2, 2))
    """
    X, y = _check_sample(X, y)
    model = gda_covariance_fits(X, y, shared=(True,))[0].model if model is None else model
    box = data_box(X, pad=1.0) if box is None else box
    grid = grid_2d(box, 200)
    b = (boundary(box, linear=model.logistic_params()) if model.shared_cov
         else boundary(box, values=grid.evaluate(model.decision_function)))
    return GDAFigureResult(box, grid.xs, grid.ys, tuple(X[y == k] for k in (0, 1)),
                           _class_contours(model, grid.xs, grid.ys), b, model.means_)


class PosteriorFigureResult(Result):
    """Result of :func:`posterior_figure_study`.

    Attributes
    ----------
    mesh : tuple of two ndarrays of shape (n_grid, n_grid)
    bayes : ndarray of shape (n_grid, n_grid)
        ``p(y = 1 | x)`` by Bayes' rule.
    logistic : ndarray of shape (n_grid, n_grid)
        ``sigmoid(theta^T x + theta0)``.
    theta : ndarray of shape (2,)
    theta0 : float
    max_abs_difference : float
        The largest difference on the grid.
    """

    mesh: tuple
    bayes: np.ndarray
    logistic: np.ndarray
    theta: np.ndarray
    theta0: float
    max_abs_difference: float


def posterior_figure_study(model, box, *, n_grid=45) -> PosteriorFigureResult:
    """A fitted shared-Σ GDA's posterior on a grid over ``box``, by Bayes' rule and as the
    sigmoid of a linear function (:func:`posterior_two_ways`).

    Examples
    --------
    >>> from genviz.gda import GDA
    >>> g = GDA().fit([[0.0, 0.0], [1.0, 0.5], [0.2, 1.0], [3.0, 3.0], [4.0, 3.5], [3.0, 4.0]],
    ...               [0, 0, 0, 1, 1, 1])
    >>> bool(posterior_figure_study(g, (-1, 5, -1, 5), n_grid=5).max_abs_difference < 1e-12)
    True
    """
    n_grid = check_int(n_grid, "n_grid", low=3)
    theta, theta0 = model.logistic_params()
    grid = grid_2d(box, n_grid)
    two = posterior_two_ways(model, grid.points)  # Bayes' rule and the sigmoid, on the grid
    return PosteriorFigureResult(grid.mesh, grid.reshape(two.bayes), grid.reshape(two.logistic),
                                 theta, theta0, two.max_abs_difference)


class CovariancePanel(Result):
    """One GDA of :func:`covariance_figure_study`.

    Attributes
    ----------
    shared_cov : bool
    contours : tuple of two ClassContours
    decision : ndarray of shape (200, 200)
        Its log-odds on the grid (the boundary is their zero level).
    training_error : float
    """

    shared_cov: bool
    contours: tuple
    decision: np.ndarray
    training_error: float


class CovarianceFigureResult(Result):
    """Result of :func:`covariance_figure_study`.

    Attributes
    ----------
    box : tuple of float
    xs : ndarray of shape (200,)
    ys : ndarray of shape (200,)
    class_points : tuple of two ndarrays of shape (n_k, 2)
    panels : tuple of two CovariancePanel
        Shared covariance, then one per class.
    """

    box: tuple
    xs: np.ndarray
    ys: np.ndarray
    class_points: tuple
    panels: tuple


def covariance_figure_study(X, y, *, box=None) -> CovarianceFigureResult:
    """Shared against separate covariances on the same data (:func:`gda_covariance_fits`).

    Examples
    --------
    >>> X = [[0.0, 0.0], [1.0, 0.2], [0.1, 1.0], [3.0, 3.0], [4.0, 3.1], [3.2, 4.0]]
    >>> [p.shared_cov for p in covariance_figure_study(X, [0, 0, 0, 1, 1, 1]).panels]
    [True, False]
    """
    X, y = _check_sample(X, y)
    box = data_box(X, pad=1.0) if box is None else box
    grid = grid_2d(box, 200)
    panels = tuple(CovariancePanel(shared, _class_contours(model, grid.xs, grid.ys),
                                   grid.evaluate(model.decision_function), err)
                   for shared, model, err in gda_covariance_fits(X, y))
    return CovarianceFigureResult(box, grid.xs, grid.ys, tuple(X[y == k] for k in (0, 1)), panels)
