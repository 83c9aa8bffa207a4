#!/usr/bin/env python
"""Numbers in checked notebook outputs that another machine may print differently.

nbval compares the text output of every ``# NBVAL_CHECK_OUTPUT`` cell with the output stored in
git, so a checked output may print only what every machine reproduces. Floating-point results
depend on the order of the operations: OpenBLAS picks its kernels by CPU (Haswell, Zen,
SkylakeX, Sandybridge, ...), by thread count, and macOS (Accelerate) or conda (MKL) use other
libraries altogether. A well-conditioned float64 result then agrees to about 1e-12 relative,
and a quantity whose exact value is zero (a residual, a gradient at the optimum, a difference
from an oracle) is pure rounding noise: its digits mean nothing.

The rules, each stated where a number can be told apart (see ARCHITECTURE.md, Conventions 8):

``tiny``
    A computed value with 0 < |x| < 1e-9 printed as a value is rounding noise (e.g. the
    ``gradient 8e-15`` of a solver at its optimum). Print a bound instead (``< 1e-12``) or a
    check (``converged: True``).
``noise``
    A number printed right after a word that names a quantity whose exact value is zero
    (gradient, residual, rounding error) must be a bound (``< 1e-9``), whatever its size.
``digits``
    A computed non-integer printed with more than ``MAX_DIGITS`` = 7 significant digits: the
    trailing digits of a float64 computed in another order are not promised (7 digits leave
    five orders of magnitude of margin). Round it.

A number is *not* computed when it appears literally in the cell's source (``< 1e-12`` in an
f-string, a value quoted from the lecture notes), and a number preceded by ``<``, ``<=``, ``≤``
or ``>`` is a bound. Integers (counts, sizes, steps) are exact and never flagged.

Usage: ``python scripts/checked_outputs.py notebooks/*.ipynb`` prints every problem and exits 1
if there is any. ``scripts/refresh_outputs.py`` warns with the same check when it stores
outputs; ``tests/test_checked_outputs.py`` runs it on every notebook; ``conftest.py` (at the root)`
uses :func:`number_differences` to name the differing numbers when nbval finds a checked output
that did not reproduce.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import re
import sys

CHECK = "NBVAL_CHECK_OUTPUT"
TINY = 1e-9
MAX_DIGITS = 7
NOISE_WORDS = ("gradient", "residual", "rounding")

# A decimal number not glued to a word (so the 0 of "v0" and the 1 of "x1" are not numbers).
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")
BOUND = re.compile(r"(?:<=?|≤|>=?|≥)\s*$")
NOISE = re.compile(r"\b(?:" + "|".join(NOISE_WORDS) + r")\w*\b[^\d\n<>≤≥=]{0,12}(?:=\s*)?$",
                   re.IGNORECASE)

FIX = ("checked outputs may print only what every machine reproduces (another CPU, BLAS "
       "kernel or thread count changes the last digits): print a bound such as '< 1e-12' or a "
       "True/False check for a value that is rounding noise, and round other values to at most "
       f"{MAX_DIGITS} significant digits; then run scripts/refresh_outputs.py on the notebook "
       "(ARCHITECTURE.md, Conventions 8)")


@dataclasses.dataclass(frozen=True)
class Problem:
    """One unstable number in a checked output."""

    notebook: str
    cell: int           # nbval's cell number: the index among code cells, from 0
    first_line: str     # the cell's first line after the NBVAL_CHECK_OUTPUT marker
    number: str
    line: str           # the output line that prints it
    rule: str           # "tiny", "noise" or "digits"

    def __str__(self) -> str:
        why = {"tiny": f"a value below {TINY:g} printed as a value is rounding noise",
               "noise": "a quantity whose exact value is zero must be printed as a bound",
               "digits": f"more than {MAX_DIGITS} significant digits"}[self.rule]
        return (f"{self.notebook}, cell {self.cell} ({self.first_line!r}) prints {self.number} "
                f"in {self.line.strip()!r}: {why}")


def is_integer(token: str) -> bool:
    return re.fullmatch(r"[-+]?\d+", token) is not None


def significant_digits(token: str) -> int:
    """Significant digits of a decimal literal: ``'0.0245895'`` -> 6, ``'3.4e-203'`` -> 2."""
    mantissa = re.split("[eE]", token)[0].lstrip("+-")
    digits = mantissa.replace(".", "").lstrip("0")
    if "." not in mantissa:
        digits = digits.rstrip("0") or digits
    return len(digits)


def problems_in_text(text: str, source: str = "") -> list[tuple[str, str, str]]:
    """``(number, line, rule)`` for every unstable number of one checked output ``text``.

    ``source`` is the cell's code: a number written there literally is not computed.

    >>> problems_in_text("logistic: 8 Newton steps, gradient 8e-15")
    [('8e-15', 'logistic: 8 Newton steps, gradient 8e-15', 'tiny'), \
('8e-15', 'logistic: 8 Newton steps, gradient 8e-15', 'noise')]
    >>> problems_in_text("max |f - g| < 1e-14: True; p = 0.2531222")
    []
    >>> problems_in_text("theta = 3.8201847731")
    [('3.8201847731', 'theta = 3.8201847731', 'digits')]
    """
    literals = set(NUMBER.findall(source))
    found = []
    for line in text.splitlines():
        for m in NUMBER.finditer(line):
            token = m.group(0)
            if token in literals or token.lstrip("+-") in literals or is_integer(token):
                continue
            before = line[:m.start()]
            if BOUND.search(before):
                continue
            value = abs(float(token))
            if 0 < value < TINY:
                found.append((token, line, "tiny"))
            if NOISE.search(before):
                found.append((token, line, "noise"))
            if significant_digits(token) > MAX_DIGITS:
                found.append((token, line, "digits"))
    return found


def output_text(outputs) -> str:
    """The text nbval compares: stdout streams and text/plain results, joined."""
    parts = []
    for out in outputs:
        if out.get("output_type") == "stream":
            parts.append("".join(out.get("text", "")))
        elif out.get("output_type") in ("execute_result", "display_data"):
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def first_line(source: str) -> str:
    lines = [ln for ln in source.splitlines() if ln.strip() and CHECK not in ln]
    return (lines[0] if lines else "").strip()[:70]


def problems_in_notebook(path) -> list[Problem]:
    """Every unstable number in the stored outputs of ``path``'s checked cells."""
    path = pathlib.Path(path)
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError) as err:
        raise ValueError(f"notebook {str(path)!r} could not be read as a notebook: {err}") from None
    problems = []
    code_index = -1
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        code_index += 1
        source = "".join(cell.get("source", ""))
        if CHECK not in source:
            continue
        text = output_text(cell.get("outputs", []))
        for number, line, rule in problems_in_text(text, source):
            problems.append(Problem(path.name, code_index, first_line(source), number, line, rule))
    return problems


def number_differences(reference: str, produced: str) -> list[tuple[int, str, str]]:
    """``(line, stored, printed)`` for each number that differs between two outputs.

    Lines are compared in order; a line whose words differ (not only its numbers) is reported
    whole, with ``stored`` and ``printed`` the two lines.

    >>> number_differences("steps 8, gradient 1e-15\\nok", "steps 8, gradient 8e-15\\nok")
    [(1, '1e-15', '8e-15')]
    """
    ref_lines, new_lines = reference.splitlines(), produced.splitlines()
    diffs = []
    for i in range(max(len(ref_lines), len(new_lines))):
        a = ref_lines[i] if i < len(ref_lines) else ""
        b = new_lines[i] if i < len(new_lines) else ""
        if a == b:
            continue
        if NUMBER.sub("#", a) != NUMBER.sub("#", b):
            diffs.append((i + 1, a, b))
            continue
        for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
            if x != y:
                diffs.append((i + 1, x, y))
    return diffs


def main(argv=None) -> int:
    paths = [pathlib.Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        paths = sorted(pathlib.Path("notebooks").glob("*.ipynb"))
    problems = [p for path in paths for p in problems_in_notebook(path)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"\n{len(problems)} unstable number(s): {FIX}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
