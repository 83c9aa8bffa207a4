"""The poll service's client (private): the connection a kernel on the course hub has to the
room's poll service, and the checks of what is sent. Public through :mod:`genviz.widgets.room`.

The service is found from the server's environment: ``GENVIZ_POLL_URL`` (set by the hub's
configuration, deploy/poll/hub_config.py) and ``JUPYTERHUB_API_TOKEN`` (the server's hub token,
which the kernel inherits; the service asks the hub whose it is). Without both, there is no room
(:func:`connect` returns None) and nothing is ever sent.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from dataclasses import dataclass

__all__ = ["TIMEOUT", "ROUNDS", "Outcome", "Room", "connect", "on_hub", "check_question_id",
           "check_option", "check_round", "check_options"]

#: seconds a request to the poll service may take before it counts as failed
TIMEOUT = 2.0
#: the rounds a question has: the first vote, the second vote (after discussion), and the
#: observation recorded after the explorer showed the answer
ROUNDS = (1, 2, "observation")
_QUESTION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}")
LETTERS = "abcdefghijkl"


@dataclass(frozen=True)
class Outcome:
    """What the poll service answered: ``ok``, the HTTP ``status`` (None when the service
    could not be reached), its ``message`` and its JSON ``data``."""

    ok: bool
    status: int | None
    message: str
    data: dict | None = None


def check_question_id(question_id) -> str:
    if not isinstance(question_id, str) or not _QUESTION_ID.fullmatch(question_id):
        raise ValueError(f"question_id must be 1-80 letters, digits or _.:- starting with a "
                         f"letter or digit, got {question_id!r}")
    return question_id


def check_option(option) -> int:
    if isinstance(option, bool) or not isinstance(option, int):
        raise TypeError(f"option must be an int (0 for the first option), got "
                        f"{type(option).__name__}")
    if option < 0:
        raise ValueError(f"option must be >= 0, got {option}")
    return option


def check_round(round) -> int | str:  # noqa: A002 (the service's word)
    if isinstance(round, bool) or round not in ROUNDS:
        raise ValueError(f"round must be 1, 2 or 'observation', got {round!r}")
    return round


def check_options(options) -> list[str]:
    if isinstance(options, str) or not hasattr(options, "__iter__"):
        raise TypeError(f"options must be a list of the options' texts, got "
                        f"{type(options).__name__}")
    options = [str(o) for o in options]
    if not 2 <= len(options) <= len(LETTERS):
        raise ValueError(f"options must have 2 to {len(LETTERS)} entries, got {len(options)}")
    return options


class Room:
    """A connection to the hub's poll service: its URL and the hub token of this server.

    Every method returns an :class:`Outcome`; none raises for a network or HTTP problem.
    """

    def __init__(self, url: str, token: str, *, timeout: float = TIMEOUT):
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"url must be an http(s) URL, got {url!r}")
        self.url = url.rstrip("/") + "/"
        self._token = token
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"Room({self.url!r})"  # never the token

    def request(self, method: str, path: str, body=None, *, timeout: float | None = None) -> Outcome:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Authorization": f"token {self._token}",
                                              "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as r:
                return Outcome(True, r.status, "ok", json.loads(r.read() or b"{}"))
        except urllib.error.HTTPError as e:
            try:
                answer = json.loads(e.read() or b"{}")
            except ValueError:
                answer = {}
            return Outcome(False, e.code, answer.get("error") or str(e.reason), answer)
        except (OSError, ValueError) as e:  # refused, unreachable, timed out, not JSON
            return Outcome(False, None, f"the poll service could not be reached ({e})")

    # -- a student ------------------------------------------------------------------------------
    def vote(self, question_id: str, option: int, round=1) -> Outcome:  # noqa: A002
        return self.request("POST", "api/votes", {"question": check_question_id(question_id),
                                                  "option": check_option(option),
                                                  "round": check_round(round)})

    def my_votes(self, question_id: str) -> Outcome:
        return self.request("GET", f"api/votes/{check_question_id(question_id)}")

    def whoami(self) -> Outcome:
        return self.request("GET", "api/")

    # -- the lecturer ---------------------------------------------------------------------------
    def question(self, question_id: str, *, since: int | None = None, wait: float = 0) -> Outcome:
        """The counts; with ``since`` and ``wait``, once the question changed (long poll)."""
        qid = check_question_id(question_id)
        query = f"?since={int(since)}&wait={float(wait):g}" if since is not None and wait else ""
        return self.request("GET", f"api/questions/{qid}{query}",
                            timeout=(wait + self.timeout) if query else None)

    def set_state(self, question_id: str, **state) -> Outcome:
        """Declare or change a question: ``options=n``, ``open=1|2|'observation'|None``,
        ``revealed=True``."""
        return self.request("PUT", f"api/questions/{check_question_id(question_id)}", state)

    def delete(self, question_id: str | None = None) -> Outcome:
        """Delete one question's votes, or every question's (``None``)."""
        path = "api/questions" + ("" if question_id is None else
                                  f"/{check_question_id(question_id)}")
        return self.request("DELETE", path)


def connect(env=None) -> Room | None:
    """The room of this server's hub, or None off the hub (no network call either way).

    >>> connect({}) is None
    True
    >>> connect({"JUPYTERHUB_API_TOKEN": "t", "GENVIZ_POLL_URL": "http://127.0.0.1:9/services/genviz-poll/"})
    Room('http://127.0.0.1:9/services/genviz-poll/')
    """
    env = os.environ if env is None else env
    url, token = env.get("GENVIZ_POLL_URL", ""), env.get("JUPYTERHUB_API_TOKEN", "")
    if not url or not token:
        return None
    try:
        return Room(url, token)
    except ValueError:
        return None


def on_hub(env=None) -> bool:
    """Whether this kernel runs on a course hub with the poll service."""
    return connect(env) is not None
