"""The room votes on a real trial hub (``deploy/run_hub.py``): the poll service started by the
hub, students identified by their servers' own hub tokens -- the ``JUPYTERHUB_API_TOKEN`` each
single-user server gets and its kernels inherit, read here from the server process -- and
genviz.widgets.room used exactly as a kernel would use it, with the server's environment.

Checks what only a real hub can: the server tokens carry the service's access (and the
lecturer's scope for the group ``instructors`` only), a student cannot read the counts,
close a round or pass for another user, the hub restarts a killed poll service with no vote
lost, and stopping the hub stops the service. About a minute on 2 cores.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time

import psutil
import pytest

from genviz.widgets import room
from hub_testing import TrialHub, alive, cleanup, wait_gone

pytestmark = pytest.mark.slow
STUDENTS = ["ada", "ben", "chloe"]
Q = "q-hub-test"


@pytest.fixture(scope="module")
def hub():
    h = TrialHub()
    try:
        h.start()
        h.start_servers([*STUDENTS, "instructor"])
        yield h
    finally:
        cleanup(h)


def _server_env(hub, user) -> dict:
    """The environment of ``user``'s single-user server: what its kernels inherit."""
    for pid in hub.processes():
        try:
            p = psutil.Process(pid)
            if "jupyterhub-singleuser" in " ".join(p.cmdline()):
                env = p.environ()
                if env.get("JUPYTERHUB_USER") == user:
                    return env
        except psutil.Error:
            continue
    raise AssertionError(f"no server of {user}")


def _poll_pid(hub) -> int:
    (pid,) = [p for p in hub.processes()
              if "genviz_poll.py" in " ".join(psutil.Process(p).cmdline())]
    return pid


def test_the_hubs_database_writes_ahead(hub):
    """deploy/hub_db.py on the trial hub: its sqlite in WAL mode (a login does not wait for a
    disk flush; benchmarks/lecture.md). The mode is stored in the file: sqlite reports it."""
    db = sqlite3.connect(f"file:{hub.state / 'jupyterhub.sqlite'}?mode=ro", uri=True)
    try:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        db.close()


def test_server_tokens_reach_the_service_with_the_right_powers(hub):
    for user in STUDENTS:
        env = _server_env(hub, user)
        assert env["GENVIZ_POLL_URL"] == f"http://127.0.0.1:{hub.port + 3}/services/genviz-poll/"
        who = room.connect(env).whoami()
        assert who.ok and who.data == {"service": "genviz-poll", "user": user, "lecturer": False}
    who = room.connect(_server_env(hub, "instructor")).whoami()
    assert who.ok and who.data["lecturer"] is True


def test_three_students_vote_and_the_lecturer_sees_the_counts(hub):
    lecturer = room.connect(_server_env(hub, "instructor"))
    assert lecturer.set_state(Q, options=3, open=1).ok
    for user, option in zip(STUDENTS, [0, 2, 2]):
        assert room.vote(Q, option, env=_server_env(hub, user)).result(timeout=15).ok
    q = lecturer.question(Q)
    assert q.ok and q.data["counts"]["1"] == [1, 0, 2] and q.data["voters"]["1"] == 3
    # a second vote changes them
    assert lecturer.set_state(Q, open=2).ok
    for user in STUDENTS:
        assert room.vote(Q, 0, round=2, env=_server_env(hub, user)).result(timeout=15).ok
    assert lecturer.question(Q).data["counts"]["2"] == [3, 0, 0]


def test_a_student_cannot_read_the_counts_close_a_round_or_vote_as_someone_else(hub):
    lecturer = room.connect(_server_env(hub, "instructor"))
    lecturer.set_state("q-rights", options=2, open=1)
    ada = room.connect(_server_env(hub, "ada"))
    before = lecturer.question("q-rights").data
    assert ada.question("q-rights").status == 403
    assert ada.set_state("q-rights", open=None).status == 403
    assert ada.delete("q-rights").status == 403
    outcome = ada.request("POST", "api/votes", {"question": "q-rights", "option": 1, "user": "ben"})
    assert outcome.status == 400
    forged = room.Room(ada.url, "not-a-token")
    assert forged.vote("q-rights", 1).status == 401
    # ben's own token is ben's: the service never learns a name from the request
    assert room.connect(_server_env(hub, "ben")).my_votes("q-rights").data["votes"]["1"] is None
    after = lecturer.question("q-rights").data
    assert after["counts"] == before["counts"] and after["open"] == 1


def test_the_hub_restarts_a_killed_poll_service_and_no_vote_is_lost(hub):
    lecturer = room.connect(_server_env(hub, "instructor"))
    lecturer.set_state("q-restart", options=2, open=1)
    for user, option in zip(STUDENTS, [1, 1, 0]):
        room.vote("q-restart", option, env=_server_env(hub, user)).result(timeout=15)
    before = lecturer.question("q-restart").data
    old = _poll_pid(hub)
    os.kill(old, signal.SIGKILL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        outcome = lecturer.question("q-restart")
        if outcome.ok:
            break
        time.sleep(0.5)
    assert outcome.ok, f"the poll service did not come back: {outcome}"
    assert _poll_pid(hub) != old
    assert outcome.data["counts"] == before["counts"] and outcome.data["open"] == 1
    # the round is still open: a vote goes on counting
    assert room.vote("q-restart", 0, env=_server_env(hub, "ada")).result(timeout=15).ok
    assert lecturer.question("q-restart").data["counts"]["1"] == [2, 1]


def test_stopping_the_hub_stops_the_poll_service(hub):
    pid = _poll_pid(hub)
    everything = hub.remember()
    hub.signal(signal.SIGINT)
    took, left = wait_gone(everything, timeout=30)
    assert not alive(pid) and not left
    print(f"\nhub with 4 servers and the poll service stopped in {took:.1f} s")
