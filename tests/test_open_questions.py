"""Open questions and objectives (issue #30, item 3): :class:`genviz.exercises.OpenQuestion`
(the model answer only after an attempt), its box (genviz.widgets.practice.open_box) live and
static, an item's ``objective`` and the new kinds; bad input to each."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genviz.exercises import KINDS, PRACTICE_KINDS, Choice, Exercise
from genviz.exercises.open import OpenQuestion
from genviz.widgets.practice import OpenBox, open_box

MODEL = "No: MODEL-ANSWER-MARK, 8192 cells for 500 records, most cells stay empty."


def _q(**kw):
    args = dict(key_points={"counts the cells": r"cells|8192",
                            "most cells are empty": r"empty|never seen|zero count"},
                objective="01.4", claims=[r"most cells (stay|are) empty"])
    args.update(kw)
    return OpenQuestion("Would you estimate the full joint table?", MODEL, **args)


def _shown(box) -> str:
    out, todo = [], [box]
    while todo:
        w = todo.pop()
        for attr in ("value", "description", "tooltip", "placeholder"):
            v = getattr(w, attr, None)
            if isinstance(v, str):
                out.append(v)
        todo.extend(getattr(w, "children", ()))
    return " ".join(out)


def test_the_model_answer_comes_only_after_an_attempt():
    q = _q()
    assert q.kind == "open" and q.objective == "01.4" and q.retrieves == "01"
    assert q.check_text("").correct is None and "Not answered yet" in str(q.check_text(" "))
    short = q.check_text("too many")
    assert short.correct is None and "at least 8 words" in str(short)
    assert "MODEL-ANSWER-MARK" not in str(short)
    full = q.check_text("I would not: the table has thousands of cells and most stay empty")
    assert full.correct is None
    assert "Your answer mentions: counts the cells; most cells are empty." in str(full)
    partial = q.check_text("I would not do it because I only have five hundred patients")
    assert "A good answer also says: counts the cells; most cells are empty." in str(partial)
    assert "MODEL-ANSWER-MARK" in q.solution().text and q.model_answer == MODEL
    assert q.answer_format == "a few sentences in your own words"


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=6), max_size=12))
def test_property_an_attempt_is_min_words_words(words):
    q = _q(min_words=5)
    text = " ".join(words)
    assert q.attempted(text) is (len(words) >= 5)
    assert ("model answer below" in str(q.check_text(text))) is (len(words) >= 5)


def test_the_box_shows_nothing_of_the_model_answer_before_an_attempt():
    q = _q()
    box = open_box(q)
    assert isinstance(box, OpenBox) and "MODEL-ANSWER-MARK" not in _shown(box)
    box.text.value = "no"
    box.button.click()
    assert "at least 8 words" in box.feedback.value and box.answer.value == ""
    assert "MODEL-ANSWER-MARK" not in _shown(box)
    box.text.value = "No: with twelve symptoms the table has thousands of cells, most empty."
    box.button.click()
    assert "MODEL-ANSWER-MARK" in box.answer.value and "Your answer mentions" in box.feedback.value
    assert box.last.correct is None


def test_statically_the_question_then_the_model_answer_folded():
    bundle = open_box(_q())._repr_mimebundle_()
    page = bundle["text/html"]
    before, _, folded = page.partition("<details>")
    assert "Would you estimate the full joint table?" in before
    assert "Write your answer first" in before and "MODEL-ANSWER-MARK" not in before
    assert folded.startswith("<summary>Model answer</summary>") and "MODEL-ANSWER-MARK" in folded
    assert "<li>most cells are empty</li>" in folded
    assert "MODEL-ANSWER-MARK" not in bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_kinds_and_objectives_of_every_item():
    assert {"investigation", "derivation", "open"} <= set(KINDS)
    assert set(PRACTICE_KINDS) <= set(KINDS) and "prediction" not in PRACTICE_KINDS
    ex = Exercise("q", 1.25, hint="h", solution="s", kind="investigation", objective="08.3")
    assert ex.kind == "investigation" and ex.objective == "08.3" and ex.retrieves == "08"
    ch = Choice("q", ["a", "b", "c"], 0, explanation="e", kind="derivation", objective="03.4")
    assert ch.kind == "derivation" and ch.objective == "03.4"
    assert Exercise("q", 1.0, hint="h", solution="s").objective is None


@pytest.mark.parametrize("kwargs, error, match", [
    ({"objective": 3}, TypeError, "objective must be a string"),
    ({"objective": "3.1"}, ValueError, "objective must be the notebook's two digits"),
    ({"objective": "03.0"}, ValueError, "objective must be"),
    ({"objective": "03-1"}, ValueError, "objective must be"),
    ({"kind": "fluent"}, ValueError, "kind must be one of"),
])
def test_bad_objectives_and_kinds_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        Exercise("q", 1.0, hint="h", solution="s", **kwargs)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"key_points": [("a", "b")]}, TypeError, "key_points must be a mapping"),
    ({"key_points": {}}, ValueError, "at least one point"),
    ({"key_points": {" ": "x"}}, ValueError, "every label must be a non-empty string"),
    ({"key_points": {"a": "(unclosed"}}, ValueError, "is not a regular expression"),
    ({"min_words": 0}, ValueError, "min_words must be an integer >= 1"),
    ({"min_words": True}, ValueError, "min_words must be"),
    ({"objective": "x"}, ValueError, "objective must be"),
])
def test_bad_open_questions_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        _q(**kwargs)
    with pytest.raises(ValueError, match="model_answer must be a non-empty string"):
        OpenQuestion("q", " ", key_points={"a": "b"})


def test_the_box_refuses_what_is_not_an_open_question():
    with pytest.raises(TypeError, match="question must be a genviz.exercises.OpenQuestion"):
        open_box(Exercise("q", 1.0, hint="h", solution="s"))
