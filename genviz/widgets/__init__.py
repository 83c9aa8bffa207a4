"""Explorers (ipywidgets only): one function per concept, returning a displayable widget."""

from genviz.widgets._base import Explorer
from genviz.widgets.exercises import answer_box, solution_toggle
from genviz.widgets.gaussian import gaussian_explorer

__all__ = ["Explorer", "answer_box", "gaussian_explorer", "solution_toggle"]
