"""What the learner saw: the *observe* step of predict, observe, explain.

A :class:`~genviz.exercises.Prediction` is asked before an explorer; its :class:`Observation`
asks the learner to **record what the explorer showed** at a stated setting (a value on the
readout, or a count read off the figure), and only a recording that matches the explorer opens
the explanation (Sokoloff & Thornton's interactive lecture demonstrations: predict, observe and
record, then explain).

Where the reference comes from. An observation names the explorer's controls and the values
they must have (``setting``) and what to read from the explorer's state (``read``: a key of
``view.state``, a path of keys, or a function of the state defined here in the exercises
layer). When a box checks a recording against a live explorer
(:meth:`Observation.check_reading` with its ``values()`` and ``view.state``):

* if a control of ``setting`` is elsewhere, nothing is judged: the message says which slider to
  set to what (a reading taken at another setting is never marked wrong or right);
* otherwise the reference is read from the explorer's state at that moment — exactly what the
  learner sees, whatever computes it.

Without an explorer (static pages, lecture mode's fallback, tests) the reference is
``expected``, which the topic's builder computes with the model layer at the same setting; the
tests check that both agree for every prediction of the course.

Examples
--------
>>> obs = Observation("Set ρ to 0.9. What is the peak p(μ) in the readout?", 0.3651,
...                   setting={"rho": 0.9}, labels={"rho": "ρ"}, read="peak",
...                   what="the peak p(μ)", atol=6e-4)
>>> print(obs.check_reading("0.365", state={"peak": 0.36515}, values={"rho": 0.9}))
Recorded: the peak p(μ) = 0.365.
>>> print(obs.check_reading("0.365", state={"peak": 0.18}, values={"rho": 0.5}))
The explorer is not at the setting yet: set ρ = 0.9 (it is at 0.5 now), then record what you see.
>>> obs.check_reading("0.2", values={"rho": 0.9}).correct
False
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

from genviz.exercises._core import Exercise, Feedback, format_number

__all__ = ["Observation"]


def _same(want, got) -> bool:
    """A control at its stated value: numbers to slider precision, texts up to spaces and case,
    anything else equal."""
    if isinstance(want, bool) or isinstance(got, bool):
        return want == got
    if isinstance(want, numbers.Real) and isinstance(got, numbers.Real):
        return math.isclose(float(want), float(got), rel_tol=1e-6, abs_tol=1e-9)
    if isinstance(want, (tuple, list)) and isinstance(got, (tuple, list)):
        return len(want) == len(got) and all(_same(w, g) for w, g in zip(want, got))
    if isinstance(want, str) and isinstance(got, str):  # a typed text: spaces and case aside
        return " ".join(want.lower().split()) == " ".join(got.lower().split())
    return want == got


def _show(value) -> str:
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return format_number(value, 4)
    return str(value)


class Observation(Exercise):
    """A reading the learner records from an explorer at a stated setting.

    Parameters
    ----------
    prompt : str
        What to set and what to read ("Set ρ to 0.9. What is the peak p(μ) in the readout?").
        It never contains the answer.
    expected : float
        The reading at ``setting``, computed by the topic's builder with the model layer (used
        where no explorer is attached).
    setting : mapping
        Control name (as in the explorer's ``values()``) -> the value it must have. Every
        control the reading depends on is listed; the others may be anywhere.
    read : str, tuple of str or callable, optional
        What to read from the explorer's ``view.state``: a key, a path of keys
        (``("errors", "gda")``), or a function ``state -> float``. None: the observation is
        checked against ``expected`` only.
    what : str
        The quantity in a few words ("the peak p(μ)"): in messages and in the review.
    labels : mapping, optional
        Control name -> how the page writes it (``{"rho": "ρ"}``).
    hint : str, optional
        Where to look (the readout's line), shown with a reading that does not match.
    unit : str, optional
        ``"%"``: the reading is a percentage as the readout prints it, and a typed ``%`` is
        accepted.
    mention : sequence of str, optional
        The controls of ``setting`` named where the setting is written out (the reading shown
        with the explanation, the hint): the ones the prompt asks to move. Default: all.
    rtol, atol : float
        How far a reading may be from the explorer's value: the readout's rounding.

    Raises
    ------
    TypeError
        ``setting`` or ``labels`` is not a mapping, or ``read`` is neither a key, a path nor a
        function.
    ValueError
        An empty ``setting`` or ``what``, or what :class:`~genviz.exercises.Exercise` refuses.
    """

    kind = "observation"
    _unanswered = "Not recorded yet: type what the explorer shows and press Record."

    def __init__(self, prompt: str, expected, *, setting, read=None, what: str,
                 labels=None, hint: str | None = None, unit: str = "", rtol: float = 0.0,
                 atol: float = 0.0, mention=None):
        if not isinstance(setting, Mapping):
            raise TypeError(f"setting must be a mapping of control name -> value, got "
                            f"{type(setting).__name__}")
        if not setting:
            raise ValueError("setting must name at least one control")
        if labels is not None and not isinstance(labels, Mapping):
            raise TypeError(f"labels must be a mapping or None, got {type(labels).__name__}")
        if not (read is None or callable(read) or isinstance(read, str)
                or (isinstance(read, tuple) and read and all(isinstance(k, str) for k in read))):
            raise TypeError(f"read must be a state key, a tuple of keys or a function, got "
                            f"{type(read).__name__}")
        if not isinstance(what, str) or not what.strip():
            raise ValueError(f"what must be a non-empty string, got {what!r}")
        if unit not in ("", "%"):
            raise ValueError(f"unit must be '' or '%', got {unit!r}")
        self.setting = dict(setting)
        mention = list(self.setting) if mention is None else list(mention)
        unknown = [k for k in mention if k not in self.setting]
        if isinstance(mention, str) or unknown or not mention:
            raise ValueError(f"mention must name controls of setting {list(self.setting)}, got "
                             f"{mention!r}")
        self.mention = tuple(mention)
        self.labels = {k: str(v) for k, v in (labels or {}).items()}
        self.read = read
        self.what = what
        self.unit = unit
        where = self.setting_text()
        super().__init__(
            prompt, expected,
            hint=hint or f"Set {where}, then read {what} in the explorer's readout.",
            solution=f"At {where} the explorer shows {what} = {_show(expected)}{unit}.",
            rtol=rtol, atol=atol, kind="observation")

    # -- the setting -------------------------------------------------------------------------
    def label(self, name: str) -> str:
        """How the page writes control ``name``."""
        return self.labels.get(name, name)

    def setting_text(self) -> str:
        """The setting as the page writes it (the controls of ``mention``): ``"ρ = 0.9"``,
        ``"d = 3, n = 50"``."""
        return ", ".join(f"{self.label(k)} = {_show(self.setting[k])}" for k in self.mention)

    def off_setting(self, values: Mapping) -> list[tuple[str, object, object]]:
        """The controls of ``setting`` whose value in ``values`` differs: (name, wanted, now).
        A control missing from ``values`` counts as off (now is None)."""
        return [(k, v, values.get(k)) for k, v in self.setting.items()
                if k not in values or not _same(v, values[k])]

    # -- the reference -----------------------------------------------------------------------
    def reference(self, state: Mapping | None = None) -> float:
        """The value the explorer shows: read from ``state`` (its ``view.state``) when given
        and ``read`` is set, else ``expected``."""
        if state is None or self.read is None:
            return self._answer
        if callable(self.read):
            return self.read(state)
        keys = (self.read,) if isinstance(self.read, str) else self.read
        value = state
        for key in keys:
            value = value[key]
        return value

    # -- checking ----------------------------------------------------------------------------
    def _strip(self, text: str) -> str:
        text = str(text).strip()
        if self.unit == "%" and text.endswith("%"):
            text = text[:-1].strip()
        return text

    def check_text(self, text) -> Feedback:
        """Check a typed reading against ``expected`` (no explorer)."""
        return self.check_reading(text)

    def check_reading(self, text, *, state: Mapping | None = None,
                      values: Mapping | None = None) -> Feedback:
        """Check what the learner typed against the explorer.

        ``values`` (the explorer's ``values()``) must have every control of ``setting`` at its
        value, else nothing is judged (``correct`` is None and the message says what to set).
        The reference is then read from ``state`` (the explorer's ``view.state``), or is
        ``expected`` without a state.
        """
        if text is None or not str(text).strip():
            return Feedback(None, self._unanswered)
        if values is not None:
            off = self.off_setting(values)
            if off:
                want = ", ".join(f"{self.label(k)} = {_show(v)}" for k, v, _ in off)
                if len(off) == 1:
                    now = f"it is at {_show(off[0][2])} now"
                else:
                    now = "now " + ", ".join(f"{self.label(k)} = {_show(v)}" for k, _, v in off)
                return Feedback(None, f"The explorer is not at the setting yet: set {want} "
                                      f"({now}), then record what you see.")
        saved = self._answer
        try:
            self._answer = float(self.reference(state))
            feedback = Exercise.check_text(self, self._strip(text))
        finally:
            self._answer = saved
        if feedback.correct:
            return Feedback(True, f"Recorded: {self.what} = {self._strip(text)}{self.unit}.")
        if feedback.correct is False and feedback.message.startswith("Could not read"):
            return feedback
        return Feedback(False, f"That is not what the explorer shows at {self.setting_text()}. "
                               f"Look again: {self.hint}")

    def __repr__(self) -> str:
        return f"Observation({self.prompt!r}, setting={self.setting!r})"
