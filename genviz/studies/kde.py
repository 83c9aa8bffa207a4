"""What the live density-estimation views show (notebook 05), computed: the histogram
(:class:`HistogramStudy`), the KDE as a sum of bumps (:class:`KDEStudy`) and the 2-D KDE
(:class:`KDE2DStudy`); bandwidth selection on claw draws is in
:mod:`genviz.studies.kde_bandwidth`. :mod:`genviz.plots.kde` paints these results; the estimator
itself is in :mod:`genviz.kde`."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.kde import histogram, kde2d_grid, kde_bumps, rule_of_thumb
from genviz.studies._base import Result, Study

__all__ = ["HistogramStatic", "HistogramResult", "HistogramStudy", "KDEStatic", "KDEResult",
           "KDEStudy", "KDE2DStatic", "KDE2DResult", "KDE2DStudy", "KDE2D_LEVELS"]


def _truth(true_pdf, x):
    return None if true_pdf is None else np.asarray(true_pdf(x), dtype=float)


# -- the histogram -------------------------------------------------------------------------------
class HistogramStatic(Result):
    """What the histogram view draws once.

    Attributes
    ----------
    data : ndarray of shape (n,)
    x_range : tuple of float
        The window (by default the data plus 0.5 each side).
    truth_x : ndarray of shape (600,)
        Where the true density is drawn.
    truth : ndarray of shape (600,) or None
        The true density there (None when not given).
    ymax : float
        The density axis' top: 1.05 times the tallest bar over five origins at the narrowest
        width.
    """

    data: np.ndarray
    x_range: tuple
    truth_x: np.ndarray
    truth: object
    ymax: float


class HistogramResult(Result):
    """A histogram density of the data (:func:`genviz.kde.histogram`).

    Attributes
    ----------
    edges : ndarray of shape (n_bins + 1,)
    density : ndarray of shape (n_bins,)
    n_bins : int
    width : float
    origin : float
    empty_bins : int
        Bins no point falls in.
    tallest : float
        The tallest bar.
    """

    edges: np.ndarray
    density: np.ndarray
    n_bins: int
    width: float
    origin: float
    empty_bins: int
    tallest: float


class HistogramStudy(Study):
    """A histogram density with any bin ``width`` and ``origin``, over the true density.

    Examples
    --------
    >>> r = HistogramStudy([0.1, 0.2, 0.7])(width=0.5, origin=0.0)
    >>> r.density.round(4).tolist(), r.empty_bins
    ([1.3333, 0.6667], 0)
    """

    def __init__(self, data, *, true_pdf=None, x_range=None, min_width=0.05):
        self.data = np.asarray(data, dtype=float)
        self.x_range = (tuple(x_range) if x_range is not None
                        else (self.data.min() - 0.5, self.data.max() + 0.5))
        self.true_pdf = true_pdf
        self.min_width = min_width

    def static(self) -> HistogramStatic:
        x = np.linspace(*self.x_range, 600)
        # fixed y range: the tallest histogram over the origins at the narrowest width
        top = max(histogram(self.data, self.min_width, o)[1].max()
                  for o in np.linspace(0, self.min_width, 5))
        return HistogramStatic(self.data, self.x_range, x, _truth(self.true_pdf, x), 1.05 * top)

    def __call__(self, *, width=0.3, origin=0.0) -> HistogramResult:
        edges, dens = histogram(self.data, width, origin)  # validates
        return HistogramResult(edges, dens, dens.size, width, origin, int(np.sum(dens == 0)),
                               float(dens.max()))


# -- the KDE as a sum of bumps -------------------------------------------------------------------
class KDEStatic(Result):
    """What the KDE view draws once.

    Attributes
    ----------
    data : ndarray of shape (n,)
    x : ndarray of shape (n_grid,)
        The evaluation grid (by default the data plus 2 each side).
    truth : ndarray of shape (n_grid,) or None
        The true density on ``x`` (None when not given).
    """

    data: np.ndarray
    x: np.ndarray
    truth: object


class KDEResult(Result):
    """The KDE at one bandwidth and kernel, with the bump of every point.

    Attributes
    ----------
    x : ndarray of shape (n_grid,)
    density : ndarray of shape (n_grid,)
        The sum of the bumps: the KDE.
    bumps : ndarray of shape (n, n_grid)
        ``K_h(x - x_i) / n`` for each point.
    segments : ndarray of shape (n, n_grid, 2)
        Each bump as a polyline (x, height).
    h : float
    kernel : str
    integral : float
        Trapezoid integral of the KDE over the window (about 1).
    peak : float
        The KDE's largest value.
    peak_x : float
        Where it is.
    """

    x: np.ndarray
    density: np.ndarray
    bumps: np.ndarray
    segments: np.ndarray
    h: float
    kernel: str
    integral: float
    peak: float
    peak_x: float


class KDEStudy(Study):
    """The KDE of ``data`` as a sum of scaled bumps ``K_h(x - x_i)/n`` at any ``h`` and kernel.

    Examples
    --------
    >>> r = KDEStudy([0.0, 1.0], x_range=(-4, 5), n_grid=901)(h=0.5, kernel="gaussian")
    >>> round(r.integral, 4), r.bumps.shape
    (1.0, (2, 901))
    """

    def __init__(self, data, *, true_pdf=None, x_range=None, n_grid=500):
        self.data = np.asarray(data, dtype=float)
        lo, hi = x_range if x_range is not None else (self.data.min() - 2.0, self.data.max() + 2.0)
        self.x = np.linspace(lo, hi, check_int(n_grid, "n_grid", low=10))
        self.true_pdf = true_pdf

    def static(self) -> KDEStatic:
        return KDEStatic(self.data, self.x, _truth(self.true_pdf, self.x))

    def __call__(self, *, h=0.5, kernel="gaussian") -> KDEResult:
        bumps = kde_bumps(self.x, self.data, h, kernel)  # validates
        dens = bumps.sum(axis=0)
        segs = np.stack([np.broadcast_to(self.x, bumps.shape), bumps], axis=-1)
        i = int(dens.argmax())
        return KDEResult(self.x, dens, bumps, segs, float(h), kernel,
                         float(np.trapezoid(dens, self.x)), float(dens[i]), float(self.x[i]))


# -- the 2-D KDE ---------------------------------------------------------------------------------
#: The 2-D KDE view's contour levels, as fractions of the peak density.
KDE2D_LEVELS = (0.1, 0.3, 0.5, 0.7, 0.9)


class KDE2DStatic(Result):
    """What the 2-D KDE view draws once.

    Attributes
    ----------
    X : ndarray of shape (n, 2)
        The records.
    xs : ndarray of shape (n_grid,)
        The grid along x1 (the data's range plus 10 % each side); ``ys`` along x2.
    ys : ndarray of shape (n_grid,)
    """

    X: np.ndarray
    xs: np.ndarray
    ys: np.ndarray


class KDE2DResult(Result):
    """The 2-D product-Gaussian KDE with bandwidths ``scale`` times Scott's rule per axis.

    Attributes
    ----------
    h : ndarray of shape (2,)
        The bandwidths.
    scale : float
    density : ndarray of shape (n_grid, n_grid)
        The KDE on the grid (rows along x2).
    peak : float
        Its largest value.
    levels : ndarray of shape (5,)
        The contour levels: :data:`KDE2D_LEVELS` of the peak.
    mass : float
        The density summed over the window (about 1).
    """

    h: np.ndarray
    scale: float
    density: np.ndarray
    peak: float
    levels: np.ndarray
    mass: float


class KDE2DStudy(Study):
    """A 2-D Gaussian product-kernel KDE of ``X`` with bandwidths ``scale`` times Scott's rule.

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(200, 2))
    >>> r = KDE2DStudy(X)(scale=1.0)
    >>> r.density.shape, round(r.mass, 1)
    ((100, 100), 1.0)
    """

    def __init__(self, X, *, n_grid=100):
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"X must have shape (n, 2), got {self.X.shape}")
        self.h0 = np.array([rule_of_thumb(self.X[:, k], "scott") for k in range(2)])
        lo = self.X.min(axis=0) - 0.1 * np.ptp(self.X, axis=0)
        hi = self.X.max(axis=0) + 0.1 * np.ptp(self.X, axis=0)
        self.xs = np.linspace(lo[0], hi[0], n_grid)
        self.ys = np.linspace(lo[1], hi[1], n_grid)

    def static(self) -> KDE2DStatic:
        return KDE2DStatic(self.X, self.xs, self.ys)

    def __call__(self, *, scale=1.0) -> KDE2DResult:
        scale = check_scalar(scale, "scale", low=0.0, low_open=True)
        h = scale * self.h0
        Z = kde2d_grid(self.xs, self.ys, self.X, h)
        peak = float(Z.max())
        dx, dy = self.xs[1] - self.xs[0], self.ys[1] - self.ys[0]
        return KDE2DResult(h, scale, Z, peak, peak * np.array(KDE2D_LEVELS),
                           float(Z.sum() * dx * dy))
