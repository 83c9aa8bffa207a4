"""nbval's run of a notebook records it too: in `make test` each notebook executes once.

``tests/test_practice.py``, ``tests/test_teaching.py`` and ``tests/test_offline_controls.py`` read
the records of a run of each notebook with the three hooks (``tests/course_records.py``,
:func:`course_records.notebook_run`: nbclient, ``ALL_HOOK`` first, ``ALL_REPORT`` last,
``GENVIZ_STATES=build``), cached in ``build/practice-cache``. nbval runs the same notebooks in
`make test`. This plugin (registered by the repository's ``conftest.py``) makes nbval's kernel
run them with the hooks, so nbval's run also writes those records, under the same key
(:func:`course_records.cache_files`); the consumers then find the cache, as they do for any run
that came before. Decisions:

- **When.** Only when the session collected a consumer (:data:`CONSUMERS`, checked against the
  files that call the recorded run by ``tests/test_nbval_records.py``) and every code cell of the
  notebook is collected, in order, none blank or skipped (the recorded run would skip a blank
  cell, nbval runs it: the cell numbers would differ). Otherwise
  nbval runs as before: ``pytest --nbval-lax notebooks`` alone builds no grids and records
  nothing; ``pytest tests/test_practice.py`` and the scripts run the notebooks themselves.
- **Never waiting.** At the notebook's first cell the plugin takes the notebook's lock
  (``<key>.lock``, the one :func:`course_records.run_recorded` takes) without blocking; if a
  consumer holds it, or the records are cached already, nbval runs exactly as without this
  plugin (no hook, ``GENVIZ_STATES=off``, no grid built). A consumer keeps its logic: it waits
  for the lock, reads the cache, or runs the notebook itself. nbval waits for nobody, so there is
  no cycle whatever xdist hands out where. So that nbval comes first, `make test` hands the
  notebooks out first and the consumers last (``scripts/durations.py``); a consumer that meets a
  notebook still running waits for that notebook, never the reverse.
- **The kernel.** nbval starts its kernel (``IPyNbFile.setup``) in the first cell's setup, from
  this process's environment: around that setup the plugin adds :data:`course_records.ALL_ENV`
  and PYTHONPATH (:func:`course_records.kernel_env`) and restores the environment after; then it
  runs ``ALL_HOOK`` through nbval's kernel client (``store_history=False`` as nbval's cells: no
  execution count moves; nbval compares no hook output -- the hook prints nothing and nbval reads
  only the messages of its own cell). The hook counts the notebook's cells by ``pre_run_cell``
  from the next cell on, as in the recorded run, so ``ordinal`` maps to ``cell`` the same way.
- **The end.** In the last cell's teardown, before nbval stops the kernel, the plugin runs
  ``ALL_REPORT`` (which also goes through each observation box's cycle) in the kernel and writes
  the records (:func:`course_records.save_run`: whole or not at all) -- only if every code cell
  was set up and passed in order (a failed, skipped or xfailed cell, a cell left out, an error
  in the hook or report: nothing is written, and a consumer runs the notebook itself). The lock
  is released there in every case -- when the notebook's file is torn down, whichever cell ran
  last -- and at the session's end (``-x``, errors, KeyboardInterrupt); a dead process's lock is
  freed by the system.
- **Grids** go to ``build/states`` as the recorded run's (``ALL_ENV``): ``make site`` reuses them.

What this relies on in nbval (0.11; ``tests/test_nbval_records.py`` fails if it changes): an
``IPyNbFile`` collector per notebook whose ``setup`` starts the kernel with the environment of the
moment and keeps it as ``.kernel`` (a ``RunningKernel`` whose ``.kc`` is a blocking
jupyter_client client), whose ``teardown`` stops it, and ``.nb``, the notebook read at
collection; one ``IPyNbCell`` per code cell with ``cell_num`` (0, 1, ... in order), ``cell`` and
``options["skip"]``, each executed as one request not silent (so ``pre_run_cell`` fires).
"""

from __future__ import annotations

import fcntl
import os
import warnings
from pathlib import Path

import pytest

import course_records as CR

ROOT = Path(__file__).resolve().parents[1]
#: The test files that read the recorded runs: nbval records only when one is collected.
CONSUMERS = CR.CONSUMERS
#: A report or hook that runs longer is abandoned (nothing recorded): the recorded run's limit.
TIMEOUT = 600

_STATE = pytest.StashKey[dict]()


def pytest_addoption(parser):
    parser.addoption("--record-notebooks", choices=("auto", "yes", "no"), default="auto",
                     help="nbval's run of a notebook also writes its recorded run "
                          "(tests/nbval_records.py): auto = when a consumer of the records is "
                          "collected")


def is_nbval_cell(item) -> bool:
    return hasattr(item, "cell_num") and str(item.fspath).endswith(".ipynb")


def _consumer_collected(items) -> bool:
    consumers = {ROOT / c for c in CONSUMERS}
    return any(Path(str(item.fspath)).resolve() in consumers for item in items)


def recordable(notebook, cells) -> bool:
    """Whether nbval's run of ``notebook`` (an nbval file collector) can stand for the recorded
    run: ``cells``, the items collected of it, are every code cell, in order, none blank or
    skipped by nbval or by nbclient."""
    code = [c for c in notebook.nb.cells if c.cell_type == "code"]
    return (len(cells) == len(code) and [c.cell_num for c in cells] == list(range(len(code)))
            and all(c.cell.source.strip() and not c.options["skip"]
                    and "skip-execution" not in c.cell.metadata.get("tags", ()) for c in cells))


def pytest_collection_finish(session):
    mode = session.config.getoption("record_notebooks")
    state = session.config.stash[_STATE] = {"notebooks": set(), "runs": {}}
    if mode == "no" or (mode == "auto" and not _consumer_collected(session.items)):
        return
    by_file: dict = {}
    for item in session.items:
        if is_nbval_cell(item):
            by_file.setdefault(item.parent, []).append(item)
    state["notebooks"] = {nb for nb, cells in by_file.items() if recordable(nb, cells)}


class Recording:
    """One notebook being recorded: its lock held, the cells passed so far."""

    def __init__(self, notebook, lock, cached):
        self.notebook, self.lock, self.cached = notebook, lock, cached
        self.path = Path(str(notebook.fspath))
        self.n_cells = sum(c.cell_type == "code" for c in notebook.nb.cells)
        self.passed = 0  # cells 0 .. passed-1 passed, in order
        self.ok = True

    def release(self):
        if not self.lock.closed:
            self.lock.close()  # closing the file frees the flock


def _begin(item) -> Recording | None:
    """The notebook's lock, taken without waiting, when its records are not cached yet."""
    state = item.config.stash.get(_STATE, None)
    if state is None or item.parent not in state["notebooks"] or item.cell_num != 0:
        return None
    path = Path(str(item.fspath))
    cached, lockfile = CR.cache_files(path, CR.ALL_HOOK, CR.ALL_REPORT, CR.ALL_ENV)
    if cached.exists():
        return None
    lockfile.parent.mkdir(parents=True, exist_ok=True)
    lock = open(lockfile, "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # a consumer is running it: nbval runs as without recording
        lock.close()
        return None
    if cached.exists():  # written between the look and the lock
        lock.close()
        return None
    rec = state["runs"][item.parent] = Recording(item.parent, lock, cached)
    return rec


def _end(item, *, write: bool) -> None:
    state = item.config.stash.get(_STATE, None)
    rec = state and state["runs"].pop(item.parent, None)
    if rec is None:
        return
    try:
        if write and rec.ok and rec.passed == rec.n_cells:
            text = _execute(rec.notebook, CR.ALL_REPORT)
            if text is not None and "GENVIZ-RECORDS " in text:
                CR.save_run(list(rec.notebook.nb.cells), text, CR.all_items, rec.cached)
    finally:
        rec.release()


def _execute(notebook, code: str) -> str | None:
    """Run ``code`` in nbval's kernel of ``notebook``: its printed text, or None on an error."""
    kernel = getattr(notebook, "kernel", None)
    if kernel is None or not kernel.is_alive():
        return None
    out, failed = [], []

    def hook(msg):
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            failed.append(msg["content"]["ename"])

    try:
        reply = kernel.kc.execute_interactive(code, store_history=False, allow_stdin=False,
                                              timeout=TIMEOUT, output_hook=hook)
    except Exception:  # a timeout, a dead kernel: nothing recorded
        return None
    if failed or reply["content"]["status"] != "ok":
        return None
    return "".join(out)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    rec = _begin(item) if is_nbval_cell(item) else None
    if rec is None:
        yield
        return
    saved = dict(os.environ)
    os.environ.update(CR.kernel_env(CR.ALL_ENV))  # nbval's kernel starts in this setup
    try:
        outcome = yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
    if outcome.excinfo is not None or _execute(item.parent, CR.ALL_HOOK) is None:
        rec.ok = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    state = item.config.stash.get(_STATE, None)
    rec = state and state["runs"].get(item.parent)
    if rec is None or not is_nbval_cell(item):
        return
    report = outcome.get_result()
    if not report.passed or hasattr(report, "wasxfail"):
        rec.ok = False
    elif report.when == "call":
        if item.cell_num == rec.passed:
            rec.passed += 1
        else:
            rec.ok = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    if is_nbval_cell(item) and (nextitem is None or item.parent not in nextitem.listchain()):
        try:
            _end(item, write=True)  # before nbval's teardown stops the kernel
        except Exception as exc:  # the lock is released; a consumer runs the notebook itself
            warnings.warn(f"{item.fspath}: nbval's run was not recorded: {exc!r}",
                          pytest.PytestWarning)
    yield


def pytest_sessionfinish(session):
    state = session.config.stash.get(_STATE, None)
    for rec in (state or {}).get("runs", {}).values():
        rec.release()
    if state:
        state["runs"].clear()
