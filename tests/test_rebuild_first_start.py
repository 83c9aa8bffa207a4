"""The rebuild service at its first start (issue #39): it builds every grid that is missing or
whose key does not match the course's code, through the same job as after an update (once per
course, lock file, nice'd, bounded, the status says what and why), and nothing when the states
are current: a manifest (genviz.widgets.states.find_manifest) lists every grid the code needs
and every one is stored.

The course is a git repository holding a copy of genviz and one notebook that makes the KDE
and the k-NN regression explorers, a plain ipywidgets slider and a matplotlib figure, and
appends a line to a file each time it runs (so "nothing was run" is seen, not assumed). The
oracle of "the grids a first start must build": a separate process runs the notebook's code
with no states at all and lists every explorer that has a control with ``grid=True``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from genviz.widgets import states as gv_states
from genviz_updates import rebuild

from test_rebuild import CELL, _commit, _git, _notebook, _slow_course

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

EXTRAS = """\
import ipywidgets, matplotlib.pyplot as plt
plain = ipywidgets.IntSlider()
fig, ax = plt.subplots(); ax.plot([0, 1])
"""


def _wait(states, seconds: float = 900) -> dict:
    deadline = time.monotonic() + seconds
    while rebuild.read_status(states).get("state") == "running" and time.monotonic() < deadline:
        time.sleep(0.5)
    return rebuild.read_status(states)


def _runs(course: Path) -> int:
    path = course.parent / "runs.txt"
    return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    repo = tmp_path_factory.mktemp("first") / "course"
    shutil.copytree(ROOT / "genviz", repo / "genviz",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    runs = repo.parent / "runs.txt"
    _notebook(repo / "notebooks" / "01_two_explorers.ipynb",
              f"open({str(runs)!r}, 'a').write('run\\n')", CELL, EXTRAS)
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, "course 1")
    return repo


_ORACLES: dict[str, set] = {}


def _gridded_explorers(repo: Path) -> set[tuple[str, str]]:
    """The oracle: ``{(factory, key)}`` of every explorer the course's notebook makes with a
    gridded control, from its code run in a fresh process with no states. Run once per
    content of the course (its HEAD's tree: the same files give the same explorers)."""
    content = _git(repo, "rev-parse", "HEAD^{tree}")
    if content not in _ORACLES:
        _ORACLES[content] = _run_oracle(repo)
    return set(_ORACLES[content])


def _run_oracle(repo: Path) -> set[tuple[str, str]]:
    tree = repo.parent / "oracle-tree"
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir()
    subprocess.run(f"git -C {repo} archive HEAD | tar -x -C {tree}", shell=True, check=True)
    code = CELL + EXTRAS + (
        "import json\n"
        "print(json.dumps(sorted([v._core.factory[0].__name__, v.grid_key] "
        "for v in list(globals().values()) "
        "if hasattr(v, 'controls') and hasattr(v, 'grid_key') and "
        "any(c.grid for c in v.controls.values()))))\n")
    env = {**os.environ, "PYTHONPATH": str(tree), "GENVIZ_STATES": "off", "MPLBACKEND": "Agg",
           "GENVIZ_STATES_PATH": "", "GENVIZ_STATES_CACHE": str(tree / "no-cache")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=tree, check=True).stdout
    return {tuple(row) for row in json.loads(out.strip().splitlines()[-1])}


@pytest.fixture(scope="module")
def first(course, tmp_path_factory):
    """The service's first round on a hub with no states at all, run to its end."""
    states, said = tmp_path_factory.mktemp("hub") / "states", []
    result = rebuild.watch_once(states, str(course), "main", first=True, say=said.append)
    status = _wait(states)
    return states, result, status, said


def test_a_first_start_with_no_states_builds_exactly_the_gridded_explorers(course, first):
    states, result, status, said = first
    assert result["started"] and "first start" in said[-1] and "checking" in said[-1]
    assert status["state"] == "done", status
    assert status["reason"] == "first start: no precomputed states were built for this code"
    oracle = _gridded_explorers(course)
    assert {f for f, _ in oracle} == {"kde_explorer", "knn_regression_explorer"}
    built = [(r["factory"], r["key"]) for r in status["rebuilt"]]
    assert sorted(built) == sorted(oracle) and status["kept"] == 0
    grids = rebuild.grids_dir(states)
    assert {p.stem for p in grids.glob("*.gvgrid")} == {k for _, k in oracle}
    manifest = json.loads(Path(status["manifest"]).read_text())
    assert set(manifest["keys"]) == {k for _, k in oracle}
    assert _runs(course) == 1
    text = rebuild.describe(status)
    assert "first start" in text and "rebuilt 2 precomputed grid(s)" in text
    # the next round of the service tells the hub's log once
    rebuild.watch_once(states, str(course), "main", say=said.append)
    assert "first start" in said[-1] and "rebuilt 2" in said[-1]


def test_a_first_start_with_current_states_builds_nothing(course, first):
    states = first[0]
    grids = rebuild.grids_dir(states)
    stamps = {p.name: p.stat().st_mtime_ns for p in grids.iterdir()}
    runs = _runs(course)
    said = []
    result = rebuild.watch_once(states, str(course), "main", first=True, say=said.append)
    assert result["started"]  # the check is the job's
    status = _wait(states)
    assert status["state"] == "current", status
    assert status["rebuilt"] == [] and status["kept"] == 2
    assert status["reason"] == "first start: every grid this code needs is stored"
    assert _runs(course) == runs  # no notebook was run
    assert {p.name: p.stat().st_mtime_ns for p in grids.iterdir()} == stamps
    assert "current" in rebuild.describe(status) and "nothing was built" in rebuild.describe(
        status)
    # a later round is not a course update: nothing starts
    assert not rebuild.watch_once(states, str(course), "main", say=said.append)["started"]
    assert "current" in said[-1]


def test_the_states_of_make_states_are_current_for_a_first_start(course, tmp_path):
    """The image's states (``make states``, postBuild: the build command) carry the manifest
    the first start reads: a hub started on them builds nothing."""
    image = tmp_path / "image"
    assert gv_states.main(["build", str(course / "notebooks"), "--out", str(image)]) == 0
    runs = _runs(course)
    states = tmp_path / "states"
    result = rebuild.watch_once(states, str(course), "main", first=True, prebuilt=[image],
                                say=[].append)
    assert result["started"]
    status = _wait(states)
    assert status["state"] == "current" and status["kept"] == 2, status
    assert Path(status["manifest"]).parent == image
    assert list(rebuild.grids_dir(states).glob("*.gvgrid")) == [] and _runs(course) == runs


def _copy_hub(states: Path, into: Path) -> Path:
    shutil.copytree(rebuild.grids_dir(states), rebuild.grids_dir(into))
    return into


def test_a_stale_state_is_rebuilt_at_first_start(course, first, tmp_path):
    oracle = dict(_gridded_explorers(course))
    # a planted key change: the k-NN explorer's grid is stored under a key no explorer has
    states = _copy_hub(first[0], tmp_path / "planted")
    knn = rebuild.grids_dir(states) / f"{oracle['knn_regression_explorer']}.gvgrid"
    knn.rename(knn.with_name("0" * 32 + ".gvgrid"))
    assert rebuild.trigger(states, course, _git(course, "rev-parse", "HEAD"),
                           first_start=True)["started"]
    status = _wait(states)
    assert status["state"] == "done", status
    assert status["reason"].startswith("first start: 1 of the 2 grids its manifest")
    assert [(r["factory"], r["key"]) for r in status["rebuilt"]] == [
        ("knn_regression_explorer", oracle["knn_regression_explorer"])]
    assert status["kept"] == 1 and knn.is_file()

    # the code changed while the hub was down (a fix to genviz.knn's maths): exactly the
    # explorers using it are rebuilt, the other grid is kept
    source = course / "genviz" / "knn.py"
    original = source.read_text()
    source.write_text(original + "\n_MATHS_CHANGED = 1.01\n")
    try:
        _commit(course, "knn maths")
        changed = dict(_gridded_explorers(course))
        states = _copy_hub(first[0], tmp_path / "down")
        rebuild.watch_once(states, str(course), "main", first=True, say=[].append)
        status = _wait(states)
    finally:
        source.write_text(original)
        _commit(course, "knn maths undone")
    assert status["state"] == "done", status
    assert status["reason"] == "first start: no precomputed states were built for this code"
    assert changed["kde_explorer"] == oracle["kde_explorer"]
    assert changed["knn_regression_explorer"] != oracle["knn_regression_explorer"]
    assert [(r["factory"], r["key"]) for r in status["rebuilt"]] == [
        ("knn_regression_explorer", changed["knn_regression_explorer"])]
    assert status["kept"] == 1


def test_two_concurrent_first_starts_build_once(tmp_path):
    repo, commit = _slow_course(tmp_path)
    states = tmp_path / "states"
    argv = [sys.executable, "-m", "genviz_updates.rebuild", "watch", "--once", f"--repo={repo}",
            "--branch=main", f"--states={states}", "--interval=10"]
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert sorted("checking its precomputed states" in o for o in outs) == [False, True], outs
    assert sum("no check started: a build is running" in o for o in outs) == 1, outs
    status = _wait(states, 120)
    assert status["state"] == "done" and status["commit"] == commit, status
    log = (states / "rebuild.log").read_text()
    assert log.count("[genviz-rebuild]") == 1  # one job ran
    # a third start, later: current (the course has no explorer: its manifest lists none)
    out = subprocess.run(argv, capture_output=True, text=True, timeout=120).stdout
    assert "checking" in out
    assert _wait(states, 120)["state"] == "current"


def test_a_failed_first_start_build_is_reported_and_tried_again(tmp_path):
    repo = tmp_path / "broken"
    _notebook(repo / "notebooks" / "01_broken.ipynb", "raise RuntimeError('maths broke')")
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, "broken")
    states, said = tmp_path / "states", []
    assert rebuild.watch_once(states, str(repo), "main", first=True, say=said.append)["started"]
    status = _wait(states, 120)
    assert status["state"] == "failed" and status["reason"].startswith("first start")
    assert [f["notebook"] for f in status["failed"]] == ["01_broken.ipynb"]
    assert "manifest" not in status  # not current: the next start tries again
    rebuild.watch_once(states, str(repo), "main", say=said.append)
    assert "FAILED" in said[-1] and "01_broken.ipynb" in said[-1] and "first start" in said[-1]
    assert rebuild.main(["status", f"--states={states}"]) == 1
    assert rebuild.watch_once(states, str(repo), "main", first=True, say=said.append)["started"]
    assert _wait(states, 120)["state"] == "failed"


def test_the_trial_hub_builds_at_its_first_start_and_not_at_the_next(tmp_path):
    """``make hub`` (deploy/run_hub.py): the start message says how the states come; the
    service's first start builds the course (here a small one), a restart on the same state
    builds nothing, and stopping the hub stops the build too."""
    from hub_testing import TrialHub, cleanup, wait_gone

    repo, commit = _slow_course(tmp_path)
    hub = TrialHub(tmp_path / "hub", env={"GENVIZ_REBUILD_REPO": str(repo),
                                          "GENVIZ_REBUILD_BRANCH": "main"})
    states = hub.state / "rebuild"
    try:
        out = hub.start()
        assert "Precomputed states: the rebuild service (genviz-rebuild) checks them" in out
        assert f"GENVIZ_REBUILD_DIR={states}" in out
        deadline = time.monotonic() + 120
        while rebuild.read_status(states).get("state") in (None, "running") \
                and time.monotonic() < deadline:
            time.sleep(0.5)
        status = rebuild.read_status(states)
        assert status["state"] == "done" and status["commit"] == commit, status
        assert status["reason"].startswith("first start: no precomputed states")
        assert "[genviz-rebuild] first start" in hub.output()
        hub.signal(signal.SIGINT)
        hub.proc.wait(timeout=60)
        assert not wait_gone(hub.seen | hub.processes(), timeout=30)[1]

        hub.proc = None
        hub.log_path = hub.workdir / "hub2.log"
        hub.start()
        deadline = time.monotonic() + 120
        while rebuild.read_status(states).get("state") != "current" \
                and time.monotonic() < deadline:
            time.sleep(0.5)
        assert rebuild.read_status(states)["state"] == "current"
        hub.signal(signal.SIGINT)
        hub.proc.wait(timeout=60)
        assert not wait_gone(hub.seen | hub.processes(), timeout=30)[1]
    finally:
        cleanup(hub)
