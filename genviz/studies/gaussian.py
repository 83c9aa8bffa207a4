"""What the Gaussian figures show (notebooks 00 and 02), computed: the live view's density,
contour ellipses, principal axes and samples (:class:`GaussianStudy`), the rows of the CS229
Gaussian figures (:func:`gaussian_figure_study`), and Gaussian draws with their sample moments
(:func:`gaussian_sample`). :mod:`genviz.plots.gaussian` paints these results."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.gaussian import (cov_eigen, cov_from_params, ellipse_points, factorize_cov, mvn_pdf,
                             mvn_pdf_grid, sample_mvn)
from genviz.grids import grid_2d
from genviz.studies._base import Result, Study

__all__ = ["GaussianSample", "gaussian_sample", "GaussianStatic", "GaussianResult",
           "GaussianStudy", "GaussianPanel", "GaussianFigureResult", "gaussian_figure_study",
           "K_SIGMAS"]

#: The contour ellipses the live view draws: 1, 2 and 3 standard deviations (Mahalanobis radius).
K_SIGMAS = (1.0, 2.0, 3.0)


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


def _peak(mean, factor) -> float:
    """Height of the density at its mean, 1 / (2 pi sqrt|Sigma|), from genviz.gaussian."""
    return float(mvn_pdf(np.asarray(mean, dtype=float)[None, :], mean, factor)[0])


def _nice_zmax(peak: float) -> float:
    """Height of the surface axes: 0.25 as in the notes, else the next of 0.5, 1, 2, 4, ...

    Quantised so that dragging a slider rarely changes the axes (a change forces a full redraw).
    """
    top = 0.25
    while top < 1.02 * peak:
        top *= 2.0
    return top


class GaussianStatic(Result):
    """What the live view draws once (:meth:`GaussianStudy.static`).

    Attributes
    ----------
    lim : float
        Both axes span ``[-lim, lim]``.
    n_samples : int
        Number of draws shown.
    surface : bool
        Whether there is a 3-D surface panel.
    xs_image : ndarray of shape (n_image,)
        The density image's grid along each axis.
    surface_mesh : tuple of two ndarrays of shape (n_surface, n_surface)
        The surface's grid as ``numpy.meshgrid`` gives it (empty arrays without a surface).
    """

    lim: float
    n_samples: int
    surface: bool
    xs_image: np.ndarray
    surface_mesh: tuple


class GaussianResult(Result):
    """The bivariate Gaussian at one setting (:class:`GaussianStudy`).

    Attributes
    ----------
    mean : ndarray of shape (2,)
    cov : ndarray of shape (2, 2)
        ``cov_from_params(sigma1, sigma2, rho)``.
    det : float
        ``|Sigma|``, from the Cholesky factor.
    eigvals : ndarray of shape (2,)
        Eigenvalues of ``Sigma``, largest first.
    eigvecs : ndarray of shape (2, 2)
        The matching unit eigenvectors (columns).
    angle : float
        Direction of the major axis, degrees from the x1 axis.
    half_axes : ndarray of shape (2,)
        ``sqrt(eigvals)``: the 1-sigma ellipse's half-axes.
    isotropic : bool
        Whether the two eigenvalues are equal (to 1e-9 relative): circles, no major axis.
    peak : float
        The density at the mean, ``1 / (2 pi sqrt|Sigma|)``.
    image : ndarray of shape (n_image, n_image)
        The density on the image grid (rows along x2).
    ellipses : tuple of ndarrays of shape (90, 2)
        The 1-, 2- and 3-sigma contours (:data:`K_SIGMAS`).
    principal_axes : tuple of two ndarrays of shape (2, 2)
        The segments ``mean -+ sqrt(lambda_i) v_i``: for each axis, its x and its y ends.
    samples : ndarray of shape (n_samples, 2)
        ``mean + z L^T`` for one fixed seeded set of standard-normal ``z``.
    sample_mean : ndarray of shape (2,)
    sample_cov : ndarray of shape (2, 2)
        Sample covariance (ddof=1; NaN with fewer than 2 samples).
    surface : ndarray of shape (n_surface, n_surface) or None
        The density on the surface grid (None without a surface panel).
    surface_max : float
        Its largest value (NaN without a surface).
    zmax : float
        Height of the surface axes: 0.25, else the next power-of-two multiple above the peak.
    """

    mean: np.ndarray
    cov: np.ndarray
    det: float
    eigvals: np.ndarray
    eigvecs: np.ndarray
    angle: float
    half_axes: np.ndarray
    isotropic: bool
    peak: float
    image: np.ndarray
    ellipses: tuple
    principal_axes: tuple
    samples: np.ndarray
    sample_mean: np.ndarray
    sample_cov: np.ndarray
    surface: object
    surface_max: float
    zmax: float


class GaussianStudy(Study):
    """The live Gaussian view's numbers at any ``(mu1, mu2, sigma1, sigma2, rho)``.

    The draws are ``mu + z L^T`` for one fixed set of standard-normal ``z`` (``seed``), so they
    move smoothly as the parameters change.

    Parameters
    ----------
    lim : float > 0
        The window ``[-lim, lim]^2``.
    n_samples : int >= 0
    seed : int >= 0
    n_surface, n_image : int >= 3
        Grid points per axis of the surface and of the density image.
    surface : bool
        Whether to compute the surface.

    Examples
    --------
    >>> r = GaussianStudy()(sigma1=2.0, rho=0.0)
    >>> r.eigvals.tolist(), r["isotropic"], round(r.peak, 4)
    ([4.0, 1.0], False, 0.0796)
    """

    def __init__(self, *, lim=4.0, n_samples=200, seed=0, n_surface=35, n_image=121,
                 surface=True):
        self.lim = check_scalar(lim, "lim", low=0.0, low_open=True)
        self.n_samples = check_int(n_samples, "n_samples", low=0)
        self.seed = check_int(seed, "seed", low=0)
        self.surface = bool(surface)
        self._surf_grid = grid_2d(self.lim, check_int(n_surface, "n_surface", low=3))
        self._xs_img = np.linspace(-self.lim, self.lim, check_int(n_image, "n_image", low=3))

    def static(self) -> GaussianStatic:
        mesh = self._surf_grid.mesh if self.surface else (np.zeros((0, 0)), np.zeros((0, 0)))
        return GaussianStatic(self.lim, self.n_samples, self.surface, self._xs_img, mesh)

    def __call__(self, *, mu1=0.0, mu2=0.0, sigma1=1.0, sigma2=1.0, rho=0.0) -> GaussianResult:
        mean = np.array([check_scalar(mu1, "mu1"), check_scalar(mu2, "mu2")])
        cov = cov_from_params(sigma1, sigma2, rho)  # validates
        factor = factorize_cov(cov)
        geo = cov_eigen(factor)
        peak = _peak(mean, factor)
        img = mvn_pdf_grid(self._xs_img, self._xs_img, mean, factor)
        ellipses = tuple(ellipse_points(mean, factor, k=k, n=90) for k in K_SIGMAS)
        segments = []
        for i in (0, 1):
            half = geo.half_axes[i] * geo.eigvecs[:, i]
            segments.append(np.array([[mean[0] - half[0], mean[0] + half[0]],
                                      [mean[1] - half[1], mean[1] + half[1]]]))
        draws = gaussian_sample(self.n_samples, mean, factor, rng=self.seed)
        surface, surface_max, zmax = None, float("nan"), float("nan")
        if self.surface:
            xs = self._surf_grid.xs
            surface = mvn_pdf_grid(xs, xs, mean, factor)
            surface_max = float(surface.max())
            zmax = _nice_zmax(peak)
        l1, l2 = (float(v) for v in geo.eigvals)
        return GaussianResult(
            mean=mean, cov=factor.cov, det=float(np.exp(factor.logdet)), eigvals=geo.eigvals,
            eigvecs=geo.eigvecs, angle=geo.angle, half_axes=np.sqrt(geo.eigvals),
            isotropic=abs(l1 - l2) <= 1e-9 * max(l1, l2), peak=peak, image=img,
            ellipses=ellipses, principal_axes=tuple(segments), samples=draws.X,
            sample_mean=draws.mean, sample_cov=draws.cov, surface=surface,
            surface_max=surface_max, zmax=zmax)


# -- the CS229 figures: one panel per (mean, cov) -------------------------------------------------
class GaussianPanel(Result):
    """One panel of :func:`gaussian_figure_study`.

    Attributes
    ----------
    mean : ndarray of shape (2,)
    cov : ndarray of shape (2, 2)
        The covariance as factorised (validated).
    density : ndarray of shape (n_grid, n_grid)
        The density on the grid.
    top : float
        Height of a surface panel: ``max(zmax, 1.05 * density.max())``.
    levels : ndarray of shape (levels,)
        Contour levels, evenly spaced strictly between 0 and the peak.
    """

    mean: np.ndarray
    cov: np.ndarray
    density: np.ndarray
    top: float
    levels: np.ndarray


class GaussianFigureResult(Result):
    """Result of :func:`gaussian_figure_study`.

    Attributes
    ----------
    kind : str
        ``"surface"`` or ``"contour"``.
    lim : float
    xs : ndarray of shape (n_grid,)
        The grid along each axis.
    mesh : tuple of two ndarrays of shape (n_grid, n_grid)
    panels : tuple of GaussianPanel
    titles : tuple of str or None
        The titles given (None: the painter writes the mean and covariance).
    """

    kind: str
    lim: float
    xs: np.ndarray
    mesh: tuple
    panels: tuple
    titles: object


def gaussian_figure_study(params, kind: str = "surface", *, titles=None, lim: float = 3.0,
                          zmax: float = 0.25, levels: int = 8,
                          n_grid: int = 61) -> GaussianFigureResult:
    """The numbers of a row of the CS229 Gaussian figures (see
    :func:`genviz.plots.gaussian.gaussian_figure` for the parameters).

    Examples
    --------
    >>> r = gaussian_figure_study([([0, 0], np.eye(2))], kind="contour", levels=3)
    >>> np.round(r.panels[0].levels / r.panels[0].density.max(), 2).tolist()
    [0.25, 0.5, 0.75]
    """
    if kind not in ("surface", "contour"):
        raise ValueError(f"kind must be 'surface' or 'contour', got {kind!r}")
    params = list(params)
    if not params:
        raise ValueError("params is empty; pass at least one (mean, cov) pair")
    lim = check_scalar(lim, "lim", low=0.0, low_open=True)
    n_grid = check_int(n_grid, "n_grid", low=3)
    levels = check_int(levels, "levels", low=1)
    if titles is not None and len(titles) != len(params):
        raise ValueError(f"titles has {len(titles)} entries but params has {len(params)}")
    grid = grid_2d(lim, n_grid)
    xs = grid.xs
    panels = []
    for mean, cov in params:
        factor = factorize_cov(cov)
        Z = mvn_pdf_grid(xs, xs, mean, factor)
        top = max(zmax, 1.05 * float(Z.max())) if kind == "surface" else float("nan")
        lv = (np.linspace(0, _peak(mean, factor), levels + 2)[1:-1] if kind == "contour"
              else np.zeros(0))
        panels.append(GaussianPanel(np.asarray(mean, dtype=float), factor.cov, Z, top, lv))
    return GaussianFigureResult(kind, lim, xs, grid.mesh, tuple(panels),
                                None if titles is None else tuple(titles))
