"""Live views of density estimation (notebook 05): the histogram, the KDE as a sum of bumps,
bandwidth selection on the claw density, the 2-D KDE. The static figures (kernels, bandwidth
panels, CV curves, held-out scores, the slides' kernel gallery and histogram-vs-KDE) are in
:mod:`genviz.plots.kde_static`."""

from __future__ import annotations


import numpy as np
from matplotlib.collections import LineCollection

from genviz.plots._base import View, fmt, new_figure, plain_text
from genviz.plots.style import (DENSITY_CMAP, PALETTE, by_layout, cmap_colors, explorer_figsize,
                                legend_or_under, subplot_grid)
from genviz.studies.kde import (KDE2D_LEVELS, HistogramResult, HistogramStudy, KDE2DResult,
                                KDE2DStudy, KDEResult, KDEStudy)
from genviz.studies.kde_bandwidth import BandwidthResult, BandwidthStudy

__all__ = ["HistogramView", "KDEView", "BandwidthView", "KDE2DView", "rug"]


def rug(ax, data, color=PALETTE["black"], zorder=None):
    """The data as ticks on the x axis (one per point), labelled with n."""
    extra = {} if zorder is None else {"zorder": zorder}
    return ax.plot(data, np.zeros_like(data), "|", color=color, ms=9, alpha=0.6,
                   label=f"data (n = {data.size})", **extra)[0]


def _density_axes(ax, xlim, ymax, *, narrow_under=False):
    """The density explorers' axes: x over ``xlim``, density from 0 to ``ymax``, legend, grid
    (``narrow_under``: the legend under the figure in the narrow layout)."""
    ax.set_xlim(*xlim)
    ax.set_ylim(0, ymax)
    ax.set_xlabel("$x$")
    ax.set_ylabel("density")
    if narrow_under:
        legend_or_under(ax, loc="upper right", fontsize="small")
    else:
        ax.legend(loc="upper right", fontsize="small")
    ax.grid(alpha=0.3)


class HistogramView(View, study=HistogramStudy):
    """A histogram density with adjustable bin width and origin, over the true density.

    ``update(width=, origin=)``; ``state`` is a :class:`~genviz.studies.kde.HistogramResult`:
    ``edges``, ``density``, ``n_bins``, ``width``, ``origin``, ``empty_bins``, ``tallest``.
    """

    def __init__(self, data, width=0.3, origin=0.0, *, true_pdf=None, x_range=None,
                 min_width=0.05, figsize=None):
        static = self.use_study(data, true_pdf=true_pdf, x_range=x_range, min_width=min_width)
        self.data = static.data
        # narrow: a taller panel, its legend under the figure
        figsize = figsize or explorer_figsize(7.0, 4.0, narrow_aspect=0.75)
        super().__init__(new_figure(figsize=figsize))
        lo, hi = static.x_range
        ax = self.ax = self.fig.add_subplot()
        self._stairs = self.animate(ax.stairs([0.0], [0.0, 1.0], fill=True, color=PALETTE["sky"],
                                              alpha=0.7, label="histogram"))
        if static.truth is not None:
            ax.plot(static.truth_x, static.truth, color=PALETTE["black"], lw=1.5,
                    label="true density")
        rug(ax, self.data)
        _density_axes(ax, (lo, hi), static.ymax, narrow_under=True)
        self.update(width=width, origin=origin)
        self.finish_layout()

    def paint(self, r: HistogramResult, changed) -> None:
        self._stairs.set_data(r.density, r.edges)

    def describe(self) -> str:
        """Alt text from the state: bin width, origin, number of bins and empty bins."""
        s = self.state
        return (f"Histogram density estimate of {self.data.size} points with bin width "
                f"{fmt(s['width'])} and origin {fmt(s['origin'])}: {s['n_bins']} bins, "
                f"{s['empty_bins']} of them empty, tallest bar {fmt(s['tallest'])}, "
                f"drawn over the true density with the data as a rug.")


class KDEView(View, study=KDEStudy):
    """The KDE as a sum of scaled bumps ``K_h(x - x_i)/n`` with bandwidth and kernel controls.

    ``update(h=, kernel=)``; ``state`` is a :class:`~genviz.studies.kde.KDEResult`: ``x``,
    ``density``, ``bumps``, ``h``, ``kernel``, ``integral`` (trapezoid over the window: ~1),
    ``peak``.
    """

    def __init__(self, data, h=0.5, kernel="gaussian", *, true_pdf=None, x_range=None,
                 n_grid=500, ymax=None, figsize=None):
        static = self.use_study(data, true_pdf=true_pdf, x_range=x_range, n_grid=n_grid)
        self.data, self.x = static.data, static.x
        # narrow: a taller panel, its legend under the figure
        figsize = figsize or explorer_figsize(7.0, 4.0, narrow_aspect=0.75)
        super().__init__(new_figure(figsize=figsize))
        ax = self.ax = self.fig.add_subplot()
        self._bumps = self.animate(ax.add_collection(LineCollection(
            [], colors=PALETTE["orange"], linewidths=1.0, alpha=0.9,
            label=r"bumps $K_h(x - x_i)/n$")))
        (self._sum,) = ax.plot([], [], color=PALETTE["blue"], lw=2.4, label=r"$\hat f(x)$ = sum")
        self.animate(self._sum)
        # the truth and the data under the estimate (zorder < 2), as the bandwidth view draws
        # them: the moving curve on top, and the static ones in the background image, not
        # repeated in every recorded frame (the explorer's grid stays within its budget)
        if static.truth is not None:
            ax.plot(self.x, static.truth, color=PALETTE["black"], lw=1.2, ls="--",
                    label="true density", zorder=1.9)
        rug(ax, self.data, zorder=1.9)
        _density_axes(ax, (self.x[0], self.x[-1]), ymax if ymax is not None else 0.9,
                      narrow_under=True)
        self.update(h=h, kernel=kernel)
        self.finish_layout()

    def paint(self, r: KDEResult, changed) -> None:
        self._bumps.set_segments(r.segments)
        self._sum.set_data(r.x, r.density)

    def describe(self) -> str:
        """Alt text from the state: bandwidth, kernel, the sum of bumps and its integral."""
        s = self.state
        return (f"Kernel density estimate of {self.data.size} points as a sum of {s['kernel']} "
                f"bumps K_h(x − xᵢ)/n with bandwidth h = {fmt(s['h'])}: the estimate peaks at "
                f"{fmt(s['peak'])} near x = {fmt(s['peak_x'])} and integrates to "
                f"{fmt(s['integral'])} over the window.")


class BandwidthView(View, study=BandwidthStudy):
    """Claw-density draws: the KDE at bandwidth h (top) and both CV curves with h marked (below).

    The numbers come from a :class:`genviz.studies.kde_bandwidth.BandwidthStudy` (``study``; by default
    one built from ``seed``, ``hs``, ``x_range`` and ``n_grid``), which owns the samples, their
    CV sweeps (computed once per ``n``, or prefetched) and the KDE at ``h``; the view only draws
    them. ``update(n=, h=)``; ``state`` is a :class:`~genviz.studies.kde_bandwidth.BandwidthResult`:
    ``n``, ``h``, ``hs``, ``loo``, ``lscv``, ``h_loo``, ``h_lscv``, ``silverman``, ``scott``,
    ``loo_at_h``, ``lscv_at_h`` (interpolated from the sweeps), ``ise`` (integrated squared
    error of the KDE at h against the true claw).
    """

    def __init__(self, n=1000, h=0.05, *, seed=0, hs=None, x_range=(-3.0, 3.0), n_grid=400,
                 study=None, figsize=None):
        static = self.use_study(study=study, seed=seed, hs=hs, x_range=x_range, n_grid=n_grid)
        self.hs, self.x = static.hs, static.x
        # stacked: the KDE above its CV curves, within the output-area width budget
        # narrow: taller panels, the CV legend takes four rows there
        figsize = figsize or explorer_figsize(7.8, 5.8, panels=(2, 1), narrow_aspect=0.72)
        super().__init__(new_figure(figsize=figsize))
        self.ax, self.cax = subplot_grid(self.fig, 2, 1)
        self._draw_kde_axes(static)
        self._draw_cv_axes(static.h_range)
        self.update(n=n, h=h)
        self.finish_layout()

    def _draw_kde_axes(self, static):
        ax = self.ax
        ax.plot(self.x, static.truth, color=PALETTE["black"], lw=1.2, ls="--",
                label="true claw")
        (self._kde,) = ax.plot([], [], color=PALETTE["blue"], lw=1.6, label=r"$\hat f_h$")
        _density_axes(ax, (self.x[0], self.x[-1]), 1.0)

    def _draw_cv_axes(self, h_range):
        cax = self.cax
        (self._loo,) = cax.semilogx([], [], color=PALETTE["blue"], lw=2,
                                    label="LOO log-lik. (higher better)")
        self._ls_ax = cax.twinx()
        (self._ls,) = self._ls_ax.semilogx([], [], color=PALETTE["green"], lw=2,
                                           label="LSCV (lower better, right axis)")
        (self._loo_best,) = cax.plot([], [], "o", color=PALETTE["blue"], mec="k", ms=8)
        (self._ls_best,) = self._ls_ax.plot([], [], "o", color=PALETTE["green"], mec="k", ms=8)
        self._h_line = cax.axvline(1.0, color=PALETTE["vermillion"], lw=1.5, label="current h")
        self._silver = cax.axvline(1.0, color="0.4", ls=":", lw=1.5, label="Silverman")
        cax.set_xlim(*h_range)
        # fixed limits (they hold both curves' optima for claw samples of 100..2000 draws), so a
        # new n re-draws only the animated curves: no full redraw
        cax.set_ylim(-3.0, -1.05)
        self._ls_ax.set_ylim(-0.40, -0.20)
        cax.set_xlabel("bandwidth $h$")
        cax.set_ylabel("mean LOO log-likelihood")
        self._ls_ax.set_ylabel("LSCV score")
        cax.grid(alpha=0.3, which="both")
        lines = [self._loo, self._ls, self._h_line, self._silver]
        cax.legend(lines, [ln.get_label() for ln in lines], loc="lower center",
                   ncol=by_layout(2, 1), bbox_to_anchor=(0.5, 1.0), fontsize="small", frameon=False)
        self.animate(self._kde, self._h_line, self._loo, self._ls, self._loo_best, self._ls_best,
                     self._silver)

    def prefetch(self, ns) -> None:
        """Have the study compute the sweeps of each ``n`` in ``ns`` in the background, those
        nearest the current ``n`` first (:meth:`genviz.studies.kde_bandwidth.BandwidthStudy.prefetch`):
        the explorer calls this once a browser shows it, so that moving the n slider later
        costs no sweep (~0.15 s) on its path. :meth:`close` cancels what has not started."""
        super().prefetch(ns, near=self.params["n"])

    def paint(self, r: BandwidthResult, changed) -> None:
        self.data = r.data
        self._loo.set_data(r.loo_finite_h, r.loo_finite)
        self._ls.set_data(r.hs, r.lscv)
        self._loo_best.set_data([r.h_loo], [r.loo_best])
        self._ls_best.set_data([r.h_lscv], [r.lscv_best])
        self._silver.set_xdata([r.silverman, r.silverman])
        self._kde.set_data(self.x, r.density)
        self._h_line.set_xdata([r.h, r.h])

    def describe(self) -> str:
        """Alt text from the state: h, the CV optima and the rule of thumb."""
        s = self.state
        return (f"Two panels for n = {s['n']} draws from the claw density: top, the KDE at "
                f"h = {fmt(s['h'])} over the true claw (integrated squared error "
                f"{fmt(s['ise'])}); below it, the leave-one-out log-likelihood (best h = "
                f"{fmt(s['h_loo'])}) and the least-squares CV score (best h = "
                f"{fmt(s['h_lscv'])}) against h on a log axis, with the current h and "
                f"Silverman's rule (h = {fmt(s['silverman'])}) marked.")


class KDE2DView(View, study=KDE2DStudy):
    """2-D Gaussian product-kernel KDE over a scatter; bandwidths as multiples of Scott's rule.

    The density is drawn as contour lines at 10 %, 30 %, 50 %, 70 % and 90 % of its peak (lines
    only: a slider move repaints few pixels). ``update(scale=)``; ``state`` is a
    :class:`~genviz.studies.kde.KDE2DResult`: ``h`` (per axis), ``density`` (grid), ``peak``,
    ``mass`` (integral over the window).
    """

    LEVELS = KDE2D_LEVELS

    def __init__(self, X, scale=1.0, *, labels=("$x_1$", "$x_2$"), n_grid=100, figsize=None):
        static = self.use_study(X, n_grid=n_grid)
        self.X, self.xs, self.ys = static.X, static.xs, static.ys
        super().__init__(new_figure(figsize=figsize or explorer_figsize(6.4, 4.8)))
        ax = self.ax = self.fig.add_subplot()
        self._contours = None
        ax.scatter(self.X[:, 0], self.X[:, 1], s=7, color=PALETTE["black"], alpha=0.45, lw=0,
                   zorder=3, label=f"{self.X.shape[0]} records")
        for lev, color in zip(self.LEVELS, self._colors()):
            ax.plot([], [], color=color, lw=1.6, label=f"{int(100 * lev)} % of peak")
        ax.set_xlim(self.xs[0], self.xs[-1])
        ax.set_ylim(self.ys[0], self.ys[-1])
        ax.set_xlabel(labels[0])
        ax.set_ylabel(labels[1])
        ax.legend(loc="upper right", fontsize="small", title="KDE contours",
                  title_fontsize="small")
        ax.grid(alpha=0.3)
        self.update(scale=scale)
        self.finish_layout()

    def _colors(self):
        return cmap_colors(DENSITY_CMAP, len(self.LEVELS), 0.15, 0.7)

    def paint(self, r: KDE2DResult, changed) -> None:
        new = self.ax.contour(self.xs, self.ys, r.density, levels=r.levels,
                              colors=self._colors(), linewidths=1.6, zorder=4)
        self._contours = self.replace_animated(self._contours, new)

    def describe(self) -> str:
        """Alt text from the state: the bandwidths and the contour levels."""
        s = self.state
        x, y = (plain_text(self.ax.get_xlabel()), plain_text(self.ax.get_ylabel()))
        return (f"Scatter of {self.X.shape[0]} records, {y} against {x}, with contours of a "
                f"2-D product-kernel KDE at 10, 30, 50, 70 and 90 % of its peak "
                f"({fmt(s['peak'])}); bandwidths {fmt(s['h'][0])} and {fmt(s['h'][1])}, "
                f"{fmt(s['scale'])} × Scott's rule.")
