"""The room's poll service (deploy/poll/genviz_poll.py, issue #31) through its HTTP API, with a
stand-in for the hub's token check (tests/poll_testing.py): who may do what, every kind of bad
request refused with a clear 4xx that changes nothing, floods, restarts, deletion, and what is
stored. The counts are checked against a plain dictionary of each user's last vote (the
oracle), also for generated sequences of votes (hypothesis). tests/test_poll_hub.py runs the
same service behind a real trial hub."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
import urllib.error

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poll_testing import KEY, LocalPollService, poll

Q = "q-peak"


@pytest.fixture()
def svc(tmp_path):
    s = LocalPollService(tmp_path / "state")
    yield s
    s.stop()


def _open(svc, qid=Q, options=3, **state):
    status, answer = svc.request("PUT", f"api/questions/{qid}", "t-instructor",
                                 {"options": options, "open": 1, **state})
    assert status == 200, answer
    return answer


def _vote(svc, token, option, qid=Q, round=1):  # noqa: A002
    return svc.request("POST", "api/votes", token, {"question": qid, "option": option, "round": round})


# --- who may do what ------------------------------------------------------------------------------

def test_the_hub_says_who_is_calling(svc):
    assert svc.request("GET", "api/", "t-ada") == (200, {"service": "genviz-poll", "user": "ada",
                                                          "lecturer": False})
    assert svc.request("GET", "api/", "t-instructor")[1]["lecturer"] is True


@pytest.mark.parametrize("headers, status, says", [
    ({}, 401, "no hub login"),
    ({"Authorization": "token "}, 401, "no hub login"),
    ({"Authorization": "Basic YWRhOng="}, 401, "no hub login"),
    ({"Authorization": "token forged"}, 401, "not a valid hub login"),
    ({"Authorization": "token t-nobody"}, 403, "may not use the service"),
    ({"Authorization": "token t-service"}, 403, "only users"),
])
def test_requests_without_a_hub_login_are_refused_and_change_nothing(svc, headers, status, says):
    _open(svc)
    before = svc.counts(Q)
    got, answer = svc.request("POST", "api/votes", body={"question": Q, "option": 1},
                              headers=headers)
    assert got == status and says in answer["error"]
    assert svc.counts(Q) == before
    assert svc.request("GET", "api/", headers=headers)[0] == status


def test_a_request_refused_before_its_method_closes_its_connection(svc):
    """A request refused in ``prepare`` (before its body is read) is answered with
    ``Connection: close`` (tornado drops that connection: the caller must not reuse it, see
    tests/test_lecture_service.py for the reset it caused), a GET as much as a POST."""
    import http.client
    from urllib.parse import urlsplit

    def answer(method, data):  # HTTP/1.1 kept alive (urllib always asks to close)
        url = urlsplit(svc.url)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        try:
            conn.request(method, url.path + "api/votes", body=data,
                         headers={"Authorization": "token forged"})
            r = conn.getresponse()
            r.read()
            return r.status, r.getheader("Connection", "")
        finally:
            conn.close()

    assert answer("POST", b'{"question": "q", "option": 1}') == (401, "close")
    assert answer("GET", None) == (401, "close")


def test_a_student_cannot_lecture(svc):
    _open(svc)
    assert _vote(svc, "t-ada", 2)[0] == 200
    before = svc.counts(Q)
    for method, path, body in [("PUT", f"api/questions/{Q}", {"open": None}),
                               ("PUT", f"api/questions/{Q}", {"revealed": True}),
                               ("PUT", "api/questions/q-new", {"options": 2, "open": 1}),
                               ("DELETE", f"api/questions/{Q}", None),
                               ("DELETE", "api/questions", None),
                               ("GET", "api/questions", None)]:
        status, answer = svc.request(method, path, "t-ben", body)
        assert status == 403 and "instructors" in answer["error"], (method, path, answer)
    assert svc.counts(Q) == before


def test_a_student_sees_the_counts_only_after_the_reveal(svc):
    _open(svc)
    _vote(svc, "t-ada", 0)
    status, answer = svc.request("GET", f"api/questions/{Q}", "t-ben")
    assert status == 403 and "until the reveal" in answer["error"]
    svc.request("PUT", f"api/questions/{Q}", "t-instructor", {"revealed": True})
    status, answer = svc.request("GET", f"api/questions/{Q}", "t-ben")
    assert status == 200 and answer["counts"]["1"] == [1, 0, 0]


def test_nobody_votes_for_someone_else(svc):
    _open(svc)
    # the only identity is the token's owner: a "user" field is refused, not obeyed
    status, answer = _vote(svc, "t-ada", 1)
    assert status == 200
    status, answer = svc.request("POST", "api/votes", "t-ada",
                                 {"question": Q, "option": 2, "user": "ben"})
    assert status == 400 and "'user'" in answer["error"]
    assert svc.request("GET", f"api/votes/{Q}", "t-ben")[1]["votes"]["1"] is None
    assert svc.request("GET", f"api/votes/{Q}", "t-ada")[1]["votes"]["1"] == 1
    assert svc.counts(Q)["counts"]["1"] == [0, 1, 0]


def test_a_students_own_votes_say_which_round_is_open_and_nothing_of_the_room(svc):
    """What *Vote again* in a student's box asks (genviz.widgets._room_box): which round is
    open and their own votes; never the counts, the number of voters or anyone else's vote."""
    assert svc.request("GET", f"api/votes/{Q}", "t-ada")[0] == 404  # not opened yet
    _open(svc)
    for token, option in [("t-ben", 2), ("t-chloe", 2)]:
        _vote(svc, token, option)
    status, answer = svc.request("GET", f"api/votes/{Q}", "t-ada")
    assert status == 200
    assert answer == {"question": Q, "votes": {"1": None, "2": None, "observation": None},
                      "open": 1, "revealed": False}
    svc.request("PUT", f"api/questions/{Q}", "t-instructor", {"open": 2})
    assert svc.request("GET", f"api/votes/{Q}", "t-ben")[1] == {
        "question": Q, "votes": {"1": 2, "2": None, "observation": None}, "open": 2,
        "revealed": False}


# --- a lecture --------------------------------------------------------------------------------------

def test_a_lecture_first_vote_change_close_second_vote_reveal_observe(svc):
    assert _vote(svc, "t-ada", 0)[0] == 404  # not opened yet
    _open(svc)
    for token, option in [("t-ada", 0), ("t-ben", 0), ("t-chloe", 2)]:
        assert _vote(svc, token, option) == (200, {"question": Q, "round": 1, "option": option,
                                                    "changed": True})
    assert _vote(svc, "t-ada", 0)[1]["changed"] is False  # the same vote again: no change
    assert _vote(svc, "t-ada", 1)[1]["changed"] is True  # changed her mind: counted once
    c = svc.counts(Q)
    assert c["counts"]["1"] == [1, 1, 1] and c["voters"]["1"] == 3 and c["open"] == 1
    svc.request("PUT", f"api/questions/{Q}", "t-instructor", {"open": None})
    status, answer = _vote(svc, "t-ben", 2)
    assert status == 409 and "not open" in answer["error"]
    assert svc.counts(Q)["counts"]["1"] == [1, 1, 1]
    svc.request("PUT", f"api/questions/{Q}", "t-instructor", {"open": 2})
    assert _vote(svc, "t-ada", 2, round=1)[0] == 409  # round 1 is closed now
    for token in ("t-ada", "t-ben", "t-chloe"):
        assert _vote(svc, token, 2, round=2)[0] == 200
    c = svc.counts(Q)
    assert c["counts"] == {"1": [1, 1, 1], "2": [0, 0, 3], "observation": [0, 0, 0]}
    answer = svc.request("PUT", f"api/questions/{Q}", "t-instructor",
                         {"open": "observation", "revealed": True})[1]
    assert answer["revealed"] is True and answer["open"] == "observation"
    assert _vote(svc, "t-ben", 2, round="observation")[0] == 200
    assert svc.counts(Q)["counts"]["observation"] == [0, 0, 1]
    mine = svc.request("GET", f"api/votes/{Q}", "t-ada")[1]["votes"]
    assert mine == {"1": 1, "2": 2, "observation": None}


def test_the_lecturers_long_poll_returns_when_a_vote_arrives(svc):
    version = _open(svc)["version"]
    got = {}

    def wait():
        t0 = time.monotonic()
        got["answer"] = svc.request("GET", f"api/questions/{Q}?since={version}&wait=20",
                                    "t-instructor")
        got["took"] = time.monotonic() - t0

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.3)
    _vote(svc, "t-ada", 1)
    waiter.join(timeout=25)
    status, answer = got["answer"]
    assert status == 200 and answer["version"] > version and answer["counts"]["1"] == [0, 1, 0]
    assert got["took"] < 15  # woken by the vote, not by the 20 s timeout
    status, answer = svc.request("GET", f"api/questions/{Q}?since=x&wait=1", "t-instructor")
    assert status == 400


# --- bad requests: a clear 4xx, nothing changes ------------------------------------------------

BAD_VOTES = [
    ({"question": "q-unknown", "option": 0}, 404, "unknown question"),
    ({"question": Q, "option": 3}, 400, "out of range"),
    ({"question": Q, "option": -1}, 400, "out of range"),
    ({"question": Q, "option": "1"}, 400, "option must be an integer"),
    ({"question": Q, "option": 1.0}, 400, "option must be an integer"),
    ({"question": Q, "option": True}, 400, "option must be an integer"),
    ({"question": Q, "option": None}, 400, "option must be an integer"),
    ({"question": Q, "option": 1, "round": 3}, 400, "round must be"),
    ({"question": Q, "option": 1, "round": "first"}, 400, "round must be"),
    ({"question": Q, "option": 1, "round": True}, 400, "round must be"),
    ({"question": Q, "option": 1, "round": 2}, 409, "not open"),
    ({"question": "", "option": 1}, 400, "question must be"),
    ({"question": "../etc", "option": 1}, 400, "question must be"),
    ({"question": "a b", "option": 1}, 400, "question must be"),
    ({"question": "q" * 81, "option": 1}, 400, "question must be"),
    ({"question": ["q"], "option": 1}, 400, "question must be"),
    ({"option": 1}, 400, "missing field"),
    ({"question": Q}, 400, "missing field"),
    ({"question": Q, "option": 1, "extra": "x"}, 400, "unknown field"),
]


@pytest.mark.parametrize("body, status, says", BAD_VOTES, ids=[str(b) for b, _, _ in BAD_VOTES])
def test_a_bad_vote_is_refused_with_a_clear_4xx_and_changes_nothing(svc, body, status, says):
    _open(svc)
    _vote(svc, "t-ada", 1)
    before = svc.counts(Q)
    got, answer = svc.request("POST", "api/votes", "t-ben", body)
    assert got == status and says in answer["error"], answer
    assert svc.counts(Q) == before


@pytest.mark.parametrize("raw, status, says", [
    (b"not json", 400, "JSON object"),
    (b"[1, 2]", 400, "JSON object"),
    (b"\xff\xfe", 400, "JSON object"),
    (b"", 400, "JSON object"),
    (b'{"question": "q-peak", "option": 1, "pad": "' + b"x" * 2000 + b'"}', 413, "over 1024 bytes"),
])
def test_a_malformed_or_oversized_body_is_refused_and_changes_nothing(svc, raw, status, says):
    _open(svc)
    before = svc.counts(Q)
    got, answer = svc.request("POST", "api/votes", "t-ada", raw=raw)
    assert got == status and says in answer["error"]
    assert svc.counts(Q) == before


def test_a_huge_body_is_refused_and_the_service_goes_on(svc):
    _open(svc)
    before = svc.counts(Q)
    for size in (200 * 1024, 3 * 1024 * 1024):  # read to its end, dropped, refused
        status, answer = svc.request("POST", "api/votes", "t-ada", raw=b"x" * size)
        assert status == 413 and "over 1024 bytes" in answer["error"], size
    status, answer = svc.request("PUT", f"api/questions/{Q}", "t-instructor", raw=b"{" * 5000)
    assert status == 413
    try:  # over 64 MB tornado answers 400 and closes the connection unread
        status, _ = svc.request("POST", "api/votes", "t-ada", raw=b"x" * (poll.MAX_STREAMED + 1))
        assert status == 400
    except (ConnectionError, urllib.error.URLError) as closed:  # still sending when it closed
        assert isinstance(getattr(closed, "reason", closed), ConnectionError), closed
    assert svc.counts(Q) == before
    assert _vote(svc, "t-ada", 1)[0] == 200


@pytest.mark.parametrize("body, status, says", [
    ({"options": 1, "open": 1}, 400, "options must be an integer from 2 to 12"),
    ({"options": 13, "open": 1}, 400, "options must be"),
    ({"options": "3", "open": 1}, 400, "options must be"),
    ({"open": 1}, 400, "options (the number of options"),
    ({"options": 3, "open": 5}, 400, "round must be"),
    ({"options": 3, "revealed": "yes"}, 400, "revealed must be"),
    ({"options": 3, "who": "me"}, 400, "unknown field"),
])
def test_a_bad_declaration_is_refused(svc, body, status, says):
    got, answer = svc.request("PUT", "api/questions/q-new", "t-instructor", body)
    assert got == status and says in answer["error"]
    assert svc.request("GET", "api/questions/q-new", "t-instructor")[0] == 404


def test_the_number_of_options_is_fixed_once_there_are_votes(svc):
    _open(svc, options=3)
    assert svc.request("PUT", f"api/questions/{Q}", "t-instructor", {"options": 4})[0] == 200
    _vote(svc, "t-ada", 3)
    status, answer = svc.request("PUT", f"api/questions/{Q}", "t-instructor", {"options": 2})
    assert status == 409 and "delete it" in answer["error"]
    assert svc.counts(Q)["options"] == 4


def test_unknown_paths_and_methods(svc):
    assert svc.request("GET", "api/nothing", "t-ada")[0] == 404
    assert svc.request("GET", "../../hub/api", "t-ada")[0] == 404
    assert svc.request("DELETE", "api/votes", "t-ada")[0] == 405
    assert svc.request("GET", "api/questions/a%20b", "t-instructor")[0] == 400


def test_too_many_questions_are_refused(svc, monkeypatch):
    monkeypatch.setattr(poll, "MAX_QUESTIONS", 3)
    for i in range(3):
        _open(svc, qid=f"q{i}")
    status, answer = svc.request("PUT", "api/questions/q3", "t-instructor", {"options": 2, "open": 1})
    assert status == 409 and "delete old ones" in answer["error"]


# --- floods -----------------------------------------------------------------------------------------

def test_a_flood_from_one_user_gets_429_and_counts_once(tmp_path):
    # a bucket that refills so slowly that no refill happens during the test, however slow the
    # machine: the burst passes, everything after it is refused (refilling: the unit test below)
    svc = LocalPollService(tmp_path / "state", rate=0.01, burst=10)
    try:
        _open(svc)
        before = svc.counts(Q)
        statuses = [_vote(svc, "t-ada", i % 3)[0] for i in range(40)]
        assert statuses[:10] == [200] * 10 and statuses[10:] == [429] * 30
        answer = _vote(svc, "t-ada", 0)[1]
        assert "too many requests" in answer["error"]
        c = svc.counts(Q)
        assert c["voters"]["1"] == 1 and sum(c["counts"]["1"]) == 1
        assert c["counts"]["1"] == [1, 0, 0]  # her 10th vote (option 0), not a refused one
        assert c["version"] == before["version"] + 10  # the refused 30 changed nothing
        # the flood changed nothing for anyone else
        assert _vote(svc, "t-ben", 2)[0] == 200
    finally:
        svc.stop()


def test_the_rate_limit_refills_at_its_rate():
    rl = poll.RateLimit(rate=2.0, burst=3)
    assert [rl.allow("a", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert rl.allow("b", now=0.0)  # per user
    assert not rl.allow("a", now=0.4) and rl.allow("a", now=1.0)  # 0.4 s = 0.8 token; 1.0 s > 1
    assert [rl.allow("a", now=100.0) for _ in range(4)] == [True, True, True, False]  # capped


# --- restarts, deletion, what is stored -----------------------------------------------------------

def test_a_restart_loses_no_vote_of_an_open_round(tmp_path):
    svc = LocalPollService(tmp_path / "state")
    _open(svc)
    for token, option in [("t-ada", 0), ("t-ben", 1), ("t-chloe", 1)]:
        _vote(svc, token, option)
    before = svc.counts(Q)
    svc.stop()
    again = LocalPollService(tmp_path / "state")
    try:
        assert again.counts(Q) == before and before["open"] == 1
        assert _vote(again, "t-ada", 1)[1]["changed"] is True  # her vote replaced, not doubled
        assert again.counts(Q)["counts"]["1"] == [0, 3, 0]
        status, answer = again.request("GET", f"api/questions/{Q}?since={before['version']}&wait=1",
                                       "t-instructor")
        assert answer["version"] > before["version"]  # versions go on after a restart
    finally:
        again.stop()


def test_the_lecturer_deletes_a_question_or_everything(svc, tmp_path):
    _open(svc, qid="q1")
    _open(svc, qid="q2")
    _vote(svc, "t-ada", 1, qid="q1")
    _vote(svc, "t-ada", 0, qid="q2")
    assert svc.request("DELETE", "api/questions/q1", "t-instructor") == (200, {"deleted": 1})
    assert svc.request("GET", "api/questions/q1", "t-instructor")[0] == 404
    assert svc.request("DELETE", "api/questions/q1", "t-instructor")[0] == 404
    assert svc.request("GET", "api/questions", "t-instructor")[1]["questions"][0]["question"] == "q2"
    assert svc.request("DELETE", "api/questions", "t-instructor") == (200, {"deleted": 1})
    rows = sqlite3.connect(tmp_path / "state" / "votes.sqlite").execute(
        "SELECT (SELECT COUNT(*) FROM votes), (SELECT COUNT(*) FROM questions)").fetchone()
    assert rows == (0, 0)


def test_only_a_keyed_hash_of_the_voter_is_stored(svc, tmp_path):
    _open(svc)
    _vote(svc, "t-ada", 1)
    db = tmp_path / "state" / "votes.sqlite"
    rows = sqlite3.connect(db).execute("SELECT question, round, voter, option FROM votes").fetchall()
    assert len(rows) == 1 and rows[0][0] == Q and rows[0][1] == "1" and rows[0][3] == 1
    assert "ada" not in rows[0][2] and len(rows[0][2]) == 32
    for path in (tmp_path / "state").iterdir():
        assert b"ada" not in path.read_bytes(), path.name
        assert svc.key not in path.read_bytes(), path.name
    # nothing beside the votes re-identifies a voter: the key is nowhere in the state folder
    assert sorted(p.name for p in (tmp_path / "state").iterdir()) <= \
        ["votes.sqlite", "votes.sqlite-shm", "votes.sqlite-wal"]


def test_old_questions_expire(tmp_path):
    store = poll.Store(str(tmp_path / "s"), keep_hours=12, key=KEY)
    store.declare("q1", options=2, open_="1")
    store.vote("q1", "1", "ada", 1)
    assert store.expire(now=time.time() + 11 * 3600) == []
    assert store.expire(now=time.time() + 13 * 3600) == ["q1"]
    assert "q1" not in store.questions
    store.db.close()
    assert "q1" not in poll.Store(str(tmp_path / "s"), key=KEY).questions


# --- the counts against an oracle, for generated lectures -------------------------------------------

USERS = ["ada", "ben", "chloe", "dan"]
STEP = st.one_of(
    st.tuples(st.just("vote"), st.sampled_from(USERS), st.integers(-1, 4),
              st.sampled_from(["1", "2", "observation"])),
    st.tuples(st.just("open"), st.sampled_from([None, "1", "2", "observation"])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, max_size=40))
def test_counts_equal_each_users_last_accepted_vote(tmp_path_factory, steps):
    state = str(tmp_path_factory.mktemp("oracle"))
    store = poll.Store(state, key=KEY)
    store.declare("q", options=4, open_="1")
    oracle = {"1": {}, "2": {}, "observation": {}}
    is_open = "1"
    for step in steps:
        if step[0] == "open":
            is_open = step[1]
            store.declare("q", open_=is_open)
            continue
        _, user, option, rnd = step
        accepted = rnd == is_open and 0 <= option < 4
        try:
            store.vote("q", rnd, user, option)
            assert accepted
            oracle[rnd][user] = option
        except poll.Refused as refused:
            assert not accepted and refused.status in (400, 409)
    counts = store.counts("q")
    for rnd, votes in oracle.items():
        expected = [sum(1 for v in votes.values() if v == i) for i in range(4)]
        assert counts["counts"][rnd] == expected and counts["voters"][rnd] == len(votes)
    store.db.close()
    again = poll.Store(state, key=KEY)  # and the same after a restart
    assert again.counts("q") == counts
    again.db.close()


# --- the process a hub runs -------------------------------------------------------------------------

def _run_service(tmp_path, state_dir):
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, JUPYTERHUB_SERVICE_URL=f"http://127.0.0.1:{port}",
               JUPYTERHUB_SERVICE_PREFIX="/services/genviz-poll/",
               JUPYTERHUB_SERVICE_NAME="genviz-poll", JUPYTERHUB_API_TOKEN="unused",
               JUPYTERHUB_API_URL="http://127.0.0.1:9/hub/api")
    proc = subprocess.Popen([sys.executable, str(poll.__file__), f"--state-dir={state_dir}"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/services/genviz-poll/api/"
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(urllib.request.Request(url, headers={"Authorization": "token x"}),
                                   timeout=5)
        except urllib.error.HTTPError as e:
            return proc, e.code, e.read()
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(proc.stdout.read().decode())
            time.sleep(0.2)


def test_the_service_process_answers_and_stops_at_once_on_sigterm(tmp_path):
    import json
    import signal

    proc, status, body = _run_service(tmp_path, tmp_path / "state")
    try:
        # the hub at JUPYTERHUB_API_URL is unreachable here: the token check says so (503)
        assert status == 503 and "could not check the token" in json.loads(body)["error"]
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        print(f"\nSIGTERM -> exit in {time.monotonic() - t0:.2f} s")
    finally:
        proc.kill()
    assert (tmp_path / "state" / "votes.sqlite").exists()


def test_a_store_that_cannot_be_opened_keeps_the_service_up_saying_why(tmp_path):
    """JupyterHub will not start when a managed service exits at start: the votes must never
    take the hub down."""
    import json
    import signal

    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the state directory should be")
    proc, status, body = _run_service(tmp_path, blocker / "state")
    try:
        assert status == 503 and "could not open its store" in json.loads(body)["error"]
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()
    assert "cannot open the store" in proc.stdout.read().decode()
