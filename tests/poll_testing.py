"""The poll service (deploy/poll/genviz_poll.py) run in-process for the tests, with a stand-in
for the hub: tokens map to the user models the hub's ``/hub/api/user`` returns (name, kind and
the token's scopes). Used by tests/test_poll_service.py and tests/test_room.py.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import threading
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("genviz_poll_under_test",
                                               ROOT / "deploy" / "poll" / "genviz_poll.py")
poll = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(poll)

ACCESS = "access:services!service=genviz-poll"
STUDENT_SCOPES = [ACCESS, "access:servers!server=ada/", "users:activity!user=ada"]
LECTURER_SCOPES = [ACCESS, poll.LECTURE_SCOPE]


def model(name, scopes, kind="user"):
    return {"name": name, "kind": kind, "scopes": list(scopes)}


#: token -> the hub's model of its owner
TOKENS = {
    "t-ada": model("ada", STUDENT_SCOPES),
    "t-ben": model("ben", [ACCESS]),
    "t-chloe": model("chloe", [ACCESS]),
    "t-instructor": model("instructor", LECTURER_SCOPES),
    "t-nobody": model("dora", ["access:servers!server=dora/"]),  # a user without the service
    "t-service": {"name": "idle-culler", "kind": "service", "scopes": [ACCESS, poll.LECTURE_SCOPE]},
}


class FakeHubAuth:
    """``HubAuth.user_for_token(token, sync=False)``: the hub's answer, or None (unknown)."""

    def __init__(self, tokens):
        self.tokens = tokens
        self.calls = 0

    def user_for_token(self, token, use_cache=True, session_id="", *, sync=True):
        self.calls += 1

        async def answer():
            return self.tokens.get(token)

        return answer()


#: the voter key of a service in the tests (on a hub: derived from the service's hub token)
KEY = poll.voter_key("a-service-token-of-the-tests")


class LocalPollService:
    """The service's tornado app on a free 127.0.0.1 port, in its own thread and event loop."""

    def __init__(self, state_dir: Path, tokens=None, key: bytes = KEY, **app_kwargs):
        self.state_dir = Path(state_dir)
        self.key = key
        self.tokens = dict(TOKENS if tokens is None else tokens)
        self.app_kwargs = app_kwargs
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.port = self._call(self._start)
        self.url = f"http://127.0.0.1:{self.port}/services/genviz-poll/"

    def _call(self, fn, *args):
        return asyncio.run_coroutine_threadsafe(fn(*args), self.loop).result(timeout=30)

    async def _start(self):
        from tornado import httpserver, netutil

        self.store = poll.Store(str(self.state_dir), key=self.key)
        self.hub = FakeHubAuth(self.tokens)
        app = poll.make_app(self.store, self.hub, **self.app_kwargs)
        self.server = httpserver.HTTPServer(app, max_body_size=poll.MAX_REQUEST)
        sockets = netutil.bind_sockets(0, "127.0.0.1")
        self.server.add_sockets(sockets)
        return sockets[0].getsockname()[1]

    async def _stop(self):
        self.server.stop()
        self.store.db.close()

    def stop(self):
        self._call(self._stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    def request(self, method, path, token=None, body=None, raw: bytes | None = None,
                headers=None, timeout=30):
        """(status, JSON answer) of one request; ``token`` as the hub token of the caller."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        hdrs = dict(headers or {})
        if token:
            hdrs["Authorization"] = f"token {token}"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            body = e.read()
            try:
                return e.code, json.loads(body or b"{}")
            except ValueError:
                return e.code, {"raw": body[:200].decode(errors="replace")}

    def counts(self, qid):
        return self.request("GET", f"api/questions/{qid}", "t-instructor")[1]
