"""A course hub never lets everyone in (issue #29, item 5).

* deploy/hub_auth.py says when a login admits anyone (cases stated here by hand: JupyterHub's
  and the authenticators' documented meanings of each setting);
* the shipped Zero to JupyterHub values and TLJH configuration name no such login, and each
  deployment refuses to start with one -- the Z2JH hub runs values.yaml's extraConfig (a
  verbatim copy of hub_auth.py) on the chart's settings, TLJH's setup.sh stops before it
  installs anything, and TLJH's hub snippet stops the hub -- naming what to set;
* the trial hub keeps its dummy login, and refuses to listen beyond 127.0.0.1 (its launcher
  before it starts, and the hub itself on its final settings, however they were given).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from traitlets.config import Config, PyFileConfigLoader

from hub_testing import fake_tljh_package, find_proxy, free_port_block
from file_modules import load_file


ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


hub_auth = load_file(DEPLOY / "hub_auth.py", "hub_auth_under_test")
sync = load_file(DEPLOY / "z2jh" / "sync_extra_config.py", "sync_extra_config_under_test")
run_hub = load_file(DEPLOY / "run_hub.py", "run_hub_auth_test")


def _config(**sections) -> Config:
    c = Config()
    for section, traits in sections.items():
        for trait, value in traits.items():
            c[section][trait] = value
    return c


# --- what counts as letting everyone in ------------------------------------------------------

OPEN = [
    ("the chart's default", {"JupyterHub": {"authenticator_class": "dummy"}}, "logs in any user name"),
    ("dummy by import path", {"JupyterHub": {"authenticator_class": "jupyterhub.auth.DummyAuthenticator"}},
     "logs in any user name"),
    ("tmpauthenticator", {"JupyterHub": {"authenticator_class": "tmp"}}, "logs in any user name"),
    ("allow_all", {"JupyterHub": {"authenticator_class": "github"},
                   "GitHubOAuthenticator": {"allow_all": True}}, "GitHubOAuthenticator.allow_all is true"),
    ("allow_all on the base class", {"JupyterHub": {"authenticator_class": "generic-oauth"},
                                     "Authenticator": {"allow_all": True}}, "Authenticator.allow_all"),
    ("TLJH's default", {"JupyterHub": {"authenticator_class": "firstuseauthenticator.FirstUseAuthenticator"},
                        "FirstUseAuthenticator": {"allow_all": True}}, "FirstUseAuthenticator.allow_all"),
    ("first use creating users", {"JupyterHub": {"authenticator_class": "firstuseauthenticator.FirstUseAuthenticator"},
                                  "FirstUseAuthenticator": {"create_users": True},
                                  "Authenticator": {"allowed_users": {"ada"}}}, "anyone can create an account"),
    ("open signup", {"JupyterHub": {"authenticator_class": "native"},
                     "NativeAuthenticator": {"open_signup": True}}, "anyone can create an account"),
    ("a wildcard", {"JupyterHub": {"authenticator_class": "ldapauthenticator.LDAPAuthenticator"},
                    "Authenticator": {"allowed_users": {"*"}}}, "wildcard"),
]

CLOSED = [
    ("github, one organisation", {"JupyterHub": {"authenticator_class": "github"},
                                  "GitHubOAuthenticator": {"allowed_organizations": {"my-course"}}}),
    ("a list of students", {"JupyterHub": {"authenticator_class": "firstuseauthenticator.FirstUseAuthenticator"},
                            "Authenticator": {"allowed_users": {"ada", "ben"}}}),
    ("allow_all explicitly off", {"JupyterHub": {"authenticator_class": "generic-oauth"},
                                  "GenericOAuthenticator": {"allow_all": False, "allowed_groups": {"cs229"}}}),
    ("nothing set (JupyterHub's default PAM, system users only)", {}),
]


@pytest.mark.parametrize("case, sections, says", OPEN, ids=[c[0] for c in OPEN])
def test_a_login_that_admits_anyone_is_named(case, sections, says):
    problems = hub_auth.open_login_problems(_config(**sections))
    assert len(problems) >= 1 and any(says in p for p in problems), problems


@pytest.mark.parametrize("case, sections", CLOSED, ids=[c[0] for c in CLOSED])
def test_a_closed_login_passes(case, sections):
    assert hub_auth.open_login_problems(_config(**sections)) == []


def test_dummy_classes_and_their_subclasses_are_open():
    from jupyterhub.auth import DummyAuthenticator

    class Mine(DummyAuthenticator):
        pass

    for cls in (DummyAuthenticator, Mine):
        assert hub_auth.open_login_problems(_config(JupyterHub={"authenticator_class": cls}))
    from jupyterhub.auth import PAMAuthenticator

    assert not hub_auth.open_login_problems(_config(JupyterHub={"authenticator_class": PAMAuthenticator}))


def test_refusal_exits_naming_what_to_set_for_each_deployment(capsys):
    c = _config(JupyterHub={"authenticator_class": "dummy"})
    for deployment, names in [("z2jh", "hub.config.JupyterHub.authenticator_class"),
                              ("tljh", "tljh-config add-item users.allowed"),
                              ("hub", "c.JupyterHub.authenticator_class")]:
        with pytest.raises(SystemExit) as exit_:
            hub_auth.refuse_open_login(c, deployment)
        assert exit_.value.code == 1
        err = capsys.readouterr().err
        assert "would let anyone log in" in err and names in err
    hub_auth.refuse_open_login(_config(**CLOSED[0][1]), "z2jh")  # no exit


def test_loopback_addresses():
    ok = {"JupyterHub": {"bind_url": "http://127.0.0.1:8000/", "hub_ip": "127.0.0.1"},
          "Spawner": {"ip": "::1"}}
    assert hub_auth.loopback_problems(ok) == []
    for section, trait, value in [("JupyterHub", "bind_url", "http://:8000/"),
                                  ("JupyterHub", "bind_url", "http://0.0.0.0:8000"),
                                  ("JupyterHub", "ip", ""), ("JupyterHub", "hub_ip", "10.0.0.5"),
                                  ("JupyterHub", "hub_bind_url", "http://192.168.1.2:8081"),
                                  ("Spawner", "ip", "0.0.0.0"), ("Spawner", "ip", "example.org")]:
        bad = {k: dict(v) for k, v in ok.items()}
        bad[section][trait] = value
        assert hub_auth.loopback_problems(bad), (section, trait, value)


# --- Zero to JupyterHub -----------------------------------------------------------------------

Z2JH_TEXT = (DEPLOY / "z2jh" / "values.yaml").read_text()
Z2JH = yaml.safe_load(Z2JH_TEXT)


def _walk(node, path=""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, f"{path}.{k}" if path else str(k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, f"{path}[{i}]")
    else:
        yield path, node


def test_z2jh_values_name_no_login_that_admits_anyone():
    settings = dict(_walk(Z2JH))
    assert not [p for p, v in settings.items() if p.endswith(("allow_all", "open_signup",
                                                              "create_users")) and v is True]
    assert not [p for p, v in settings.items() if p.endswith("authenticator_class")]
    config = Z2JH["hub"]["config"]
    assert "JupyterHub" not in config or "authenticator_class" not in config["JupyterHub"]
    assert "dummy" not in {str(v).lower() for v in settings.values()}


def _chart_config(values) -> Config:
    """The hub's Config as the chart builds it: the chart's own default values
    (hub.config.JupyterHub.authenticator_class: dummy, z2jh jupyterhub/values.yaml), then the
    values' hub.config sections (c[section].update(cfg) in the chart's jupyterhub_config.py)."""
    c = Config()
    c.JupyterHub.authenticator_class = "dummy"
    for section, cfg in values["hub"].get("config", {}).items():
        c[section].update(cfg)
    return c


def _run_extra_config(c: Config) -> str | None:
    """Execute hub.extraConfig's entries as the chart does (exec in its config namespace, where
    `c` is the hub's Config); return the message of a refusal, None if the hub would start."""
    namespace = {"c": c, "get_config": lambda key=None, default=None: default}  # z2jh's helper
    for key, code in sorted(Z2JH["hub"]["extraConfig"].items()):
        try:
            exec(compile(code, key, "exec"), namespace)  # noqa: S102
        except SystemExit:
            return key
    return None


def _wal_listeners(engine_listeners) -> list:
    """The deploy/hub_db.py listeners added (conftest.engine_listeners removes them after)."""
    return [fn for _, name, fn in engine_listeners if (name, fn.__name__) == ("connect", "wal_on_connect")]


def test_z2jh_hub_as_shipped_refuses_to_start_naming_the_setting(capsys, engine_listeners):
    assert _run_extra_config(_chart_config(Z2JH)) == "genviz-refuse-open-login"
    assert len(_wal_listeners(engine_listeners)) == 1  # genviz-hub-db ran: the hub's sqlite in WAL
    err = capsys.readouterr().err
    assert "hub.config.JupyterHub.authenticator_class is 'dummy'" in err
    assert "allowed_users, allowed_groups or allowed_organizations" in err


@pytest.mark.parametrize("planted, refused", [
    ({"JupyterHub": {"authenticator_class": "github"},
      "GitHubOAuthenticator": {"allowed_organizations": ["my-course"]}}, False),
    ({"JupyterHub": {"authenticator_class": "github"},
      "GitHubOAuthenticator": {"allow_all": True}}, True),
    ({"JupyterHub": {"authenticator_class": "dummy"}, "Authenticator": {"allow_all": True}}, True),
    ({"JupyterHub": {"authenticator_class": "tmp"}}, True),
])
def test_z2jh_hub_refuses_a_planted_open_login_and_starts_with_a_closed_one(planted, refused, capsys):
    values = {**Z2JH, "hub": {**Z2JH["hub"], "config": {**Z2JH["hub"]["config"], **planted}}}
    assert (_run_extra_config(_chart_config(values)) is not None) is refused
    capsys.readouterr()


def test_z2jh_extra_config_is_a_verbatim_copy_of_hub_auth():
    assert Z2JH["hub"]["extraConfig"]["genviz-refuse-open-login"] == \
        (DEPLOY / "hub_auth.py").read_text(), "run: python deploy/z2jh/sync_extra_config.py"
    assert sync.synced(Z2JH_TEXT, (DEPLOY / "hub_auth.py").read_text()) == Z2JH_TEXT
    # the check fails on a stale copy
    stale = Z2JH_TEXT.replace("OPEN_AUTHENTICATORS = {", "OPEN_AUTHENTICATORS = {'x', ", 1)
    assert sync.synced(stale, (DEPLOY / "hub_auth.py").read_text()) == Z2JH_TEXT != stale
    assert yaml.safe_load(stale)["hub"]["extraConfig"]["genviz-refuse-open-login"] != \
        (DEPLOY / "hub_auth.py").read_text()


def test_importing_hub_auth_checks_nothing():
    # imported (the trial hub, TLJH's snippet, the tests) it defines functions only
    assert hub_auth.refuse_open_login and not hasattr(hub_auth, "c")


# --- The Littlest JupyterHub ------------------------------------------------------------------

@pytest.fixture()
def fake_tljh(tmp_path):
    return fake_tljh_package(tmp_path)


def test_tljh_config_names_no_login_that_admits_anyone():
    config = yaml.safe_load((DEPLOY / "tljh" / "config.yaml").read_text())
    flat = dict(_walk(config))
    assert not [k for k in flat if k.startswith("auth.")]  # the lecturer sets it
    script = (DEPLOY / "tljh" / "setup.sh").read_text()
    assert "tljh-config set auth" not in script and "allow_all" not in script
    assert "dummy" not in script.lower()


def _setup_sh(tmp_path, fake, auth_yaml: str, *, bundle: bool = True):
    """Run deploy/tljh/setup.sh against a local clone, stand-ins for tljh-config, the user
    environment's python and TLJH's hub python; return (result, calls to the stand-ins).
    ``bundle``: the lecture bundle postBuild would have built is in the user environment (the
    stand-in python builds nothing)."""
    fake_pkg, config = fake
    config.write_text(auth_yaml)
    if bundle:
        installed = tmp_path / "user" / "share" / "genviz" / "lecture_bundle.json"
        installed.parent.mkdir(parents=True)
        installed.write_text("{}")
    origin = tmp_path / "origin"
    (origin / "deploy" / "tljh" / "jupyterhub_config.d").mkdir(parents=True)
    shutil.copy(DEPLOY / "hub_auth.py", origin / "deploy" / "hub_auth.py")
    shutil.copy(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py",
                origin / "deploy" / "tljh" / "jupyterhub_config.d" / "genviz.py")
    (origin / "postBuild").write_text("echo postBuild >> \"$CALLS\"\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q", "-b", "main", str(origin)], check=True)
    subprocess.run([*git, "-C", str(origin), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(origin), "commit", "-q", "-m", "course"], check=True)
    bin_ = tmp_path / "bin"
    user_env = tmp_path / "user"
    (user_env / "bin").mkdir(parents=True)
    bin_.mkdir()
    calls = tmp_path / "calls.txt"
    calls.write_text("")
    # stand-ins for everything that would change this machine (users, ownership, TLJH)
    stubs = [(bin_ / "tljh-config", "tljh-config", 0), (user_env / "bin" / "python", "user-python", 0),
             (bin_ / "useradd", "useradd", 0), (bin_ / "chown", "chown", 0), (bin_ / "id", "id", 1)]
    for path, name, code in stubs:
        path.write_text(f"#!/bin/sh\necho {name} \"$@\" >> \"$CALLS\"\nexit {code}\n")
        path.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_}{os.pathsep}{os.environ['PATH']}", CALLS=str(calls),
               GENVIZ_REPO=str(tmp_path / "opt-genviz"), TLJH_USER_ENV=str(user_env),
               TLJH_CONFIG_DIR=str(tmp_path / "tljh-config"), TLJH_HUB_PYTHON=sys.executable,
               GENVIZ_POLL_STATE=str(tmp_path / "poll-state"),
               FAKE_TLJH_CONFIG=str(config), PYTHONPATH=str(fake_pkg))
    result = subprocess.run(["bash", str(DEPLOY / "tljh" / "setup.sh"), str(origin), "main"],
                            env=env, capture_output=True, text=True, timeout=120)
    return result, calls.read_text()


def test_tljh_setup_refuses_tljhs_default_login_before_installing_anything(tmp_path, fake_tljh):
    result, calls = _setup_sh(tmp_path, fake_tljh, "")  # TLJH as bootstrapped: no auth set
    assert result.returncode == 2, result.stdout + result.stderr
    assert "FirstUseAuthenticator.allow_all (tljh-config) is true" in result.stderr
    assert "tljh-config add-item users.allowed NAME" in result.stderr
    assert "stopped before installing anything" in result.stderr
    assert calls == ""  # no pip, no postBuild, no tljh-config


def test_tljh_setup_refuses_a_planted_dummy_login(tmp_path, fake_tljh):
    result, calls = _setup_sh(tmp_path, fake_tljh, "auth:\n  type: dummy\n")
    assert result.returncode == 2 and "auth.type is 'dummy'" in result.stderr and calls == ""


def test_tljh_setup_goes_on_with_a_list_of_students(tmp_path, fake_tljh):
    result, calls = _setup_sh(tmp_path, fake_tljh, "users:\n  allowed: [ada, ben]\n")
    assert result.returncode == 0, result.stderr
    assert "user-python -m pip install" in calls and "postBuild" in calls
    assert "tljh-config reload hub" in calls
    assert (tmp_path / "tljh-config" / "jupyterhub_config.d" / "genviz.py").is_file()
    # the poll service's own system user and private state directory
    assert "useradd --system" in calls and f"chown genviz-poll {tmp_path / 'poll-state'}" in calls
    assert (tmp_path / "poll-state").is_dir()


def test_tljh_setup_stops_when_postbuild_wrote_no_lecture_bundle(tmp_path, fake_tljh):
    """The poll service reads the bundle postBuild installs in the user environment
    (deploy/tljh/jupyterhub_config.d/genviz.py): setup.sh says so when it is missing."""
    result, calls = _setup_sh(tmp_path, fake_tljh, "users:\n  allowed: [ada]\n", bundle=False)
    assert result.returncode == 1
    assert f"postBuild wrote no lecture bundle at {tmp_path / 'user'}/share/genviz/" \
        "lecture_bundle.json" in result.stderr
    assert "postBuild" in calls and "tljh-config reload hub" not in calls


def _load_snippet(monkeypatch, fake, auth_yaml):
    fake_pkg, config = fake
    config.write_text(auth_yaml)
    monkeypatch.setenv("FAKE_TLJH_CONFIG", str(config))
    monkeypatch.setenv("GENVIZ_REPO", str(ROOT))
    monkeypatch.syspath_prepend(str(fake_pkg))
    for name in [m for m in sys.modules if m == "tljh" or m.startswith("tljh.")]:
        monkeypatch.delitem(sys.modules, name)
    path = DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py"
    return PyFileConfigLoader(path.name, path=str(path.parent)).load_config()


def test_tljh_hub_snippet_stops_a_hub_whose_login_admits_anyone(monkeypatch, fake_tljh, capsys,
                                                                 engine_listeners):
    with pytest.raises(SystemExit):
        _load_snippet(monkeypatch, fake_tljh, "")
    assert "auth.FirstUseAuthenticator.allow_all" in capsys.readouterr().err
    assert not _wal_listeners(engine_listeners)  # refused before anything else
    c = _load_snippet(monkeypatch, fake_tljh,
                      "auth:\n  type: oauthenticator.github.GitHubOAuthenticator\n"
                      "  GitHubOAuthenticator:\n    allowed_organizations: [my-course]\n")
    assert c.Spawner.http_timeout == 180
    assert len(_wal_listeners(engine_listeners)) == 1  # deploy/hub_db.py: the hub's sqlite in WAL


def test_tljh_hub_snippet_outside_tljh_refuses(monkeypatch, capsys):
    monkeypatch.setenv("GENVIZ_REPO", str(ROOT))
    monkeypatch.setitem(sys.modules, "tljh", None)  # import tljh -> ImportError
    path = DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py"
    with pytest.raises(SystemExit, match="cannot read TLJH's login settings"):
        PyFileConfigLoader(path.name, path=str(path.parent)).load_config()


# --- the trial hub: dummy login on 127.0.0.1 only ---------------------------------------------

def _trial_config(tmp_path, monkeypatch):
    monkeypatch.setenv("GENVIZ_HUB_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GENVIZ_HUB_STATE", str(tmp_path / "state"))
    path = DEPLOY / "jupyterhub_config.py"
    return PyFileConfigLoader(path.name, path=str(path.parent)).load_config()


def test_trial_hub_keeps_the_dummy_login_only_on_loopback(tmp_path, monkeypatch, capsys):
    from jupyterhub.app import JupyterHub
    from jupyterhub.auth import DummyAuthenticator

    c = _trial_config(tmp_path, monkeypatch)
    cls = c.JupyterHub.authenticator_class
    assert issubclass(cls, DummyAuthenticator) and c.Authenticator.allow_all is True
    assert hub_auth.open_login_problems(c)  # open by design: hence the loopback rule
    cls(parent=JupyterHub(config=c)).check_allow_config()  # as configured: fine
    for where, value in [("ip", "0.0.0.0"), ("ip", ""), ("hub_ip", "0.0.0.0"),
                         ("bind_url", "http://192.0.2.7:8000/")]:
        wide = c.copy()
        wide.JupyterHub[where] = value
        with pytest.raises(SystemExit):
            cls(parent=JupyterHub(config=wide)).check_allow_config()
        assert "listens on 127.0.0.1 only" in capsys.readouterr().err
    wide = c.copy()
    wide.Spawner.ip = "0.0.0.0"
    with pytest.raises(SystemExit):
        cls(parent=JupyterHub(config=wide)).check_allow_config()


def test_trial_launcher_refuses_options_that_open_the_hub():
    for argv in (["--ip=0.0.0.0"], ["--ip", "0.0.0.0"], ["--JupyterHub.bind_url=http://:8000"],
                 ["--JupyterHub.hub_ip=10.1.2.3"], ["--Spawner.ip=0.0.0.0"], ["--url", "http://h:1"]):
        assert run_hub.address_problems(argv), argv
    for argv in ([], ["--ip=127.0.0.1"], ["--debug"], ["--JupyterHub.bind_url=http://127.0.0.1:9/"]):
        assert run_hub.address_problems(argv) == [], argv


@pytest.mark.slow
def test_the_trial_hub_itself_refuses_a_wide_address(tmp_path):
    """jupyterhub -f deploy/jupyterhub_config.py --ip=0.0.0.0 (past the launcher) exits."""
    port = free_port_block(4)
    env = dict(os.environ, HUB_PORT=str(port), GENVIZ_HUB_API_PORT=str(port + 1),
               GENVIZ_PROXY_API_PORT=str(port + 2), GENVIZ_POLL_PORT=str(port + 3),
               GENVIZ_HUB_HOME=str(tmp_path / "home"), GENVIZ_HUB_STATE=str(tmp_path / "state"),
               GENVIZ_CHP=find_proxy() or "configurable-http-proxy")
    out = subprocess.run([sys.executable, "-m", "jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py"),
                          "--ip=0.0.0.0"], env=env, capture_output=True, text=True, timeout=120,
                         start_new_session=True)
    assert out.returncode != 0
    assert "listens on 127.0.0.1 only; refused: JupyterHub.bind_url is 'http://0.0.0.0:" in out.stderr
    # and the launcher refuses it before anything starts
    launched = subprocess.run([sys.executable, str(DEPLOY / "run_hub.py"), "--ip", "0.0.0.0"],
                              env=env, capture_output=True, text=True, timeout=60)
    assert launched.returncode == 2 and "beyond 127.0.0.1" in launched.stderr


def test_docs_say_how_to_set_the_login():
    page = (ROOT / "docs" / "teach_a_class.md").read_text()
    assert "## Who can log in" in page
    for words in ["tljh-config add-item users.allowed", "hub.config.JupyterHub.authenticator_class",
                  "allow_all", "127.0.0.1"]:
        assert words in page, words
    assert "branch wt-" not in page and "re-checks" not in page  # a reader's page (issue #29.6)
