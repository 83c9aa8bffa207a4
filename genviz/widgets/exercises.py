"""Answer boxes for exercises: type an answer, press Check, read the feedback; the worked
solution (typeset maths) stays hidden behind a toggle until asked for.

Nothing here computes an answer: :class:`genviz.exercises.Exercise` holds it (computed by genviz
from the notebook's data) and checks what was typed. The box works wherever widgets run —
JupyterLab, classic Notebook, VS Code, Voila (where code is hidden) — without editing code.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

__all__ = ["answer_box", "AnswerBox", "solution_toggle"]


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
