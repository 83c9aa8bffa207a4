"""The lecture page (issue #37): a class votes from phones, with no server per student.

Served by the poll service itself (deploy/poll/genviz_poll.py registers these routes), not by
a second service, because a phone's vote must land in the *same* store as a kernel's vote --
same rounds, same one-vote-per-student rule, same HMAC voter identity, the same version the
lecturer's long poll waits on -- and one process with one sqlite writer is what gives that
without a second copy of the rules or an internal API between two services.

Who the phone is comes from the hub alone, by JupyterHub's OAuth for browsers (``HubOAuth``):
a phone opening ``<hub>/services/genviz-poll/lecture/`` without the service's cookie is sent to
the hub's ``/hub/api/oauth2/authorize``, which sends a phone not logged in to the hub's own
login page and back; the hub then redirects to ``.../oauth_callback`` with a code, the service
trades it for a token (the service's OAuth client gets only
``access:services!service=genviz-poll`` for it) and keeps that token in a signed cookie. No
single-user server is involved: the OAuth redirect goes back to the service, never to
``/hub/spawn``. Every request the page makes is a ``fetch`` carrying the ``X-XSRFToken``
header (JupyterHub's XSRF rules for cookie-authenticated requests: a POST, or a GET that is not
a page navigation, is refused without it).

What the page shows follows the lecturer (``GET lecture/api/state?since=<v>&wait=<s>``, a long
poll like the lecturer's panel's): the question the lecturer last opened, closed or revealed in
lecture mode, its prompt and options (from the bundle built from the course,
deploy/poll/lecture_bundle.py: never retyped), which round is open, the student's own votes,
and -- only after the reveal -- the explanation, the right option and the counts.
``POST lecture/api/vote`` ``{"question", "round", "option"}`` votes in the round open now
(409 if the round the phone saw has changed). Bodies are streamed as the poll service's API's:
one over 1 KB is read to its end and refused with 413, directly and through the hub's proxy.

The question's explorer (issue #37): the bundle carries, per question, the explorer it is
about in the form the course website embeds, and explorer.js/css. The long poll names only
their versions (``explorer``, ``explorer_module``: content hashes); the page fetches
``GET lecture/api/explorer/<id>?v=<etag>&layout=wide|narrow`` (one layout's states: a phone
asks for the narrow one, explorer.js ``chooseLayout``, and the other one when the page
crosses its width; login and XSRF like the other fetches; 404 until
the lecturer has closed the second vote, opened the observation round or revealed: predict
first, then observe) and ``lecture/static/explorer.js|css?v=`` (public),
each with an ETag, ``Cache-Control`` max-age one week, gzip compressed once per bundle (not
per phone), and mounts it with explorer.js's ``mountStaticExplorers``.

Which question is current: the one the lecturer's panel changed last (open, close, second
vote, reveal), learnt by wrapping the store's ``declare`` on this store instance (the poll
service stays as it is); after a restart, the open question changed last, else the question
changed last.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import logging
import os
import secrets
from pathlib import Path

from tornado import web

BUNDLE_NAME = "lecture_bundle.json"
#: what the hub's log says to a lecturer whose bundle is missing or unreadable
BUNDLE_HELP = ("Build it in the course's environment: python deploy/poll/lecture_bundle.py "
               "build (postBuild does on TLJH and Z2JH; make lecture-bundle on the trial hub); "
               "the hub's configuration names the file (GENVIZ_LECTURE_BUNDLE). Docs: Teach a "
               "class, \"Phones: the lecture page\".")
COOKIE_SECRET_NAME = "lecture_cookie_secret"
PAGE_DIR = Path(__file__).resolve().parent / "lecture_page"
MAX_WAIT_S = 25.0
log = logging.getLogger("genviz-poll")


def cookie_secret(state_dir: str) -> bytes:
    """The key that signs the phones' login cookies, kept beside the votes (0600), so a
    restarted service keeps its students logged in."""
    path = os.path.join(state_dir, COOKIE_SECRET_NAME)
    try:
        with open(path, "rb") as f:
            key = f.read()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


class Lecture:
    """The lecture's state beside the poll service's store: the bundle of questions, the
    current question and a version the phones' long polls wait on."""

    def __init__(self, store, bundle_path: str | os.PathLike, hub_oauth, *, state_dir: str):
        self.store = store
        self.bundle_path = Path(bundle_path)
        self.hub_oauth = hub_oauth
        self.state_dir = state_dir
        self._bundle: dict = {}
        self._bundle_key = None
        #: "ok", "missing" or "unreadable" (the page and the hub's log say so), None before
        #: the first read
        self.bundle_status: str | None = None
        self._explorers: dict = {}  # key -> Resource (the explorers' payloads, ready to send)
        self._module: dict = {}     # "explorer.js" / "explorer.css" -> Resource
        self.version = 0
        self._event: asyncio.Event | None = None
        self._held: dict = {}  # question -> the rounds opened so far (this process's memory)
        self.current = self._restore_current()
        declare = store.declare

        def declare_and_follow(qid, *args, **kwargs):
            out = declare(qid, *args, **kwargs)
            opened = (self.store.questions.get(qid) or {}).get("open")
            if opened is not None:
                self._held.setdefault(qid, set()).add(str(opened))
            self.follow(qid)
            return out

        store.declare = declare_and_follow  # this instance only: the lecturer's panel moved
        delete = store.delete

        def delete_and_follow(qid=None):
            out = delete(qid)
            if qid is None or qid == self.current:
                self.current = self._restore_current()
            self._bump()
            return out

        store.delete = delete_and_follow

    # -- what the lecturer does --------------------------------------------------------------
    def _restore_current(self):
        qs = self.store.questions
        if not qs:
            return None
        opened = [q for q in qs if qs[q]["open"] is not None]
        return max(opened or qs, key=lambda q: qs[q]["updated"])

    def explorer_shown(self, qid: str) -> bool:
        """Whether a phone may see the question's explorer now: predict first, then observe.

        Not while the votes are being made (an explorer during vote 1 or 2 would let a student
        drag to the answer instead of predicting): from when the lecturer closes the second
        vote, opens the observation round or reveals. After a restart of the service the
        rounds held before are not known, so only the observation round or the reveal show it."""
        q = self.store.questions.get(qid)
        if q is None:
            return False
        opened = None if q["open"] is None else str(q["open"])
        return bool(q["revealed"]) or opened == "observation" or \
            (opened is None and "2" in self._held.get(qid, ()))

    def follow(self, qid: str) -> None:
        self.current = qid
        self._bump()

    def _bump(self) -> None:
        self.version += 1
        event, self._event = self._event, None
        if event is not None:
            event.set()

    async def wait(self, since: int, timeout: float) -> None:
        if self.version != since:
            return
        if self._event is None:
            self._event = asyncio.Event()
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    # -- the bundle --------------------------------------------------------------------------
    def bundle(self) -> dict:
        """The questions (re-read when the file changes; ``{}`` without a bundle)."""
        try:
            st = self.bundle_path.stat()
        except OSError:
            if self.bundle_status != "missing":  # said once in the hub's log, and on the page
                log.warning("no lecture bundle at %s: phones show the options' letters only "
                            "and no explorer. %s", self.bundle_path, BUNDLE_HELP)
            self._bundle, self._bundle_key = {}, None
            self._explorers, self._module = {}, {}
            self.bundle_status = "missing"
            return self._bundle
        key = (st.st_mtime_ns, st.st_size)
        if key != self._bundle_key:
            try:
                data = json.loads(self.bundle_path.read_text(encoding="utf-8"))
                self._bundle = dict(data.get("questions") or {})
                self._explorers = {k: Resource.layouts(v)
                                   for k, v in dict(data.get("explorers") or {}).items()}
                module = dict(data.get("explorer_module") or {})
                self._module = {
                    name: Resource(module[part].encode("utf-8"), ctype)
                    for name, part, ctype in (
                        ("explorer.js", "js", "text/javascript; charset=utf-8"),
                        ("explorer.css", "css", "text/css; charset=utf-8"))
                    if isinstance(module.get(part), str)}
                self.bundle_status = "ok"
            except (OSError, ValueError, AttributeError, TypeError):
                log.warning("cannot read the lecture bundle %s: phones show the options' "
                            "letters only. %s", self.bundle_path, BUNDLE_HELP, exc_info=True)
                self._bundle, self._explorers, self._module = {}, {}, {}
                self.bundle_status = "unreadable"
            self._bundle_key = key
        return self._bundle

    def explorer(self, qid: str, layout: str = "wide") -> "Resource | None":
        """The explorer of question ``qid`` as sent to a phone in ``layout`` (``"narrow"``: the
        phone's figure, when the bundle has it; else the wide one), or None (no such question
        in the bundle, or the bundle has no explorer for it)."""
        text = self.bundle().get(qid)
        key = text.get("explorer") if isinstance(text, dict) else None
        both = self._explorers.get(key) if isinstance(key, str) else None
        return None if both is None else both.get(layout, both["wide"])

    def module_file(self, name: str) -> "Resource | None":
        """explorer.js or explorer.css as the bundle carries them, or None."""
        self.bundle()
        return self._module.get(name)

    # -- what a phone sees -------------------------------------------------------------------
    def state_for(self, user: str) -> dict:
        """What ``user``'s phone shows now: never another student's vote, and the counts and
        the explanation only after the reveal."""
        self.bundle()
        out = {"version": self.version, "user": user, "question": None,
               "bundle": self.bundle_status}
        qid = self.current
        if qid is None or qid not in self.store.questions:
            return out
        q = self.store.questions[qid]
        mine = self.store.mine(qid, user)
        text = self.bundle().get(qid)
        n = q["options"]
        question = {"id": qid, "options_n": n, "open": _round_json(q["open"]),
                    "revealed": q["revealed"], "known": text is not None,
                    "mine": {r: mine[r] for r in mine},
                    "letters": [chr(ord("a") + i) for i in range(n)]}
        if text is not None and len(text.get("options") or ()) == n:
            question.update({k: text.get(k) for k in (
                "prompt_html", "options_html", "observation_html", "notebook")})
            explorer = self.explorer(qid) if self.explorer_shown(qid) else None
            # only its version here: the explorer itself is a resource of its own
            # (lecture/api/explorer/<id>?v=<etag>), cached by the phone, never in this poll
            question["explorer"] = None if explorer is None else explorer.etag
            if explorer is not None:
                module = [self.module_file(n) for n in ("explorer.js", "explorer.css")]
                question["explorer_module"] = None if None in module else \
                    [m.etag for m in module]
        else:
            question["known"] = False
        if q["revealed"]:
            counts = self.store.counts(qid)
            question["counts"], question["voters"] = counts["counts"], counts["voters"]
            if question["known"]:
                question["explanation_html"] = text.get("explanation_html")
                question["correct"] = text.get("correct")
        out["question"] = question
        return out


class Resource:
    """A file a phone fetches once and caches: its bytes, gzip-compressed once (not per
    request: 300 phones ask for the same explorer within seconds), and an ETag (the
    content's hash)."""

    def __init__(self, body: bytes, content_type: str):
        self.body = body
        self.gzip = gzip.compress(body, compresslevel=9, mtime=0)
        self.content_type = content_type
        self.etag = hashlib.sha256(body).hexdigest()[:32]

    @classmethod
    def layouts(cls, payload) -> dict:
        """An explorer's payload as two resources, so a phone fetches one layout's states:
        ``"wide"`` (the payload without its narrow grid) and, when it has one, ``"narrow"``
        (the narrow grid as its grid). Each is marked with its ``"layout"`` and the
        ``"layouts"`` the server has, so explorer.js fetches the other one when the page
        crosses its width (a phone turned sideways) and keeps the controls' values."""
        if not isinstance(payload, dict):
            raise TypeError("an explorer's payload must be a JSON object")
        wide = {k: v for k, v in payload.items() if k != "narrow"}
        names = ["wide", "narrow"] if payload.get("narrow") else ["wide"]
        out = {"wide": cls.of_json({**wide, "layout": "wide", "layouts": names})}
        if payload.get("narrow"):
            out["narrow"] = cls.of_json({**wide, "grid": payload["narrow"], "layout": "narrow",
                                         "layouts": names})
        return out

    @classmethod
    def of_json(cls, payload) -> "Resource":
        if not isinstance(payload, dict):
            raise TypeError("an explorer's payload must be a JSON object")
        return cls(json.dumps(payload, separators=(",", ":")).encode("utf-8"),
                   "application/json")


def _round_json(r):
    return None if r is None else (int(r) if str(r).isdigit() else r)


# --- handlers -------------------------------------------------------------------------------------

def _handlers_base(streamed):
    from jupyterhub.services.auth import HubOAuthenticated, UserNotAllowed

    @web.stream_request_body
    class LectureBase(streamed, HubOAuthenticated, web.RequestHandler):
        """A phone's request: its user from the OAuth cookie (XSRF checked by HubOAuth for
        every request that is not a page navigation).

        The body is streamed as the poll service's API's (``streamed`` is genviz_poll's
        ``StreamedBody``): its first bytes kept in ``body_bytes``, every method refusing an
        oversized one (413) once it has arrived."""

        api = True

        def initialize(self, lecture: Lecture, rate):
            self.lecture = lecture
            self.hub_auth = lecture.hub_oauth
            self.rate = rate
            self.body_bytes, self.body_size = b"", 0

        def set_default_headers(self):
            self.set_header("Cache-Control", "no-store")
            self.set_header("X-Content-Type-Options", "nosniff")

        async def prepare(self):
            self.stream_body()
            try:
                model = await self.hub_auth.get_user(self, sync=False)
                self._hub_auth_user_cache = self.check_hub_user(model) if model else None
            except UserNotAllowed:
                self._hub_auth_user_cache = None
                raise web.HTTPError(403, "this login may not use the lecture page") from None
            except web.HTTPError:
                raise
            except Exception:  # the hub is down or slow: say so, never crash
                log.warning("the hub did not answer a cookie check", exc_info=True)
                raise web.HTTPError(503, "the hub could not check the login; try again") \
                    from None
            user = self._hub_auth_user_cache
            if user is not None and user.get("kind", "user") != "user":
                raise web.HTTPError(403, "only users vote, not services")
            if self.api and user is None:
                raise web.HTTPError(403, "not logged in (or the page's XSRF token is missing): "
                                         "reload the page")

        def get_current_user(self):
            return getattr(self, "_hub_auth_user_cache", None)

        def send(self, data, status=200):
            self.set_status(status)
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps(data))

        def write_error(self, status_code, **kwargs):
            exc = kwargs.get("exc_info", (None, None))[1]
            message = getattr(exc, "log_message", None) or self._reason
            self.close_if_unread()
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"error": message, "status": status_code}))

        def log_exception(self, typ, value, tb):
            if not isinstance(value, web.HTTPError):
                super().log_exception(typ, value, tb)

    return LectureBase


def _page_html(xsrf: str, prefix: str) -> str:
    page = (PAGE_DIR / "index.html").read_text(encoding="utf-8")
    css = (PAGE_DIR / "lecture.css").read_text(encoding="utf-8")
    js = (PAGE_DIR / "lecture.js").read_text(encoding="utf-8")
    return (page.replace("{{css}}", css).replace("{{js}}", js)
            .replace("{{xsrf}}", xsrf).replace("{{prefix}}", prefix))


def routes(lecture: Lecture, prefix: str, rate, streamed) -> list:
    """The lecture page's routes under the service's ``prefix`` (``/services/genviz-poll/``);
    ``streamed``: the poll service's ``StreamedBody`` (genviz_poll.py, which loads this file
    by path), the one handling of a streamed body for both."""
    from jupyterhub.services.auth import HubOAuthCallbackHandler

    Base = _handlers_base(streamed)

    class Page(Base):
        api = False

        @web.authenticated
        def get(self):
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(_page_html(self.xsrf_token.decode("ascii")
                                   if isinstance(self.xsrf_token, bytes) else self.xsrf_token,
                                   prefix))

    class State(Base):
        async def get(self):
            try:
                since = self.get_argument("since", None)
                wait_s = min(MAX_WAIT_S, max(0.0, float(self.get_argument("wait", "0"))))
                since_v = None if since is None else int(since)
            except ValueError:
                raise web.HTTPError(400, "since must be an integer version and wait a number "
                                         "of seconds") from None
            if since_v is not None and wait_s > 0:
                await self.lecture.wait(since_v, wait_s)
            self.send(self.lecture.state_for(self.current_user["name"]))

    class Vote(Base):
        def post(self):
            user = self.current_user["name"]
            if not self.rate.allow(user):
                raise web.HTTPError(429, "too many votes a second: wait a moment")
            try:
                data = json.loads(self.body_bytes)
            except (ValueError, UnicodeDecodeError):
                raise web.HTTPError(400, "the body must be a JSON object") from None
            if not isinstance(data, dict) or set(data) != {"question", "round", "option"}:
                raise web.HTTPError(400, "the body must be {\"question\", \"round\", "
                                         "\"option\"}")
            qid, rnd, option = data["question"], data["round"], data["option"]
            store = self.lecture.store
            q = store.questions.get(qid) if isinstance(qid, str) else None
            if q is None or qid != self.lecture.current:
                raise web.HTTPError(409, "this is not the question the lecturer has open now: "
                                         "the page will follow")
            if q["open"] is None or str(rnd) != str(q["open"]) or isinstance(rnd, bool):
                raise web.HTTPError(409, "this round is not open now (the lecturer closed it "
                                         "or opened another)")
            if isinstance(option, bool) or not isinstance(option, int) \
                    or not 0 <= option < q["options"]:
                raise web.HTTPError(400, f"option must be an integer from 0 to "
                                         f"{q['options'] - 1}")
            changed = store.vote(qid, str(q["open"]), user, option)
            self.send({"question": qid, "round": _round_json(q["open"]), "option": option,
                       "changed": changed})

    class Explorer(Base):
        """A question's explorer (the site's embedded form), once the lecturer has opened the
        question: cacheable by the phone (ETag; the page asks with ``?v=<etag>``)."""

        def get(self, qid):
            if qid not in self.lecture.store.questions:
                raise web.HTTPError(404, "the lecturer has not opened this question")
            if not self.lecture.explorer_shown(qid):
                raise web.HTTPError(404, "the explorer is shown after the votes "
                                         "(predict first, then observe)")
            layout = self.get_argument("layout", "wide")
            if layout not in ("wide", "narrow"):
                raise web.HTTPError(400, "layout must be 'wide' or 'narrow'")
            res = self.lecture.explorer(qid, layout)
            if res is None:
                raise web.HTTPError(404, "this question has no explorer in the lecture bundle")
            _send_resource(self, res, private=True)

    class ModuleFile(web.RequestHandler):
        """explorer.js / explorer.css from the bundle: public code (the course website ships
        the same), no login needed, cached by ETag."""

        def initialize(self, lecture: Lecture, rate):
            self.lecture = lecture

        def get(self, name):
            res = self.lecture.module_file(name)
            if res is None:
                raise web.HTTPError(404)
            self.set_header("X-Content-Type-Options", "nosniff")
            _send_resource(self, res, private=False)

    class Callback(HubOAuthCallbackHandler):
        def initialize(self, lecture: Lecture, rate):
            self.hub_auth = lecture.hub_oauth

    kwargs = {"lecture": lecture, "rate": rate}
    return [(prefix + "oauth_callback", Callback, kwargs),
            (prefix + "lecture/?", Page, kwargs),
            (prefix + "lecture/api/state", State, kwargs),
            (prefix + "lecture/api/vote", Vote, kwargs),
            (prefix + r"lecture/api/explorer/([A-Za-z0-9_.:-]{1,80})", Explorer, kwargs),
            (prefix + r"lecture/static/(explorer\.js|explorer\.css)", ModuleFile, kwargs)]


#: how long a phone may keep a resource without asking again: the URL carries the content's
#: hash (``?v=<etag>``), so a new bundle is a new URL
RESOURCE_MAX_AGE = 7 * 24 * 3600


def _send_resource(handler, res: Resource, *, private: bool) -> None:
    """``res`` with its ETag and a long max-age (a new version is a new ``?v=``); 304 to a
    phone that has it; gzip-compressed (precompressed) when the phone accepts it."""
    handler.set_header("Cache-Control", f"{'private' if private else 'public'}, "
                                        f"max-age={RESOURCE_MAX_AGE}")
    handler.set_header("ETag", f'"{res.etag}"')
    handler.set_header("Vary", "Accept-Encoding")
    asked = handler.request.headers.get("If-None-Match", "")
    if res.etag in [t.strip().removeprefix("W/").strip('"') for t in asked.split(",")]:
        handler.set_status(304)
        handler.finish()
        return
    handler.set_header("Content-Type", res.content_type)
    if "gzip" in handler.request.headers.get("Accept-Encoding", ""):
        handler.set_header("Content-Encoding", "gzip")
        handler.finish(res.gzip)
    else:
        handler.finish(res.body)


def settings(lecture: Lecture) -> dict:
    """What the tornado application needs for the page: the signing key of the login and XSRF
    cookies, the hub's login as the login URL, and compressed answers (the page's weight)."""
    return {"cookie_secret": cookie_secret(lecture.state_dir), "compress_response": True,
            "login_url": lecture.hub_oauth.login_url}


def on_hub(store, state_dir: str, bundle: str | None = None) -> Lecture | None:
    """The lecture of a service started by the hub (its OAuth client from the hub's
    ``JUPYTERHUB_*`` environment). The bundle: ``$GENVIZ_LECTURE_BUNDLE``, which every hub
    configuration sets to the file postBuild installs in the students' environment,
    ``<prefix>/share/genviz/lecture_bundle.json`` (deploy/poll/hub_config.py
    ``installed_bundle``; Z2JH: the hub's copy of the image's file); without it (a service
    started by hand) ``<state dir>/lecture_bundle.json``. Read once at start, so a missing
    bundle is in the hub's log from the start. None when the hub gave no OAuth client."""
    from jupyterhub.services.auth import HubOAuth

    try:
        oauth = HubOAuth(cache_max_age=300)
    except Exception:  # noqa: BLE001 (no OAuth client from the hub: the votes still run)
        log.warning("no OAuth client for the lecture page (JUPYTERHUB_CLIENT_ID?): the page is "
                    "off, the votes from kernels work", exc_info=True)
        return None
    bundle = bundle or os.environ.get("GENVIZ_LECTURE_BUNDLE") or \
        os.path.join(state_dir, BUNDLE_NAME)
    lecture = Lecture(store, bundle, oauth, state_dir=state_dir)
    lecture.bundle()
    return lecture


__all__ = ["Lecture", "Resource", "routes", "settings", "on_hub", "cookie_secret",
           "BUNDLE_NAME", "BUNDLE_HELP"]
