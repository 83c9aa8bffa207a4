"""What the static density-estimation figures show (notebook 05), computed: the kernels, the
slides' bandwidth panels, both CV curves with the rules of thumb, held-out scores, the slides'
kernel gallery and histogram-vs-KDE figure. :mod:`genviz.plots.kde_static` paints them."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_scalar
from genviz.kde import (KERNELS, RULES, claw_pdf, cv_curve, histogram, kde_bumps, kde_pdf,
                        kernel_pdf, rule_of_thumb)
from genviz.kernel_gallery import COMPACT, GALLERY, gallery_kernel
from genviz.studies._base import Result

__all__ = ["KernelsResult", "kernels_figure_study", "BandwidthFigureResult",
           "bandwidth_figure_study", "CVPanel", "CVFigureResult", "cv_figure_study",
           "HeldoutSeries", "HeldoutResult", "heldout_figure_study", "KernelGalleryResult",
           "kernel_gallery_figure_study", "HistogramVsKDEResult", "histogram_vs_kde_figure_study",
           "SLIDES_BUMPS_DATA"]

#: The six points of the slides' "Kernel Density Estimate: Visualization" (Wikipedia's figure).
SLIDES_BUMPS_DATA = (-2.1, -1.3, -0.4, 1.9, 5.1, 6.2)


class KernelsResult(Result):
    """Result of :func:`kernels_figure_study`.

    Attributes
    ----------
    u : ndarray of shape (881,)
        The grid ``[-lim, lim]``.
    kernels : list of str
    densities : tuple of ndarrays of shape (881,)
        ``K(u)`` of each kernel at unit bandwidth.
    """

    u: np.ndarray
    kernels: list
    densities: tuple


def kernels_figure_study(kernels=None, *, lim: float = 2.2) -> KernelsResult:
    """Each kernel of ``kernels`` (names in :data:`genviz.kde.KERNELS`, by default all of them)
    on ``[-lim, lim]``.

    Examples
    --------
    >>> r = kernels_figure_study(["box"], lim=1.0)
    >>> float(r.densities[0][440])
    1.0
    """
    kernels = list(KERNELS if kernels is None else kernels)
    u = np.linspace(-lim, lim, 881)
    return KernelsResult(u, kernels, tuple(kernel_pdf(u, name) for name in kernels))


class BandwidthFigureResult(Result):
    """Result of :func:`bandwidth_figure_study`.

    Attributes
    ----------
    x : ndarray of shape (n_grid,)
    x_range : tuple of float
    h : float
        The "just right" bandwidth.
    truth : ndarray of shape (n_grid,)
        The true density on ``x``.
    curves : tuple of four ndarrays of shape (n_grid,)
        The true density, then the KDE at ``h / 10``, ``h`` and ``10 h``.
    ymax : float
        1.15 times the highest of the first three curves.
    """

    x: np.ndarray
    x_range: tuple
    h: float
    truth: np.ndarray
    curves: tuple
    ymax: float


def bandwidth_figure_study(data, h, *, x_range=(-3.0, 3.0), true_pdf=None,
                           n_grid: int = 801) -> BandwidthFigureResult:
    """The slides' four panels: the true density (``true_pdf``, by default the claw) and the
    KDE of ``data`` over-fitted (h/10), just right (h) and under-fitted (10h).

    Examples
    --------
    >>> r = bandwidth_figure_study([0.0, 0.5, 1.0], 0.3, n_grid=101)
    >>> len(r.curves), bool(r.curves[1].max() > r.curves[3].max())
    (4, True)
    """
    h = check_scalar(h, "h", low=0.0, low_open=True)
    x = np.linspace(*x_range, n_grid)
    truth = (claw_pdf if true_pdf is None else true_pdf)(x)
    curves = (truth, kde_pdf(x, data, h / 10), kde_pdf(x, data, h), kde_pdf(x, data, 10 * h))
    return BandwidthFigureResult(x, tuple(x_range), h, truth, curves,
                                 1.15 * max(float(np.max(c)) for c in curves[:3]))


class CVPanel(Result):
    """One criterion of :func:`cv_figure_study`.

    Attributes
    ----------
    curve : ndarray of shape (m,)
        The criterion at every bandwidth.
    finite_h : ndarray of shape (k,)
        The bandwidths where it is finite; ``finite`` its values there.
    finite : ndarray of shape (k,)
    best : float
        The optimal bandwidth on the grid; ``best_value`` the criterion there.
    best_value : float
    ylim : tuple of float
        The axis range: the 2nd to 100th percentile (LOO) or 0th to 98th (LSCV), plus 8 %.
    """

    curve: np.ndarray
    finite_h: np.ndarray
    finite: np.ndarray
    best: float
    best_value: float
    ylim: tuple


class CVFigureResult(Result):
    """Result of :func:`cv_figure_study`.

    Attributes
    ----------
    hs : ndarray of shape (m,)
    loo : CVPanel
        Mean leave-one-out log-likelihood (higher is better).
    lscv : CVPanel
        Least-squares CV (lower is better).
    rules : dict
        Rule-of-thumb name -> bandwidth (:data:`genviz.kde.RULES`).
    cv_state : dict
        ``hs``, ``loo``, ``lscv``, ``h_loo``, ``h_lscv`` and the rules (``fig.cv_state``).
    """

    hs: np.ndarray
    loo: CVPanel
    lscv: CVPanel
    rules: dict
    cv_state: dict


def _cv_panel(hs, curve, best, percentiles) -> CVPanel:
    finite = np.isfinite(curve)
    lo = np.percentile(curve[finite], percentiles[0])
    hi = np.percentile(curve[finite], percentiles[1])
    pad = 0.08 * (hi - lo)
    return CVPanel(curve, hs[finite], curve[finite], best, curve[hs == best][0],
                   (lo - pad, hi + pad))


def cv_figure_study(data, hs, *, kernel: str = "gaussian") -> CVFigureResult:
    """Both CV curves of ``data`` over ``hs``, their optima and the rules of thumb.

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(size=200)
    >>> r = cv_figure_study(x, np.geomspace(0.05, 2.0, 30))
    >>> bool(r.cv_state["h_loo"] == r.loo.best), sorted(r.rules)
    (True, ['scott', 'silverman'])
    """
    hs = np.asarray(hs, dtype=float)
    loo = cv_curve(data, hs, "loo-likelihood", kernel)
    ls = cv_curve(data, hs, "lscv", kernel)
    rules = {r: rule_of_thumb(data, r, kernel) for r in RULES}
    h_loo, h_ls = hs[int(np.argmax(loo))], hs[int(np.argmin(ls))]
    return CVFigureResult(hs, _cv_panel(hs, loo, h_loo, (2, 100)),
                          _cv_panel(hs, ls, h_ls, (0, 98)), rules,
                          dict(hs=hs, loo=loo, lscv=ls, h_loo=h_loo, h_lscv=h_ls, **rules))


class HeldoutSeries(Result):
    """One line of :func:`heldout_figure_study`.

    Attributes
    ----------
    x_finite : ndarray of shape (k,)
        The bandwidths or widths with a finite score; ``y_finite`` the scores.
    y_finite : ndarray of shape (k,)
    x_infinite : ndarray of shape (j,)
        Those whose score is ``-inf`` (a test point in an empty bin).
    """

    x_finite: np.ndarray
    y_finite: np.ndarray
    x_infinite: np.ndarray


class HeldoutResult(Result):
    """Result of :func:`heldout_figure_study`.

    Attributes
    ----------
    kde : HeldoutSeries
        KDE scores against h.
    histogram : HeldoutSeries
        Histogram scores against bin width.
    """

    kde: HeldoutSeries
    histogram: HeldoutSeries


def _series(xs, ys) -> HeldoutSeries:
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    ok = np.isfinite(ys)
    return HeldoutSeries(xs[ok], ys[ok], xs[~ok])


def heldout_figure_study(hs, kde_scores, widths, hist_scores) -> HeldoutResult:
    """Held-out scores split into the finite ones and the ``-inf`` ones.

    Examples
    --------
    >>> r = heldout_figure_study([0.1, 0.2], [-1.3, -1.2], [0.1, 0.2], [-np.inf, -1.4])
    >>> r.histogram.x_infinite.tolist(), r.histogram.y_finite.tolist()
    ([0.1], [-1.4])
    """
    return HeldoutResult(_series(hs, kde_scores), _series(widths, hist_scores))


class KernelGalleryResult(Result):
    """Result of :func:`kernel_gallery_figure_study`.

    Attributes
    ----------
    u : ndarray of shape (1201,)
    names : list of str
        The eleven kernels of :data:`genviz.kernel_gallery.GALLERY`.
    densities : tuple of ndarrays of shape (1201,)
    compact : list of bool
        Whether each kernel's support is [-1, 1].
    """

    u: np.ndarray
    names: list
    densities: tuple
    compact: list


def kernel_gallery_figure_study(*, lim: float = 3.0) -> KernelGalleryResult:
    """The slides' eleven kernels (:mod:`genviz.kernel_gallery`) on ``[-lim, lim]``.

    Examples
    --------
    >>> r = kernel_gallery_figure_study()
    >>> len(r.names), r.compact[r.names.index("uniform")]
    (11, True)
    """
    u = np.linspace(-lim, lim, 1201)
    names = list(GALLERY)
    return KernelGalleryResult(u, names, tuple(gallery_kernel(u, n) for n in names),
                               [n in COMPACT for n in names])


class HistogramVsKDEResult(Result):
    """Result of :func:`histogram_vs_kde_figure_study`.

    Attributes
    ----------
    data : ndarray of shape (n,)
    x : ndarray of shape (901,)
    x_range : tuple of float
    width : float
        The bin width.
    edges : ndarray of shape (n_bins + 1,)
    heights : ndarray of shape (n_bins,)
        The histogram's densities.
    h : float
        The KDE's bandwidth.
    bumps : ndarray of shape (n, 901)
        Each point's scaled bump.
    kde : ndarray of shape (901,)
        Their sum.
    ymax : float
        1.3 times the highest of the bars and the KDE.
    bumps_state : dict
        ``x``, ``bumps``, ``kde``, ``edges``, ``heights`` (``fig.bumps_state``).
    """

    data: np.ndarray
    x: np.ndarray
    x_range: tuple
    width: float
    edges: np.ndarray
    heights: np.ndarray
    h: float
    bumps: np.ndarray
    kde: np.ndarray
    ymax: float
    bumps_state: dict


def histogram_vs_kde_figure_study(data=SLIDES_BUMPS_DATA, *, width: float = 2.0,
                                  origin: float = -4.0, h: float = 1.5,
                                  x_range=(-8.0, 12.0)) -> HistogramVsKDEResult:
    """A histogram of ``data`` beside its Gaussian KDE with each point's bump (the slides'
    "Kernel Density Estimate: Visualization").

    Examples
    --------
    >>> r = histogram_vs_kde_figure_study()
    >>> (r.heights * 12).round(6).tolist(), r.bumps.shape   # points per bin of width 2
    ([1.0, 2.0, 1.0, 0.0, 1.0, 1.0], (6, 901))
    """
    data = np.asarray(data, dtype=float)
    h = check_scalar(h, "h", low=0.0, low_open=True)
    width = check_scalar(width, "width", low=0.0, low_open=True)
    x = np.linspace(*x_range, 901)
    edges, heights = histogram(data, width=width, origin=origin)
    bumps = kde_bumps(x, data, h, "gaussian")
    f_hat = kde_pdf(x, data, h)
    return HistogramVsKDEResult(data, x, tuple(x_range), width, edges, heights, h, bumps, f_hat,
                                1.3 * max(float(heights.max()), float(f_hat.max())),
                                dict(x=x, bumps=bumps, kde=f_hat, edges=edges, heights=heights))
