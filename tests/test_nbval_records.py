"""tests/nbval_records.py: nbval's run of a notebook writes the records its consumers read.

- nbval's run of notebook 01 (a copy, with ``--record-notebooks=yes``) writes, under the key
  :func:`course_records.cache_files` gives, the records :func:`course_records.notebook_run`'s own
  nbclient run writes: equal field by field (no field is machine-dependent: both runs are on this
  machine, and the grids' bytes come from one states cache), while nbval still passes every cell;
- a failing cell writes nothing, and the lock is free afterwards; a lock held by a consumer is not
  waited for: nbval runs as without the plugin (``GENVIZ_STATES`` as the tests set it) and writes
  nothing -- a planted notebook prints the kernel's ``GENVIZ_STATES`` in a checked output;
- what the plugin relies on in nbval is still there, and its list of consumers is the test files
  that read the recorded runs.
"""

from __future__ import annotations

import fcntl
import inspect
import json
import re
import shutil
import threading
from pathlib import Path

import nbformat
import pytest

import course_records as CR
import nbval_records as NR

ROOT = Path(__file__).resolve().parents[1]
NB01 = ROOT / "notebooks" / "01_probability_and_joint_tables.ipynb"


def run_nbval(pytester, *args):
    return pytester.runpytest("--nbval-lax", "-p", "no:cacheprovider", "-p", "nbval_records",
                              "--record-notebooks=yes", *args)


def differences(a, b, where="") -> list[str]:
    """Every field where the JSON values ``a`` and ``b`` differ, by its path."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{where}.{k}: only in one" for k in sorted(set(a) ^ set(b))]
        return out + [d for k in sorted(set(a) & set(b)) for d in differences(a[k], b[k],
                                                                                f"{where}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} against {len(b)} entries"]
        return [d for k, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{where}[{k}]")]
    return [] if a == b and type(a) is type(b) else [f"{where}: {a!r} against {b!r}"]


@pytest.mark.slow
def test_nbval_records_the_run_its_consumers_would_make(pytester, tmp_path, monkeypatch):
    nb = pytester.path / NB01.name
    shutil.copy(NB01, nb)
    n_cells = sum(c.cell_type == "code" for c in nbformat.read(nb, as_version=4).cells)
    monkeypatch.setenv("GENVIZ_PRACTICE_CACHE", str(tmp_path / "by-nbval"))
    run_nbval(pytester, str(nb)).assert_outcomes(passed=n_cells)
    cached, lock = CR.cache_files(nb, CR.ALL_HOOK, CR.ALL_REPORT, CR.ALL_ENV)
    assert cached.exists(), "nbval's run of the notebook wrote no records"
    by_nbval = json.loads(cached.read_text())

    monkeypatch.setenv("GENVIZ_PRACTICE_CACHE", str(tmp_path / "own"))
    own = CR.notebook_run(nb)  # the consumers' own run (nbclient), in an empty cache
    assert CR.cache_files(nb, CR.ALL_HOOK, CR.ALL_REPORT, CR.ALL_ENV)[0].exists()
    assert differences(by_nbval, own) == []
    # the records are those of a real run: items at their cells, cycles gone through, grids built
    assert own["items"] and own["practice"] and own["cycles"] and own["offline"]["explorers"]
    assert all(0 <= r["cell"] < len(nbformat.read(nb, as_version=4).cells)
               for r in own["items"] + own["practice"])
    assert all(not c["problems"] for c in own["cycles"])
    assert all(e["states"] for e in own["offline"]["explorers"]), "no grid built: not the env"


def planted_notebook(path: Path, states: str, fail: bool, fail_first: bool = False) -> Path:
    """A notebook whose checked cell prints the kernel's GENVIZ_STATES (stored: ``states``),
    then a cell that raises if ``fail`` (first, before the others, if ``fail_first``)."""
    printed = nbformat.v4.new_code_cell(
        "# NBVAL_CHECK_OUTPUT\nimport os\nprint(os.environ.get('GENVIZ_STATES'))",
        execution_count=2,
        outputs=[nbformat.v4.new_output("stream", name="stdout", text=f"{states}\n")])
    cells = [nbformat.v4.new_code_cell("x = 1", execution_count=1), printed]
    if fail:
        failing = nbformat.v4.new_code_cell("raise ValueError('planted')", execution_count=3)
        cells.insert(0, failing) if fail_first else cells.append(failing)
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


def lock_is_free(lockfile: Path) -> bool:
    with open(lockfile, "w") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True


@pytest.mark.slow
def test_a_failing_cell_records_nothing_and_frees_the_lock(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("GENVIZ_PRACTICE_CACHE", str(tmp_path / "cache"))
    nb = planted_notebook(pytester.path / "planted.ipynb", "build", fail=True)
    # the checked cell passes: the kernel had the recorded run's environment
    run_nbval(pytester, str(nb)).assert_outcomes(passed=2, failed=1)
    cached, lockfile = CR.cache_files(nb, CR.ALL_HOOK, CR.ALL_REPORT, CR.ALL_ENV)
    assert lockfile.exists() and lock_is_free(lockfile)
    assert not cached.exists() and not list(cached.parent.glob("*.json*"))
    # -x: the session stops after the first cell, the notebook's file still set up
    nb = planted_notebook(pytester.path / "first.ipynb", "build", fail=True, fail_first=True)
    run_nbval(pytester, "-x", str(nb)).assert_outcomes(failed=1)
    cached, lockfile = CR.cache_files(nb, CR.ALL_HOOK, CR.ALL_REPORT, CR.ALL_ENV)
    assert lockfile.exists() and lock_is_free(lockfile)
    assert not list(cached.parent.glob("*.json*"))


@pytest.mark.slow
def test_nbval_never_waits_for_a_consumer(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("GENVIZ_PRACTICE_CACHE", str(tmp_path / "cache"))
    nb = planted_notebook(pytester.path / "planted.ipynb", "off", fail=False)
    cached, lockfile = CR.cache_files(nb, CR.ALL_HOOK, CR.ALL_REPORT, CR.ALL_ENV)
    lockfile.parent.mkdir(parents=True)
    consumer = open(lockfile, "w")
    fcntl.flock(consumer, fcntl.LOCK_EX)  # a consumer running the notebook
    # if nbval waited, it would get the lock after a minute and record: the test fails, not hangs
    timer = threading.Timer(60, consumer.close)
    timer.start()
    try:
        # the checked cell passes: the kernel had the tests' GENVIZ_STATES, no hook
        run_nbval(pytester, str(nb)).assert_outcomes(passed=2)
        assert not consumer.closed, "nbval waited for the consumer's lock"
    finally:
        timer.cancel()
        consumer.close()
    assert not cached.exists()


def test_nbval_still_has_what_the_recording_relies_on():
    """tests/nbval_records.py's docstring lists it; the slow tests above run it."""
    from nbval import kernel, plugin

    def source(f):
        return re.sub(r"\s+", " ", inspect.getsource(f))

    assert "self.kernel = RunningKernel(" in source(plugin.IPyNbFile.setup)
    assert "self.kernel.stop()" in source(plugin.IPyNbFile.teardown)
    assert "self.nb = nbformat.read(" in source(plugin.IPyNbFile.collect)
    assert "cell_num=cell_num, cell=cell, options=options" in source(plugin.IPyNbFile.collect)
    assert "self.km, self.kc = start_new_kernel(" in source(kernel.RunningKernel.__init__)
    runtest = source(plugin.IPyNbCell.runtest)
    assert "if self.options['skip']:" in runtest
    assert "kernel.execute_cell_input( self.cell.source" in runtest
    execute = source(kernel.RunningKernel.execute_cell_input)
    assert "self.kc.execute(" in execute and "silent" not in execute  # pre_run_cell fires


def test_the_consumers_are_the_test_files_that_read_recorded_runs():
    readers = sorted(f"tests/{p.name}" for p in (ROOT / "tests").glob("test_*.py")
                     if "course_records" in p.read_text() and p.name != Path(__file__).name)
    assert readers == sorted(NR.CONSUMERS)
