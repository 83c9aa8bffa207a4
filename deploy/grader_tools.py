"""Students get the student's tools only: nbgrader's JupyterLab tools (its Nbgrader menu,
Validate button, Create Assignment, Formgrader, Assignments and Courses) for the hub group
``instructors`` only (issue #39).

nbgrader is installed with the course's environment (the ``test`` and ``grade`` extras) and
turns its four server extensions and its JupyterLab extension on for everybody. The project's
Jupyter config turns them off, shipped in the repository where every server reads it first:

* ``etc/jupyter`` (``make lab``, ``make present``, the trial hub) and
  ``deploy/singleuser/etc/jupyter`` (first on ``JUPYTER_CONFIG_PATH`` of every hub's servers:
  trial hub, TLJH, Z2JH) hold ``jupyter_server_config.d/genviz_students.json`` (the server
  extensions ``false``) and ``labconfig/page_config.json`` (``disabledExtensions``:
  ``@jupyter/nbgrader``);
* ``deploy/singleuser/grader/etc/jupyter`` turns them on again. :func:`configure` puts it
  first on ``JUPYTER_CONFIG_PATH`` for members of ``instructors`` when their server starts (a
  pre-spawn hook, chained after any hook already set); Z2JH's ``hub.extraConfig``
  ``genviz-grader-tools`` does the same in the chart; ``make lab-grader`` for a lecturer's own
  machine.

A user added to ``instructors`` gets the tools at their next server start.
tests/test_grader_tools.py reads the effective config of each deployment and starts a server.
"""

from __future__ import annotations

import os
from pathlib import Path

GROUP = "instructors"
#: the config directory that gives nbgrader's tools back (relative to the repository)
GRADER_CONFIG = Path("deploy") / "singleuser" / "grader" / "etc" / "jupyter"


def grader_config(repo) -> str:
    """The grader's config directory of the repository checked out at ``repo``."""
    return str(Path(repo) / GRADER_CONFIG)


def instructor_environment(environment: dict, groups, grader_dir: str,
                           group: str = GROUP) -> dict:
    """The server's environment: for a member of ``group``, ``grader_dir`` first on
    ``JUPYTER_CONFIG_PATH``; for anybody else ``environment`` unchanged. A new dict (a
    spawner's environment may be shared by every spawner of the hub).

    >>> instructor_environment({"JUPYTER_CONFIG_PATH": "/a"}, ["instructors"], "/g")
    {'JUPYTER_CONFIG_PATH': '/g:/a'}
    >>> instructor_environment({"JUPYTER_CONFIG_PATH": "/a"}, ["students"], "/g")
    {'JUPYTER_CONFIG_PATH': '/a'}
    """
    env = dict(environment or {})
    if group in set(groups):
        path = env.get("JUPYTER_CONFIG_PATH", "")
        env["JUPYTER_CONFIG_PATH"] = os.pathsep.join([grader_dir] + ([path] if path else []))
    return env


def configure(c, *, grader_dir: str, group: str = GROUP) -> None:
    """A pre-spawn hook giving members of ``group`` nbgrader's tools (after the hook already
    in ``c.Spawner.pre_spawn_hook``, if any)."""
    earlier = c.Spawner.get("pre_spawn_hook") if hasattr(c.Spawner, "get") else None
    if not callable(earlier):
        earlier = None

    def grader_tools(spawner):
        result = earlier(spawner) if earlier is not None else None
        groups = [g.name for g in getattr(getattr(spawner, "user", None), "groups", ())]
        if group in groups:
            spawner.environment = instructor_environment(spawner.environment, groups,
                                                         grader_dir, group)
        return result

    c.Spawner.pre_spawn_hook = grader_tools
