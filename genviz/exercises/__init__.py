"""Exercises that check themselves.

An :class:`Exercise` holds the right answer (computed by genviz from the notebook's own data, so
the answer never appears in the notebook), a hint and a worked solution. The learner computes a
value and calls ``exercise.check(value)``: the feedback says right or wrong, with the hint, and
never shows the answer. ``exercise.solution()`` shows the worked solution when asked (in a
notebook, ``genviz.widgets.solution_toggle(exercise)`` hides it behind a button).

Left unanswered (``...``), ``check`` says so without failing, so notebooks run top to bottom under
nbval with the exercise cells untouched. Each topic defines its exercises in
``genviz/exercises/<topic>.py`` as functions that take the notebook's data and return an
``Exercise``.

Examples
--------
>>> ex = Exercise("What is 1/4 as a decimal?", 0.25, hint="Divide 1 by 4.", solution="1/4 = 0.25")
>>> print(ex.check(...))
Not answered yet: replace ... with your answer and run the cell again.
>>> print(ex.check(0.3))
Not quite. Hint: Divide 1 by 4.
>>> print(ex.check(0.25))
Correct!
>>> ex.check(0.25).correct
True
"""

from __future__ import annotations

import dataclasses
import html
import numbers

import numpy as np

__all__ = ["Exercise", "Feedback", "Solution"]


@dataclasses.dataclass(frozen=True)
class Feedback:
    """The verdict on one answer. ``correct`` is None when nothing was answered."""

    correct: bool | None
    message: str

    def __str__(self) -> str:
        return self.message

    def __bool__(self) -> bool:
        return bool(self.correct)

    def _repr_html_(self) -> str:
        colour = {True: "#1a7f37", False: "#b35900", None: "#555555"}[self.correct]
        mark = {True: "&#10004; ", False: "&#10008; ", None: "&#9998; "}[self.correct]
        return (f"<div style='color:{colour};font-weight:bold'>{mark}"
                f"{html.escape(self.message)}</div>")

    def __repr__(self) -> str:
        return self.message


class Exercise:
    """One question with a known answer, a hint and a worked solution.

    Parameters
    ----------
    prompt : str
        The question, as shown to the learner.
    answer : number, array_like, str or bool
        The right answer. Numbers and arrays compare with ``rtol``/``atol``; strings compare
        case- and space-insensitively; a sequence of strings compares element-wise.
    hint : str
        Shown with a wrong answer. Must not give the answer away.
    solution : str
        The worked solution (shown only by :meth:`solution`).
    rtol, atol : float
        Tolerances for numeric answers (learners round: the defaults accept 3 significant
        digits).
    """

    def __init__(self, prompt: str, answer, *, hint: str, solution: str, rtol: float = 5e-3,
                 atol: float = 1e-9):
        for name, value in (("prompt", prompt), ("hint", hint), ("solution", solution)):
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{name} must be a non-empty string, got {value!r}")
        if rtol < 0 or atol < 0:
            raise ValueError(f"rtol and atol must be >= 0, got rtol={rtol!r}, atol={atol!r}")
        self.prompt = prompt
        self._answer = answer
        self.hint = hint
        self._solution = solution
        self.rtol = rtol
        self.atol = atol

    def __repr__(self) -> str:
        return f"Exercise({self.prompt!r})"

    def _repr_html_(self) -> str:
        return f"<div><b>Exercise.</b> {html.escape(self.prompt)}</div>"

    # -- checking ----------------------------------------------------------------------------
    def check(self, value) -> Feedback:
        """Right or wrong (with the hint); never reveals the answer."""
        if value is Ellipsis or value is None:
            return Feedback(None, "Not answered yet: replace ... with your answer and run the "
                                  "cell again.")
        ok, problem = self._compare(value)
        if ok:
            return Feedback(True, "Correct!")
        prefix = f"{problem} " if problem else ""
        return Feedback(False, f"{prefix}Not quite. Hint: {self.hint}")

    def _compare(self, value):
        answer = self._answer
        if isinstance(answer, str):
            if not isinstance(value, str):
                return False, f"Expected text, got {type(value).__name__}."
            return _norm(value) == _norm(answer), ""
        if isinstance(answer, (bool, np.bool_)):
            if not isinstance(value, (bool, np.bool_)):
                return False, "Expected True or False."
            return bool(value) == bool(answer), ""
        if (isinstance(answer, (list, tuple)) and answer
                and all(isinstance(a, str) for a in answer)):
            if isinstance(value, str) or not hasattr(value, "__len__"):
                return False, f"Expected a list of {len(answer)} labels."
            if len(value) != len(answer):
                return False, f"Expected {len(answer)} labels, got {len(value)}."
            return all(_norm(str(v)) == _norm(a) for v, a in zip(value, answer)), ""
        want = np.asarray(answer, dtype=float)
        try:
            got = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            return False, f"Expected a number or an array of numbers, got {type(value).__name__}."
        if got.shape != want.shape:
            if want.ndim == 0:
                return False, f"Expected a single number, got an array of shape {got.shape}."
            return False, f"Expected an array of shape {want.shape}, got shape {got.shape}."
        if not np.all(np.isfinite(got)) and not np.array_equal(np.isfinite(got), np.isfinite(want)):
            return False, "Your answer contains NaN or infinity."
        return bool(np.allclose(got, want, rtol=self.rtol, atol=self.atol, equal_nan=True)), ""

    # -- revealing ---------------------------------------------------------------------------
    def solution(self) -> "Solution":
        """The worked solution and the answer (call it only when you want to see them)."""
        return Solution(self._solution, _format_answer(self._answer))


@dataclasses.dataclass(frozen=True)
class Solution:
    text: str
    answer: str

    def __str__(self) -> str:
        return f"{self.text}\nAnswer: {self.answer}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return (f"<div style='white-space:pre-wrap'>{html.escape(self.text)}</div>"
                f"<div><b>Answer:</b> <code>{html.escape(self.answer)}</code></div>")


def _norm(s: str) -> str:
    return " ".join(s.strip().lower().split())


def _format_answer(answer) -> str:
    if isinstance(answer, str):
        return answer
    if isinstance(answer, numbers.Number):
        return f"{answer:.6g}"
    if isinstance(answer, (list, tuple)) and answer and all(isinstance(a, str) for a in answer):
        return ", ".join(answer)
    return np.array2string(np.asarray(answer, dtype=float), precision=4, suppress_small=True)
