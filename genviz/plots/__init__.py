"""Drawing (matplotlib only). Views build a figure once and update artists in place."""

from genviz.plots._base import (View, describe_figure, figure_png, new_figure, set_description,
                                show)
from genviz.plots.style import CLASS_COLORS, PALETTE, lecture_mode, set_lecture_mode

__all__ = ["View", "new_figure", "show", "figure_png", "describe_figure", "set_description", "PALETTE", "CLASS_COLORS",
           "set_lecture_mode", "lecture_mode"]
