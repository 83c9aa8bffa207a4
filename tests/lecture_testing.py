"""The lecture page (deploy/poll/lecture.py) in-process, with JupyterHub's real ``HubOAuth``
talking to a stand-in hub over HTTP (tests/test_lecture_service.py).

The stand-in hub does what the hub's OAuth provider does for a service's browser login:
``/hub/login`` (sets the hub's login cookie: the hub's own login page, here without a
password), ``/hub/api/oauth2/authorize`` (a user not logged in is sent to the login page and
back; a logged-in user is redirected to the service's ``oauth_callback`` with a one-time code,
its PKCE challenge remembered), ``/hub/api/oauth2/token`` (the code, the service's client secret
and the PKCE verifier for a token) and ``/hub/api/user`` (a token's owner and scopes: what
``HubAuth.user_for_token`` asks). It counts the single-user servers it was asked to start
(``/hub/spawn``): always 0 for the lecture page.

The poll service's app (deploy/poll/genviz_poll.py ``make_app``) runs with the page's routes on
the same store, so kernel votes (``Authorization: token``, tests/poll_testing.py's tokens) and
phone votes (cookie + XSRF) land in one place.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import secrets
import threading
from pathlib import Path
from urllib.parse import urlencode

import requests

from poll_testing import ACCESS, TOKENS, FakeHubAuth, poll

lecture_mod = poll._lecture_module()

CLIENT_ID = "service-genviz-poll"
SERVICE_SECRET = "svc-secret-" + secrets.token_hex(4)
#: users the stand-in hub knows: their scopes on an OAuth token of the service's client
HUB_USERS = {"ada": [ACCESS], "ben": [ACCESS], "chloe": [ACCESS],
             "instructor": [ACCESS, poll.LECTURE_SCOPE], "dora": []}


class FakeHub:
    """The hub's OAuth provider and user API (see the module's docstring)."""

    def __init__(self):
        self.codes: dict[str, dict] = {}
        self.tokens: dict[str, str] = {}
        self.spawns = 0
        self.logins = 0
        self.port = None

    def app(self):
        from tornado import web

        hub = self

        class Login(web.RequestHandler):
            def get(self):
                user = self.get_argument("user", None)
                if user is None:
                    self.set_status(200)
                    self.finish("<form>the hub's login page</form>")
                    return
                hub.logins += 1
                self.set_cookie("fakehub-user", user, path="/hub/")
                self.redirect(self.get_argument("next", "/hub/spawn"))

        class Authorize(web.RequestHandler):
            def get(self):
                user = self.get_cookie("fakehub-user")
                if user is None:
                    self.redirect("/hub/login?" + urlencode({"next": self.request.uri}))
                    return
                if self.get_argument("client_id") != CLIENT_ID:
                    raise web.HTTPError(400, "unknown client")
                code = secrets.token_hex(8)
                hub.codes[code] = {"user": user, "redirect": self.get_argument("redirect_uri"),
                                   "challenge": self.get_argument("code_challenge", None)}
                self.redirect(self.get_argument("redirect_uri") + "?" + urlencode(
                    {"code": code, "state": self.get_argument("state")}))

        class Token(web.RequestHandler):
            def check_xsrf_cookie(self):
                pass

            def post(self):
                code = hub.codes.pop(self.get_argument("code"), None)
                if code is None or self.get_argument("client_secret") != SERVICE_SECRET \
                        or self.get_argument("client_id") != CLIENT_ID \
                        or self.get_argument("redirect_uri") != code["redirect"]:
                    raise web.HTTPError(400, "bad code or client")
                if code["challenge"]:
                    verifier = self.get_argument("code_verifier", "")
                    digest = base64.urlsafe_b64encode(
                        hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
                    if digest != code["challenge"]:
                        raise web.HTTPError(400, "PKCE verifier does not match")
                token = "oauth-" + secrets.token_hex(12)
                hub.tokens[token] = code["user"]
                self.finish({"access_token": token, "token_type": "Bearer"})

        class User(web.RequestHandler):
            def get(self):
                m = re.fullmatch(r"token (\S+)", self.request.headers.get("Authorization", ""))
                user = hub.tokens.get(m.group(1)) if m else None
                if user is None:
                    raise web.HTTPError(403)
                self.finish({"name": user, "kind": "user", "scopes": HUB_USERS[user],
                             "groups": []})

        class Spawn(web.RequestHandler):
            def get(self):
                hub.spawns += 1
                self.finish("a server would start here")

        return web.Application([("/hub/login", Login), ("/hub/api/oauth2/authorize", Authorize),
                                ("/hub/api/oauth2/token", Token), ("/hub/api/user", User),
                                ("/hub/spawn", Spawn)])


class LocalLectureService:
    """The poll service's app with the lecture page, and the stand-in hub, on free 127.0.0.1
    ports in one background event loop."""

    def __init__(self, state_dir: Path, bundle: dict | None = None, **app_kwargs):
        self.state_dir = Path(state_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.bundle_path = self.state_dir / lecture_mod.BUNDLE_NAME
        if bundle is not None:
            self.bundle_path.write_text(json.dumps(bundle))
        self.app_kwargs = app_kwargs
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(timeout=30)
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/services/genviz-poll/"
        self.page = self.url + "lecture/"

    async def _start(self):
        from jupyterhub.services.auth import HubOAuth
        from tornado import httpserver, netutil

        self.hub = FakeHub()
        hub_sockets = netutil.bind_sockets(0, "127.0.0.1")
        self.hub.port = hub_sockets[0].getsockname()[1]
        self.hub_server = httpserver.HTTPServer(self.hub.app())
        self.hub_server.add_sockets(hub_sockets)
        sockets = netutil.bind_sockets(0, "127.0.0.1")
        self.port = sockets[0].getsockname()[1]
        hub_url = f"http://127.0.0.1:{self.hub.port}"
        self.oauth = HubOAuth(
            api_token=SERVICE_SECRET, api_url=f"{hub_url}/hub/api", oauth_client_id=CLIENT_ID,
            base_url="/services/genviz-poll/", hub_prefix="/hub/",
            oauth_authorization_url=f"{hub_url}/hub/api/oauth2/authorize",
            oauth_redirect_uri=f"http://127.0.0.1:{self.port}/services/genviz-poll/oauth_callback",
            access_scopes={ACCESS}, cache_max_age=300)
        self.store = poll.Store(str(self.state_dir))
        self.lecture = lecture_mod.Lecture(self.store, self.bundle_path, self.oauth,
                                           state_dir=str(self.state_dir))
        app = poll.make_app(self.store, FakeHubAuth(TOKENS), lecture=self.lecture,
                            **self.app_kwargs)
        self.server = httpserver.HTTPServer(app, max_body_size=poll.MAX_REQUEST)
        self.server.add_sockets(sockets)

    async def _stop(self):
        self.server.stop()
        self.hub_server.stop()
        self.store.db.close()

    def stop(self):
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    # -- a kernel's and a lecturer's requests (hub tokens, as tests/poll_testing.py) ----------
    def api(self, method, path, token, body=None):
        r = requests.request(method, self.url + path, json=body, timeout=30,
                             headers={"Authorization": f"token {token}"})
        return r.status_code, (r.json() if r.content else {})

    def lecturer(self, qid, **state):
        status, data = self.api("PUT", f"api/questions/{qid}", "t-instructor", state)
        assert status == 200, data
        return data

    # -- a phone ---------------------------------------------------------------------------
    def phone(self, user: str | None) -> "Phone":
        """A browser that opens the page and logs in at the hub as ``user`` (None: stops at
        the hub's login page)."""
        return Phone(self, user)


class Phone:
    """A phone's browser: a cookie jar, the page's XSRF token, and the page's requests (with
    the ``Sec-Fetch-Mode`` a browser sends: ``navigate`` for the page, ``cors`` for fetch)."""

    def __init__(self, service: LocalLectureService, user: str | None):
        self.service = service
        self.s = requests.Session()
        self.user = user
        self.xsrf = None
        self.history: list = []

    def open(self):
        """Open the page, logging in at the hub on the way; returns the last response."""
        r = self.s.get(self.service.page, headers={"Sec-Fetch-Mode": "navigate"}, timeout=30,
                       allow_redirects=False)
        self.history = [r]
        for _ in range(10):
            if r.status_code not in (301, 302, 303, 307):
                break
            target = r.headers["Location"]
            if target.startswith("/"):  # relative to whoever answered
                target = r.url.split("/", 3)[0] + "//" + r.url.split("/", 3)[2] + target
            if "/hub/login" in target and self.user is not None:
                target += ("&" if "?" in target else "?") + urlencode({"user": self.user})
            r = self.s.get(target, headers={"Sec-Fetch-Mode": "navigate"}, timeout=30,
                           allow_redirects=False)
            self.history.append(r)
        m = re.search(r'<meta name="xsrf" content="([^"]+)"', r.text)
        self.xsrf = m.group(1) if m else None
        return r

    def get(self, path, *, xsrf=True, **params):
        headers = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin"}
        if xsrf and self.xsrf:
            headers["X-XSRFToken"] = self.xsrf
        r = self.s.get(self.service.page + "api/" + path, params=params, headers=headers,
                       timeout=60)
        return r.status_code, (r.json() if r.content else {})

    def state(self, **params):
        status, data = self.get("state", **params)
        assert status == 200, data
        return data

    def vote(self, question, round_, option, *, xsrf=True, raw=None, extra=None):
        headers = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin",
                   "Content-Type": "application/json"}
        if xsrf is True and self.xsrf:
            headers["X-XSRFToken"] = self.xsrf
        elif isinstance(xsrf, str):
            headers["X-XSRFToken"] = xsrf
        body = {"question": question, "round": round_, "option": option, **(extra or {})}
        data = raw if raw is not None else json.dumps(body).encode()
        r = self.s.post(self.service.page + "api/vote", data=data, headers=headers, timeout=30)
        return r.status_code, (r.json() if r.content else {})
