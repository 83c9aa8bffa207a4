"""Explorers (ipywidgets only): one function per concept, returning a displayable widget."""

from genviz.widgets._base import Explorer
from genviz.widgets.exercises import solution_toggle
from genviz.widgets.gaussian import gaussian_explorer

__all__ = ["Explorer", "gaussian_explorer", "solution_toggle"]
