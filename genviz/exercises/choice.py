"""Multiple-choice items: conceptual questions and predictions made before an explorer.

A :class:`Choice` is a question with a few options, the right one(s) and a reason: the learner
picks an option and :meth:`Choice.check` says right or wrong with the *reason for the option
picked* (why it holds, or why it fails) and the hint — never which option is right. The worked
explanation is :meth:`Choice.solution`, shown when asked.

A :class:`Prediction` is asked *before* an explorer shows the answer (Crouch et al., Am. J.
Phys. 72, 2004: learners who predict a demonstration's outcome understand it better than
learners who only watch it). It goes through the whole cycle: the learner commits to one
option (no verdict yet), records what the explorer showed (its
:class:`~genviz.exercises.observation.Observation`, checked against the explorer), and only
then reads the verdict and the explanation (the widgets:
``genviz.widgets.predictions.prediction_box`` and ``observation_box``).

**Ids and shuffled options.** Every prediction has a stable ``id`` unique across the course
(``"02-peak-with-rho"``: the notebook's number, then words); a conceptual :class:`Choice` may
have one. An item with an id shows its options in an order drawn from the id (a SHA-256 of it),
so the right option's position carries no signal and is the same on every run (nbval, the
site, the graded assignments); the options are written in any order, with the right one(s)
named by index or text as usual.

Both are :class:`~genviz.exercises.Exercise` objects (``check``, ``check_text``, ``hint``,
``solution``, ``answer_format``, ``kind``), so they go wherever an exercise goes. Where the right
option follows from numbers, the topic's function computes it with the model layer (e.g.
``genviz.exercises.gaussian.predict_peak_with_rho``): the text never states it.

Examples
--------
>>> q = Choice("Can Laplace smoothing flip a decision?", ["yes", "no"], "yes",
...            explanation="It changes every estimated probability, so it can.",
...            reasons={"no": "A word seen once in one class and never in the other "
...                           "changes a lot."})
>>> print(q.check("b"))
Not quite. A word seen once in one class and never in the other changes a lot.
>>> q.check("yes").correct, q.check(0).correct, q.check_text("(a)").correct
(True, True, True)
>>> print(q.check(...))
Not answered yet: choose an option and press Check.
"""

from __future__ import annotations

import hashlib
import html
import numbers
import re
import string
from collections.abc import Mapping

from genviz.exercises._core import Exercise, Feedback, Solution, _check_pattern
from genviz.exercises.observation import Observation

__all__ = ["Choice", "Prediction", "shuffled_order", "ID_PATTERN"]

_LETTERS = string.ascii_lowercase

#: An item id: the notebook's two digits, a hyphen, then lower-case words joined by hyphens.
ID_PATTERN = re.compile(r"[0-9]{2}-[a-z0-9]+(?:-[a-z0-9]+)*")


def shuffled_order(item_id: str, n: int) -> list[int]:
    """The order in which an item with this id shows its ``n`` options: ``order[k]`` is the
    index (as written) of the option shown at position ``k``. Drawn from SHA-256 of the id, so
    it is the same on every machine and every run.

    >>> shuffled_order("02-peak-with-rho", 4) == shuffled_order("02-peak-with-rho", 4)
    True
    >>> sorted(shuffled_order("02-peak-with-rho", 4))
    [0, 1, 2, 3]
    """
    return sorted(range(n), key=lambda i: hashlib.sha256(f"{item_id}#{i}".encode()).hexdigest())


def _check_id(item_id) -> str:
    return _check_pattern(item_id, "id", ID_PATTERN, "02-peak-with-rho",
                          "the notebook's two digits, a hyphen and lower-case words joined by "
                          "hyphens")


def _norm(s: str) -> str:
    return " ".join(str(s).strip().lower().split())


class Choice(Exercise):
    """A multiple-choice question whose feedback gives the reason for the option picked.

    Parameters
    ----------
    prompt : str
        The question (Markdown with ``$...$`` maths).
    options : sequence of str
        At least two distinct options, in the order shown (labelled a, b, c, ...).
    answer : int, str or sequence of them
        The right option: its index (0-based) or its text; several right options as a list
        (any of them is accepted).
    explanation : str
        Why the right option is right: the worked solution (Markdown with maths).
    reasons : mapping or sequence, optional
        A reason per option, shown with the verdict when that option is picked: a mapping
        option text (or index) -> reason, or a sequence aligned with ``options`` (None for an
        option without a reason). A wrong option's reason must not name the right one.
    hint : str, optional
        Added to the feedback of a wrong choice.
    kind : str, optional
        ``"concept"`` by default (see :data:`genviz.exercises.KINDS`).
    id : str, optional
        A stable id unique across the course (``"05-more-smoothing"``); with it the options
        are shown in the order :func:`shuffled_order` draws from the id. Without it they are
        shown as written.
    claims : sequence of str, optional
        The right answer's key claim as regular expressions (see
        :class:`~genviz.exercises.Exercise`): what a sentence giving the answer away says.
    objective : str, optional
        The objective the item checks, ``"05.3"`` (see :class:`~genviz.exercises.Exercise`).

    Attributes
    ----------
    options : tuple of str
        In the order shown.
    correct : tuple of int
        Indices (in ``options``) of the right options.
    explanation : str
    reasons : tuple of (str or None)
        One per option, in the order shown.
    id : str or None

    Raises
    ------
    TypeError
        ``options`` is not a sequence of strings, ``answer`` is neither an index nor a text,
        or ``id`` is not a string.
    ValueError
        Fewer than two options, an empty or repeated option, an ``answer`` that is not one of
        the options, an empty ``explanation`` or ``hint``, ``reasons`` that do not match the
        options, an ``id`` not of the form ``"05-more-smoothing"``.
    """

    kind = "concept"
    _unanswered = "Not answered yet: choose an option and press Check."

    def __init__(self, prompt: str, options, answer, *, explanation: str, reasons=None,
                 hint: str | None = None, kind: str | None = None, id: str | None = None,
                 claims=(), objective: str | None = None):
        self.id = None if id is None else _check_id(id)
        if isinstance(options, (str, bytes)) or not hasattr(options, "__len__"):
            raise TypeError(f"options must be a list of strings, got {type(options).__name__}")
        options = tuple(options)
        if len(options) < 2:
            raise ValueError(f"options must hold at least two options, got {len(options)}")
        if len(options) > len(_LETTERS):
            raise ValueError(f"options must hold at most {len(_LETTERS)} options, got {len(options)}")
        for i, opt in enumerate(options):
            if not isinstance(opt, str):
                raise TypeError(f"options[{i}] must be a string, got {type(opt).__name__}")
            if not opt.strip():
                raise ValueError(f"options[{i}] must be a non-empty string, got {opt!r}")
        normed = [_norm(o) for o in options]
        if len(set(normed)) != len(normed):
            raise ValueError(f"options must be distinct, got {list(options)!r}")
        self.options = options
        many = isinstance(answer, (list, tuple, set, frozenset))
        picks = list(answer) if many else [answer]
        if not picks:
            raise ValueError("answer must name at least one option, got an empty list")
        self.correct = tuple(sorted({self._answer_index(a) for a in picks}))
        if not isinstance(explanation, str) or not explanation.strip():
            raise ValueError(f"explanation must be a non-empty string, got {explanation!r}")
        if hint is not None and (not isinstance(hint, str) or not hint.strip()):
            raise ValueError(f"hint must be None or a non-empty string, got {hint!r}")
        self.explanation = explanation
        self.reasons = self._read_reasons(reasons)
        if self.id is not None:
            order = shuffled_order(self.id, len(options))
            self.options = options = tuple(options[i] for i in order)
            self.reasons = tuple(self.reasons[i] for i in order)
            self.correct = tuple(sorted(order.index(i) for i in self.correct))
        right = [options[i] for i in self.correct]
        super().__init__(prompt, right[0] if len(right) == 1 else right,
                         hint=hint or "Read the reason above, then try another option.",
                         solution=explanation, kind=kind, claims=claims, objective=objective)
        self._has_hint = hint is not None

    # -- construction helpers ------------------------------------------------------------------
    def _answer_index(self, a) -> int:
        if isinstance(a, bool) or not isinstance(a, (numbers.Integral, str)):
            raise TypeError(f"answer must be an option's index or text, got {type(a).__name__}")
        if isinstance(a, numbers.Integral):
            if not 0 <= int(a) < len(self.options):
                raise ValueError(f"answer index {a} is out of range for {len(self.options)} options")
            return int(a)
        for i, opt in enumerate(self.options):
            if _norm(opt) == _norm(a):
                return i
        raise ValueError(f"answer {a!r} is not one of the options {list(self.options)!r}")

    def _read_reasons(self, reasons) -> tuple:
        n = len(self.options)
        if reasons is None:
            return (None,) * n
        if isinstance(reasons, Mapping):
            out = [None] * n
            for key, text in reasons.items():
                try:
                    i = self._answer_index(key)
                except (TypeError, ValueError) as err:
                    raise ValueError(f"reasons: key {key!r} is not an option ({err})") from None
                out[i] = text
        elif isinstance(reasons, (list, tuple)):
            if len(reasons) != n:
                raise ValueError(f"reasons must give one entry per option ({n}), got {len(reasons)}")
            out = list(reasons)
        else:
            raise TypeError(f"reasons must be a mapping or a list, got {type(reasons).__name__}")
        for i, text in enumerate(out):
            if text is not None and (not isinstance(text, str) or not text.strip()):
                raise ValueError(f"reasons[{i}] must be None or a non-empty string, got {text!r}")
        return tuple(out)

    # -- reading a selection -------------------------------------------------------------------
    def label(self, i: int) -> str:
        """The letter of option ``i``: ``"a"``, ``"b"``, ..."""
        return _LETTERS[i]

    def index(self, selection) -> int:
        """The index of the option a learner selected.

        ``selection`` is an index (0-based), an option's text (case and spaces ignored) or its
        letter (``"b"``, ``"(b)"``, ``"B)"``).

        Raises
        ------
        TypeError
            ``selection`` is not an int or a string.
        ValueError
            It names no option (the message lists what can be typed, not the answer).
        """
        if isinstance(selection, bool) or not isinstance(selection, (numbers.Integral, str)):
            raise TypeError(f"selection must be an option's index, letter or text, "
                            f"got {type(selection).__name__}")
        n = len(self.options)
        if isinstance(selection, numbers.Integral):
            if not 0 <= int(selection) < n:
                raise ValueError(f"selection {selection} is out of range: there are {n} options")
            return int(selection)
        text = _norm(selection)
        for i, opt in enumerate(self.options):
            if _norm(opt) == text:
                return i
        m = re.fullmatch(r"\(?([a-z])[).]?", text)
        if m and _LETTERS.index(m.group(1)) < n:
            return _LETTERS.index(m.group(1))
        raise ValueError(f"selection {selection.strip()!r} is not an option: type a letter "
                         f"a-{_LETTERS[n - 1]} or an option's text")

    # -- checking ------------------------------------------------------------------------------
    @property
    def answer_format(self) -> str:
        return f"one of the letters a-{_LETTERS[len(self.options) - 1]}"

    def check(self, value) -> Feedback:
        """Right or wrong, with the reason for the option picked (and the hint if wrong)."""
        if value is Ellipsis or value is None:
            return Feedback(None, self._unanswered)
        try:
            i = self.index(value)
        except (TypeError, ValueError) as err:
            return Feedback(False, f"Could not read your choice: {err}.")
        return self._verdict(i)

    def check_text(self, text) -> Feedback:
        """Check a typed choice: a letter, ``(b)``, an option's text."""
        if text is None or not str(text).strip():
            return Feedback(None, self._unanswered)
        return self.check(str(text))

    def _verdict(self, i: int) -> Feedback:
        reason = self.reasons[i]
        if i in self.correct:
            return Feedback(True, "Correct!" + (f" {reason}" if reason else ""))
        parts = ["Not quite."]
        if reason:
            parts.append(reason)
        if self._has_hint or not reason:
            parts.append(f"Hint: {self.hint}")
        return Feedback(False, " ".join(parts))

    # -- revealing -----------------------------------------------------------------------------
    def answer_text(self) -> str:
        """The right option(s) as ``"(b) moves up"`` (call it only when revealing)."""
        return " or ".join(f"({self.label(i)}) {self.options[i]}" for i in self.correct)

    def solution(self) -> Solution:
        """The explanation and the right option."""
        text = self.answer_text()
        return Solution(self.explanation, text, text)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.prompt!r}, options={list(self.options)!r})"

    def _repr_html_(self) -> str:
        items = "".join(f"<li>({self.label(i)}) {html.escape(o)}</li>"
                        for i, o in enumerate(self.options))
        return (f"<div><b>{'Predict' if self.kind == 'prediction' else 'Question'}.</b> "
                f"{html.escape(self.prompt)}<ul style='list-style:none'>{items}</ul></div>")


def _transfer(pid: str, answer, prompt: str, rows, *, explanation: str, claims=()) -> Choice:
    """The analogous situation that ends prediction ``pid``'s cycle: a :class:`Choice` of kind
    ``"transfer"`` with id ``"<pid>-transfer"``. ``rows`` pairs each option, in the order
    written, with the reason shown when it is picked (None: no reason)."""
    reasons = {i: reason for i, (_, reason) in enumerate(rows) if reason is not None}
    return Choice(prompt, [option for option, _ in rows], answer, kind="transfer",
                  id=f"{pid}-transfer", explanation=explanation, reasons=reasons or None,
                  claims=claims)


def _only_option(candidates, holds, *, refusal=None) -> int:
    """The index of the one option of ``candidates`` (option text -> its value) whose value
    ``holds``: a derivation's right option is the candidate that equals what the model layer
    computes. Raises ValueError when none or several do (the numbers cannot tell the options
    apart), with ``refusal(count)`` as the message if given."""
    right = [i for i, value in enumerate(candidates.values()) if holds(value)]
    if len(right) != 1:
        raise ValueError(refusal(len(right)) if refusal is not None else
                         f"{len(right)} of the options {list(candidates)!r} agree with the "
                         f"derived value; a derivation needs exactly one")
    return right[0]


class Prediction(Choice):
    """A question asked before an explorer shows the answer: predict, observe, explain.

    Same parameters as :class:`Choice` (``kind`` is ``"prediction"``), plus:

    id : str
        Required: a stable id unique across the course (``"02-peak-with-rho"``); the options
        are shown in the order it draws (:func:`shuffled_order`).
    observation : Observation, optional
        What the learner records from the explorer after committing (a value at a stated
        setting). Every prediction before an explorer has one (the course tests check it).
    transfer : Choice, optional
        The **analogous situation** the cycle ends with (issue #40 item 3; Sokoloff &
        Thornton's interactive lecture demonstrations): the same idea in another setting,
        asked after the explanation, as a :class:`Choice` of kind ``"transfer"``. Every
        prediction of the course has one (the course tests check it).

    :meth:`check` is the verdict on a prediction, given once the learner has recorded the
    observation: right or not, with the reason for the option picked and the explanation. The
    explanation never states the observation's value (the learner has just recorded it; on a
    static page it stays folded under the observation's prompt).

    >>> p = Prediction("Which way does the peak move when rho goes from 0.5 to 0.9?",
    ...                ["up", "down", "it stays"], "up", id="02-doctest-peak",
    ...                explanation="|Sigma| shrinks, so the peak 1/(2 pi |Sigma|^(1/2)) grows.")
    >>> p.options[p.correct[0]]
    'up'
    >>> print(p.check("down"))
    Not what happens. |Sigma| shrinks, so the peak 1/(2 pi |Sigma|^(1/2)) grows.
    """

    kind = "prediction"
    _unanswered = "Not committed yet: choose an option and press Commit."

    def __init__(self, prompt: str, options, answer, *, id: str, explanation: str,
                 observation: Observation | None = None, reasons=None, hint: str | None = None,
                 kind: str | None = None, claims=(), transfer: Choice | None = None):
        if observation is not None and not isinstance(observation, Observation):
            raise TypeError(f"observation must be a genviz.exercises.Observation or None, got "
                            f"{type(observation).__name__}")
        if transfer is not None and (not isinstance(transfer, Choice)
                                     or isinstance(transfer, Prediction)):
            raise TypeError(f"transfer must be a genviz.exercises.Choice (not a Prediction) or "
                            f"None, got {type(transfer).__name__}")
        if transfer is not None and transfer.kind != "transfer":
            raise ValueError(f"transfer must be a Choice of kind 'transfer', got kind "
                             f"{transfer.kind!r}")
        self.observation = observation
        self.transfer = transfer
        super().__init__(prompt, options, answer, explanation=explanation, reasons=reasons,
                         hint=hint, kind=kind, id=id, claims=claims)

    def _verdict(self, i: int) -> Feedback:
        reason = self.reasons[i]
        head = "Your prediction was right." if i in self.correct else "Not what happens."
        parts = [head] + ([reason] if reason else []) + [self.explanation]
        return Feedback(i in self.correct, " ".join(parts))
