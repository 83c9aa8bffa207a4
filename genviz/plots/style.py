"""One place for colours and the lecture style.

The palette is Okabe & Ito's (2008) colour-blind-safe set; densities use ``viridis``
(perceptually uniform, readable in grey and by colour-blind viewers).
"""

from __future__ import annotations

import contextlib

import matplotlib as mpl

__all__ = ["PALETTE", "CLASS_COLORS", "DENSITY_CMAP", "PANEL_CMAP", "set_lecture_mode", "lecture_mode",
           "is_lecture_mode"]

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
}
_saved_rc: dict | None = None


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


@contextlib.contextmanager
def lecture_mode():
    """Context manager: lecture style inside the ``with`` block only."""
    was = is_lecture_mode()
    set_lecture_mode(True)
    try:
        yield
    finally:
        set_lecture_mode(was)
