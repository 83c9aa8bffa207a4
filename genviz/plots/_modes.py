"""The layouts a figure is drawn for, and their budgets: the normal one (JupyterLab at 1280x800),
lecture mode (:func:`set_lecture_mode`: a projector's large fonts and thick lines, the figure
beside a column of controls) and the narrow layout (:func:`narrow_mode`: a phone, panels
stacked), with the figure size an explorer gets in each (:func:`explorer_figsize`) and the
settings that differ between them (:func:`by_layout`, :func:`text_size`, :func:`panel_shape`).
Re-exported by :mod:`genviz.plots.style`, where painters import them.
"""

from __future__ import annotations

import contextlib

import matplotlib as mpl
from matplotlib.font_manager import FontProperties

__all__ = ["set_lecture_mode", "lecture_mode", "is_lecture_mode", "narrow_mode", "is_narrow_mode",
           "FIGURE_DPI", "FIGURE_WIDTH_BUDGET", "LECTURE_FIGURE_BOX", "NARROW_FIGURE_WIDTH", "MIN_TEXT_PT",
           "figure_width_budget", "explorer_figsize", "panel_shape", "panel_position", "by_layout",
           "text_size"]

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


@contextlib.contextmanager
def lecture_mode():
    """Context manager: lecture style inside the ``with`` block only."""
    was = is_lecture_mode()
    set_lecture_mode(True)
    try:
        yield
    finally:
        set_lecture_mode(was)
