r"""Derivations the learner writes: each key step is a formula, checked by what it computes.

A :class:`Derivation` asks for the steps of a derivation as formulas in named symbols
(``s1*s2*sqrt(1 - rho^2)``), not for a pick among typeset options. A step is right when the
learner's formula equals the step's key formula as a function of the symbols: both are evaluated
at random points of the symbols' ranges and compared (the numerical identity test of WeBWorK's
formula answers; two different rational or elementary expressions almost never agree at 24
random points, and every point they agree at is exact to rounding). So ``s1*s2*sqrt(1-rho^2)``,
``sqrt(s1^2*s2^2 - (rho*s1*s2)^2)`` and ``σ1·σ2·√(1−ρ²)`` are the same answer. A wrong formula
that a known mistake produces gets that mistake's reason; any other wrong one the step's hint.
The worked derivation is shown after every step has been attempted
(:func:`genviz.widgets.practice.derivation_box`).

What a learner types is never passed to ``eval``: it is parsed by :mod:`ast` and only numbers,
the step's symbols, ``+ - * / ^ **``, pi, e and log/exp/sqrt/abs are allowed (the grammar of
:func:`genviz.exercises.parse_answer`, with symbols). A number next to a name or a bracket is a
product (``2pi``, ``2(x + 1)``), so is a closing bracket next to an opening one.

Examples
--------
>>> q = Derivation(r"The variance of the mean of $k$ independent terms of variance $\sigma^2$.",
...                [Step("Var of the sum", "k*sigma^2", r"k\sigma^2"),
...                 Step("Var of the mean", "sigma^2/k", r"\sigma^2/k",
...                      mistakes={"sigma^2/sqrt(k)": "That is the standard deviation's rate."})],
...                symbols={"k": Symbol("k", 2, 50, integer=True), "sigma": Symbol("σ", 0.1, 3)},
...                explanation="Variances of independent terms add; dividing by k divides it by k².",
...                hint="Var(aX) = a² Var(X).")
>>> print(q.check_step(1, "σ^2/k"))
Correct!
>>> print(q.check_step(1, "sigma**2 / sqrt(k)"))
Not quite: That is the standard deviation's rate.
>>> print(q.check_step(0, "k sigma"))
Not quite. Hint: Var(aX) = a² Var(X).
>>> print(q.check_step(0, "k σ²"))
Correct!
>>> print(q.check_step(0, "k*tau^2"))
Could not read 'k*tau^2': unknown name 'tau'. Write the formula in k, sigma (σ).
"""

from __future__ import annotations

import ast
import dataclasses
import math
import re
from collections.abc import Mapping, Sequence

import numpy as np

from genviz.exercises._core import (_BINARY, _FUNCS, _SUBSCRIPTS, _UNARY, Exercise, Feedback,
                                    Solution)

__all__ = ["Symbol", "Step", "Derivation", "read_formula", "same_formula"]

#: points at which two formulas are compared, and the seed that draws them
N_POINTS, POINTS_SEED = 24, 20261130
#: two formulas agree at a point when they differ by at most this (relative to the key)
RTOL = 1e-7
#: constants a formula may use
_CONSTANTS = {"pi": math.pi, "π": math.pi, "e": math.e}
#: functions, read case-insensitively (those of parse_answer; √ is read as sqrt)
_FUNCTIONS = {name: f for name, f in _FUNCS.items() if name not in ("degrees",)}


@dataclasses.dataclass(frozen=True)
class Symbol:
    """A symbol a formula is written in: ``label`` as the notebook writes it (``"σ₁"``), the
    range ``[low, high]`` its random values are drawn from (chosen so that the step's formulas
    are defined there), ``integer`` for counts, and other ``spellings`` it may be typed as (its
    label, with subscripts as digits, is always one)."""

    label: str
    low: float = 0.5
    high: float = 2.0
    integer: bool = False
    spellings: tuple = ()

    def __post_init__(self):
        if not isinstance(self.label, str) or not self.label.strip():
            raise ValueError(f"label must be a non-empty string, got {self.label!r}")
        if not (np.isfinite(self.low) and np.isfinite(self.high) and self.low < self.high):
            raise ValueError(f"low and high must be finite with low < high, got "
                             f"low={self.low!r}, high={self.high!r}")
        if self.integer and math.floor(self.high) - math.ceil(self.low) < 3:
            raise ValueError(f"an integer symbol needs at least 4 values in [low, high], got "
                             f"[{self.low}, {self.high}]")


@dataclasses.dataclass(frozen=True)
class Step:
    """One key step: ``prompt`` (Markdown: what to write), its ``key`` formula in the
    derivation's symbols, the key typeset (``latex``, shown with the worked derivation) and
    ``mistakes``: wrong formulas a known slip produces -> why (shown when the learner's formula
    equals one)."""

    prompt: str
    key: str
    latex: str
    mistakes: Mapping = dataclasses.field(default_factory=dict)


def _normalise(text: str) -> str:
    """The typed text in Python's syntax: unicode operators, subscripts, implicit products."""
    text = (text.translate(_SUBSCRIPTS).replace("−", "-").replace("×", "*").replace("·", "*")
            .replace("⋅", "*").replace("²", "^2").replace("³", "^3").replace("√", "sqrt")
            .replace("^", "**").strip())
    # 2pi, 2(x+1), 2 x -> products; 1e-3 stays a number
    text = re.sub(r"(?<![\w.])(\d+\.?\d*)(?![eE][-+]?\d)\s*(?=[^\W\d_]|\()", r"\1*", text)
    text = re.sub(r"\)\s*(?=[\w(])", ")*", text)
    # log c -> log(c): a function applied to one name or number without brackets
    functions = "|".join(sorted(_FUNCTIONS, key=len, reverse=True))
    text = re.sub(rf"\b({functions})\s+([^\W\d]\w*|\d+\.?\d*)(?![\w(])", r"\1(\2)", text,
                  flags=re.IGNORECASE)
    # k sigma -> k*sigma, but sqrt (x) stays a call
    return re.sub(r"(\w+)\s+(?=[\w(])",
                  lambda m: m.group(1) + (" " if m.group(1).lower() in _FUNCTIONS else "*"), text)


def _compile(node, names: Mapping[str, str], symbols):
    """``node`` (a parsed formula) as a function of the symbols' values (arrays)."""
    if isinstance(node, ast.Expression):
        return _compile(node.body, names, symbols)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
            and not isinstance(node.value, bool):
        value = float(node.value)
        return lambda env: value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        op, inner = _UNARY[type(node.op)], _compile(node.operand, names, symbols)
        return lambda env: op(inner(env))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        op = _BINARY[type(node.op)]
        left, right = _compile(node.left, names, symbols), _compile(node.right, names, symbols)
        return lambda env: op(np.asarray(left(env), dtype=float), right(env))
    if isinstance(node, ast.Name):
        if node.id in names:
            name = names[node.id]
            return lambda env: env[name]
        if node.id in _CONSTANTS or node.id.lower() in ("pi", "e"):
            value = _CONSTANTS.get(node.id, _CONSTANTS.get(node.id.lower()))
            return lambda env: value
        parts = _juxtaposed(node.id, names)
        if parts:  # ρσ1σ2, as on paper: a product of symbols
            factors = [_compile(ast.Name(p), names, symbols) for p in parts]
            return lambda env: math.prod((f(env) for f in factors[1:]), start=factors[0](env))
        raise ValueError(f"unknown name {node.id!r}. Write the formula in "
                         f"{_listed(symbols)}.")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        func = _FUNCTIONS.get(node.func.id.lower())
        if func is None and len(node.args) == 1 and (
                node.func.id in names or node.func.id in _CONSTANTS
                or _juxtaposed(node.func.id, names)):  # p(1 - p), 2πσ(...): a product
            return _compile(ast.BinOp(node.func, ast.Mult(), node.args[0]), names, symbols)
        if func is None:
            raise ValueError(f"unknown function {node.func.id!r}: use sqrt, exp, log or abs "
                             f"(a product needs *, as in k*(x + 1)).")
        if len(node.args) != 1:
            raise ValueError(f"{node.func.id}( ) takes one argument.")
        inner = _compile(node.args[0], names, symbols)
        return lambda env: func(inner(env))
    raise ValueError(f"a formula may hold numbers, {_listed(symbols)}, + - * / ^, pi, e and "
                     f"sqrt, exp, log, abs.")


def _juxtaposed(word: str, names: Mapping[str, str]) -> list | None:
    """``word`` as a product of symbols and constants written side by side (``ρσ1σ2`` ->
    ``["ρ", "σ1", "σ2"]``), the split with fewest parts; None if there is none."""
    tokens = sorted({*names, *_CONSTANTS}, key=len, reverse=True)
    best: list = [None] * len(word) + [[]]
    for start in range(len(word) - 1, -1, -1):
        for token in tokens:
            rest = best[start + len(token)] if word.startswith(token, start) else None
            if rest is not None and (best[start] is None or len(rest) + 1 < len(best[start])):
                best[start] = [token, *rest]
    return best[0] if best[0] and len(best[0]) > 1 else None


def _listed(symbols: Mapping[str, Symbol]) -> str:
    return ", ".join(name if s.label == name else f"{name} ({s.label})"
                     for name, s in symbols.items())


def _spellings(symbols: Mapping[str, Symbol]) -> dict:
    names = {}
    for name, s in symbols.items():
        for spelled in (name, s.label, s.label.translate(_SUBSCRIPTS), *s.spellings):
            spelled = spelled.translate(_SUBSCRIPTS).replace(" ", "")
            if names.setdefault(spelled, name) != name:
                raise ValueError(f"symbols: {spelled!r} spells both {names[spelled]!r} and "
                                 f"{name!r}")
    return names


def read_formula(text: str, symbols: Mapping[str, Symbol]):
    """A formula typed by a learner, as a function of a dict symbol name -> values.

    Raises
    ------
    ValueError
        The text is empty or not a formula in ``symbols``; the message says what to type.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("an empty formula: type one, e.g. 1/(2*pi*s)")
    if len(text) > 500:
        raise ValueError("a formula of more than 500 characters: the key steps are short.")
    for spelled, name in sorted(_spellings(symbols).items(), key=lambda kv: -len(kv[0])):
        if not spelled.isidentifier():  # K(0), f̂₋ᵢ(xᵢ): typed as the notebook writes them
            text = text.translate(_SUBSCRIPTS).replace(spelled, f" {name} ")
    try:
        tree = ast.parse(_normalise(text), mode="eval")
    except (SyntaxError, ValueError):
        raise ValueError("not a formula: write it as in 1/(2*pi*s) or k*(x + 1)^2, with * "
                         "between factors.") from None
    try:
        return _compile(tree, _spellings(symbols), symbols)
    except RecursionError:
        raise ValueError("a formula nested too deeply.") from None
    except OverflowError:  # a number beyond a float, e.g. 400 digits
        raise ValueError("a number too large for a formula.") from None


def _points(symbols: Mapping[str, Symbol]) -> dict:
    rng = np.random.default_rng(POINTS_SEED)
    return {name: (rng.integers(math.ceil(s.low), math.floor(s.high) + 1, N_POINTS)
                   .astype(float) if s.integer else rng.uniform(s.low, s.high, N_POINTS))
            for name, s in symbols.items()}


def _values(formula, env) -> np.ndarray:
    with np.errstate(all="ignore"):
        try:
            out = formula(env)
        except (OverflowError, ZeroDivisionError, TypeError, ValueError, RecursionError):
            return np.full(N_POINTS, np.nan)
    return np.broadcast_to(np.asarray(out, dtype=float), (N_POINTS,))


def same_formula(a, b, symbols: Mapping[str, Symbol]) -> bool:
    """Whether formulas ``a`` and ``b`` (text) are the same function of ``symbols``: equal, to
    :data:`RTOL`, at :data:`N_POINTS` random points where ``b`` is finite, and finite there."""
    env = _points(symbols)
    va, vb = _values(read_formula(a, symbols), env), _values(read_formula(b, symbols), env)
    where = np.isfinite(vb)
    if where.sum() < N_POINTS // 2:
        raise ValueError(f"the formula {b!r} is undefined at most points of the symbols' ranges")
    return bool(np.all(np.isfinite(va[where]))
                and np.allclose(va[where], vb[where], rtol=RTOL, atol=1e-12 * np.abs(vb[where]).max()))


class Derivation(Exercise):
    """A derivation written as its key steps, each a formula checked against the key.

    Parameters
    ----------
    prompt : str
        What to derive (Markdown with ``$...$`` maths).
    steps : sequence of Step
        The key steps, in order; the last is the result.
    symbols : mapping str -> Symbol
        The symbols a formula may use: name as typed -> :class:`Symbol`.
    explanation : str
        The worked derivation (Markdown), shown after every step has been attempted.
    hint : str
        Shown with a wrong step; must not give the step away.
    id : str, optional
        A stable name (``"02-peak-formula"``).
    claims, objective
        As for :class:`~genviz.exercises.Exercise`.

    Raises
    ------
    TypeError
        ``steps`` is not a sequence of Step, or ``symbols`` not a mapping to Symbol.
    ValueError
        No step; a key or mistake that is not a formula in ``symbols``; a key undefined over
        the symbols' ranges; a mistake that equals its key; an empty prompt, hint or explanation.
    """

    kind = "derivation"

    def __init__(self, prompt: str, steps: Sequence[Step], *, symbols: Mapping[str, Symbol],
                 explanation: str, hint: str, id: str | None = None, claims=(),
                 objective: str | None = None):
        if not isinstance(symbols, Mapping) or not symbols \
                or not all(isinstance(s, Symbol) for s in symbols.values()):
            raise TypeError("symbols must be a non-empty mapping name -> Symbol")
        for name in symbols:
            if not isinstance(name, str) or not name.isidentifier():
                raise ValueError(f"symbols: every name must be an identifier, got {name!r}")
        if isinstance(steps, (str, Step)) or not isinstance(steps, Sequence) \
                or not all(isinstance(s, Step) for s in steps):
            raise TypeError("steps must be a sequence of Step")
        if not steps:
            raise ValueError("steps must hold at least one Step")
        _spellings(symbols)
        for i, step in enumerate(steps):
            for name, value in (("prompt", step.prompt), ("key", step.key),
                                ("latex", step.latex)):
                if not isinstance(value, str) or not value.strip():
                    raise ValueError(f"steps[{i}].{name} must be a non-empty string")
            try:
                same_formula(step.key, step.key, symbols)
                for wrong in step.mistakes:
                    if same_formula(wrong, step.key, symbols):
                        raise ValueError(f"steps[{i}].mistakes: {wrong!r} equals the key")
            except ValueError as err:
                raise ValueError(f"steps[{i}]: {err}") from None
        super().__init__(prompt, steps[-1].key, hint=hint, solution=explanation,
                         kind="derivation", claims=claims, objective=objective)
        self.steps, self.symbols, self.explanation, self.id = tuple(steps), dict(symbols), \
            explanation, id

    def __repr__(self) -> str:
        return f"Derivation({self.prompt!r}, {len(self.steps)} steps)"

    @property
    def answer_format(self) -> str:
        return f"a formula in {_listed(self.symbols)}, e.g. 1/(2*pi*{next(iter(self.symbols))})"

    def check_step(self, i: int, text) -> Feedback:
        """Right or wrong for step ``i``'s typed formula (never the key): a known mistake's
        reason, else the hint; a formula that cannot be read says what to type."""
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) \
                or not 0 <= i < len(self.steps):
            raise IndexError(f"i must be a step index in [0, {len(self.steps)}), got {i!r}")
        if text is None or not str(text).strip():
            return Feedback(None, "Not answered yet: write the formula in the box and press "
                                  "Check.")
        step = self.steps[i]
        try:
            if same_formula(str(text), step.key, self.symbols):
                return Feedback(True, "Correct!")
        except ValueError as err:
            return Feedback(False, f"Could not read {str(text).strip()!r}: {err}")
        for wrong, why in step.mistakes.items():
            try:
                if same_formula(str(text), wrong, self.symbols):
                    return Feedback(False, f"Not quite: {why}")
            except ValueError:  # a mistake undefined over the ranges names no slip
                continue
        return Feedback(False, f"Not quite. Hint: {self.hint}")

    def check(self, value) -> Feedback:
        """``value``: the typed formula of every step (a sequence), or of the result alone (a
        string). Right when every step is."""
        if value is Ellipsis or value is None:
            return Feedback(None, "Not answered yet: write each step's formula and press Check.")
        if isinstance(value, str):
            return self.check_step(len(self.steps) - 1, value)
        if not isinstance(value, Sequence):
            return Feedback(False, f"Expected {len(self.steps)} formulas (one per step), got "
                                   f"{type(value).__name__}.")
        texts = list(value)
        if len(texts) != len(self.steps):
            return Feedback(False, f"Expected {len(self.steps)} formulas (one per step), got "
                                   f"{len(texts)}.")
        verdicts = [self.check_step(i, t) for i, t in enumerate(texts)]
        if all(v.correct for v in verdicts):
            return Feedback(True, "Correct!")
        wrong = [f"step {i + 1}: {v.message}" for i, v in enumerate(verdicts) if not v.correct]
        return Feedback(False if any(v.correct is False for v in verdicts) else None,
                        " ".join(wrong))

    def check_text(self, text: str) -> Feedback:
        """The result's typed formula (the last step)."""
        return self.check_step(len(self.steps) - 1, text)

    def solution(self) -> Solution:
        """The worked derivation and the key steps (call it only when revealing)."""
        steps = " ".join(f"({i + 1}) ${s.latex}$" for i, s in enumerate(self.steps))
        return Solution(self.explanation, self.steps[-1].key, steps)
