"""The rebuild of precomputed states after a course update is on in every deployment, alike
(issue #39, item 5): the trial hub and TLJH's snippet run the hub-managed service
``genviz-rebuild`` through deploy/rebuild_config.py, Z2JH a sidecar of the hub pod; each runs
``python -m genviz_updates.rebuild watch`` on the course with a states directory whose
``grids`` folder is on every kernel's ``GENVIZ_STATES_PATH`` and whose status
``GENVIZ_REBUILD_DIR`` names."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import pytest
import yaml

from hub_testing import fake_tljh_package
from test_poll_config import _load, _value

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
_spec = importlib.util.spec_from_file_location("rebuild_config", DEPLOY / "rebuild_config.py")
rebuild_config = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rebuild_config)
Z2JH = yaml.safe_load((DEPLOY / "z2jh" / "values.yaml").read_text())


def _watch_args(command: list[str]) -> argparse.Namespace:
    """The command's arguments, parsed by the service's own parser (an unknown one fails)."""
    i = command.index("genviz_updates.rebuild")
    assert command[i - 1] == "-m" and command[i + 1] == "watch"
    from genviz_updates import rebuild

    return rebuild.parser().parse_args(command[i + 1:])


def _check(c) -> tuple[dict, argparse.Namespace, dict]:
    (entry,) = [s for s in _value(c.JupyterHub.services, []) if s["name"] == "genviz-rebuild"]
    assert "url" not in entry and entry["display"] is False  # a managed process, no API
    args = _watch_args(entry["command"])
    env = _value(c.Spawner.environment, {})
    assert env["GENVIZ_STATES_PATH"] == str(Path(args.states) / "grids")
    assert env["GENVIZ_REBUILD_DIR"] == args.states == entry["cwd"]
    assert 0 < args.timeout <= 3600 and args.interval >= 10
    return entry, args, env


def test_the_trial_hub_runs_the_rebuild_service_on_its_work_tree(tmp_path, monkeypatch):
    c = _load(DEPLOY / "jupyterhub_config.py", monkeypatch, HUB_PORT="18200",
              GENVIZ_HUB_HOME=str(tmp_path / "home"), GENVIZ_HUB_STATE=str(tmp_path / "state"))
    entry, args, _ = _check(c)
    assert args.repo == str(ROOT) and args.branch == "HEAD"
    assert Path(args.states) == tmp_path / "state" / "rebuild"
    assert (Path(args.states) / "grids").is_dir()
    assert entry["environment"]["GENVIZ_TRIAL_HUB"]  # stopped with the hub (run_hub.py)
    off = _load(DEPLOY / "jupyterhub_config.py", monkeypatch, GENVIZ_REBUILD_REPO="")
    assert "genviz-rebuild" not in [s["name"] for s in off.JupyterHub.services]


def test_tljh_runs_it_as_its_own_user_on_the_course_setup_cloned(tmp_path, monkeypatch):
    fake, config = fake_tljh_package(tmp_path, "users:\n  allowed: [ada]\n  admin: [prof]\n")
    monkeypatch.syspath_prepend(str(fake))
    c = _load(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py", monkeypatch,
              FAKE_TLJH_CONFIG=str(config), GENVIZ_REPO=str(ROOT))
    entry, args, _ = _check(c)
    assert entry["user"] == "genviz-rebuild" and entry["command"][0] == "/opt/tljh/user/bin/python"
    assert args.states == "/opt/tljh/state/genviz-rebuild"
    assert (args.repo, args.branch) == rebuild_config.course_of(str(ROOT))
    script = (DEPLOY / "tljh" / "setup.sh").read_text()
    assert "useradd --system" in script and "genviz-rebuild" in script
    assert 'chmod 755 "$REBUILD_STATE" "$REBUILD_STATE/grids"' in script


def test_course_of_names_the_origin_and_branch(tmp_path):
    import subprocess

    up = tmp_path / "up"
    subprocess.run(["git", "init", "-q", "-b", "term", str(up)], check=True)
    subprocess.run(["git", "-C", str(up), "-c", "user.name=t", "-c", "user.email=t@t", "commit",
                    "-q", "--allow-empty", "-m", "x"], check=True)
    subprocess.run(["git", "clone", "-q", str(up), str(tmp_path / "co")], check=True)
    assert rebuild_config.course_of(str(tmp_path / "co")) == (str(up), "term")
    assert rebuild_config.course_of(str(tmp_path)) == (str(tmp_path), "HEAD")  # no repository


def test_a_missing_course_is_refused(tmp_path):
    from traitlets.config import Config

    with pytest.raises(ValueError, match="repo and branch"):
        rebuild_config.configure(Config(), python="python", repo=" ", branch="main",
                                 states=str(tmp_path))


def test_z2jh_states_the_same_in_a_sidecar_with_a_shared_volume():
    hub, su = Z2JH["hub"], Z2JH["singleuser"]
    (side,) = [x for x in hub["extraContainers"] if x["name"] == "genviz-rebuild"]
    args = _watch_args(side["command"])
    assert side["image"].split(":")[0] == su["image"]["name"]  # the students' image: same code
    assert side["image"].split(":")[1] == su["image"]["tag"]
    assert side["workingDir"] == args.states
    mounts = {m["name"]: m for m in side["volumeMounts"]}
    assert mounts["genviz-states"]["mountPath"] == args.states
    assert not mounts["genviz-states"].get("readOnly")
    env = su["extraEnv"]
    assert env["GENVIZ_STATES_PATH"] == f"{args.states}/grids"
    assert env["GENVIZ_REBUILD_DIR"] == args.states
    (mount,) = [m for m in su["storage"]["extraVolumeMounts"] if m["name"] == "genviz-states"]
    assert mount["mountPath"] == args.states and mount["readOnly"] is True
    claims = {v["name"]: v["persistentVolumeClaim"]["claimName"]
              for v in hub["extraVolumes"] + su["storage"]["extraVolumes"]
              if "persistentVolumeClaim" in v}  # (the lecture bundle's emptyDir is not one)
    assert claims == {"genviz-states": "genviz-states"}


def test_the_trial_hubs_start_message_says_how_the_states_come(tmp_path):
    """``make hub`` (deploy/run_hub.py) tells the lecturer that gridded sliders use the kernel
    until the first start's build has written their grids, and how to ask what it built."""
    spec = importlib.util.spec_from_file_location("run_hub_for_note", DEPLOY / "run_hub.py")
    run_hub = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_hub)
    on = run_hub.states_note({}, tmp_path)
    assert "builds any missing grid in the background" in on and "use the kernel" in on
    assert f"GENVIZ_REBUILD_DIR={tmp_path / 'rebuild'}" in on and "genviz_updates status" in on
    off = run_hub.states_note({"GENVIZ_REBUILD_REPO": " "}, tmp_path)
    assert "rebuild service is off" in off and "make states" in off
