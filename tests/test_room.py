"""genviz.widgets.room: the student's vote and the lecturer's panel (issue #31).

Off the hub nothing happens -- no error, no thread, no network call (sockets are made to fail
the test). On a hub (the real poll service in-process, tests/poll_testing.py) votes are counted,
a failing or silent service never raises into the notebook, and the lecturer's panel follows
the room live and drives the rounds. The chart's numbers are checked against counts worked
out by hand.
"""

from __future__ import annotations

import socket
import threading
import time

import ipywidgets as widgets
import pytest

from genviz.widgets import room
from poll_testing import LocalPollService
from room_testing import no_network, wait_for  # noqa: F401 (a fixture)

Q = "q-room"


def _env(svc, token):
    return {"GENVIZ_POLL_URL": svc.url, "JUPYTERHUB_API_TOKEN": token}


@pytest.fixture()
def svc(tmp_path):
    s = LocalPollService(tmp_path / "state")
    yield s
    s.stop()


# --- off the hub ------------------------------------------------------------------------------

@pytest.mark.parametrize("env", [
    {},  # a laptop, Binder, the website's build, nbval
    {"JUPYTERHUB_API_TOKEN": "t"},  # a hub without the poll service
    {"GENVIZ_POLL_URL": "http://127.0.0.1:9/services/genviz-poll/"},  # no token
    {"GENVIZ_POLL_URL": "file:///etc/passwd", "JUPYTERHUB_API_TOKEN": "t"},  # not http
])
def test_off_the_hub_nothing_happens_and_nothing_is_sent(env, no_network):
    threads = threading.active_count()
    assert room.connect(env) is None and room.on_hub(env) is False
    assert room.vote(Q, 1, env=env) is None
    assert room.vote(Q, 0, round=2, env=env) is None
    assert room.observe(Q, 2, env=env) is None
    panel = room.lecturer_panel(Q, ["up", "down"], env=env)
    assert all(b.disabled for b in panel.buttons.values())
    assert "Off the course hub" in panel.status.value
    assert panel.press("open") is None
    panel.close()
    assert no_network == [] and threading.active_count() == threads


def test_off_the_hub_in_this_process_too(no_network, monkeypatch):
    for var in ("GENVIZ_POLL_URL", "JUPYTERHUB_API_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    assert room.vote(Q, 1) is None and no_network == []


@pytest.mark.parametrize("call, error, says", [
    (lambda: room.vote("", 1, env={}), ValueError, "question_id"),
    (lambda: room.vote("a b", 1, env={}), ValueError, "question_id"),
    (lambda: room.vote(None, 1, env={}), ValueError, "question_id"),
    (lambda: room.vote(Q, "b", env={}), TypeError, "option must be an int"),
    (lambda: room.vote(Q, True, env={}), TypeError, "option must be an int"),
    (lambda: room.vote(Q, 1.0, env={}), TypeError, "option must be an int"),
    (lambda: room.vote(Q, -1, env={}), ValueError, "option must be >= 0"),
    (lambda: room.vote(Q, 1, round=3, env={}), ValueError, "round must be"),
    (lambda: room.vote(Q, 1, round="1", env={}), ValueError, "round must be"),
    (lambda: room.lecturer_panel(Q, "ab", env={}), TypeError, "options must be a list"),
    (lambda: room.lecturer_panel(Q, ["only one"], env={}), ValueError, "options must have 2"),
    (lambda: room.lecturer_panel("x/y", ["a", "b"], env={}), ValueError, "question_id"),
    (lambda: room.question_id_for("02-peak-with-rho"), TypeError, "prediction must be"),
    (lambda: room.question_id_for(None), TypeError, "prediction must be"),
    (lambda: room.lecturer_panel(Q, env={}), TypeError, "options must be given"),
    (lambda: room.send_stage(Q, "vote3", 1, env={}), ValueError, "stage must be one of"),
    (lambda: room.send_stage(Q, "vote1", "b", env={}), TypeError, "option must be an int"),
    (lambda: room.Room("ftp://x", "t"), ValueError, "url must be"),
])
def test_bad_arguments_are_refused_everywhere_naming_the_argument(call, error, says):
    with pytest.raises(error, match=says):
        call()


def test_a_question_is_named_by_its_predictions_id():
    from genviz.exercises import Prediction
    from genviz.exercises.gaussian import predict_peak_with_rho

    p = predict_peak_with_rho()
    assert room.question_id_for(p) == p.id == "02-peak-with-rho"
    q = Prediction("Up or down?", ["up", "down", "stays"], "up", id="99-up-or-down",
                   explanation="Because.")
    assert room.question_id_for(q) == "99-up-or-down"
    # the lecturer's panel built from the prediction: its id, options as shown, right options
    panel = room.lecturer_panel(q, env={})
    assert (panel.question_id, panel.options, panel.correct) == (q.id, list(q.options), q.correct)
    panel.close()


def test_the_token_never_shows():
    r = room.Room("http://127.0.0.1:9/services/genviz-poll", "secret-token")
    assert "secret-token" not in repr(r) and "secret-token" not in str(vars(r).get("url"))


# --- on a hub --------------------------------------------------------------------------------------

def test_votes_reach_the_room_and_are_counted(svc):
    svc.request("PUT", f"api/questions/{Q}", "t-instructor", {"options": 3, "open": 1})
    futures = [room.vote(Q, option, env=_env(svc, token))
               for token, option in [("t-ada", 0), ("t-ben", 2), ("t-chloe", 2), ("t-ada", 1)]]
    outcomes = [f.result(timeout=10) for f in futures]
    assert all(o.ok for o in outcomes), outcomes
    assert svc.counts(Q)["counts"]["1"] == [0, 1, 2]  # ada changed 0 -> 1 (in order)
    mine = room.connect(_env(svc, "t-ada")).my_votes(Q)
    assert mine.ok and mine.data["votes"]["1"] == 1


def test_a_refused_vote_comes_back_as_an_outcome_not_an_exception(svc):
    outcome = room.vote(Q, 1, env=_env(svc, "t-ada")).result(timeout=10)
    assert not outcome.ok and outcome.status == 404 and "not opened" in outcome.message
    outcome = room.vote(Q, 1, env=_env(svc, "forged")).result(timeout=10)
    assert not outcome.ok and outcome.status == 401


def test_a_dead_or_silent_service_never_raises_and_gives_up_after_the_timeout():
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    env = {"GENVIZ_POLL_URL": f"http://127.0.0.1:{port}/services/genviz-poll/",
           "JUPYTERHUB_API_TOKEN": "t"}
    outcome = room.vote(Q, 1, env=env).result(timeout=10)
    assert not outcome.ok and outcome.status is None and "could not be reached" in outcome.message
    silent = socket.socket()  # accepts connections, never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    try:
        env["GENVIZ_POLL_URL"] = f"http://127.0.0.1:{silent.getsockname()[1]}/services/genviz-poll/"
        t0 = time.monotonic()
        outcome = room.vote(Q, 1, env=env).result(timeout=30)
        took = time.monotonic() - t0
        assert not outcome.ok and outcome.status is None
        print(f"silent service: gave up after {took:.1f} s (TIMEOUT {room.TIMEOUT} s)")
    finally:
        silent.close()


def test_the_lecturers_panel_runs_a_lecture(svc):
    panel = room.lecturer_panel(Q, ["up", "down", "it stays"], correct=[0], prompt="The peak",
                                env=_env(svc, "t-instructor"), wait=5)
    try:
        assert isinstance(panel, widgets.VBox) and "Not opened yet" in panel.chart.value
        assert panel.buttons["close"].disabled and not panel.buttons["open"].disabled
        assert panel.press("open").ok and svc.counts(Q)["open"] == 1
        for token, option in [("t-ada", 0), ("t-ben", 1), ("t-chloe", 1)]:
            room.vote(Q, option, env=_env(svc, token)).result(timeout=10)
        # followed live: the count, not the bars, while the round is open
        assert wait_for(lambda: "first vote (open): <b>3</b> answered" in panel.chart.value)
        assert "appear when you close it" in panel.chart.value and "67%" not in panel.chart.value
        panel.show_open.value = True  # a lecturer's own screen
        assert "67%" in panel.chart.value
        panel.show_open.value = False
        assert panel.press("close").ok
        assert "2 (67%)" in panel.chart.value and "1 (33%)" in panel.chart.value
        assert panel.press("second").ok and svc.counts(Q)["open"] == 2
        for token in ("t-ada", "t-ben", "t-chloe"):
            room.vote(Q, 0, round=2, env=_env(svc, token)).result(timeout=10)
        assert wait_for(lambda: "second vote (open): <b>3</b> answered" in panel.chart.value)
        assert panel.press("reveal").ok
        chart = panel.chart.value
        assert "first vote" in chart and "second vote" in chart
        assert "3 (100%) second vote" in chart and "1 (33%) first vote" in chart
        assert "(a)</b> up &#10003;" in chart  # the right option ticked at the reveal
        assert panel.buttons["reveal"].disabled
        assert panel.press("clear") is None  # first click arms
        assert panel.buttons["clear"].description == "Click again to delete"
        assert panel.press("clear").ok and panel.state is None
        assert svc.request("GET", f"api/questions/{Q}", "t-instructor")[0] == 404
        with pytest.raises(ValueError, match="name must be one of"):
            panel.press("explode")
    finally:
        panel.close()


def test_a_student_opening_the_lecturers_panel_is_told_it_is_for_instructors(svc):
    panel = room.lecturer_panel(Q, ["a", "b"], env=_env(svc, "t-ada"), wait=1)
    try:
        outcome = panel.press("open")
        assert outcome.status == 403 and "instructors" in panel.status.value
        assert all(b.disabled for b in panel.buttons.values()) and panel.chart.value == ""
        assert svc.request("GET", f"api/questions/{Q}", "t-instructor")[0] == 404
    finally:
        panel.close()


def test_the_panel_renders_statically_as_one_line():
    panel = room.lecturer_panel(Q, ["a", "b"], env={})
    bundle = panel._repr_mimebundle_()
    assert "The room's answers" in bundle["text/plain"] and "children=" not in bundle["text/plain"]
    panel.close()


# --- the chart -------------------------------------------------------------------------------------

def _state(open_=None, revealed=False, c1=(0, 0), c2=(0, 0), obs=(0, 0)):
    counts = {"1": list(c1), "2": list(c2), "observation": list(obs)}
    return {"open": open_, "revealed": revealed, "counts": counts, "version": 1,
            "voters": {k: sum(v) for k, v in counts.items()}}


def test_chart_shows_the_count_of_an_open_round_and_its_bars_once_closed():
    opened = room.room_chart_html(_state(open_=1, c1=(3, 1)), ["up", "down"])
    assert "<b>4</b> answered" in opened and "75%" not in opened
    closed = room.room_chart_html(_state(c1=(3, 1)), ["up", "down"])
    assert "3 (75%)" in closed and "1 (25%)" in closed and 'aria-label="first vote: 3 of 4"' in closed
    second_open = room.room_chart_html(_state(open_=2, c1=(3, 1), c2=(1, 0)), ["up", "down"])
    assert "3 (75%)" in second_open and "1 (100%)" not in second_open  # round 1 bars only
    second_closed = room.room_chart_html(_state(c1=(3, 1), c2=(0, 4)), ["up", "down"])
    assert "4 (100%)" in second_closed and "3 (75%)" not in second_closed
    revealed = room.room_chart_html(_state(revealed=True, c1=(3, 1), c2=(0, 4), obs=(0, 2)),
                                    ["up", "down"], correct=[1])
    for text in ["3 (75%) first vote", "4 (100%) second vote", "2 (100%) observed",
                 "(b)</b> down &#10003;"]:
        assert text in revealed, text


def test_chart_escapes_option_text_and_handles_no_answers():
    html = room.room_chart_html(_state(), ["<script>x</script>", "b & c"])
    assert "<script>" not in html and "&lt;script&gt;" in html and "b &amp; c" in html
    assert "0 (0%)" in html
    before = room.room_chart_html(None, ["up <i>", "down"])
    # before the vote: the options projected (escaped), no bars, no counts
    assert "Not opened yet" in before and "(a)</b> up &lt;i&gt;" in before
    assert "(b)</b> down" in before and "%" not in before
