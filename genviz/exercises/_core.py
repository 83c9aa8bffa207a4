"""The exercise machinery behind :mod:`genviz.exercises` (see its docstring): an answer, its
feedback, its solution, and reading what a learner typed."""


from __future__ import annotations

import ast
import dataclasses
import html
import math
import numbers
import operator
import re

import numpy as np

__all__ = ["Exercise", "Feedback", "Solution", "parse_answer", "format_number", "KINDS",
           "PRACTICE_KINDS", "OBJECTIVE_PATTERN", "claim_text", "matching_claims"]

#: What kind of item an exercise is: ``"compute"`` (fluency: a formula of the notebook),
#: ``"explorer"`` (set an explorer and read it), ``"concept"`` (a choice with a reason),
#: ``"prediction"`` (before an explorer), ``"observation"`` (what it showed, after a
#: prediction), ``"investigation"`` (found by *searching* with an explorer), ``"derivation"``
#: (a step or result of a derivation; the worked derivation is the solution), ``"open"`` (a
#: transfer question, the model answer after an attempt: ``OpenQuestion``) or ``"transfer"``
#: (the analogous situation a prediction's cycle ends with: ``Prediction(transfer=...)``).
#: Tests count them.
KINDS = ("compute", "explorer", "concept", "prediction", "observation", "investigation",
         "derivation", "open", "transfer")
#: The kinds of *practice* (predictions and observations belong to the explorers).
PRACTICE_KINDS = ("compute", "explorer", "concept", "investigation", "derivation", "open")
#: An objective: the notebook's two digits, a dot, its number in that notebook's list
#: ("you will be able to ...", from 1): ``"05.3"``. An earlier notebook's = a retrieval item.
OBJECTIVE_PATTERN = re.compile(r"[0-9]{2}\.[1-9][0-9]?")


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

    def to_html(self) -> str:
        """Like the HTML repr, for ``ipywidgets.HTMLMath``: the message's little Markdown
        (`code`, **bold**) rendered and its ``$...$`` maths left for MathJax."""
        colour = {True: "#1a7f37", False: "#b35900", None: "#555555"}[self.correct]
        mark = {True: "&#10004; ", False: "&#10008; ", None: "&#9998; "}[self.correct]
        return (f"<div style='color:{colour}'><b>{mark}</b>"
                f"{_markdown_to_html(self.message)}</div>")

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
    kind : {"compute", "explorer", "concept", "prediction", "observation"}
        What the learner does to answer it (see :data:`KINDS`); ``"explorer"`` marks a question
        answered by setting the notebook's explorer and reading its readout.
    claims : sequence of str, optional
        The answer's **key claim**, as regular expressions (case-insensitive, matched against
        text with its markdown and LaTeX markup read as words; :func:`claim_text`): what a
        sentence that gives the answer away says. The course tests check that no text before
        the item in its notebook matches one (``tests/test_teaching.py``) and that each matches
        the item's own answer, explanation or solution (so it is the item's claim). Text
        answers, choices, predictions and one-digit answers need one: a number check cannot
        find them.
    objective : str, optional
        The objective it checks, ``"NN.k"`` (:data:`OBJECTIVE_PATTERN`); in a later notebook
        it is a retrieval item. Tests: every practice item names one, every objective has one.
    """

    kind = "compute"
    objective = None

    def __init__(self, prompt: str, answer, *, hint: str, solution: str, rtol: float = 5e-3,
                 atol: float = 1e-9, kind: str | None = None, claims=(),
                 objective: str | None = None):
        for name, value in (("prompt", prompt), ("hint", hint), ("solution", solution)):
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{name} must be a non-empty string, got {value!r}")
        self.claims = _check_claims(claims)
        if objective is not None:
            self.objective = _check_objective(objective)
        if rtol < 0 or atol < 0:
            raise ValueError(f"rtol and atol must be >= 0, got rtol={rtol!r}, atol={atol!r}")
        if kind is not None:
            if kind not in KINDS:
                raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
            self.kind = kind
        self.prompt = prompt
        self._answer = answer
        self.hint = hint
        self._solution = solution
        self.rtol = rtol
        self.atol = atol

    def __repr__(self) -> str:
        return f"Exercise({self.prompt!r})"

    @property
    def retrieves(self) -> str | None:
        """The notebook (``"05"``) whose objective this item checks, or None."""
        return None if self.objective is None else self.objective[:2]

    def _repr_html_(self) -> str:
        return f"<div><b>Exercise.</b> {html.escape(self.prompt)}</div>"

    # -- checking ----------------------------------------------------------------------------
    def check(self, value) -> Feedback:
        """Right or wrong (with the hint); never reveals the answer."""
        if value is Ellipsis or value is None:
            return Feedback(None, "Not answered yet: type your answer in the box and press Check.")
        ok, problem = self._compare(value)
        if ok:
            return Feedback(True, "Correct!")
        prefix = f"{problem} " if problem else ""
        return Feedback(False, f"{prefix}Not quite. Hint: {self.hint}")

    def check_text(self, text: str) -> Feedback:
        """Check what the learner typed in an answer box (see :func:`parse_answer`)."""
        if text is None or not str(text).strip():
            return Feedback(None, "Not answered yet: type your answer in the box and press Check.")
        try:
            value = parse_answer(str(text), self._answer)
        except ValueError as err:
            return Feedback(False, f"Could not read {str(text).strip()!r} as {err}")
        return self.check(value)

    @property
    def answer_format(self) -> str:
        """What kind of answer the box expects (its placeholder), never the answer itself."""
        answer = self._answer
        if isinstance(answer, str):
            return "a word or a short phrase"
        if isinstance(answer, (bool, np.bool_)):
            return "yes or no"
        if isinstance(answer, (list, tuple)) and answer and all(isinstance(a, str) for a in answer):
            return f"{len(answer)} labels separated by commas"
        shape = np.shape(answer)
        if len(shape) == 0:
            return "a number, e.g. 1.5e-3, 7/8 or log(2)/3"
        if len(shape) == 1:
            return f"a vector of {shape[0]} numbers, e.g. [1, 2.5]"
        return f"a {shape[0]}x{shape[1]} matrix, e.g. [[1, 0], [0, 1]]"

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
        return Solution(self._solution, _format_answer(self._answer),
                        _latex_answer(self._answer))


@dataclasses.dataclass(frozen=True)
class Solution:
    """A worked solution: ``text`` is Markdown with LaTeX maths; ``answer`` the answer as plain
    text, ``latex`` the answer typeset."""

    text: str
    answer: str
    latex: str = ""

    def __str__(self) -> str:
        return f"{self.text}\nAnswer: {self.answer}"

    __repr__ = __str__

    def _repr_markdown_(self) -> str:
        return f"{self.text}\n\n**Answer:** {self.latex or self.answer}"

    def to_html(self) -> str:
        """HTML for ``ipywidgets.HTMLMath``: the maths is left for MathJax to typeset."""
        return (f"<div>{_markdown_to_html(self.text)}</div>"
                f"<div><b>Answer:</b> {_markdown_to_html(self.latex or self.answer)}</div>")

    _repr_html_ = to_html


def _check_pattern(value, name: str, pattern, example: str, spelled: str) -> str:
    """``value`` if it is a string that ``pattern`` matches in full; else a TypeError (not a
    string) or a ValueError naming ``name``, what it must be (``spelled``) and an example."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string such as {example!r}, got "
                        f"{type(value).__name__}")
    if not pattern.fullmatch(value):
        raise ValueError(f"{name} must be {spelled} (e.g. {example!r}), got {value!r}")
    return value


def _check_objective(objective) -> str:
    return _check_pattern(objective, "objective", OBJECTIVE_PATTERN, "05.3",
                          "the notebook's two digits, a dot and the objective's number")


def _check_claims(claims) -> tuple[str, ...]:
    if isinstance(claims, str) or not isinstance(claims, (list, tuple)):
        raise TypeError(f"claims must be a list or tuple of regular expressions, got "
                        f"{type(claims).__name__}")
    for i, c in enumerate(claims):
        if not isinstance(c, str) or not c.strip():
            raise ValueError(f"claims[{i}] must be a non-empty string, got {c!r}")
        try:
            re.compile(c)
        except re.error as err:
            raise ValueError(f"claims[{i}] is not a regular expression ({err}): {c!r}") from None
    return tuple(claims)


#: LaTeX commands read as the letters a reader sees (claims are written with the letters)
_TEX_LETTERS = {"alpha": "α", "beta": "β", "theta": "θ", "phi": "φ", "varphi": "φ", "mu": "μ",
                "sigma": "σ", "Sigma": "Σ", "rho": "ρ", "lambda": "λ", "pi": "π", "epsilon": "ε",
                "eps": "ε", "le": "≤", "ge": "≥", "leq": "≤", "geq": "≥", "to": "→",
                "infty": "∞", "times": "×", "approx": "≈", "neq": "≠", "ne": "≠"}


#: subscript digits read as digits (μ₀ -> μ0, as $\\mu_0$ reads)
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def claim_text(text: str) -> str:
    r"""Text as a claim is matched against: lower case, one space between words, markdown
    emphasis and code marks, ``$``, ``_`` and braces dropped, LaTeX letters read as letters
    (``\rho`` -> ρ) and other commands as their names, subscript digits as digits.

    >>> claim_text("a *compressed* Gaussian is $\\rho > 0$, `code`")
    'a compressed gaussian is ρ > 0 , code'
    """
    out = re.sub(r"\\([A-Za-z]+)", lambda m: _TEX_LETTERS.get(m.group(1), m.group(1)),
                 text.translate(_SUBSCRIPTS))
    out = re.sub(r"[*_`$]|\\[,;:! ]|[{}]", " ", out).replace("\\", " ")
    return " ".join(out.lower().split())


def matching_claims(claims, text: str) -> list[str]:
    """The claims (regular expressions) that match ``text`` (read by :func:`claim_text`)."""
    norm = claim_text(text)
    return [c for c in claims if re.search(c, norm, flags=re.IGNORECASE)]


def _stop(text) -> str:
    """The full stop a sentence ending with ``text`` needs: none if ``text`` already ends one
    (with ".", "!", "?" or "…", before any closing bracket, quote or markup), else ".".

    >>> _stop("They vanish."), _stop("They vanish"), _stop("(see notebook 4.)"), _stop("<b>ok?</b>")
    ('', '.', '', '')
    """
    core = re.sub(r"(?:</?[A-Za-z]+>|[\s*_)\]\"'’”])+$", "", str(text))
    return "" if core.endswith((".", "!", "?", "…")) else "."


def _markdown_to_html(text: str) -> str:
    """The little Markdown the solutions use: `code`, **bold**, *italic*, paragraphs; maths
    (``$...$``) untouched.

    >>> _markdown_to_html("an *average* of **every** `x`, $a * b * c$")
    'an <i>average</i> of <b>every</b> <code>x</code>, $a * b * c$'
    """
    parts = re.split(r"(\$\$.*?\$\$|\$[^$]*\$)", html.escape(text, quote=False), flags=re.S)
    out = []
    for k, part in enumerate(parts):
        if k % 2 == 0:  # outside maths
            part = re.sub(r"`([^`]+)`", r"<code>\1</code>", part)
            part = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", part)
            part = re.sub(r"(?<![*\w])\*(?=\S)([^*]+?)(?<=\S)\*(?![*\w])", r"<i>\1</i>", part)
        out.append(part)
    return "".join(out).replace("\n\n", "<br><br>").replace("\n", " ")


def _norm(s: str) -> str:
    return " ".join(s.strip().lower().split())


def format_number(x, digits: int = 6) -> str:
    """A number as a reader writes it: ``0.25``, ``3``, ``-1.5e-05``, ``-inf`` (never a numpy
    repr such as ``np.float64(0.25)``).

    >>> format_number(np.float64(0.25)), format_number(np.int64(3)), format_number(2 / 3, 4)
    ('0.25', '3', '0.6667')
    """
    x = float(x)
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{digits}g}"


def _format_answer(answer) -> str:
    if isinstance(answer, str):
        return answer
    if isinstance(answer, (bool, np.bool_)):
        return "yes" if answer else "no"
    if isinstance(answer, (list, tuple)) and answer and all(isinstance(a, str) for a in answer):
        return ", ".join(answer)
    arr = np.asarray(answer, dtype=float)
    if arr.ndim == 0:
        return format_number(arr)
    if arr.ndim == 1:
        return "[" + ", ".join(format_number(v, 4) for v in arr) + "]"
    return "[" + ", ".join("[" + ", ".join(format_number(v, 4) for v in row) + "]"
                           for row in arr) + "]"


def _latex_number(x, digits: int = 6) -> str:
    text = format_number(x, digits)
    if text in ("inf", "-inf"):
        return text.replace("inf", r"\infty")
    m = re.fullmatch(r"(-?[\d.]+)e([+-])0*(\d+)", text)
    if m:
        return rf"{m.group(1)} \times 10^{{{'-' if m.group(2) == '-' else ''}{m.group(3)}}}"
    return text


def _latex_answer(answer) -> str:
    if isinstance(answer, (str, bool, np.bool_)) or (
            isinstance(answer, (list, tuple)) and answer and all(isinstance(a, str) for a in answer)):
        return _format_answer(answer)
    arr = np.asarray(answer, dtype=float)
    if arr.ndim == 0:
        return f"${_latex_number(arr)}$"
    if arr.ndim == 1:
        return "$(" + ", ".join(_latex_number(v, 4) for v in arr) + ")$"
    rows = r" \\ ".join(" & ".join(_latex_number(v, 4) for v in row) for row in arr)
    return rf"$\begin{{bmatrix}}{rows}\end{{bmatrix}}$"


# --- reading what a learner typed ---------------------------------------------------------------

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_NAMES = {"pi": math.pi, "e": math.e, "inf": math.inf, "infinity": math.inf, "nan": math.nan}
_FUNCS = {"log": np.log, "ln": np.log, "log10": np.log10, "log2": np.log2, "exp": np.exp,
          "sqrt": np.sqrt, "abs": abs, "arctan": np.arctan, "atan": np.arctan,
          "degrees": np.degrees}
_NUMBER_HELP = ("a number: type a number such as 1.5e-3, a fraction such as 7/8 or an expression "
                "such as log(2)/3.")


def _evaluate(node):
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
            and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(left, list) or isinstance(right, list):
            raise ValueError("arithmetic on a list")
        with np.errstate(all="ignore"):
            try:
                return float(_BINARY[type(node.op)](left, right))
            except ZeroDivisionError:
                return math.nan
    if isinstance(node, ast.Name) and node.id.lower() in _NAMES:
        return _NAMES[node.id.lower()]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id.lower() in _FUNCS and len(node.args) == 1 and not node.keywords:
        with np.errstate(all="ignore"):
            return float(_FUNCS[node.func.id.lower()](_evaluate(node.args[0])))
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_evaluate(e) for e in node.elts]
    raise ValueError(f"unsupported {type(node).__name__}")


def _read_numbers(text: str):
    text = (text.replace("−", "-").replace("×", "*").replace("^", "**").replace("·", "*")
            .replace("∞", "inf").strip())
    if not text.startswith(("[", "(")) and (";" in text or "," in text):
        rows = [r for r in text.split(";") if r.strip()]
        text = "[" + ", ".join("[" + r + "]" for r in rows) + "]" if len(rows) > 1 \
            else "[" + text + "]"
    try:
        return _evaluate(ast.parse(text, mode="eval"))
    except (SyntaxError, ValueError, TypeError, OverflowError, RecursionError):
        pass
    parts = text.split()
    if len(parts) > 1:  # numbers separated by spaces: "1 0.5"
        return [_read_numbers(p) for p in parts]
    raise ValueError(_NUMBER_HELP)


def parse_answer(text: str, like):
    """Read a typed answer as the same kind of value as ``like`` (the right answer's type).

    Numbers accept fractions and short expressions (``3/4``, ``-log(0.5)``, ``2^10``, ``1e-3``,
    ``-inf``); vectors ``[1, 2]`` or ``1, 2``; matrices ``[[1, 0], [0, 1]]`` or ``1, 0; 0, 1``;
    yes/no for True/False; labels separated by commas. Nothing is passed to ``eval``: the
    expression is walked and only numbers, ``+ - * / **``, pi, e, inf and log/exp/sqrt are allowed.

    Raises
    ------
    ValueError
        The text cannot be read; the message says what to type (never the answer).

    Examples
    --------
    >>> parse_answer("3/4", 0.5), parse_answer("[1, 2.5]", [0.0, 0.0])
    (0.75, [1.0, 2.5])
    >>> parse_answer("1, 0.5; 0.5, 1", [[1, 0], [0, 1]])
    [[1.0, 0.5], [0.5, 1.0]]
    >>> parse_answer("Yes", True), parse_answer("spam, ham", ["a", "b"])
    (True, ['spam', 'ham'])
    """
    if not isinstance(text, str):
        raise ValueError(f"text, got {type(text).__name__}")
    if isinstance(like, str):
        return text.strip().strip("'\"")
    if isinstance(like, (bool, np.bool_)):
        word = text.strip().lower()
        if word in ("yes", "y", "true", "1"):
            return True
        if word in ("no", "n", "false", "0"):
            return False
        raise ValueError("yes or no: type yes or no.")
    if isinstance(like, (list, tuple)) and like and all(isinstance(a, str) for a in like):
        return [w.strip().strip("'\"") for w in text.strip().strip("[]").split(",") if w.strip()]
    value = _read_numbers(text)
    ndim = np.ndim(like)
    if ndim == 0 and isinstance(value, list):
        raise ValueError(_NUMBER_HELP)
    return value

