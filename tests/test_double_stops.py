"""No doubled full stop (issue #40, "Small": "The answer: (c) … vanish.."): a message that puts
a full stop after a text (an option, the learner's reason, what the explorer showed) puts none
after a text that already ends a sentence (``genviz.exercises._core._stop``).

Checked: ``_stop`` itself; every message of a full predict-observe-explain cycle, in self-study
and in lecture mode, of a choice box and of the static pages, built from texts that all end with
a full stop; the notebooks' markdown and stored outputs; genviz's string literals. A doubled stop
is ".." after a letter or a bracket, not part of "..." and not a range ("0..9") or an RST
directive (".. math::"). Each check fails on a planted case.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import genviz.widgets.predictions as predictions
from genviz.exercises import Choice, Prediction
from genviz.exercises._core import _stop
from genviz.exercises.observation import Observation
from genviz.widgets.exercises import (choice_box, observation_box, prediction_box,
                                      prediction_review)
from room_testing import FakeExplorer

ROOT = Path(__file__).resolve().parents[1]
DOUBLE = re.compile(r"(?<![.\s\d])\.\.(?![.\w/])")


def doubled(text: str) -> list[str]:
    """Each doubled full stop in ``text``, with a little context."""
    return [text[max(0, m.start() - 30):m.end() + 5] for m in DOUBLE.finditer(text)]


def test_the_detector():
    assert doubled("The answer: (c) They vanish.. Why") and doubled("vanish..</b>")
    assert doubled("Because: I think so..") and doubled("(see notebook 4)..")
    for fine in ("wait...", "digits 0..9", "\n.. math::", "in 1..", "../notes", "e.g. x."):
        assert not doubled(fine), fine


@pytest.mark.parametrize("text, stop", [
    ("They vanish", "."), ("They vanish.", ""), ("Really?", ""), ("Yes!", ""), ("wait…", ""),
    ("(see notebook 4.)", ""), ("(see notebook 4)", "."), ("**bold.**", ""), ("<b>ok.</b>", ""),
    ("“quoted.”", ""), ("it ends  ", "."), ("", "."), ("x = 0.5", "."), (3, ".")])
def test_stop_adds_a_full_stop_only_where_a_sentence_does_not_end(text, stop):
    assert _stop(text) == stop


# -- the boxes, with every text ending a sentence ----------------------------------------------
@pytest.fixture(autouse=True)
def fresh_records(fresh_prediction_records):
    yield


def _prediction(item_id):
    obs = Observation("Set ρ = 0.9. What is the peak p(μ)?", 0.3651, setting={"rho": 0.9},
                      labels={"rho": "ρ"}, read="peak", what="the peak p(μ)", atol=6e-4)
    return Prediction("Drag ρ from 0.5 to 0.9. What does the peak do?",
                      ["It gets taller.", "It gets lower.", "It stays."], "It gets taller.",
                      id=item_id, explanation="The determinant shrinks.", observation=obs,
                      reasons={"It gets lower.": "Squeezing keeps the volume."})


def _texts(widget) -> str:
    out, todo = [], [widget]
    while todo:
        w = todo.pop()
        for attr in ("value", "description", "tooltip", "_options_labels", "placeholder"):
            v = getattr(w, attr, None)
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, tuple):
                out.extend(map(str, v))
        todo.extend(getattr(w, "children", ()))
    return "\n".join(out)


def test_a_self_study_cycle_prints_no_double_stop():
    p = _prediction("99-stops-self")
    review = prediction_review("99")
    box = prediction_box(p, lecture=False)
    box.select("It gets lower.")
    box.commit("The spread grows.")
    seen = [_texts(box), review.body.value]
    obs_box = observation_box(p, FakeExplorer({"rho": 0.9}, {"peak": 0.36518}))
    obs_box.record_reading("0.3652")
    obs_box.keep_why("Compressed means taller.")
    seen += [_texts(obs_box), obs_box.explanation.value, review.body.value]
    assert "The spread grows" in seen[0] and "It gets taller" in seen[3]
    assert not doubled("\n".join(seen)), doubled("\n".join(seen))
    review.close()


def test_a_lecture_cycle_prints_no_double_stop():
    p = _prediction("99-stops-lecture")
    explorer = FakeExplorer({"rho": 0.9}, {"peak": 0.36518})
    box, obs_box = prediction_box(p, lecture=True), observation_box(p, explorer, lecture=True)
    box.select("It gets lower.")
    box.button.click()
    seen = [box.feedback.value]
    box.select("It gets taller.")
    box.button.click()
    obs_box.button.value = True
    seen += [box.feedback.value, obs_box.explanation.value]
    assert "vote 2:" in seen[1] and "It gets taller" in seen[2]
    assert not doubled("\n".join(seen)), doubled("\n".join(seen))


def test_a_choice_and_the_static_pages_print_no_double_stop():
    c = Choice("Which one?", ["They vanish.", "They stay.", "They double."], "They vanish.",
               explanation="Because the terms cancel.",
               reasons={"They stay.": "They would if nothing cancelled."})
    box = choice_box(c)
    seen = []
    for option in ("They stay.", "They vanish."):
        box.select(option)
        box.check()
        seen.append(box.feedback.value)
    seen.append(box._repr_mimebundle_()["text/html"])
    p = _prediction("99-stops-static")
    seen += [prediction_box(p, lecture=False)._repr_mimebundle_()["text/html"],
             observation_box(p)._repr_mimebundle_()["text/html"]]
    assert "(a) They vanish." in seen[2]
    assert not doubled("\n".join(seen)), doubled("\n".join(seen))


def test_a_planted_stop_after_a_sentence_is_found():
    """The explanation as it was built before ``_stop``: "The answer: {right}." """
    right = "(a) They vanish."
    assert doubled(f"<p><b>Your prediction did not hold.</b> The answer: {right}. </p>")
    assert not doubled(f"<p><b>Your prediction did not hold.</b> The answer: {right}{_stop(right)} </p>")


# -- the notebooks and genviz's own strings ----------------------------------------------------
def _notebook_texts(path):
    for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "markdown":
            yield i, "".join(cell["source"])
        for out in cell.get("outputs", []):
            yield i, "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")),
                         ids=lambda p: p.name[:2])
def test_no_notebook_text_has_a_double_stop(path):
    found = [(i, d) for i, text in _notebook_texts(path) for d in doubled(text)]
    assert not found, f"{path.name}: doubled full stops (cell, text): {found}"


def _string_literals(source: str):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_genviz_string_has_a_double_stop():
    found = [(str(p.relative_to(ROOT)), line, d)
             for p in sorted((ROOT / "genviz").rglob("*.py"))
             for line, text in _string_literals(p.read_text(encoding="utf-8"))
             for d in doubled(text)]
    assert not found, found
    planted = [t for _, t in _string_literals('msg = f"The answer: {right}.."\n')]
    assert any(doubled(t) for t in planted)  # an f-string's literal parts are read
