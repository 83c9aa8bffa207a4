"""A course hub never lets everyone in: refuse to start when the login admits anyone.

genviz's deployments run this against the hub's final configuration and stop the hub with a
message that names what to set:

* Zero to JupyterHub: ``deploy/z2jh/values.yaml`` carries this file, verbatim, as
  ``hub.extraConfig.genviz-refuse-open-login`` (tests/test_deploy_auth.py checks the copy), so
  the hub pod exits at start until ``hub.config`` names a real authenticator and who may log in;
* The Littlest JupyterHub: ``deploy/tljh/setup.sh`` runs ``python deploy/hub_auth.py --tljh``
  with TLJH's own configurer before it installs anything (and refuses), and the hub snippet
  ``deploy/tljh/jupyterhub_config.d/genviz.py`` runs the check again at every hub start.

A login admits anyone (:func:`open_login_problems`) when

* the authenticator lets any name in without a password: ``dummy`` (the chart's default),
  ``tmp`` (jupyterhub-tmpauthenticator), their classes or subclasses;
* ``allow_all`` is true for ``Authenticator`` or any authenticator class (TLJH turns it on
  for its default FirstUseAuthenticator when ``users.allowed`` is empty; an OAuthenticator with
  ``allow_all`` admits every GitHub/Google/... account in the world);
* anyone may create an account: FirstUseAuthenticator ``create_users``, NativeAuthenticator
  ``open_signup``;
* ``allowed_users`` holds a wildcard (``*``): JupyterHub has none, so it is a mistake that
  someone believed opened the hub.

The trial hub (deploy/jupyterhub_config.py) keeps its dummy login on purpose, but only on
127.0.0.1: :func:`loopback_problems` refuses any other address for the hub's public and
internal sockets and for the single-user servers.

Run as ``python deploy/hub_auth.py --tljh`` it applies TLJH's configuration
(``/opt/tljh/config/config.yaml``, read by TLJH's own ``tljh.configurer``, then TLJH's plugins)
and exits 2 with one line per problem. Imported, it does nothing; executed as hub configuration
(Z2JH's ``extraConfig``, where the hub's Config is ``c``) it checks ``c`` at once.
"""

import ipaddress
import sys
from urllib.parse import urlparse

#: authenticators that log in any user name (entry-point names as JupyterHub/Z2JH accept them,
#: import paths, and class names)
OPEN_AUTHENTICATORS = {
    "dummy", "dummyauthenticator", "dummyauthenticator.dummyauthenticator",
    "jupyterhub.auth.dummyauthenticator", "tmp", "tmpauthenticator",
    "tmpauthenticator.tmpauthenticator",
}
_OPEN_CLASS_NAMES = {"DummyAuthenticator", "TmpAuthenticator"}
#: (class section, trait) that let anyone create an account
_OPEN_SIGNUP = [("FirstUseAuthenticator", "create_users"), ("NativeAuthenticator", "open_signup")]

#: how each deployment names the settings, for the messages
SETTINGS = {
    "z2jh": {
        "class": "hub.config.JupyterHub.authenticator_class",
        "section": "hub.config.{section}.{trait}",
        "example": ("in deploy/z2jh/values.yaml set hub.config.JupyterHub.authenticator_class to "
                    "your institution's login (e.g. github, generic-oauth, ldapauthenticator."
                    "LDAPAuthenticator) with its settings, and who may log in: "
                    "hub.config.<Authenticator>.allowed_users, allowed_groups or "
                    "allowed_organizations (docs: Teach a class, 'Who can log in')"),
    },
    "tljh": {
        "class": "auth.type",
        "section": "auth.{section}.{trait} (tljh-config)",
        "example": ("name who may log in, e.g. `sudo tljh-config add-item users.allowed NAME` for "
                    "each student (FirstUseAuthenticator: each listed name sets its password at "
                    "first login), or a real login: `sudo tljh-config set auth.type "
                    "oauthenticator.github.GitHubOAuthenticator` with its settings (TLJH docs: "
                    "Authentication); then run setup.sh again"),
    },
    "hub": {
        "class": "c.JupyterHub.authenticator_class",
        "section": "c.{section}.{trait}",
        "example": ("set c.JupyterHub.authenticator_class to a real login and name who may log "
                    "in (c.Authenticator.allowed_users or the authenticator's allowed groups)"),
    },
}


def _get(config, section, trait, default=None):
    """``config.section.trait`` of a traitlets Config (or nested dict) without creating it."""
    sec = config.get(section) if hasattr(config, "get") else None
    if sec is None or not hasattr(sec, "get"):
        return default
    value = sec.get(trait, default)
    # a LazyConfigValue (c.X.y.add(...)) is not a value set by the configuration
    return default if type(value).__name__ == "LazyConfigValue" else value


def authenticator_name(config):
    """The configured authenticator as a lower-case name ('' when unset)."""
    cls = _get(config, "JupyterHub", "authenticator_class")
    if cls is None:
        return ""
    if isinstance(cls, type):
        return f"{cls.__module__}.{cls.__name__}".lower()
    return str(cls).strip().lower()


def _is_open_class(config):
    cls = _get(config, "JupyterHub", "authenticator_class")
    if isinstance(cls, type):
        return any(k.__name__ in _OPEN_CLASS_NAMES for k in cls.__mro__)
    return authenticator_name(config) in OPEN_AUTHENTICATORS


def _authenticator_sections(config):
    """Config sections that configure an authenticator: 'Authenticator', '*Authenticator'."""
    keys = config.keys() if hasattr(config, "keys") else []
    return sorted(k for k in keys if k == "Authenticator" or str(k).endswith("Authenticator"))


def open_login_problems(config, deployment="hub"):
    """Why ``config`` (a traitlets Config) would let anyone log in: one sentence each.

    ``deployment`` ("z2jh", "tljh" or "hub") chooses how the settings are named.
    An empty list means the login is closed to strangers.

    >>> from traitlets.config import Config
    >>> c = Config()
    >>> c.JupyterHub.authenticator_class = "github"
    >>> c.GitHubOAuthenticator.allowed_organizations = {"my-course"}
    >>> open_login_problems(c)
    []
    >>> c.GitHubOAuthenticator.allow_all = True
    >>> print(open_login_problems(c)[0][:66])
    c.GitHubOAuthenticator.allow_all is true: every account the login
    """
    names = SETTINGS[deployment]
    out = []
    if _is_open_class(config):
        shown = _get(config, "JupyterHub", "authenticator_class")
        shown = shown.__name__ if isinstance(shown, type) else shown
        out.append(f"{names['class']} is {shown!r}: it logs in any user name, with no password "
                   f"or with one shared password")
    for section in _authenticator_sections(config):
        if _get(config, section, "allow_all") is True:
            out.append(f"{names['section'].format(section=section, trait='allow_all')} is true: "
                       f"every account the login accepts gets a server")
        allowed = _get(config, section, "allowed_users") or ()
        if any(str(u).strip() in {"*", "all", "everyone"} for u in allowed):
            out.append(f"{names['section'].format(section=section, trait='allowed_users')} "
                       f"contains a wildcard: JupyterHub has none, list the user names")
    for section, trait in _OPEN_SIGNUP:
        if _get(config, section, trait) is True:
            out.append(f"{names['section'].format(section=section, trait=trait)} is true: "
                       f"anyone can create an account")
    return out


def loopback_problems(config):
    """Addresses of a trial hub that are not loopback ([] when all are 127.0.0.1 / ::1).

    Checks the hub's public address (``JupyterHub.ip`` or ``bind_url``), its internal API
    (``hub_ip`` or ``hub_bind_url``) and the single-user servers' ``Spawner.ip``.
    """
    out = []
    for where, value in [("JupyterHub.ip", _get(config, "JupyterHub", "ip")),
                         ("JupyterHub.bind_url", _get(config, "JupyterHub", "bind_url")),
                         ("JupyterHub.hub_ip", _get(config, "JupyterHub", "hub_ip")),
                         ("JupyterHub.hub_bind_url", _get(config, "JupyterHub", "hub_bind_url")),
                         ("Spawner.ip", _get(config, "Spawner", "ip"))]:
        if value is None:
            continue
        host = urlparse(value).hostname if "://" in str(value) else str(value).strip("[]")
        if not host:
            out.append(f"{where} is {value!r} (every interface)")
        elif not is_loopback(host):
            out.append(f"{where} is {value!r}")
    return out


def is_loopback(host):
    """True for 127.0.0.0/8, ::1 and 'localhost'."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def refuse_open_login(config, deployment="hub", stream=None):
    """Exit (status 1) with one line per problem when ``config`` lets anyone log in."""
    problems = open_login_problems(config, deployment)
    if not problems:
        return
    stream = stream or sys.stderr
    print("genviz: this hub would let anyone log in, so it does not start.", file=stream)
    for p in problems:
        print(f"  - {p}", file=stream)
    print(f"  To fix: {SETTINGS[deployment]['example']}.", file=stream)
    sys.exit(1)


def tljh_config():
    """TLJH's configuration as its hub applies it: TLJH's own configurer, then its plugins (as
    TLJH's jupyterhub_config.py does). Raises ImportError outside TLJH's hub environment."""
    from tljh import configurer  # only in TLJH's hub environment
    from traitlets.config import Config

    c = Config()
    configurer.apply_config(configurer.load_config(), c)
    try:
        from tljh.utils import get_plugin_manager
    except ImportError:
        return c
    get_plugin_manager().hook.tljh_custom_jupyterhub_config(c=c)
    return c


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["--tljh"]:
        print("usage: python deploy/hub_auth.py --tljh   (with TLJH's hub Python, as root)",
              file=sys.stderr)
        return 2
    try:
        config = tljh_config()
    except ImportError:
        print("genviz: TLJH's hub environment not found: run this with TLJH's hub Python, "
              "/opt/tljh/hub/bin/python3", file=sys.stderr)
        return 2
    try:
        refuse_open_login(config, "tljh")
    except SystemExit:
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
elif type(globals().get("c")).__name__ == "Config":  # run as hub configuration (Z2JH extraConfig)
    refuse_open_login(globals()["c"], "z2jh")
