"""No stale message (#37 item 6): a refusal in a prediction or observation box is cleared as
soon as its cause is gone, and only then -- it must not stay beside what it asked for.

The refusals (genviz.widgets.predictions, genviz.widgets.observations) and what removes their
cause:

- observation box, "Commit a prediction ... first" (a reading recorded too early): the commit
  in the prediction box above;
- observation box in lecture mode, "Take the room's two votes ... first" (Reveal pressed too
  early): the room's second vote;
- observation box, "The explorer shows an error at this setting ...": a control moved to a
  setting the explorer draws;
- prediction box, "Choose an option first" / "Mark the option most of the room chose": an
  option chosen; "Write your reason first": a reason typed;
- open question (genviz.widgets.practice), "Not answered yet" / "Write a little more first":
  a text that is an attempt.
"""

from __future__ import annotations

import pytest

import genviz.widgets.observations as observations
import genviz.widgets.predictions as predictions
from genviz.exercises import Prediction
from genviz.exercises.observation import Observation
from genviz.widgets._base import ExplorerCore, float_slider
from genviz.widgets.exercises import observation_box, prediction_box
from room_testing import FakeExplorer


def _pred(item_id="99-stale-peak"):
    obs = Observation("Set ρ = 0.9. What is the peak p(μ)?", 0.3651, setting={"rho": 0.9},
                      labels={"rho": "ρ"}, read="peak", what="the peak p(μ)", atol=6e-4)
    return Prediction("Drag ρ from 0.5 to 0.9. What does the peak do?",
                      ["it gets taller", "it gets lower", "it stays"], "it gets taller",
                      id=item_id, explanation="EXPLANATION", observation=obs)


@pytest.fixture(autouse=True)
def fresh_records(fresh_prediction_records):
    yield


class _PeakView:
    """A view drawing the peak 1/(2π sqrt(1 - ρ²)); it cannot draw ρ above 0.95."""

    def __init__(self):
        self.state = {}
        self.message = None

    def update(self, rho):
        if rho > 0.95:
            raise ValueError(f"rho must be at most 0.95, got {rho}")
        self.state = {"rho": rho, "peak": 1 / (2 * 3.141592653589793 * (1 - rho ** 2) ** 0.5)}

    def show_message(self, text):
        self.message = text

    def clear_message(self):
        self.message = None


def _explorer(rho=0.5):
    return ExplorerCore(_PeakView(), {"rho": float_slider("ρ", rho, -0.99, 0.99, 0.01)},
                        lambda state: "")


def test_a_commit_clears_commit_first_after_a_reading_recorded_too_early():
    p = _pred()
    box = prediction_box(p, lecture=False)
    obs_box = observation_box(p, FakeExplorer({"rho": 0.9}, {"peak": 0.3651}))
    obs_box.text.value = "0.3651"  # too early: nothing committed yet
    assert obs_box.feedback.value == observations.COMMIT_FIRST
    box.select("it gets taller")
    box.reason.value = "a narrower hill must be taller"
    assert obs_box.feedback.value == observations.COMMIT_FIRST  # not committed yet: it stays
    box.commit()
    assert obs_box.feedback.value == ""
    assert obs_box.record_reading().correct is True  # and the reading can be recorded now


def test_the_second_vote_clears_take_the_votes_first():
    p = _pred()
    box = prediction_box(p, lecture=True)
    obs_box = observation_box(p, FakeExplorer({"rho": 0.5}, {"peak": 0.18}), lecture=True)
    obs_box.button.value = True  # Reveal before the votes: refused
    assert obs_box.feedback.value == observations.VOTES_FIRST
    box.select("it gets lower")
    box.vote()
    assert obs_box.feedback.value == observations.VOTES_FIRST  # one vote: the cause stays
    box.select("it gets taller")
    box.vote()
    assert obs_box.feedback.value == ""


def test_a_valid_setting_clears_the_explorers_error():
    p = _pred()
    explorer = _explorer(0.5)
    box = prediction_box(p, lecture=False)
    box.select(0)
    box.commit(reason="a narrower hill must be taller")
    obs_box = observation_box(p, explorer)
    explorer.controls["rho"].value = 0.97
    assert explorer.error
    obs_box.text.value = "0.3651"
    assert obs_box.feedback.value.startswith(observations.EXPLORER_ERROR)
    explorer.controls["rho"].value = 0.96  # still an error: the message stays
    assert obs_box.feedback.value.startswith(observations.EXPLORER_ERROR)
    explorer.controls["rho"].value = 0.9
    assert explorer.error is None and obs_box.feedback.value == ""
    # a message that is not a refusal of a gone cause stays when a control moves
    obs_box.text.value = "0.5"
    kept = obs_box.feedback.value
    assert "not what the explorer shows" in kept
    explorer.controls["rho"].value = 0.8
    assert obs_box.feedback.value == kept


def test_a_closed_observation_box_no_longer_follows_the_controls():
    p = _pred()
    explorer = _explorer(0.97)
    obs_box = observation_box(p, explorer)
    obs_box.feedback.value = observations.EXPLORER_ERROR + "ρ = 0.9."
    obs_box.close()
    explorer.controls["rho"].value = 0.9
    assert obs_box.feedback.value.startswith(observations.EXPLORER_ERROR)


@pytest.mark.parametrize("lecture", [False, True])
def test_choosing_an_option_clears_choose_first(lecture):
    box = prediction_box(_pred(), lecture=lecture)
    box.button.click()  # nothing chosen
    refusal = predictions.MARK_FIRST if lecture else predictions.CHOOSE_FIRST
    assert box.feedback.value == refusal
    box.reason.value = "typing a reason does not choose an option"
    assert box.feedback.value == refusal
    box.select("it stays")
    assert box.feedback.value == ""


def test_typing_a_reason_clears_reason_first():
    box = prediction_box(_pred(), lecture=False)
    box.select("it gets lower")
    box.button.click()
    assert box.feedback.value == predictions.REASON_FIRST
    box.reason.value = "   "  # blank is no reason: it stays
    assert box.feedback.value == predictions.REASON_FIRST
    box.select("it stays")  # another option does not answer "why"
    assert box.feedback.value == predictions.REASON_FIRST
    box.reason.value = "the hill gets narrower"
    assert box.feedback.value == ""
    assert box.commit() == 2 and "Committed" in box.feedback.value


def test_writing_an_attempt_clears_not_answered_yet():
    from genviz.exercises.open import OpenQuestion
    from genviz.widgets.practice import open_box

    box = open_box(OpenQuestion("Would you estimate the full joint table?", "No: too many cells.",
                                key_points={"too many cells": r"cells"}, min_words=3))
    box.compare()  # nothing written
    refusal = box.feedback.value
    assert "Not answered yet" in refusal
    box.text.value = "too many"  # not an attempt yet (two words): the refusal stays
    assert box.feedback.value == refusal
    box.text.value = "too many cells to fill"
    assert box.feedback.value == "" and box.answer.value == ""  # the answer waits for Compare
    box.compare()
    assert "Model answer" in box.answer.value
    kept = box.feedback.value
    box.text.value = "too many cells to fill, and most of them empty"
    assert box.feedback.value == kept  # the comparison is not a refusal: it stays
