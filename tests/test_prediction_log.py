"""The learner's predictions kept beside the notebook across sessions (issue #40 item 3):
``genviz.widgets.prediction_log`` and the review that reads it.

Oracles: the file itself read with ``json`` (what is written), a second session simulated by
forgetting the kernel's records (``clear_prediction_records``, as a fresh kernel has none) and
making the boxes again.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import genviz.widgets.predictions as predictions
from genviz.exercises import Prediction
from genviz.widgets import prediction_log as log
from genviz.widgets.exercises import observation_box, prediction_box, prediction_review
from room_testing import FakeExplorer
from test_predict_observe_explain import _obs


@pytest.fixture
def kept(tmp_path, monkeypatch, fresh_prediction_records):
    path = tmp_path / "notebooks" / log.LOG_NAME
    path.parent.mkdir()
    monkeypatch.setenv(log.ENV, str(path))
    yield path


def _pred(item_id="99-kept"):
    return Prediction("Drag ρ from 0.5 to 0.9. What does the peak do?",
                      ["it gets taller", "it gets lower", "it stays"], "it gets taller",
                      id=item_id, explanation="E", observation=_obs())


def _row(i="99-a", **kw):
    return {"id": i, "question": "Q?", "predicted": "(a) up", "reason": "r", "saw": None,
            "held": None, "why": ""} | kw


# -- where the file is -------------------------------------------------------------------------
def test_the_file_is_beside_the_notebook_unless_named_or_off(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(log.ENV, raising=False)
    assert log.log_path() == tmp_path / "genviz-predictions.json"
    monkeypatch.setenv(log.ENV, str(tmp_path / "elsewhere.json"))
    assert log.log_path() == tmp_path / "elsewhere.json"
    for off in ("off", " OFF "):
        monkeypatch.setenv(log.ENV, off)
        assert log.log_path() is None
        assert log.write_log([_row()]) is None and log.read_log() == {}
    assert list(tmp_path.iterdir()) == []


def test_the_test_suite_keeps_nothing():
    assert os.environ[log.ENV] == "off"


# -- writing and reading -------------------------------------------------------------------------
def test_rows_are_written_merged_and_read_back(tmp_path):
    path = tmp_path / "p.json"
    assert log.write_log([_row("02-a"), _row("05-b", held=False, saw="1.2 → 3.4")], path) == path
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == 1 and set(data["predictions"]) == {"02-a", "05-b"}
    assert data["predictions"]["05-b"]["saw"] == "1.2 → 3.4"  # not escaped: readable by hand
    saved = data["predictions"]["02-a"]["saved"]
    log.write_log([_row("05-b", held=True, why="w")], path)  # another notebook's entry stays
    back = log.read_log(path)
    assert set(back) == {"02-a", "05-b"} and back["05-b"]["held"] is True
    assert back["05-b"]["why"] == "w" and back["02-a"]["saved"] == saved
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]  # no temporary file left


def test_an_unchanged_row_does_not_rewrite_the_file(tmp_path):
    path = tmp_path / "p.json"
    log.write_log([_row()], path)
    os.utime(path, (1, 1))
    log.write_log([_row()], path)
    assert path.stat().st_mtime == 1
    log.write_log([_row(why="now")], path)
    assert path.stat().st_mtime != 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.fixed_dictionaries({
    "id": st.text(min_size=1, max_size=8), "question": st.text(max_size=30),
    "predicted": st.none() | st.text(max_size=20), "reason": st.text(max_size=20),
    "saw": st.none() | st.text(max_size=20), "held": st.none() | st.booleans(),
    "why": st.text(max_size=20)}), max_size=6))
def test_any_rows_read_back_as_the_last_row_of_each_id(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("log") / "p.json"
    log.write_log(rows, path)
    expected = {r["id"]: r for r in rows}
    back = log.read_log(path)
    assert {k: {f: v[f] for f in log.FIELDS} for k, v in back.items()} == expected


def test_odd_text_a_learner_typed_is_kept_exactly(tmp_path):
    """A lone surrogate (pasted from elsewhere), control characters, a NUL and a long reason
    are written as valid JSON and read back unchanged."""
    path = tmp_path / "p.json"
    odd = "bad \ud800 half, tab\there, nul\x00, bell\x07, ρ → " + "x" * 100_000
    log.write_log([_row(reason=odd, why="\udfff")], path)
    json.loads(path.read_bytes().decode("ascii"))  # plain ASCII, valid JSON
    back = log.read_log(path)["99-a"]
    assert back["reason"] == odd and back["why"] == "\udfff"


def test_a_file_that_is_not_ours_is_neither_read_nor_overwritten(tmp_path):
    path = tmp_path / "p.json"
    for text in ("not json", '{"version": 7, "predictions": {}}', '{"predictions": []}', "[]"):
        path.write_text(text)
        with pytest.warns(UserWarning, match="is not a genviz predictions file"):
            assert log.read_log(path) == {}
        with pytest.warns(UserWarning, match="not kept there"):
            assert log.write_log([_row()], path) is None
        assert path.read_text() == text


def test_a_folder_that_cannot_be_written_warns_and_the_notebook_goes_on(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.warns(UserWarning, match="could not be kept"):
        assert log.write_log([_row()], blocker / "p.json") is None


@pytest.mark.parametrize("rows, path, match", [
    ({"id": "a"}, None, "rows must be a list"),
    ([{"question": "no id"}], None, "rows must be a list of dicts with an 'id'"),
    (["02-a"], None, "rows must be a list"),
    ([], 3, "path must be a file path"),
])
def test_bad_arguments_are_refused_by_name(tmp_path, rows, path, match):
    with pytest.raises(TypeError, match=match):
        log.write_log(rows, path)
    if path is not None:
        with pytest.raises(TypeError, match="path must be a file path"):
            log.read_log(path)


# -- the boxes keep what the learner did; the next session's review shows it ----------------
def test_a_commit_is_kept_and_the_next_session_reviews_it(kept):
    p = _pred()
    box = prediction_box(p, lecture=False)
    assert not kept.exists()  # nothing committed, nothing written
    box.select("it gets lower")
    box.commit("the spread grows")
    entry = json.loads(kept.read_text())["predictions"]["99-kept"]
    assert entry["reason"] == "the spread grows" and entry["held"] is None
    observation_box(p, FakeExplorer({"rho": 0.9}, {"peak": 0.36518})).record_reading("0.3652")
    entry = json.loads(kept.read_text())["predictions"]["99-kept"]
    assert entry["held"] is False and entry["saw"] == "the peak p(μ) = 0.3652"

    predictions.clear_prediction_records()  # a new session: the kernel remembers nothing
    review = prediction_review("99")
    rows = review.rows()
    assert [r["id"] for r in rows] == ["99-kept"] and rows[0]["earlier"]
    prediction_box(_pred(), lecture=False)  # Run All: the box again, not committed yet
    rows = review.rows()
    assert rows[0]["held"] is False and rows[0]["reason"] == "the spread grows"
    assert "In an earlier session" in review.body.value and "It failed." in review.body.value
    again = prediction_box(_pred(), lecture=False)
    again.select("it gets taller")
    again.commit("compressed, taller")
    rows = review.rows()
    assert "earlier" not in rows[0] and rows[0]["reason"] == "compressed, taller"
    assert json.loads(kept.read_text())["predictions"]["99-kept"]["held"] is None
    review.close()


def test_a_room_s_votes_are_not_kept(kept):
    box = prediction_box(_pred("99-room"), lecture=True)
    for _ in range(2):  # the room's vote 1 and vote 2
        box.select("it gets taller")
        box.vote()
    assert predictions.prediction_records("99")[0].committed
    assert not kept.exists()
