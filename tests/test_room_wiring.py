"""The room votes wired into predict, observe, explain (issues #30 and #31).

The prediction boxes' one hook, ``genviz.widgets.predictions.report_stage``, sends a learner's
vote 1 (the commit), vote 2 and recorded observation to the hub's poll service -- the real
service, in-process (tests/poll_testing.py), with a spy on every request the client makes --
with the Prediction's id, the round and the option's index in the order shown. Off the hub the
boxes are exactly as before and nothing is sent (sockets are made to fail the test). In
lecture mode the hub's instructors get the room's vote inside the box; anyone else the plain
lecture box. Every prediction of the course is a question the service accepts.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

import genviz.widgets.predictions as predictions
from genviz.exercises import Prediction
from genviz.exercises.choice import shuffled_order
from genviz.exercises.observation import Observation
from genviz.widgets import _room_box, _room_client, room
from genviz.widgets.exercises import observation_box, prediction_box
from poll_testing import LocalPollService, poll
from room_testing import FakeExplorer, no_network, wait_for  # noqa: F401 (a fixture)

EXPLAIN = "The determinant shrinks, EXPLANATION-MARK."


def _pred(item_id="99-room-peak"):
    obs = Observation("Set ρ = 0.9. What is the peak p(μ)?", 0.3651, setting={"rho": 0.9},
                      labels={"rho": "ρ"}, read="peak", what="the peak p(μ)", atol=6e-4)
    return Prediction("Drag ρ from 0.5 to 0.9. What does the peak do?",
                      ["it gets taller", "it gets lower", "it stays"], "it gets taller",
                      id=item_id, explanation=EXPLAIN, observation=obs)


AT_SETTING = FakeExplorer({"rho": 0.9}, {"peak": 0.3651})


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    predictions.clear_prediction_records()
    room._lecturer_cache.clear()
    for var in ("GENVIZ_POLL_URL", "JUPYTERHUB_API_TOKEN", "SERVER_SOFTWARE", "QUERY_STRING"):
        monkeypatch.delenv(var, raising=False)
    yield
    for panel in list(_room_box._PANELS.values()):
        panel.close()
    _room_box._PANELS.clear()
    predictions.clear_prediction_records()


@pytest.fixture()
def sent(monkeypatch):
    """Every request the client makes: (token, method, path, body)."""
    calls = []
    real = _room_client.Room.request

    def spy(self, method, path, body=None, **kw):
        calls.append((self._token, method, path.split("?")[0], body))
        return real(self, method, path, body, **kw)

    monkeypatch.setattr(_room_client.Room, "request", spy)
    return calls


@pytest.fixture()
def svc(tmp_path):
    s = LocalPollService(tmp_path / "state")
    yield s
    s.stop()


@pytest.fixture()
def hub_as(svc, monkeypatch):
    """``hub_as("t-ada")``: this kernel runs on the hub, as the token's owner."""
    monkeypatch.setenv("GENVIZ_POLL_URL", svc.url)

    def login(token):
        monkeypatch.setenv("JUPYTERHUB_API_TOKEN", token)

    login("t-ada")
    return login


def _lecturer(svc, qid, **state):
    status, body = svc.request("PUT", f"api/questions/{qid}", "t-instructor", state)
    assert status == 200, body
    return body


def _votes(sent):
    return [(t, body) for t, m, path, body in sent if m == "POST" and path == "api/votes"]


def _text(box):
    return " ".join(str(getattr(w, "value", "")) for w in (box.feedback, box.room_status) if w)


# --- off the hub: exactly as before ------------------------------------------------------------

@pytest.mark.parametrize("lecture", [False, True])
def test_off_the_hub_the_boxes_are_as_before_and_nothing_is_sent(lecture, no_network):
    threads = threading.active_count()
    p = _pred()
    box = prediction_box(p, lecture=lecture)
    # the same widgets as before the wiring: question, options, the reason, the button, the feedback
    assert box.children == (box.question, box.radio, box.reason, box.children[3], box.feedback)
    assert box.children[3].children == (box.button,)
    assert box.panel is None and box.room_status is None and box.room_button is None
    obs = observation_box(p, AT_SETTING, lecture=lecture)
    box.select(0)
    if lecture:
        box.vote()
        box.select(1)
        box.vote()
        obs.reveal(True)
    else:
        box.commit("a reason")
        obs.record_reading("0.3651")
        obs.keep_why("because the determinant shrinks")
    assert box.vote_again() is None
    assert predictions.report_stage(p.id, "vote1", 0) is None
    assert no_network == [] and threading.active_count() == threads


def test_off_the_hub_a_lecture_page_asks_nobody_who_is_an_instructor(no_network, monkeypatch):
    monkeypatch.setattr(room, "is_lecturer", lambda env=None: pytest.fail("asked off the hub"))
    prediction_box(_pred(), lecture=True)
    assert no_network == []


# --- a learner on the hub ----------------------------------------------------------------------

def test_a_commit_is_the_learners_first_vote_with_the_id_round_and_option_shown(svc, hub_as, sent):
    p = _pred()
    _lecturer(svc, p.id, options=3, open=1)
    box = prediction_box(p, lecture=False)
    assert box.room_status is not None and box.room_button.layout.display == "none"
    # on the hub the box keeps every part of a learner's box: the reason field (#40) stays,
    # and "Vote again" joins the row of the Commit button (each widget shown once)
    def shown(w):
        return [w, *[d for c in getattr(w, "children", ()) for d in shown(c)]]
    parts = shown(box)[1:]
    assert box.reason in parts and box.radio in parts and box.feedback in parts
    assert parts.count(box.button) == 1 and parts.count(box.room_button) == 1
    box.select("it stays")
    i = box.commit("a reason")
    box.pending.result(timeout=10)
    assert _votes(sent) == [("t-ada", {"question": p.id, "option": i, "round": 1})]
    counts = svc.counts(p.id)["counts"]["1"]
    assert counts[i] == 1 and sum(counts) == 1
    # the option counted is the one shown at that index, on the lecturer's panel too
    assert box.radio.options[i][1] == i and p.options[i] == "it stays"
    panel = room.lecturer_panel(p, env={})
    assert panel.options[i] == "it stays"
    panel.close()
    assert "Counted in the room's first vote" in box.room_status.value
    assert box.room_button.description == "Vote again" and box.room_button.layout.display is None
    # the learner's own box never shows the room's counts
    assert "answered" not in _text(box) and "%" not in _text(box)


def test_a_commit_before_the_vote_opens_is_sent_when_the_learner_asks(svc, hub_as, sent):
    p = _pred()
    box = prediction_box(p, lecture=False)
    box.select(1)
    box.commit("a reason")
    box.pending.result(timeout=10)
    assert "Not counted" in box.room_status.value
    assert box.room_button.description == "Vote in the room"
    assert box.vote_again() is None  # still not opened: asked, nothing sent
    assert "no vote on this question is open" in box.room_status.value
    _lecturer(svc, p.id, options=3, open=1)
    box.vote_again().result(timeout=10)
    assert svc.counts(p.id)["counts"]["1"][1] == 1
    assert [b for _, b in _votes(sent)][-1] == {"question": p.id, "option": 1, "round": 1}
    assert "Counted" in box.room_status.value


def _voted_in_round_one(svc, option):
    """The lecturer opens round 1 of a fresh prediction; a learner (not in lecture mode) with
    its observation box beside it picks ``option`` and commits: (prediction, box, obs box)."""
    p = _pred()
    _lecturer(svc, p.id, options=3, open=1)
    box = prediction_box(p, lecture=False)
    obs = observation_box(p, AT_SETTING, lecture=False)
    box.select(option)
    box.commit("a reason")
    box.pending.result(timeout=10)
    return p, box, obs


def test_a_learner_changes_the_vote_while_open_and_votes_again_in_round_two(svc, hub_as, sent):
    p, box, obs = _voted_in_round_one(svc, 0)
    # round 1 still open: Vote again unlocks the options, Send vote changes the vote
    assert box.vote_again() is None and box.room_round == 1 and not box.radio.disabled
    assert box.room_button.description == "Send vote"
    box.select(2)
    box.vote_again().result(timeout=10)
    assert svc.counts(p.id)["counts"]["1"] == [0, 0, 1] and box.record.vote1 == 2
    assert box.radio.disabled and box.room_round is None
    # the lecturer closes round 1 and opens the second vote
    _lecturer(svc, p.id, open=None)
    assert box.vote_again() is None
    assert "No vote of the room is open" in box.room_status.value and box.radio.disabled
    _lecturer(svc, p.id, open=2)
    box.vote_again()
    assert box.room_round == 2 and box.radio.value == 2  # starts from the learner's answer
    assert "Second vote" in box.room_status.value
    wrong = next(i for i in range(3) if i not in p.correct and i != 2)
    box.select(wrong)
    box.vote_again().result(timeout=10)
    assert svc.counts(p.id)["counts"]["2"] == [int(i == wrong) for i in range(3)]
    assert svc.counts(p.id)["counts"]["1"] == [0, 0, 1]  # round 1 unchanged
    assert box.record.vote2 == wrong and box.record.final == wrong
    assert "your second vote" in box.feedback.value
    stages = [(b["round"], b["option"]) for _, b in _votes(sent)]
    assert stages == [(1, 0), (1, 2), (2, wrong)]
    # the second vote is the prediction the verdict judges
    _lecturer(svc, p.id, open="observation", revealed=True)
    obs.record_reading("0.3651")
    assert "Your prediction did not hold" in obs.explanation.value


def test_a_recorded_observation_is_counted_and_the_why_never_leaves_the_kernel(svc, hub_as, sent):
    p, box, obs = _voted_in_round_one(svc, 1)
    _lecturer(svc, p.id, open="observation", revealed=True)
    obs.record_reading("0.3651")
    obs.keep_why("WHY-MARK the determinant shrinks")
    deadline = time.monotonic() + 10
    while svc.counts(p.id)["voters"]["observation"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert svc.counts(p.id)["counts"]["observation"] == [1 if i in p.correct else 0
                                                        for i in range(3)]
    everything = json.dumps(sent) + json.dumps(svc.counts(p.id))
    assert "WHY-MARK" not in everything and "0.3651" not in everything
    # after recording the observation, the votes stay as they are
    assert box.vote_again() is None and "stay as they are" in box.room_status.value


def test_an_observation_shown_not_recorded_sends_nothing(svc, hub_as, sent):
    p = _pred()
    _lecturer(svc, p.id, options=3, open="observation")
    prediction_box(p, lecture=False).select(0)
    predictions._RECORDS[p.id].vote1 = 0  # committed (before the vote opened: not sent)
    obs = observation_box(p, AT_SETTING, lecture=False)
    obs.record_reading("0.1")
    obs.record_reading("0.2")
    obs.show_reading()
    assert _votes(sent) == []


@pytest.mark.parametrize("status, says, button", [
    (404, "no vote on this question is open", "Vote in the room"),
    (409, "no vote on this question is open", "Vote in the room"),
    (429, "Too many votes", "Vote again"),
    (403, "may not vote in the room", None),
    (None, "could not be reached", "Vote again"),
])
def test_each_refusal_tells_the_learner_what_to_do(status, says, button, svc, hub_as):
    box = prediction_box(_pred(), lecture=False)
    box.select(0)
    box.commit("a reason")
    box.pending.result(timeout=10)
    box._counted(_room_client.Outcome(False, status, "the service's words"), 1, 0)
    assert says in box.room_status.value
    if button is None:
        assert box.room_button.layout.display == "none"
    else:
        assert box.room_button.description == button
    assert box.radio.disabled and box.record.vote1 == 0  # the commit stays


def test_a_dead_service_never_raises_into_the_box(monkeypatch):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("GENVIZ_POLL_URL", f"http://127.0.0.1:{port}/services/genviz-poll/")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "t")
    box = prediction_box(_pred(), lecture=False)
    box.select(0)
    box.commit("a reason")
    box.pending.result(timeout=15)
    assert "could not be reached" in box.room_status.value
    assert box.vote_again() is None and "could not be reached" in box.room_status.value
    # lecture mode with an unreachable service: the plain lecture box
    lecture = prediction_box(_pred("99-other"), lecture=True)
    assert lecture.panel is None and lecture.radio in lecture.children


def test_a_replaced_hook_gets_every_stage_and_the_room_nothing(svc, hub_as, sent, monkeypatch):
    seen = []
    monkeypatch.setattr(predictions, "report_stage", lambda *a: seen.append(a))
    p = _pred()
    _lecturer(svc, p.id, options=3, open=1)
    box = prediction_box(p, lecture=False)
    box.select(0)
    box.commit("a reason")
    assert seen == [(p.id, "vote1", 0)] and _votes(sent) == [] and box.pending is None


# --- lecture mode on the hub -------------------------------------------------------------------

def test_the_instructors_lecture_box_is_the_rooms_vote(svc, hub_as, sent):
    p = _pred()
    hub_as("t-instructor")
    box = prediction_box(p, lecture=True)
    obs = observation_box(p, AT_SETTING, lecture=True)
    assert box.panel is not None and box.children == (box.question, box.panel, box.feedback)
    assert (box.panel.question_id, box.panel.options) == (p.id, list(p.options))
    assert "Open vote" in box.feedback.value
    assert box.panel.press("open").ok
    assert "The room is voting" in box.feedback.value
    answers = {"t-ada": 0, "t-ben": 1, "t-chloe": 1}  # as p.options shows them
    for token, option in answers.items():
        assert svc.request("POST", "api/votes", token,
                           {"question": p.id, "option": option, "round": 1})[0] == 200
    assert wait_for(lambda: "3 answered" in box.feedback.value)
    assert box.record.vote1 is None and "%" not in box.panel.chart.value  # no bars while open
    box.panel.press("close")
    assert box.record.vote1 == 1 and "Discuss with your neighbour" in box.feedback.value
    assert f"{p.options[1]} (2 of 3)" in box.feedback.value
    assert "2 (67%)" in box.panel.chart.value
    obs.reveal(True)  # too early: the room has voted once
    assert not obs.explanation.value and "two votes" in obs.feedback.value
    box.panel.press("second")
    for token in answers:
        svc.request("POST", "api/votes", token, {"question": p.id, "option": 0, "round": 2})
    assert wait_for(lambda: "Second vote" in box.feedback.value and "3 answered" in box.feedback.value)
    box.panel.press("close")
    assert box.record.vote2 == 0 and "Press <b>Reveal</b>" in box.feedback.value
    box.panel.press("reveal")
    assert "Reveal" not in box.feedback.value.split("Then")[0]
    assert "3 (100%) second vote" in box.panel.chart.value
    obs.reveal(True)
    table = obs.explanation.value
    assert f"{p.options[1]} (2 of 3)" in table and f"{p.options[0]} (3 of 3)" in table
    assert EXPLAIN in table
    # the lecturer's box sent no vote of its own: only the lecturer's panel requests
    assert all(t == "t-instructor" for t, *_ in sent)
    assert _votes(sent) == []
    # clearing the votes starts the question again
    box.panel.press("clear")
    box.panel.press("clear")
    assert box.record.vote1 is None and box.record.vote2 is None
    assert "Open vote" in box.feedback.value


def test_revealed_after_one_vote_the_rooms_answer_is_its_first(svc, hub_as):
    p = _pred()
    hub_as("t-instructor")
    box = prediction_box(p, lecture=True)
    box.panel.press("open")
    svc.request("POST", "api/votes", "t-ada", {"question": p.id, "option": 2, "round": 1})
    box.panel.press("close")
    box.panel.press("reveal")
    assert box.record.vote1 == box.record.vote2 == 2 and "no second vote" in box.feedback.value
    obs = observation_box(p, AT_SETTING, lecture=True)
    obs.reveal(True)
    assert "(no second vote)" in obs.explanation.value


def test_a_tie_is_reported_as_a_tie_in_every_summary(svc, hub_as):
    """1-1 on the first vote, 1-1-1 on the second: the box's line and the reveal under the
    explorer name every leading option, never "most chose" one of them (issue #39)."""
    p = _pred()
    hub_as("t-instructor")
    box = prediction_box(p, lecture=True)
    o = box._opt  # option i as the box shows it, e.g. "(a) it gets lower"
    box.panel.press("open")
    for token, option in (("t-ada", 0), ("t-ben", 2)):
        svc.request("POST", "api/votes", token, {"question": p.id, "option": option, "round": 1})
    box.panel.press("close")
    line = box.feedback.value
    assert f"a tie between {o(0)} and {o(2)} (1 each of 2)" in line, line
    assert "most chose" not in line and "Discuss with your neighbour" in line
    box.panel.press("second")
    for token, option in (("t-ada", 0), ("t-ben", 1), ("t-chloe", 2)):
        svc.request("POST", "api/votes", token, {"question": p.id, "option": option, "round": 2})
    box.panel.press("close")
    tie3 = f"a tie between {o(0)}, {o(1)} and {o(2)} (1 each of 3)"
    assert tie3 in box.feedback.value, box.feedback.value
    box.panel.press("reveal")
    obs = observation_box(p, AT_SETTING, lecture=True)
    obs.reveal(True)
    table = obs.explanation.value
    assert f"a tie between {o(0)} and {o(2)} (1 each of 2)" in table and tie3 in table
    # a clear winner is still "most chose"
    box.panel.press("clear")
    box.panel.press("clear")
    box.panel.press("open")
    for token, option in (("t-ada", 1), ("t-ben", 1), ("t-chloe", 0)):
        svc.request("POST", "api/votes", token, {"question": p.id, "option": option, "round": 1})
    box.panel.press("close")
    assert f"most chose {o(1)} (2 of 3)" in box.feedback.value
    assert "a tie" not in box.feedback.value


@pytest.mark.parametrize("counts, voters, expected", [
    ([0, 0, 0], 0, "no answers"),
    ([4, 1], 5, "(0) (4 of 5)"),
    ([2, 2], 4, "a tie between (0) and (1) (2 each of 4)"),
    ([0, 3, 0, 3], 6, "a tie between (1) and (3) (3 each of 6)"),
])
def test_room_choice_names_every_leader(counts, voters, expected):
    assert room.room_choice(counts, voters, "({})".format) == expected
    top = [i for i, n in enumerate(counts) if n and n == max(counts)]  # the oracle
    assert room.leaders(counts) == top
    assert room.majority(counts) == (top[0] if top else None)


def test_a_non_instructor_in_lecture_mode_gets_the_plain_box_and_sends_nothing(svc, hub_as, sent):
    p = _pred()
    _lecturer(svc, p.id, options=3, open=1)
    box = prediction_box(p, lecture=True)  # as ada
    assert box.panel is None and box.radio in box.children and box.room_status is None
    box.select(0)
    box.vote()
    box.select(1)
    box.vote()
    assert _votes(sent) == []  # the lecture box's votes are the room's, never ada's
    assert [m for _, m, path, _ in sent] == ["GET"]  # one question: who is this?
    assert svc.counts(p.id)["voters"]["1"] == 0


def test_who_is_an_instructor_is_asked_once_per_server(svc, hub_as, sent):
    hub_as("t-instructor")
    for k in range(3):
        prediction_box(_pred(f"99-room-q{k}"), lecture=True)
    assert [path for _, m, path, _ in sent if path == "api/"] == ["api/"]


def test_a_re_run_lecture_cell_stops_the_old_panel(svc, hub_as):
    hub_as("t-instructor")
    first = prediction_box(_pred(), lecture=True)
    second = prediction_box(_pred(), lecture=True)
    assert first.panel._stop.is_set() and not second.panel._stop.is_set()
    second.close()
    assert second.panel._stop.is_set() and _room_box._PANELS == {}


def test_a_voila_lecture_page_is_recognised_from_its_address():
    voila = {"SERVER_SOFTWARE": "voila/0.5.8"}
    assert room.voila_lecture({**voila, "QUERY_STRING": "template=genviz-lecture"})
    assert room.voila_lecture({**voila, "QUERY_STRING": "a=1&template=genviz-lecture"})
    assert not room.voila_lecture({**voila, "QUERY_STRING": "template=lab"})
    assert not room.voila_lecture({**voila, "QUERY_STRING": ""})
    assert not room.voila_lecture({"QUERY_STRING": "template=genviz-lecture"})  # not Voila
    assert not room.voila_lecture({})


def test_a_voila_lecture_kernel_is_in_lecture_mode_from_its_first_import():
    code = ("import genviz.widgets\nfrom genviz.plots.style import is_lecture_mode\n"
            "print(is_lecture_mode())")
    env = {k: v for k, v in os.environ.items() if k not in ("GENVIZ_POLL_URL",
                                                             "JUPYTERHUB_API_TOKEN")}
    env["MPLBACKEND"] = "Agg"
    out = {}
    for name, extra in {"voila-lecture": {"SERVER_SOFTWARE": "voila/0.5.8",
                                          "QUERY_STRING": "template=genviz-lecture"},
                        "voila": {"SERVER_SOFTWARE": "voila/0.5.8", "QUERY_STRING": ""},
                        "lab": {}}.items():
        run = subprocess.run([sys.executable, "-c", code], env={**env, **extra},
                             capture_output=True, text=True, timeout=120)
        out[name] = run.stdout.strip()
    assert out == {"voila-lecture": "True", "voila": "False", "lab": "False"}


# --- every prediction of the course is a question the service takes ---------------------------

def _course_predictions():
    import test_teaching

    found = {}
    for path in test_teaching.NOTEBOOKS:
        for item in test_teaching.exercise_records(path):
            if item["cls"] == "Prediction":
                found.setdefault(item["id"], []).append((path.name, item))
    return found


def test_every_prediction_of_the_course_is_a_valid_question_for_the_service(tmp_path):
    svc = LocalPollService(tmp_path / "state", rate=1000.0, burst=1000)  # one student, many votes
    try:
        _every_prediction_is_a_question(svc, _course_predictions())
    finally:
        svc.stop()


def _every_prediction_is_a_question(svc, found):
    assert len(found) >= 18, sorted(found)
    for qid, items in found.items():
        assert len(items) == 1, f"{qid} is made in {[n for n, _ in items]}: one id, one question"
        _, item = items[0]
        n = len(item["options"])
        # the client and the service both take the id; the service takes every option shown
        assert room.check_question_id(qid) == qid and poll.QUESTION_ID.fullmatch(qid)
        assert 2 <= n <= poll.MAX_OPTIONS
        assert _lecturer(svc, qid, options=n, open=1)["options"] == n
        for option in range(n):
            assert svc.request("POST", "api/votes", "t-ada",
                               {"question": qid, "option": option, "round": 1})[0] == 200
        assert svc.request("POST", "api/votes", "t-ada",
                           {"question": qid, "option": n, "round": 1})[0] == 400
        _lecturer(svc, qid, open="observation", revealed=True)
        assert svc.request("POST", "api/votes", "t-ada", {
            "question": qid, "option": item["correct"][0], "round": "observation"})[0] == 200


def test_the_order_shown_depends_on_the_id_alone_not_on_the_process():
    ids = sorted(_course_predictions())
    code = ("import json, sys\nfrom genviz.exercises.choice import shuffled_order\n"
            "print(json.dumps([shuffled_order(i, 5) for i in json.loads(sys.argv[1])]))")
    orders = set()
    for seed in ("0", "4242"):
        run = subprocess.run([sys.executable, "-c", code, json.dumps(ids)], capture_output=True,
                             text=True, timeout=120, env={**os.environ, "PYTHONHASHSEED": seed})
        orders.add(run.stdout.strip())
    assert orders == {json.dumps([shuffled_order(i, 5) for i in ids])}
    # and a builder gives every screen the same options in the same order
    from genviz.exercises.gaussian import predict_peak_with_rho

    code = ("import json\nfrom genviz.exercises.gaussian import predict_peak_with_rho\n"
            "p = predict_peak_with_rho()\nprint(json.dumps([list(p.options), list(p.correct)]))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONHASHSEED": "7", "MPLBACKEND": "Agg"})
    p = predict_peak_with_rho()
    assert json.loads(run.stdout) == [list(p.options), list(p.correct)]


@pytest.mark.parametrize("planted", [
    {"02-twice": [("02.ipynb", {"options": ["a", "b"], "correct": [0]}),
                  ("03.ipynb", {"options": ["a", "b"], "correct": [0]})]},
    {"02 bad id": [("02.ipynb", {"options": ["a", "b"], "correct": [0]})]},
    {"02-many": [("02.ipynb", {"options": [str(i) for i in range(13)], "correct": [0]})]},
])
def test_the_course_check_fails_on_a_question_the_service_would_refuse(planted, tmp_path):
    svc = LocalPollService(tmp_path / "state", rate=1000.0, burst=1000)
    try:
        with pytest.raises((AssertionError, ValueError)):
            _every_prediction_is_a_question(svc, {**planted, **{
                f"0{k}-filler": [("0.ipynb", {"options": ["a", "b"], "correct": [0]})]
                for k in range(18)}})
    finally:
        svc.stop()
