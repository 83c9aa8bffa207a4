"""The suite runs in parallel (pytest-xdist) without splitting a notebook across kernels.

nbval runs a notebook's cells in order in one kernel, each cell an item: under xdist they must
stay on one worker. `make test` distributes by file (``--dist loadfile``); the root conftest.py
refuses the modes that would split a notebook and groups its cells under ``loadgroup``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/00_start_here.ipynb"


def _pytest(*args):
    env = {**os.environ, "MPLBACKEND": "Agg",
           "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_make_test_runs_in_parallel_by_file_and_test_fast_skips_the_slow():
    make = (ROOT / "Makefile").read_text()
    parallel = re.search(r"^PARALLEL\s*:?=\s*(.*)$", make, re.M).group(1)
    assert "-n $(TEST_JOBS)" in parallel and "--dist loadfile" in parallel
    suite = re.search(r"^SUITE_PARALLEL\s*:?=\s*(.*)$", make, re.M).group(1)
    assert "-n $(SUITE_JOBS)" in suite and "--dist loadfile" in suite
    # the recipe's pytest line (before it, $(ENSURE_PROXY) installs the hub's proxy)
    test = re.search(r"^test: .*\n(?:\t.*\n)*?\t(.*-m pytest.*)$", make, re.M).group(1)
    fast = re.search(r"^test-fast: .*\n\t(.*)$", make, re.M).group(1)
    assert "$(SUITE_PARALLEL)" in test and "notebooks" in test and "--nbval-lax" in test
    assert "$(PARALLEL)" in fast and '-m "not slow"' in fast
    # both write bytecode whatever the machine says (pytest's assertion rewrites, genviz's
    # modules in every kernel and sandbox): an empty PYTHONDONTWRITEBYTECODE, which Python reads
    # as unset
    env = re.search(r"^TEST_ENV\s*:?=\s*(.*)$", make, re.M).group(1).split()
    assert "PYTHONDONTWRITEBYTECODE=" in env
    assert test.startswith("$(TEST_ENV) ") and fast.startswith("$(TEST_ENV) ")


@pytest.mark.parametrize("jobs, suite, fast", [(None, str(len(os.sched_getaffinity(0)) + 1), "auto"),
                                               ("4", "4", "4"), ("0", "0", "0")])
def test_make_test_runs_one_worker_more_than_cores_and_test_jobs_sets_both(jobs, suite, fast):
    """What make runs (``make -n``): the whole suite one worker more than cores (its waits --
    servers starting, time limits -- are filled), the inner loop one a core; TEST_JOBS=N both."""
    # not the calling make's flags either: `make test TEST_JOBS=4` passes its variables on to
    # every make below it through MAKEFLAGS
    env = {k: v for k, v in os.environ.items()
           if k not in ("TEST_JOBS", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    if jobs is not None:
        env["TEST_JOBS"] = jobs
    shown = {}
    for target in ("test", "test-fast"):
        out = subprocess.run(["make", "-n", target], cwd=ROOT, env=env, capture_output=True,
                             text=True)
        line = [ln for ln in out.stdout.splitlines() if " -m pytest " in ln][-1]
        shown[target] = re.search(r" -n (\S+) ", line).group(1)
    assert shown == {"test": suite, "test-fast": fast}
    assert "pytest-xdist" in (ROOT / "pyproject.toml").read_text()


@pytest.mark.slow
def test_a_distribution_that_would_split_a_notebook_is_refused():
    pytest.importorskip("xdist")
    out = _pytest("--collect-only", "-q", "--nbval-lax", "-n", "1", "--dist", "load", NOTEBOOK)
    assert out.returncode != 0
    assert "would split a notebook's nbval cells" in out.stdout + out.stderr


def test_nbval_cells_get_one_group_per_notebook_under_loadgroup():
    import importlib.util

    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    root_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root_conftest)

    class Option:
        dist = "loadgroup"

    class Config:
        option = Option()

    class Cell:
        def __init__(self, path, n):
            self.fspath, self.cell_num, self.marks = path, n, []
            self.nodeid = f"{path}::Cell {n}"

        def add_marker(self, mark):
            self.marks.append(mark)

    class Plain:
        fspath = "tests/test_x.py"
        nodeid = "tests/test_x.py::test_y"

    items = [Cell("notebooks/a.ipynb", 0), Cell("notebooks/a.ipynb", 1),
             Cell("notebooks/b.ipynb", 0), Plain()]
    root_conftest.pytest_collection_modifyitems(Config(), items)
    groups = [[m.kwargs["name"] for m in c.marks] for c in items[:3]]
    assert groups == [["nbval:notebooks/a.ipynb"]] * 2 + [["nbval:notebooks/b.ipynb"]]
    Option.dist = "each"
    with pytest.raises(pytest.UsageError, match="--dist each would split"):
        root_conftest.pytest_collection_modifyitems(Config(), items)


@pytest.mark.slow
def test_the_workers_run_the_files_in_the_conftests_order(tmp_path):
    """In xdist's workers, which collect and run the tests, ``config.option.dist`` is "no":
    the root conftest reads the mode as given (``given_dist``), so `make test`'s order applies
    -- here the notebook, collected last, runs first (the notebooks before the rest,
    scripts/durations.py). Planted: reading ``config.option.dist`` there (as until 2026-12-01)
    leaves collection order, the notebook last."""
    pytest.importorskip("xdist")
    report = tmp_path / "junit.xml"
    out = _pytest("-n", "1", "--dist", "loadfile", "--no-loadscope-reorder", "--nbval-lax",
                  "--record-notebooks=no", f"--junitxml={report}", "-q",
                  "tests/test_durations_order.py", NOTEBOOK)
    assert out.returncode == 0, out.stdout[-2000:]
    import xml.etree.ElementTree as ET

    classes = [tc.get("classname") for tc in ET.parse(report).iter("testcase")]
    assert classes[0].startswith("notebooks.00_start_here") and \
        classes[-1] == "tests.test_durations_order", classes


def test_the_mode_given_is_read_in_a_worker_too():
    import argparse
    import importlib.util

    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    root_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root_conftest)

    class Config:
        option = argparse.Namespace(dist="no")

    worker = Config()
    worker.workerinput = {}
    for known, want in [({"dist": "loadfile", "numprocesses": 3}, "loadfile"),
                        ({"dist": "no", "numprocesses": 3}, "load"),
                        ({"dist": "no", "numprocesses": None}, "no")]:
        worker.known_args_namespace = argparse.Namespace(**known)
        assert root_conftest.given_dist(worker) == want
    assert root_conftest.given_dist(Config()) == "no"  # the controller, or no xdist
