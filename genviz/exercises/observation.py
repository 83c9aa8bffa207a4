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

**Observations that confront the prediction.** A prediction about a change (ρ from 0.5 to
0.9; φ from 0.5 to 0.8) is decided by the reading *before* and the reading *after*, not by
the "after" alone: ``before`` names the controls as they stand at the start, and the box asks
for both readings (each checked at its own setting) and keeps the "before" for the learner;
``compare`` says how the two decide — ``"pair"`` (the direction: which way it moved),
``"ratio"`` (after / before) or ``"difference"`` (after − before). A two-part claim
("precision rises, recall falls") reads both halves at once: ``expected`` a pair of numbers,
``parts`` their names, typed as ``0.95, 0.80``.

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

Before and after, compared by their ratio:

>>> obs = Observation("Read the peak at ρ = 0.5, then at ρ = 0.9: how do they compare?", 0.3651,
...                   setting={"rho": 0.9}, before={"rho": 0.5}, expected_before=0.1838,
...                   compare="ratio", labels={"rho": "ρ"}, read="peak", what="the peak p(μ)",
...                   atol=6e-4)
>>> obs.stages
('before', 'after')
>>> print(obs.check_reading("0.1838", state={"peak": 0.18378}, values={"rho": 0.5},
...                         stage="before"))
Recorded: the peak p(μ) = 0.1838 at ρ = 0.5.
>>> print(obs.saw_text(0.3651, 0.1838))
the peak p(μ) 0.1838 at ρ = 0.5 → 0.3651 at ρ = 0.9 (after / before = 1.986)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

from collections import Counter

import numpy as np

from genviz.exercises._core import Exercise, Feedback, format_number
from genviz.text import tokenize

__all__ = ["Observation", "STAGES", "COMPARE"]

#: The readings an observation may ask for: the start of a change, and the reading that decides.
STAGES = ("before", "after")
#: How a before/after pair decides a prediction about a change.
COMPARE = ("pair", "ratio", "difference")


def _bag(text: str) -> Counter:
    """A typed text as the filter reads it: its bag of words (order, case, spaces and
    punctuation aside)."""
    return Counter(tokenize(text))


def _same(want, got) -> bool:
    """A control at its stated value: numbers to slider precision, texts as bags of words
    (what a bag-of-words model reads: "… razor." and "razor …" are the same email), anything
    else equal."""
    if isinstance(want, bool) or isinstance(got, bool):
        return want == got
    if isinstance(want, numbers.Real) and isinstance(got, numbers.Real):
        return math.isclose(float(want), float(got), rel_tol=1e-6, abs_tol=1e-9)
    if isinstance(want, (tuple, list)) and isinstance(got, (tuple, list)):
        return len(want) == len(got) and all(_same(w, g) for w, g in zip(want, got))
    if isinstance(want, str) and isinstance(got, str):  # a typed text: its bag of words
        if " ".join(want.lower().split()) == " ".join(got.lower().split()):
            return True
        return _bag(want) == _bag(got) and bool(_bag(want))
    return want == got


def _text_change(want: str, got) -> str:
    """What to change in a typed text to reach ``want``, without printing it (it can be a
    whole email): the words to add and to remove."""
    if not isinstance(got, str):
        return "type the text the prompt gives"
    need, have = _bag(want), _bag(got)
    add, drop = need - have, have - need
    words = lambda bag: ", ".join(f"'{w}'" + (f" ×{k}" if k > 1 else "")  # noqa: E731
                                  for w, k in sorted(bag.items()))
    parts = ([f"add {words(add)}"] if add else []) + ([f"remove {words(drop)}"] if drop else [])
    return " and ".join(parts) or "type the text the prompt gives"


def _show(value) -> str:
    if isinstance(value, str) and len(value) > 40:  # a typed email: its ends, not all of it
        words = value.split()
        return repr(" ".join(words[:3]) + " … " + " ".join(words[-3:])) if len(words) > 6 \
            else repr(value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return format_number(value, 4)
    if isinstance(value, (list, tuple, np.ndarray)) and len(value) and all(
            isinstance(v, numbers.Real) for v in np.asarray(value, dtype=float).ravel()):
        return ", ".join(format_number(float(v), 4) for v in np.asarray(value, dtype=float))
    return str(value)


def _reading(value):
    """A reading as a float, or a list of floats (a two-part reading)."""
    arr = np.asarray(value, dtype=float)
    return float(arr) if arr.ndim == 0 else [float(v) for v in arr.ravel()]


def _number_or_pair(name, value, parts):
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number or a sequence of numbers, got "
                        f"{type(value).__name__}") from None
    if parts and arr.shape != (len(parts),):
        raise ValueError(f"{name} must hold one number per part {list(parts)}, got {value!r}")
    if not parts and arr.ndim != 0:
        raise ValueError(f"{name} must be a number (give parts= for a reading of several "
                         f"numbers), got {value!r}")
    return _reading(arr)


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
    before : mapping, optional
        For a prediction about a change: the controls of ``setting`` as they stand at the start
        (``{"rho": 0.5}``). The box then asks for the reading there too, and keeps it.
    expected_before : float or sequence of float, optional
        The reading at the "before" setting (required with ``before``).
    compare : {"pair", "ratio", "difference"}, optional
        How before and after decide the prediction (shown beside them); ``"pair"`` (the
        default with ``before``): the direction.
    parts : sequence of str, optional
        A reading of several numbers, one per part ("precision", "recall"): both halves of a
        two-part claim; ``expected`` (and ``expected_before``) hold one number per part.

    Raises
    ------
    TypeError
        ``setting``, ``labels`` or ``before`` is not a mapping, ``read`` is neither a key, a
        path nor a function, or ``expected_before`` is not a number.
    ValueError
        An empty ``setting`` or ``what``; a ``before`` that names controls not in ``setting`` or
        leaves them all where ``setting`` has them, without ``expected_before`` (or one
        without ``before``); an unknown ``compare``; ``parts`` that do not match the
        expected readings; or what :class:`~genviz.exercises.Exercise` refuses.
    """

    kind = "observation"
    _unanswered = "Not recorded yet: type what the explorer shows and press Record."

    def __init__(self, prompt: str, expected, *, setting, read=None, what: str,
                 labels=None, hint: str | None = None, unit: str = "", rtol: float = 0.0,
                 atol: float = 0.0, mention=None, before=None, expected_before=None,
                 compare: str | None = None, parts=None):
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
        if parts is not None:
            if isinstance(parts, str) or not all(isinstance(x, str) and x.strip()
                                                 for x in parts) or len(parts) < 2:
                raise ValueError(f"parts must name at least two parts of the reading, got "
                                 f"{parts!r}")
            parts = tuple(parts)
        self.parts = parts
        expected = _number_or_pair("expected", expected, parts)
        if before is not None:
            if not isinstance(before, Mapping):
                raise TypeError(f"before must be a mapping of control name -> value, got "
                                f"{type(before).__name__}")
            stray = [k for k in before if k not in self.setting]
            if not before or stray:
                raise ValueError(f"before must name controls of setting {list(self.setting)}, "
                                 f"got {dict(before)!r}")
            if not any(not _same(v, self.setting[k]) for k, v in before.items()):
                raise ValueError(f"before must move at least one control away from setting, "
                                 f"got {dict(before)!r}")
            if expected_before is None:
                raise ValueError("expected_before must be given with before: the reading at "
                                 "the start")
            self.before = dict(before)
            self.expected_before = _number_or_pair("expected_before", expected_before, parts)
        else:
            if expected_before is not None:
                raise ValueError("expected_before needs before (the setting it is read at)")
            self.before = None
            self.expected_before = None
        if compare is not None and compare not in COMPARE:
            raise ValueError(f"compare must be one of {COMPARE}, got {compare!r}")
        if compare is not None and self.before is None:
            raise ValueError("compare needs before: it says how before and after decide")
        if compare in ("ratio", "difference") and parts:
            raise ValueError(f"compare={compare!r} needs a one-number reading, not parts")
        self.compare = compare or ("pair" if self.before is not None else None)
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

    @property
    def stages(self) -> tuple[str, ...]:
        """The readings the learner records: ``("before", "after")`` for a change, else
        ``("after",)``."""
        return STAGES if self.before is not None else ("after",)

    def setting_at(self, stage: str = "after") -> dict:
        """The full setting of a reading: ``setting``, or for ``"before"`` with ``before``'s
        controls in place."""
        if stage not in self.stages:
            raise ValueError(f"stage must be one of {self.stages}, got {stage!r}")
        return {**self.setting, **self.before} if stage == "before" else dict(self.setting)

    def setting_text(self, stage: str = "after") -> str:
        """The setting as the page writes it (the controls of ``mention``, and those ``before``
        moves): ``"ρ = 0.9"``, ``"d = 3, n = 50"``."""
        at = self.setting_at(stage)
        names = list(self.mention) + [k for k in (self.before or {}) if k not in self.mention]
        return ", ".join(f"{self.label(k)} = {_show(at[k])}" for k in names)

    def off_setting(self, values: Mapping, stage: str = "after"
                    ) -> list[tuple[str, object, object]]:
        """The controls of the stage's setting whose value in ``values`` differs: (name,
        wanted, now). A control missing from ``values`` counts as off (now is None)."""
        return [(k, v, values.get(k)) for k, v in self.setting_at(stage).items()
                if k not in values or not _same(v, values[k])]

    def stage_at(self, values: Mapping) -> str | None:
        """The stage whose setting ``values`` are at, or None."""
        for stage in self.stages:
            if not self.off_setting(values, stage):
                return stage
        return None

    def saw_text(self, after, before=None) -> str:
        """What the learner saw, as the verdict and the review write it: the reading, or
        before → after with how they compare."""
        parts = f" ({', '.join(self.parts)})" if self.parts else ""
        if self.before is None or before is None:
            return f"{self.what}{parts} = {_show(after)}{self.unit}"
        text = (f"{self.what}{parts} {_show(before)}{self.unit} at {self.setting_text('before')}"
                f" → {_show(after)}{self.unit} at {self.setting_text()}")
        if self.compare == "ratio" and before:
            text += f" (after / before = {format_number(float(after) / float(before), 4)})"
        elif self.compare == "difference":
            text += f" (after − before = {format_number(float(after) - float(before), 4)})"
        return text

    # -- the reference -----------------------------------------------------------------------
    def reference(self, state: Mapping | None = None, stage: str = "after"):
        """The value the explorer shows: read from ``state`` (its ``view.state``) when given
        and ``read`` is set, else ``expected`` (``expected_before`` for ``"before"``)."""
        if state is None or self.read is None:
            return self.expected_before if stage == "before" else self._answer
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
                      values: Mapping | None = None, stage: str = "after") -> Feedback:
        """Check what the learner typed against the explorer.

        ``values`` (the explorer's ``values()``) must have every control of the stage's
        setting at its value, else nothing is judged (``correct`` is None and the message says
        what to set). The reference is then read from ``state`` (the explorer's
        ``view.state``), or is ``expected`` (``expected_before``) without a state.
        """
        if stage not in self.stages:
            raise ValueError(f"stage must be one of {self.stages}, got {stage!r}")
        if text is None or not str(text).strip():
            return Feedback(None, self._unanswered)
        if values is not None:
            off = self.off_setting(values, stage)
            texts = [(k, v, now) for k, v, now in off if isinstance(v, str) and len(v) > 40]
            if texts:  # a long typed text (an email): say what to change, do not print it
                k, v, now = texts[0]
                return Feedback(None, f"The explorer is not at the setting yet: in the "
                                      f"{self.label(k)}, {_text_change(v, now)}, then record "
                                      f"what you see.")
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
            self._answer = _reading(self.reference(state, stage))
            feedback = Exercise.check_text(self, self._strip(text))
        finally:
            self._answer = saved
        where = f" at {self.setting_text(stage)}" if self.before is not None else ""
        if feedback.correct:
            return Feedback(True, f"Recorded: {self.what} = {self._strip(text)}{self.unit}"
                                  f"{where}.")
        if feedback.correct is False and feedback.message.startswith("Could not read"):
            return feedback
        return Feedback(False, f"That is not what the explorer shows at "
                               f"{self.setting_text(stage)}. Look again: {self.hint}")

    def __repr__(self) -> str:
        return f"Observation({self.prompt!r}, setting={self.setting!r})"
