"""The box of an open question (:class:`genviz.exercises.OpenQuestion`): write first, then read
the model answer.

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

__all__ = ["open_box", "OpenBox"]


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
