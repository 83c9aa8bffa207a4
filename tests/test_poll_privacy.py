"""The room's votes kept as promised (issue #39, item 6): a cleared or expired vote is gone from
every file of the store (the raw bytes of votes.sqlite, -wal and -shm), no key that
re-identifies voters is kept beside the votes, the state folder is 0700 and its files 0600 from
the first start of a fresh trial hub, and an oversized body is refused with 413 also through
configurable-http-proxy (the hub's proxy), as deploy/poll/genviz_poll.py says, by every route
that takes a body, the lecture page's (deploy/poll/lecture.py) included."""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import subprocess
import time
from pathlib import Path

import pytest
import requests
from traitlets.config import PyFileConfigLoader

from hub_testing import require_proxy, terminate
from lecture_testing import LocalLectureService
from poll_testing import KEY, LocalPollService, poll

ROOT = Path(__file__).resolve().parent.parent
Q = "q-peak"
STUDENTS = ("t-ada", "t-ben", "t-chloe")


def _open(svc, qid=Q):
    assert svc.request("PUT", f"api/questions/{qid}", "t-instructor",
                       {"options": 3, "open": 1})[0] == 200


def _files(state: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(state.iterdir()) if p.is_file()}


def _found(state: Path, hashes) -> list[tuple[str, str]]:
    """(file, voter hash) for every voter hash found in the raw bytes of the store's files."""
    return [(name, h) for name, data in _files(state).items() for h in hashes
            if h.encode() in data]


def _voters(svc):
    return [svc.store.voter(svc.tokens[t]["name"]) for t in STUDENTS]


def _class_votes(svc):
    for qid in ("q1", "q2"):
        _open(svc, qid)
        for i, token in enumerate(STUDENTS):
            assert svc.request("POST", "api/votes", token,
                               {"question": qid, "option": i % 3})[0] == 200
    hashes = _voters(svc)
    assert {h for _, h in _found(svc.state_dir, hashes)} == set(hashes)  # the test can see them
    return hashes


# --- cleared votes are gone from disk -------------------------------------------------------------

@pytest.mark.parametrize("clear", ["one question at a time", "everything"])
def test_cleared_votes_leave_no_voter_in_any_file(tmp_path, clear):
    svc = LocalPollService(tmp_path / "state")
    try:
        hashes = _class_votes(svc)
        if clear == "everything":
            assert svc.request("DELETE", "api/questions", "t-instructor")[1] == {"deleted": 2}
        else:
            for qid in ("q1", "q2"):
                assert svc.request("DELETE", f"api/questions/{qid}", "t-instructor")[0] == 200
        # read while the service still runs (its connection open, the WAL in use) ...
        assert _found(svc.state_dir, hashes) == []
        assert set(_files(svc.state_dir)) <= {"votes.sqlite", "votes.sqlite-wal", "votes.sqlite-shm"}
    finally:
        svc.stop()
    assert _found(tmp_path / "state", hashes) == []  # ... and after it stopped


def test_one_cleared_question_leaves_the_others_votes(tmp_path):
    svc = LocalPollService(tmp_path / "state")
    try:
        _class_votes(svc)
        assert svc.request("DELETE", "api/questions/q1", "t-instructor")[0] == 200
        assert svc.counts("q2")["voters"]["1"] == 3 and svc.counts("q2")["counts"]["1"] == [1, 1, 1]
    finally:
        svc.stop()


def test_expired_votes_leave_no_voter_in_any_file(tmp_path):
    state = tmp_path / "state"
    store = poll.Store(str(state), keep_hours=12, key=KEY)
    store.declare(Q, options=2, open_="1")
    for user in ("ada", "ben"):
        store.vote(Q, "1", user, 1)
    hashes = [store.voter("ada"), store.voter("ben")]
    assert _found(state, hashes)
    assert store.expire(now=time.time() + 13 * 3600) == [Q]
    assert _found(state, hashes) == []
    store.db.close()


def test_without_the_checkpoint_the_log_keeps_the_cleared_voters(tmp_path, monkeypatch):
    """The planted fault: the raw-bytes check finds the voters when the deletion does not
    empty the write-ahead log (as before issue #39)."""
    monkeypatch.setattr(poll.Store, "_checkpoint", lambda self: None)
    svc = LocalPollService(tmp_path / "state")
    try:
        hashes = _class_votes(svc)
        svc.request("DELETE", "api/questions", "t-instructor")
        assert {name for name, _ in _found(svc.state_dir, hashes)} == {"votes.sqlite-wal"}
    finally:
        svc.stop()


# --- no key beside the votes ------------------------------------------------------------------------

def test_the_voter_key_comes_from_the_service_token_and_is_never_stored(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "token-of-this-hub-start")
    a = poll.Store(str(tmp_path / "a"))
    b = poll.Store(str(tmp_path / "b"))  # the hub restarting a killed service: same token
    assert a.voter("ada") == b.voter("ada") != a.voter("ben")
    assert a.key == poll.voter_key("token-of-this-hub-start") and a.key not in \
        b"token-of-this-hub-start"  # derived, not the token itself
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "token-of-the-next-hub-start")
    c = poll.Store(str(tmp_path / "c"))
    assert c.voter("ada") != a.voter("ada")  # a new hub start, a new key
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN")
    d, e = poll.Store(str(tmp_path / "d")), poll.Store(str(tmp_path / "e"))
    assert d.voter("ada") != e.voter("ada")  # no hub: random per process
    for store, name in ((a, "a"), (c, "c"), (d, "d")):
        store.declare(Q, options=2, open_="1")
        store.vote(Q, "1", "ada", 0)
        for data in _files(tmp_path / name).values():
            assert store.key not in data
        assert set(_files(tmp_path / name)) <= {"votes.sqlite", "votes.sqlite-wal", "votes.sqlite-shm"}
    for s in (a, b, c, d, e):
        s.db.close()
    with pytest.raises(ValueError, match="key must be at least 16 bytes"):
        poll.Store(str(tmp_path / "f"), key=b"short")


def test_an_old_key_file_is_removed_at_start(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "voter_key").write_bytes(os.urandom(32))
    store = poll.Store(str(state), key=KEY)
    assert not (state / "voter_key").exists()
    store.db.close()


# --- modes from the first start ------------------------------------------------------------------------

def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _assert_private(state: Path) -> None:
    assert _mode(state) == 0o700, oct(_mode(state))
    files = _files(state)
    assert "votes.sqlite" in files and "votes.sqlite-wal" in files
    for name in files:
        assert _mode(state / name) == 0o600, (name, oct(_mode(state / name)))


def test_a_fresh_trial_hub_keeps_the_votes_private_from_the_first_start(tmp_path, monkeypatch):
    """The trial hub's config creates the folder before the service starts (the service's own
    0700 came too late); with the usual umask 022 the folder is 0700 and every file 0600."""
    old = os.umask(0o022)
    try:
        for k, v in {"HUB_PORT": "18400", "GENVIZ_HUB_HOME": str(tmp_path / "home"),
                     "GENVIZ_HUB_STATE": str(tmp_path / "state")}.items():
            monkeypatch.setenv(k, v)
        path = ROOT / "deploy" / "jupyterhub_config.py"
        c = PyFileConfigLoader(path.name, path=str(path.parent)).load_config()
        (entry,) = [s for s in c.JupyterHub.services if s["name"] == "genviz-poll"]
        state = Path(entry["cwd"])
        assert _mode(state) == 0o700 and _mode(tmp_path / "state") == 0o700
        arg = next(a for a in entry["command"] if a.startswith("--state-dir="))
        assert Path(arg.split("=", 1)[1]) == state
        store = poll.Store(str(state), key=KEY)  # the service's first start
        store.declare(Q, options=2, open_="1")
        store.vote(Q, "1", "ada", 1)
        _assert_private(state)
        store.db.close()
    finally:
        os.umask(old)


def test_a_loose_folder_and_files_are_made_private_at_start(tmp_path):
    """A folder and database left 0755/0644 (by a hub config or an older version) are fixed."""
    state = tmp_path / "state"
    store = poll.Store(str(state), key=KEY)
    store.declare(Q, options=2, open_="1")
    store.db.close()
    os.chmod(state, 0o755)
    for p in state.iterdir():
        os.chmod(p, 0o644)
    store = poll.Store(str(state), key=KEY)
    store.vote(Q, "1", "ada", 1)
    _assert_private(state)
    store.db.close()


def test_every_deployment_makes_the_folder_private():
    """TLJH's setup.sh makes it 0700 for the service's user; Z2JH leaves it to the service (a
    folder on the hub's volume that the service creates); the trial hub through hub_config."""
    setup = (ROOT / "deploy" / "tljh" / "setup.sh").read_text()
    assert 'chmod 700 "$POLL_STATE"' in setup
    text = (ROOT / "deploy" / "poll" / "hub_config.py").read_text()
    assert "mode=0o700" in text and "chmod" in text


# --- an oversized body through the hub's proxy ---------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _proxy(target_port: int):
    """configurable-http-proxy on a free 127.0.0.1 port in front of ``target_port``; yields
    the proxy's port and stops it (by its PID) after."""
    chp = require_proxy()
    port, api = _free_port(), _free_port()
    proc = subprocess.Popen(
        [chp, "--ip=127.0.0.1", f"--port={port}", "--api-ip=127.0.0.1", f"--api-port={api}",
         f"--default-target=http://127.0.0.1:{target_port}", "--log-level=warn"],
        env=dict(os.environ, CONFIGPROXY_AUTH_TOKEN="proxy-test-token"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("configurable-http-proxy did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        terminate(proc, 10)


@pytest.fixture()
def proxied(tmp_path):
    svc = LocalPollService(tmp_path / "state")
    direct = svc.url
    try:
        with _proxy(svc.port) as port:
            svc.url = f"http://127.0.0.1:{port}/services/genviz-poll/"
            yield svc
    finally:
        svc.url = direct
        svc.stop()


@pytest.mark.parametrize("size", [2000, 3 * 1024 * 1024])
def test_an_oversized_body_through_the_proxy_gets_the_documented_413(proxied, size):
    _open(proxied)
    before = proxied.counts(Q)
    status, answer = proxied.request("POST", "api/votes", "t-ada", raw=b"x" * size)
    assert status == 413 and answer["error"] == "the request body is over 1024 bytes", answer
    assert proxied.counts(Q) == before
    assert proxied.request("POST", "api/votes", "t-ada", {"question": Q, "option": 1})[0] == 200
    doc = " ".join(poll.__doc__.split())
    assert "a body over 1 KB (413)" in doc and "through the hub's proxy" in doc


# --- every route that takes a body, the lecture page's included (issue #39, item 6) -----------------

def _body_routes(app) -> list[tuple[str, str, type]]:
    """(path, method, handler class) for every route of ``app`` whose handler takes a body
    (POST, PUT, PATCH or DELETE), read from the application's own routing table: a route added
    later is in it."""
    from tornado import web

    out = []
    for rule in app.wildcard_router.rules:
        cls = rule.target
        methods = [m.upper() for m in ("post", "put", "patch", "delete")
                   if getattr(cls, m) is not getattr(web.RequestHandler, m)]
        if not methods:
            continue
        path = rule.matcher.reverse(*[Q] * rule.matcher.regex.groups)
        assert path is not None, f"{rule.matcher.regex.pattern}: no path to test it with"
        out += [(path, method, cls) for method in methods]
    return out


def _send(svc, phone, base, path, method, cls, data):
    """One request as the route's callers make it: a hub token (the kernels' and the lecturer's
    panel's API) or a phone's login cookie and the page's XSRF token (the lecture page)."""
    from jupyterhub.services.auth import HubOAuthenticated

    if issubclass(cls, poll.Base):
        session, headers = requests.Session(), {"Authorization": "token t-instructor"}
    elif issubclass(cls, HubOAuthenticated):
        session, headers = phone.s, {"X-XSRFToken": phone.xsrf, "Sec-Fetch-Mode": "cors",
                                     "Sec-Fetch-Site": "same-origin"}
    else:
        raise AssertionError(f"{path}: {cls.__name__} is a new kind of handler; say here how "
                             f"its callers log in")
    try:
        r = session.request(method, base + path, data=data, headers=headers, timeout=60)
    except requests.RequestException as exc:
        return f"no answer ({type(exc).__name__})", None
    try:
        return r.status_code, r.json()
    except ValueError:
        return r.status_code, r.text[:80]


@pytest.mark.parametrize("size", [2000, 3 * 1024 * 1024])
def test_every_route_that_takes_a_body_refuses_an_oversized_one_with_413(tmp_path, size):
    svc = LocalLectureService(tmp_path / "state")
    try:
        assert svc.api("PUT", f"api/questions/{Q}", "t-instructor",
                       {"options": 3, "open": 1})[0] == 200
        phone = svc.phone("ada")
        assert phone.open().status_code == 200 and phone.xsrf
        routes = _body_routes(svc.server.request_callback)
        named = {(path.split("/services/genviz-poll/", 1)[1], method) for path, method, _ in routes}
        assert {("api/votes", "POST"), (f"api/questions/{Q}", "PUT"),
                ("lecture/api/vote", "POST")} <= named, named
        before = (svc.store.counts(Q), sorted(svc.store.questions))
        wrong = []
        with _proxy(svc.port) as port:
            for via, base in (("directly", svc.base), ("through the proxy",
                                                       f"http://127.0.0.1:{port}")):
                for path, method, cls in routes:
                    status, answer = _send(svc, phone, base, path, method, cls, b"x" * size)
                    if status != 413 or not isinstance(answer, dict) \
                            or answer.get("error") != "the request body is over 1024 bytes":
                        wrong.append(f"{method} {path} {via}: {status} {answer!r}")
            assert not wrong, "\n".join(wrong)
            assert (svc.store.counts(Q), sorted(svc.store.questions)) == before
            # the service still answers, through the proxy too
            proxied_phone = requests.post(
                f"http://127.0.0.1:{port}/services/genviz-poll/lecture/api/vote",
                json={"question": Q, "round": 1, "option": 2}, cookies=phone.s.cookies,
                headers={"X-XSRFToken": phone.xsrf, "Sec-Fetch-Mode": "cors",
                         "Sec-Fetch-Site": "same-origin"}, timeout=30)
            assert proxied_phone.status_code == 200, proxied_phone.text
        assert svc.store.mine(Q, "ada")["1"] == 2
    finally:
        svc.stop()
