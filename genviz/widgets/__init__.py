"""Explorers (ipywidgets only): one function per concept, returning a displayable widget."""

from genviz.widgets._base import Explorer
from genviz.widgets.exercises import (answer_box, choice_box, observation_box, prediction_box,
                                     prediction_review, solution_toggle)
from genviz.widgets.gaussian import gaussian_explorer

__all__ = ["Explorer", "answer_box", "choice_box", "gaussian_explorer", "observation_box",
           "prediction_box", "prediction_review", "solution_toggle"]
