"""The box of a multiple-choice item (:class:`genviz.exercises.Choice`) and the solution
toggle every self-checking box ends with; apart so that the observation box can end a
prediction's cycle with its analogous situation (a ``ChoiceBox``) without importing
:mod:`genviz.widgets.exercises`, which imports it."""

from __future__ import annotations

import html

import ipywidgets as widgets

from genviz.exercises._core import _markdown_to_html, _stop
from genviz.widgets._static_box import StaticFallback, static_card

__all__ = ["solution_toggle", "ChoiceBox"]


def _options_layout(width: str) -> widgets.Layout:
    """The options' column: at least ``width`` and as wide as the output area, so an option
    wraps only when the area is narrower than it. ipywidgets gives each option a fixed height
    of one line and floats its radio button, so a wrapped option ran under the next one and
    put its button on its second line, under the box's Check button (seen in JupyterLab on
    10's choices at a fixed 560 px; browser_tests: overflowingRadios)."""
    return widgets.Layout(width="auto", min_width=width)


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
            value=None, layout=_options_layout(width), style={"description_width": "0px"})
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
