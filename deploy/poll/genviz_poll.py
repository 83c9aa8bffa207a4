"""The room votes (issue #31): a JupyterHub service that counts a class's predictions.

A hub-managed service (deploy/poll/hub_config.py adds it to the trial hub and TLJH,
deploy/z2jh/values.yaml to Zero to JupyterHub). It needs only what every hub has: tornado,
jupyterhub's ``HubAuth`` and sqlite3. Students' kernels talk to it with their server's hub
token (``genviz.widgets.room``); a browser never does.

Who is who comes from the hub alone: a request carries a hub API token
(``Authorization: token ...``) and the hub says whose it is and what it may do.

* a **student** (any user whose token has ``access:services!service=<this service>``) votes on
  an open round, changes the vote until the round closes, reads back their own votes and which
  round is open (``GET api/votes/<question>``: how their box knows a second vote can count),
  and reads a question's counts only after the lecturer's reveal;
* a **lecturer** (the token also holds ``custom:genviz-poll:lecture``, given by a role to the
  hub group ``instructors``) declares a question with its number of options, opens, closes and
  reveals rounds, reads the counts live (long poll: ``?since=<version>&wait=<s>``) and deletes
  a question's votes or all of them.

What is stored, in ``<state dir>/votes.sqlite`` (the folder 0700, the files 0600, whatever
made the folder first): per question its number of options, which round is open, whether it
was revealed; per vote the question, the round (1, 2 or ``observation``), the option, and an
HMAC of the user name -- never the name, nothing else about the student. Every vote is
committed (sqlite, WAL) before it is acknowledged, so a restart or a killed service loses no
vote of an open round. Questions not touched for ``--keep-hours`` (12) are deleted: votes last
a lecture's session. A deleted vote is gone from the files, not only from the tables: sqlite's
``secure_delete`` overwrites the freed bytes and a ``wal_checkpoint(TRUNCATE)`` after every
deletion empties the write-ahead log (tests/test_poll_privacy.py reads the raw bytes).

**The voter key is never written to disk** (decided for issue #39): it is derived (HMAC) from
the service's hub API token, ``JUPYTERHUB_API_TOKEN``, which the hub hands the service in its
environment. Whoever holds that token or the key could hash a class list and re-identify the
votes; that is the hub's administrator only:

* trial hub and TLJH: a managed service without a configured token gets a new one at every
  hub start, kept in the hub's memory (its database holds only a hash). The key lives in
  memory and changes with every hub start: a copy of ``votes.sqlite`` re-identifies nobody.
  The hub restarting a killed service keeps the token, so a changed vote still replaces the
  old one; after a *hub* restart during an open round, a student who votes again is counted
  once more (close the round and open the next one);
* Zero to JupyterHub: the chart generates the service's token once and keeps it in the hub's
  Kubernetes Secret, readable by the cluster's administrators (who can read the hub's
  database and cookie secret anyway); the key is then stable across hub restarts;
* without a hub (tests, a manual run): a random key per process.

A ``voter_key`` file left by an older version is overwritten and removed at start.

Refused, changing nothing: no or unknown token (401), a token without the service's access or a
student doing a lecturer's action (403), an unknown question (404), a round that is not open or
a question re-declared with another number of options (409), a malformed body, a bad question
id, round or option (400), a body over 1 KB (413), more than ``--rate`` requests a second from
one user beyond a burst of ``--burst`` (429). A body is streamed, never held beyond its first
1 KB: an oversized one is read to its end and discarded, then refused with 413, so the answer
also reaches the caller through the hub's proxy (configurable-http-proxy reports a connection
closed while it still sends as 503). Only a body over 64 MB is not read: the connection is
closed (tornado's 400 directly; through the proxy a 503).

    python genviz_poll.py [--state-dir DIR] [--ip IP] [--keep-hours H]

It listens where the hub says (``JUPYTERHUB_SERVICE_URL``, its host unless ``--ip``) under
``JUPYTERHUB_SERVICE_PREFIX``; SIGTERM/SIGINT stop it at once.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import signal
import sqlite3
import time
from urllib.parse import urlparse

from tornado import httpserver, web

LECTURE_SCOPE = "custom:genviz-poll:lecture"
ROUNDS = ("1", "2", "observation")
QUESTION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}")
MIN_OPTIONS, MAX_OPTIONS = 2, 12
MAX_BODY = 1024
#: the server's limit for handlers that read a whole body (the lecture page's, lecture.py):
#: tornado refuses a larger one itself (400, connection closed) unread
MAX_REQUEST = 1024 * 1024
#: the votes API streams: bodies up to this size are read (only the first MAX_BODY + 1 bytes
#: kept) and refused with 413; larger ones are closed unread
MAX_STREAMED = 64 * 1024 * 1024
KEY_CONTEXT = b"genviz-poll voter key v1"
MAX_QUESTIONS = 500
MAX_WAIT_S = 25.0
log = logging.getLogger("genviz-poll")


class Refused(web.HTTPError):
    """A request refused with an HTTP status and a sentence saying why (the JSON body's
    ``error``). Not logged as an error: refusing is the service doing its job."""

    def __init__(self, status: int, message: str):
        super().__init__(status)
        self.status, self.message = status, message


def check_question_id(qid: str) -> str:
    if not isinstance(qid, str) or not QUESTION_ID.fullmatch(qid):
        raise Refused(400, "question must be 1-80 letters, digits or _.:- (starting with a "
                           "letter or digit)")
    return qid


def check_round(value) -> str:
    if isinstance(value, bool) or str(value) not in ROUNDS or not isinstance(value, (int, str)):
        raise Refused(400, "round must be 1, 2 or \"observation\"")
    return str(value)


def round_json(r: str | None):
    return None if r is None else (int(r) if r.isdigit() else r)


# --- the store ---------------------------------------------------------------------------------

def voter_key(token: str | None = None) -> bytes:
    """The key of the voters' HMAC: derived from the service's hub API token (``token``, else
    ``JUPYTERHUB_API_TOKEN``), or random for this process when there is none. Never stored."""
    token = os.environ.get("JUPYTERHUB_API_TOKEN", "") if token is None else token
    if not token:
        return secrets.token_bytes(32)
    return hmac.new(token.encode(), KEY_CONTEXT, hashlib.sha256).digest()


def private_dir(path: str) -> None:
    """``path`` exists and is 0700, however it was made (a hub config may have made it 0755)."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    if os.stat(path).st_mode & 0o077:
        os.chmod(path, 0o700)


def private_file(path: str) -> None:
    """``path`` exists and is 0600 (sqlite creates -wal and -shm with the database's mode)."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    if os.stat(path).st_mode & 0o077:
        os.chmod(path, 0o600)


class Store:
    """Questions and votes in sqlite, mirrored in memory; every change written before it is
    acknowledged. Voters are kept as an HMAC of their name under ``key`` (default:
    :func:`voter_key`), which is never written down."""

    def __init__(self, state_dir: str, keep_hours: float = 12.0, key: bytes | None = None):
        private_dir(state_dir)
        self.keep_s = keep_hours * 3600
        self.key = voter_key() if key is None else key
        if len(self.key) < 16:
            raise ValueError("key must be at least 16 bytes")
        self._forget_old_key(os.path.join(state_dir, "voter_key"))
        path = os.path.join(state_dir, "votes.sqlite")
        for p in (path, path + "-wal", path + "-shm"):
            if p == path or os.path.exists(p):
                private_file(p)
        self.db = sqlite3.connect(path, isolation_level=None)
        # a deleted row's bytes are overwritten, not only unlinked from the b-tree
        self.db.execute("PRAGMA secure_delete=ON")
        self.db.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a committed vote survives the service being killed or restarted (what
        # a hub does to it); only a power cut could lose the last ones. FULL would fsync once
        # per vote, in the event loop: 10-50 ms each on a busy disk, the service's bottleneck.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript("""
            CREATE TABLE IF NOT EXISTS questions (
                id TEXT PRIMARY KEY, options INTEGER NOT NULL, open TEXT, revealed INTEGER NOT NULL,
                version INTEGER NOT NULL, updated REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS votes (
                question TEXT NOT NULL, round TEXT NOT NULL, voter TEXT NOT NULL,
                option INTEGER NOT NULL, PRIMARY KEY (question, round, voter));
        """)
        self.questions: dict[str, dict] = {}
        self.votes: dict[str, dict[str, dict[str, int]]] = {}
        for qid, options, open_, revealed, version, updated in self.db.execute(
                "SELECT id, options, open, revealed, version, updated FROM questions"):
            self.questions[qid] = {"options": options, "open": open_, "revealed": bool(revealed),
                                   "version": version, "updated": updated}
            self.votes[qid] = {r: {} for r in ROUNDS}
        for qid, rnd, voter, option in self.db.execute(
                "SELECT question, round, voter, option FROM votes"):
            if qid in self.votes and rnd in ROUNDS:
                self.votes[qid][rnd][voter] = option
        self.changed: dict[str, asyncio.Event] = {}
        self.expire()
        self._checkpoint()  # whatever an older version left in the log

    @staticmethod
    def _forget_old_key(path: str) -> None:
        """An older version kept the key beside the votes: overwrite it and remove it."""
        try:
            size = os.path.getsize(path)
            with open(path, "r+b") as f:
                f.write(b"\0" * size)
                f.flush()
                os.fsync(f.fileno())
            os.remove(path)
            log.info("removed the voter key file %s (the key is no longer stored)", path)
        except FileNotFoundError:
            pass

    def _checkpoint(self) -> None:
        """Copy the write-ahead log into the database and empty it (after a deletion: the
        log still holds the deleted rows' pages until then)."""
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()

    def _tx(self):
        """One transaction (the connection is in autocommit mode otherwise)."""
        db = self.db

        class _Tx:
            def __enter__(self_):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self_, kind, value, tb):
                db.execute("COMMIT" if kind is None else "ROLLBACK")

        return _Tx()

    def voter(self, user: str) -> str:
        return hmac.new(self.key, user.encode(), hashlib.sha256).hexdigest()[:32]

    def _save(self, qid: str, q: dict) -> dict:
        """Write the question's state with the next version; returns the new state (the
        caller puts it in memory once the transaction is committed)."""
        new = {**q, "version": q["version"] + 1, "updated": time.time()}
        self.db.execute("UPDATE questions SET options=?, open=?, revealed=?, version=?, updated=? "
                        "WHERE id=?", (new["options"], new["open"], int(new["revealed"]),
                                       new["version"], new["updated"], qid))
        return new

    def _changed(self, qid: str, new: dict) -> None:
        self.questions[qid] = new
        event = self.changed.pop(qid, None)
        if event is not None:
            event.set()

    def get(self, qid: str) -> dict:
        if qid not in self.questions:
            raise Refused(404, f"unknown question {qid!r}: the lecturer has not opened it")
        return self.questions[qid]

    def declare(self, qid: str, options=None, open_=..., revealed=None) -> dict:
        """Create a question, or change which round is open / whether it is revealed."""
        new_question = qid not in self.questions
        if new_question:
            if options is None:
                raise Refused(400, "options (the number of options, 2-12) is needed to open a "
                                   "new question")
            if len(self.questions) >= MAX_QUESTIONS:
                raise Refused(409, f"{MAX_QUESTIONS} questions are stored already: delete old "
                                   f"ones (DELETE api/questions)")
            q = {"options": options, "open": None, "revealed": False, "version": 0,
                 "updated": time.time()}
        else:
            q = dict(self.questions[qid])
            if options is not None and options != q["options"] and any(self.votes[qid].values()):
                raise Refused(409, f"question {qid!r} has {q['options']} options and votes; "
                                   f"delete it before declaring {options}")
        if options is not None:
            q["options"] = options
        if open_ is not ...:
            q["open"] = open_
        if revealed is not None:
            q["revealed"] = revealed
        with self._tx():
            if new_question:
                self.db.execute("INSERT INTO questions VALUES (?, ?, NULL, 0, 0, ?)",
                                (qid, q["options"], q["updated"]))
            new = self._save(qid, q)
        if new_question:
            self.votes[qid] = {r: {} for r in ROUNDS}
        self._changed(qid, new)
        return new

    def vote(self, qid: str, rnd: str, user: str, option: int) -> bool:
        q = self.get(qid)
        if q["open"] != rnd:
            state = f"round {q['open']} is open" if q["open"] else "no round is open"
            raise Refused(409, f"round {rnd} of {qid!r} is not open ({state}); votes count only "
                               f"while the lecturer has the round open")
        if not 0 <= option < q["options"]:
            raise Refused(400, f"option {option} is out of range: question {qid!r} has "
                               f"{q['options']} options (0-{q['options'] - 1})")
        voter = self.voter(user)
        if self.votes[qid][rnd].get(voter) == option:
            return False
        with self._tx():
            self.db.execute("INSERT OR REPLACE INTO votes VALUES (?, ?, ?, ?)",
                            (qid, rnd, voter, option))
            new = self._save(qid, q)
        self.votes[qid][rnd][voter] = option
        self._changed(qid, new)
        return True

    def mine(self, qid: str, user: str) -> dict:
        self.get(qid)
        voter = self.voter(user)
        return {r: self.votes[qid][r].get(voter) for r in ROUNDS}

    def counts(self, qid: str) -> dict:
        q = self.get(qid)
        counts, voters = {}, {}
        for r in ROUNDS:
            c = [0] * q["options"]
            for option in self.votes[qid][r].values():
                c[option] += 1
            counts[r], voters[r] = c, len(self.votes[qid][r])
        return {"question": qid, "options": q["options"], "open": round_json(q["open"]),
                "revealed": q["revealed"], "version": q["version"], "counts": counts,
                "voters": voters}

    def delete(self, qid: str | None = None) -> int:
        ids = [qid] if qid is not None else list(self.questions)
        for i in ids:
            self.get(i)
        with self._tx():
            for i in ids:
                self.db.execute("DELETE FROM votes WHERE question=?", (i,))
                self.db.execute("DELETE FROM questions WHERE id=?", (i,))
        self._checkpoint()
        for i in ids:
            self.questions.pop(i)
            self.votes.pop(i)
            event = self.changed.pop(i, None)
            if event is not None:
                event.set()
        return len(ids)

    def expire(self, now: float | None = None) -> list[str]:
        now = time.time() if now is None else now
        old = [qid for qid, q in self.questions.items() if now - q["updated"] > self.keep_s]
        for qid in old:
            self.delete(qid)
        return old

    async def wait(self, qid: str, since: int, timeout: float) -> None:
        """Return when the question's version passes ``since`` or after ``timeout`` s."""
        if self.get(qid)["version"] > since:
            return
        event = self.changed.setdefault(qid, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except asyncio.TimeoutError:
            pass


class RateLimit:
    """A token bucket per user: ``burst`` requests at once, refilled at ``rate`` a second."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, user: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, last = self.buckets.get(user, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[user] = (tokens, now)
            return False
        self.buckets[user] = (tokens - 1, now)
        return True


# --- the web API -------------------------------------------------------------------------------

class StreamedBody:
    """A streamed request body, kept to its first MAX_BODY + 1 bytes: a mixin placed before
    ``web.RequestHandler`` in a ``@web.stream_request_body`` handler's bases. Shared by the
    votes API (:class:`Base`) and the lecture page's handlers (lecture.py, which this script
    loads by path and hands this class to, so it is written once).

    Every request method a subclass defines refuses first a body over MAX_BODY bytes with 413,
    once the body has been read to its end: an answer sent while the caller still sends is
    lost behind a proxy (the hub's: a 503 page). ``prepare`` calls :meth:`stream_body` before
    the body is read; bodies up to MAX_STREAMED are read (the rest counted and dropped),
    larger ones closed unread. An answer given before the method ran (a refused login or
    token in ``prepare``) calls :meth:`close_if_unread`: tornado then closes the connection,
    so the client is told not to send its next request on it (``Connection: close``)."""

    METHODS = ("get", "post", "put", "patch", "delete")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in StreamedBody.METHODS:
            if name in cls.__dict__:
                setattr(cls, name, StreamedBody._sized(cls.__dict__[name]))

    @staticmethod
    def _sized(method):
        @functools.wraps(method)
        def checked(self, *args):
            self.body_read = True
            if self.body_size > MAX_BODY:
                self.refuse(413, f"the request body is over {MAX_BODY} bytes")
            return method(self, *args)

        return checked

    def stream_body(self) -> None:
        """Start keeping the body: called first in ``prepare``."""
        self.body_bytes, self.body_size, self.body_read = b"", 0, False
        self.request.connection.set_max_body_size(MAX_STREAMED)

    def data_received(self, chunk: bytes) -> None:
        self.body_size += len(chunk)
        if len(self.body_bytes) <= MAX_BODY:
            self.body_bytes += chunk[:MAX_BODY + 1 - len(self.body_bytes)]

    def refuse(self, status: int, message: str):
        raise web.HTTPError(status, message)

    def close_if_unread(self) -> None:
        if not getattr(self, "body_read", False):
            self.set_header("Connection", "close")


@web.stream_request_body
class Base(StreamedBody, web.RequestHandler):
    """JSON in and out; the caller identified by the hub from their token before anything.

    The body is streamed (:class:`StreamedBody`)."""

    def initialize(self, app_state):
        self.s = app_state
        self.body_bytes, self.body_size = b"", 0

    def refuse(self, status: int, message: str):
        raise Refused(status, message)

    def set_default_headers(self):
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")

    def check_xsrf_cookie(self):
        """Tokens only, never cookies: no cross-site request can carry a token."""

    async def prepare(self):
        self.stream_body()
        if self.s["store"] is None:
            raise Refused(503, f"the poll service could not open its store "
                               f"({self.s['store_error']}); the hub's log says more")
        header = self.request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() not in ("token", "bearer") or not token.strip():
            raise Refused(401, "no hub login: send the hub API token of your server "
                               "(Authorization: token ...)")
        try:
            model = await self.s["hub_auth"].user_for_token(token.strip(), sync=False)
        except Exception:  # the hub is down or slow: say so, never crash
            log.warning("the hub did not answer a token check", exc_info=True)
            raise Refused(503, "the hub could not check the token; try again") from None
        if not model:
            raise Refused(401, "this token is not a valid hub login")
        scopes = set(model.get("scopes") or ())
        if not self.s["check_scopes"]({self.s["access_scope"]}, scopes):
            raise Refused(403, f"this login may not use the service ({self.s['access_scope']} "
                               f"is missing)")
        if model.get("kind", "user") != "user":
            raise Refused(403, "only users vote or lecture, not services")
        self.user = model["name"]
        self.lecturer = bool(self.s["check_scopes"]({LECTURE_SCOPE}, scopes))
        if not (self.lecturer and self.request.method == "GET") and \
                not self.s["rate"].allow(self.user):
            raise Refused(429, f"too many requests: at most {self.s['rate'].rate:g} a second "
                               f"(after a burst of {self.s['rate'].burst})")

    def body(self, allowed: set, required: set = frozenset()) -> dict:
        try:
            data = json.loads(self.body_bytes)
        except (ValueError, UnicodeDecodeError):
            raise Refused(400, "the body must be a JSON object") from None
        if not isinstance(data, dict):
            raise Refused(400, "the body must be a JSON object")
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise Refused(400, f"unknown field(s) {', '.join(map(repr, unknown))}; allowed: "
                               f"{', '.join(sorted(allowed))}")
        missing = sorted(required - set(data))
        if missing:
            raise Refused(400, f"missing field(s) {', '.join(map(repr, missing))}")
        return data

    def need_lecturer(self):
        if not self.lecturer:
            raise Refused(403, "only the hub's instructors (the group given the "
                               f"{LECTURE_SCOPE} scope) may do this")

    def send(self, data, status=200):
        self.set_status(status)
        self.finish(json.dumps(data))

    def write_error(self, status_code, **kwargs):
        exc = kwargs.get("exc_info", (None, None))[1]
        message = exc.message if isinstance(exc, Refused) else self._reason
        self.close_if_unread()
        self.finish(json.dumps({"error": message, "status": status_code}))

    def log_exception(self, typ, value, tb):
        if not isinstance(value, Refused):
            super().log_exception(typ, value, tb)


class Who(Base):
    def get(self):
        self.send({"service": self.s["name"], "user": self.user, "lecturer": self.lecturer})


def check_option(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(400, "option must be an integer (0 for the first option)")
    return value


class Votes(Base):
    def post(self):
        data = self.body({"question", "option", "round"}, {"question", "option"})
        qid = check_question_id(data["question"])
        rnd = check_round(data.get("round", 1))
        option = check_option(data["option"])
        changed = self.s["store"].vote(qid, rnd, self.user, option)
        self.send({"question": qid, "round": round_json(rnd), "option": option,
                   "changed": changed})


class MyVotes(Base):
    def get(self, qid):
        """A student's own votes, and which round is open (so their box knows whether a
        "vote again" can count): never anybody else's votes or the counts."""
        store = self.s["store"]
        mine = store.mine(check_question_id(qid), self.user)
        q = store.get(qid)
        self.send({"question": qid, "votes": {k: v for k, v in mine.items()},
                   "open": round_json(q["open"]), "revealed": q["revealed"]})


class Questions(Base):
    def get(self):
        self.need_lecturer()
        store = self.s["store"]
        self.send({"questions": [
            {k: v for k, v in store.counts(qid).items() if k != "counts"} for qid in store.questions]})

    def delete(self):
        self.need_lecturer()
        self.send({"deleted": self.s["store"].delete()})


class Question(Base):
    async def get(self, qid):
        check_question_id(qid)
        store = self.s["store"]
        if not self.lecturer:
            if not store.get(qid)["revealed"]:
                raise Refused(403, "the counts are the lecturer's until the reveal")
            self.send(store.counts(qid))
            return
        since, wait = self.get_argument("since", None), self.get_argument("wait", "0")
        try:
            wait_s = min(MAX_WAIT_S, max(0.0, float(wait)))
            since_v = None if since is None else int(since)
        except ValueError:
            raise Refused(400, "since must be an integer version and wait a number of seconds") \
                from None
        if since_v is not None and wait_s > 0:
            await store.wait(qid, since_v, wait_s)
        self.send(store.counts(qid))

    def put(self, qid):
        self.need_lecturer()
        check_question_id(qid)
        data = self.body({"options", "open", "revealed"})
        options = data.get("options")
        if options is not None and (isinstance(options, bool) or not isinstance(options, int)
                                    or not MIN_OPTIONS <= options <= MAX_OPTIONS):
            raise Refused(400, f"options must be an integer from {MIN_OPTIONS} to {MAX_OPTIONS}")
        open_ = ...
        if "open" in data:
            open_ = None if data["open"] is None else check_round(data["open"])
        revealed = data.get("revealed")
        if revealed is not None and not isinstance(revealed, bool):
            raise Refused(400, "revealed must be true or false")
        self.s["store"].declare(qid, options, open_, revealed)
        self.send(self.s["store"].counts(qid))

    def delete(self, qid):
        self.need_lecturer()
        self.send({"deleted": self.s["store"].delete(check_question_id(qid))})


class NotFound(Base):
    async def prepare(self):
        raise Refused(404, "no such endpoint: see deploy/poll/genviz_poll.py")


def make_app(store: Store | None, hub_auth, *, prefix: str = "/services/genviz-poll/",
             name: str = "genviz-poll", rate: float = 2.0, burst: int = 10,
             check_scopes=None, store_error: str = "", lecture=None) -> web.Application:
    """The tornado application. ``hub_auth`` answers ``user_for_token(token, sync=False)``
    with the hub's model of the token's owner (a ``HubAuth`` on a hub, a stand-in in tests).
    Without a store (it could not be opened) every request gets 503 saying so."""
    if check_scopes is None:
        from jupyterhub.services.auth import check_scopes
    state = {"store": store, "store_error": store_error, "hub_auth": hub_auth, "name": name,
             "check_scopes": check_scopes,
             "access_scope": f"access:services!service={name}", "rate": RateLimit(rate, burst)}
    prefix = "/" + prefix.strip("/") + "/"
    q = r"([^/]+)"
    routes = [(r"api/?", Who), (r"api/votes", Votes), (rf"api/votes/{q}", MyVotes),
              (r"api/questions", Questions), (rf"api/questions/{q}", Question)]
    handlers = [(prefix + path, handler, {"app_state": state}) for path, handler in routes]
    # the lecture page (issue #37, deploy/poll/lecture.py): phones log in by the hub's OAuth
    lecture_mod = _lecture_module() if lecture is not None else None
    if lecture is not None:
        handlers += lecture_mod.routes(lecture, prefix, state["rate"], StreamedBody)
    return web.Application(handlers, default_handler_class=NotFound,
                           default_handler_args={"app_state": state}, log_function=_log_request,
                           **(lecture_mod.settings(lecture) if lecture is not None else {}))


def _lecture_module():
    """deploy/poll/lecture.py, beside this file (this file runs as a script)."""
    import importlib.util
    import sys

    name = "genviz_lecture"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lecture.py"))
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


def _log_request(handler):
    # method, path and status only: no body, no user name
    status = handler.get_status()
    level = logging.INFO if status < 500 else logging.ERROR
    log.log(level, "%d %s %s %.1fms", status, handler.request.method,
            handler.request.path, 1000 * handler.request.request_time())


# --- running -------------------------------------------------------------------------------------

def parse_args(argv=None):
    p = argparse.ArgumentParser(description="The room votes: genviz's poll service")
    p.add_argument("--state-dir", default=os.environ.get("GENVIZ_POLL_STATE", "genviz-poll-state"))
    p.add_argument("--ip", default=None, help="address to bind (default: JUPYTERHUB_SERVICE_URL's host)")
    p.add_argument("--keep-hours", type=float, default=12.0)
    p.add_argument("--rate", type=float, default=2.0, help="requests a second per user")
    p.add_argument("--burst", type=int, default=10)
    return p.parse_args(argv)


async def serve(args) -> None:
    from jupyterhub.services.auth import HubAuth

    url = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/genviz-poll/")
    name = os.environ.get("JUPYTERHUB_SERVICE_NAME", "genviz-poll")
    # JupyterHub does not start when a managed service exits at start: a store that cannot be
    # opened (an unwritable or full disk) must not take the hub down with the votes
    os.umask(0o077)  # whatever the service creates is its own
    try:
        store, store_error = Store(args.state_dir, args.keep_hours), ""
    except Exception as exc:  # noqa: BLE001 (any reason: say it on every request)
        log.exception("cannot open the store in %s", args.state_dir)
        store, store_error = None, f"{type(exc).__name__}: {exc}"
    # a token's owner is asked from the hub once, then cached for 5 min (HubAuth's default):
    # the hub's check commits to its database, the cost of a class's first votes
    lecture = None if store is None else _lecture_module().on_hub(store, args.state_dir)
    app = make_app(store, HubAuth(cache_max_age=300), prefix=prefix, name=name, rate=args.rate,
                   burst=args.burst, store_error=store_error, lecture=lecture)
    server = httpserver.HTTPServer(app, max_body_size=MAX_REQUEST, xheaders=False)
    server.listen(url.port or 80, args.ip or url.hostname)
    log.info("genviz-poll on %s%s (state in %s)", url.geturl().rstrip("/"), prefix,
             os.path.abspath(args.state_dir))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), 3600)
        except asyncio.TimeoutError:
            if store is not None:
                store.expire()
    server.stop()
    if store is not None:
        store.db.close()
    log.info("genviz-poll stopped")


def main(argv=None) -> None:
    logging.basicConfig(level=logging.INFO, format="[%(levelname)1.1s %(asctime)s genviz-poll] %(message)s")
    asyncio.run(serve(parse_args(argv)))


if __name__ == "__main__":
    main()
