"""Students get the student's tools only (issue #39, item 7): nbgrader's server extensions and
its JupyterLab extension are off for a student in ``make lab``, the trial hub, TLJH and Z2JH,
and on for a member of ``instructors`` on the hubs (deploy/grader_tools.py). Read from the
effective config a server of each deployment computes (jupyter_server's extension config and
JupyterLab's page config, in a subprocess with the deployment's JUPYTER_CONFIG_PATH), and
from a started server's /lab page and /formgrader."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from traitlets.config import Config, PyFileConfigLoader

from hub_testing import fake_tljh_package, terminate

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
NBGRADER_SERVER = {"nbgrader.server_extensions.formgrader",
                   "nbgrader.server_extensions.validate_assignment",
                   "nbgrader.server_extensions.assignment_list",
                   "nbgrader.server_extensions.course_list"}
NBGRADER_LAB = "@jupyter/nbgrader"

pytest.importorskip("nbgrader")
_spec = importlib.util.spec_from_file_location("grader_tools_under_test", DEPLOY / "grader_tools.py")
grader_tools = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(grader_tools)

def effective(config_path: str) -> dict:
    """What a Jupyter server started with this JUPYTER_CONFIG_PATH enables (the environment's
    own config, where nbgrader turned itself on, included): jupyter_server's extension config
    and JupyterLab's page config, read by their own functions with the environment such a
    server gets (this one's, no other JUPYTER_* variable). They read the variables and the
    files on every call, so this process computes what a fresh one would (it did, one Python
    start per call, until the calls were made here)."""
    from jupyter_core.paths import jupyter_config_path, jupyter_path
    from jupyter_server.extension.config import ExtensionConfigManager
    from jupyterlab_server.config import get_page_config

    saved = {k: v for k, v in os.environ.items() if k.startswith("JUPYTER")}
    try:
        for key in saved:
            del os.environ[key]
        os.environ["JUPYTER_CONFIG_PATH"] = config_path
        ext = ExtensionConfigManager(
            read_config_path=jupyter_config_path()).get_jpserver_extensions()
        page = get_page_config([os.path.join(p, "labextensions") for p in jupyter_path()])
    finally:
        os.environ.pop("JUPYTER_CONFIG_PATH", None)
        os.environ.update(saved)
    on = {k for k, v in ext.items() if v}
    return {"server": NBGRADER_SERVER & on, "lab_disabled": NBGRADER_LAB in page["disabledExtensions"]}


STUDENT = {"server": set(), "lab_disabled": True}
GRADER = {"server": NBGRADER_SERVER, "lab_disabled": False}


def test_without_the_projects_config_nbgrader_is_on_for_everybody():
    """The planted fault (the state before issue #39): the environment alone gives every
    student nbgrader's tools, so the checks below can fail."""
    assert effective("") == GRADER


def test_make_lab_gives_the_students_tools_and_make_lab_grader_the_graders():
    text = (ROOT / "Makefile").read_text()
    assert "JUPYTER_CONFIG_PATH=$(CURDIR)/etc/jupyter" in text
    assert effective(str(ROOT / "etc" / "jupyter")) == STUDENT
    (line,) = [ln for ln in text.splitlines() if "JUPYTER_CONFIG_PATH=$(CURDIR)/deploy/singleuser/grader" in ln]
    path = re.search(r"JUPYTER_CONFIG_PATH=(\S+)", line).group(1).replace("$(CURDIR)", str(ROOT))
    assert effective(path) == GRADER


def test_the_students_config_is_the_same_for_make_lab_and_the_hubs():
    for rel in ("jupyter_server_config.d/genviz_students.json", "labconfig/page_config.json"):
        assert (ROOT / "etc" / "jupyter" / rel).read_text() == \
            (DEPLOY / "singleuser" / "etc" / "jupyter" / rel).read_text(), rel


def _spawner(environment, groups, home):
    user = SimpleNamespace(name="u", groups=[SimpleNamespace(name=g) for g in groups])
    return SimpleNamespace(user=user, environment=environment, home_dir=str(home))


def _value(v, default):
    return v.get_value(default) if type(v).__name__ == "LazyConfigValue" else v


def _spawned_config_path(c, hook, groups, home) -> str:
    env = dict(_value(c.Spawner.environment, {}))
    spawner = _spawner(env, groups, home)
    hook(spawner)
    assert env == dict(_value(c.Spawner.environment, {}))  # the shared dict is never changed
    return spawner.environment["JUPYTER_CONFIG_PATH"]


def test_the_trial_hub_gives_nbgrader_to_instructors_only(tmp_path, monkeypatch):
    for k, v in {"HUB_PORT": "18500", "GENVIZ_HUB_HOME": str(tmp_path / "home"),
                 "GENVIZ_HUB_STATE": str(tmp_path / "state")}.items():
        monkeypatch.setenv(k, v)
    path = DEPLOY / "jupyterhub_config.py"
    c = PyFileConfigLoader(path.name, path=str(path.parent)).load_config()
    hook = c.Spawner.pre_spawn_hook
    student = _spawned_config_path(c, hook, ["students"], tmp_path / "home" / "ada")
    assert (tmp_path / "home" / "ada" / "genviz" / "notebooks").is_dir()  # copy_course still runs
    assert effective(student) == STUDENT
    prof = _spawned_config_path(c, hook, ["instructors"], tmp_path / "home" / "prof")
    assert effective(prof) == GRADER


def test_tljh_gives_nbgrader_to_instructors_only(tmp_path, monkeypatch):
    fake, config = fake_tljh_package(tmp_path, "users:\n  allowed: [ada]\n  admin: [prof]\n")
    monkeypatch.syspath_prepend(str(fake))
    for k, v in {"FAKE_TLJH_CONFIG": str(config), "GENVIZ_REPO": str(ROOT)}.items():
        monkeypatch.setenv(k, v)
    path = DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py"
    c = PyFileConfigLoader(path.name, path=str(path.parent)).load_config()
    hook = c.Spawner.pre_spawn_hook
    assert effective(_spawned_config_path(c, hook, [], tmp_path)) == STUDENT
    assert effective(_spawned_config_path(c, hook, ["instructors"], tmp_path)) == GRADER


def test_z2jh_gives_nbgrader_to_instructors_only():
    values = yaml.safe_load((DEPLOY / "z2jh" / "values.yaml").read_text())
    image_root = "/srv/genviz"
    base = values["singleuser"]["extraEnv"]["JUPYTER_CONFIG_PATH"]
    assert base.startswith(image_root + "/deploy/singleuser/etc/jupyter")
    c = Config()
    earlier = []
    c.KubeSpawner.pre_spawn_hook = earlier.append  # a hook set before is still run
    code = values["hub"]["extraConfig"]["genviz-grader-tools"]
    exec(compile(code, "genviz-grader-tools", "exec"), {"c": c})  # noqa: S102 (as the chart does)
    hook = c.KubeSpawner.pre_spawn_hook
    got = {}
    for who, groups in (("student", []), ("instructor", ["instructors", "staff"])):
        shared = {"JUPYTER_CONFIG_PATH": base, "GENVIZ_POLL_URL": "x"}
        spawner = _spawner(shared, groups, "/home/jovyan")
        hook(spawner)
        assert shared == {"JUPYTER_CONFIG_PATH": base, "GENVIZ_POLL_URL": "x"}
        assert spawner.environment["GENVIZ_POLL_URL"] == "x"
        got[who] = effective(spawner.environment["JUPYTER_CONFIG_PATH"].replace(image_root, str(ROOT)))
        # the chart's copy does what deploy/grader_tools.py does
        assert spawner.environment == grader_tools.instructor_environment(
            shared, groups, image_root + "/" + str(grader_tools.GRADER_CONFIG))
    assert len(earlier) == 2
    assert got == {"student": STUDENT, "instructor": GRADER}


def test_a_hook_already_set_still_runs_first_and_its_result_is_returned():
    c = Config()
    calls = []
    c.Spawner.pre_spawn_hook = lambda spawner: calls.append(spawner) or "done"
    grader_tools.configure(c, grader_dir="/g")
    spawner = _spawner({}, ["instructors"], "/h")
    assert c.Spawner.pre_spawn_hook(spawner) == "done" and calls == [spawner]
    assert spawner.environment == {"JUPYTER_CONFIG_PATH": "/g"}
    c = Config()
    grader_tools.configure(c, grader_dir="/g", group="graders")
    spawner = _spawner({"JUPYTER_CONFIG_PATH": "/a"}, ["instructors"], "/h")
    c.Spawner.pre_spawn_hook(spawner)
    assert spawner.environment == {"JUPYTER_CONFIG_PATH": "/a"}  # not in the named group


# --- a started server ------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("who, config_path", [
    ("student", [ROOT / "etc" / "jupyter"]),
    ("grader", [DEPLOY / "singleuser" / "grader" / "etc" / "jupyter", ROOT / "etc" / "jupyter"]),
])
def test_a_started_server_shows_nbgrader_to_the_grader_only(tmp_path, who, config_path):
    port, token = _free_port(), "grader-tools-test"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    env.update(JUPYTER_CONFIG_PATH=os.pathsep.join(map(str, config_path)),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"), HOME=str(tmp_path))
    args = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
            f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}"]
    if os.geteuid() == 0:
        args.append("--allow-root")
    proc = subprocess.Popen(args, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)

    def get(path):
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     headers={"Authorization": f"token {token}"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, ""

    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, page = get("/lab")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(proc.stderr.read().decode()[-2000:]) from None
                time.sleep(0.5)
        assert status == 200
        config = json.loads(re.search(r'id="jupyter-config-data"[^>]*>\s*(\{.*?\})\s*</script>',
                                      page, re.S).group(1))
        disabled = config["disabledExtensions"]
        disabled = disabled if isinstance(disabled, list) else [k for k, v in disabled.items() if v]
        formgrader = get("/formgrader")[0]
        if who == "student":
            assert NBGRADER_LAB in disabled and formgrader == 404
        else:
            assert NBGRADER_LAB not in disabled and formgrader != 404
    finally:
        terminate(proc)
