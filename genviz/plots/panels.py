"""Panel layouts that differ between the normal and the narrow (phone) layout: a design's
subplots (:func:`subplot_grid`), three panels as a top and a pair (:func:`top_and_pair`) or a row
(:func:`row_or_pair_over_one`), legends beside or under a figure and colour bars below a row.
They branch on the modes of :mod:`genviz.plots._modes`; re-exported by
:mod:`genviz.plots.style`, where painters import them.
"""

from __future__ import annotations

import numpy as np

from genviz.plots._modes import is_narrow_mode, narrow_mode, panel_shape  # noqa: F401 (doctests)

__all__ = ["subplot_grid", "legend_columns", "legend_or_under", "beside_legend", "colorbar_below",
           "top_and_pair", "row_or_pair_over_one", "narrow_top_and_pairs"]


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


def narrow_top_and_pairs(fig, n: int):
    """The narrow layout of ``n`` small panels (2 or more) and one that every control moves:
    ``(top, panels)``, the top one across the figure and the ``n`` others two a row below it
    (marked as the narrow layout's deliberate pairs): stacked one a row, seven bar charts are
    taller than two phone screens. Its number of rows is ``1 + ceil(n / 2)``.

    >>> from matplotlib.figure import Figure
    >>> top, panels = narrow_top_and_pairs(Figure(), 3)
    >>> top.get_subplotspec().colspan, [ax.get_subplotspec().rowspan.start for ax in panels]
    (range(0, 2), [1, 1, 2])
    >>> [ax.get_visible() for ax in panels], panels[-1].get_subplotspec().colspan
    ([True, True, True], range(0, 1))
    """
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 2:
        raise ValueError(f"n must be an integer of at least 2 panels, got {n!r}")
    grid = fig.add_gridspec(1 + -(-n // 2), 2)
    top = fig.add_subplot(grid[0, :])
    panels = [fig.add_subplot(grid[1 + j // 2, j % 2]) for j in range(n)]
    for ax in panels:  # side by side on purpose (tests/test_narrow_layout.py)
        ax.narrow_pair = True
    return top, panels
