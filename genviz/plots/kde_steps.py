"""From a histogram to a kernel density estimate in four steps (notebook 05), after Jake
VanderPlas's *Python Data Science Handbook*, "In Depth: Kernel Density Estimation": a histogram
is a stack of one block per point in that point's bin; moving the bins by half a width changes
the picture; putting each point's block *centred on the point* removes the bins (the box-kernel
KDE, bandwidth = the bin width); a smooth bump instead of a block gives the Gaussian KDE.

Every number drawn comes from :func:`genviz.kde.histogram_to_kde`.
"""

from __future__ import annotations

import numpy as np

from genviz.plots._base import finish_layout, fmt, new_figure, set_description
from genviz.plots.style import PALETTE, explorer_figsize
from genviz.studies.kde_steps import HistogramToKDEFigureResult, histogram_to_kde_figure_study

__all__ = ["histogram_to_kde_figure"]


def _stacked_blocks(ax, stack, height, width, color):
    """One block of area 1/n per point, stacked in its bin (a histogram, drawn point by point)."""
    for lefts, bottom in stack:
        ax.bar(lefts, height, width=width, bottom=bottom, align="edge",
               color=color, edgecolor=PALETTE["black"], lw=0.8)


def histogram_to_kde_figure(data, width, origin: float = 0.0, *, figsize=None):
    """Four panels, from the bins to the bandwidth, for a small sample ``data``.

    1. a histogram with bins of ``width`` from ``origin``, drawn as one block per point;
    2. the same with the bins shifted by ``width / 2``;
    3. a block of width ``width`` and area ``1/n`` centred on every point, and their sum (the
       box-kernel KDE with ``h = width``);
    4. a Gaussian bump with the block's standard deviation (``h = width / sqrt(12)``) on every
       point, and their sum (the Gaussian KDE).

    Returns the figure; ``fig.steps`` is the :class:`genviz.kde.HistogramToKDE` it draws.
    """
    return _paint_steps(histogram_to_kde_figure_study(data, width, origin), figsize=figsize)


def _paint_steps(r: HistogramToKDEFigureResult, *, figsize=None):
    s, n, width, origin = r.steps, r.n, r.width, r.origin
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 5.4))
    axes = fig.subplots(2, 2, sharex=True, sharey=True)
    (a1, a2), (a3, a4) = axes
    _stacked_blocks(a1, r.blocks[0], r.block_height, width, PALETTE["sky"])
    a1.set_title(f"1 · histogram, bins from {fmt(origin)}", fontsize="medium")
    _stacked_blocks(a2, r.blocks[1], r.block_height, width, PALETTE["sky"])
    a2.set_title(f"2 · the same bins moved by {fmt(r.half_width)}", fontsize="medium")
    for panel, parts, total, title in (
            (a3, s.blocks, s.block_sum, f"3 · one block per point, h = {fmt(width)}"),
            (a4, s.bumps, s.kde, f"4 · Gaussian bumps, h = {fmt(s.h)}")):
        panel.fill_between(s.x, total, color=PALETTE["sky"], alpha=0.6, lw=0)
        panel.plot(s.x, total, color=PALETTE["blue"], lw=2.0, label="sum = the KDE")
        for i, part in enumerate(parts):
            panel.plot(s.x, part, color=PALETTE["vermillion"], ls="--", lw=1.0,
                       label="one point's share" if i == 0 else None)
        panel.set_title(title, fontsize="medium")
    a3.legend(fontsize="small", loc="upper left")
    for ax in axes.ravel():
        ax.plot(r.data, np.zeros_like(r.data), "|", color=PALETTE["black"], ms=10, mew=1.5)
        ax.set(xlim=(s.x[0], s.x[-1]), ylim=(0, r.top))
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("density")
    for ax in axes[1]:
        ax.set_xlabel("$x$")
    finish_layout(fig)
    set_description(fig, (
        f"Four panels for {n} points with bins of width {fmt(width)}: a histogram drawn as one "
        f"block per point stacked in its bin (bins from {fmt(origin)}); the same with the bins "
        f"moved by half a width, whose bars differ; a block of the bin's width centred on each "
        f"point, dashed, and their sum, a step curve with no bins (box KDE, h = {fmt(width)}); "
        f"a Gaussian bump with the same spread (h = {fmt(s.h)}) on each point and their smooth "
        f"sum, the Gaussian KDE."))
    fig.steps = s
    return fig
