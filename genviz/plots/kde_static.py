"""Static figures of density estimation (notebook 05): the kernels, the slides' bandwidth
panels, both CV curves with the rules of thumb, held-out scores, the slides' kernel gallery and
histogram-vs-KDE figure. The live views are in :mod:`genviz.plots.kde`."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_scalar
from genviz.kde import (KERNELS, RULES, claw_pdf, cv_curve, histogram, kde_bumps, kde_pdf, kernel_pdf,
                        rule_of_thumb)
from genviz.kernel_gallery import COMPACT as _COMPACT, GALLERY as _GALLERY, gallery_kernel
from genviz.plots._base import finish_layout, new_figure
from genviz.plots.style import CLASS_COLORS, PALETTE, explorer_figsize

__all__ = ["kernels_figure", "bandwidth_figure", "cv_figure", "heldout_figure",
           "kernel_gallery_figure", "histogram_vs_kde_figure", "SLIDES_BUMPS_DATA",
           "KERNEL_LABELS"]

KERNEL_LABELS = {"gaussian": "Gaussian", "box": "box (slides)", "tophat": "tophat",
                 "epanechnikov": "Epanechnikov", "triangular": "triangular"}


def kernels_figure(kernels=KERNELS, *, lim: float = 2.2):
    """The kernels side by side, each a density ``K(u)`` at unit bandwidth."""
    kernels = list(kernels)
    u = np.linspace(-lim, lim, 881)
    # at most three panels a row (7.8 in: the output area at 1280 px), more rows below
    ncols = min(3, len(kernels))
    nrows = -(-len(kernels) // ncols)
    fig = new_figure(figsize=explorer_figsize(2.6 * ncols, 2.5 * nrows))
    axes = np.atleast_1d(fig.subplots(nrows, ncols, sharey=True, squeeze=False)).ravel()
    for ax in axes[len(kernels):]:
        ax.remove()
    axes = axes[:len(kernels)]
    for ax, name, color in zip(axes, kernels, CLASS_COLORS * 2):
        ax.fill_between(u, kernel_pdf(u, name), color=color, alpha=0.25, lw=0)
        ax.plot(u, kernel_pdf(u, name), color=color, lw=2)
        ax.set_title(KERNEL_LABELS[name], fontsize="medium")
        ax.set_xlabel("$u$")
        ax.set_ylim(0, 1.1)
        ax.grid(alpha=0.3)
    for ax in axes[::ncols]:
        ax.set_ylabel("$K(u)$")
    finish_layout(fig)
    return fig


def bandwidth_figure(data, h, *, x_range=(-3.0, 3.0), true_pdf=claw_pdf, n_grid: int = 801):
    """The slides' four panels: true density, over-fitted (h/10), just right (h), under-fitted (10h)."""
    h = check_scalar(h, "h", low=0.0, low_open=True)
    x = np.linspace(*x_range, n_grid)
    # 2 x 2 panels: four in a row are wider than the output area at 1280 px
    fig = new_figure(figsize=explorer_figsize(7.8, 4.8))
    axes = fig.subplots(2, 2, sharex=True, sharey=True).ravel()
    panels = [("True density", true_pdf(x), PALETTE["black"]),
              (f"Overfitted: h/10 = {h / 10:.3g}", kde_pdf(x, data, h / 10), PALETTE["vermillion"]),
              (f"Just right: h = {h:.3g} (LOO CV)", kde_pdf(x, data, h), PALETTE["blue"]),
              (f"Underfitted: 10h = {10 * h:.3g}", kde_pdf(x, data, 10 * h), PALETTE["orange"])]
    for ax, (title, y, color) in zip(axes, panels):
        if color != PALETTE["black"]:
            ax.plot(x, true_pdf(x), color="0.6", lw=1, ls="--")
        ax.plot(x, y, color=color, lw=1.6)
        ax.set_title(title, fontsize="medium")
        ax.set_xlim(*x_range)
        ax.grid(alpha=0.3)
    for ax in axes[2:]:
        ax.set_xlabel("$x$")
    for ax in axes[::2]:
        ax.set_ylabel("density")
    axes[0].set_ylim(0, 1.15 * max(float(np.max(p[1])) for p in panels[:3]))
    finish_layout(fig)
    return fig


def cv_figure(data, hs, *, kernel: str = "gaussian"):
    """Both CV curves over ``hs`` with their optima marked and the rules of thumb beside them.

    Returns the figure; ``fig.cv_state`` holds the curves, the selected bandwidths and the rules.
    """
    hs = np.asarray(hs, dtype=float)
    loo = cv_curve(data, hs, "loo-likelihood", kernel)
    ls = cv_curve(data, hs, "lscv", kernel)
    rules = {r: rule_of_thumb(data, r, kernel) for r in RULES}
    # stacked: side by side they are wider than the output area at 1280 px
    fig = new_figure(figsize=explorer_figsize(7.8, 5.6))
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    h_loo, h_ls = hs[int(np.argmax(loo))], hs[int(np.argmin(ls))]
    for ax, curve, best, title, ylabel, color in (
            (ax1, loo, h_loo, "Leave-one-out log-likelihood (higher is better)",
             r"$\frac{1}{n}\sum_i \log \hat f_{-i}(x_i)$", PALETTE["blue"]),
            (ax2, ls, h_ls, "Least-squares CV (lower is better)",
             r"$\int \hat f^2 - \frac{2}{n}\sum_i \hat f_{-i}(x_i)$", PALETTE["green"])):
        finite = np.isfinite(curve)
        ax.semilogx(hs[finite], curve[finite], color=color, lw=2)
        ax.plot([best], [curve[hs == best][0]], "o", color=color, ms=9, mec="k",
                label=f"optimum h = {best:.3g}")
        for (name, h), ls_ in zip(rules.items(), ("--", ":")):
            ax.axvline(h, color=PALETTE["vermillion"], ls=ls_, lw=1.5,
                       label=f"{name.capitalize()} h = {h:.3g}")
        ax.set_title(title, fontsize="medium")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3, which="both")
        # beside the axes: inside, the three entries cover the curve
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
        lo = np.percentile(curve[finite], 2 if ax is ax1 else 0)
        hi = np.percentile(curve[finite], 100 if ax is ax1 else 98)
        pad = 0.08 * (hi - lo)
        ax.set_ylim(lo - pad, hi + pad)
    ax2.set_xlabel("bandwidth $h$")
    finish_layout(fig)
    fig.cv_state = dict(hs=hs, loo=loo, lscv=ls, h_loo=h_loo, h_lscv=h_ls, **rules)
    return fig


def heldout_figure(hs, kde_scores, widths, hist_scores):
    """Held-out mean log-likelihood of KDEs (vs h) and histograms (vs bin width).

    ``-inf`` scores (a test point in an empty bin) are drawn as crosses on the bottom edge.
    """
    fig = new_figure(figsize=explorer_figsize(7.0, 4.0))
    ax = fig.add_subplot()
    for xs, ys, label, color, marker in ((hs, kde_scores, "KDE (Gaussian), x = h", PALETTE["blue"], "o"),
                                         (widths, hist_scores, "histogram, x = bin width",
                                          PALETTE["vermillion"], "s")):
        xs, ys = np.asarray(xs, float), np.asarray(ys, float)
        ok = np.isfinite(ys)
        ax.semilogx(xs[ok], ys[ok], marker=marker, color=color, label=label)
        if (~ok).any():
            ax.plot(xs[~ok], np.full((~ok).sum(), 0.0), "x", color=color, ms=10, mew=2,
                    transform=ax.get_xaxis_transform(), clip_on=False,
                    label=f"{label.split(',')[0]}: -inf (test point in an empty bin)")
    ax.set_xlabel("h or bin width")
    ax.set_ylabel("mean held-out log-likelihood")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize="small", loc="lower center", bbox_to_anchor=(0.5, 0.07))
    finish_layout(fig)
    return fig


# --- static figures of the DS5220 slides -------------------------------------------------------

#: The six points of the slides' "Kernel Density Estimate: Visualization" (Wikipedia's figure).
SLIDES_BUMPS_DATA = (-2.1, -1.3, -0.4, 1.9, 5.1, 6.2)


def kernel_gallery_figure(*, lim: float = 3.0, figsize=None):
    """The slides' "Kernel Visualization": the eleven kernels of Wikipedia's Kernels.svg on
    one axes, each in its standard form (compact ones on [-1, 1]); see
    :mod:`genviz.kernel_gallery`."""
    u = np.linspace(-lim, lim, 1201)
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.4))
    ax = fig.add_subplot()
    colors = list(PALETTE.values())
    styles = ["-", "--", "-.", ":"]
    for i, name in enumerate(_GALLERY):
        ax.plot(u, gallery_kernel(u, name), color=colors[i % len(colors)],
                ls=styles[(i // len(colors)) % len(styles)] if i < len(colors) else "--",
                lw=1.8, label=name + (" (support [-1, 1])" if name in _COMPACT else ""))
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
    data = np.asarray(data, dtype=float)
    h = check_scalar(h, "h", low=0.0, low_open=True)
    width = check_scalar(width, "width", low=0.0, low_open=True)
    x = np.linspace(*x_range, 901)
    edges, heights = histogram(data, width=width, origin=origin)
    bumps = kde_bumps(x, data, h, "gaussian")
    f_hat = kde_pdf(x, data, h)
    # stacked: side by side they are wider than the output area at 1280 px
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 5.6))
    ax1, ax2 = fig.subplots(2, 1, sharex=True, sharey=True)
    ax1.bar(edges[:-1], heights, width=width, align="edge", color=PALETTE["sky"],
            edgecolor=PALETTE["black"], lw=0.8, label=f"histogram, bins of width {width:g}")
    ax1.set_title("Histogram", fontsize="medium")
    for i, b in enumerate(bumps):
        ax2.plot(x, b, color=PALETTE["vermillion"], ls="--", lw=1.2,
                 label=r"bumps $\frac{1}{nh}K\left(\frac{x-x_i}{h}\right)$" if i == 0 else None)
    ax2.plot(x, f_hat, color=PALETTE["blue"], lw=2.2, label=r"KDE $\hat f(x)$ = their sum")
    ax2.set_title(f"Kernel density estimate (normal kernel, h = {h:g})", fontsize="medium")
    for ax in (ax1, ax2):
        ax.plot(data, np.zeros_like(data), "|", color=PALETTE["black"], ms=14, mew=2,
                label=f"data (n = {data.size})")
        ax.set(xlim=x_range, ylabel="density")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="upper right")
    ax2.set_xlabel("$x$")
    ax1.set_ylim(0, 1.3 * max(float(heights.max()), float(f_hat.max())))
    finish_layout(fig)
    fig.bumps_state = dict(x=x, bumps=bumps, kde=f_hat, edges=edges, heights=heights)
    return fig
