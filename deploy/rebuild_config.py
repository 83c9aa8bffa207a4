"""The hub's rebuild of precomputed states after a course update (issue #39, item 5), as hub
configuration: the trial hub (deploy/jupyterhub_config.py) and TLJH
(deploy/tljh/jupyterhub_config.d/genviz.py) call :func:`configure`; Z2JH states the same in the
chart's terms (deploy/z2jh/values.yaml: a sidecar of the hub pod, since the hub's image has no
genviz; tests/test_rebuild_config.py compares them).

- a hub-managed service ``genviz-rebuild`` (no URL, no API token use: a process the hub starts,
  restarts and stops) runs ``python -m genviz_updates.rebuild watch``: it fetches the course's
  branch every ``interval`` seconds and, at its first start and after a course update, builds
  in the background the grids that are missing or whose keys changed, once per course
  (genviz_updates.rebuild);
- every single-user server (so every kernel) gets ``GENVIZ_STATES_PATH=<states>/grids``, where
  the rebuilt grids are written, and ``GENVIZ_REBUILD_DIR=<states>``, where
  ``python -m genviz_updates status`` reads what was rebuilt.

``python``: an interpreter of the *users'* environment (genviz, nbconvert, the same matplotlib
as the kernels: a grid's key includes matplotlib's version and rcParams).
"""

from __future__ import annotations

import os
import subprocess

SERVICE = "genviz-rebuild"


def service(python: str, *, repo: str, branch: str, states: str, interval: float = 60,
            timeout: float = 1800, environment=None, user: str | None = None) -> dict:
    """The ``c.JupyterHub.services`` entry."""
    entry = {"name": SERVICE, "display": False,
             "command": [python, "-m", "genviz_updates.rebuild", "watch", f"--repo={repo}",
                         f"--branch={branch}", f"--states={states}", f"--interval={interval:g}",
                         f"--timeout={timeout:g}"],
             "environment": {"MPLBACKEND": "Agg", **dict(environment or {})}, "cwd": states}
    if user:
        entry["user"] = user
    return entry


def course_of(checkout: str) -> tuple[str, str]:
    """``(repository, branch)`` a checkout was cloned from (its ``origin`` and current branch);
    the checkout itself and ``HEAD`` where it has none."""
    def git(*args):
        done = subprocess.run(["git", "-C", checkout, *args], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    branch = git("rev-parse", "--abbrev-ref", "HEAD")
    return git("remote", "get-url", "origin") or checkout, \
        branch if branch and branch != "HEAD" else "HEAD"


def spawner_environment(states: str) -> dict:
    return {"GENVIZ_STATES_PATH": os.path.join(states, "grids"), "GENVIZ_REBUILD_DIR": states}


def configure(c, *, python: str, repo: str, branch: str, states: str, interval: float = 60,
              timeout: float = 1800, environment=None, user: str | None = None) -> None:
    """Add the service and the servers' settings to ``c`` (a trial hub's Config, or one loaded
    apart from TLJH's own: appends and updates merge into TLJH's values)."""
    if not str(repo).strip() or not str(branch).strip():
        raise ValueError(f"repo and branch must name the course's repository and branch, got "
                         f"{repo!r} and {branch!r}")
    if user is None:  # runs as the hub's user, in its state directory (TLJH: setup.sh makes it)
        os.makedirs(os.path.join(states, "grids"), mode=0o755, exist_ok=True)
    c.JupyterHub.services.append(service(python, repo=repo, branch=branch, states=states,
                                         interval=interval, timeout=timeout,
                                         environment=environment, user=user))
    c.Spawner.environment.update(spawner_environment(states))
