"""No computed number typed by hand in a notebook's prose (issue #30, item 5).

The rule (what counts as a computed number, and the three ways to cover one: a checked cell
prints it, the notebook's code types it as an input, a visible quote mark "(slides: ...)") is
stated in tests/prose_numbers.py. Here: every notebook passes it, and the rule is run on
planted cells, each kind of number once, so a check that could not fail would show.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prose_numbers import prose_numbers, quoted_spans, uncovered_numbers

NB_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name[:2])
def test_no_computed_number_is_typed_in_prose(path):
    assert uncovered_numbers(path) == [], (
        "print the number in a # NBVAL_CHECK_OUTPUT cell (the sentence with it), or mark a "
        "quote of the notes as '(slides: ...)' / '(CS229: ...)' (tests/prose_numbers.py)")


def _write(tmp_path, cells, name="05_planted.ipynb"):
    nb = {"cells": [{"cell_type": kind, "source": text, "metadata": {},
                     **({"outputs": out, "execution_count": None} if kind == "code" else {})}
                    for kind, text, out in cells]}
    path = tmp_path / name
    path.write_text(json.dumps(nb))
    return path


def _raw(text, **kw):
    return [n["raw"] for n in prose_numbers(text, **kw)]


def test_what_counts_as_a_computed_number():
    assert _raw("the gap is 0.0079 and the ratio about 2.6 times; 58 % of cars") == \
        ["0.0079", "2.6", "58 %"]
    # small integers, years, references, the title's number, glued digits, code: not counted
    assert _raw("two classes, k = 7, 3 values, $2^d$, (Ng & Jordan 2001), notebook 12, "
                "Exercise 14, §1.3, Fig. 1.17, Algorithm 1.2, notebooks 3–8, CS229, DS 5220, "
                "x2, `h = 0.31`, [link](05_density.ipynb)") == []
    assert _raw("# 12 · A title", title=True) == [] and _raw("# 12 · A title") == ["12"]
    # maths: fractions, signs, thousands, scientific notation, percentages
    assert _raw(r"$\tfrac12$ and $-0.9487$ and 17,530 words, $e^{148.4} \approx 3 \times "
                r"10^{64}$, 6.25\%") == ["-0.9487", "17,530", "148.4", r"3 \times 10^{64}",
                                         r"6.25\%"]
    assert _raw("1995 and 2087") == ["2087"]  # a year, then a word index


def test_a_quote_mark_covers_what_it_encloses():
    text = "They compute (slides: $P = 0.01 + 0.08 (x) = 0.1$) but 0.9 is right (Smola's own: 42)."
    assert [text[a:b] for a, b in quoted_spans(text)] == \
        ["(slides: $P = 0.01 + 0.08 (x) = 0.1$)", "(Smola's own: 42)"]
    assert _raw(text) == ["0.9"]
    assert _raw("(see 0.31)") == ["0.31"]  # a parenthesis without a source and colon is no quote


def test_the_notebook_rule_fails_on_each_planted_number(tmp_path):
    checked = [{"output_type": "stream", "name": "stdout",
                "text": "P(theft | alarm) = 0.4737, share 0.172, big 2.9e+64, n 17530\n"}]
    base = [("code", "# NBVAL_CHECK_OUTPUT\nprint(...)", checked),
            ("code", "h = 1.5\nsplit(test_size=0.3)  # 0.77 in a comment\ns = '0.88'", [])]
    covered = ("P is 0.474 (0.47 rounded), 17 % of them, about $3 \\times 10^{64}$, 17,530 "
               "words, h = 1.5 and 30 % held out (slides: 0.19)")
    assert uncovered_numbers(_write(tmp_path, base + [("markdown", covered, None)])) == []
    for planted in ("about 2.6 times", "0.475", "18 %", "$4 \\times 10^{64}$", "0.77", "0.88",
                    "h = 1.6", "(see: 0.19)", "a factor of about 30"):
        path = _write(tmp_path, base + [("markdown", f"We find {planted}.", None)])
        assert uncovered_numbers(path) != [], planted
    # a checked cell's output covers; the same output in an unchecked cell does not
    unchecked = [("code", "print(...)", checked), ("markdown", "It is 0.474.", None)]
    assert uncovered_numbers(_write(tmp_path, unchecked)) == ["cell 1: 0.474"]


def test_the_map_of_the_notes_in_start_here_is_left_to_its_own_test(tmp_path):
    table = "| Source | Item | Notebook | Section |\n|---|---|---|---|\n| CS229 | peak 0.1592 | x | y |"
    path = _write(tmp_path, [("markdown", table, None), ("markdown", "about 5,700 e-mails", None)],
                  name="00_start_here.ipynb")
    assert uncovered_numbers(path) == ["cell 1: 5,700"]
    assert uncovered_numbers(_write(tmp_path, [("markdown", table, None)])) == ["cell 0: 0.1592"]
