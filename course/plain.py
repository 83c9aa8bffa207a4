"""Answers as plain data: the only thing that leaves a student's sandbox.

Everything the sandbox prints is untrusted (the student's code runs there, and can write
whatever it likes on the runner's output). The grading process reads it with
:func:`decode`, a strict JSON decoder (a size limit; no NaN or Infinity; no duplicate keys; a
nesting limit; integers of at most 30 digits), and takes each answer through
:func:`check_answer`: ``null``, a boolean, a finite number, a string, or nested lists of them,
within size limits. Anything else is refused with the reason, which the report prints.

Nothing here executes or imports anything the student made: a decoded value is made of
``dict``, ``list``, ``str``, ``int``, ``float``, ``bool`` and ``None`` only, built by Python's
own JSON parser.

>>> decode('{"answer_q1": [1, 2.5]}')
{'answer_q1': [1, 2.5]}
>>> check_answer([[1, 0.5], [0.5, 1]])
[[1, 0.5], [0.5, 1]]
>>> decode('[NaN]')
Traceback (most recent call last):
...
course.plain.NotPlain: NaN is not plain data
"""

from __future__ import annotations

import json
import math

__all__ = ["NotPlain", "decode", "check_answer", "LIMITS", "describe"]

#: Limits on what may come out of a sandbox: the whole output, one answer's numbers, nesting,
#: one string, digits of one integer.
LIMITS = {"output_bytes": 2_000_000, "numbers": 10_000, "depth": 4, "string": 2_000,
          "int_digits": 30, "json_depth": 12}


class NotPlain(ValueError):
    """The data is not plain (or too large); the message says why, in words."""


def _no_constant(name):
    raise NotPlain(f"{name} is not plain data")


def _pairs(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise NotPlain("an object with a repeated key is not plain data")
    return dict(pairs)


def _int(text: str) -> int:
    if len(text.lstrip("-")) > LIMITS["int_digits"]:
        raise NotPlain(f"an integer of {len(text)} digits is too large")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotPlain(f"the number {text[:40]} overflows")
    return value


def _depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def decode(data, *, max_bytes: int | None = None):
    """Strict JSON: ``data`` (str or bytes) -> dict/list/str/int/float/bool/None.

    Raises
    ------
    NotPlain
        Too large, not UTF-8, not JSON, NaN/Infinity, a repeated key, nested too deeply.
    """
    limit = LIMITS["output_bytes"] if max_bytes is None else max_bytes
    if isinstance(data, bytes):
        if len(data) > limit:
            raise NotPlain(f"{len(data)} bytes is more than the limit of {limit}")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise NotPlain("the output is not UTF-8 text") from None
    if not isinstance(data, str):
        raise NotPlain(f"expected text, got {type(data).__name__}")
    if len(data) > limit:
        raise NotPlain(f"{len(data)} characters is more than the limit of {limit}")
    if _depth(data) > LIMITS["json_depth"]:
        raise NotPlain(f"nested more than {LIMITS['json_depth']} levels deep")
    try:
        return json.loads(data, parse_constant=_no_constant, object_pairs_hook=_pairs,
                          parse_int=_int, parse_float=_float)
    except NotPlain:
        raise
    except (ValueError, RecursionError) as err:
        raise NotPlain(f"not valid JSON ({str(err)[:80]})") from None


def describe(value) -> str:
    """What kind of value this is, in words (for a report)."""
    return {type(None): "nothing (null)", bool: "a boolean", int: "an integer",
            float: "a number", str: "a string", list: "a list", dict: "a mapping"}.get(
        type(value), f"a {type(value).__name__}")


def check_answer(value, *, _depth: int = 0, _count: list | None = None):
    """``value`` if it is a plain answer: None, bool, a finite int or float, a string, or
    (nested) lists of them; else :class:`NotPlain` saying why.

    Only the exact built-in types pass (a subclass of float is refused: its methods could do
    anything); a mapping is refused (no answer is one).
    """
    count = [0] if _count is None else _count
    kind = type(value)
    if value is None or kind is bool or kind is str:
        if kind is str and len(value) > LIMITS["string"]:
            raise NotPlain(f"a string of {len(value)} characters is longer than the limit of "
                           f"{LIMITS['string']}")
        return value
    if kind is int or kind is float:
        if kind is float and math.isnan(value):
            raise NotPlain("NaN (not a number) is not an answer")
        if kind is float and math.isinf(value):
            raise NotPlain("an infinite number is not an answer")
        if kind is int and abs(value) >= 10 ** LIMITS["int_digits"]:
            raise NotPlain("an integer this large is not an answer")
        count[0] += 1
        if count[0] > LIMITS["numbers"]:
            raise NotPlain(f"more than {LIMITS['numbers']} numbers")
        return value
    if kind is list:
        if _depth >= LIMITS["depth"]:
            raise NotPlain(f"lists nested more than {LIMITS['depth']} deep")
        if len(value) > LIMITS["numbers"]:
            raise NotPlain(f"a list of {len(value)} entries is longer than the limit of "
                           f"{LIMITS['numbers']}")
        return [check_answer(v, _depth=_depth + 1, _count=count) for v in value]
    raise NotPlain(f"{describe(value)} is not a plain answer")
