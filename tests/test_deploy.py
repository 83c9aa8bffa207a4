"""The hub deployment (deploy/): configurations parse and say what they should, the launcher
names what is missing, Z2JH and TLJH keys are known to the chart / tljh-config, and the
nbgitpuller links open every notebook. Fast: no server is started (browser_tests/test_hub.py
runs a real hub; tests/test_deploy_kernels.py the single-user kernel settings)."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import types
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import yaml
from traitlets.config import Config, PyFileConfigLoader
from file_modules import load_file

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


run_hub = load_file(DEPLOY / "run_hub.py", "run_hub")
links = load_file(ROOT / "scripts" / "set_repository_url.py", "set_repository_url_links")


#: numpy's and scipy's OpenBLAS pools spin against each other: every entry point runs its
#: kernels with one BLAS thread (Makefile, the three hub configurations)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def test_every_make_target_runs_with_one_blas_thread_unless_told_otherwise():
    make = (ROOT / "Makefile").read_text()
    for var in BLAS_THREADS:
        assert f"\nexport {var} ?= 1\n" in make, var
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREADS}
    shown = subprocess.run(["make", "-s", "-f", "-", "show"], cwd=ROOT, env=env, text=True,
                           input="include Makefile\nshow:\n\t@echo $$OPENBLAS_NUM_THREADS "
                                 "$$OMP_NUM_THREADS $$MKL_NUM_THREADS\n",
                           capture_output=True, timeout=60)
    assert shown.stdout.split() == ["1", "1", "1"], shown.stderr
    chosen = subprocess.run(["make", "-s", "-f", "-", "show"], cwd=ROOT,
                            env={**env, "OPENBLAS_NUM_THREADS": "4"}, text=True,
                            input="include Makefile\nshow:\n\t@echo $$OPENBLAS_NUM_THREADS\n",
                            capture_output=True, timeout=60)
    assert chosen.stdout.split() == ["4"], chosen.stderr  # a user's own choice is kept


def load_config(path: Path, env: dict, monkeypatch) -> Config:
    for k in ["HUB_PORT", "GENVIZ_HUB_API_PORT", "GENVIZ_PROXY_API_PORT", "GENVIZ_HUB_PASSWORD",
              "GENVIZ_HUB_API_TOKEN", "GENVIZ_HUB_MAX_SERVERS", "GENVIZ_CULL_TIMEOUT",
              "GENVIZ_HUB_ADMINS", "GENVIZ_CHP"]:
        monkeypatch.delenv(k, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    return PyFileConfigLoader(path.name, path=str(path.parent)).load_config()


@pytest.fixture()
def trial(tmp_path, monkeypatch):
    env = {"GENVIZ_HUB_HOME": str(tmp_path / "home"), "GENVIZ_HUB_STATE": str(tmp_path / "state")}
    return lambda **more: load_config(DEPLOY / "jupyterhub_config.py", {**env, **more}, monkeypatch)


# --- the trial hub ---------------------------------------------------------------------------

def test_trial_hub_listens_on_loopback_only_with_the_ports_from_the_environment(trial):
    c = trial(HUB_PORT="18123")
    assert (c.JupyterHub.ip, c.JupyterHub.port) == ("127.0.0.1", 18123)
    assert (c.JupyterHub.hub_ip, c.JupyterHub.hub_port) == ("127.0.0.1", 18124)
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:18125"
    assert c.Spawner.ip == "127.0.0.1"
    assert trial().JupyterHub.port == 8000  # the default


def test_trial_hub_logs_in_anyone_optionally_with_one_password(trial):
    from jupyterhub.auth import DummyAuthenticator

    c = trial()
    # JupyterHub's dummy login, refusing any address but 127.0.0.1 (tests/test_deploy_auth.py)
    assert issubclass(c.JupyterHub.authenticator_class, DummyAuthenticator)
    assert c.Authenticator.allow_all is True
    assert "password" not in c.DummyAuthenticator
    assert trial(GENVIZ_HUB_PASSWORD="s3cret").DummyAuthenticator.password == "s3cret"
    assert trial(GENVIZ_HUB_ADMINS="ada, bob").Authenticator.admin_users == {"ada", "bob"}


def test_trial_hub_spawner_settings_are_the_single_user_settings(trial, tmp_path):
    c = trial()
    assert c.JupyterHub.spawner_class == "simple"
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(tmp_path / "home" / "{username}")
    # issue #21: one start costs ~4.3 CPU-s; the default 30 s fails once ~12 students arrive
    assert c.Spawner.http_timeout >= 120 and c.Spawner.start_timeout >= c.Spawner.http_timeout
    env = c.Spawner.environment
    config_path = env["JUPYTER_CONFIG_PATH"].split(os.pathsep)
    data_path = env["JUPYTER_PATH"].split(os.pathsep)
    assert config_path == [str(DEPLOY / "singleuser" / "etc" / "jupyter"), str(ROOT / "etc" / "jupyter")]
    assert data_path == [str(DEPLOY / "singleuser" / "share" / "jupyter"), str(ROOT / "share" / "jupyter")]
    assert (Path(config_path[0]) / "jupyter_server_config.py").is_file()
    assert (Path(config_path[1]) / "genviz_websockets.py").is_file()
    assert (Path(data_path[0]) / "kernels" / "python3" / "kernel.json").is_file()
    assert (Path(data_path[1]) / "labextensions" / "genviz-a11y" / "package.json").is_file()
    assert Path(c.Spawner.cmd[0]).name == "jupyterhub-singleuser"
    for var in BLAS_THREADS:  # one BLAS thread per kernel (Makefile: 112 s -> 3.6 s)
        assert env[var] == (os.environ.get(var) or "1"), var


def test_trial_hub_limits_servers_with_a_page_that_says_so(trial):
    c = trial()
    assert c.JupyterHub.active_server_limit == 50
    assert trial(GENVIZ_HUB_MAX_SERVERS="3").JupyterHub.active_server_limit == 3
    page = (Path(c.JupyterHub.template_paths[0]) / "error.html").read_text()
    assert 'extends "templates/error.html"' in page and "status_code == 429" in page
    assert "hub is full" in page and "genviz_max_servers" in page
    with pytest.raises(SystemExit, match="GENVIZ_HUB_MAX_SERVERS must be an integer"):
        trial(GENVIZ_HUB_MAX_SERVERS="many")


def test_trial_hub_runs_the_idle_culler_with_a_role_and_the_timeout_from_the_environment(trial):
    c = trial(GENVIZ_CULL_TIMEOUT="60")
    # and the room's poll service (test_poll_config.py), the rebuild (test_rebuild_config.py)
    culler, poll, rebuild = c.JupyterHub.services
    assert culler["name"] == "idle-culler" and poll["name"] == "genviz-poll"
    assert culler["command"][1:3] == ["-m", "jupyterhub_idle_culler"]
    assert "--timeout=60" in culler["command"] and "--cull-every=30" in culler["command"]
    role = c.JupyterHub.load_roles[0]
    assert role["services"] == ["idle-culler"]
    assert set(role["scopes"]) == {"list:users", "read:users:activity", "read:servers",
                                   "delete:servers"}
    assert "--timeout=3600" in trial().JupyterHub.services[0]["command"]


def test_trial_hub_admin_token_gets_only_what_pre_starting_servers_needs(trial):
    c = trial(GENVIZ_HUB_API_TOKEN="0123456789abcdef")
    admin = [s for s in c.JupyterHub.services if s["name"] == "course-admin"][0]
    assert admin["api_token"] == "0123456789abcdef"
    role = [r for r in c.JupyterHub.load_roles if r["name"] == "course-admin"][0]
    assert "admin:servers" in role["scopes"] and "admin:users" in role["scopes"]
    assert "admin-ui" not in role["scopes"] and "shares" not in role["scopes"]


def test_first_spawn_copies_the_course_and_never_overwrites_it(trial, tmp_path):
    c = trial()
    home = tmp_path / "home" / "ada"
    spawner = type("S", (), {"home_dir": str(home)})()
    c.Spawner.pre_spawn_hook(spawner)
    copied = sorted(p.name for p in (home / "genviz" / "notebooks").glob("*.ipynb"))
    assert copied == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert c.Spawner.default_url == "/lab/tree/genviz/notebooks/00_start_here.ipynb"
    assert (home / c.Spawner.default_url.removeprefix("/lab/tree/")).is_file()
    mine = home / "genviz" / "notebooks" / "00_start_here.ipynb"
    mine.write_text("my work")
    c.Spawner.pre_spawn_hook(spawner)
    assert mine.read_text() == "my work"


# --- the single-user settings: IPC kernels in a short runtime directory -----------------------

SOCKET = "/kernel-00000000-0000-0000-0000-000000000000-ipc-5"


def _singleuser(monkeypatch, runtime):
    if runtime is None:
        monkeypatch.delenv("JUPYTER_RUNTIME_DIR", raising=False)
    else:
        monkeypatch.setenv("JUPYTER_RUNTIME_DIR", runtime)
    registered = []
    monkeypatch.setattr("atexit.register", lambda *a: registered.append(a))
    c = load_config(DEPLOY / "singleuser" / "etc" / "jupyter" / "jupyter_server_config.py", {},
                    monkeypatch)
    return c, os.environ.get("JUPYTER_RUNTIME_DIR"), registered


def test_single_user_kernels_use_ipc_in_a_runtime_dir_short_enough_for_unix_sockets(
        monkeypatch, tmp_path):
    # the trial hub's default home makes the default runtime dir too long for a socket path
    default = ROOT / "build/hub/home/a-student/.local/share/jupyter/runtime"
    long_dir = str(tmp_path / ("x" * 60) / "runtime")
    assert len(long_dir + SOCKET) > 107
    for runtime in [str(default), long_dir, None]:
        c, chosen, registered = _singleuser(monkeypatch, runtime)
        assert c.KernelManager.transport == "ipc"
        assert chosen != runtime and len(chosen + SOCKET) <= 107
        assert Path(chosen).is_dir() and (Path(chosen).stat().st_mode & 0o777) == 0o700
        assert registered and registered[0][1] == chosen  # removed at exit
        os.rmdir(chosen)
    if len(str(default) + SOCKET) <= 107:
        pytest.skip("this checkout's path is short enough that the default would fit")


def test_single_user_keeps_a_short_runtime_dir_it_is_given(monkeypatch):
    c, chosen, registered = _singleuser(monkeypatch, "/tmp/jr-given")
    assert chosen == "/tmp/jr-given" and not registered


# --- the launcher ---------------------------------------------------------------------------

def test_launcher_names_a_missing_proxy_and_how_to_install_it(tmp_path):
    env = {"PATH": str(tmp_path), "HUB_PORT": str(_free_port()),
           "GENVIZ_LOCAL_NODE_BIN": str(tmp_path / "no-node")}  # not the project's build/node
    found = [p for p in run_hub.problems(env) if "configurable-http-proxy" in p]
    assert len(found) == 1 and "npm install -g configurable-http-proxy" in found[0]
    (tmp_path / "node").mkdir()  # the project-local install is found when PATH has none
    chp = tmp_path / "node" / "configurable-http-proxy"
    chp.write_text("#!/bin/sh\n")
    chp.chmod(0o755)
    assert run_hub.find_proxy({**env, "GENVIZ_LOCAL_NODE_BIN": str(tmp_path / "node")}) == str(chp)
    bad = run_hub.problems({**env, "GENVIZ_CHP": "/nonexistent/chp"})
    assert any("GENVIZ_CHP='/nonexistent/chp' is not a command" in p for p in bad)


def _free_port():
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port < 65000 and not any(run_hub.port_in_use(port + i) for i in range(4)):
            return port


def test_launcher_names_a_port_in_use_and_how_to_pick_another():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = {"PATH": os.environ["PATH"], "HUB_PORT": str(port),
               "GENVIZ_HUB_API_PORT": str(_free_port()), "GENVIZ_PROXY_API_PORT": str(_free_port()),
               "GENVIZ_POLL_PORT": str(_free_port())}
        found = [p for p in run_hub.problems(env) if "in use" in p]
    assert len(found) == 1 and f"port {port}" in found[0] and "HUB_PORT=" in found[0]


def test_launcher_ports_and_their_bad_values():
    assert run_hub.hub_ports({}) == {"HUB_PORT": 8000, "GENVIZ_HUB_API_PORT": 8001,
                                     "GENVIZ_PROXY_API_PORT": 8002, "GENVIZ_POLL_PORT": 8003}
    assert run_hub.hub_ports({"HUB_PORT": "9000"})["GENVIZ_PROXY_API_PORT"] == 9002
    for bad, match in [("eighty", "HUB_PORT must be a port number"), ("0", "between 1 and 65535"),
                       ("70000", "between 1 and 65535")]:
        with pytest.raises(ValueError, match=match):
            run_hub.hub_ports({"HUB_PORT": bad})
    assert any("HUB_PORT must be a port number" in p for p in run_hub.problems({"HUB_PORT": "x"}))


def test_launcher_refuses_a_token_jupyterhub_would_reject():
    env = {"PATH": os.environ["PATH"], "HUB_PORT": str(_free_port()), "GENVIZ_HUB_API_TOKEN": "short"}
    assert any("GENVIZ_HUB_API_TOKEN is too short" in p for p in run_hub.problems(env))


def test_launcher_exits_2_and_prints_every_problem(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path), HUB_PORT="x",
               GENVIZ_LOCAL_NODE_BIN=str(tmp_path / "no-node"))  # not the project's build/node
    env.pop("GENVIZ_CHP", None)
    out = subprocess.run([sys.executable, str(DEPLOY / "run_hub.py")], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "The trial hub cannot start" in out.stderr and "configurable-http-proxy" in out.stderr
    assert "HUB_PORT must be a port number" in out.stderr


def test_make_hub_runs_the_launcher_with_the_port():
    out = subprocess.run(["make", "-n", "hub", "HUB_PORT=8123", "VENV=/nonexistent"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60).stdout
    assert "HUB_PORT=8123" in out and "deploy/run_hub.py" in out
    assert "configurable-http-proxy" in out  # installed into build/node when not on PATH
    helptext = subprocess.run(["make", "help"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "make hub" in helptext


def test_hub_extra_lists_what_the_trial_hub_imports():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=!~ ]", r)[0] for r in extras["hub"]}
    # psutil: deploy/run_hub.py finds and stops every process of the hub; segno: the QR code
    # of the lecture page on the lecturer's panel (genviz.widgets._lecture_link, optional)
    assert names == {"jupyterhub", "jupyterhub-idle-culler", "psutil", "segno"}
    assert "psutil" in {re.split(r"[<>=!~ ]", r)[0] for r in extras["test"]}


# --- Zero to JupyterHub -------------------------------------------------------------------------

def _key_list(path: Path) -> set[str]:
    return {ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")}


def unknown_keys(values: dict, known: set[str], prefix: str = "") -> list[str]:
    """Key paths of ``values`` the list does not know (a '.*' entry allows any key below)."""
    out = []
    for key, sub in values.items():
        path = f"{prefix}.{key}" if prefix else key
        if prefix and f"{prefix}.*" in known:
            continue
        if path not in known:
            out.append(path)
        elif isinstance(sub, dict):
            out += unknown_keys(sub, known, path)
    return out


Z2JH = yaml.safe_load((DEPLOY / "z2jh" / "values.yaml").read_text())
Z2JH_KEYS = _key_list(DEPLOY / "z2jh" / "schema_keys.txt")


def test_z2jh_values_use_only_keys_the_chart_schema_knows():
    assert len(Z2JH_KEYS) > 400  # the whole chart, not a hand-picked list
    assert unknown_keys(Z2JH, Z2JH_KEYS) == []
    # the check fails on a typo, on a key at the wrong level, and inside a known section
    planted = {**Z2JH, "singleuser": {**Z2JH["singleuser"], "memmory": {"limit": "1G"}},
               "culling": {"enabled": True}}
    assert sorted(unknown_keys(planted, Z2JH_KEYS)) == ["culling", "singleuser.memmory"]
    # ... and free-form sections (hub.config: any JupyterHub trait) are not walked
    assert unknown_keys({"hub": {"config": {"Anything": {"x": 1}}}}, Z2JH_KEYS) == []


def test_z2jh_memory_cull_and_timeouts():
    su = Z2JH["singleuser"]
    # guarantee ~400M (a topic notebook measured 330-360 MB PSS), limit 1G
    assert su["memory"] == {"guarantee": "400M", "limit": "1G"}
    assert su["startTimeout"] >= 300 and Z2JH["hub"]["config"]["KubeSpawner"]["http_timeout"] >= 120
    assert Z2JH["cull"]["enabled"] is True and Z2JH["cull"]["timeout"] == 3600
    assert Z2JH["hub"]["activeServerLimit"] > 0
    assert "repo2docker" in (DEPLOY / "z2jh" / "values.yaml").read_text()
    # the image repo2docker builds from environment.yml has nbgitpuller (the links need it)
    env_yml = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert any(str(d).startswith("nbgitpuller") for d in env_yml["dependencies"])
    assert "--target-repo-dir /srv/genviz" in (DEPLOY / "z2jh" / "values.yaml").read_text()


def test_z2jh_single_user_paths_are_the_repository_deploy_dirs_in_the_image():
    env = Z2JH["singleuser"]["extraEnv"]
    assert all(env[var] == "1" for var in BLAS_THREADS)  # one BLAS thread per kernel
    for var, rels in [("JUPYTER_CONFIG_PATH", ["deploy/singleuser/etc/jupyter"]),
                      ("JUPYTER_PATH", ["deploy/singleuser/share/jupyter", "share/jupyter"])]:
        assert env[var] == ":".join(f"/srv/genviz/{rel}" for rel in rels)
        assert all((ROOT / rel).is_dir() for rel in rels)


def test_z2jh_hub_config_names_configurable_jupyterhub_traits():
    pytest.importorskip("jupyterhub", reason="the hub extra: pip install -e '.[hub]'")
    from jupyterhub.app import JupyterHub
    from jupyterhub.auth import Authenticator
    from jupyterhub.spawner import Spawner

    classes = {"JupyterHub": JupyterHub, "Authenticator": Authenticator,
               "KubeSpawner": Spawner}  # KubeSpawner's timeouts are Spawner's
    for cls, traits in Z2JH["hub"]["config"].items():
        for trait in traits:
            assert trait in classes[cls].class_trait_names(config=True), f"{cls}.{trait}"
    for name, code in Z2JH["hub"].get("extraConfig", {}).items():
        compile(code, name, "exec")
    # the check fails on a trait JupyterHub does not let you configure
    assert "spawn_throttle_retry_range" not in JupyterHub.class_trait_names(config=True)


# --- The Littlest JupyterHub -------------------------------------------------------------------

TLJH_KEYS = _key_list(DEPLOY / "tljh" / "config_keys.txt")


def _flat(d, prefix=""):
    for k, v in d.items():
        path = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            yield from _flat(v, path)
        else:
            yield path, v


def _tljh_known(path):
    return path in TLJH_KEYS or any(
        k.endswith(".*") and re.fullmatch(re.escape(k[:-2]).replace(r"\.\*", r"\.[^.]+") + r"\.[^.]+", path)
        for k in TLJH_KEYS)


def test_tljh_config_and_setup_script_use_known_keys_and_agree():
    config = dict(_flat(yaml.safe_load((DEPLOY / "tljh" / "config.yaml").read_text())))
    assert all(_tljh_known(k) for k in config), [k for k in config if not _tljh_known(k)]
    assert _tljh_known("auth.DummyAuthenticator.password") and not _tljh_known("limits.ram")
    script = (DEPLOY / "tljh" / "setup.sh").read_text()
    sets = dict(re.findall(r"^tljh-config set (\S+) (\S+)$", script, re.M))
    assert sets and all(_tljh_known(k) for k in sets)
    for key, value in sets.items():
        assert str(config[key]).lower() == value.lower(), key
    assert set(sets) == set(config) - {"users.admin"}
    assert "tljh-config add-item users.admin instructor" in script
    assert config["limits.memory"] == "1G"
    subprocess.run(["bash", "-n", str(DEPLOY / "tljh" / "setup.sh")], check=True)


def test_tljh_hub_snippet_has_the_trial_hubs_single_user_settings(trial, monkeypatch, tmp_path):
    from hub_testing import fake_tljh_package

    # TLJH with a closed login (the snippet refuses an open one: tests/test_deploy_auth.py)
    fake, config = fake_tljh_package(tmp_path, "users:\n  allowed: [ada]\n")
    monkeypatch.syspath_prepend(str(fake))
    # the repository's checkout: /opt/genviz on TLJH (setup.sh), this work tree here
    c = load_config(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py",
                    {"FAKE_TLJH_CONFIG": str(config), "GENVIZ_REPO": str(ROOT)}, monkeypatch)
    t = trial()
    assert c.Spawner.http_timeout == t.Spawner.http_timeout
    assert c.Spawner.start_timeout == t.Spawner.start_timeout
    assert c.JupyterHub.active_server_limit > 0
    env = c.Spawner.environment.get_value({})  # a LazyConfigValue: TLJH's own entries + ours
    assert env["JUPYTER_CONFIG_PATH"] == f"{ROOT}/deploy/singleuser/etc/jupyter"
    assert env["JUPYTER_PATH"] == f"{ROOT}/deploy/singleuser/share/jupyter:{ROOT}/share/jupyter"
    assert all(env[var] == "1" for var in BLAS_THREADS)  # one BLAS thread per kernel
    assert c.JupyterHub.template_paths == [f"{ROOT}/deploy/templates"]
    assert Path(env["JUPYTER_CONFIG_PATH"]).is_dir()
    assert all(Path(d).is_dir() for d in env["JUPYTER_PATH"].split(":"))
    assert 'GENVIZ_REPO", "/opt/genviz"' in (DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py").read_text()
    assert "/opt/genviz" in (DEPLOY / "tljh" / "setup.sh").read_text()


# --- nbgitpuller links -----------------------------------------------------------------------

def _notebooks(root=ROOT) -> list:
    """The course's notebooks, as the links find them (the count is never written down: a new
    topic's notebook needs no edit here)."""
    return sorted(p.relative_to(root).as_posix() for p in (root / "notebooks").glob("[0-9][0-9]_*.ipynb"))


NOTEBOOKS = _notebooks()


def _check_links(repo, root=ROOT):
    text = links.all_links(repo, "https://hub.example.edu/", "main", root=root)
    notebooks = _notebooks(root)
    hub_links = re.findall(r"\[JupyterHub\]\(([^)]+)\)", text)
    assert len(hub_links) == len(notebooks) >= 10
    for nb, link in zip(notebooks, hub_links):
        parts = urlparse(link)
        assert (parts.scheme, parts.netloc, parts.path) == ("https", "hub.example.edu",
                                                            "/hub/user-redirect/git-pull")
        q = {k: v[0] for k, v in parse_qs(parts.query, strict_parsing=True).items()}
        assert q == {"repo": repo, "branch": "main", "urlpath": f"lab/tree/genviz/{nb}"}
    assert len(re.findall(r"\[Binder\]\(https://mybinder.org/v2/", text)) == len(notebooks)
    return notebooks


@pytest.mark.parametrize("repo", ["https://github.com/acme/genviz", "https://gitlab.example.org/t/genviz.git"])
def test_nbgitpuller_link_of_every_notebook_opens_it_in_the_pulled_folder(repo):
    assert _check_links(repo) == NOTEBOOKS


def test_a_new_topic_notebook_needs_no_edit_of_the_link_checks(tmp_path):
    """A notebook numbered next after the declared topics (genviz.topics.TOPICS), planted in a
    copy of notebooks/, passes the same checks (so adding a topic never breaks this test)."""
    from genviz.topics import next_number

    planted = f"notebooks/{next_number():02d}_planted_topic.ipynb"
    (tmp_path / "notebooks").mkdir()
    for nb in NOTEBOOKS:
        (tmp_path / nb).write_text("{}")
    (tmp_path / planted).write_text("{}")
    found = _check_links("https://github.com/acme/genviz", root=tmp_path)
    assert len(found) == len(NOTEBOOKS) + 1 and found[-1] == planted


def _stub_site_packages(monkeypatch):
    """docs/conf.py patches MyST-NB's renderer when it is read; `make test` does not install the
    site extra, so stand-ins let the configuration itself be executed (its settings are what the
    tests check)."""
    if importlib.util.find_spec("docutils") is None:
        docutils = types.ModuleType("docutils")
        docutils.nodes = types.ModuleType("docutils.nodes")
        monkeypatch.setitem(sys.modules, "docutils", docutils)
        monkeypatch.setitem(sys.modules, "docutils.nodes", docutils.nodes)
    if importlib.util.find_spec("myst_nb") is None:
        render = types.ModuleType("myst_nb.core.render")
        render.NbElementRenderer = type("NbElementRenderer", (), {
            "render_image": lambda self, data: [], "render_nb_finalise": lambda self, meta: None})
        for name in ("myst_nb", "myst_nb.core"):
            monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
        monkeypatch.setitem(sys.modules, "myst_nb.core.render", render)


def test_setting_a_hub_adds_the_jupyterhub_button_and_readme_link(tmp_path, monkeypatch):
    _stub_site_packages(monkeypatch)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text((ROOT / "docs" / "conf.py").read_text())
    (tmp_path / "README.md").write_text((ROOT / "README.md").read_text())
    links.set_repository_url("https://github.com/acme/genviz", root=tmp_path,
                             hub="https://hub.example.edu", branch="spring")
    conf = (tmp_path / "docs" / "conf.py").read_text()
    assert 'HUB_URL = "https://hub.example.edu"' in conf and 'REPOSITORY_BRANCH = "spring"' in conf
    ns = {"__file__": str(ROOT / "docs" / "conf.py")}
    exec(compile(conf, "conf.py", "exec"), ns)
    assert ns["html_theme_options"]["launch_buttons"]["jupyterhub_url"] == "https://hub.example.edu"
    readme = (tmp_path / "README.md").read_text()
    assert "mybinder.org/v2/gh/acme/genviz/HEAD" in readme
    assert ("https://hub.example.edu/hub/user-redirect/git-pull?repo=https%3A//github.com/acme/genviz"
            "&urlpath=lab/tree/genviz/notebooks/00_start_here.ipynb&branch=spring") in readme
    links.set_repository_url("https://github.com/acme/genviz", root=tmp_path)  # hub unset again
    conf = (tmp_path / "docs" / "conf.py").read_text()
    assert 'HUB_URL = ""' in conf and 'REPOSITORY_BRANCH = "HEAD"' in conf
    assert "git-pull" not in (tmp_path / "README.md").read_text().split(links.END)[0]


@pytest.mark.parametrize("kwargs, match", [
    ({"url": "https://github.com/a/genviz", "hub": "http://hub.example.edu"}, "hub must be an https URL"),
    ({"url": "https://github.com/a/genviz", "hub": "https://h.example.edu", "branch": "HEAD"},
     "branch must be a branch name"),
    ({"url": "https://github.com/a/genviz", "hub": "https://h.example.edu", "branch": "a b"},
     "branch must be a branch name"),
    ({"url": "", "hub": "https://h.example.edu"}, "hub needs the repository url"),
])
def test_bad_hub_settings_are_refused(tmp_path, kwargs, match):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text((ROOT / "docs" / "conf.py").read_text())
    (tmp_path / "README.md").write_text((ROOT / "README.md").read_text())
    with pytest.raises(ValueError, match=match):
        links.set_repository_url(root=tmp_path, **kwargs)
    with pytest.raises(ValueError, match="url must be set"):
        links.all_links("")


def test_docs_conf_has_the_hub_setting_unset_in_the_repository():
    tree = ast.parse((ROOT / "docs" / "conf.py").read_text())
    values = {n.targets[0].id: n.value.value for n in tree.body
              if isinstance(n, ast.Assign) and isinstance(getattr(n, "value", None), ast.Constant)
              and isinstance(n.targets[0], ast.Name)}
    assert values["HUB_URL"] == ""


def test_every_hubs_voila_finds_the_offline_default_template(trial, tmp_path, monkeypatch):
    """#37 item 5: each deployment's servers have the project's share/jupyter on their Jupyter
    data path (the genviz and genviz-lecture Voila templates) and read etc/jupyter/voila.py,
    which makes genviz the default template (tests/test_voila_offline.py renders it): the trial
    hub from the work tree, TLJH and Z2JH from the repository's checkout, voila.py from
    postBuild's copy in the environment's prefix."""
    templates = ROOT / "share" / "jupyter" / "voila" / "templates"
    assert (templates / "genviz" / "conf.json").is_file()
    assert json.loads((templates / "genviz-lecture" / "conf.json").read_text())["base_template"] \
        == "genviz"
    assert 'VoilaConfiguration.template = "genviz"' in (ROOT / "etc/jupyter/voila.py").read_text()
    # the trial hub: the work tree's etc/jupyter and share/jupyter
    env = trial().Spawner.environment
    assert str(ROOT / "etc" / "jupyter") in env["JUPYTER_CONFIG_PATH"].split(os.pathsep)
    assert str(ROOT / "share" / "jupyter") in env["JUPYTER_PATH"].split(os.pathsep)
    # TLJH: /opt/genviz's share/jupyter; postBuild copies voila.py into the prefix
    from hub_testing import fake_tljh_package

    fake, config = fake_tljh_package(tmp_path, "users:\n  allowed: [ada]\n")
    monkeypatch.syspath_prepend(str(fake))
    c = load_config(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py",
                    {"FAKE_TLJH_CONFIG": str(config), "GENVIZ_REPO": str(ROOT)}, monkeypatch)
    assert f"{ROOT}/share/jupyter" in \
        c.Spawner.environment.get_value({})["JUPYTER_PATH"].split(":")
    post_build = (ROOT / "postBuild").read_text()
    assert "etc/jupyter/voila.py" in post_build
    # Binder (no hub config): postBuild puts both templates on the prefix's data path
    assert 'cp -r "share/jupyter/voila/templates/$t" "$voila_templates/$t"' in post_build
    assert "for t in genviz genviz-lecture; do" in post_build
    assert "bash postBuild" in (DEPLOY / "tljh" / "setup.sh").read_text()
    # Z2JH: the image's repository (repo2docker --target-repo-dir /srv/genviz)
    assert "/srv/genviz/share/jupyter" in \
        Z2JH["singleuser"]["extraEnv"]["JUPYTER_PATH"].split(":")
