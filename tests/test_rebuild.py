"""The hub rebuilds the precomputed states a course update unmatched, once per course, in the
background (issue #39, item 5: genviz_updates.rebuild).

A course is a git repository holding a copy of genviz's sources and data and one notebook that
makes two gridded explorers: the KDE explorer (genviz.widgets.kde) and the k-NN regression
explorer (genviz.widgets.knn, whose maths is genviz.knn). Commit 1 is "the image": its grids
are built by the job into a directory that then plays the image's prebuilt states. Then:

- commit 2 changes every docstring and adds a comment to every module: the job rebuilds
  nothing and keeps both grids;
- commit 3 changes genviz/knn.py's maths: the job rebuilds exactly the k-NN explorer's grid
  (the oracle: the module table of tests/test_state_keys.py, which says genviz.knn is used by
  genviz.widgets.knn only), the key of the new grid was in no store before, and a kernel-like
  process with GENVIZ_STATES=prebuilt on commit 3's code finds both explorers' grids.

Also: concurrent triggers start one build; a failing notebook and a killed build are reported
(status ``failed``, the notebook named); ``python -m genviz_updates status`` says what was
rebuilt; the watcher (the hub's service) triggers on a new commit and logs when a build ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest

from genviz_updates import rebuild
from genviz_updates.__main__ import main as cli

from test_state_keys import USERS, _rewrite_docs

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

CELL = """\
import numpy as np
from genviz.widgets.kde import kde_explorer
from genviz.widgets.knn import knn_regression_explorer
kde = kde_explorer(np.linspace(-1, 1, 7), h=0.3)
knn = knn_regression_explorer()
"""


def _git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


def _notebook(path: Path, *cells: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _commit(repo, message) -> str:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    repo = tmp_path_factory.mktemp("course")
    shutil.copytree(ROOT / "genviz", repo / "genviz",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "static"))
    shutil.copytree(ROOT / "genviz" / "widgets" / "static", repo / "genviz" / "widgets" / "static")
    _notebook(repo / "notebooks" / "01_two_explorers.ipynb", CELL)
    _git(repo, "init", "-q", "-b", "main")
    return repo


def _run(states, repo, commit, prebuilt=()):
    return rebuild.run_job(states, repo, commit, prebuilt=prebuilt, timeout=600)


def _keys_on(repo: Path, commit: str, *stores: str) -> list[dict]:
    """In a fresh process running commit's code as a hub kernel does (GENVIZ_STATES=prebuilt,
    the first store on GENVIZ_STATES_PATH): each explorer's key and whether its grid is found,
    then whether it is found with each further store on GENVIZ_STATES_PATH instead (read at
    each lookup: one process answers for every store); one dict per store."""
    tree = repo.parent / f"tree-{commit[:8]}"
    if not tree.exists():
        tree.mkdir()
        subprocess.run(f"git -C {repo} archive {commit} | tar -x -C {tree}", shell=True,
                       check=True)
    code = CELL + ("from genviz.widgets.states import load_grid\nimport json, os, sys\n"
                   "for store in sys.argv[1:]:\n"
                   "    os.environ['GENVIZ_STATES_PATH'] = store\n"
                   "    print(json.dumps({n: [e.grid_key, load_grid(e.grid_key) is not None] "
                   "for n, e in [('kde', kde), ('knn', knn)]}))\n")
    env = {**os.environ, "PYTHONPATH": str(tree), "GENVIZ_STATES": "prebuilt",
           "GENVIZ_STATES_PATH": stores[0], "MPLBACKEND": "Agg",
           "GENVIZ_STATES_CACHE": str(repo.parent / "no-cache")}
    out = subprocess.run([sys.executable, "-c", code, *stores], env=env, capture_output=True,
                         text=True, cwd=tree, check=True).stdout
    return [json.loads(line) for line in out.strip().splitlines()[-len(stores):]]


def test_a_docstring_update_keeps_every_grid_and_a_maths_change_rebuilds_exactly_its_grids(
        course, tmp_path):
    image, states = tmp_path / "image", tmp_path / "states"
    first = _commit(course, "course 1")
    built = _run(image, course, first)
    assert built["state"] == "done", built
    assert sorted(r["factory"] for r in built["rebuilt"]) == ["kde_explorer",
                                                              "knn_regression_explorer"]
    prebuilt = rebuild.grids_dir(image)
    image_keys = {p.stem for p in prebuilt.glob("*.gvgrid")}
    assert image_keys == {r["key"] for r in built["rebuilt"]}

    # a documentation-only update: nothing to rebuild
    assert _rewrite_docs(course / "genviz") > 50
    docs = _commit(course, "docstrings and comments")
    status = _run(states, course, docs, [prebuilt])
    assert status["state"] == "done" and status["rebuilt"] == [] and status["kept"] == 2
    assert list(rebuild.grids_dir(states).glob("*.gvgrid")) == []

    # a change to genviz.knn's maths: exactly the explorers using it are rebuilt
    knn = course / "genviz" / "knn.py"
    knn.write_text(knn.read_text() + "\n_MATHS_CHANGED = 1.01\n")
    maths = _commit(course, "knn maths")
    status = _run(states, course, maths, [prebuilt])
    assert status["state"] == "done", status
    rebuilt = {r["factory"] for r in status["rebuilt"]}
    users = {u.rsplit(".", 1)[1] for u in USERS["genviz.knn"]}  # {"knn"}
    assert rebuilt == {"knn_regression_explorer"} and users == {"knn"}
    assert status["kept"] == 1
    new = {p.stem for p in rebuild.grids_dir(states).glob("*.gvgrid")}
    assert new == {r["key"] for r in status["rebuilt"]} and not new & image_keys

    # the oracle of "whose key changed": the keys commit 3's code computes, against the image
    keys, before = _keys_on(course, maths,
                            os.pathsep.join([str(prebuilt), str(rebuild.grids_dir(states))]),
                            str(prebuilt))
    changed = {k for k, _ in keys.values()} - image_keys
    assert changed == new
    assert all(found for _, found in keys.values())  # prebuilt kernels find every grid
    # ... and without the rebuilt directory the k-NN slider falls back to the kernel
    assert before["kde"][1] and not before["knn"][1]
    assert {n: k for n, (k, _) in before.items()} == {n: k for n, (k, _) in keys.items()}

    # the lecturer is told what was rebuilt
    assert "knn_regression_explorer" in rebuild.describe(rebuild.read_status(states))


def test_the_status_command_says_what_was_rebuilt(tmp_path, monkeypatch, capsys):
    states = tmp_path / "states"
    states.mkdir()
    rebuild._write_status(states, {"state": "done", "commit": "abcdef1234567", "kept": 30,
                                   "seconds": 41.0, "rebuilt": [
                                       {"key": "0" * 32, "factory": "knn_regression_explorer",
                                        "notebook": "09_nearest_neighbors.ipynb"}],
                                   "failed": []})
    monkeypatch.setenv("GENVIZ_REBUILD_DIR", str(states))
    assert cli(["status"]) == 0
    out = capsys.readouterr().out
    assert "rebuilt 1 precomputed grid(s) (knn_regression_explorer), kept 30" in out
    assert "09_nearest_neighbors.ipynb" in out
    monkeypatch.delenv("GENVIZ_REBUILD_DIR")
    assert cli(["status"]) == 2  # nowhere to look: said so
    assert "GENVIZ_REBUILD_DIR" in capsys.readouterr().err


def test_a_failing_notebook_is_reported_not_silent(course, tmp_path, capsys):
    _notebook(course / "notebooks" / "02_broken.ipynb", "raise RuntimeError('maths broke')")
    commit = _commit(course, "a broken notebook")
    try:
        status = _run(tmp_path / "states", course, commit)
    finally:
        (course / "notebooks" / "02_broken.ipynb").unlink()
        _commit(course, "fixed")
    assert status["state"] == "failed"
    assert [f["notebook"] for f in status["failed"]] == ["02_broken.ipynb"]
    assert "maths broke" in status["failed"][0]["error"]
    assert len(status["rebuilt"]) == 2  # the other notebook's grids were still built
    text = rebuild.describe(status)
    assert "FAILED" in text and "02_broken.ipynb" in text and "maths broke" in text
    assert rebuild.main(["status", f"--states={tmp_path / 'states'}"]) == 1


def test_a_killed_build_is_reported_failed(tmp_path):
    states = tmp_path / "states"
    states.mkdir()
    rebuild._write_status(states, {"state": "running", "pid": 2 ** 22 + 12345, "commit": "c1"})
    assert rebuild._settle(states)["state"] == "failed"
    assert "ended without a report" in rebuild.describe(rebuild.read_status(states))


def _slow_course(tmp_path) -> tuple[Path, str]:
    repo = tmp_path / "slow"
    _notebook(repo / "notebooks" / "01_slow.ipynb", "import time\ntime.sleep(4)")
    _git(repo, "init", "-q", "-b", "main")
    return repo, _commit(repo, "slow")


def test_two_concurrent_triggers_start_one_build(tmp_path):
    repo, commit = _slow_course(tmp_path)
    states = tmp_path / "states"
    # two processes (two students' clicks, or the service and a lecturer) at the same moment
    code = ("import json, sys; from genviz_updates import rebuild; "
            "print(json.dumps(rebuild.trigger(sys.argv[1], sys.argv[2], sys.argv[3])))")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(states), str(repo), commit],
                              stdout=subprocess.PIPE, text=True) for _ in range(2)]
    results = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
    assert sorted(r["started"] for r in results) == [False, True]
    assert results[0]["pid"] == results[1]["pid"]
    pid = results[0]["pid"]
    assert rebuild.read_status(states)["state"] == "running"
    again = rebuild.trigger(states, repo, commit)  # a third, later click while it runs
    assert not again["started"] and again["pid"] == pid
    deadline = time.monotonic() + 120
    while rebuild.read_status(states)["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.5)
    status = rebuild.read_status(states)
    assert status["state"] == "done" and status["pid"] == pid, status
    # the build was nice'd (its log says so? no: the status keeps its pid; nice checked below)
    assert not rebuild.trigger(states, repo, commit)["started"]  # built: not again
    log = (states / "rebuild.log").read_text()
    assert log.count("[genviz-rebuild]") == 1  # one job ran


def test_the_build_is_niced_and_bounded(tmp_path):
    repo, commit = _slow_course(tmp_path)
    states = tmp_path / "states"
    started = rebuild.trigger(states, repo, commit, timeout=2)
    nice = int(Path(f"/proc/{started['pid']}/stat").read_text().rsplit(")", 1)[1].split()[16])
    assert nice == min(19, os.nice(0) + 10)
    deadline = time.monotonic() + 60
    while rebuild.read_status(states)["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.3)
    status = rebuild.read_status(states)
    assert status["state"] == "failed" and "timed out" in status["failed"][0]["error"]


def test_the_watcher_triggers_on_a_new_commit_and_logs_the_end(tmp_path):
    repo, commit = _slow_course(tmp_path)
    states, said = tmp_path / "states", []
    first = rebuild.watch_once(states, str(repo), "main", say=said.append, first=True)
    assert first["started"] and "first start" in said[-1]  # tests/test_rebuild_first_start.py
    deadline = time.monotonic() + 120
    while rebuild.read_status(states)["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.5)
    assert rebuild.read_status(states)["state"] == "done"
    (repo / "notebooks" / "01_slow.ipynb").write_text(
        (repo / "notebooks" / "01_slow.ipynb").read_text().replace("sleep(4)", "sleep(3)"))
    commit = _commit(repo, "a course update")
    result = rebuild.watch_once(states, str(repo), "main", say=said.append)
    assert result["started"] and result["commit"] == commit
    assert "course update" in said[-1] and str(result["pid"]) in said[-1]
    assert not rebuild.watch_once(states, str(repo), "main", say=said.append)["started"]
    deadline = time.monotonic() + 120
    while rebuild.read_status(states)["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.5)
    rebuild.watch_once(states, str(repo), "main", say=said.append)
    assert "rebuilt 0 precomputed grid(s)" in said[-1]
    n = len(said)
    rebuild.watch_once(states, str(repo), "main", say=said.append)
    assert len(said) == n  # told once


@pytest.mark.parametrize("bad, kwargs, word", [
    ("", {}, "commit"), ("c", {"timeout": 0}, "timeout"), ("c", {"timeout": -5}, "timeout")])
def test_bad_arguments_name_themselves(tmp_path, bad, kwargs, word):
    with pytest.raises(ValueError, match=word):
        rebuild.trigger(tmp_path / "s", tmp_path, bad, **kwargs)
    with pytest.raises(ValueError, match="states"):
        rebuild.trigger("", tmp_path, "c")


def _race(states, repo, commit, monkeypatch) -> list[dict]:
    """Two threads trigger at once; each reads the status slowly (a widened race window)."""
    real = rebuild._settle

    def slow(s):
        status = real(s)
        time.sleep(0.5)
        return status

    monkeypatch.setattr(rebuild, "_settle", slow)
    out = []
    threads = [threading.Thread(target=lambda: out.append(rebuild.trigger(states, repo, commit)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def _stop(results):
    for r in results:
        if r["started"]:
            with contextlib.suppress(ProcessLookupError):
                # the job; its kernel (a session of its own) ends within a second of it:
                # ipykernel watches its parent (JPY_PARENT_PID)
                os.killpg(r["pid"], signal.SIGKILL)


def test_the_lock_is_what_makes_one_build_a_planted_fault_starts_two(tmp_path, monkeypatch):
    repo, commit = _slow_course(tmp_path)
    results = _race(tmp_path / "locked", repo, commit, monkeypatch)
    _stop(results)
    assert sorted(r["started"] for r in results) == [False, True]
    monkeypatch.setattr(rebuild, "_locked", lambda states: contextlib.nullcontext())
    results = _race(tmp_path / "unlocked", repo, commit, monkeypatch)  # the planted fault
    _stop(results)
    assert [r["started"] for r in results] == [True, True]


def test_describe_summary_lines_word_the_grids_reason_and_error_as_before():
    # oracle: the summary lines as describe() wrote them before the " (...)" asides were shared
    rebuilt = [{"factory": "kde_explorer", "key": "k1"}, {"key": "0123456789abcdef"}]
    done = {"state": "done", "commit": "c" * 20, "reason": "maths changed", "kept": 3,
            "seconds": 12, "rebuilt": rebuilt}
    assert rebuild.describe(done).splitlines()[0] == (
        "Course cccccccccccc (maths changed): rebuilt 2 precomputed grid(s) (0123456789ab, "
        "kde_explorer), kept 3, in 12 s.")
    failed = {"state": "failed", "commit": "c1", "error": "killed"}
    assert rebuild.describe(failed).splitlines()[0] == (
        "Course c1: the rebuild of the precomputed states FAILED (killed); rebuilt 0; the other "
        "sliders use the kernel.")
    assert rebuild.describe({**failed, "error": "", "rebuilt": rebuilt[:1]}).splitlines()[0] == (
        "Course c1: the rebuild of the precomputed states FAILED; rebuilt 1 (kde_explorer); the "
        "other sliders use the kernel.")
