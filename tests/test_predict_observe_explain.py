"""Predict, observe, explain (issue #30): the Observation (genviz.exercises.observation) and the
boxes around an explorer (genviz.widgets.predictions and genviz.widgets.observations).

As a learner uses them: commit (the box says only "now try it"), record what the explorer shows
(checked against the explorer's own state at the stated setting, never against another
setting), then the verdict, the prediction beside the observation, the explanation and a
one-line why; the review at the end lists them. As a lecturer uses them: vote 1, discuss, vote 2,
reveal. Statically: the question; then the observation's prompt and the explanation folded.
Every stage goes through the one hook, ``report_stage``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import genviz.widgets.predictions as predictions
from genviz.exercises import Prediction
from genviz.exercises.observation import Observation
from genviz.widgets import gaussian_explorer
from genviz.widgets.exercises import (ObservationBox, PredictionBox, observation_box,
                                      prediction_box, prediction_review)
from room_testing import FakeExplorer

EXPLAIN = "The determinant shrinks, EXPLANATION-MARK."
DEFAULT_REPORT = predictions.report_stage  # before any test replaces it


def _obs(**kw):
    args = dict(setting={"rho": 0.9}, labels={"rho": "ρ"}, read="peak", what="the peak p(μ)",
                atol=6e-4)
    args.update(kw)
    return Observation("Set ρ = 0.9. What is the peak p(μ)?", 0.3651, **args)


def _pred(item_id="99-test-peak", **kw):
    return Prediction("Drag ρ from 0.5 to 0.9. What does the peak do?",
                      ["it gets taller", "it gets lower", "it stays"], "it gets taller",
                      id=item_id, explanation=EXPLAIN, observation=_obs(),
                      reasons={"it gets lower": "REASON-LOWER"}, **kw)


def _state_text(box):
    out, todo = [], [box]
    while todo:
        w = todo.pop()
        for attr in ("value", "description", "tooltip", "options", "_options_labels",
                     "placeholder"):
            v = getattr(w, attr, None)
            if v is not None:
                out.append(str(v))
        todo.extend(getattr(w, "children", ()))
    return " ".join(out)


@pytest.fixture(autouse=True)
def fresh_records(monkeypatch):
    """A fresh kernel's record, and every stage the boxes report."""
    predictions.clear_prediction_records()
    calls = []
    monkeypatch.setattr(predictions, "report_stage", lambda *args: calls.append(args))
    yield calls
    predictions.clear_prediction_records()


# --- the observation ------------------------------------------------------------------------------

def test_a_reading_is_judged_only_at_the_stated_setting():
    obs = _obs()
    off = obs.check_reading("0.3651", state={"peak": 0.1838}, values={"rho": 0.5})
    assert off.correct is None and "set ρ = 0.9 (it is at 0.5 now)" in str(off)
    assert "0.3651" not in str(off).replace("0.9", "")
    # a learner who typed what the explorer showed at another setting is not marked wrong
    assert obs.check_reading("0.1838", state={"peak": 0.1838}, values={"rho": 0.5}).correct \
        is None
    right = obs.check_reading("0.365", state={"peak": 0.36518}, values={"rho": 0.9})
    assert right.correct is True and str(right) == "Recorded: the peak p(μ) = 0.365."
    wrong = obs.check_reading("0.2", state={"peak": 0.36518}, values={"rho": 0.9})
    assert wrong.correct is False and "Look again" in str(wrong) and "0.365" not in str(wrong)


def test_the_reference_is_the_explorer_s_own_state_not_the_precomputed_value():
    obs = _obs()  # expected 0.3651, but this explorer shows something else at the setting
    assert obs.check_reading("0.5", state={"peak": 0.5}, values={"rho": 0.9}).correct
    assert not obs.check_reading("0.3651", state={"peak": 0.5}, values={"rho": 0.9}).correct
    # without an explorer: the builder's value
    assert obs.check_reading("0.3651").correct and obs.check_text("0.3651").correct
    assert obs.reference() == 0.3651 and obs.reference({"peak": 0.5}) == 0.5


def test_several_controls_a_path_a_function_a_percentage_and_a_text():
    obs = Observation("q", 61.1, setting={"d": 4, "n": 392}, what="the share",
                      read=lambda s: 100 * s["empty_at_d"], unit="%", atol=0.06)
    state = {"empty_at_d": 0.6111}
    off = obs.check_reading("61.1", state=state, values={"d": 3, "n": 50})
    assert "set d = 4, n = 392 (now d = 3, n = 50)" in str(off)
    assert obs.check_reading("61.1 %", state=state, values={"d": 4, "n": 392}).correct
    assert obs.check_reading("61.1", state=state, values={"d": 4, "n": 392}).correct
    path = Observation("q", 0.05, setting={"family": "outliers"}, what="gap",
                       read=("errors", "gda"), atol=1e-3)
    assert path.reference({"errors": {"gda": 0.211}}) == 0.211
    assert path.check_reading("0.211", state={"errors": {"gda": 0.211}},
                              values={"family": "outliers"}).correct
    text = Observation("q", 1.5, setting={"text": "Dear  friend razor"}, what="log-odds",
                       read="log_odds", atol=0.01)
    assert text.off_setting({"text": "dear friend   RAZOR "}) == []
    assert text.off_setting({"text": "dear friend"}) != []
    assert text.off_setting({}) == [("text", "Dear  friend razor", None)]


@pytest.mark.parametrize("kwargs, error, match", [
    ({"setting": [("rho", 0.9)]}, TypeError, "setting must be a mapping"),
    ({"setting": {}}, ValueError, "setting must name at least one control"),
    ({"labels": ["ρ"]}, TypeError, "labels must be a mapping"),
    ({"read": 3}, TypeError, "read must be a state key"),
    ({"read": ()}, TypeError, "read must be a state key"),
    ({"what": " "}, ValueError, "what must be a non-empty string"),
    ({"unit": "percent"}, ValueError, "unit must be"),
    ({"atol": -1.0}, ValueError, "rtol and atol must be >= 0"),
])
def test_bad_observations_are_refused_naming_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        _obs(**kwargs)


@settings(max_examples=60, deadline=None)
@given(value=st.floats(-1e3, 1e3, allow_nan=False), atol=st.floats(1e-4, 1.0),
       offset=st.floats(0.0, 3.0))
def test_property_a_reading_within_the_readout_s_rounding_is_accepted(value, atol, offset):
    obs = Observation("q", 0.0, setting={"x": 1.0}, what="v", read="v", atol=atol)
    typed = value + offset * atol
    verdict = obs.check_reading(repr(typed), state={"v": value}, values={"x": 1.0}).correct
    assert verdict is (abs(typed - value) <= atol * (1 + 1e-9)) or \
        math.isclose(abs(typed - value), atol, rel_tol=1e-6)


# --- the learner's cycle --------------------------------------------------------------------------

def test_commit_says_only_now_try_it(fresh_records):
    p = _pred()
    box = prediction_box(p, lecture=False)
    assert isinstance(box, PredictionBox) and box.button.description == "Commit"
    box.commit()  # nothing selected
    assert "Choose an option first" in box.feedback.value and fresh_records == []
    box.select("it gets lower")
    box.button.click()  # no reason yet: a prediction is an option and why
    assert "Write your reason first" in box.feedback.value and fresh_records == []
    assert not box.radio.disabled and box.record.vote1 is None
    box.reason.value = "   "
    box.button.click()
    assert "Write your reason first" in box.feedback.value and fresh_records == []
    box.reason.value = "squeezing   it\nkeeps the volume"
    box.button.click()
    shown = _state_text(box)
    assert box.radio.disabled and box.button.disabled and box.button.description == "Committed"
    assert "Now try it in the explorer below" in box.feedback.value
    assert p.observation.prompt in box.feedback.value
    assert box.reason.disabled and box.record.reason == "squeezing it keeps the volume"
    assert "Because:</b> squeezing it keeps the volume" in box.feedback.value
    for verdict in (EXPLAIN, "REASON-LOWER", "right", "wrong", "held", "Not what happens"):
        assert verdict not in shown, verdict
    assert fresh_records == [("99-test-peak", "vote1", p.index("it gets lower"))]
    box.radio.value = p.index("it gets taller")  # a committed box ignores a second commit
    assert box.commit() == p.index("it gets lower") and len(fresh_records) == 1


def test_observe_then_explain_with_the_prediction_beside_the_observation(fresh_records):
    p = _pred()
    explorer = FakeExplorer({"rho": 0.5}, {"peak": 0.1838})
    box, obs_box = prediction_box(p, lecture=False), observation_box(p, explorer)
    assert isinstance(obs_box, ObservationBox) and EXPLAIN not in _state_text(obs_box)
    obs_box.text.value = "0.3651"  # before the commit: predict first
    assert "Commit a prediction in the box above the explorer first" in obs_box.feedback.value
    box.select("it gets lower")
    box.commit("SQUEEZED-LOWER")
    obs_box.record_reading("0.3652")  # the explorer is still at rho = 0.5
    assert "set ρ = 0.9 (it is at 0.5 now)" in obs_box.feedback.value
    assert EXPLAIN not in _state_text(obs_box)
    explorer._values["rho"], explorer.view.state["peak"] = 0.9, 0.36518
    obs_box.record_reading("0.2")
    assert obs_box.last.correct is False and obs_box.attempts == 1
    assert obs_box.show_button.layout.display == "none" and EXPLAIN not in _state_text(obs_box)
    obs_box.record_reading("0.3652")
    assert obs_box.last.correct is True and obs_box.text.disabled
    page = obs_box.explanation.value
    assert EXPLAIN in page and "Your prediction" in page and "(" in page
    assert "it gets lower" in page and "the peak p(μ) = 0.3652" in page
    assert "did not hold" in page and "REASON-LOWER" in page
    assert "Your reason" in page and "SQUEEZED-LOWER" in page  # beside what they saw
    assert obs_box.why_row.layout.display is None
    assert obs_box.keep_why("the volume stays 1") == "the volume stays 1"
    record = predictions.prediction_records()[0]
    assert (record.vote1, record.observed, record.held, record.why) == \
        (p.index("it gets lower"), 0.3652, False, "the volume stays 1")
    assert [c[1] for c in fresh_records] == ["vote1", "observation", "why"]
    assert fresh_records[1] == ("99-test-peak", "observation", 0.3652)


def test_after_two_wrong_readings_the_learner_may_be_shown_the_reading():
    p = _pred()
    prediction_box(p, lecture=False).select(0)
    predictions.prediction_records()[0].vote1 = 0
    obs_box = observation_box(p, FakeExplorer({"rho": 0.9}, {"peak": 0.36518}))
    for typed in ("0.1", "0.2"):
        obs_box.record_reading(typed)
    assert obs_box.attempts == 2 and obs_box.show_button.layout.display is None
    obs_box.show_button.click()
    assert "0.3652" in obs_box.feedback.value and EXPLAIN in obs_box.explanation.value
    record = predictions.prediction_records()[0]
    assert record.shown and record.observed is None and record.held is True


def test_with_a_real_explorer_whatever_the_slider_position():
    p = Prediction("peak?", ["taller", "lower", "same"], 0, id="99-real-peak", explanation="e",
                   observation=_obs(setting={"sigma1": 1.0, "sigma2": 1.0, "rho": 0.9}))
    explorer = gaussian_explorer(rho=0.5)
    box, obs_box = prediction_box(p, lecture=False), observation_box(p, explorer)
    box.select(0)
    box.commit("compressed")
    for rho in (0.5, -0.9, 0.95):  # at any other position: no verdict, where to go
        explorer.controls["rho"].value = rho
        obs_box.record_reading("0.3651")
        assert obs_box.last.correct is None and "set ρ = 0.9" in obs_box.feedback.value
    explorer.controls["rho"].value = 0.9
    obs_box.record_reading(f"{explorer.view.state['peak']:.4f}")
    assert obs_box.last.correct is True
    explorer.close()


def test_the_review_lists_what_the_learner_did(fresh_records):
    review = prediction_review("99")
    assert "asked for no prediction yet" in review.body.value
    p, q = _pred(), _pred("99-second", hint="h")
    prediction_box(p, lecture=False)
    box_q = prediction_box(q, lecture=False)
    assert "0 of 2" in review.body.value and "Not finished yet." in review.body.value
    box_q.select("it gets lower")
    box_q.commit("the spread grows")
    obs_box = observation_box(q, FakeExplorer({"rho": 0.9}, {"peak": 0.36518}))
    obs_box.record_reading("0.3652")
    rows = review.rows()
    assert [r["id"] for r in rows] == ["99-test-peak", "99-second"]
    assert rows[1]["held"] is False and rows[1]["saw"] == "the peak p(μ) = 0.3652"
    assert "1 did not hold" in review.body.value and "<b>It failed.</b>" in review.body.value
    assert "write one line in the box under its explorer" in review.body.value
    assert rows[1]["reason"] == "the spread grows" and "Because: the spread grows" \
        in review.body.value
    obs_box.keep_why("compressed means taller")
    assert "compressed means taller" in review.body.value
    assert prediction_review("05").rows() == []
    static = review._repr_mimebundle_()
    static = static[0] if isinstance(static, tuple) else static
    assert "Which of your predictions failed, and why?" in static["text/html"]
    assert q.prompt in static["text/html"]
    review.close()
    assert review.refresh not in predictions._LISTENERS


def test_a_re_run_prediction_cell_asks_again():
    p = _pred()
    first = prediction_box(p, lecture=False)
    first.select(0)
    first.commit("r")
    prediction_box(p, lecture=False)
    assert predictions.prediction_records()[0].vote1 is None


# --- the room's cycle -----------------------------------------------------------------------------

def test_lecture_mode_vote_discuss_vote_then_reveal(fresh_records):
    p = _pred()
    explorer = FakeExplorer({"rho": 0.5}, {"peak": 0.1838})
    box, obs_box = prediction_box(p, lecture=True), observation_box(p, explorer, lecture=True)
    assert box.button.description == "Record vote 1" and obs_box.text is None
    obs_box.button.value = True  # no reveal before the votes
    assert obs_box.button.value is False and "vote, discuss with your neighbour, vote again" \
        in obs_box.feedback.value and EXPLAIN not in _state_text(obs_box)
    box.select("it gets lower")
    box.button.click()
    assert "Discuss with your neighbour" in box.feedback.value and box.radio.value is None
    assert box.button.description == "Record vote 2" and not box.radio.disabled
    assert EXPLAIN not in _state_text(box)
    box.select("it gets taller")
    box.button.click()
    assert box.radio.disabled and "vote 2:" in box.feedback.value
    assert EXPLAIN not in _state_text(box) + _state_text(obs_box)
    obs_box.button.value = True  # the explorer is not at the setting: genviz's value
    page = obs_box.explanation.value
    assert EXPLAIN in page and "The room's votes" in page and "0.3651" in page
    assert "was right" in page and obs_box.button.description == "Hide"
    obs_box.button.value = False
    assert obs_box.explanation.value == ""
    record = predictions.prediction_records()[0]
    assert record.held is True and record.vote1 != record.vote2
    assert [c[1] for c in fresh_records] == ["vote1", "vote2", "observation"]


def test_the_hook_is_looked_up_when_a_stage_happens(monkeypatch):
    seen = []
    monkeypatch.setattr(predictions, "report_stage", lambda *a: seen.append(a))
    box = prediction_box(_pred(), lecture=False)
    box.select(0)
    box.commit("a reason")
    assert seen and seen[0][1] == "vote1"
    assert predictions.STAGES == ("vote1", "vote2", "observation", "why")


def test_off_the_hub_the_default_hook_does_nothing(monkeypatch):
    for var in ("GENVIZ_POLL_URL", "JUPYTERHUB_API_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    for stage, value in [("vote1", 0), ("vote2", 1), ("observation", 0.5), ("why", "x")]:
        assert DEFAULT_REPORT("02-x", stage, value) is None
    assert DEFAULT_REPORT.__module__ == "genviz.widgets.predictions"
    # on the hub it sends a learner's stages to the room: tests/test_room_wiring.py


# --- statically -----------------------------------------------------------------------------------

def test_statically_the_question_then_the_observation_then_the_folded_explanation():
    p = _pred()
    pred_page = prediction_box(p, lecture=False)._repr_mimebundle_()["text/html"]
    assert p.prompt in pred_page and "(a)" in pred_page
    assert EXPLAIN not in pred_page and "<details" not in pred_page
    bundle = observation_box(p)._repr_mimebundle_()
    page = bundle["text/html"]
    before, _, folded = page.partition("<details>")
    assert p.observation.prompt in before and EXPLAIN not in before
    assert folded.startswith("<summary>What happens, and why</summary>")
    assert EXPLAIN in folded and "REASON-LOWER" in folded
    assert "<details open" not in page and EXPLAIN not in bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_bad_input_to_the_boxes():
    from genviz.exercises import Choice
    with pytest.raises(TypeError, match="prediction must be a genviz.exercises.Prediction"):
        prediction_box(Choice("q", ["a", "b", "c"], 0, explanation="e"))
    with pytest.raises(ValueError, match="has no observation"):
        observation_box(Prediction("q", ["a", "b", "c"], 0, explanation="e", id="99-none"))
    with pytest.raises(TypeError, match="explorer must be a genviz explorer"):
        observation_box(_pred(), explorer=np.zeros(3))
    with pytest.raises(TypeError, match="prefix must be a string"):
        prediction_review(2)


def test_a_commit_clears_the_stale_commit_first_message(fresh_records):
    """#37: a reading recorded too early says "Commit a prediction ... first"; the commit in the
    box above clears it (it must not stay beside a committed prediction), and only it."""
    p = _pred()
    explorer = FakeExplorer({"rho": 0.5}, {"peak": 0.1838})
    box, obs_box = prediction_box(p, lecture=False), observation_box(p, explorer)
    obs_box.text.value = "0.3651"
    assert "Commit a prediction in the box above the explorer first" in obs_box.feedback.value
    box.select("it gets lower")
    box.commit("a wider spread lowers the peak")
    assert obs_box.feedback.value == ""
    obs_box.record_reading("0.3652")  # a real message after the commit stays
    kept = obs_box.feedback.value
    assert "set ρ = 0.9" in kept
    predictions._changed()
    assert obs_box.feedback.value == kept
    obs_box.close()
    assert obs_box._on_change not in predictions._LISTENERS


# --- issue #40: a reason at commit, and observations that confront the prediction -------------

def test_the_reason_is_optional_in_a_lecture_and_never_sent(fresh_records):
    p = _pred()
    box = prediction_box(p, lecture=True)
    box.select("it gets lower")
    box.vote()  # no reason: the room's vote is recorded
    assert box.record.vote1 == p.index("it gets lower") and box.record.reason == ""
    box.reason.value = "ROOM-REASON"
    box.select("it gets taller")
    box.vote()
    assert box.record.reason == "ROOM-REASON" and box.reason.disabled
    learner = prediction_box(_pred("99-learner"), lecture=False)
    learner.select(0)
    assert learner.commit("MY-SECRET-REASON") == 0
    sent = repr(fresh_records)
    assert "MY-SECRET-REASON" not in sent and "ROOM-REASON" not in sent
    assert {c[1] for c in fresh_records} <= set(predictions.STAGES)
    with pytest.raises(TypeError, match="reason must be a string"):
        prediction_box(_pred("99-bad"), lecture=False).commit(3)


def _change(**kw):
    args = dict(setting={"rho": 0.9}, before={"rho": 0.5}, expected_before=0.1838,
                compare="ratio", labels={"rho": "ρ"}, read="peak", what="the peak p(μ)",
                atol=6e-4)
    args.update(kw)
    return Observation("Read the peak at ρ = 0.5, then at ρ = 0.9: how do they compare?",
                       0.3651, **args)


def test_a_change_is_recorded_as_before_and_after_each_at_its_setting(fresh_records):
    p = Prediction("Drag ρ from 0.5 to 0.9. What does the peak do?",
                   ["it gets taller", "it gets lower", "it stays"], "it gets taller",
                   id="99-change", explanation=EXPLAIN, observation=_change())
    explorer = FakeExplorer({"rho": 0.9}, {"peak": 0.36518})
    box, obs_box = prediction_box(p, lecture=False), observation_box(p, explorer)
    assert set(obs_box.texts) == {"before", "after"}
    assert "ρ = 0.5" in obs_box.texts["before"].placeholder
    box.select("it gets taller")
    box.commit("squeezed, so taller")
    obs_box.texts["after"].value = "0.3652"  # after first: kept, then asks for the before
    assert obs_box.last.correct is True and obs_box.texts["after"].disabled
    assert "record the before reading" in obs_box.feedback.value and "ρ = 0.5" in \
        obs_box.feedback.value
    assert EXPLAIN not in obs_box.explanation.value and box.record.observed is None
    obs_box.texts["before"].value = "0.18"  # the explorer is still at 0.9: not judged
    assert obs_box.last.correct is None and "set ρ = 0.5 (it is at 0.9 now)" in \
        obs_box.feedback.value
    explorer._values["rho"], explorer.view.state["peak"] = 0.5, 0.18378
    obs_box.record_reading("0.25", stage="before")
    assert obs_box.last.correct is False
    obs_box.record_reading("0.1838", stage="before")
    assert obs_box.last.correct is True and EXPLAIN in obs_box.explanation.value
    page = obs_box.explanation.value
    assert "0.1838 at ρ = 0.5 → 0.3652 at ρ = 0.9" in page and "after / before = 1.987" in page
    record = box.record
    assert (record.before, record.observed, record.held) == (0.1838, 0.3652, True)
    rows = prediction_review("99").rows()
    assert "0.1838 at ρ = 0.5 → 0.3652" in rows[0]["saw"]
    assert fresh_records[-1] == ("99-change", "observation", 0.3652)


def test_a_two_part_reading_and_a_revealed_pair():
    obs = Observation("Read precision and recall at log c = 0, then at 1.", (0.97, 0.90),
                      setting={"c": 1.0}, before={"c": 0.0}, expected_before=(0.9, 0.95),
                      read=lambda s: (s["precision"], s["recall"]), parts=("precision", "recall"),
                      labels={"c": "log c"}, what="the filter's", atol=6e-3)
    assert obs.compare == "pair" and obs.stages == ("before", "after")
    state = {"precision": 0.9, "recall": 0.95}
    assert obs.check_reading("0.9, 0.95", state=state, values={"c": 0.0},
                             stage="before").correct is True
    assert obs.check_reading("0.9", state=state, values={"c": 0.0}, stage="before").correct \
        is False  # one half is not the reading
    assert obs.check_reading("0.97, 0.90", values={"c": 1.0}).correct is True
    assert obs.saw_text([0.97, 0.9], [0.9, 0.95]) == \
        "the filter's (precision, recall) 0.9, 0.95 at log c = 0 → 0.97, 0.9 at log c = 1"
    p = Prediction("Raise c.", ["both rise", "precision rises, recall falls", "both fall"], 1,
                   id="99-two-part", explanation=EXPLAIN, observation=obs)
    pbox = prediction_box(p, lecture=True)
    obox = observation_box(p, lecture=True)
    pbox.select(1)
    pbox.vote()
    pbox.select(1)
    pbox.vote()
    obox.button.value = True
    assert pbox.record.before == [0.9, 0.95] and pbox.record.observed == [0.97, 0.9]
    assert "0.9, 0.95 at log c = 0 → 0.97, 0.9 at log c = 1" in obox.explanation.value


@pytest.mark.parametrize("kwargs, error, match", [
    ({"before": [0.5]}, TypeError, "before must be a mapping"),
    ({"before": {"sigma": 1.0}, "expected_before": 0.1}, ValueError,
     "before must name controls of setting"),
    ({"before": {"rho": 0.9}, "expected_before": 0.1}, ValueError,
     "before must move at least one control"),
    ({"before": {"rho": 0.5}}, ValueError, "expected_before must be given with before"),
    ({"expected_before": 0.1}, ValueError, "expected_before needs before"),
    ({"before": {"rho": 0.5}, "expected_before": "x"}, TypeError,
     "expected_before must be a number"),
    ({"before": {"rho": 0.5}, "expected_before": 0.1, "compare": "log"}, ValueError,
     "compare must be one of"),
    ({"compare": "ratio"}, ValueError, "compare needs before"),
    ({"parts": ("only",)}, ValueError, "parts must name at least two parts"),
    ({"parts": ("a", "b")}, ValueError, "expected must hold one number per part"),
])
def test_bad_before_after_arguments_are_refused_naming_them(kwargs, error, match):
    with pytest.raises(error, match=match):
        Observation("q", 0.3651, setting={"rho": 0.9}, what="the peak", **kwargs)
    if "before" in kwargs and error is ValueError and "compare" not in kwargs:
        return
    with pytest.raises(ValueError, match="stage must be one of"):
        Observation("q", 0.3, setting={"rho": 0.9}, what="v").check_reading("0.3",
                                                                           stage="before")


def test_a_typed_email_is_checked_as_its_bag_of_words_and_never_printed_twice():
    email = "Cheap meds for you now, order today from our site and save a lot razor"
    obs = Observation("Add 'razor' once.", 1.5, setting={"text": email, "model": "multinomial"},
                      read="log_odds", what="the log-odds", atol=6e-3)
    same_bag = "razor cheap meds for you now order today from our site and save a lot."
    assert obs.check_reading("1.5", state={"log_odds": 1.5},
                             values={"text": same_bag, "model": "multinomial"}).correct is True
    off = obs.check_reading("1.5", state={"log_odds": 1.5},
                            values={"text": email.replace(" razor", ""), "model": "multinomial"})
    assert off.correct is None and "add 'razor'" in off.message
    assert off.message.count("Cheap meds") == 0  # the email is not printed (twice or at all)
    off = obs.check_reading("1.5", values={"text": email + " razor", "model": "multinomial"})
    assert "remove 'razor'" in off.message
    assert obs.check_reading("1.5", values={"text": "", "model": "multinomial"}).correct is None


def test_the_answer_ends_with_one_full_stop():
    p = Prediction("q", ["They vanish.", "They stay", "They double"], "They vanish.",
                   id="99-stop", explanation=EXPLAIN, observation=_obs())
    box = prediction_box(p, lecture=False)
    box.select("They stay")
    box.commit("r")
    obs_box = observation_box(p, FakeExplorer({"rho": 0.9}, {"peak": 0.36518}))
    obs_box.record_reading("0.3652")
    page = obs_box.explanation.value
    assert "They vanish.." not in page and "They vanish. " in page


# --- issue #40 item 3: an analogous situation ends each cycle ----------------------------------

def _transfer(**kw):
    from genviz.exercises import Choice
    args = dict(explanation="TRANSFER-EXPLAINED: the same determinant.", kind="transfer",
                id="99-test-peak-transfer", reasons={"it falls": "TRANSFER-REASON"})
    args.update(kw)
    return Choice("Heights in metres become centimetres. What does the peak do?",
                  ["it falls", "it rises", "it stays"], "it falls", **args)


def test_the_analogous_situation_comes_after_the_explanation_and_checks_itself(fresh_records):
    p = _pred(transfer=_transfer())
    explorer = FakeExplorer({"rho": 0.9}, {"peak": 0.36518})
    box, obs_box = prediction_box(p, lecture=False), observation_box(p, explorer)
    assert obs_box.transfer.layout.display == "none"  # not before the explanation
    assert "An analogous situation" in obs_box.transfer.question.value
    box.select("it gets taller")
    box.commit("volume stays 1")
    obs_box.record_reading("0.3652")
    assert EXPLAIN in obs_box.explanation.value and obs_box.transfer.layout.display is None
    obs_box.transfer.select("it rises")
    verdict = obs_box.transfer.check()
    assert verdict.correct is False
    obs_box.transfer.select("it falls")
    assert obs_box.transfer.check().correct is True
    # nothing of it is sent to the room
    assert [c[1] for c in fresh_records] == ["vote1", "observation"]


def test_in_a_lecture_the_analogous_situation_shows_with_the_reveal_and_folds_with_it():
    p = _pred(transfer=_transfer())
    box = prediction_box(p, lecture=True)
    obs_box = observation_box(p, FakeExplorer({"rho": 0.9}, {"peak": 0.36518}), lecture=True)
    box.select(0)
    box.button.click()
    box.select(0)
    box.button.click()
    obs_box.button.value = True
    assert obs_box.transfer.layout.display is None
    obs_box.button.value = False
    assert obs_box.transfer.layout.display == "none"


def test_statically_the_analogous_situation_is_folded_after_the_explanation():
    page = observation_box(_pred(transfer=_transfer()))._repr_mimebundle_()["text/html"]
    fold = page.split("<details><summary>What happens, and why</summary>", 1)[1]
    assert "TRANSFER" not in page.split("<details>")[0]
    assert fold.index(EXPLAIN) < fold.index("An analogous situation") < \
        fold.index("TRANSFER-EXPLAINED")
    assert "An analogous situation" not in observation_box(_pred())._repr_mimebundle_()[
        "text/html"]


def test_the_review_sends_a_failed_prediction_to_its_analogous_situation(fresh_records):
    p, q = _pred(transfer=_transfer()), _pred("99-second")
    review = prediction_review("99")
    for pred in (p, q):
        b = prediction_box(pred, lecture=False)
        b.select("it gets lower")
        b.commit("it spreads out")
        observation_box(pred, FakeExplorer({"rho": 0.9}, {"peak": 0.36518})).record_reading(
            "0.3652")
    items = review.body.value.split("<li>")[1:]
    assert "analogous situation" in items[0] and "analogous situation" not in items[1]
    review.close()


@pytest.mark.parametrize("transfer, error, match", [
    ("a text", TypeError, "transfer must be a genviz.exercises.Choice"),
    (_pred("99-other"), TypeError, r"transfer must be a genviz.exercises.Choice \(not a "
                                   r"Prediction\)"),
    (_transfer(kind="concept"), ValueError, "transfer must be a Choice of kind 'transfer'"),
])
def test_a_bad_transfer_is_refused_naming_the_argument(transfer, error, match):
    with pytest.raises(error, match=match):
        _pred(transfer=transfer)
