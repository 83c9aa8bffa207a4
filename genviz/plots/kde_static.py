"""Static figures of density estimation (notebook 05): the kernels, the slides' bandwidth
panels, both CV curves with the rules of thumb, held-out scores, the slides' kernel gallery and
histogram-vs-KDE figure. The live views are in :mod:`genviz.plots.kde`."""

from __future__ import annotations

import numpy as np

from genviz.plots._base import finish_layout, new_figure
from genviz.plots.style import CLASS_COLORS, PALETTE, explorer_figsize, panel_grid
from genviz.studies.kde_static import (SLIDES_BUMPS_DATA, BandwidthFigureResult, CVFigureResult,
                                       HeldoutResult, HistogramVsKDEResult, KernelGalleryResult,
                                       KernelsResult, bandwidth_figure_study, cv_figure_study,
                                       heldout_figure_study, histogram_vs_kde_figure_study,
                                       kernel_gallery_figure_study, kernels_figure_study)
__all__ = ["kernels_figure", "bandwidth_figure", "cv_figure", "heldout_figure",
           "kernel_gallery_figure", "histogram_vs_kde_figure", "SLIDES_BUMPS_DATA",
           "KERNEL_LABELS"]

KERNEL_LABELS = {"gaussian": "Gaussian", "box": "box (slides)", "tophat": "tophat",
                 "epanechnikov": "Epanechnikov", "triangular": "triangular"}


def kernels_figure(kernels=None, *, lim: float = 2.2):
    """The kernels side by side, each a density ``K(u)`` at unit bandwidth (by default all of
    :data:`genviz.kde.KERNELS`)."""
    return _paint_kernels(kernels_figure_study(kernels, lim=lim))


def _paint_kernels(r: KernelsResult):
    # at most three panels a row (7.8 in: the output area at 1280 px), more rows below
    nrows, ncols = panel_grid(len(r.kernels), 3)
    fig = new_figure(figsize=explorer_figsize(2.6 * ncols, 2.5 * nrows))
    axes = np.atleast_1d(fig.subplots(nrows, ncols, sharey=True, squeeze=False)).ravel()
    for ax in axes[len(r.kernels):]:
        ax.remove()
    axes = axes[:len(r.kernels)]
    for ax, name, density, color in zip(axes, r.kernels, r.densities, CLASS_COLORS * 2):
        ax.fill_between(r.u, density, color=color, alpha=0.25, lw=0)
        ax.plot(r.u, density, color=color, lw=2)
        ax.set_title(KERNEL_LABELS[name], fontsize="medium")
        ax.set_xlabel("$u$")
        ax.set_ylim(0, 1.1)
        ax.grid(alpha=0.3)
    for ax in axes[::ncols]:
        ax.set_ylabel("$K(u)$")
    finish_layout(fig)
    return fig


def bandwidth_figure(data, h, *, x_range=(-3.0, 3.0), true_pdf=None, n_grid: int = 801):
    """The slides' four panels: true density (by default the claw), over-fitted (h/10), just
    right (h), under-fitted (10h)."""
    return _paint_bandwidths(bandwidth_figure_study(data, h, x_range=x_range, true_pdf=true_pdf,
                                                    n_grid=n_grid))


def _paint_bandwidths(r: BandwidthFigureResult):
    h = r.h
    # 2 x 2 panels: four in a row are wider than the output area at 1280 px
    fig = new_figure(figsize=explorer_figsize(7.8, 4.8))
    axes = fig.subplots(2, 2, sharex=True, sharey=True).ravel()
    titles = ("True density", f"Overfitted: h/10 = {h / 10:.3g}",
              f"Just right: h = {h:.3g} (LOO CV)", f"Underfitted: 10h = {10 * h:.3g}")
    colors = (PALETTE["black"], PALETTE["vermillion"], PALETTE["blue"], PALETTE["orange"])
    for i, (ax, title, y, color) in enumerate(zip(axes, titles, r.curves, colors)):
        if i > 0:
            ax.plot(r.x, r.truth, color="0.6", lw=1, ls="--")
        ax.plot(r.x, y, color=color, lw=1.6)
        ax.set_title(title, fontsize="medium")
        ax.set_xlim(*r.x_range)
        ax.grid(alpha=0.3)
    for ax in axes[2:]:
        ax.set_xlabel("$x$")
    for ax in axes[::2]:
        ax.set_ylabel("density")
    axes[0].set_ylim(0, r.ymax)
    finish_layout(fig)
    return fig


def cv_figure(data, hs, *, kernel: str = "gaussian"):
    """Both CV curves over ``hs`` with their optima marked and the rules of thumb beside them.

    Returns the figure; ``fig.cv_state`` holds the curves, the selected bandwidths and the rules.
    """
    return _paint_cv(cv_figure_study(data, hs, kernel=kernel))


def _paint_cv(r: CVFigureResult):
    # stacked: side by side they are wider than the output area at 1280 px
    fig = new_figure(figsize=explorer_figsize(7.8, 5.6))
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    for ax, panel, title, ylabel, color in (
            (ax1, r.loo, "Leave-one-out log-likelihood (higher is better)",
             r"$\frac{1}{n}\sum_i \log \hat f_{-i}(x_i)$", PALETTE["blue"]),
            (ax2, r.lscv, "Least-squares CV (lower is better)",
             r"$\int \hat f^2 - \frac{2}{n}\sum_i \hat f_{-i}(x_i)$", PALETTE["green"])):
        ax.semilogx(panel.finite_h, panel.finite, color=color, lw=2)
        ax.plot([panel.best], [panel.best_value], "o", color=color, ms=9, mec="k",
                label=f"optimum h = {panel.best:.3g}")
        for (name, h), ls_ in zip(r.rules.items(), ("--", ":")):
            ax.axvline(h, color=PALETTE["vermillion"], ls=ls_, lw=1.5,
                       label=f"{name.capitalize()} h = {h:.3g}")
        ax.set_title(title, fontsize="medium")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3, which="both")
        # beside the axes: inside, the three entries cover the curve
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
        ax.set_ylim(*panel.ylim)
    ax2.set_xlabel("bandwidth $h$")
    finish_layout(fig)
    fig.cv_state = r.cv_state
    return fig


def heldout_figure(hs, kde_scores, widths, hist_scores):
    """Held-out mean log-likelihood of KDEs (vs h) and histograms (vs bin width).

    ``-inf`` scores (a test point in an empty bin) are drawn as crosses on the bottom edge.
    """
    return _paint_heldout(heldout_figure_study(hs, kde_scores, widths, hist_scores))


def _paint_heldout(r: HeldoutResult):
    fig = new_figure(figsize=explorer_figsize(7.0, 4.0))
    ax = fig.add_subplot()
    for series, label, color, marker in ((r.kde, "KDE (Gaussian), x = h", PALETTE["blue"], "o"),
                                         (r.histogram, "histogram, x = bin width",
                                          PALETTE["vermillion"], "s")):
        ax.semilogx(series.x_finite, series.y_finite, marker=marker, color=color, label=label)
        if series.x_infinite.size:
            ax.plot(series.x_infinite, np.full(series.x_infinite.size, 0.0), "x", color=color,
                    ms=10, mew=2, transform=ax.get_xaxis_transform(), clip_on=False,
                    label=f"{label.split(',')[0]}: -inf (test point in an empty bin)")
    ax.set_xlabel("h or bin width")
    ax.set_ylabel("mean held-out log-likelihood")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize="small", loc="lower center", bbox_to_anchor=(0.5, 0.07))
    finish_layout(fig)
    return fig


# --- static figures of the DS5220 slides -------------------------------------------------------

def kernel_gallery_figure(*, lim: float = 3.0, figsize=None):
    """The slides' "Kernel Visualization": the eleven kernels of Wikipedia's Kernels.svg on
    one axes, each in its standard form (compact ones on [-1, 1]); see
    :mod:`genviz.kernel_gallery`."""
    return _paint_gallery(kernel_gallery_figure_study(lim=lim), figsize=figsize)


def _paint_gallery(r: KernelGalleryResult, *, figsize=None):
    u = r.u
    lim = u[-1]
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.4))
    ax = fig.add_subplot()
    colors = list(PALETTE.values())
    # one colour each, solid; past the palette's eight the colours again, dashed
    cycle = [*colors, *colors]
    styles = [*["-"] * len(colors), *["--"] * len(colors)]
    for i, (name, density, compact) in enumerate(zip(r.names, r.densities, r.compact)):
        ax.plot(u, density, color=cycle[i], ls=styles[i],
                lw=1.8, label=name + (" (support [-1, 1])" if compact else ""))
    ax.axhline(0, color="0.5", lw=0.6)
    ax.set(xlim=(-lim, lim), ylim=(-0.05, 1.18), xlabel="$u$", ylabel="$K(u)$",
           title="Kernels in common use (each integrates to 1)")
    ax.title.set_fontsize("medium")
    ax.grid(alpha=0.3)
    # eleven entries: beside the axes in "small" (inside, "x-small" was too small to read)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
              frameon=False)
    finish_layout(fig)
    return fig


def histogram_vs_kde_figure(data=SLIDES_BUMPS_DATA, *, width: float = 2.0, origin: float = -4.0,
                            h: float = 1.5, x_range=(-8.0, 12.0), figsize=None):
    r"""The slides' "Kernel Density Estimate: Visualization" (Wikipedia's comparison): a
    histogram of six points (bins of width 2) beside their KDE with a normal kernel of standard
    deviation ``h = 1.5`` (variance 2.25), each point's scaled bump
    :math:`\frac{1}{n h} K((x - x_i)/h)` dashed and their sum solid.

    Returns the figure; ``fig.bumps_state`` holds the grid, the bumps (n, len(grid)), the KDE and
    the histogram heights.
    """
    return _paint_histogram_vs_kde(histogram_vs_kde_figure_study(
        data, width=width, origin=origin, h=h, x_range=x_range), figsize=figsize)


def _paint_histogram_vs_kde(r: HistogramVsKDEResult, *, figsize=None):
    # stacked: side by side they are wider than the output area at 1280 px
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 5.6))
    ax1, ax2 = fig.subplots(2, 1, sharex=True, sharey=True)
    ax1.bar(r.edges[:-1], r.heights, width=r.width, align="edge", color=PALETTE["sky"],
            edgecolor=PALETTE["black"], lw=0.8, label=f"histogram, bins of width {r.width:g}")
    ax1.set_title("Histogram", fontsize="medium")
    for i, b in enumerate(r.bumps):
        ax2.plot(r.x, b, color=PALETTE["vermillion"], ls="--", lw=1.2,
                 label=r"bumps $\frac{1}{nh}K\left(\frac{x-x_i}{h}\right)$" if i == 0 else None)
    ax2.plot(r.x, r.kde, color=PALETTE["blue"], lw=2.2, label=r"KDE $\hat f(x)$ = their sum")
    ax2.set_title(f"Kernel density estimate (normal kernel, h = {r.h:g})", fontsize="medium")
    for ax in (ax1, ax2):
        ax.plot(r.data, np.zeros_like(r.data), "|", color=PALETTE["black"], ms=14, mew=2,
                label=f"data (n = {r.data.size})")
        ax.set(xlim=r.x_range, ylabel="density")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="upper right")
    ax2.set_xlabel("$x$")
    ax1.set_ylim(0, r.ymax)
    finish_layout(fig)
    fig.bumps_state = r.bumps_state
    return fig
