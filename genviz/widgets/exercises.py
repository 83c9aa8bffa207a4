"""Answer boxes for exercises: type an answer, press Check, read the feedback; the worked
solution (typeset maths) stays hidden behind a toggle until asked for. Choice boxes for
multiple-choice items (:class:`genviz.exercises.Choice`): pick an option, press Check, read the
reason for the option picked.

Predictions made before an explorer (:class:`genviz.exercises.Prediction`) go through predict,
observe, explain: :func:`prediction_box` before the explorer, :func:`observation_box` after it,
:func:`prediction_review` at the end of the notebook (defined in
:mod:`genviz.widgets.predictions` and :mod:`genviz.widgets.observations`, re-exported here; the
one hook for a room's poll is ``genviz.widgets.predictions.report_stage``).

Nothing here computes an answer: :class:`genviz.exercises.Exercise` holds it (computed by genviz
from the notebook's data) and checks what was typed. The box works wherever widgets run —
JupyterLab, classic Notebook, VS Code, Voila (where code is hidden) — without editing code.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from genviz.widgets._choice import ChoiceBox, solution_toggle
from genviz.widgets._static_box import StaticFallback, static_card
from genviz.widgets.observations import ObservationBox, observation_box
from genviz.widgets.predictions import (PredictionBox, PredictionReview, prediction_box,
                                        prediction_review)

__all__ = ["answer_box", "AnswerBox", "solution_toggle", "choice_box", "ChoiceBox",
           "prediction_box", "PredictionBox", "observation_box", "ObservationBox",
           "prediction_review", "PredictionReview"]


class AnswerBox(StaticFallback, widgets.VBox):
    """A text box, a Check button, the feedback and a solution toggle for one exercise.

    Attributes
    ----------
    exercise : Exercise
    text : ipywidgets.Text
        What the learner typed (its placeholder says what kind of answer is expected).
    button : ipywidgets.Button
        Checks the typed answer (pressing Enter in the box does too).
    feedback : ipywidgets.HTML
        "Correct!", or the reason it is not (with the hint, never the answer).
    last : Feedback or None
        The verdict of the last check.
    solution : ipywidgets.VBox
        The :func:`solution_toggle`.
    """

    def __init__(self, exercise, *, width: str = "420px"):
        self.exercise = exercise
        self.last = None
        self.text = widgets.Text(value="", placeholder=exercise.answer_format,
                                 continuous_update=False, description="Your answer",
                                 style={"description_width": "90px"},
                                 layout=widgets.Layout(width=width))
        self.button = widgets.Button(description="Check", icon="check", button_style="primary",
                                     tooltip="Check your answer",
                                     layout=widgets.Layout(width="110px"))
        self.feedback = widgets.HTML("")
        self.solution = solution_toggle(exercise)
        self.button.on_click(lambda _: self.check())
        # Enter (or leaving the box) commits the text: check it then too.
        self.text.observe(lambda change: self.check() if change["new"].strip() else None,
                          names="value")
        super().__init__([widgets.HBox([self.text, self.button]), self.feedback, self.solution])

    def check(self):
        """Check the text in the box; show and return the :class:`Feedback`."""
        self.last = self.exercise.check_text(self.text.value)
        self.feedback.value = self.last._repr_html_()
        return self.last

    def _static(self) -> tuple[str, str]:
        """(html, text) where no widget manager runs (GitHub, nbviewer, an HTML export,
        the course website) the hint and the worked solution folded in ``<details>``, and a
        line of text instead of ``AnswerBox(children=…)``."""
        ex = self.exercise
        static = static_card("", None, f"Answer ({html.escape(ex.answer_format)}): run this "
                             f"notebook to type it in a box and check it.",
                             folds=[("Hint", f"<p>{html.escape(ex.hint)}</p>"),
                                    ("Solution", ex.solution().to_html())])
        text = f"Answer box: run this notebook to check an answer. Hint: {ex.hint}"
        return static, text


def answer_box(exercise, **kwargs) -> AnswerBox:
    """The answer widget of one exercise: ``answer_box(exercises.sigma_by_hand(X, y))``."""
    return AnswerBox(exercise, **kwargs)


def choice_box(choice, **kwargs):
    """The widget of a multiple-choice item: ``choice_box(exercises.smoothing_can_flip())``.
    A :class:`~genviz.exercises.Prediction` gets its :func:`prediction_box`."""
    if getattr(choice, "kind", None) == "prediction":
        return prediction_box(choice, **kwargs)
    return ChoiceBox(choice, **kwargs)
