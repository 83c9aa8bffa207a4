"""A variant per student: each student's data and parameters, from their id and a course secret.

A graded question is a builder call of the topic notebook (``course/assignments.py``) whose
data or parameters are *named*: the assignment's setup and calls use upper-case names
(``X_EX``, ``ALARM``, ``WORD`` ...) whose defaults are the notebook's own values (so that the
assignment still asks the notebook's questions: a test substitutes the defaults and finds every
line in the notebook). A student's variant gives those names other values, drawn by the
assignment's ``draw`` function from a random stream seeded with

    HMAC-SHA256(course secret, "variant" | assignment | student id | attempt)

so that the values depend on the student and cannot be predicted without the secret; and the
options of each multiple-choice question are shuffled by the same stream, and (where the course
words an option in several ways, ``course.assignments.WORDINGS``) worded by a stream of its own
(``stream="wording"``), so that neither a classmate's letter nor the text of a classmate's (or
the self-study notebook's) right option is the student's right answer. A draw whose
questions cannot be built (a singular matrix, a tie) is drawn again (the next attempt).
The grader recomputes a student's variant from the student id in ``submitted/<student>/``
and the secret: nothing in the submitted notebook is trusted for it.

The random stream is :class:`Draw`, built on ``random.Random.random()`` only, whose sequence
for a given integer seed Python guarantees not to change between versions; the draws
themselves are plain arithmetic on it, so a variant is the same on every machine and every
version of NumPy.

The secret (32 random bytes, hex) lives in a file outside the course's released files:
``$GENVIZ_COURSE_SECRET_FILE``, else ``~/.config/genviz/course-secret`` (mode 0600; made by
``make assignments`` the first time). It never enters a sandbox. Lose it and the variants of
released notebooks cannot be recomputed: back it up with the gradebook.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import io
import math
import os
import pathlib
import random
import re
import secrets
import tokenize

__all__ = ["secret_path", "load_secret", "make_secret", "Draw", "seed", "fingerprint",
           "check_student_id", "render", "literal", "permute_choice", "Variant"]

#: A student id: a JupyterHub user name or an LMS login, used as a folder name.
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}")


def check_student_id(student) -> str:
    """``student`` if it is a valid id (letters, digits, ``. _ @ + -``; at most 64 characters;
    starting with a letter or digit), else ValueError naming it."""
    if not isinstance(student, str) or not STUDENT_ID.fullmatch(student):
        raise ValueError(f"student id {student!r} is not valid: use letters, digits and . _ @ + - "
                         "(at most 64 characters, starting with a letter or a digit)")
    return student


# -- the secret -----------------------------------------------------------------------------------

def secret_path(path=None) -> pathlib.Path:
    """Where the course secret is: ``path``, ``$GENVIZ_COURSE_SECRET_FILE`` or
    ``~/.config/genviz/course-secret``."""
    if path is not None:
        return pathlib.Path(path).expanduser()
    env = os.environ.get("GENVIZ_COURSE_SECRET_FILE")
    if env:
        return pathlib.Path(env).expanduser()
    return pathlib.Path.home() / ".config" / "genviz" / "course-secret"


def make_secret(path=None) -> pathlib.Path:
    """Create the secret file (32 random bytes, hex, mode 0600) unless it exists."""
    dest = secret_path(path)
    if dest.exists():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(secrets.token_hex(32) + "\n")
    return dest


def load_secret(path=None) -> bytes:
    """The course secret (bytes). FileNotFoundError says how to make one."""
    src = secret_path(path)
    if not src.exists():
        raise FileNotFoundError(
            f"no course secret at {src}: `make assignments` creates one (or set "
            "GENVIZ_COURSE_SECRET_FILE to the file you made the releases with)")
    text = src.read_text().strip()
    if not re.fullmatch(r"[0-9a-f]{32,}", text):
        raise ValueError(f"the course secret {src} should hold at least 32 hex digits")
    return bytes.fromhex(text)


def _mac(secret: bytes, *parts: str) -> bytes:
    if not isinstance(secret, bytes) or len(secret) < 16:
        raise ValueError("secret must be at least 16 bytes")
    return hmac.new(secret, "\x00".join(parts).encode(), hashlib.sha256).digest()


def seed(secret: bytes, assignment: str, student: str, attempt: int = 0, *,
         stream: str = "variant") -> int:
    """The seed of a student's variant of an assignment (attempt k: the k-th redraw).
    ``stream="wording"`` seeds the draw of the choice options' wordings: a stream of its own,
    so that adding wordings to the course changes no value and no order already released."""
    if stream not in ("variant", "wording"):
        raise ValueError(f"stream must be 'variant' or 'wording', got {stream!r}")
    return int.from_bytes(_mac(secret, stream, assignment, student, str(attempt))[:16], "big")


def fingerprint(secret: bytes, assignment: str, student: str) -> str:
    """A short public tag of a student's release (written in its metadata): it reveals nothing
    about the secret or the variant, and tells a grader which release a notebook came from."""
    return _mac(secret, "release", assignment, student).hex()[:16]


# -- drawing ---------------------------------------------------------------------------------------

class Draw:
    """A reproducible random stream: ``random.Random(seed).random()`` and arithmetic on it.

    >>> d = Draw(1)
    >>> d.grid(0.5, 3.0, 0.1) in [round(0.5 + 0.1 * k, 10) for k in range(26)]
    True
    >>> sorted(d.permutation(4))
    [0, 1, 2, 3]
    """

    def __init__(self, seed: int):
        self._random = random.Random(seed)

    def random(self) -> float:
        return self._random.random()

    def integer(self, low: int, high: int) -> int:
        """Uniform on low..high (both included)."""
        return low + min(int(self.random() * (high - low + 1)), high - low)

    def grid(self, low, high, step, *, exclude=()):
        """Uniform on low, low + step, ..., high (floats rounded to 10 decimals; integers stay
        integers), avoiding the values in ``exclude``."""
        n = int(round((high - low) / step))
        integral = all(isinstance(v, int) for v in (low, high, step))
        for _ in range(1000):
            k = self.integer(0, n)
            value = low + step * k if integral else round(low + step * k, 10)
            if not any(math.isclose(value, e, abs_tol=1e-12) for e in exclude):
                return value
        raise ValueError("nothing left to draw on this grid")

    def choice(self, options):
        options = list(options)
        return options[self.integer(0, len(options) - 1)]

    def sample(self, options, k: int) -> list:
        pool = list(options)
        return [pool.pop(self.integer(0, len(pool) - 1)) for _ in range(k)]

    def permutation(self, n: int) -> list[int]:
        return self.sample(range(n), n)


# -- rendering code with a variant's values --------------------------------------------------------

def literal(value) -> str:
    """Python source of a parameter value (numbers, strings, lists, tuples, dicts of them)."""
    if isinstance(value, float):
        return repr(round(value, 12)) if abs(value) < 1e15 else repr(value)
    if isinstance(value, (bool, int, str)) or value is None:
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"a parameter must be plain Python data, got {type(value).__name__}")


def render(source: str, params: dict) -> str:
    """``source`` with every name of ``params`` replaced by its value's literal (comments and
    layout kept; attribute names such as ``obj.NAME`` untouched).

    >>> render("X = np.array(POINTS)  # the data", {"POINTS": [[0, 1], [2, 3]]})
    'X = np.array([[0, 1], [2, 3]])  # the data'
    """
    if not params:
        return source
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits = []
    previous = None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string in params and not (
                previous is not None and previous.type == tokenize.OP and previous.string == "."):
            start = offsets[tok.start[0] - 1] + tok.start[1]
            end = offsets[tok.end[0] - 1] + tok.end[1]
            edits.append((start, end, literal(params[tok.string])))
        if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT,
                            tokenize.DEDENT):
            previous = tok
    for start, end, text in reversed(edits):
        source = source[:start] + text + source[end:]
    return source


def render_text(text: str, params: dict) -> str:
    """A note with ``{NAME}`` placeholders filled in (plain text, not code)."""
    return re.sub(r"\{([A-Z][A-Z0-9_]*)\}",
                  lambda m: _plain(params[m.group(1)]) if m.group(1) in params else m.group(0),
                  text)


def _plain(value) -> str:
    return literal(value) if not isinstance(value, str) else value


# -- choices ----------------------------------------------------------------------------------------

def permute_choice(choice, order, texts=None):
    """The same multiple-choice question with its options in ``order`` (a permutation of the
    option indices): same prompt, reasons, explanation and hint; the right option moves with
    its text, so the check is the question's own. ``texts`` (optional, one per option in the
    question's own order) words the options otherwise: option ``i`` reads ``texts[i]``."""
    from genviz.exercises.choice import Choice

    order = list(order)
    if sorted(order) != list(range(len(choice.options))):
        raise ValueError(f"order must be a permutation of 0..{len(choice.options) - 1}, "
                         f"got {order}")
    if texts is None:
        texts = choice.options
    elif isinstance(texts, str) or len(texts) != len(choice.options) \
            or not all(isinstance(t, str) and t.strip() for t in texts):
        raise ValueError(f"texts must give one non-empty text per option "
                         f"({len(choice.options)}), got {texts!r}")
    correct = [order.index(i) for i in choice.correct]
    return type(choice)(choice.prompt, [texts[i] for i in order],
                        correct if len(correct) > 1 else correct[0],
                        explanation=choice.explanation,
                        reasons=[choice.reasons[i] for i in order],
                        hint=choice.hint if getattr(choice, "_has_hint", True) else None,
                        kind=choice.kind) if isinstance(choice, Choice) else choice


@dataclasses.dataclass(frozen=True)
class Variant:
    """A student's variant of an assignment: the parameter values and, per multiple-choice
    question (0-based index), the order of its options and (where the course words them in
    several ways) the wording of each option, in the question's own order."""

    assignment: str
    student: str | None
    params: dict
    orders: dict
    attempt: int = 0
    wordings: dict = dataclasses.field(default_factory=dict)
