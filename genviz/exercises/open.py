"""Open questions: a transfer question answered in the learner's own words.

An :class:`OpenQuestion` has no answer a program can grade. The learner writes an answer first;
only then is the **model answer** shown, with a list of the points a good answer makes and which
of them the learner's text mentions (a mirror, not a grade: the point is to compare). Before an
attempt nothing of the model answer is shown — in the widget
(``genviz.widgets.practice.open_box``) or on a static page, where it stays folded.

Examples
--------
>>> q = OpenQuestion("A table over 12 yes/no symptoms and a diagnosis: estimate it from 500 "
...                  "patients?", "No: 8192 cells for 500 records, most cells stay empty.",
...                  key_points={"counts the cells": r"cells|8192",
...                              "most cells are empty": r"empty|zero|never seen"})
>>> print(q.check_text("no"))
Write a little more first (at least 8 words): the model answer appears after your attempt.
>>> fb = q.check_text("No, the table has 8192 cells and most would stay empty.")
>>> fb.correct is None, q.mentioned("most stay empty")
(True, ['most cells are empty'])
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from genviz.exercises._core import Exercise, Feedback, Solution

__all__ = ["OpenQuestion"]


class OpenQuestion(Exercise):
    """A question answered in words; the model answer is shown after an attempt.

    Parameters
    ----------
    prompt : str
        The question (Markdown with ``$...$`` maths).
    model_answer : str
        What a good answer says (Markdown), shown after the learner wrote at least
        ``min_words`` words.
    key_points : mapping str -> str
        The points a good answer makes: a short label -> a regular expression (case-insensitive)
        that finds the point in the learner's text. At least one.
    hint : str, optional
        Shown under the question before an attempt (where to start).
    min_words : int, default 8
        Words to write before the model answer is shown.
    claims : sequence of str, optional
        The model answer's key claim as regular expressions (see
        :class:`~genviz.exercises.Exercise`): earlier text must not state it.
    objective : str, optional
        The objective the question checks (``"05.3"``).

    Raises
    ------
    TypeError
        ``key_points`` is not a mapping.
    ValueError
        An empty prompt, model answer or label, no key point, a key point that is not a regular
        expression, or ``min_words < 1``.
    """

    kind = "open"

    def __init__(self, prompt: str, model_answer: str, *, key_points, hint: str | None = None,
                 min_words: int = 8, claims=(), objective: str | None = None):
        if not isinstance(model_answer, str) or not model_answer.strip():
            raise ValueError(f"model_answer must be a non-empty string, got {model_answer!r}")
        if not isinstance(key_points, Mapping):
            raise TypeError(f"key_points must be a mapping label -> regular expression, got "
                            f"{type(key_points).__name__}")
        if not key_points:
            raise ValueError("key_points must name at least one point a good answer makes")
        for label, pattern in key_points.items():
            if not isinstance(label, str) or not label.strip():
                raise ValueError(f"key_points: every label must be a non-empty string, got "
                                 f"{label!r}")
            try:
                re.compile(pattern)
            except (re.error, TypeError) as err:
                raise ValueError(f"key_points[{label!r}] is not a regular expression ({err}): "
                                 f"{pattern!r}") from None
        if isinstance(min_words, bool) or not isinstance(min_words, int) or min_words < 1:
            raise ValueError(f"min_words must be an integer >= 1, got {min_words!r}")
        super().__init__(prompt, model_answer,
                         hint=hint or "Write what you would do and why, in two or three "
                                      "sentences.",
                         solution=model_answer, kind="open", claims=claims, objective=objective)
        self.key_points = dict(key_points)
        self.min_words = min_words
        self._has_hint = hint is not None

    @property
    def model_answer(self) -> str:
        """The model answer (call it only when revealing)."""
        return self._answer

    @property
    def answer_format(self) -> str:
        return "a few sentences in your own words"

    def mentioned(self, text: str) -> list[str]:
        """The labels of the key points that ``text`` mentions."""
        return [label for label, pattern in self.key_points.items()
                if re.search(pattern, str(text), flags=re.IGNORECASE)]

    def attempted(self, text) -> bool:
        """Whether ``text`` is an attempt: at least ``min_words`` words."""
        return text is not None and len(re.findall(r"\w+", str(text))) >= self.min_words

    def check(self, value) -> Feedback:
        """Never right or wrong (``correct`` is None): before an attempt, what to do; after
        it, which key points the text mentions and which it does not."""
        if value is Ellipsis or value is None or not str(value).strip():
            return Feedback(None, "Not answered yet: write your answer in the box, then press "
                                  "Compare.")
        if not self.attempted(value):
            return Feedback(None, f"Write a little more first (at least {self.min_words} "
                                  f"words): the model answer appears after your attempt.")
        said = self.mentioned(value)
        missing = [label for label in self.key_points if label not in said]
        parts = ["Compare your answer with the model answer below."]
        if said:
            parts.append("Your answer mentions: " + "; ".join(said) + ".")
        if missing:
            parts.append("A good answer also says: " + "; ".join(missing) + ".")
        return Feedback(None, " ".join(parts))

    def check_text(self, text) -> Feedback:
        return self.check(text)

    def solution(self) -> Solution:
        """The model answer and the key points (call it only after an attempt)."""
        points = "; ".join(self.key_points)
        return Solution(self.model_answer, f"a good answer says: {points}",
                        f"a good answer says: {points}")

    def __repr__(self) -> str:
        return f"OpenQuestion({self.prompt!r})"
