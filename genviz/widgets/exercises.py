"""Answer boxes for exercises: type an answer, press Check, read the feedback; the worked
solution (typeset maths) stays hidden behind a toggle until asked for. Choice boxes for
multiple-choice items (:class:`genviz.exercises.Choice`) and predictions made before an explorer
(:class:`genviz.exercises.Prediction`): pick an option, press Check (or Commit); a prediction's
explanation exists in the page only after the learner has committed. In lecture mode (Voila,
``make present``) a prediction is a question to the room: the options, and a Reveal button.

Nothing here computes an answer: :class:`genviz.exercises.Exercise` holds it (computed by genviz
from the notebook's data) and checks what was typed. The box works wherever widgets run —
JupyterLab, classic Notebook, VS Code, Voila (where code is hidden) — without editing code.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from genviz.exercises._core import _markdown_to_html
from genviz.plots.style import is_lecture_mode

__all__ = ["answer_box", "AnswerBox", "solution_toggle", "choice_box", "prediction_box",
           "ChoiceBox"]


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


class AnswerBox(widgets.VBox):
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

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """The live box where a widget manager runs; elsewhere (GitHub, nbviewer, an HTML export,
        the course website) the hint and the worked solution folded in ``<details>``, and a
        line of text instead of ``AnswerBox(children=…)``."""
        data = super()._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        if isinstance(data, tuple):
            data = data[0]
        ex = self.exercise
        static = (f'<div class="genviz-exercise tex2jax_process">'
                  f"<p><i>Answer ({html.escape(ex.answer_format)}): run this notebook to type it "
                  f"in a box and check it.</i></p>"
                  f"<details><summary>Hint</summary><p>{html.escape(ex.hint)}</p></details>"
                  f"<details><summary>Solution</summary>{ex.solution().to_html()}</details>"
                  f"</div>")
        text = f"Answer box: run this notebook to check an answer. Hint: {ex.hint}"
        return {**data, "text/html": static, "text/plain": text}


def answer_box(exercise, **kwargs) -> AnswerBox:
    """The answer widget of one exercise: ``answer_box(exercises.phi_by_hand(X, y))``."""
    return AnswerBox(exercise, **kwargs)


def _lecture_mode() -> bool:

    return is_lecture_mode()


class ChoiceBox(widgets.VBox):
    """The question, its options as radio buttons, a button, and the feedback.

    Three modes:

    ``"check"`` (a :class:`~genviz.exercises.Choice`)
        Check gives right/wrong with the reason for the option picked; the learner may try
        again; a *Show solution* toggle reveals the explanation.
    ``"commit"`` (a :class:`~genviz.exercises.Prediction`)
        Commit locks the choice and only then shows the verdict and the explanation.
    ``"reveal"`` (lecture mode)
        A question to the room: the options stay selectable (to mark the room's vote) and a
        *Reveal answer* toggle shows the right option and the explanation.

    Attributes
    ----------
    choice : Choice
    mode : str
    question : ipywidgets.HTMLMath
        The prompt (maths typeset).
    radio : ipywidgets.RadioButtons
        Value: the index of the option selected, or None.
    button : ipywidgets.Button or ipywidgets.ToggleButton
        Check, Commit or Reveal answer.
    feedback : ipywidgets.HTMLMath
        Empty until the button is pressed.
    committed : int or None
        The committed option (``"commit"`` mode).
    last : Feedback or None
        The verdict of the last check or commit.
    """

    _MODES = ("check", "commit", "reveal")

    def __init__(self, choice, *, mode: str | None = None, width: str = "560px"):
        if not hasattr(choice, "options") or not hasattr(choice, "correct"):
            raise TypeError(f"choice must be a genviz.exercises.Choice, got {type(choice).__name__}")
        if mode is None:
            mode = "commit" if choice.kind == "prediction" else "check"
        if mode not in self._MODES:
            raise ValueError(f"mode must be one of {self._MODES}, got {mode!r}")
        self.choice, self.mode = choice, mode
        self.committed = None
        self.last = None
        lead = "Predict" if choice.kind == "prediction" else "Question"
        self.question = widgets.HTMLMath(f"<b>{lead}.</b> {_md(choice.prompt)}")
        self.radio = widgets.RadioButtons(
            options=[(f"({choice.label(i)}) {o}", i) for i, o in enumerate(choice.options)],
            value=None, layout=widgets.Layout(width=width), style={"description_width": "0px"})
        self.feedback = widgets.HTMLMath("")
        rest = []
        if mode == "reveal":
            self.button = widgets.ToggleButton(value=False, description="Reveal answer",
                                               icon="eye", tooltip="Show the answer to the room",
                                               layout=widgets.Layout(width="auto",
                                                                     min_width="150px"))
            self.button.observe(lambda change: self.reveal(change["new"]), names="value")
        else:
            label = "Commit" if mode == "commit" else "Check"
            tip = ("Commit to your prediction: then the explanation is shown"
                   if mode == "commit" else "Check your choice")
            self.button = widgets.Button(description=label, icon="check", button_style="primary",
                                         tooltip=tip, layout=widgets.Layout(width="auto",
                                                                            min_width="110px"))
            self.button.on_click(lambda _: self.commit() if mode == "commit" else self.check())
            if mode == "check":
                rest = [solution_toggle(choice)]
        # in an HBox, so a button sized "auto" fits its label instead of filling the column
        super().__init__([self.question, self.radio, widgets.HBox([self.button]), self.feedback,
                          *rest])
        self.add_class("genviz-choice")

    def select(self, i: int) -> None:
        """Select option ``i`` (what a click on a radio button does)."""
        self.radio.value = self.choice.index(i)

    def _need_selection(self):
        if self.radio.value is None:
            self.last = self.choice.check(None)
            self.feedback.value = self.last.to_html()
            return True
        return False

    def check(self):
        """Check the selected option; show and return the :class:`Feedback`."""
        if not self._need_selection():
            self.last = self.choice.check(self.radio.value)
            self.feedback.value = self.last.to_html()
        return self.last

    def commit(self):
        """Lock the selected prediction and show the verdict with the explanation."""
        if self.committed is not None or self._need_selection():
            return self.last
        self.committed = self.radio.value
        self.last = self.choice.check(self.committed)
        self.radio.disabled = True
        self.button.disabled = True
        self.button.description = "Committed"
        self.feedback.value = self.last.to_html()
        return self.last

    def reveal(self, show: bool = True) -> None:
        """Show (or fold again) the right option and the explanation (``"reveal"`` mode)."""
        if show:
            self.feedback.value = (f"<div><b>Answer:</b> {_md(self.choice.answer_text())}</div>"
                                   f"<div>{_md(self.choice.explanation)}</div>")
        else:
            self.feedback.value = ""
        if self.button.value != show:
            self.button.value = show
        self.button.description = "Hide answer" if show else "Reveal answer"

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """The live box where a widget manager runs; elsewhere (the course website, GitHub,
        nbviewer) the question, its options, and the answer folded in ``<details>``."""
        data = super()._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        if isinstance(data, tuple):
            data = data[0]
        return {**data, "text/html": _static_choice_html(self.choice),
                "text/plain": _static_choice_text(self.choice)}


def _md(text: str) -> str:

    return _markdown_to_html(text)


def _static_choice_html(choice) -> str:
    """A choice without widgets: the question, the options, then the answer folded."""
    lead = "Predict" if choice.kind == "prediction" else "Question"
    items = "".join(f"<li>({choice.label(i)}) {html.escape(o)}</li>"
                    for i, o in enumerate(choice.options))
    reasons = "".join(f"<li>({choice.label(i)}) {_md(r)}</li>"
                      for i, r in enumerate(choice.reasons) if r)
    reasons = f"<ul>{reasons}</ul>" if reasons else ""
    return (f'<div class="genviz-exercise genviz-choice tex2jax_process">'
            f"<p><b>{lead}.</b> {_md(choice.prompt)}</p>"
            f'<ul class="genviz-options" style="list-style:none;padding-left:1em">{items}</ul>'
            f"<p><i>Choose before you open the answer (run this notebook to commit to a "
            f"choice in a box).</i></p>"
            f"<details><summary>Answer</summary>"
            f"<p><b>{html.escape(choice.answer_text())}.</b> {_md(choice.explanation)}</p>"
            f"{reasons}</details></div>")


def _static_choice_text(choice) -> str:
    opts = "; ".join(f"({choice.label(i)}) {o}" for i, o in enumerate(choice.options))
    return f"{choice.prompt} Options: {opts}. Run this notebook to answer in a box."


def choice_box(choice, **kwargs) -> ChoiceBox:
    """The widget of a multiple-choice item: ``choice_box(exercises.smoothing_can_flip())``.
    A :class:`~genviz.exercises.Prediction` gets a Commit button (see :func:`prediction_box`)."""
    return ChoiceBox(choice, **kwargs)


def prediction_box(prediction, *, lecture: bool | None = None, **kwargs) -> ChoiceBox:
    """The box asking for a prediction before an explorer: radio buttons and Commit; the
    explanation appears only after the commit. In lecture mode (``lecture=None`` follows
    :func:`genviz.plots.style.is_lecture_mode`, which ``make present`` turns on) it is a
    question to the room with a *Reveal answer* toggle instead."""
    if lecture is None:
        lecture = _lecture_mode()
    return ChoiceBox(prediction, mode="reveal" if lecture else "commit", **kwargs)
