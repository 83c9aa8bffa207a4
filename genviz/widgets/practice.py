"""The boxes the learner writes in: an open question (:class:`genviz.exercises.OpenQuestion`):
write first, then read the model answer; a derivation (:class:`genviz.exercises.Derivation`):
write each key step as a formula, check it, then read the worked derivation.

The model answer is not in the widget's state until the learner has written an attempt (at
least the question's ``min_words`` words) and pressed *Compare*: then the box shows which of the
question's key points the text mentions, and the model answer. Statically (the course website,
GitHub, nbviewer) the question, a line saying to write first, and the model answer folded in
``<details>``.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from genviz.exercises._core import _markdown_to_html
from genviz.widgets._static_box import StaticFallback, static_card

__all__ = ["open_box", "OpenBox", "derivation_box", "DerivationBox"]


class OpenBox(StaticFallback, widgets.VBox):
    """The question, a text area, *Compare*, the feedback and (after an attempt) the model answer.

    Attributes
    ----------
    question : OpenQuestion
    text : ipywidgets.Textarea
        What the learner wrote.
    button : ipywidgets.Button
        Compare (shows the model answer once the text is an attempt).
    feedback : ipywidgets.HTMLMath
        What to do next, or which key points the text mentions.
    answer : ipywidgets.HTMLMath
        Empty until an attempt; then the model answer.
    last : Feedback or None
    """

    def __init__(self, question, *, width: str = "560px"):
        if getattr(question, "kind", None) != "open" or not hasattr(question, "key_points"):
            raise TypeError(f"question must be a genviz.exercises.OpenQuestion, got "
                            f"{type(question).__name__}")
        self.question, self.last = question, None
        head = widgets.HTMLMath(f"<b>Open question.</b> {_markdown_to_html(question.prompt)}")
        self.text = widgets.Textarea(value="", placeholder=question.answer_format,
                                     description="Your answer",
                                     style={"description_width": "90px"},
                                     layout=widgets.Layout(width=width, height="90px"))
        self.button = widgets.Button(description="Compare", icon="comments",
                                     button_style="primary",
                                     tooltip="Show the model answer after you have written yours",
                                     layout=widgets.Layout(width="auto", min_width="110px"))
        self.feedback = widgets.HTMLMath("")
        self.answer = widgets.HTMLMath("")
        self.button.on_click(lambda _: self.compare())
        # "Not answered yet" / "Write a little more first" is cleared once the text is an
        # attempt (#37 item 6: a refusal does not outlive its cause); Compare then judges it
        self.text.observe(lambda _: self._clear_stale_message(), names="value")
        super().__init__([head, self.text, widgets.HBox([self.button]), self.feedback,
                          self.answer])
        self.add_class("genviz-open")

    def _clear_stale_message(self) -> None:
        if self.last is not None and not self.answer.value \
                and self.question.attempted(self.text.value):
            self.feedback.value = ""

    def compare(self):
        """Judge what is written: before an attempt only what to do; after it the key points
        and the model answer. Returns the :class:`Feedback`."""
        self.last = self.question.check_text(self.text.value)
        self.feedback.value = self.last.to_html()
        if self.question.attempted(self.text.value):
            self.answer.value = (f"<div><b>Model answer.</b> "
                                 f"{_markdown_to_html(self.question.model_answer)}</div>")
        return self.last

    def _static(self) -> tuple[str, str]:
        """(html, text) where no widget manager runs: the question, then the model
        answer folded."""
        q = self.question
        points = "".join(f"<li>{html.escape(p)}</li>" for p in q.key_points)
        static = static_card("genviz-open", ("Open question", _markdown_to_html(q.prompt)),
                             "Write your answer first (run this notebook to write it in a box), "
                             "then open the model answer.",
                             folds=[("Model answer", f"<p>{_markdown_to_html(q.model_answer)}</p>"
                                     f"<p>A good answer says:</p><ul>{points}</ul>")])
        text = f"Open question: {q.prompt} Run this notebook to write your answer in a box."
        return static, text


def open_box(question, **kwargs) -> OpenBox:
    """The widget of an open question: ``open_box(exercises.curse_in_a_clinic())``."""
    return OpenBox(question, **kwargs)


class DerivationBox(StaticFallback, widgets.VBox):
    """The derivation, a formula box per key step, *Check*, each step's verdict and (once every
    step has been checked at least once) the worked derivation.

    Attributes
    ----------
    derivation : Derivation
    texts : list of ipywidgets.Text
        The formula typed for each step.
    button : ipywidgets.Button
        Check (every step with a formula).
    verdicts : list of ipywidgets.HTMLMath
        Each step's feedback; empty until checked.
    worked : ipywidgets.HTMLMath
        Empty until every step has been attempted; then the worked derivation.
    last : list of Feedback or None
    """

    def __init__(self, derivation, *, width: str = "560px"):
        if getattr(derivation, "kind", None) != "derivation" or not hasattr(derivation, "steps"):
            raise TypeError(f"derivation must be a genviz.exercises.Derivation, got "
                            f"{type(derivation).__name__}")
        self.derivation, self.last = derivation, None
        self._tried = [False] * len(derivation.steps)
        head = widgets.HTMLMath(f"<b>Derivation.</b> {_markdown_to_html(derivation.prompt)}"
                                f"<br><i>Write each step as a formula in "
                                f"{html.escape(_symbols(derivation))}: for example "
                                f"<code>k*(x + 1)^2/(2*pi)</code>.</i>")
        self.texts, self.verdicts, rows = [], [], []
        for i, step in enumerate(derivation.steps):
            text = widgets.Text(value="", placeholder="a formula",
                                layout=widgets.Layout(width=width))
            verdict = widgets.HTMLMath("")
            text.observe(lambda _, i=i: self._clear(i), names="value")
            self.texts.append(text)
            self.verdicts.append(verdict)
            rows += [widgets.HTMLMath(f"<b>Step {i + 1}.</b> {_markdown_to_html(step.prompt)}"),
                     text, verdict]
        self.button = widgets.Button(description="Check", icon="check", button_style="primary",
                                     tooltip="Check every step you have written",
                                     layout=widgets.Layout(width="auto", min_width="110px"))
        self.worked = widgets.HTMLMath("")
        self.button.on_click(lambda _: self.check())
        super().__init__([head, *rows, widgets.HBox([self.button]), self.worked])
        self.add_class("genviz-derivation")

    def _clear(self, i: int) -> None:
        """A verdict does not outlive the formula it judged (#37 item 6)."""
        if self.verdicts[i].value:
            self.verdicts[i].value = ""

    def check(self):
        """Judge every step with a formula; show the worked derivation once each step has been
        attempted. Returns the list of :class:`Feedback`, one per step."""
        self.last = []
        for i, text in enumerate(self.texts):
            verdict = self.derivation.check_step(i, text.value)
            self._tried[i] = self._tried[i] or verdict.correct is not None
            self.verdicts[i].value = verdict.to_html()
            self.last.append(verdict)
        if all(self._tried) and not self.worked.value:
            self.worked.value = (f"<div><b>Worked derivation.</b> "
                                 f"{self.derivation.solution().to_html()}</div>")
        return self.last

    def _static(self) -> tuple[str, str]:
        """(html, text) where no widget manager runs: the derivation, its steps to write, and
        the worked derivation folded."""
        d = self.derivation
        steps = [f"Step {i + 1}. {_markdown_to_html(s.prompt)}" for i, s in enumerate(d.steps)]
        static = static_card("genviz-derivation", ("Derivation", _markdown_to_html(d.prompt)),
                             "Write each step on paper first (run this notebook to check your "
                             "formulas in a box), then open the worked derivation.",
                             options=steps,
                             folds=[("Worked derivation", d.solution().to_html())])
        text = (f"Derivation: {d.prompt} " + " ".join(f"Step {i + 1}: {s.prompt}"
                                                      for i, s in enumerate(d.steps))
                + " Run this notebook to check your formulas in a box.")
        return static, text


def _symbols(derivation) -> str:
    return ", ".join(name if s.label == name else f"{name} for {s.label}"
                     for name, s in derivation.symbols.items())


def derivation_box(derivation, **kwargs) -> DerivationBox:
    """The widget of a written derivation: ``derivation_box(exercises.peak_formula_derivation())``."""
    return DerivationBox(derivation, **kwargs)
