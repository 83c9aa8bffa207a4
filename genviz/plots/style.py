"""One place for colours and the lecture style.

The palette is Okabe & Ito's (2008) colour-blind-safe set; densities use ``viridis``
(perceptually uniform, readable in grey and by colour-blind viewers). The layouts (normal,
lecture, narrow) and their figure budgets are in :mod:`genviz.plots._modes`, the panel layouts
in :mod:`genviz.plots.panels`: both re-exported here, the one module a painter imports from.
"""

from __future__ import annotations

import matplotlib as mpl
import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.ticker import MaxNLocator

# the layouts and their budgets, and the panel layouts, live in their own modules; every name
# stays importable from here, where painters ask for them
from genviz.plots._modes import (FIGURE_DPI, FIGURE_WIDTH_BUDGET, LECTURE_FIGURE_BOX,
                                 MIN_TEXT_PT, NARROW_FIGURE_WIDTH, by_layout, explorer_figsize,
                                 figure_width_budget, is_lecture_mode, is_narrow_mode,
                                 lecture_mode, narrow_mode, panel_position, panel_shape,
                                 set_lecture_mode, text_size)
from genviz.plots.panels import (beside_legend, colorbar_below, legend_columns, legend_or_under,
                                 narrow_top_and_pairs, row_or_pair_over_one, subplot_grid,
                                 top_and_pair)

__all__ = ["PALETTE", "CLASS_COLORS", "DENSITY_CMAP", "PANEL_CMAP", "set_lecture_mode", "lecture_mode",
           "is_lecture_mode", "FIGURE_DPI", "FIGURE_WIDTH_BUDGET", "LECTURE_FIGURE_BOX",
           "figure_width_budget", "explorer_figsize", "tidy_ticks", "panel_row_width",
           "panel_grid", "plane_axes", "light", "cmap_colors", "class_colors", "table_panel_grid",
           "grouped_bar_positions", "NARROW_FIGURE_WIDTH", "narrow_mode", "is_narrow_mode",
           "panel_shape", "panel_position", "subplot_grid", "MIN_TEXT_PT", "by_layout",
           "text_size", "legend_columns", "beside_legend", "legend_or_under", "top_and_pair", "row_or_pair_over_one",
           "colorbar_below", "narrow_top_and_pairs"]

# Okabe-Ito colour-blind-safe palette.
PALETTE = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
}
# Class k is drawn in CLASS_COLORS[k]: blue vs vermillion stays distinct for every colour vision.
CLASS_COLORS = [PALETTE["blue"], PALETTE["vermillion"], PALETTE["green"], PALETTE["purple"],
                PALETTE["orange"], PALETTE["sky"]]
DENSITY_CMAP = "viridis"
# A light single-hue map for density images that other artists are drawn on (white = 0).
PANEL_CMAP = "Blues"


# -- layout arithmetic, kept here so that painters only paint ------------------------------------
def panel_row_width(n: int, per: float, extra: float = 0.0,
                    budget: float = FIGURE_WIDTH_BUDGET) -> float:
    """Width of a row of ``n`` panels of ``per`` inches plus ``extra``, at most ``budget``.

    >>> panel_row_width(2, 2.6), panel_row_width(4, 2.6), panel_row_width(1, 3.6, 0.4)
    (5.2, 7.8, 4.0)
    """
    return min(budget, per * n + extra)


def panel_grid(n: int, max_cols: int) -> tuple[int, int]:
    """``(nrows, ncols)`` for ``n`` panels, at most ``max_cols`` a row.

    >>> panel_grid(5, 3), panel_grid(2, 3)
    ((2, 3), (1, 2))
    """
    ncols = min(n, max_cols)
    return -(-n // ncols), ncols


def class_colors(n: int) -> list:
    """The colours of classes ``0 .. n-1`` (:data:`CLASS_COLORS`, repeated past six).

    >>> class_colors(2) == CLASS_COLORS[:2], len(class_colors(8))
    (True, 8)
    """
    return [CLASS_COLORS[k % len(CLASS_COLORS)] for k in range(n)]


def light(color, amount=0.75):
    """``color`` mixed with white (``amount`` = 0: the colour, 1: white): region shading."""
    r, g, b = to_rgb(color)
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


def plane_axes(ax, box, *, ylabel: bool = True) -> None:
    """A panel of the plane ``(x_1, x_2)``: limits ``box = (x_lo, x_hi, y_lo, y_hi)``, equal
    aspect, the axes labelled ``x_1`` and (unless ``ylabel=False``: a panel right of another)
    ``x_2``."""
    ax.set(xlim=box[:2], ylim=box[2:], xlabel="$x_1$")
    if ylabel:
        ax.set_ylabel("$x_2$")
    ax.set_aspect("equal")


def table_panel_grid(n: int) -> tuple[int, int]:
    """``(nrows, ncols)`` for ``n`` small bar-chart panels: at most 4 a row (2-3 in lecture
    style, 1 in the narrow layout: stacked), so 7 panels (EnjoySport's tables and the
    posterior) wrap within the width budget.

    >>> table_panel_grid(5), table_panel_grid(7)
    ((2, 3), (2, 4))
    """
    if is_narrow_mode():
        ncols = 1
    elif is_lecture_mode():
        ncols = min(n, 2 if n <= 6 else 3)
    else:
        ncols = n if n <= 3 else min(4, -(-n // 2))
    return -(-n // ncols), ncols


def grouped_bar_positions(n_positions: int, n_groups: int, total: float = 0.8):
    """Bar positions for ``n_groups`` bars side by side at each of ``n_positions`` ticks:
    ``(positions, width)``, ``positions[k]`` the k-th group's bars, centred on the ticks.

    >>> positions, width = grouped_bar_positions(2, 2)
    >>> [p.tolist() for p in positions], width
    ([[-0.2, 0.8], [0.2, 1.2]], 0.4)
    """
    xs = np.arange(n_positions)
    w = total / n_groups
    return [xs + (k - (n_groups - 1) / 2) * w for k in range(n_groups)], w


def cmap_colors(cmap: str, n: int, start: float = 0.0, span: float = 1.0) -> list:
    """``n`` colours of the colour map ``cmap``, evenly from ``start`` to ``start + span``.

    >>> len(cmap_colors("viridis", 5, 0.15, 0.7))
    5
    """
    colormap = mpl.colormaps[cmap]
    return [colormap(start + span * k / (n - 1)) for k in range(n)]


def tidy_ticks(fig, nbins: int = 4) -> None:
    """In lecture style, at most about ``nbins`` ticks on every automatic (linear) axis, so the
    larger tick labels of neighbouring panels never collide. No-op in the normal style."""
    if not is_lecture_mode():
        return
    for ax in fig.axes:
        three_d = ax.name == "3d"
        for axis in (ax.xaxis, ax.yaxis) + ((ax.zaxis,) if three_d else ()):
            locator = axis.get_major_locator()
            if type(locator) in (MaxNLocator,) or type(locator).__name__ == "AutoLocator":
                axis.set_major_locator(MaxNLocator(nbins=2 if three_d else nbins,
                                                   steps=[1, 2, 2.5, 5, 10]))
        if three_d:  # the axis labels clear the (larger) tick labels
            for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
                axis.labelpad = max(axis.labelpad, 12)


