"""One place for colours and the lecture style.

The palette is Okabe & Ito's (2008) colour-blind-safe set; densities use ``viridis``
(perceptually uniform, readable in grey and by colour-blind viewers).
"""

from __future__ import annotations

import contextlib

import matplotlib as mpl
import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.font_manager import FontProperties
from matplotlib.ticker import MaxNLocator

__all__ = ["PALETTE", "CLASS_COLORS", "DENSITY_CMAP", "PANEL_CMAP", "set_lecture_mode", "lecture_mode",
           "is_lecture_mode", "FIGURE_DPI", "FIGURE_WIDTH_BUDGET", "LECTURE_FIGURE_BOX",
           "figure_width_budget", "explorer_figsize", "tidy_ticks", "panel_row_width",
           "panel_grid", "light", "cmap_colors", "class_colors", "table_panel_grid",
           "grouped_bar_positions", "NARROW_FIGURE_WIDTH", "narrow_mode", "is_narrow_mode",
           "panel_shape", "panel_position", "subplot_grid", "MIN_TEXT_PT", "by_layout",
           "text_size", "legend_columns", "beside_legend", "legend_or_under", "top_and_pair", "row_or_pair_over_one",
           "colorbar_below"]

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

_LECTURE_RC = {
    "font.size": 15,
    "axes.titlesize": 16,
    "axes.labelsize": 15,
    "xtick.labelsize": 13,
    "ytick.labelsize": 13,
    "legend.fontsize": 13,
    "lines.linewidth": 3.0,
    "lines.markersize": 8,
    "axes.linewidth": 1.5,
    # more room between tick labels and the axes: the first x and y labels at an axes corner
    # must not touch at these font sizes
    "xtick.major.pad": 7.0,
    "ytick.major.pad": 7.0,
}
_saved_rc: dict | None = None

# -- figure-size budgets ------------------------------------------------------------------------
#: Explorer figures are drawn at this dpi; ipympl shows one figure inch as FIGURE_DPI CSS pixels.
FIGURE_DPI = 100
#: The widest explorer figure, in inches at FIGURE_DPI. JupyterLab 4.6 at 1280x800 with the file
#: browser open leaves an output area 848 px wide (measured in Chromium: notebook panel 952 px,
#: cell 930 px, input prompt 64 px); 7.8 in = 780 px leaves room for the canvas margins.
FIGURE_WIDTH_BUDGET = 7.8
#: Lecture mode (Voila at 1280x720): the figure sits beside a column of controls (~380 px at
#: projector font sizes), so at most (width, height) inches; the height keeps controls and
#: figure on one 720-px screen.
LECTURE_FIGURE_BOX = (8.0, 5.6)
#: The narrow layout (phones, issue #37): on a 390-px-wide screen the course website leaves an
#: explorer's figure 345 CSS px (measured in Chromium), so the figure is drawn 3.4 in = 340 px
#: wide at FIGURE_DPI and shown 1:1 (never scaled down), its panels stacked one above the other.
NARROW_FIGURE_WIDTH = 3.4
#: The smallest font of the narrow layout, in points: at FIGURE_DPI shown 1:1 it is
#: 8 * 100 / 72 = 11.1 CSS px, the issue's floor for text on a phone.
MIN_TEXT_PT = 8.0
_NARROW_RC = {
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 8.5,
    "legend.title_fontsize": 9,
    "figure.titlesize": 10.5,
    "lines.linewidth": 1.8,
    "lines.markersize": 5,
}
_narrow_saved: dict | None = None


def set_lecture_mode(on: bool = True) -> None:
    """Large fonts and thick lines for a projector (``on=True``), or back to normal.

    Affects figures created afterwards (re-run the cell that builds an explorer).
    """
    global _saved_rc
    if not isinstance(on, bool):
        raise TypeError(f"on must be True or False, got {type(on).__name__} {on!r}")
    if on and _saved_rc is None:
        _saved_rc = {k: mpl.rcParams[k] for k in _LECTURE_RC}
        mpl.rcParams.update(_LECTURE_RC)
    elif not on and _saved_rc is not None:
        mpl.rcParams.update(_saved_rc)
        _saved_rc = None


def is_lecture_mode() -> bool:
    """Whether :func:`set_lecture_mode` is on."""
    return _saved_rc is not None


def is_narrow_mode() -> bool:
    """Whether the narrow (phone) layout is on (:func:`narrow_mode`)."""
    return _narrow_saved is not None


@contextlib.contextmanager
def narrow_mode():
    """Inside the ``with`` block, explorers are drawn in the narrow layout: a phone's figure
    (:data:`NARROW_FIGURE_WIDTH` wide, panels stacked by :func:`panel_shape`, fonts of at least
    :data:`MIN_TEXT_PT`). Lecture style is off inside (a projector is not a phone).

    >>> with narrow_mode():
    ...     explorer_figsize(7.8, 3.9, panels=(1, 2)), panel_shape(1, 2)
    ((3.4, 5.98), (2, 1))
    """
    global _narrow_saved
    if _narrow_saved is not None:  # already narrow
        yield
        return
    lecture = is_lecture_mode()
    set_lecture_mode(False)
    _narrow_saved = {k: mpl.rcParams[k] for k in _NARROW_RC}
    mpl.rcParams.update(_NARROW_RC)
    try:
        yield
    finally:
        mpl.rcParams.update(_narrow_saved)
        _narrow_saved = None
        set_lecture_mode(lecture)


def figure_width_budget() -> float:
    """The widest figure an explorer may draw now, in inches at :data:`FIGURE_DPI`."""
    if is_narrow_mode():
        return NARROW_FIGURE_WIDTH
    return LECTURE_FIGURE_BOX[0] if is_lecture_mode() else FIGURE_WIDTH_BUDGET


def panel_shape(nrows: int, ncols: int) -> tuple[int, int]:
    """The grid a design of ``nrows x ncols`` panels is drawn in: itself, or one column in the
    narrow layout (panels in reading order, one above the other).

    >>> panel_shape(1, 3), panel_shape(2, 2)
    ((1, 3), (2, 2))
    """
    if nrows < 1 or ncols < 1:
        raise ValueError(f"nrows and ncols must be at least 1, got ({nrows!r}, {ncols!r})")
    return (nrows * ncols, 1) if is_narrow_mode() else (nrows, ncols)


def panel_position(nrows: int, ncols: int, index: int) -> tuple[int, int, int]:
    """``add_subplot`` arguments of panel ``index`` (1-based, reading order) of a design of
    ``nrows x ncols`` panels, in the current layout (:func:`panel_shape`).

    >>> panel_position(1, 2, 2)
    (1, 2, 2)
    """
    if not 1 <= index <= nrows * ncols:
        raise ValueError(f"index must be in 1..{nrows * ncols}, got {index!r}")
    return (*panel_shape(nrows, ncols), index)


def subplot_grid(fig, nrows: int, ncols: int, *, squeeze: bool = True, width_ratios=None,
                 height_ratios=None, **kwargs):
    """``fig.subplots(nrows, ncols, ...)`` of a design, in the current layout: in the narrow
    layout the panels are stacked in one column (``width_ratios`` dropped, ``height_ratios``
    kept for a design that is one column already) and returned in the design's shape, so a
    painter indexes them the same way in both layouts.
    """
    rows, cols = panel_shape(nrows, ncols)
    if is_narrow_mode():
        if ncols > 1:
            height_ratios = None
        width_ratios = None
    axes = fig.subplots(rows, cols, squeeze=False, width_ratios=width_ratios,
                        height_ratios=height_ratios, **kwargs)
    axes = np.asarray(axes).reshape(nrows, ncols)
    if not squeeze:
        return axes
    if axes.size == 1:
        return axes[0, 0]
    return axes.ravel() if 1 in (nrows, ncols) else axes


def by_layout(wide, narrow):
    """``narrow`` in the narrow layout (:func:`narrow_mode`), else ``wide``: a painter's setting
    that differs between the layouts (margins, a legend's place), the wide one left as it was.

    >>> by_layout("wide", "narrow")
    'wide'
    >>> with narrow_mode():
    ...     by_layout("wide", "narrow")
    'narrow'
    """
    return narrow if is_narrow_mode() else wide


def text_size(size):
    """A painter's explicit font ``size`` (a name such as ``"x-small"``, or points): itself, or
    in the narrow layout at least :data:`MIN_TEXT_PT` (a phone shows the figure 1:1).

    >>> text_size("x-small")
    'x-small'
    >>> with narrow_mode():
    ...     text_size("x-small"), text_size("large")
    (8.0, 12.0)
    """
    if not is_narrow_mode():
        return size
    return max(FontProperties(size=size).get_size_in_points(), MIN_TEXT_PT)


def legend_columns(ncol: int) -> int:
    """Columns of a legend laid out in a row under a figure: ``ncol``, at most 2 in the narrow
    layout (three entries side by side are wider than a phone's figure).

    >>> legend_columns(3)
    3
    >>> with narrow_mode():
    ...     legend_columns(3), legend_columns(1)
    (2, 1)
    """
    if ncol < 1:
        raise ValueError(f"ncol must be at least 1, got {ncol!r}")
    return min(ncol, 2) if is_narrow_mode() else ncol


def legend_or_under(ax, **kwargs):
    """``ax.legend(**kwargs)``; in the narrow layout a legend under the figure instead, in two
    columns (for a legend that would cover much of a flat, full-width panel)."""
    if is_narrow_mode():
        kwargs = {k: v for k, v in kwargs.items()
                  if k not in ("loc", "bbox_to_anchor", "borderaxespad", "ncol", "ncols")}
        return ax.figure.legend(handles=ax.get_legend_handles_labels()[0],
                                loc="outside lower center", ncol=legend_columns(2), **kwargs)
    return ax.legend(**kwargs)


def beside_legend(ax, **kwargs):
    """The legend of ``ax`` to its right, top-aligned (keyword arguments go to ``legend``); in
    the narrow layout, where a panel is as wide as the figure, under the figure in two columns
    (constrained layout makes room for it: :func:`genviz.plots._base.finish_layout`)."""
    return legend_or_under(ax, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                           **kwargs)


def colorbar_below(fig, mappable, axes, *, panel: int = 0, **kwargs):
    """A horizontal colour bar of ``mappable`` under the row of ``axes`` (``kwargs`` go to
    ``fig.colorbar``); in the narrow layout, where the panels are stacked, under panel ``panel``
    only, in an inset below its x label (constrained layout makes room for it). ``axes`` side by
    side in the narrow layout too (:func:`row_or_pair_over_one`'s pair) get the bar under them
    as in the wide layout."""
    stacked = len({ax.get_subplotspec().colspan for ax in np.ravel(axes)}) == 1
    if is_narrow_mode() and stacked:
        cax = axes[panel].inset_axes([0.1, -0.36, 0.8, 0.05])
        return fig.colorbar(mappable, cax=cax, orientation="horizontal")
    return fig.colorbar(mappable, ax=axes, orientation="horizontal", location="bottom", **kwargs)


def top_and_pair(fig):
    """Three panels ``(top, left, right)``: one across the figure's top and two side by side
    below it, or in the narrow layout the three stacked (reading order).

    >>> from matplotlib.figure import Figure
    >>> with narrow_mode():
    ...     [ax.get_subplotspec().rowspan for ax in top_and_pair(Figure())]
    [range(0, 1), range(1, 2), range(2, 3)]
    >>> [ax.get_subplotspec().colspan for ax in top_and_pair(Figure())]
    [range(0, 2), range(0, 1), range(1, 2)]
    """
    if is_narrow_mode():
        return tuple(subplot_grid(fig, 3, 1))
    grid = fig.add_gridspec(2, 2)
    return fig.add_subplot(grid[0, :]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])


def row_or_pair_over_one(fig, **kwargs):
    """Three panels in a row (the design), or in the narrow layout two side by side over the
    third across the figure: stacked, three square panels are taller than a phone's screen,
    and the third (the one the reader works with) stays the largest. ``kwargs`` (``sharex``,
    ``sharey``) are shared by all three.

    >>> from matplotlib.figure import Figure
    >>> [ax.get_subplotspec().colspan for ax in row_or_pair_over_one(Figure())]
    [range(0, 1), range(1, 2), range(2, 3)]
    >>> with narrow_mode():
    ...     [(a.get_subplotspec().rowspan, a.get_subplotspec().colspan)
    ...      for a in row_or_pair_over_one(Figure())]
    [(range(0, 1), range(0, 1)), (range(0, 1), range(1, 2)), (range(1, 2), range(0, 2))]
    """
    unknown = set(kwargs) - {"sharex", "sharey"}
    if unknown:
        raise ValueError(f"unknown keyword(s) {sorted(unknown)}: row_or_pair_over_one takes "
                         "sharex and sharey")
    if not is_narrow_mode():
        return np.asarray(fig.subplots(1, 3, **kwargs))
    grid = fig.add_gridspec(2, 2, height_ratios=(1.0, 2.0))
    first = fig.add_subplot(grid[0, 0])
    share = {k: first for k, v in kwargs.items() if v}
    axes = np.array([first, fig.add_subplot(grid[0, 1], **share),
                     fig.add_subplot(grid[1, :], **share)])
    for ax in axes[:2]:  # the narrow layout's one deliberate pair (tests/test_narrow_layout.py)
        ax.narrow_pair = True
    return axes


def explorer_figsize(width: float, height: float, *,
                     lecture_box: tuple[float, float] | None = None,
                     panels: tuple[int, int] = (1, 1),
                     narrow_aspect: float | None = None) -> tuple[float, float]:
    """The size an explorer's figure gets for a designed ``(width, height)`` in inches.

    Normal style: the design itself, which must fit :data:`FIGURE_WIDTH_BUDGET`
    (``ValueError`` otherwise: re-arrange the panels rather than widen the figure). Lecture
    style: the design scaled up, keeping its aspect, to fill :data:`LECTURE_FIGURE_BOX` (fonts
    are 1.5 times larger there, so the figure needs the room). ``lecture_box`` (inches, within
    :data:`LECTURE_FIGURE_BOX`) is a smaller box for an explorer whose readout needs a wider
    column beside the figure (the naive Bayes counting table). Narrow layout
    (:func:`narrow_mode`): :data:`NARROW_FIGURE_WIDTH` wide, the design's ``panels``
    (``(nrows, ncols)``) stacked, each as wide as the figure and as tall as its designed aspect
    gives, between 0.6 and 0.85 of the width (a flat panel stays readable, a tall one fits a
    phone's screen); ``narrow_aspect`` (height / width of each panel, 0.3 to 1.5) replaces
    that for a panel whose rows of text need more height (the e-mail's words).

    >>> explorer_figsize(7.8, 3.9)
    (7.8, 3.9)
    >>> with lecture_mode():
    ...     explorer_figsize(7.8, 3.9)
    (8.0, 4.0)
    """
    if not (width > 0 and height > 0):
        raise ValueError(f"width and height must be positive inches, got ({width!r}, {height!r})")
    if width > FIGURE_WIDTH_BUDGET + 1e-9:
        raise ValueError(f"width {width} in exceeds FIGURE_WIDTH_BUDGET = {FIGURE_WIDTH_BUDGET} in "
                         "(the JupyterLab output area at 1280x800 with the file browser open); "
                         "stack or drop panels instead")
    nrows, ncols = panels
    if not (isinstance(nrows, int) and isinstance(ncols, int) and nrows >= 1 and ncols >= 1):
        raise ValueError(f"panels must be (nrows, ncols) of at least 1, got {panels!r}")
    if narrow_aspect is not None and not 0.3 <= narrow_aspect <= 1.5:
        raise ValueError(f"narrow_aspect must be between 0.3 and 1.5, got {narrow_aspect!r}")
    if is_narrow_mode():
        n = NARROW_FIGURE_WIDTH
        if narrow_aspect is not None:
            each = narrow_aspect * n
        else:
            each = min(max((height / nrows) * n / (width / ncols), 0.6 * n), 0.85 * n)
        return (n, round(nrows * ncols * each + 0.2, 2))
    if not is_lecture_mode():
        return (width, height)
    box = LECTURE_FIGURE_BOX if lecture_box is None else lecture_box
    if box[0] > LECTURE_FIGURE_BOX[0] + 1e-9 or box[1] > LECTURE_FIGURE_BOX[1] + 1e-9:
        raise ValueError(f"lecture_box {box} must fit LECTURE_FIGURE_BOX = {LECTURE_FIGURE_BOX}")
    scale = min(box[0] / width, box[1] / height)
    return (round(width * scale, 2), round(height * scale, 2))


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


@contextlib.contextmanager
def lecture_mode():
    """Context manager: lecture style inside the ``with`` block only."""
    was = is_lecture_mode()
    set_lecture_mode(True)
    try:
        yield
    finally:
        set_lecture_mode(was)
