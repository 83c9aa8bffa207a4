"""nbval, made to say which number of a checked output did not reproduce (repository-wide conftest).

nbval reports a checked cell whose output differs with a diff of the whole output. This hook
puts first what a reader needs: the notebook, nbval's cell number, the cell's first line and
each number that differs (stored -> printed), with the rule that fixes it
(``scripts/checked_outputs.py``; ARCHITECTURE.md, Conventions 8). nbval's own report follows.
"""

from __future__ import annotations

import os
import pathlib
import sys

import pytest

# pytest's own fixture for testing plugins and hooks (tests/test_durations_order.py runs a
# conftest like this one in a temporary project); tests/nbval_records.py: nbval's run of a
# notebook also writes the records tests/course_records.py caches (each notebook executes once)
sys.path.append(str(pathlib.Path(__file__).resolve().parent / "tests"))
pytest_plugins = ["pytester", "nbval_records"]

# One BLAS thread, as `make` exports it (see the Makefile: numpy's and scipy's OpenBLAS pools
# spin against each other), also for a `pytest` run outside make: for the kernels and
# processes the tests start (they inherit the environment) and for this process.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
try:
    from threadpoolctl import threadpool_limits
except ImportError:  # scikit-learn's dependency: only the oracle tests need it
    pass
else:
    threadpool_limits(int(os.environ["OPENBLAS_NUM_THREADS"]), user_api="blas")

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "scripts"))
import checked_outputs  # noqa: E402
import course_records  # noqa: E402  (tests/)
import durations  # noqa: E402


def describe_difference(item) -> str | None:
    """The differing numbers of a failed nbval cell ``item``, or None if none can be named."""
    cell = getattr(item, "cell", None)
    produced = getattr(item, "test_outputs", None)
    if cell is None or produced is None:
        return None
    stored = checked_outputs.output_text(cell.get("outputs", []))
    printed = checked_outputs.output_text(produced)
    diffs = checked_outputs.number_differences(stored, printed)
    if not diffs:
        return None
    name = pathlib.Path(str(item.fspath)).name
    lines = [f"{name}, cell {item.cell_num} "
             f"({checked_outputs.first_line(cell.get('source', ''))!r}): its checked output "
             f"did not reproduce:"]
    for line, was, now in diffs:
        lines.append(f"  output line {line}: stored {was!r}, printed {now!r}")
    lines.append("If the difference is rounding, not a change you meant: "
                 + checked_outputs.FIX + ".")
    return "\n".join(lines)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed or not hasattr(item, "cell_num"):
        return
    summary = describe_difference(item)
    if summary:
        report.longrepr = f"{summary}\n\n{report.longrepr}"


# -- parallel runs (pytest-xdist: `make test` runs `-n <cores + 1> --dist loadfile`) ------------
# nbval runs a notebook's cells in order in one kernel: the cells of one notebook must stay on
# one worker. `--dist loadfile` keeps every file's items together; `--dist loadgroup` does so
# for the groups added here; any other mode would split a notebook across kernels.
NBVAL_SAFE_DIST = ("no", "loadfile", "loadgroup")


def is_nbval_item(item) -> bool:
    return hasattr(item, "cell_num") and str(item.fspath).endswith(".ipynb")


def given_dist(config) -> str:
    """The ``--dist`` mode of the run. xdist's workers, which collect and run the tests, see
    ``config.option.dist == "no"`` (xdist's ``remote.setup_config`` sets it) and the controller
    collects nothing: so in a worker the mode is read from the arguments as parsed before that
    (``known_args_namespace``), and ``-n`` without ``--dist`` is xdist's ``load``. (Until
    2026-12-01 this hook read ``config.option.dist`` and returned early in every worker: no
    file order and no mode check ever applied in `make test`.)"""
    if not hasattr(config, "workerinput"):
        return getattr(config.option, "dist", "no") or "no"
    known = config.known_args_namespace
    dist = getattr(known, "dist", "no") or "no"
    if dist == "no" and getattr(known, "numprocesses", None):
        dist = "load"
    return dist


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    # the tests measured slow in the inner loop (tests/slow_tests.json, scripts/durations.py)
    # are marked slow, before `-m "not slow"` (make test-fast) deselects by marker
    durations.mark_slow(items, durations.read_table(durations.SLOW_TABLE), pytest.mark.slow)
    dist = given_dist(config)
    if dist == "no":
        return
    # with `--no-loadscope-reorder` (make test) xdist hands the files out in this order: the
    # collection order (measured faster on 2 cores than the longest first: scripts/durations.py)
    # but the notebooks first and the consumers of their recorded runs last, so that nbval's
    # runs record them (tests/nbval_records.py)
    durations.order_items(items, {}, course_records.CONSUMERS)
    cells = [item for item in items if is_nbval_item(item)]
    if not cells:
        return
    if dist not in NBVAL_SAFE_DIST:
        raise pytest.UsageError(
            f"--dist {dist} would split a notebook's nbval cells across workers (each cell "
            f"needs the kernel of the cells before it): use --dist loadfile (as `make test`) "
            f"or --dist loadgroup")
    if dist == "loadgroup":
        for item in cells:
            item.add_marker(pytest.mark.xdist_group(name=f"nbval:{item.fspath}"))
