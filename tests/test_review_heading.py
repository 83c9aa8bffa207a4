"""Every notebook's review of the learner's predictions sits under its own heading (issue #40,
"Small": no "Your predictions" heading before 10's review): the markdown cell just before a
``prediction_review(...)`` cell starts with "## Your predictions"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def headings_before_reviews(cells) -> list:
    """For each cell that calls ``prediction_review(``, the first line of the nearest markdown
    cell above it (None when there is none)."""
    out = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code" and "prediction_review(" in "".join(cell["source"]):
            above = [c for c in cells[:i] if c["cell_type"] == "markdown"]
            out.append("".join(above[-1]["source"]).split("\n")[0] if above else None)
    return out


REVIEWED = [p for p in NOTEBOOKS
            if headings_before_reviews(json.loads(p.read_text(encoding="utf-8"))["cells"])]


def test_the_topic_notebooks_review_their_predictions():
    assert {p.name[:2] for p in REVIEWED} >= {f"{k:02d}" for k in range(4, 11)}


@pytest.mark.parametrize("path", REVIEWED, ids=lambda p: p.name[:2])
def test_the_review_has_its_heading(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert headings_before_reviews(cells) == ["## Your predictions"], path.name


def test_a_review_without_its_heading_is_found():
    md = {"cell_type": "markdown", "source": ["## Summary\n", "text"]}
    code = {"cell_type": "code", "source": ['prediction_review("10")']}
    assert headings_before_reviews([md, code]) == ["## Summary"]
    assert headings_before_reviews([code]) == [None]
