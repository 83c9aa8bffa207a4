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
    test = re.search(r"^test: .*\n\t(.*)$", make, re.M).group(1)
    fast = re.search(r"^test-fast: .*\n\t(.*)$", make, re.M).group(1)
    assert "$(SUITE_PARALLEL)" in test and "notebooks" in test and "--nbval-lax" in test
    assert "$(PARALLEL)" in fast and '-m "not slow"' in fast


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
