"""Which numbers in a notebook's markdown are *computed numbers typed by hand* (issue #30, item 5).

Every number a reader sees in a markdown cell must be one of:

1. **printed by a checked cell** of the same notebook: a number in the committed text output of
   a ``# NBVAL_CHECK_OUTPUT`` cell that rounds to it at the precision it is written with
   (``0.474`` is covered by a printed ``0.4737``; ``17 %`` by ``0.172`` or ``17.2%``; ``3 ×
   10^{64}`` by ``2.9e+64``). nbval compares those outputs on every run, so when the code changes
   the printed number changes, and this check then fails until the prose follows;
2. **an input typed in the notebook's code**: a numeric literal of one of its code cells, the
   same value (``h = 1.5`` in prose and ``h=1.5`` in code; ``30 %`` and ``test_size=0.3``);
3. **a quote of the sources**, marked visibly: inside a parenthesis that opens with a source's
   name and a colon, ``(slides: 0.01 + 0.08 + 0.001 + 0.009 = 0.1)``, ``(CS229: word 2087)``
   (the names are ``QUOTE_SOURCES``);
4. **not a computed number** at all: an integer from 0 to 10 ("two classes", ``k = 1``, ``2^d``);
   a year (1900-2030); a reference — a notebook, exercise, section, figure, algorithm, table,
   page, step, panel or objective number (``notebook 6``, ``§1.3``, ``Fig. 1.17``), or the
   notebook's own number in its title (``# 5 · ...``).

Not read: code spans and fenced code, link targets, HTML tags, digits glued to letters
(``CS229``, ``x2``, ``log10``). In maths, ``\\tfrac12`` is read as 1/2, and ``a \\times
10^{b}`` as one number. The cells of 00_start_here's map of the notes (its tables) are left to
tests/test_start_here.py, which recomputes each worked number there with genviz.
"""

from __future__ import annotations

import io
import json
import math
import tokenize
import re
from decimal import Decimal
from pathlib import Path

#: a parenthesis opening with one of these and a colon is a quote of that source
QUOTE_SOURCES = ("notes", "slides", "CS229", "DS5220", "DS 5220", "Smola", "Mitchell",
                 "Silverman", "Scott", "Ng & Jordan", "Dasgupta & Gupta", "Kohavi", "Wikipedia",
                 "VanderPlas", "IEEE 754")
QUOTE_OPEN = re.compile(r"\((?:" + "|".join(re.escape(s) for s in QUOTE_SOURCES) + r")(?:'s?)?"
                        r"(?: [^():]{0,40})?:")

#: words after which a number is a reference, not a value
REFERENCE_WORDS = (r"notebooks?|Notebooks?|Exercises?|Ex\.?|exercises?|cells?|§|sections?|"
                   r"Sections?|Fig\.|Figs\.|Figures?|figures?|Algorithms?|algorithms?|Tables?|"
                   r"tables?|p\.|pp\.|pages?|eq\.|equations?|chapters?|steps?|Steps?|panels?|"
                   r"Panels?|objectives?|Objectives?|Lemma|Theorem|items?|Items?|Parts?|part|DS|CS")
REFERENCE = re.compile(rf"(?:{REFERENCE_WORDS})\s*$")
#: a number after "notebooks 3" in a list or range: "notebooks 3–8", "notebooks 1 and 5"
RANGE_TAIL = re.compile(rf"(?:{REFERENCE_WORDS})\s*[\d.]+(?:\s*(?:[–,-]|and|or|→|to)\s*[\d.]+)*"
                        rf"\s*(?:[–,-]|and|or|→|to)\s*$")

NUMBER = re.compile(
    r"(?<![\w.\\])(?P<sign>[-−])?(?P<num>\d{1,3}(?:,\d{3})+(?![\d])|\d+(?:\.\d+)?)"
    r"(?P<sci>\s*(?:\\times|×|\\cdot)\s*10\s*\^\s*\{?\s*(?P<exp>[-−]?\d+)\s*\}?)?"
    r"(?P<pct>\s?(?:%|\\%))?(?![\w])")
OUTPUT_NUMBER = re.compile(r"(?<![\w.])([-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(\s?%)?")


def source(cell) -> str:
    return "".join(cell["source"])


def checked_output(cell) -> str:
    """The committed text output of a ``# NBVAL_CHECK_OUTPUT`` cell ("" for any other cell)."""
    if cell["cell_type"] != "code" or "NBVAL_CHECK_OUTPUT" not in source(cell):
        return ""
    out = []
    for o in cell.get("outputs", []):
        out.append("".join(o.get("text", "")) or "".join(o.get("data", {}).get("text/plain", "")))
    return "\n".join(out)


def strip_markup(text: str) -> str:
    """The markdown a reader sees as prose and maths: no code, link targets or HTML tags;
    ``\\tfrac12`` read as ``1/2``."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\\[dt]?frac\s*(\d)\s*(\d)", r" \1/\2 ", text)
    return text


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each quote: from ``(Source:`` to its closing parenthesis."""
    spans = []
    for m in QUOTE_OPEN.finditer(text):
        depth, i = 0, m.start()
        while i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        spans.append((m.start(), i + 1))
    return spans


def _decimals(raw: str) -> int:
    return len(raw.split(".")[1]) if "." in raw else 0


def prose_numbers(text: str, *, title: bool = False) -> list[dict]:
    """The numbers of a markdown cell that must be covered: each ``{"raw", "value",
    "decimals", "percent", "sci"}`` (exempt ones — small integers, years, references, quotes —
    left out)."""
    text = strip_markup(text)
    quotes = quoted_spans(text)
    out = []
    for m in NUMBER.finditer(text):
        if any(a <= m.start() < b for a, b in quotes):
            continue
        raw = m.group("num")
        value = float(raw.replace(",", ""))
        if m.group("sign"):
            value = -value
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = text[line_start:m.start()]
        if title and re.fullmatch(r"\s*#\s*", before):
            continue  # "# 5 · Density estimation": the notebook's number
        if REFERENCE.search(before) or RANGE_TAIL.search(before):
            continue
        if re.search(r"(?:§|\bp\.)\s*$", before) or re.match(r"\.\d", text[m.end():m.end() + 2]):
            continue
        exp = m.group("exp")
        if exp is None and "." not in raw and "," not in raw:
            if abs(value) <= 10 and not m.group("pct"):
                continue
            if 1900 <= value <= 2030:
                continue
        out.append({"raw": m.group(0).strip(), "value": value, "decimals": _decimals(raw),
                    "percent": bool(m.group("pct")),
                    "sci": None if exp is None else int(exp.replace("−", "-"))})
    return out


def output_numbers(text: str) -> list[float]:
    vals = []
    for m in OUTPUT_NUMBER.finditer(text):
        try:
            x = float(m.group(1).replace("−", "-"))
        except ValueError:
            continue
        vals.append(x)
        if m.group(2):
            vals.append(x / 100)
    return vals


def code_numbers(text: str) -> set[float]:
    """The numeric literals of a code cell (not the digits inside its strings or comments);
    a literal after a unary minus also counts negated."""
    lines = [line if not line.lstrip().startswith(("%", "!")) else "" for line in
             text.splitlines()]
    out, previous = set(), None
    try:
        for tok in tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline):
            if tok.type == tokenize.NUMBER:
                try:
                    x = float(tok.string.replace("_", ""))
                except ValueError:
                    previous = tok
                    continue
                out.add(x)
                if previous is not None and previous.string == "-":
                    out.add(-x)
            previous = tok
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return out


def _rounds_to(y: float, n: dict) -> bool:
    """Whether printed ``y`` is the prose number ``n`` at the precision ``n`` is written with."""
    half = 0.5 * 10.0 ** -n["decimals"] + 1e-12
    if n["sci"] is not None:  # a x 10^b: compare the mantissas (exactly, 10^-324 is 0.0)
        return abs(float(Decimal(y).scaleb(-n["sci"])) - n["value"]) <= half
    if n["percent"] and abs(100 * y - n["value"]) <= half:
        return True  # 17 % and a printed fraction 0.172
    return abs(y - n["value"]) <= half


def uncovered_numbers(path: Path) -> list[str]:
    """Every number of the notebook's markdown that no checked output prints, no code cell
    types and no quote mark covers: ``"cell 12: 0.35"``."""
    cells = json.loads(Path(path).read_text())["cells"]
    printed = [y for c in cells for y in output_numbers(checked_output(c))]
    typed = set().union(*[code_numbers(source(c)) for c in cells if c["cell_type"] == "code"])
    start_here = Path(path).name.startswith("00")
    problems = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        if start_here and re.search(r"^\|\s*Source\s*\|", text, re.M):
            continue  # the map of the notes: tests/test_start_here.py recomputes its numbers
        for n in prose_numbers(text, title=i == 0):
            if n["sci"] is None and (n["value"] / 100 if n["percent"] else n["value"]) in typed:
                continue
            if any(_rounds_to(y, n) for y in printed):
                continue
            problems.append(f"cell {i}: {n['raw']}")
    return problems
