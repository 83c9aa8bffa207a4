"""Drawing (matplotlib only). Views build a figure once and update artists in place."""

from genviz.plots._base import View, figure_png, new_figure, show
from genviz.plots.style import CLASS_COLORS, PALETTE, lecture_mode, set_lecture_mode

__all__ = ["View", "new_figure", "show", "figure_png", "PALETTE", "CLASS_COLORS",
           "set_lecture_mode", "lecture_mode"]
