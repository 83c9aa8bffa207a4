"""Turn on the room votes in a hub's configuration: ``configure(c, ...)``.

Used by the trial hub (deploy/jupyterhub_config.py) and TLJH's hub snippet
(deploy/tljh/jupyterhub_config.d/genviz.py); deploy/z2jh/values.yaml states the same settings
in the chart's terms (tests/test_poll_config.py checks they agree). What it sets:

* the **service** ``genviz-poll``: deploy/poll/genviz_poll.py, started and stopped by the hub,
  listening on ``url`` (not shown in the hub's Services menu: nobody browses it);
* **who may use it**: every user (the ``user`` role gains ``access:services!service=genviz-poll``)
  votes; the group ``instructors`` gets the role ``genviz-lecturer`` with the custom scope
  ``custom:genviz-poll:lecture`` (open, close, reveal, see the counts, delete);
* **what a student's kernel holds**: the server's token (``JUPYTERHUB_API_TOKEN``, which the
  kernel inherits) gets those two scopes besides the default ones -- a token never holds more
  than its owner, so only instructors' tokens carry the lecturer's scope -- and
  ``GENVIZ_POLL_URL`` tells genviz.widgets.room where the service is.

A user added to ``instructors`` while their server runs gets the lecturer's scope at their next
server start (the token is made when the server starts).

The **lecture page** (issue #37, deploy/poll/lecture.py) is served by the same service at
``/services/genviz-poll/lecture/``: a phone logs in by the hub's OAuth (the service is an OAuth
client, ``oauth_no_confirm`` as a part of the hub, its tokens limited to the service's access),
and no single-user server is started. ``GENVIZ_LECTURE_URL`` tells the lecturer's panel the
page's public address (for its QR code), when ``public_url`` is known (TLJH: from its https
settings, ``tljh_public_url``).

**The page's questions** (the lecture bundle, deploy/poll/lecture_bundle.py): one rule for every
deployment. postBuild installs the bundle in the students' environment,
``<prefix>/share/genviz/lecture_bundle.json`` (``installed_bundle``), and the hub's
configuration names that file in the service's ``GENVIZ_LECTURE_BUNDLE`` (``bundle=``): the
trial hub its own venv's (``make lecture-bundle`` writes it), TLJH the user environment's
(setup.sh runs postBuild), Z2JH the hub's copy of the image's file (values.yaml). A missing
file is said in the hub's log and on the page (deploy/poll/lecture.py).
"""

import os
from pathlib import Path

SERVICE = "genviz-poll"
LECTURE_SCOPE = "custom:genviz-poll:lecture"
ACCESS_SCOPE = f"access:services!service={SERVICE}"
INSTRUCTORS = "instructors"
SCRIPT = Path(__file__).resolve().parent / "genviz_poll.py"
#: JupyterHub's default for a server's token (the ``server`` role), plus the service's two
SERVER_TOKEN_SCOPES = ["access:servers!server", "users:activity!user", ACCESS_SCOPE, LECTURE_SCOPE]
CUSTOM_SCOPES = {LECTURE_SCOPE: {
    "description": "Open, close and reveal the room's votes and see their counts "
                   "(genviz's poll service)"}}
ROLES = [
    {"name": "user", "scopes": ["self", ACCESS_SCOPE]},
    {"name": "genviz-lecturer", "description": "Lecturers: run the room's votes",
     "scopes": [LECTURE_SCOPE, ACCESS_SCOPE], "groups": [INSTRUCTORS]},
]


def private_dir(path) -> None:
    """``path`` exists and is 0700 (the votes' folder: the service makes its files 0600)."""
    Path(path).mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)


def service_url(host: str, port: int) -> str:
    return f"http://{host}:{port}"


def poll_url(host: str, port: int) -> str:
    """Where students' kernels reach the service (its own port, under its prefix)."""
    return f"{service_url(host, port)}/services/{SERVICE}/"


def lecture_url(public_url: str) -> str:
    """The lecture page's public address from the hub's (``https://hub.example/``).

    >>> lecture_url("https://hub.example/")
    'https://hub.example/services/genviz-poll/lecture/'
    """
    return f"{public_url.rstrip('/')}/services/{SERVICE}/lecture/"


def installed_bundle(prefix) -> str:
    """Where postBuild installs the lecture bundle in an environment.

    >>> installed_bundle("/opt/tljh/user")
    '/opt/tljh/user/share/genviz/lecture_bundle.json'
    """
    return str(Path(prefix, "share", "genviz", "lecture_bundle.json"))


def tljh_public_url(tljh: dict) -> str | None:
    """The hub's public address from TLJH's own settings (``tljh-config``'s ``https.*``,
    ``base_url``): its first Let's Encrypt domain when https is on, else None (TLJH has no
    setting naming the address otherwise).

    >>> tljh_public_url({"https": {"enabled": True, "letsencrypt": {"domains": ["hub.example"]}}})
    'https://hub.example/'
    >>> tljh_public_url({"https": {"enabled": True, "port": 8443,
    ...                  "letsencrypt": {"domains": ["hub.example"]}}, "base_url": "/class"})
    'https://hub.example:8443/class/'
    >>> tljh_public_url({"https": {"enabled": False}}) is None
    True
    """
    https = tljh.get("https") or {}
    domains = (https.get("letsencrypt") or {}).get("domains") or []
    if not https.get("enabled") or not domains:
        return None
    port = https.get("port") or 443
    base = "/" + str(tljh.get("base_url") or "/").strip("/")
    return f"https://{domains[0]}{'' if int(port) == 443 else f':{port}'}{base.rstrip('/')}/"


def service(python: str, *, port: int, state_dir: str, host: str = "127.0.0.1",
            script: str | Path = SCRIPT, environment=None, user: str | None = None,
            bundle: str | None = None) -> dict:
    """The ``c.JupyterHub.services`` entry (``user``: the system user it runs as, when the
    hub runs as root; it works in ``state_dir``; ``bundle``: the lecture bundle it reads)."""
    environment = dict(environment or {})
    if bundle:
        environment["GENVIZ_LECTURE_BUNDLE"] = str(bundle)
    entry = {"name": SERVICE, "url": service_url(host, port), "display": False,
             "command": [python, str(script), f"--state-dir={state_dir}"],
             "environment": environment, "cwd": state_dir,
             # the lecture page's login (HubOAuth): no "authorize genviz-poll?" page for a
             # phone, and its tokens can do nothing but reach this service
             "oauth_no_confirm": True, "oauth_client_allowed_scopes": [ACCESS_SCOPE]}
    if user:
        entry["user"] = user
    return entry


def configure(c, *, python: str, port: int, state_dir: str, host: str = "127.0.0.1",
              url: str | None = None, instructors=(), environment=None,
              user: str | None = None, public_url: str | None = None,
              bundle: str | None = None) -> None:
    """Add the poll service, its roles and scopes, and the students' settings to ``c``
    (``bundle``: the lecture bundle the service reads, ``installed_bundle(prefix)``).

    Works on a Config that already holds lists and dicts (the trial hub) and on one loaded
    apart from the hub's own settings (TLJH's jupyterhub_config.d: appends and updates are
    merged into TLJH's values).
    """
    if user is None:  # runs as the hub's user: its working directory must exist, private
        private_dir(state_dir)  # from the start (TLJH: setup.sh makes it for its user)
    c.JupyterHub.services.append(service(python, port=port, state_dir=state_dir, host=host,
                                         environment=environment, user=user,
                                         bundle=bundle))
    c.JupyterHub.load_roles.extend(ROLES)
    c.JupyterHub.custom_scopes.update(CUSTOM_SCOPES)
    c.Spawner.server_token_scopes = list(SERVER_TOKEN_SCOPES)
    c.Spawner.environment.update({"GENVIZ_POLL_URL": url or poll_url(host, port)})
    if public_url:  # the lecture page's address, shown with a QR code on the lecturer's panel
        c.Spawner.environment.update({"GENVIZ_LECTURE_URL": lecture_url(public_url)})
    if instructors:
        c.JupyterHub.load_groups.update({INSTRUCTORS: {"users": sorted(instructors)}})
