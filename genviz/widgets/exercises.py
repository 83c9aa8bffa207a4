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

from genviz.exercises._core import _markdown_to_html, _stop
from genviz.widgets._static_box import StaticFallback, static_card
from genviz.widgets.observations import ObservationBox, observation_box
from genviz.widgets.predictions import (PredictionBox, PredictionReview, prediction_box,
                                        prediction_review)

__all__ = ["answer_box", "AnswerBox", "solution_toggle", "choice_box", "ChoiceBox",
           "prediction_box", "PredictionBox", "observation_box", "ObservationBox",
           "prediction_review", "PredictionReview"]


def solution_toggle(exercise) -> widgets.VBox:
    """A "Show solution" toggle; the solution is empty until the button is pressed.

    The solution is Markdown with LaTeX maths, shown in an ``HTMLMath`` widget so MathJax
    typesets it like the notebook's own equations.
    """
    button = widgets.ToggleButton(value=False, description="Show solution", icon="eye",
                                  tooltip="Reveal the worked solution and the answer")
    box = widgets.HTMLMath("")

    def on_toggle(change):
        if change["new"]:
            box.value = exercise.solution().to_html()
            button.description = "Hide solution"
        else:
            box.value = ""
            button.description = "Show solution"

    button.observe(on_toggle, names="value")
    return widgets.VBox([button, box])


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
    """The answer widget of one exercise: ``answer_box(exercises.phi_by_hand(X, y))``."""
    return AnswerBox(exercise, **kwargs)


class ChoiceBox(StaticFallback, widgets.VBox):
    """The question, its options as radio buttons, Check, the feedback and a solution toggle.

    Check gives right/wrong with the reason for the option picked; the learner may try again;
    a *Show solution* toggle reveals the explanation. (A prediction has its own boxes:
    :func:`prediction_box` and :func:`observation_box`.)

    Attributes
    ----------
    choice : Choice
    mode : str
        ``"check"``.
    question : ipywidgets.HTMLMath
        The prompt (maths typeset).
    radio : ipywidgets.RadioButtons
        Value: the index of the option selected, or None.
    button : ipywidgets.Button
        Check.
    feedback : ipywidgets.HTMLMath
        Empty until the button is pressed.
    last : Feedback or None
        The verdict of the last check.
    """

    _MODES = ("check",)

    def __init__(self, choice, *, mode: str = "check", width: str = "560px"):
        if not hasattr(choice, "options") or not hasattr(choice, "correct"):
            raise TypeError(f"choice must be a genviz.exercises.Choice, got {type(choice).__name__}")
        if mode not in self._MODES:
            raise ValueError(f"mode must be one of {self._MODES}, got {mode!r} (a prediction "
                             f"has its own boxes: prediction_box and observation_box)")
        self.choice, self.mode = choice, mode
        self.last = None
        self.question = widgets.HTMLMath(f"<b>Question.</b> {_md(choice.prompt)}")
        self.radio = widgets.RadioButtons(
            options=[(f"({choice.label(i)}) {o}", i) for i, o in enumerate(choice.options)],
            value=None, layout=widgets.Layout(width=width), style={"description_width": "0px"})
        self.feedback = widgets.HTMLMath("")
        self.button = widgets.Button(description="Check", icon="check", button_style="primary",
                                     tooltip="Check your choice",
                                     layout=widgets.Layout(width="auto", min_width="110px"))
        self.button.on_click(lambda _: self.check())
        # in an HBox, so a button sized "auto" fits its label instead of filling the column
        super().__init__([self.question, self.radio, widgets.HBox([self.button]), self.feedback,
                          solution_toggle(choice)])
        self.add_class("genviz-choice")

    def select(self, i) -> None:
        """Select option ``i`` (what a click on a radio button does)."""
        self.radio.value = self.choice.index(i)

    def check(self):
        """Check the selected option; show and return the :class:`Feedback`."""
        self.last = self.choice.check(self.radio.value)
        self.feedback.value = self.last.to_html()
        return self.last

    def _static(self) -> tuple[str, str]:
        """(html, text) where no widget manager runs (the course website, GitHub,
        nbviewer) the question, its options, and the answer folded in ``<details>``."""
        return _static_choice_html(self.choice), _static_choice_text(self.choice)


def _md(text: str) -> str:

    return _markdown_to_html(text)


def _static_choice_html(choice) -> str:
    """A choice without widgets: the question, the options, then the answer folded."""
    reasons = "".join(f"<li>({choice.label(i)}) {_md(r)}</li>"
                      for i, r in enumerate(choice.reasons) if r)
    reasons = f"<ul>{reasons}</ul>" if reasons else ""
    answer = (f"<p><b>{html.escape(choice.answer_text())}{_stop(choice.answer_text())}</b> "
              f"{_md(choice.explanation)}</p>{reasons}")
    return static_card("genviz-choice", ("Question", _md(choice.prompt)),
                       "Choose before you open the answer (run this notebook to commit to a "
                       "choice in a box).",
                       options=[f"({choice.label(i)}) {html.escape(o)}"
                                for i, o in enumerate(choice.options)],
                       folds=[("Answer", answer)])


def _static_choice_text(choice) -> str:
    opts = "; ".join(f"({choice.label(i)}) {o}" for i, o in enumerate(choice.options))
    return f"{choice.prompt} Options: {opts}. Run this notebook to answer in a box."


def choice_box(choice, **kwargs):
    """The widget of a multiple-choice item: ``choice_box(exercises.smoothing_can_flip())``.
    A :class:`~genviz.exercises.Prediction` gets its :func:`prediction_box`."""
    if getattr(choice, "kind", None) == "prediction":
        return prediction_box(choice, **kwargs)
    return ChoiceBox(choice, **kwargs)
