"""scripts/teaching_table.py: the course in numbers (docs/predict-observe-explain.md), and the
marker helpers of scripts/_generated.py it shares with scripts/offline_controls.py.

The page's currency against the course's real records is checked with the other course-wide
teaching checks (tests/test_teaching.py, slow: it needs every notebook's recorded run)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from file_modules import load_file
from test_topics import ROOT

TT = load_file(ROOT / "scripts" / "teaching_table.py", "teaching_table")
G = load_file(ROOT / "scripts" / "_generated.py", "generated_parts")


def _nb(*cells):
    return {"cells": [{"cell_type": kind, "source": src} for kind, src in cells]}


def test_a_notebooks_size_is_counted_as_a_reader_would():
    nb = _nb(("markdown", "# Two words"),
             ("code", "prediction_box(p)\nobservation_box(p, ex)"),
             ("markdown", ["Three ", "more words"]),
             ("code", "x = answer_box  # named, not called"),
             ("code", "choice_box(exercises.c()); open_box(q)\nprediction_review('02')"))
    # by hand: 5 cells; 2 + 3 words of Markdown; 2 + 0 + 3 boxes shown
    assert TT.notebook_size(nb) == {"cells": 5, "words": 5, "boxes": 5}


def test_a_real_notebook_is_counted():
    nb = json.loads((ROOT / "notebooks" / "02_multivariate_gaussian.ipynb").read_text())
    size = TT.notebook_size(nb)
    assert size["cells"] == len(nb["cells"]) and size["boxes"] >= 5 and size["words"] > 500


@pytest.mark.parametrize("bad", [None, [], {"cells": None}, {"nbformat": 4}])
def test_a_notebook_that_is_not_one_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="nb must be a notebook"):
        TT.notebook_size(bad)


RECORDS = {"02_multivariate_gaussian": {
    "size": {"cells": 54, "words": 1495, "boxes": 13},
    "items": [
        {"cls": "Prediction", "kind": "prediction", "id": "02-peak-with-rho",
         "observation": {"what": "the peak p(μ)", "compare": "ratio", "parts": [],
                         "at": "ρ = 0.9", "before_at": "ρ = 0.5"}},
        {"cls": "Prediction", "kind": "prediction", "id": "07-threshold",
         "observation": {"what": "precision and recall", "compare": "pair",
                         "parts": ["precision", "recall"], "at": "c = 10", "before_at": "c = 1"}},
        {"cls": "Prediction", "kind": "prediction", "id": "09-noise",
         "observation": {"what": "the accuracy | on test", "compare": None, "parts": [],
                         "at": "noise = 0.2", "before_at": ""}},
        {"cls": "Observation", "kind": "observation"},
        {"cls": "Exercise", "kind": "formula"}, {"cls": "Exercise", "kind": "formula"},
        {"cls": "Choice", "kind": "retrieval"}]}}


def test_the_tables_say_what_each_prediction_records_and_what_decides_it():
    rows = TT.prediction_rows(RECORDS)
    assert rows[2] == ("| 02 | `02-peak-with-rho` | the peak p(μ) at ρ = 0.5, then at ρ = 0.9 | "
                       "the ratio after / before |")
    assert rows[3] == ("| 02 | `07-threshold` | precision and recall at c = 1, then at c = 10 | "
                       "both halves at once: precision and recall, before and after |")
    parts_unnamed = {"x": {"size": {}, "items": [dict(RECORDS["02_multivariate_gaussian"]
                                                       ["items"][1])]}}
    parts_unnamed["x"]["items"][0]["observation"] = dict(
        parts_unnamed["x"]["items"][0]["observation"], what="the multinomial model's")
    assert "the multinomial model's (precision, recall) at c = 1" in \
        TT.prediction_rows(parts_unnamed)[2]
    # a table cell's bar is escaped; a single reading decides by itself
    assert rows[4] == ("| 02 | `09-noise` | the accuracy \\| on test at noise = 0.2 | "
                       "the reading itself |")
    [row] = TT.notebook_rows(RECORDS)[2:]
    assert row == "| 02 | 54 | 1,495 | 13 | 3 | formula 2, retrieval 1 |"
    assert TT.table(RECORDS).count("\n| 02 |") == 4


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40),
       st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_a_part_between_markers_is_replaced_and_read_back(around, body):
    start, end = "<!-- s -->", "<!-- e -->"
    text = f"head {around}\n{start}\nold\n{end}\ntail"
    new = G.replace_between(text, start, end, body)
    assert G.between(new, start, end) == body.strip()
    assert new.startswith(f"head {around}\n") and new.endswith(f"{end}\ntail")


def test_a_document_without_its_markers_is_refused_by_name():
    with pytest.raises(ValueError, match="start marker"):
        G.between("no markers", "<!-- s -->", "<!-- e -->")
    with pytest.raises(ValueError, match="end marker"):
        G.replace_between("<!-- s --> only", "<!-- s -->", "<!-- e -->", "x")


def test_a_generated_part_is_printed_or_written_between_its_markers(tmp_path, capsys):
    doc = tmp_path / "page.md"
    doc.write_text("# Page\n\n<!-- s -->\nold\n<!-- e -->\n\nmore\n")
    part = G.GeneratedPart(doc, "<!-- s -->", "<!-- e -->")
    assert part.documented() == "old"
    assert part.main([], make=lambda: "| a |", doc="Doc.\n\nmore") == 0
    assert capsys.readouterr().out == "| a |\n" and part.documented() == "old"  # only printed
    assert part.main(["--write"], make=lambda: "| a |", doc="Doc.") == 0
    assert doc.read_text() == "# Page\n\n<!-- s -->\n| a |\n<!-- e -->\n\nmore\n"
