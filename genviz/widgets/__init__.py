"""Explorers: one function per concept, returning a widget drawn in the browser (an anywidget
whose front end is genviz/widgets/static/explorer.js)."""

from genviz.widgets._base import Explorer
from genviz.widgets.exercises import (answer_box, choice_box, observation_box, prediction_box,
                                     prediction_review, solution_toggle)
from genviz.widgets.gaussian import gaussian_explorer

__all__ = ["Explorer", "answer_box", "choice_box", "gaussian_explorer", "observation_box",
           "prediction_box", "prediction_review", "solution_toggle"]
